"""Lie-series tools of Sec. 2.2 and Lemma 8 (l. 44-58, 134-138, 266-290).

* :func:`gate` -- the BCH gate ``G(beta) = beta / (1 - e^{-beta})`` (l. 138), ``G(0) = 1``.
* :func:`gate_matrices` -- the 2x2 pair ``X = diag(beta, 0)``, ``Y = E_12``, ``[X, Y] = beta Y``.
* :func:`hidden_pair` -- a conjugated ``d x d`` pair with ``[X, Y] = beta Y`` (Lemma 8 in a
  representation that hides the 2x2 structure).
* :func:`bracket` -- the vector-field bracket ``[F, G](X) = DG(X)[F(X)] - DF(X)[G(X)]`` (the
  commutator of the derivations ``F . grad``; ``torch.func.jvp``, real-linear directional
  derivatives, so it differentiates through conjugation).
* :func:`lie_trotter` -- ``(e^{A/T} e^{B/T})^T`` for matrices (Lemma 1).
* :func:`flow` -- the time-``t`` flow of a vector field on ``R^n`` / ``C^n`` (``scipy`` DOP853).
"""

from __future__ import annotations

import cmath
import math
from collections.abc import Callable

import numpy as np
import torch
from scipy.integrate import solve_ivp
from torch.func import jvp

Field = Callable[[torch.Tensor], torch.Tensor]


def gate(beta: complex | float) -> complex | float:
    """``G(beta) = beta / (1 - exp(-beta))``, with the removable value ``G(0) = 1``.

    Poles at ``beta = 2 pi i k``, ``k != 0``.
    """
    if beta == 0:
        return 1.0
    if isinstance(beta, complex):
        return beta / (1 - cmath.exp(-beta))
    return beta / (-math.expm1(-beta))


def gate_matrices(beta: complex,
                  dtype: torch.dtype = torch.complex128) -> tuple[torch.Tensor, torch.Tensor]:
    """``X = diag(beta, 0)``, ``Y = E_12``: the smallest pair with ``[X, Y] = beta Y``."""
    X = torch.zeros(2, 2, dtype=dtype)
    X[0, 0] = beta
    Y = torch.zeros(2, 2, dtype=dtype)
    Y[0, 1] = 1
    return X, Y


def hidden_pair(beta: float, d: int,
                generator: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
    """``X = S D S^{-1}``, ``Y = S (sum_i c_i E_{i,i+1}) S^{-1}`` with random ``S`` and ``c``.

    ``D = diag((d-1) beta, ..., beta, 0)``, so every superdiagonal pair of eigenvalues differs
    by beta and ``[D, E_{i,i+1}] = beta E_{i,i+1}``.
    """
    dev = generator.device
    D = torch.diag(torch.arange(d, dtype=torch.float64, device=dev).flip(0) * beta).to(
        torch.complex128)
    N = torch.zeros(d, d, dtype=torch.complex128, device=dev)
    for i in range(d - 1):
        N[i, i + 1] = complex(torch.randn(1, generator=generator, dtype=torch.float64,
            device=generator.device).item(), 0.0)
    noise = torch.randn(d, d, generator=generator, dtype=torch.float64,
        device=generator.device).to(torch.complex128)
    S = torch.eye(d, dtype=torch.complex128, device=dev) + 0.3 * noise
    Si = torch.linalg.inv(S)
    return S @ D @ Si, S @ N @ Si


def commutator(A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
    """``[A, B] = AB - BA`` (the paper's convention, l. 28)."""
    return A @ B - B @ A


def bracket(F: Field, G: Field, X: torch.Tensor) -> torch.Tensor:
    """``[F, G](X) = DG(X)[F(X)] - DF(X)[G(X)]`` (derivation commutator ``[F.grad, G.grad]``)."""
    _, dG = jvp(G, (X,), (F(X),))
    _, dF = jvp(F, (X,), (G(X),))
    return dG - dF


def lie_trotter(A: torch.Tensor, B: torch.Tensor, T: int, step: float = 1.0) -> torch.Tensor:
    """``(exp(step A / T) exp(step B / T))^T``."""
    E = torch.linalg.matrix_exp(step * A / T) @ torch.linalg.matrix_exp(step * B / T)
    return torch.linalg.matrix_power(E, T)


def flow(F: Field, X0: torch.Tensor, t: float = 1.0, rtol: float = 1e-12,
         atol: float = 1e-14) -> torch.Tensor:
    """Time-``t`` flow of ``Xdot = F(X)`` from ``X0`` (DOP853); complex states are split into
    real and imaginary parts."""
    shape, cplx, device = X0.shape, torch.is_complex(X0), X0.device

    def unpack(y: np.ndarray) -> torch.Tensor:
        """The solver's host state as a tensor on ``X0``'s device (the field's parameters
        live there)."""
        if cplx:
            n = y.size // 2
            re, im = torch.from_numpy(y[:n].copy()), torch.from_numpy(y[n:].copy())
            return torch.complex(re, im).reshape(shape).to(device)
        return torch.from_numpy(y.copy()).reshape(shape).to(device)

    def pack(Z: torch.Tensor) -> np.ndarray:
        z = Z.detach().reshape(-1)
        if cplx:
            return np.concatenate([z.real.cpu().numpy(), z.imag.cpu().numpy()])
        return z.cpu().numpy()

    sol = solve_ivp(lambda _t, y: pack(F(unpack(y))), (0.0, t), pack(X0), method="DOP853",
                    rtol=rtol, atol=atol)
    if not sol.success:
        raise RuntimeError(f"flow integration failed: {sol.message}")
    return unpack(sol.y[:, -1])

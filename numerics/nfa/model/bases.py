"""Fixed finite sinusoidal / Fourier bases of "Neural Fields Meet Attention" (nfa).

* :class:`SinusoidalBasis` -- ``phi_k(x) = sin(w_k^T x + b_k)`` (Thm 3, L160; Lemma 5, L356);
  with ``b_k = 0`` it is Lemma 2's basis ``sin(omega_k^T x)`` (L146) and Exp. 2's (L209).
* :class:`FourierBasis` -- ``phi_k(x) = exp(i <omega_k, x>)`` (Thm 9, L526).
* :func:`design_matrix` -- ``Phi_{ik} = phi_k(x_i)`` (App. D, L688).
* :func:`span_residual` -- normalised least-squares residual of a function sampled on points
  after projection onto the sampled span; the sampled-rank certificate used for Lemma 2/5,
  Thm 9 and Cor. 10 (a function *in* the span has residual at round-off on every sample set;
  a residual well above round-off on one sample set proves the function is not in the span).
"""

from __future__ import annotations

import torch
from torch import Tensor, nn

__all__ = [
    "SinusoidalBasis",
    "FourierBasis",
    "design_matrix",
    "span_residual",
    "min_singular_ratio",
]


class SinusoidalBasis(nn.Module):
    """``phi_k(x) = sin(omega_k^T x + phase_k)``, k = 1..K, fixed (buffers, not parameters).

    Args:
        omega: frequencies, shape (K, d).
        phase: phases, shape (K,) (default zeros: Lemma 2's / Exp. 2's phase-free basis).
    """

    def __init__(self, omega: Tensor, phase: Tensor | None = None) -> None:
        super().__init__()
        omega = torch.as_tensor(omega)
        self.register_buffer("omega", omega)
        self.register_buffer(
            "phase",
            torch.zeros(omega.shape[0], dtype=omega.dtype)
            if phase is None
            else torch.as_tensor(phase, dtype=omega.dtype),
        )

    @property
    def K(self) -> int:
        return int(self.omega.shape[0])

    def forward(self, x: Tensor) -> Tensor:
        """Basis values, shape (..., N, K), for points ``x`` of shape (..., N, d)."""
        return torch.sin(x @ self.omega.transpose(0, 1) + self.phase)


class FourierBasis(nn.Module):
    """``phi_k(x) = exp(i <omega_k, x>)`` with frequencies ``omega`` of shape (K, n) (Thm 9)."""

    def __init__(self, omega: Tensor) -> None:
        super().__init__()
        self.register_buffer("omega", torch.as_tensor(omega))

    def forward(self, x: Tensor) -> Tensor:
        """Complex basis values, shape (..., N, K)."""
        return torch.exp(
            1j
            * (x @ self.omega.transpose(0, 1)).to(
                torch.complex128 if x.dtype == torch.float64 else torch.complex64
            )
        )


def design_matrix(basis: nn.Module, x: Tensor) -> Tensor:
    """``Phi`` with ``Phi[..., i, k] = phi_k(x_i)`` (App. D setup, L688)."""
    return basis(x)


def span_residual(A: Tensor, v: Tensor) -> Tensor:
    """``||v - A A^+ v|| / ||v||``: the relative residual of ``v`` after projection onto col(A).

    ``A`` (M, K) holds the sampled basis, ``v`` (M,) the sampled candidate function. Works for
    real and complex inputs (least squares via ``torch.linalg.lstsq`` with the gelsd driver).
    """
    sol = torch.linalg.lstsq(
        A, v.unsqueeze(-1), driver="gelsd" if A.device.type == "cpu" else None
    ).solution
    res = v - (A @ sol).squeeze(-1)
    return res.abs().norm() / v.abs().norm().clamp_min(torch.finfo(res.real.dtype).tiny)


def min_singular_ratio(A: Tensor) -> Tensor:
    """``sigma_min / sigma_max`` of ``A``: full column rank certificate when well above eps."""
    sv = torch.linalg.svdvals(A)
    return sv[..., -1] / sv[..., 0]

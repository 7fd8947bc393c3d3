"""Wirtinger calculus in torch, in the paper's layout (Def. 2, l. 64; l. 196).

Conventions (checked in ``tests/toef/test_toef_wirtinger.py`` against the installed torch):

* For a real loss ``L`` of a complex leaf ``X``, torch's ``X.grad`` equals
  ``dL/dRe X + i dL/dIm X = 2 dL/d(conj X)``.
* For a complex scalar ``V``: ``dV/dX^* = 1/2 (grad Re V + i grad Im V)`` (two backward
  passes); this is the ``N x C`` matrix with entries ``dV/d conj(X_jk)``, ``X`` and ``conj X``
  treated as independent (the paper's ``dV/dX^*``).
* Full Wirtinger Jacobians of a field ``F: C^{NxC} -> C^{NxC}`` come from the real Jacobian of
  ``(Re X, Im X) -> (Re F, Im F)`` (``torch.func.jacfwd``) with ``d/dz = (d/dx - i d/dy)/2``
  and ``d/dzbar = (d/dx + i d/dy)/2``.
* A smooth field ``F`` equals ``dV/dX^*`` for some ``V`` (simply connected domain) iff its
  conjugate Jacobian ``J[a, b] = dF_a / d conj(X_b)`` is symmetric: :func:`closedness_defect`.
"""

from __future__ import annotations

from collections.abc import Callable

import torch
from torch.func import jacfwd

Field = Callable[[torch.Tensor], torch.Tensor]
Scalar = Callable[[torch.Tensor], torch.Tensor]


def _grad_re_im(V: Scalar, X: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """torch's gradients ``grad Re V`` and ``grad Im V`` at ``X`` (zeros where unused)."""
    with torch.enable_grad():
        X = X.detach().clone().requires_grad_(True)
        v = V(X)
        if not torch.is_complex(v):
            v = torch.complex(v, torch.zeros_like(v))
        gr = torch.autograd.grad(v.real, X, retain_graph=True, allow_unused=True)[0]
        gi = torch.autograd.grad(v.imag, X, allow_unused=True)[0]
    gr = torch.zeros_like(X) if gr is None else gr
    gi = torch.zeros_like(X) if gi is None else gi
    return gr, gi


def dV_dXbar(V: Scalar, X: torch.Tensor) -> torch.Tensor:
    """The Wirtinger derivative ``dV/dX^*`` (entries ``dV/d conj X_jk``) of a complex scalar."""
    gr, gi = _grad_re_im(V, X)
    return 0.5 * (gr + 1j * gi)


def dV_dX(V: Scalar, X: torch.Tensor) -> torch.Tensor:
    """``dV/dX`` in ``N x C`` entry layout (entries ``dV/dX_jk``); the paper's ``C x N``
    layout is its transpose."""
    gr, gi = _grad_re_im(V, X)
    # grad(Re V) = dRe/dx + i dRe/dy; dV/dz = 1/2 (dV/dx - i dV/dy)
    return 0.5 * (gr.conj() + 1j * gi.conj())


def wirtinger_jacobians(F: Field, X: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """``(J_z, J_zbar)`` of ``F`` at ``X``: ``dF_a/dX_b`` and ``dF_a/d conj X_b``, flattened."""
    X = X.detach()
    if not torch.is_complex(X):
        X = torch.complex(X, torch.zeros_like(X))

    def g(xr: torch.Tensor, xi: torch.Tensor) -> torch.Tensor:
        return torch.view_as_real(F(torch.complex(xr, xi)))

    jx, jy = jacfwd(g, argnums=(0, 1))(X.real.contiguous(), X.imag.contiguous())
    m = X.numel()
    jx = _to_complex(jx, X.dim()).reshape(-1, m)
    jy = _to_complex(jy, X.dim()).reshape(-1, m)
    return 0.5 * (jx - 1j * jy), 0.5 * (jx + 1j * jy)


def _to_complex(j: torch.Tensor, in_dims: int) -> torch.Tensor:
    """``j`` has shape ``out_shape + (2,) + in_shape``: move the re/im axis last, as complex."""
    j = j.movedim(-1 - in_dims, -1).contiguous()
    return torch.view_as_complex(j)


def closedness_defect(F: Field, X: torch.Tensor) -> float:
    """``||J_zbar - J_zbar^T||_F / ||J_zbar||_F`` at ``X`` (0 iff the field is locally a
    ``dV/dX^*``); 0 for a field with vanishing conjugate Jacobian."""
    _, jb = wirtinger_jacobians(F, X)
    den = torch.linalg.norm(jb)
    if den == 0:
        return 0.0
    return float(torch.linalg.norm(jb - jb.T) / den)


def crandn(*shape: int, generator: torch.Generator, scale: float = 1.0) -> torch.Tensor:
    """Complex Gaussian (``E|z|^2 = scale^2``) in complex128 from ``generator``."""
    re = torch.randn(*shape, generator=generator, dtype=torch.float64, device=generator.device)
    im = torch.randn(*shape, generator=generator, dtype=torch.float64, device=generator.device)
    return torch.complex(re, im) * (scale / 2**0.5)


def random_unitary(n: int, generator: torch.Generator) -> torch.Tensor:
    """Haar-random unitary (QR of a complex Gaussian, phases corrected)."""
    z = crandn(n, n, generator=generator)
    q, r = torch.linalg.qr(z)
    d = torch.diagonal(r)
    return q * (d / d.abs()).unsqueeze(0)


def rel_err(a: torch.Tensor, b: torch.Tensor) -> float:
    """``||a - b|| / max(||a||, ||b||, tiny)``."""
    a, b = a.detach(), b.detach()
    den = max(float(torch.linalg.norm(a)), float(torch.linalg.norm(b)), 1e-300)
    return float(torch.linalg.norm(a - b)) / den

"""Group elements and representation-theoretic tools used throughout pegr (§2.1, L21-23).

* ``rot2(a)``: R(alpha) of L170, batched; ``block_rot(angles)``: (+)_i R(alpha_i) (RoPE, L164-170).
* ``haar_so3`` / ``haar_rotations``: Haar rotations (QR of a Gaussian, signs of R's diagonal fixed,
  det = +1).
* ``perm_matrix``: P(sigma) e_i = e_sigma(i) (App. A.2, L182).
* ``vec_col`` / ``vec_row``: the two vec conventions of L47 (column-major = Fortran, row-major = C).
* ``rep_defect``: the homomorphism / identity / orthogonality oracle of
  ``pegr.rep.homomorphism_oracle``.
* ``commutant_dim``: dimension of the (symmetric or complex) commutant of a set of matrices; a real
  orthogonal representation is irreducible over R iff its symmetric commutant is 1-dimensional, a
  unitary one over C iff its full complex commutant is 1-dimensional.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

import numpy as np
import torch


def rot2(a: torch.Tensor) -> torch.Tensor:
    """``R(a) = [[cos a, -sin a], [sin a, cos a]]`` (L170), shape ``a.shape + (2, 2)``."""
    c, s = torch.cos(a), torch.sin(a)
    return torch.stack([torch.stack([c, -s], -1), torch.stack([s, c], -1)], -2)


def block_rot(angles: torch.Tensor) -> torch.Tensor:
    """Block-diagonal ``diag(R(angles[..., 0]), R(angles[..., 1]), ...)``, shape ``(..., 2F, 2F)``.
    """
    blocks = rot2(angles)  # (..., F, 2, 2)
    F = angles.shape[-1]
    out = torch.zeros(*angles.shape[:-1], 2 * F, 2 * F, dtype=angles.dtype, device=angles.device)
    for i in range(F):
        out[..., 2 * i : 2 * i + 2, 2 * i : 2 * i + 2] = blocks[..., i, :, :]
    return out


def haar_so3(
    n: int, generator: torch.Generator, dtype: torch.dtype = torch.float64
) -> torch.Tensor:
    """``n`` Haar-distributed rotations in SO(3): QR of a Gaussian with sign(diag R) fixed, det =
    +1."""
    z = torch.randn(n, 3, 3, generator=generator, dtype=dtype, device=generator.device)
    q, r = torch.linalg.qr(z)
    q = q * torch.sign(torch.diagonal(r, dim1=-2, dim2=-1)).unsqueeze(-2)
    det = torch.linalg.det(q)
    q[..., :, 0] = q[..., :, 0] * det.unsqueeze(-1)
    return q


def haar_rotations(seed: int, n: int) -> np.ndarray:
    """``n`` Haar rotations of SO(3) from their own generator seeded with ``seed`` (numpy)."""
    return haar_so3(n, torch.Generator().manual_seed(int(seed))).cpu().numpy()


def rot_z(psi: float) -> np.ndarray:
    """Rotation about the z axis (generator of the stabiliser of e_z)."""
    c, s = np.cos(psi), np.sin(psi)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


def perm_matrix(sigma: Sequence[int]) -> np.ndarray:
    """``P(sigma)`` with ``P e_i = e_{sigma(i)}`` (integers), so ``P(sigma tau) = P(sigma) P(tau)``
    for ``(sigma tau)(i) = sigma(tau(i))``."""
    n = len(sigma)
    P = np.zeros((n, n), dtype=np.int64)
    for i, s in enumerate(sigma):
        P[s, i] = 1
    return P


def compose(s: Sequence[int], t: Sequence[int]) -> tuple[int, ...]:
    """``(s t)(i) = s(t(i))``."""
    return tuple(s[t[i]] for i in range(len(t)))


def inverse(s: Sequence[int]) -> tuple[int, ...]:
    out = [0] * len(s)
    for i, v in enumerate(s):
        out[v] = i
    return tuple(out)


def vec_col(A: torch.Tensor) -> torch.Tensor:
    """Column-major vec (stack the columns; Fortran order), batched over leading dims."""
    return A.transpose(-1, -2).reshape(*A.shape[:-2], -1)


def vec_row(A: torch.Tensor) -> torch.Tensor:
    """Row-major vec (stack the rows; C order, torch's ``reshape(-1)``), batched."""
    return A.reshape(*A.shape[:-2], -1)


VEC: dict[str, Callable[[torch.Tensor], torch.Tensor]] = {
    "column-major": vec_col,
    "row-major": vec_row,
}


def kron_I(A: torch.Tensor, order: str) -> torch.Tensor:
    """``I (x) A`` (order ``"I(x)A"``) or ``A (x) I`` (order ``"A(x)I"``), I of A's size; batched.
    """
    D = A.shape[-1]
    eye = torch.eye(D, dtype=A.dtype, device=A.device).expand_as(A)
    if order == "I(x)A":
        return torch.einsum("...ij,...kl->...ikjl", eye, A).reshape(*A.shape[:-2], D * D, D * D)
    return torch.einsum("...ij,...kl->...ikjl", A, eye).reshape(*A.shape[:-2], D * D, D * D)


def rep_defect(
    rho: Callable[[object], np.ndarray],
    elems: Sequence[object],
    mul: Callable[[object, object], object],
    identity: object,
    orthogonal: bool = True,
) -> dict[str, float]:
    """The oracle of ``pegr.rep.homomorphism_oracle``: worst relative homomorphism defect
    ``||rho(gh) - rho(g) rho(h)||_F / (||rho(g)||_F ||rho(h)||_F)`` over all pairs of ``elems``,
    ``||rho(e) - I||``, and (when ``orthogonal``) ``max ||rho(g)^T rho(g) - I||``."""
    hom = 0.0
    for g, h in itertools.product(elems, repeat=2):
        a, b, ab = rho(g), rho(h), rho(mul(g, h))
        hom = max(hom, float(np.linalg.norm(ab - a @ b) / (np.linalg.norm(a) * np.linalg.norm(b))))
    e = rho(identity)
    out = {"homomorphism": hom, "identity": float(np.abs(e - np.eye(e.shape[0])).max())}
    if orthogonal:
        out["orthogonality"] = max(
            float(np.abs(rho(g).conj().T @ rho(g) - np.eye(rho(g).shape[0])).max()) for g in elems
        )
    return out


def commutant_dim(mats: Sequence[np.ndarray], kind: str = "symmetric", tol: float = 1e-9) -> int:
    """Dimension of ``{X : X M = M X for all M in mats}`` restricted to symmetric ``X``
    (``kind="symmetric"``, real) or all complex ``X`` (``kind="complex"``). For an orthogonal
    (unitary) representation the symmetric (complex) commutant is 1-dimensional iff the
    representation is irreducible over R (C)."""
    D = mats[0].shape[0]
    eye = np.eye(D)
    # vec_col(XM - MX) = (M^T (x) I - I (x) M) vec X; the commutant is the null space of
    # sum_i A_i^* A_i (a D^2 x D^2 Hermitian matrix: one eigvalsh instead of an SVD of the
    # stacked system)
    G = np.zeros((D * D, D * D), dtype=complex if kind == "complex" else float)
    for M in mats:
        A = np.kron(M.T, eye) - np.kron(eye, M)
        G += A.conj().T @ A
    if kind != "complex":
        # parametrise symmetric X by its upper triangle
        basis = []
        for i in range(D):
            for j in range(i, D):
                E = np.zeros((D, D))
                E[i, j] = E[j, i] = 1.0
                basis.append(E.reshape(-1, order="F") / np.linalg.norm(E))
        B = np.stack(basis, 1)
        G = B.T @ G @ B
    w = np.linalg.eigvalsh(G)
    return int((w <= tol * max(1.0, float(w.max()))).sum())

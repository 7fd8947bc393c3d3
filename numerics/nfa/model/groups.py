"""Group actions of "Neural Fields Meet Attention" (nfa) on points, sample sets and fields.

The paper's group is the scaling-translation group (Sec. 3.2, L76-82; App. A.1, L259-268)

    G_ST = { g_{a,b} : x -> a x + b | a > 0, b in R^d },

acting on sample sets by ``g . S = {(a x_i + b, y_i)}`` (token order preserved) and on fields
by ``(pi(g) f)(x) = f(g^{-1} x) = f((x - b) / a)``. App. B (Thm 7, L496-508) uses the larger
affine groups ``G_S = {x -> A x + b : A in S}`` (positive diagonal = anisotropic scaling,
lower-triangular, ...), and the experiments (Sec. 4.1) rotate with SO(2) / SO(3).

Every element here is an :class:`AffineAction` ``x -> A x + b`` with *batched* ``A`` of shape
``(..., d, d)`` and ``b`` of shape ``(..., d)``; points have shape ``(..., N, d)``. The batch
dimensions of the group element broadcast against those of the points, so one call transforms
a whole batch of sample sets, each by its own group element.

Public API (stable; imported by the experiments module):

* :class:`AffineAction` -- ``apply``, ``apply_inverse``, ``inverse``, ``compose``,
  ``to(dtype)``.
* :class:`ScaleTranslation` (``G_ST``, keeps the scalar ``a``; ``rho`` acts on
  ``(theta, mu, s)`` as in Thm 1, L134).
* :class:`AnisotropicScaling` (positive diagonal ``A``), :class:`MatrixAffine` (any ``A``).
* :func:`random_scale_translation`, :func:`random_anisotropic`, :func:`random_rotation`
  (uniform on SO(2) / SO(3), Haar), :func:`rotation_2d`.
* :func:`rho_scale_translation` -- the parameter action
  ``(theta, mu, s) -> (theta, a mu + b, a s)``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch
from torch import Tensor

__all__ = [
    "AffineAction",
    "ScaleTranslation",
    "AnisotropicScaling",
    "MatrixAffine",
    "rho_scale_translation",
    "random_scale_translation",
    "random_anisotropic",
    "random_rotation",
    "rotation_2d",
    "rotation_3d_from_quaternion",
]


@dataclass
class AffineAction:
    """The affine map ``g: x -> A x + b`` with batched ``A`` (..., d, d) and ``b`` (..., d).

    Points are row vectors: ``apply(x) = x @ A^T + b`` for ``x`` of shape (..., N, d).
    """

    A: Tensor
    b: Tensor

    @property
    def dim(self) -> int:
        return int(self.A.shape[-1])

    def apply(self, x: Tensor) -> Tensor:
        """``g x = A x + b`` for points ``x`` of shape (..., N, d)."""
        return torch.einsum("...ij,...nj->...ni", self.A, x) + self.b.unsqueeze(-2)

    def apply_inverse(self, x: Tensor) -> Tensor:
        """``g^{-1} x = A^{-1}(x - b)`` (solved, not inverted, for accuracy)."""
        rhs = (x - self.b.unsqueeze(-2)).transpose(-1, -2)
        return torch.linalg.solve(self.A, rhs).transpose(-1, -2)

    def inverse(self) -> AffineAction:
        """The inverse element ``x -> A^{-1} x - A^{-1} b``."""
        Ainv = torch.linalg.inv(self.A)
        return MatrixAffine(Ainv, -torch.einsum("...ij,...j->...i", Ainv, self.b))

    def compose(self, other: AffineAction) -> AffineAction:
        """``self o other``: ``x -> A1 (A2 x + b2) + b1`` (the group law)."""
        return MatrixAffine(
            self.A @ other.A, torch.einsum("...ij,...j->...i", self.A, other.b) + self.b
        )

    def to(
        self, dtype: torch.dtype | None = None, device: torch.device | str | None = None
    ) -> AffineAction:
        """A copy with ``A`` and ``b`` in ``dtype`` / on ``device`` (subclass fields kept)."""
        new = object.__new__(type(self))
        new.__dict__.update(
            {
                k: (v.to(dtype=dtype, device=device) if isinstance(v, Tensor) else v)
                for k, v in self.__dict__.items()
            }
        )
        return new


class MatrixAffine(AffineAction):
    """A general affine map ``x -> A x + b`` (``A`` invertible); App. B's ``G_S`` (L498)."""


class ScaleTranslation(AffineAction):
    """An element ``g_{a,b}: x -> a x + b`` of ``G_ST`` (L76), ``a > 0`` (batched (...,)).

    ``A = a I``; the scalar ``a`` is kept so that :meth:`rho` and the normalisation statistics
    can use it directly.
    """

    def __init__(self, a: Tensor | float, b: Tensor) -> None:
        b = torch.as_tensor(b)
        a = torch.as_tensor(a, dtype=b.dtype, device=b.device)
        d = b.shape[-1]
        eye = torch.eye(d, dtype=b.dtype, device=b.device)
        super().__init__(A=a[..., None, None] * eye, b=b)
        self.a = a

    def apply(self, x: Tensor) -> Tensor:  # exact scalar form, no matmul round-off
        return self.a[..., None, None] * x + self.b.unsqueeze(-2)

    def apply_inverse(self, x: Tensor) -> Tensor:
        return (x - self.b.unsqueeze(-2)) / self.a[..., None, None]

    def inverse(self) -> ScaleTranslation:
        return ScaleTranslation(1.0 / self.a, -self.b / self.a[..., None])

    def compose(self, other: AffineAction) -> AffineAction:
        """``g_{a,b} o g_{a',b'} = g_{a a', a b' + b}`` when ``other`` is in ``G_ST`` (L259)."""
        if isinstance(other, ScaleTranslation):
            return ScaleTranslation(self.a * other.a, self.a[..., None] * other.b + self.b)
        return super().compose(other)

    def rho(self, theta: Tensor, mu: Tensor, s: Tensor) -> tuple[Tensor, Tensor, Tensor]:
        """The parameter action of Thm 1 (L134): ``(theta, mu, s) -> (theta, a mu + b, a s)``."""
        return rho_scale_translation(self.a, self.b, theta, mu, s)


class AnisotropicScaling(AffineAction):
    """``x -> diag(lam) x + b`` with ``lam > 0`` componentwise (Cor. 10, Thm 7's ``Diag(>0)``)."""

    def __init__(self, lam: Tensor, b: Tensor | None = None) -> None:
        lam = torch.as_tensor(lam)
        if b is None:
            b = torch.zeros_like(lam)
        super().__init__(A=torch.diag_embed(lam), b=b)
        self.lam = lam

    def apply(self, x: Tensor) -> Tensor:
        return self.lam.unsqueeze(-2) * x + self.b.unsqueeze(-2)

    def apply_inverse(self, x: Tensor) -> Tensor:
        return (x - self.b.unsqueeze(-2)) / self.lam.unsqueeze(-2)


def rho_scale_translation(
    a: Tensor, b: Tensor, theta: Tensor, mu: Tensor, s: Tensor
) -> tuple[Tensor, Tensor, Tensor]:
    """``rho(g_{a,b})(theta, mu, s) = (theta, a mu + b, a s)`` (Thm 1, L134; A.2, L301)."""
    a = torch.as_tensor(a, dtype=mu.dtype, device=mu.device)
    return theta, a[..., None] * mu + b, a * s


def random_scale_translation(
    batch: int,
    d: int,
    *,
    generator: torch.Generator,
    log_a_range: tuple[float, float] = (-4.0, 4.0),
    sigma_b: float = 1.0,
    dtype: torch.dtype = torch.float64,
    device: torch.device | str | None = None,
) -> ScaleTranslation:
    """``batch`` elements of ``G_ST``: ``a = exp(U[lo, hi])``, ``b ~ N(0, sigma_b^2 I)``."""
    lo, hi = log_a_range
    u = torch.rand(batch, generator=generator, dtype=dtype, device=device)
    a = torch.exp(lo + (hi - lo) * u)
    b = sigma_b * torch.randn(batch, d, generator=generator, dtype=dtype, device=device)
    return ScaleTranslation(a, b)


def random_anisotropic(
    batch: int,
    d: int,
    *,
    generator: torch.Generator,
    log_range: tuple[float, float] = (-2.0, 2.0),
    sigma_b: float = 1.0,
    dtype: torch.dtype = torch.float64,
    device: torch.device | str | None = None,
) -> AnisotropicScaling:
    """``batch`` positive diagonal scalings ``exp(U[lo, hi])`` per axis, plus a Gaussian shift."""
    lo, hi = log_range
    lam = torch.exp(
        lo + (hi - lo) * torch.rand(batch, d, generator=generator, dtype=dtype, device=device)
    )
    b = sigma_b * torch.randn(batch, d, generator=generator, dtype=dtype, device=device)
    return AnisotropicScaling(lam, b)


def rotation_2d(angle: Tensor) -> Tensor:
    """The SO(2) matrix ``[[cos t, -sin t], [sin t, cos t]]`` for each angle (batched)."""
    c, s = torch.cos(angle), torch.sin(angle)
    return torch.stack([torch.stack([c, -s], -1), torch.stack([s, c], -1)], -2)


def rotation_3d_from_quaternion(q: Tensor) -> Tensor:
    """The SO(3) matrix of the (normalised) quaternion ``q = (w, x, y, z)`` (batched)."""
    q = q / q.norm(dim=-1, keepdim=True)
    w, x, y, z = q.unbind(-1)
    return torch.stack(
        [
            torch.stack([1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)], -1),
            torch.stack([2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)], -1),
            torch.stack([2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)], -1),
        ],
        -2,
    )


def random_rotation(
    batch: int,
    d: int,
    *,
    generator: torch.Generator,
    dtype: torch.dtype = torch.float64,
    device: torch.device | str | None = None,
) -> MatrixAffine:
    """``batch`` Haar-uniform rotations of SO(d), d in {1, 2, 3}, about the origin (``b = 0``).

    SO(2): uniform angle; SO(3): normalised Gaussian quaternion (uniform on S^3 -> Haar on SO(3)).
    Sec. 4.1 (L188) rotates about the origin; rotations are *not* elements of ``G_ST``.
    """
    if d == 1:
        A = torch.ones(batch, 1, 1, dtype=dtype, device=device)
    elif d == 2:
        ang = 2 * math.pi * torch.rand(batch, generator=generator, dtype=dtype, device=device)
        A = rotation_2d(ang)
    elif d == 3:
        A = rotation_3d_from_quaternion(
            torch.randn(batch, 4, generator=generator, dtype=dtype, device=device)
        )
    else:
        raise ValueError(f"random_rotation supports d in (1, 2, 3), got {d}")
    return MatrixAffine(A, torch.zeros(batch, d, dtype=dtype, device=device))

"""The positional encodings of Table 1 (L29-39) and §4 / App. D.2, as ``torch.nn.Module`` s.

Each encoding comes with the representation it transforms under (``rho``), so that the
equivariance identity ``gamma(g x) = rho(g) gamma(x)`` can be checked directly.
"""

from __future__ import annotations

import math

import numpy as np
import torch
from scipy import special
from torch import nn

from .groups import block_rot, rot2, vec_col, vec_row


def vaswani_freqs(F: int, d: int | None = None, sign: float = -1.0) -> torch.Tensor:
    """``alpha_j = 10000^{sign * 2(j-1)/d}`` (Vaswani et al. 2017 / RoFormer eq. 15 with
    ``sign=-1``; the formula printed at L170 has ``sign=+1``), ``j = 1..F``, ``d = 2F`` by default.
    """
    d = 2 * F if d is None else d
    j = torch.arange(F, dtype=torch.float64)
    return torch.pow(torch.tensor(10000.0, dtype=torch.float64), sign * 2 * j / d)


class SinusoidalPE(nn.Module):
    """Text PE for T (Table 1 row 1, L31; L49): ``x -> {(cos a x, sin a x)}_a``.

    ``form="A"``: per frequency the equivariant vector ``R(a x) e_1`` (Table 1);
    ``form="B"``: per frequency ``vec(R(a x))`` (L47, ``gamma = vec(rho(x))``, column-major).
    ``rho(t) = (+)_j R(a_j t)`` (per frequency ``I_2 (x) R`` for form B)."""

    def __init__(self, freqs: torch.Tensor, form: str = "A") -> None:
        super().__init__()
        self.register_buffer("freqs", torch.as_tensor(freqs, dtype=torch.float64))
        self.form = form

    def rho(self, t: torch.Tensor) -> torch.Tensor:
        return block_rot(t[..., None] * self.freqs.to(t))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        ang = x[..., None] * self.freqs.to(x)
        if self.form == "A":
            return torch.stack([torch.cos(ang), torch.sin(ang)], -1).reshape(*x.shape, -1)
        return vec_col(rot2(ang)).reshape(*x.shape, -1)


class FourierFeaturePE(nn.Module):
    """Image PE for T x T (Table 1 row 2, L32; D.2 L329-331): ``p -> [cos(alpha_i . p), sin(alpha_i
    . p)]_{i=1..16}`` with ``alpha_ij ~ N(0, c^2)`` (interleaved order ``cos_1, sin_1, cos_2,
    ...``). ``two_pi=True`` is reading B (Tancik et al.)."""

    def __init__(self, alpha: torch.Tensor, two_pi: bool = False) -> None:
        super().__init__()
        self.register_buffer("alpha", torch.as_tensor(alpha, dtype=torch.float64))
        self.scale = 2 * math.pi if two_pi else 1.0

    @classmethod
    def sample(
        cls, c: float, n: int = 16, generator: torch.Generator | None = None, two_pi: bool = False
    ):
        return cls(c * torch.randn(n, 2, generator=generator, dtype=torch.float64,
            device=None if generator is None else generator.device), two_pi)

    def rho(self, t: torch.Tensor) -> torch.Tensor:
        """Translation ``t`` (shape ``(..., 2)``) acts by ``(+)_i R(alpha_i . t)``."""
        return block_rot(self.scale * t.to(self.alpha.dtype) @ self.alpha.T.to(t.device))

    def forward(self, p: torch.Tensor) -> torch.Tensor:
        ang = self.scale * p @ self.alpha.T.to(p)
        return torch.stack([torch.cos(ang), torch.sin(ang)], -1).reshape(*p.shape[:-1], -1)


class RoPE(nn.Module):
    """RoPE (Table 1 row 6, L36; A.2 L164-170): ``(v, m) -> R_Theta(m) v`` with ``R_Theta(m) =
    diag(R(m alpha_1), ..., R(m alpha_{d/2}))``. ``sign=+1`` uses the frequencies as printed at L170
    (``10000^{+2(i-1)/d}``), ``sign=-1`` RoFormer's."""

    def __init__(self, d: int, sign: float = -1.0) -> None:
        super().__init__()
        if d % 2:
            raise ValueError("RoPE needs an even d")
        self.register_buffer("alpha", vaswani_freqs(d // 2, d, sign))

    def R(self, m: torch.Tensor) -> torch.Tensor:
        return block_rot(m[..., None].to(self.alpha.dtype) * self.alpha.to(m.device))

    def forward(self, v: torch.Tensor, m: torch.Tensor) -> torch.Tensor:
        ang = m[..., None].to(v.dtype) * self.alpha.to(v)
        c, s = torch.cos(ang), torch.sin(ang)
        x, y = v[..., 0::2], v[..., 1::2]
        return torch.stack([c * x - s * y, s * x + c * y], -1).reshape(v.shape)


class SO2BesselPE(nn.Module):
    """The proposed SO(2) PE (L79; D.2 L333): ``(r, theta) -> {J_m(c_i r) e^{i k_i theta}}_i``, real
    form ``[J_m(c_i r) cos k_i theta, J_m(c_i r) sin k_i theta]_{i=1..16}`` (interleaved), ``theta =
    atan2(y, x)`` (``atan2(0, 0) = 0`` at the origin). Transforms under ``rho(phi) = (+)_i R(k_i
    phi)``."""

    def __init__(self, c: torch.Tensor, k: torch.Tensor, m: int = 0) -> None:
        super().__init__()
        self.register_buffer("c", torch.as_tensor(c, dtype=torch.float64))
        self.register_buffer("k", torch.as_tensor(k, dtype=torch.float64))
        self.m = int(m)

    @classmethod
    def sample(
        cls, C: float, K: int, n: int = 16, generator: torch.Generator | None = None, m: int = 0
    ):
        """``c_i ~ U[0, C]``, ``k_i`` uniform integer in ``[1, K)`` (D.2 L333)."""
        c = C * torch.rand(n, generator=generator, dtype=torch.float64,
            device=None if generator is None else generator.device)
        k = torch.randint(1, K, (n,), generator=generator,
            device=None if generator is None else generator.device).to(torch.float64)
        return cls(c, k, m)

    def radial(self, r: torch.Tensor) -> torch.Tensor:
        z = (r[..., None] * self.c.to(r)).detach().cpu().numpy()
        J = special.j0(z) if self.m == 0 else special.jv(self.m, z)
        return torch.as_tensor(J, dtype=r.dtype, device=r.device)

    def rho(self, phi: torch.Tensor) -> torch.Tensor:
        return block_rot(phi[..., None] * self.k.to(phi))

    def forward(self, p: torch.Tensor) -> torch.Tensor:
        r = torch.linalg.vector_norm(p, dim=-1)
        th = torch.atan2(p[..., 1], p[..., 0])
        J = self.radial(r)
        ang = th[..., None] * self.k.to(p)
        return torch.stack([J * torch.cos(ang), J * torch.sin(ang)], -1).reshape(*p.shape[:-1], -1)


class OneHotPE(nn.Module):
    """Learned table as one-hot + linear map (Table 1 row 5, L35; A.2 L180-182):
    ``gamma(x_i) = W 1_{x_i}``; the one-hot part transforms under permutation matrices."""

    def __init__(self, N: int, d: int | None = None) -> None:
        super().__init__()
        self.N = N
        self.W = nn.Linear(N, d, bias=False) if d else None

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        oh = torch.nn.functional.one_hot(x.long(), self.N).to(torch.float64)
        return self.W(oh.to(self.W.weight.dtype)) if self.W is not None else oh


class VecRhoPE(nn.Module):
    """``gamma(x) = vec(rho(x))`` (L47) for positions that are group elements given as matrices
    ``rho(x)`` (reading A of X = G); ``order`` is the vec convention."""

    def __init__(self, order: str = "column-major") -> None:
        super().__init__()
        self.order = order

    def forward(self, rho_x: torch.Tensor) -> torch.Tensor:
        return vec_col(rho_x) if self.order == "column-major" else vec_row(rho_x)


# -------------------------------------------------------- spherical harmonics (Table 1 row 3)
def real_sh(ell: int, pts: np.ndarray) -> np.ndarray:
    """Real orthonormal spherical harmonics ``Y_ell(p)`` at unit vectors ``pts`` (n, 3), columns
    ordered m = -ell..ell (``scipy.special.sph_harm_y``, complex -> real basis)."""
    x, y, z = pts[:, 0], pts[:, 1], pts[:, 2]
    theta = np.arccos(np.clip(z, -1, 1))
    phi = np.arctan2(y, x)
    cols = []
    for m in range(-ell, ell + 1):
        Y = special.sph_harm_y(ell, abs(m), theta, phi)
        if m > 0:
            cols.append(np.sqrt(2) * (-1) ** m * Y.real)
        elif m < 0:
            cols.append(np.sqrt(2) * (-1) ** m * Y.imag)
        else:
            cols.append(Y.real)
    return np.stack(cols, 1)


def wigner_real(ell: int, R: np.ndarray, fit_pts: np.ndarray) -> np.ndarray:
    """``D^ell(R)`` with ``Y_ell(R p) = D^ell(R) Y_ell(p)``, by least squares
    ``Y(P R^T) = Y(P) D^T`` on ``fit_pts`` (at least 4(2 ell + 1) generic points)."""
    A = real_sh(ell, fit_pts)
    B = real_sh(ell, fit_pts @ R.T)
    Dt, *_ = np.linalg.lstsq(A, B, rcond=None)
    return Dt.T


def sphere_points(n: int, rng: np.random.Generator) -> np.ndarray:
    p = rng.standard_normal((n, 3))
    return p / np.linalg.norm(p, axis=1, keepdims=True)

"""The float64 G_ST equivariance harness of the nfa equivariance claims.

``equivariance_violation(op, x, y, g, xq)`` measures, for a batch of sample sets, the
field-level deviation ``max_q |f_{O(gS)}(g x_q) - f_{O(S)}(x_q)|`` (Thm 1, L138:
``f_{O(gS)}(x) = f_{O(S)}(g^{-1} x)``, evaluated at ``x = g x_q``), divided by
``max_q |f_{O(S)}| + 1`` and, when asked, by the conditioning factor
``1 + |b|/(a s) + |mu|/s`` of the normalised coordinates ``(x - mu)/s`` (A3a, L108-116): the
round-off of ``x~`` grows with that factor, so a tolerance in units of eps stays meaningful.

Also here: the point clouds, group elements, small operators and field decoders the claims
draw, and the deviations of the A3a statistics under ``x -> a x + b`` (L323-327).
"""

from __future__ import annotations

import torch
from torch import Tensor

from verify.numeric import rand, randn

from .field_operator import (
    SetTransformer,
    SinusoidalField,
    centroid,
    init_weights_,
    rms_radius,
)
from .groups import ScaleTranslation


def points(
    kind: str, batch: int, N: int, d: int, *, generator, dtype, device=None, sigma: float = 0.01
) -> Tensor:
    """Point clouds: ``uniform`` U[-1,1]^d, ``gaussian``, ``clustered`` (N(0, sigma^2)),
    ``collinear`` (degenerate: all on one line through the origin); on ``device``, by default
    the generator's."""
    if kind == "uniform":
        return rand(batch, N, d, generator=generator, dtype=dtype, device=device, low=-1, high=1)
    if kind == "gaussian":
        return randn(batch, N, d, generator=generator, dtype=dtype, device=device)
    if kind == "clustered":
        return sigma * randn(batch, N, d, generator=generator, dtype=dtype, device=device)
    if kind == "collinear":
        t = randn(batch, N, 1, generator=generator, dtype=dtype, device=device)
        v = randn(batch, 1, d, generator=generator, dtype=dtype, device=device)
        return t * v
    raise ValueError(kind)


def group_element(
    batch: int, d: int, *, log_a: float, sigma_b: float, generator, dtype, paper: bool = False
) -> ScaleTranslation:
    """``g_{a,b}`` with ``a = e^{log_a}`` and ``b ~ N(0, sigma_b^2 I)``; ``paper``: the Table 5
    element ``a = 1.5``, ``b = (0.3, -0.3, ...)``."""
    dev = generator.device
    if paper:
        b = torch.tensor([0.3 * (-1) ** k for k in range(d)], dtype=dtype, device=dev)
        return ScaleTranslation(torch.full((batch,), 1.5, dtype=dtype, device=dev),
                                b.expand(batch, d).clone())
    a = torch.full((batch,), float(torch.exp(torch.tensor(log_a))), dtype=dtype, device=dev)
    b = sigma_b * randn(batch, d, generator=generator, dtype=dtype)
    return ScaleTranslation(a, b)


def small_inner(
    d: int,
    out_dim: int,
    *,
    generator,
    dtype,
    pos: str = "relative",
    pool: str = "mean",
    dim: int = 16,
    heads: int = 2,
    layers: int = 2,
    ff: int = 32,
    head_hidden: int = 32,
    attention: str = "softmax",
    tau: float = 1.0,
) -> SetTransformer:
    """A small seeded :class:`SetTransformer` (CPU size) in ``dtype`` on the generator's device,
    eval mode."""
    m = SetTransformer(
        d,
        out_dim,
        dim=dim,
        heads=heads,
        layers=layers,
        ff=ff,
        head_hidden=head_hidden,
        pos=pos,
        pool=pool,
        attention=attention,
        tau=tau,
    )
    return init_weights_(m, generator).to(dtype=dtype, device=generator.device).eval()


def sin_field(d: int, K: int, *, generator, dtype, scale: float = 3.0) -> SinusoidalField:
    """A fixed K-term decoder ``sum_k c_k sin(omega_k^T x + phase_k)``, omega ~ N(0, scale^2)."""
    om = scale * torch.randn(K, d, generator=generator, dtype=torch.float64,
        device=generator.device)
    ph = 2 * torch.pi * torch.rand(K, generator=generator, dtype=torch.float64,
        device=generator.device)
    return SinusoidalField(om.to(dtype), ph.to(dtype))


def conditioning(x: Tensor, g: ScaleTranslation) -> Tensor:
    """``1 + |b|/(a s) + |mu|/s`` per sample set."""
    mu, s = centroid(x), rms_radius(x)
    return 1 + g.b.norm(dim=-1) / (g.a * s) + mu.norm(dim=-1) / s


@torch.no_grad()
def equivariance_violation(
    op, x: Tensor, y: Tensor, g, xq: Tensor, *, scale: Tensor | None = None
) -> Tensor:
    """Field-level relative deviation per sample set (see the module docstring)."""
    p, pg = op(x, y), op(g.apply(x), y)
    f0 = op.field(p, xq)
    f1 = op.field(pg, g.apply(xq))
    v = (f1 - f0).abs().amax(-1) / (f0.abs().amax(-1) + 1)
    if scale is not None:
        v = v / scale
    return v


@torch.no_grad()
def parameter_violation(op, x: Tensor, y: Tensor, g: ScaleTranslation) -> Tensor:
    """``|theta' - theta|/(|theta| + 1) + |mu' - (a mu + b)|/(|a mu + b| + a s)
    + |s' - a s|/(a s)`` per sample set (Thm 1, L134: ``O(gS) = rho(g) O(S)``)."""
    p, pg = op(x, y), op(g.apply(x), y)
    th, mu, s = g.rho(p.theta, p.mu, p.s)
    v = (pg.theta - th).abs().amax(-1) / (th.abs().amax(-1) + 1)
    v = v + (pg.mu - mu).norm(dim=-1) / (mu.norm(dim=-1) + s)
    return v + (pg.s - s).abs() / s


# ---------------------------------------------------------------------------------------
# The A3a statistics under x -> a x + b (proof of Thm 4(A), L319-327)
# ---------------------------------------------------------------------------------------
STAT_CLOUDS = ("spread", "gaussian", "clustered")


def stat_cloud(kind: str, batch: int, N: int, d: int, *, generator, dtype) -> Tensor:
    """``spread`` U[-1,1]^d, ``gaussian`` N(0, I), ``clustered`` N(c, 1e-6 I), c ~ N(0, I)."""
    if kind == "spread":
        return rand(batch, N, d, generator=generator, dtype=dtype, low=-1, high=1)
    if kind == "gaussian":
        return randn(batch, N, d, generator=generator, dtype=dtype)
    if kind == "clustered":
        c = randn(batch, 1, d, generator=generator, dtype=dtype)
        return c + 1e-3 * randn(batch, N, d, generator=generator, dtype=dtype)
    raise ValueError(kind)


def normalisation_stats(x: Tensor) -> tuple[Tensor, Tensor, Tensor]:
    """``mu(S)``, ``s(S)`` (RMS radius) and ``x~ = (x - mu)/s`` (A3a, L108-116)."""
    mu, s = centroid(x), rms_radius(x)
    return mu, s, (x - mu.unsqueeze(-2)) / s[..., None, None]


def stat_deviations(x: Tensor, a: Tensor, b: Tensor) -> dict[str, Tensor]:
    """Per-set deviations of L323-327 for ``x' = a x + b`` (``a`` (B,), ``b`` (B, d)), and the
    conditioning factor ``1 + |b|/(a s) + |mu|/s``; all relative to ``a s(S)``."""
    mu, s, xt = normalisation_stats(x)
    mup, sp, xtp = normalisation_stats(a[:, None, None] * x + b.unsqueeze(-2))
    as_ = a * s
    return {
        "anchor": (mup - (a[:, None] * mu + b)).norm(dim=-1) / as_,
        "scale": (sp - as_).abs() / as_,
        "normalised coordinates": (xtp - xt).norm(dim=-1).amax(-1),
        "conditioning": 1 + b.norm(dim=-1) / as_ + mu.norm(dim=-1) / s,
    }

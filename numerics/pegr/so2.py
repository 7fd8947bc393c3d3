"""Float64 cross-check of ``pegr.so2.orbit_decomposition`` (L79; footnote 2, L99; proved in
``proofs/pegr/so2.py``): the angle coordinate through atan2."""

from __future__ import annotations

import math

import torch

import verify
from verify.numeric import falsify

from .model.groups import rot2


@verify.evidence_for("pegr.so2.orbit_decomposition")
def so2_orbit_fuzz(ctx):
    """``atan2(R_phi p) = atan2(p) + phi mod 2 pi`` (distance on the circle) for p != 0, points
    near the branch cut included, and the radius is invariant (float64)."""
    def prop(generator, batch, dtype, device):
        p = torch.rand(batch, 2, generator=generator, dtype=torch.float64,
            device=generator.device) * 2 - 1
        p[: batch // 4, 1] *= 1e-9
        p[: batch // 4, 0] = -p[: batch // 4, 0].abs() - 1e-3
        u = torch.rand(batch, generator=generator, dtype=torch.float64, device=generator.device)
        phi = u * 4 * math.pi - 2 * math.pi
        q = torch.einsum("bij,bj->bi", rot2(phi), p)
        d = torch.atan2(q[:, 1], q[:, 0]) - torch.atan2(p[:, 1], p[:, 0]) - phi
        ang = torch.atan2(torch.sin(d), torch.cos(d)).abs()
        rad = (q.norm(dim=1) - p.norm(dim=1)).abs() / p.norm(dim=1)
        return torch.maximum(ang, rad) / 1e-13

    ev = falsify(prop, {}, budget=ctx.pick(quick=5, deep=50), batch=1024, tol=1.0,
                 seed=ctx.subseed("orbit"))
    return ev.relabel(part="equivariant coordinate",
                      prefix="float64: theta(R p) = theta(p) + phi mod 2 pi, |R p| = |p|")

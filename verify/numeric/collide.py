"""Chasing a near-collision: from a close pair in output space to a collision, or not.

A sampled search for ``f(x) = f(y)`` with ``x != y`` almost never draws an exact collision
(``x`` and ``-x`` are never both drawn for ``f = x**2``), but it does draw pairs whose ratio
``||f(x) - f(y)|| / ||x - y||`` is small. :func:`refine_pair` starts from such a pair and,
in float64, minimises the output distance while the inputs stay apart: with
``x = c + u``, ``y = c - u`` and ``||u||`` held at its starting value, it minimises
``||f(x) - f(y)||^2`` over ``c`` and the direction of ``u`` (L-BFGS, torch autograd). The
result is then *confirmed* in float64: the two outputs bitwise equal while the inputs differ
by more than ``sqrt(eps)`` relatively (the standard of a sampled collision in
:func:`~verify.numeric.check_injective`). Nothing here decides a verdict; see
:func:`~verify.numeric.check_injective` for the rule.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import torch

from ..jsonable import to_jsonable

#: L-BFGS iterations of one refinement (each evaluates ``f`` on a batch of two).
REFINE_STEPS = 100


@dataclass
class Refined:
    """One refined pair, in float64 (complex128 for complex inputs)."""

    x: torch.Tensor
    y: torch.Tensor
    gap: float  # ||f(x) - f(y)|| in float64
    ratio: float  # gap / ||x - y||
    collision: bool  # outputs bitwise equal in float64 and inputs apart
    start_ratio: float

    def as_dict(self) -> dict[str, Any]:
        return {"x": [to_jsonable(self.x), to_jsonable(self.y)], "output_gap": self.gap,
                "ratio": self.ratio, "start_ratio": self.start_ratio,
                "float64_collision": self.collision}


def apart(x: torch.Tensor, y: torch.Tensor) -> bool:
    """``||x - y|| > sqrt(eps64) * max(||x||, ||y||)``: two inputs, not one rounded twice."""
    d = float((x - y).abs().norm())
    return d > math.sqrt(torch.finfo(torch.float64).eps) * max(float(x.norm()), float(y.norm()))


def output_gap(f64: Callable[[torch.Tensor], Any], x: torch.Tensor, y: torch.Tensor) -> tuple[
    float, bool
]:
    """``(||f(x) - f(y)||, bitwise equal)`` of the float64 outputs (``-0.0`` read as ``0.0``)."""
    with torch.no_grad():
        out = f64(torch.stack([x, y]))
    a, b = (out[0] + 0).reshape(-1), (out[1] + 0).reshape(-1)
    return float((a - b).abs().norm()), bool(torch.equal(a, b))


def refine_pair(
    f64: Callable[[torch.Tensor], Any], x0: torch.Tensor, y0: torch.Tensor,
    *, steps: int = REFINE_STEPS,
) -> Refined:
    """Drive ``||f(x) - f(y)||`` to zero from ``(x0, y0)`` with ``||x - y||`` fixed (float64).

    ``f64`` is ``f`` in float64, batch first. A map without gradients (integer arithmetic,
    a non-differentiable step) is not refined: the starting pair is returned, measured."""
    cplx = x0.is_complex()
    real = (lambda t: torch.view_as_real(t)) if cplx else (lambda t: t)
    back = (lambda t: torch.view_as_complex(t)) if cplx else (lambda t: t)
    x0, y0 = x0.detach(), y0.detach()
    gap0, _ = output_gap(f64, x0, y0)
    start = gap0 / float((x0 - y0).abs().norm())
    c = real((x0 + y0) / 2).clone().requires_grad_(True)
    u = real((x0 - y0) / 2).clone().requires_grad_(True)
    radius = float(u.detach().norm())

    def pair() -> tuple[torch.Tensor, torch.Tensor]:
        uu = u * (radius / u.norm())
        return back(c + uu), back(c - uu)

    scale = max(gap0, 1e-300) ** 2
    opt = torch.optim.LBFGS([c, u], max_iter=steps, line_search_fn="strong_wolfe",
                            tolerance_grad=0.0, tolerance_change=0.0)

    def closure() -> torch.Tensor:
        opt.zero_grad()
        x, y = pair()
        out = f64(torch.stack([x, y]))
        loss = ((out[0] - out[1]).abs() ** 2).sum() / scale
        loss.backward()
        return loss

    try:
        opt.step(closure)
        with torch.no_grad():
            x, y = (t.detach().clone() for t in pair())
    except RuntimeError:  # no gradient (integer ops, detached outputs): keep the start
        x, y = x0, y0
    if not (torch.isfinite(real(x)).all() and torch.isfinite(real(y)).all()):
        x, y = x0, y0
    gap, equal = output_gap(f64, x, y)
    if gap > gap0:  # the optimiser made it worse: the start is the better witness
        x, y, gap, equal = x0, y0, gap0, output_gap(f64, x0, y0)[1]
    d = float((x - y).abs().norm())
    return Refined(x, y, gap, gap / d if d > 0 else math.inf, equal and apart(x, y), start)

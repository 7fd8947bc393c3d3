"""Equivariance ``f(g . x) = g . f(x)``, falsified on batches of inputs and group elements.

The violation of one input is the relative gap

    ||f(act_in(g, x)) - act_out(g, f(x))|| / max(||f(act_in(g, x))||, ||act_out(g, f(x))||, scale)

(norms over all non-batch dimensions), dimensionless, so the falsifier's eps-scaled tolerance
applies. Inputs (and batched group elements) are drawn in float64 and rounded to the searched
dtype, and a module ``f`` is evaluated through a copy in that dtype, so a float32 finding is
re-checked in float64 on the same inputs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import torch
from hypothesis.strategies import SearchStrategy

from ..evidence import Evidence
from .batching import InDtype, cast, flat, relative_gap
from .falsify import falsify

#: Name under which a group element drawn by a hypothesis strategy appears in ``params``.
GROUP_KEY = "group_element"


def check_equivariance(
    f: Callable[[Any], Any],
    act_in: Callable[[Any, Any], Any],
    act_out: Callable[[Any, Any], Any],
    sample_input: Callable[..., Any],
    sample_group: Callable[..., Any] | SearchStrategy[Any],
    *,
    params: Mapping[str, SearchStrategy[Any]] | None = None,
    scale: float | Callable[[Any, Any], torch.Tensor] | None = None,
    budget: int = 100,
    batch: int = 1024,
    dtype: torch.dtype = torch.float64,
    device: str | torch.device | None = None,
    tol: float | None = None,
    seed: int = 0,
    max_seconds: float | None = None,
) -> Evidence:
    """Falsify ``f(act_in(g, x)) == act_out(g, f(x))``.

    Args:
        f: the map, batch first (a ``torch.nn.Module`` is converted to each dtype).
        act_in, act_out: the group's actions ``(g, x) -> g . x`` on inputs and outputs.
        sample_input: ``(generator=, batch=, dtype=, device=, **drawn) -> x`` (batch first).
        sample_group: either a hypothesis strategy (one group element per example, shared by
            the batch, shrunk on failure, shown as ``params["group_element"]``), or a sampler
            like ``sample_input`` returning one group element per input (better for narrow
            regions of the group: a whole batch of elements per example).
        params: further strategies (sizes...), passed to the samplers as keywords.
        scale: a floor for the magnitude in the denominator (a number, or
            ``scale(x, f(x)) -> (batch,)``): use it when ``f`` may be ~0 and the absolute
            error is what matters.
        budget, batch, dtype, device, tol, seed, max_seconds: as for
            :func:`~verify.numeric.falsify`.

    Returns:
        the falsifier's Evidence; a counterexample holds the input ``x`` (and ``g`` when
        batched) at the worst batch index.
    """
    params = dict(params or {})
    in_dtype = InDtype(f)
    group_is_strategy = isinstance(sample_group, SearchStrategy)
    if group_is_strategy:
        if GROUP_KEY in params:
            raise ValueError(f"check_equivariance: params may not use the name {GROUP_KEY!r}")
        params[GROUP_KEY] = sample_group

    def equivariance_violation(generator, batch, dtype, device, **drawn):
        g_elem = drawn.pop(GROUP_KEY, None)
        x = cast(sample_input(generator=generator, batch=batch, dtype=torch.float64, device=device, **drawn), dtype)
        if not group_is_strategy:
            g_elem = cast(
                sample_group(generator=generator, batch=batch, dtype=torch.float64, device=device, **drawn), dtype
            )
        fn = in_dtype(dtype, device)
        fx = fn(x)
        a = flat(fn(act_in(g_elem, x)), batch)
        b = flat(act_out(g_elem, fx), batch)
        floor = 0.0
        if scale is not None:
            floor = scale(x, fx) if callable(scale) else float(scale)
        v = relative_gap(a, b, floor)
        inputs = {"x": x} if group_is_strategy else {"x": x, "g": g_elem}
        return v, inputs

    ev = falsify(
        equivariance_violation,
        params,
        budget=budget,
        batch=batch,
        dtype=dtype,
        device=device,
        tol=tol,
        seed=seed,
        max_seconds=max_seconds,
    )
    ev.summary = f"equivariance: {ev.summary}"
    ev.numbers["violation_definition"] = "||f(g.x) - g.f(x)|| / max(||f(g.x)||, ||g.f(x)||, scale)"
    if ev.counterexample is not None:
        # prose for a reader; the re-run command is the claim's own (set by the runner)
        ev.counterexample["how_to_check"] = (
            "evaluate f(act_in(g, x)) and act_out(g, f(x)) in float64 at the x (and g) above; "
            f"or re-run check_equivariance(..., seed={seed}, dtype=torch.float64)"
        )
    return ev

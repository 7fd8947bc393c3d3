"""Equivariance ``f(g . x) = g . f(x)``, falsified on batches of inputs and group elements.

The violation of one input is the relative gap

    ||f(act_in(g, x)) - act_out(g, f(x))|| / max(||f(act_in(g, x))||, ||act_out(g, f(x))||, scale)

(norms over all non-batch dimensions), dimensionless, so the falsifier's eps-scaled tolerance
applies. Inputs (and batched group elements) are drawn in float64 and rounded to the searched
dtype, and a module ``f`` is evaluated through a copy in that dtype, so a float32 finding is
re-checked in float64 on the same inputs. The verdict is the falsifier's, by the rule of
:mod:`verify.numeric.judge`: SUPPORTED clear of ``tol``, REFUTED beyond it only when the
float64 violation is 10x ``tol`` or a fresh-seed search re-finds one, UNDECIDED otherwise.

Each drawn parameter goes to the callables whose signature names it (all of them to one that
takes ``**kwargs``): a sampler from :mod:`verify.numeric.groups` takes only its own size
keyword, so ``n`` for the group and ``d`` for the inputs can be drawn side by side. With
``pass_params=True`` the map under test receives them too, with a generator, so that a
model's width or weights can vary from one example to the next.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from typing import Any

import torch
from hypothesis.strategies import SearchStrategy

from ..context import engine_seed
from ..evidence import Evidence
from .batching import InDtype, cast, flat, relative_gap
from .falsify import falsify

#: Name under which a group element drawn by a hypothesis strategy appears in ``params``.
GROUP_KEY = "group_element"

#: What a map under test may take besides the drawn parameters, with ``pass_params=True``.
MAP_KEYWORDS: tuple[str, ...] = ("generator", "dtype", "device")


def keywords(fn: Callable[..., Any]) -> frozenset[str] | None:
    """The keyword names ``fn`` accepts, or ``None`` when it takes ``**kwargs`` (or its
    signature cannot be read: it is then given everything)."""
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return None
    kinds = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in sig.parameters.values()):
        return None
    return frozenset(name for name, p in sig.parameters.items() if p.kind in kinds)


def only(names: frozenset[str] | None, kw: Mapping[str, Any]) -> dict[str, Any]:
    """The items of ``kw`` that a callable accepting ``names`` takes (all for ``None``)."""
    return dict(kw) if names is None else {k: v for k, v in kw.items() if k in names}


def check_equivariance(
    f: Callable[[Any], Any],
    act_in: Callable[[Any, Any], Any],
    act_out: Callable[[Any, Any], Any],
    sample_input: Callable[..., Any],
    sample_group: Callable[..., Any] | SearchStrategy[Any],
    *,
    params: Mapping[str, SearchStrategy[Any]] | None = None,
    scale: float | Callable[[Any, Any], torch.Tensor] | None = None,
    pass_params: bool = False,
    budget: int = 100,
    batch: int = 1024,
    dtype: torch.dtype = torch.float64,
    device: str | torch.device | None = None,
    tol: float | None = None,
    seed: int | None = None,
    max_seconds: float | None = None,
) -> Evidence:
    """Falsify ``f(act_in(g, x)) == act_out(g, f(x))``.

    Args:
        f: the map, batch first (a ``torch.nn.Module`` is converted to each dtype); called
            as ``f(x)``, or as ``f(x, **kw)`` with ``pass_params=True``.
        act_in, act_out: the group's actions ``(g, x) -> g . x`` on inputs and outputs.
        sample_input: ``(generator=, batch=, dtype=, device=, **drawn) -> x`` (batch first).
        sample_group: either a hypothesis strategy (one group element per example, shared by
            the batch, shrunk on failure, shown as ``params["group_element"]``), or a sampler
            like ``sample_input`` returning one group element per input (better for narrow
            regions of the group: a whole batch of elements per example).
        params: further strategies (sizes...): each drawn value is passed as a keyword to
            the samplers (and, with ``pass_params``, to ``f``) whose signature names it, or
            that take ``**kwargs``; a name that none of them takes is a ``ValueError``.
        scale: a floor for the magnitude in the denominator (a number, or
            ``scale(x, f(x)) -> (batch,)``): use it when ``f`` may be ~0 and the absolute
            error is what matters.
        pass_params: ``False`` (the default) calls ``f(x)``. ``True`` calls
            ``f(x, **kw)`` where ``kw`` holds, of ``generator``, ``dtype``, ``device`` and
            the drawn parameters, those ``f``'s signature names (all with ``**kwargs``).
            The generator is a fresh ``torch.Generator`` seeded from the example's own, in
            the same state for ``f(g.x)`` and ``f(x)``: weights drawn from it (with
            :func:`~verify.numeric.randn`, so float32 and float64 draw the same numbers)
            are the same on both sides, and vary from one example to the next.
        budget, batch, dtype, device, tol, seed, max_seconds: as for
            :func:`~verify.numeric.falsify` (``seed=None``: the claim's seed).

    Returns:
        the falsifier's Evidence; a counterexample holds the input ``x`` (and ``g`` when
        batched) at the worst batch index.
    """
    params = dict(params or {})
    seed = engine_seed(seed)
    in_dtype = InDtype(f)
    group_is_strategy = isinstance(sample_group, SearchStrategy)
    if group_is_strategy and GROUP_KEY in params:
        raise ValueError(f"check_equivariance: params may not use the name {GROUP_KEY!r}")
    takers = {"sample_input": keywords(sample_input)}
    if not group_is_strategy:
        takers["sample_group"] = keywords(sample_group)
    if pass_params:
        takers["f"] = keywords(f)
    if all(names is not None for names in takers.values()):
        unused = sorted(set(params).difference(*[n for n in takers.values() if n is not None]))
        if unused:
            hint = "" if pass_params else " (pass_params=True gives them to f)"
            raise ValueError(f"check_equivariance: params {unused} are taken by none of "
                             f"{', '.join(takers)}{hint}")
    if group_is_strategy:
        params[GROUP_KEY] = sample_group

    def equivariance_violation(generator, batch, dtype, device, **drawn):
        g_elem = drawn.pop(GROUP_KEY, None)
        std = dict(generator=generator, batch=batch, dtype=torch.float64, device=device)
        x = cast(sample_input(**std, **only(takers["sample_input"], drawn)), dtype)
        if not group_is_strategy:
            g_elem = cast(sample_group(**std, **only(takers["sample_group"], drawn)), dtype)
        fn = in_dtype(dtype, device)
        if pass_params:  # one seed per example, drawn after the inputs (which it leaves alone)
            seed = int(torch.randint(0, 2**62, (1,), generator=generator, device=generator.device))

            def call(inputs: Any) -> Any:
                own = torch.Generator(device=device).manual_seed(seed)
                kw = {"generator": own, "dtype": dtype, "device": device, **drawn}
                return fn(inputs, **only(takers["f"], kw))
        else:
            call = fn
        fx = call(x)
        a = flat(call(act_in(g_elem, x)), batch)
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

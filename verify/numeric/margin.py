"""Margins: the target's score beats every other score by at least ``margin``.

For scores ``S`` of shape ``(batch, classes)`` and integer targets ``t``, the margin of input
``i`` is ``m_i = S[i, t_i] - max_{j != t_i} S[i, j]``; for scores of shape ``(batch,)`` and
targets in ``{-1, +1}`` it is ``m_i = t_i * S_i``. The claim ``m_i >= margin`` is violated by

    max(0, margin - m_i) / max(|margin|, max_j |S[i, j]|)

a shortfall relative to the scale of the scores, so rounding of ``m_i`` is ~eps and the
falsifier's eps-scaled tolerance applies. The smallest margin seen is always reported.

Three outcomes (rule 1 of :mod:`verify.numeric.judge`): given data (tensors, ints,
Fractions) is compared *exactly*, each item whose float64 slack is within ``tol`` of the
margin (or short of it) in exact rationals, so one item short by ``2**-30`` is REFUTED and
one exactly at the margin SUPPORTED. On sampled inputs the scores are computed, with
round-off: a relative slack ``(m - margin) / scale`` within ``tol`` of zero, on either side,
is inside the band and UNDECIDED ("within tolerance"), a shortfall beyond it is the
falsifier's (a float64-confirmed refutation that must stand, rule 2), and only a slack clear
of the band everywhere is SUPPORTED. Integer scores against an integer margin have no band.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import replace
from fractions import Fraction
from typing import Any, TypeAlias

import torch
from hypothesis.strategies import SearchStrategy

from ..context import engine_seed
from ..evidence import Evidence
from ..jsonable import to_jsonable
from ..verdict import Verdict
from .batching import InDtype, cast
from .devices import dtype_name, eps, prepare_device
from .falsify import default_tol, falsify
from .judge import zone

Scores: TypeAlias = "torch.Tensor | Callable[[Any], torch.Tensor]"


def margins(S: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
    """Per-row margins (see the module docstring), in the dtype of ``S``."""
    if S.dim() == 1:
        if not bool(((t == 1) | (t == -1)).all()):
            raise ValueError("check_margin: with 1-D scores the targets must be -1 or +1")
        return t.to(S.dtype) * S
    if S.dim() != 2:
        raise ValueError(
            f"check_margin: scores must be (batch,) or (batch, classes), got {tuple(S.shape)}"
        )
    t = t.long().reshape(-1, 1)
    own = S.gather(1, t).squeeze(1)
    others = S.scatter(1, t, -math.inf)
    return own - others.max(dim=1).values


def margin_violation(
    S: torch.Tensor, t: torch.Tensor, margin: torch.Tensor | float
) -> torch.Tensor:
    """``max(0, margin - m_i) / max(|margin|, max|S_i|)`` in float64."""
    S64 = S.to(torch.float64)
    m = margins(S64, t)
    mg = torch.as_tensor(margin, dtype=torch.float64, device=S64.device)
    scale = S64.abs().reshape(S64.shape[0], -1).max(dim=1).values
    den = torch.maximum(scale, mg.abs())
    short = torch.clamp(mg - m, min=0)
    v = short / den
    return torch.where(short == 0, torch.zeros_like(v), v)


def check_margin(
    scores: Scores,
    targets: torch.Tensor | Callable[[Any], torch.Tensor],
    margin: float | Callable[[Any], torch.Tensor],
    *,
    sample_input: Callable[..., Any] | None = None,
    params: Mapping[str, SearchStrategy[Any]] | None = None,
    budget: int = 100,
    batch: int = 1024,
    dtype: torch.dtype = torch.float64,
    device: str | torch.device | None = None,
    tol: float | None = None,
    seed: int | None = None,
    max_seconds: float | None = None,
) -> Evidence:
    """Check ``margin(x) <= m(x)`` on a fixed set of scores or on sampled inputs.

    Two modes:

    - ``sample_input=None``: ``scores`` is a tensor ``(N, C)`` or ``(N,)``, ``targets`` a
      tensor ``(N,)``, ``margin`` a number or tensor ``(N,)``: checked exhaustively in float64.
    - ``sample_input(generator=, batch=, dtype=, device=, **drawn) -> x``: ``scores(x)`` (a
      function or module), ``targets(x)`` and (optionally) ``margin(x)`` are evaluated on
      batches searched by :func:`~verify.numeric.falsify` (same keywords; ``seed=None``
      is the claim's seed).

    Returns:
        REFUTED with the input of the worst shortfall (exactly confirmed on given data),
        SUPPORTED with the smallest margin seen, or UNDECIDED (NaN scores; on sampled inputs
        a slack inside the tolerance band; a seed-fragile shortfall).
    """
    if sample_input is None:
        return _exhaustive(scores, targets, margin, device, tol)
    seed = engine_seed(seed)
    in_dtype = InDtype(scores)
    track: dict[str, Any] = {"min_margin": math.inf, "min_slack": math.inf, "exact": True}

    def margin_prop(generator, batch, dtype, device, **drawn):
        x64 = sample_input(generator=generator, batch=batch, dtype=torch.float64, device=device,
                           **drawn)
        x = cast(x64, dtype)
        S = in_dtype(dtype, device)(x)
        t = targets(x) if callable(targets) else targets
        mg = margin(x) if callable(margin) else margin
        m = margins(S.to(torch.float64), t)
        lo, i = m.min(0)
        if float(lo) < track["min_margin"]:
            at = {"params": to_jsonable(drawn), "x": to_jsonable(x[int(i)])}
            track.update(min_margin=float(lo), min_margin_at=at)
        slack = torch.nan_to_num(relative_slack(S.to(torch.float64), m, mg), nan=math.inf)
        lo_s, j = slack.min(0)
        if float(lo_s) < track["min_slack"]:
            at = {"params": to_jsonable(drawn), "x": to_jsonable(x[int(j)])}
            track.update(min_slack=float(lo_s), min_slack_at=at)
        track["exact"] &= _exact_scores(S, mg)
        return margin_violation(S, t, mg), {"x": x, "scores": S, "target": t}

    ev = falsify(margin_prop, params, budget=budget, batch=batch, dtype=dtype, device=device,
                 tol=tol, seed=seed, max_seconds=max_seconds)
    ev.numbers["min_margin"] = track["min_margin"]
    if "min_margin_at" in track:
        ev.numbers["min_margin_at"] = track["min_margin_at"]
    ev.numbers["violation_definition"] = "max(0, margin - m) / max(|margin|, max|scores|)"
    ev.numbers["min_relative_slack"] = track["min_slack"]
    if "min_slack_at" in track:
        ev.numbers["min_relative_slack_at"] = track["min_slack_at"]
    ev.summary = f"margin: {ev.summary}; smallest margin seen {track['min_margin']:.4g}"
    tol_ = ev.numbers.get("tol", math.inf)
    # the shortfall -slack is clear of the band at <= -tol, beyond it at >= tol: a computed
    # margin within tol of the requirement, on either side, is no evidence that it holds
    shortfall_zone = zone(-track["min_slack"], tol=-tol_, fail=tol_)
    if ev.verdict is Verdict.SUPPORTED and not track["exact"] and shortfall_zone != "clear":
        ev = replace(
            ev,
            verdict=Verdict.UNDECIDED,
            summary=(f"margin within tolerance: the smallest computed slack is "
                     f"{track['min_slack']:.3g} (relative), inside the band |slack| <= tol "
                     f"{tol_:.2g}, where rounding cannot tell a margin that holds from one "
                     f"that fails; {ev.summary}"),
        )
    if ev.counterexample is not None:
        # prose for a reader; the re-run command is the claim's own (set by the runner)
        ev.counterexample["how_to_check"] = (
            "evaluate scores(x) and targets(x) in float64 at counterexample['inputs']['x']; "
            f"or re-run check_margin(..., seed={seed}, dtype=torch.float64)"
        )
    return ev


def _exhaustive(scores, targets, margin, device, tol) -> Evidence:
    """Given data, judged exactly: float64 decides the items clear of the band, every item
    whose float64 slack is within ``tol`` (relative) of the margin, or short of it, is
    compared in exact rationals (a float is an exact rational; ints and Fractions too)."""
    S_exact, t, mg_exact = _as_data(scores, targets, margin)
    dev = prepare_device(device)
    S = _float64(S_exact, dev)
    t = t.to(dev)
    mg = _float64(mg_exact, dev) if isinstance(mg_exact, list) else float(mg_exact)
    tol_ = default_tol(torch.float64) if tol is None else float(tol)
    n = S.shape[0]
    m = margins(S, t)
    rel = relative_slack(S, m, mg)
    common: dict[str, Any] = {"method": "numeric", "dtype": "float64", "device": dev}
    nans = torch.isnan(rel)
    near = (~nans) & (rel <= tol_)  # short of the margin, or within the band: decide exactly
    exact = {int(i): _exact_slack(S_exact, t, mg_exact, int(i)) for i in near.nonzero()[:, 0]}
    short = sorted(i for i, d in exact.items() if d < 0)
    numbers: dict[str, Any] = {
        "n": n,
        "min_margin": float(torch.nan_to_num(m, nan=math.inf).min()) if n else math.inf,
        "argmin_margin": int(torch.nan_to_num(m, nan=math.inf).argmin()) if n else -1,
        "tol": tol_,
        "tol_in_eps": tol_ / eps(torch.float64),
        "scores_dtype": _dtype_of(scores),
        "exhaustive": True,
        "compared_exactly": len(exact),
        "exact_violations": len(short),
    }
    if exact:
        lo = min(exact, key=lambda i: exact[i])
        numbers["min_exact_slack"] = str(exact[lo])
        numbers["min_exact_slack_at"] = lo
    if short:
        i = min(short, key=lambda k: exact[k])
        ce = {
            "index": i,
            "scores": _jsonable_row(S_exact, i),
            "target": to_jsonable(t[i]),
            "margin_required": float(_at(mg_exact, i)),
            "margin_found": float(exact[i] + _at(mg_exact, i)),
            "margin_required_exact": str(_at(mg_exact, i)),
            "margin_found_exact": str(exact[i] + _at(mg_exact, i)),
            "shortfall_exact": str(-exact[i]),
            "violation": float(torch.nan_to_num(margin_violation(S[i : i + 1], t[i : i + 1],
                                                                 _at_float(mg, i)))[0]),
            "violations_found": len(short),
        }
        return Evidence(
            Verdict.REFUTED,
            f"margin violated at item #{i} of {n}: margin {float(exact[i] + _at(mg_exact, i)):.17g}"
            f" < required, short by {float(-exact[i]):.3g} (compared exactly; {len(short)} "
            "item(s) violate it)",
            counterexample=ce,
            numbers=numbers,
            generality=f"exhaustive over {n} items",
            **common,
        )
    if bool(nans.any()):
        numbers["nan_items"] = int(nans.sum())
        return Evidence(
            Verdict.UNDECIDED,
            f"{int(nans.sum())} item(s) have NaN scores or margins "
            f"(first #{int(nans.float().argmax())})",
            numbers=numbers,
            **common,
        )
    smallest = (f"smallest margin {float(exact[lo] + _at(mg_exact, lo)):.17g} (exact, #{lo})"
                if exact else f"smallest margin {numbers['min_margin']:.4g}")
    return Evidence(
        Verdict.SUPPORTED,
        f"margin holds on all {n} items; {smallest}",
        numbers=numbers,
        generality=f"exhaustive over {n} items",
        **common,
    )


def _exact_scores(S: torch.Tensor, mg: Any) -> bool:
    """Integer scores against an integer margin: every comparison is exact, no band."""
    if S.is_floating_point() or S.is_complex():
        return False
    m = torch.as_tensor(mg)
    return not (m.is_floating_point() and bool((m != m.round()).any()))


def relative_slack(
    S: torch.Tensor, m: torch.Tensor, margin: torch.Tensor | float
) -> torch.Tensor:
    """``(m_i - margin) / max(|margin|, max|S_i|)``, the signed slack on the violation's scale."""
    mg = torch.as_tensor(margin, dtype=torch.float64, device=S.device)
    scale = S.abs().reshape(S.shape[0], -1).max(dim=1).values.to(torch.float64)
    return (m.to(torch.float64) - mg) / torch.maximum(scale, mg.abs())


def _as_data(scores, targets, margin):
    """Scores as nested lists of exact rationals, targets as a tensor, the margin exact (one
    number, or a list of one per item)."""
    if callable(margin) and not isinstance(margin, torch.Tensor):
        raise TypeError("check_margin: without sample_input, margin must be a number or a tensor")
    if callable(scores) and not isinstance(scores, torch.Tensor):
        raise TypeError("check_margin: without sample_input, scores and targets must be data")
    t = targets.detach().cpu() if isinstance(targets, torch.Tensor) else torch.tensor(targets)
    S = scores.detach().cpu() if isinstance(scores, torch.Tensor) else _exact(scores)
    if isinstance(margin, torch.Tensor):
        mg = _exact(margin.detach().cpu().tolist())
    elif isinstance(margin, (list, tuple)):
        mg = _exact(list(margin))
    else:
        mg = _exact(margin)
    return S, t, mg


def _exact(x: Any) -> Any:
    """Fractions (exact) of floats, ints and Fractions, nested lists kept; NaN/inf kept as float."""
    if isinstance(x, (list, tuple)):
        return [_exact(v) for v in x]
    if isinstance(x, float) and not math.isfinite(x):
        return x
    return Fraction(x)


def _float64(x: Any, dev: str) -> torch.Tensor:
    if isinstance(x, torch.Tensor):
        return x.to(device=dev, dtype=torch.float64)
    return torch.tensor(_to_float(x), dtype=torch.float64, device=dev)


def _to_float(x: Any) -> Any:
    return [_to_float(v) for v in x] if isinstance(x, list) else float(x)


def _at_float(mg: Any, i: int) -> Any:
    return mg[i] if isinstance(mg, torch.Tensor) else mg


def _at(mg: Any, i: int) -> Any:
    return mg[i] if isinstance(mg, list) else mg


def _row(S: Any, i: int) -> Any:
    """Row ``i`` of the scores in exact rationals (a tensor's entries are exact rationals)."""
    return _exact(S[i].tolist()) if isinstance(S, torch.Tensor) else S[i]


def _exact_slack(S: Any, t: torch.Tensor, mg: Any, i: int) -> Fraction:
    """``m_i - margin_i`` in exact rationals (the margin of item ``i`` as the module defines)."""
    row, target = _row(S, i), int(t[i])
    if not isinstance(row, list):  # 1-D scores, targets in {-1, +1}
        m = target * row
    else:
        m = row[target] - max(v for j, v in enumerate(row) if j != target)
    return m - _at(mg, i)


def _jsonable_row(S: Any, i: int) -> Any:
    row = _row(S, i)
    return [str(v) for v in row] if isinstance(row, list) else str(row)


def _dtype_of(scores: Any) -> str:
    return dtype_name(scores.dtype) if isinstance(scores, torch.Tensor) else "exact (Python)"

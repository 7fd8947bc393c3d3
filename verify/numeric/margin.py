"""Margins: the target's score beats every other score by at least ``margin``.

For scores ``S`` of shape ``(batch, classes)`` and integer targets ``t``, the margin of input
``i`` is ``m_i = S[i, t_i] - max_{j != t_i} S[i, j]``; for scores of shape ``(batch,)`` and
targets in ``{-1, +1}`` it is ``m_i = t_i * S_i``. The claim ``m_i >= margin`` is violated by

    max(0, margin - m_i) / max(|margin|, max_j |S[i, j]|)

a shortfall relative to the scale of the scores, so rounding of ``m_i`` is ~eps and the
falsifier's eps-scaled tolerance applies. The smallest margin seen is always reported.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

import torch
from hypothesis.strategies import SearchStrategy

from ..evidence import Evidence
from ..jsonable import to_jsonable
from ..verdict import Verdict
from .batching import InDtype, cast
from .devices import dtype_name, eps, prepare_device
from .falsify import default_tol, falsify

Scores = torch.Tensor | Callable[[Any], torch.Tensor]


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
    seed: int = 0,
    max_seconds: float | None = None,
) -> Evidence:
    """Check ``margin(x) <= m(x)`` on a fixed set of scores or on sampled inputs.

    Two modes:

    - ``sample_input=None``: ``scores`` is a tensor ``(N, C)`` or ``(N,)``, ``targets`` a
      tensor ``(N,)``, ``margin`` a number or tensor ``(N,)``: checked exhaustively in float64.
    - ``sample_input(generator=, batch=, dtype=, device=, **drawn) -> x``: ``scores(x)`` (a
      function or module), ``targets(x)`` and (optionally) ``margin(x)`` are evaluated on
      batches searched by :func:`~verify.numeric.falsify` (same keywords).

    Returns:
        REFUTED with the input of the worst shortfall, SUPPORTED with the smallest margin seen.
    """
    if sample_input is None:
        return _exhaustive(scores, targets, margin, device, tol)
    in_dtype = InDtype(scores)
    track: dict[str, Any] = {"min_margin": math.inf}

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
        return margin_violation(S, t, mg), {"x": x, "scores": S, "target": t}

    ev = falsify(margin_prop, params, budget=budget, batch=batch, dtype=dtype, device=device,
                 tol=tol, seed=seed, max_seconds=max_seconds)
    ev.numbers["min_margin"] = track["min_margin"]
    if "min_margin_at" in track:
        ev.numbers["min_margin_at"] = track["min_margin_at"]
    ev.numbers["violation_definition"] = "max(0, margin - m) / max(|margin|, max|scores|)"
    ev.summary = f"margin: {ev.summary}; smallest margin seen {track['min_margin']:.4g}"
    if ev.counterexample is not None:
        # prose for a reader; the re-run command is the claim's own (set by the runner)
        ev.counterexample["how_to_check"] = (
            "evaluate scores(x) and targets(x) in float64 at counterexample['inputs']['x']; "
            f"or re-run check_margin(..., seed={seed}, dtype=torch.float64)"
        )
    return ev


def _exhaustive(scores, targets, margin, device, tol) -> Evidence:
    if not isinstance(scores, torch.Tensor) or not isinstance(targets, torch.Tensor):
        raise TypeError("check_margin: without sample_input, scores and targets must be tensors")
    dev = prepare_device(device)
    S = scores.detach().to(dev)
    t = targets.detach().to(dev)
    mg = margin.detach().to(dev) if isinstance(margin, torch.Tensor) else margin
    if callable(mg):
        raise TypeError("check_margin: without sample_input, margin must be a number or a tensor")
    tol_ = default_tol(torch.float64) if tol is None else float(tol)
    v = margin_violation(S, t, mg)
    m = margins(S.to(torch.float64), t)
    n = S.shape[0]
    numbers: dict[str, Any] = {
        "n": n,
        "min_margin": float(m.min()) if n else math.inf,
        "argmin_margin": int(m.argmin()) if n else -1,
        "worst_violation": float(torch.nan_to_num(v, nan=0.0).max()) if n else 0.0,
        "tol": tol_,
        "tol_in_eps": tol_ / eps(torch.float64),
        "scores_dtype": dtype_name(S.dtype),
        "exhaustive": True,
    }
    common: dict[str, Any] = {"method": "numeric", "dtype": "float64", "device": dev}
    nans = torch.isnan(v)
    over = torch.nan_to_num(v, nan=-1.0) > tol_
    if bool(over.any()):
        i = int(torch.nan_to_num(v, nan=-1.0).argmax())
        ce = {
            "index": i,
            "scores": to_jsonable(S[i]),
            "target": to_jsonable(t[i]),
            "margin_required": to_jsonable(
                mg[i] if isinstance(mg, torch.Tensor) and mg.dim() else mg
            ),
            "margin_found": float(m[i]),
            "violation": float(v[i]),
            "violations_found": int(over.sum()),
        }
        return Evidence(
            Verdict.REFUTED,
            f"margin violated at item #{i} of {n}: margin {float(m[i]):.4g} < required "
            f"({int(over.sum())} item(s) violate it)",
            counterexample=ce,
            numbers=numbers,
            generality=f"exhaustive over {n} items",
            **common,
        )
    if bool(nans.any()):
        numbers["nan_items"] = int(nans.sum())
        numbers["min_margin"] = float(torch.nan_to_num(m, nan=math.inf).min())
        return Evidence(
            Verdict.UNDECIDED,
            f"{int(nans.sum())} item(s) have NaN scores or margins "
            f"(first #{int(nans.float().argmax())})",
            numbers=numbers,
            **common,
        )
    return Evidence(
        Verdict.SUPPORTED,
        f"margin holds on all {n} items; smallest margin {numbers['min_margin']:.4g}",
        numbers=numbers,
        generality=f"exhaustive over {n} items",
        **common,
    )

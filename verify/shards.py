"""One claim's search split into shards, and the shards' evidence merged back into one result.

``verify fuzz ID --examples N --shards K`` (``K`` defaults to the cluster's worker threads
with ``--scheduler``) runs claim ``ID`` ``K`` times, shard ``i`` with
``ctx.shards = K, ctx.shard = i``: every falsifier search in it runs its share of the
examples with a seed derived from its own and ``i`` (:meth:`verify.Context.search_share`),
so the shards search different inputs and together spend the whole budget, on as many
workers. :func:`merge` then makes one result of the ``K``, piece by piece of evidence (the
shards run the same checks, so their pieces correspond in order):

- a REFUTED piece of any shard wins: the counterexample of the lowest-numbered shard that
  found one (each was already shrunk and re-checked in float64 by its falsifier), so the
  merge is reproducible whatever order the shards finished in;
- else an UNDECIDED piece (a NaN, a crash) of the lowest-numbered shard;
- else the SUPPORTED pieces add up: examples, inputs tried and re-checks summed, the worst
  violation (and where it was) the largest of the shards', the histograms joined;
- pieces without a search (a proof, an experiment) are the same in every shard: shard 0's.

The claim's verdict is then combined from the merged pieces by the usual rule.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from .context import Context
from .evidence import Evidence
from .execute import build_result
from .registry import Claim
from .results import ClaimResult
from .verdict import Verdict

#: Counts a numeric piece adds up over shards.
_SUMMED = ("examples", "inputs_tried", "budget", "float64_rechecks", "cleared_by_float64",
           "nan_batches_in_dtype")


def shard_contexts(ctx: Context, shards: int) -> list[Context]:
    """The contexts of the ``shards`` runs of one claim (just ``ctx`` when ``shards`` is 1)."""
    if shards <= 1:
        return [ctx]
    return [replace(ctx, shards=shards, shard=i) for i in range(shards)]


def merge(claim: Claim, ctx: Context, results: list[ClaimResult]) -> ClaimResult:
    """One result from the results of the shards of ``claim`` (in shard order)."""
    if len(results) == 1:
        return results[0]
    elapsed = max(r.elapsed_s for r in results)
    lengths = {len(r.evidence) for r in results}
    if len(lengths) != 1:  # a shard crashed (one UNDECIDED piece) or the checks differ
        refuting = [r for r in results if r.verdict is Verdict.REFUTED]
        pick = refuting[0] if refuting else next((r for r in results if r.error), results[0])
        evidence = [replace(e) for e in pick.evidence]
        error = pick.error
    else:
        evidence = [merge_pieces(list(ps)) for ps in zip(*(r.evidence for r in results),
                                                          strict=True)]
        error = next((r.error for r in results if r.error), None)
    errored = any(r.verdict is Verdict.ERROR for r in results)  # a shard's code crashed
    if errored:
        error = next(r.error for r in results if r.verdict is Verdict.ERROR)
    out = build_result(claim, ctx, evidence, elapsed=elapsed, error=error, errored=errored)
    out.output = next((r.output for r in results if r.output), {})
    return out


def merge_pieces(pieces: list[Evidence]) -> Evidence:
    """One piece of evidence from the corresponding pieces of the shards."""
    for verdict in (Verdict.REFUTED, Verdict.UNDECIDED):
        found = [p for p in pieces if p.verdict is verdict]
        if found:
            return replace(found[0])
    searched = [p for p in pieces if p.method == "numeric" and "inputs_tried" in p.numbers]
    if len(searched) != len(pieces) or any(p.verdict is not Verdict.SUPPORTED for p in pieces):
        return replace(pieces[0])
    return _add_up(pieces)


def _add_up(pieces: list[Evidence]) -> Evidence:
    """The SUPPORTED result of the shards' searches taken together."""
    first = pieces[0]
    worst = max(pieces, key=lambda p: p.numbers.get("worst_violation", 0.0))
    numbers: dict[str, Any] = dict(first.numbers)
    for key in _SUMMED:
        if all(key in p.numbers for p in pieces):
            numbers[key] = sum(p.numbers[key] for p in pieces)
    for key in ("worst_violation", "worst_in_eps", "worst_example"):
        if key in worst.numbers:
            numbers[key] = worst.numbers[key]
    numbers["out_of_time"] = any(p.numbers.get("out_of_time") for p in pieces)
    numbers["shards"] = len(pieces)
    numbers["shard_seeds"] = [p.seed for p in pieces]
    inputs, examples = numbers.get("inputs_tried", 0), numbers.get("examples", 0)
    w, eps = numbers.get("worst_violation", 0.0), numbers.get("eps") or 1.0
    head = first.summary.split("no violation", 1)[0]  # "equivariance: " and the like
    summary = (f"{head}no violation above tol {numbers.get('tol', 0.0):.2g} in {inputs} "
               f"inputs ({examples} examples over {len(pieces)} shards, {first.dtype}, "
               f"{first.device}); worst {w:.3g} = {w / eps:.3g} eps")
    figures = [dict(f) for f in first.figures]
    for i, fig in enumerate(figures):
        if fig.get("kind") == "histogram":
            fig["values"] = [v for p in pieces if i < len(p.figures)
                             for v in p.figures[i].get("values", [])]
            fig["title"] = f"{fig.get('title', '')} ({len(pieces)} shards)"
    return replace(first, summary=summary, numbers=numbers, figures=figures,
                   generality=f"{inputs} random inputs, {first.dtype}",
                   steps=[*first.steps, f"{len(pieces)} shards with derived seeds, merged"],
                   elapsed_s=max((p.elapsed_s or 0.0) for p in pieces))

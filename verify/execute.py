"""Run one claim's checks in this process and turn what they return into a result.

This is what a claim process (a fork of a clean template, :mod:`verify.isolation`) does. It
never raises for a misbehaving check: an exception, a return value that is not evidence, or
NaN in the numbers all become UNDECIDED evidence with the reason, while the claim's other
checks still run.
"""

from __future__ import annotations

import dataclasses
import logging
import re
import time
import traceback
from collections.abc import Iterable
from typing import Any

from .combine import AS_PRINTED, combine, readings_of
from .context import Context, activate
from .evidence import Evidence
from .registry import Claim
from .results import ClaimResult
from .verdict import Verdict

log = logging.getLogger(__name__)


def _name(fn: Any) -> str:
    return getattr(fn, "__qualname__", repr(fn))


def collect(fn: Any, ctx: Context, errors: list[str] | None = None) -> list[Evidence]:
    """Call one check and return its evidence, converting every failure into UNDECIDED.

    ``errors``, when given, receives the reason of each failure of the check itself (it
    raised, or returned something that is not evidence): the claim then crashed, which
    ``ClaimResult.error`` records (and ``verify run --strict`` fails on)."""
    t0 = time.perf_counter()

    def broken(reason: str, **kw: Any) -> Evidence:
        if errors is not None:
            errors.append(reason)
        return Evidence.undecided(reason, **kw)

    try:
        out = fn(ctx)
    except Exception as e:  # noqa: BLE001 - a crashing check must not take the claim down
        tb = traceback.format_exc(limit=6)
        log.debug("check %s raised:\n%s", _name(fn), tb)
        return [
            broken(
                f"check {_name(fn)} raised {type(e).__name__}: {e}",
                steps=[tb],
                elapsed_s=time.perf_counter() - t0,
            )
        ]
    items: list[Any]
    if isinstance(out, Evidence):
        items = [out]
    elif isinstance(out, Iterable) and not isinstance(out, (str, bytes, dict)):
        try:
            items = list(out)
        except Exception as e:  # noqa: BLE001 - a generator that fails half-way
            return [broken(f"check {_name(fn)} raised {type(e).__name__}: {e}")]
    else:
        return [broken(f"check {_name(fn)} returned {_quote(out)}, not Evidence")]
    good: list[Evidence] = []
    for item in items:
        if isinstance(item, Evidence):
            if item.elapsed_s is None:
                item.elapsed_s = time.perf_counter() - t0
            good.append(item)
        else:
            why = f"check {_name(fn)} yielded {_quote(item)}, not Evidence"
            good.append(broken(why))
    if not good:
        good.append(broken(f"check {_name(fn)} returned no evidence"))
    return good


#: torch's messages for a tensor on the wrong device (a check that builds its constants on
#: the CPU while the search draws on the GPU): the check runs again on the CPU.
DEVICE_MISMATCH = re.compile(
    r"on the same device|device type for generator|device type tensor to numpy"
    r"|either on cpu or on the same device"
)


def collect_on_device(fn: Any, ctx: Context, errors: list[str] | None = None) -> list[Evidence]:
    """:func:`collect` on the claim's device. On a GPU, a check that fails only because it
    mixes devices is run again, from the same seeds, on the CPU: its evidence is then the
    CPU run's (the same as ``--device cpu``), and its summary says so. Any other failure
    stays the check's own UNDECIDED."""
    if not ctx.device.startswith("cuda"):
        return collect(fn, ctx, errors)
    failures: list[str] = []
    evidence = collect(fn, ctx, failures)
    mixed = [f for f in failures if DEVICE_MISMATCH.search(f)]
    if not mixed:
        if errors is not None:
            errors.extend(failures)
        return evidence
    log.warning("%s: %s; running the check on the CPU", ctx.claim_id, mixed[0])
    cpu = dataclasses.replace(ctx, device="cpu")
    reset_global_state(cpu.seed)
    with activate(cpu):
        again = collect(fn, cpu, errors)
    note = f"[on cpu: on {ctx.device} {_shorten(mixed[0].splitlines()[0], 160)}]"
    for e in again:
        e.summary = f"{note} {e.summary}"
        e.device = e.device or "cpu"
    return again


def _shorten(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 3] + "..."


def _quote(value: Any) -> str:
    return _shorten(repr(value), 60)


def reset_global_state(seed: int) -> None:
    """Seed the global random generators (``random``, NumPy's, torch's) from the claim's seed.

    Nothing else is reset: in a pool each claim runs in a fresh fork of a template that has
    run nothing (:mod:`verify.isolation`), so every other global starts clean by
    construction. The generators are the exception: a fork inherits the template's state
    (and ``random`` reseeds itself from the OS), so a check that draws from a global
    generator by accident would get different numbers on every run. Checks should draw from
    ``ctx.torch_generator`` / ``ctx.numpy_rng``. In-process runs (``jobs=0``) are for
    debugging and share every other global between claims.
    """
    import random
    import sys

    random.seed(seed)
    try:
        import numpy as np

        np.random.seed(seed % 2**32)
    except ImportError:  # pragma: no cover
        pass
    if "torch" in sys.modules:
        import torch

        torch.manual_seed(seed)


def execute(claim: Claim, ctx: Context) -> ClaimResult:
    """Run every check of ``claim`` with ``ctx`` and combine their evidence."""
    reset_global_state(ctx.seed)
    t0 = time.perf_counter()
    evidence: list[Evidence] = []
    errors: list[str] = []  # the checks that crashed: the claim's error
    with activate(ctx):  # the falsifier reads the fuzz split (examples, shard) from it
        for fn in claim.checks:
            evidence.extend(collect_on_device(fn, ctx, errors))
    for e in evidence:
        if e.seed is None and e.method in ("numeric", "experiment"):
            e.seed = ctx.seed
        if e.rerun is None and e.verdict is Verdict.REFUTED:
            e.rerun = ctx.rerun_command()
    error = None
    if errors:
        error = errors[0] + (f" (and {len(errors) - 1} more)" if len(errors) > 1 else "")
    return build_result(claim, ctx, evidence, elapsed=time.perf_counter() - t0, error=error)


def build_result(
    claim: Claim,
    ctx: Context,
    evidence: list[Evidence],
    *,
    elapsed: float,
    error: str | None = None,
) -> ClaimResult:
    """Combine evidence into a :class:`ClaimResult` (also used for crashed claims)."""
    from .combine import audit, headline_of, scope_of, undecided_reason

    q = claim.quantifier_of  # what each reading quantifies (combine, rule 7)
    evidence = [audit(e, q(e.reading)) for e in evidence]
    combined = {label: combine(evidence, label, q(label)) for label in readings_of(evidence)}
    head = headline_of(combined, intended=claim.headline[0], reason=claim.headline[1],
                       repairs=claim.repairs, notes=claim.repair_notes, vacuous=claim.vacuous,
                       proof=claim.proof)
    readings = {
        label: {"verdict": c.verdict.value, "summary": c.summary}
        | ({"scope": sc} if (sc := scope_of(evidence, label, q(label))) else {})
        | ({"quantifier": "exists"} if q(label) == "exists" else {})
        for label, c in combined.items()
        if label != AS_PRINTED or head.reading != AS_PRINTED  # the literal one beside
    }
    for label, role in claim.repairs.items():
        if label in readings:
            readings[label]["repairs"] = role
    deep = dataclasses.replace(ctx, profile="deep")
    why_undecided = undecided_reason(
        head.verdict, [e for e in evidence if e.reading == head.reading], kind=claim.kind,
        error=error, declared=claim.undecided, deep_command=deep.rerun_command(),
        deep_budget_s=claim.timeout_for("deep") or _deep_budget())
    return ClaimResult(
        id=claim.id,
        paper=claim.paper,
        verdict=head.verdict,
        summary=head.summary,
        scope=scope_of(evidence, head.reading, q(head.reading)),
        quantifier=q(AS_PRINTED),
        severity=head.severity,
        repaired_by=head.repaired_by,
        headline_reading=head.reading,
        headline_reason=head.reason,
        errata=[dict(e) for e in head.errata],
        severity_clause=head.clause,
        undecided_reason=why_undecided[0] if why_undecided else None,
        undecided_detail=why_undecided[1] if why_undecided else None,
        code=claim.code,
        paper_title=_paper_title(claim.paper),
        expect=claim.expect_for(ctx.profile),
        elapsed_s=elapsed,
        evidence=evidence,
        readings=readings,
        where=claim.where,
        kind=claim.kind,
        statement=claim.statement,
        reading_statements=claim.readings,
        seed=ctx.seed,
        run_seed=ctx.run_seed,
        profile=ctx.profile,
        device=ctx.device,
        error=error,
        rerun=ctx.rerun_command(),
    )


def _deep_budget() -> float:
    from .context import PROFILES

    return PROFILES["deep"]["timeout"]


def _paper_title(key: str) -> str:
    from .registry import REGISTRY

    info = REGISTRY.papers.get(key)
    return info.title if info else ""


def failed(
    claim: Claim,
    ctx: Context,
    reason: str,
    elapsed: float,
    output: dict[str, str] | None = None,
) -> ClaimResult:
    """The result of a claim whose process hung or died: UNDECIDED with the reason, and the
    tail of what it printed (``Outcome.output``) when there is one."""
    ev = Evidence.undecided(reason, elapsed_s=elapsed)
    result = build_result(claim, ctx, [ev], elapsed=elapsed, error=reason)
    result.output = dict(output or {})
    return result

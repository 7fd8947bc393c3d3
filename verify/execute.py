"""Run one claim's checks in this process and turn what they return into a result.

This is what a claim process (a fork of a clean template, :mod:`verify.isolation`) does. It
never raises for a misbehaving check: the claim's other checks still run, and

- a check that raises (a NameError, a wrong keyword, a wrong shape, a bad group name, a
  tensor on another device than the claim's) or
  returns something that is not evidence is a bug in the claim's code: the claim's status is
  :attr:`Verdict.ERROR <verify.verdict.Verdict.ERROR>`, not a verdict of the paper, and its
  ``error`` names the exception and the last frame of the traceback in the claim's own file
  (``claims.py:10 in check_x``), where the bug is to be fixed;
- a check that runs out of memory (``MemoryError`` under the claim's memory limit) hit a
  limit of the run, not a fault of its code: UNDECIDED with the reason (as a claim whose
  process was killed or ran past its budget, :func:`failed`);
- NaN in the numbers of a verdict is the audit's UNDECIDED (:func:`verify.combine.audit`).
"""

from __future__ import annotations

import dataclasses
import logging
import os
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


def collect(fn: Any, ctx: Context, errors: list[str] | None = None,
            limits: list[str] | None = None) -> list[Evidence]:
    """Call one check and return its evidence, converting every failure into UNDECIDED.

    ``errors``, when given, receives the reason of each failure of the check's code (it
    raised, or returned something that is not evidence): the claim is then ERROR.
    ``limits``, when given, receives the reason of a check that ran out of memory (a limit
    of the run, not a bug: the claim stays UNDECIDED); without it, that goes to ``errors``."""
    t0 = time.perf_counter()

    def broken(reason: str, sink: list[str] | None = errors, **kw: Any) -> Evidence:
        if sink is not None:
            sink.append(reason)
        return Evidence.undecided(reason, **kw)

    try:
        out = fn(ctx)
    except MemoryError:
        log.debug("check %s ran out of memory", _name(fn))
        return [broken(f"check {_name(fn)} ran out of memory (MemoryError: over the "
                       "claim's memory limit, see --memory-gib)",
                       limits if limits is not None else errors,
                       elapsed_s=time.perf_counter() - t0)]
    except (Exception, SystemExit) as e:
        limit = _limit_hit(e)
        if limit is not None:  # the run's limits, not the code's fault: UNDECIDED
            return [broken(f"check {_name(fn)} {limit}: {_shorten(str(e), 300)}",
                           limits if limits is not None else errors,
                           elapsed_s=time.perf_counter() - t0)]
        tb = traceback.format_exc(limit=6)
        log.debug("check %s raised:\n%s", _name(fn), tb)
        return [broken(_crash_reason(fn, ctx, e), steps=[_shorten(tb, 4000)],
                       elapsed_s=time.perf_counter() - t0)]
    items: list[Any]
    if isinstance(out, Evidence):
        items = [out]
    elif isinstance(out, Iterable) and not isinstance(out, (str, bytes, dict)):
        try:
            items = list(out)
        except Exception as e:
            return [broken(f"check {_name(fn)} raised {type(e).__name__}: "
                           f"{_shorten(str(e), 500)}{_at(fn, e)}")]
    else:
        return [broken(f"check {_name(fn)} returned {_quote(out)}, not Evidence")]
    good: list[Evidence] = []
    for item in items:
        if isinstance(item, Evidence) and item.verdict is not Verdict.ERROR:
            if item.elapsed_s is None:
                item.elapsed_s = time.perf_counter() - t0
            good.append(item)
        elif isinstance(item, Evidence):
            good.append(broken(f"check {_name(fn)} yielded evidence with verdict ERROR, "
                               "which no evidence can carry (ERROR is a crashed claim's status)"))
        else:
            why = f"check {_name(fn)} yielded {_quote(item)}, not Evidence"
            good.append(broken(why))
    if not good:
        good.append(broken(f"check {_name(fn)} returned no evidence"))
    return good


def _limit_hit(e: BaseException) -> str | None:
    """What limit of the run ``e`` says the check hit (device memory, the file-size limit,
    a full disk), or None when it is a fault of the check's code."""
    import errno

    if type(e).__name__ == "OutOfMemoryError":  # torch.cuda's
        return "ran out of device memory"
    if isinstance(e, OSError) and e.errno == errno.EFBIG:
        return "wrote a file over its size limit (verify run --max-file-gib)"
    if isinstance(e, OSError) and e.errno == errno.ENOSPC:
        return "ran out of disk space"
    return None


def _at(fn: Any, exc: BaseException) -> str:
    """``" at claims.py:10 in check_x: <line>"``: the last frame of ``exc``'s traceback in
    the file that defines the check ``fn`` (where the claim's bug is), else its last frame."""
    import inspect

    from .registry import check_location

    frames = traceback.extract_tb(exc.__traceback__)
    if not frames:
        return ""
    try:
        home = os.path.realpath(inspect.getsourcefile(inspect.unwrap(fn)) or "")
    except TypeError:
        home = ""
    own = [f for f in frames if home and os.path.realpath(f.filename) == home]
    frame = (own or frames)[-1]
    where = f"{frame.filename}:{frame.lineno}"
    if own:  # the path as the claim's code list shows it (relative to its package root)
        where = check_location(fn).rsplit(":", 1)[0] + f":{frame.lineno}"
    line = f": {_shorten(frame.line.strip(), 120)}" if frame.line else ""
    return f" (at {where} in {frame.name}{line})"


#: torch's messages for a tensor on the wrong device (a check that builds its constants on
#: the CPU while the search draws on the GPU, or hands a CUDA tensor to NumPy): the claim is
#: ERROR, and its reason says what to fix.
_DEVICE_MISMATCH = re.compile(
    r"on the same device|device type for generator|device type tensor to numpy"
    r"|either on cpu or on the same device"
)


def _crash_reason(fn: Any, ctx: Context, e: BaseException) -> str:
    """Why check ``fn`` crashed, as the claim's ERROR states it: the exception and where it
    was raised, and for a tensor on another device than the claim's, that it mixes devices."""
    raised = f"raised {type(e).__name__}: {_shorten(str(e), 500)}{_at(fn, e)}"
    if _DEVICE_MISMATCH.search(str(e)):
        return (f"check {_name(fn)} mixes devices on {ctx.device} (it must build its tensors "
                f"and generators on the device it is given, and take no NumPy of a CUDA "
                f"tensor): {raised}")
    return f"check {_name(fn)} {raised}"


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
    errors: list[str] = []  # the checks whose code crashed: the claim is ERROR
    limits: list[str] = []  # the checks that ran out of memory: UNDECIDED, with the reason
    with activate(ctx):  # the falsifier reads the fuzz split (examples, shard) from it
        for fn in claim.checks:
            evidence.extend(collect(fn, ctx, errors, limits))
    for e in evidence:
        if e.seed is None and e.method in ("numeric", "experiment"):
            e.seed = ctx.seed
        if e.rerun is None and e.verdict is Verdict.REFUTED:
            e.rerun = ctx.rerun_command()
    failures = errors or limits
    error = None
    if failures:
        error = failures[0] + (f" (and {len(failures) - 1} more)" if len(failures) > 1 else "")
    return build_result(claim, ctx, evidence, elapsed=time.perf_counter() - t0, error=error,
                        errored=bool(errors))


def build_result(
    claim: Claim,
    ctx: Context,
    evidence: list[Evidence],
    *,
    elapsed: float,
    error: str | None = None,
    errored: bool = False,
) -> ClaimResult:
    """Combine evidence into a :class:`ClaimResult` (also used for crashed claims).

    ``errored``: the claim's code crashed (``error`` says where): its status is ERROR, with
    no verdict, scope or severity, whatever the evidence of its other checks says (that
    evidence stays in the record, and its readings with it)."""
    from .combine import audit, headline_of, scope_of, undecided_reason

    q = claim.quantifier_of  # what each reading quantifies (combine, rule 7)
    evidence = [audit(capped(e), q(e.reading)) for e in evidence]
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
    if errored and error is not None:
        # a crash is no verdict of the paper: nothing of the headline survives it
        head = dataclasses.replace(head, verdict=Verdict.ERROR, reading=AS_PRINTED,
                                   summary=f"the claim's code crashed: {error}", severity=None,
                                   repaired_by=None, errata=(), clause=None, reason="")
        why_undecided = None
    return ClaimResult(
        id=claim.id,
        paper=claim.paper,
        verdict=head.verdict,
        summary=head.summary,
        scope=None if errored and error is not None else scope_of(evidence, head.reading,
                                                                  q(head.reading)),
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


#: Most characters a summary (or one step, or a short field) of a piece of evidence keeps.
MAX_TEXT = 20_000
#: Most characters all the steps of one piece keep together.
MAX_STEPS_TEXT = 200_000
#: Most bytes (as JSON) the numbers, the counterexample or the figures of one piece may take.
MAX_DATA_BYTES = 1_000_000
_SHORT_FIELDS = ("generality", "rerun", "dtype", "device", "reading", "part")


def _cut(text: str, limit: int = MAX_TEXT) -> str:
    if len(text) <= limit:
        return text
    return text[:limit] + f" [... {len(text) - limit:,} characters cut]"


def _json_size(value: Any) -> int:
    import json

    try:
        return len(json.dumps(value, default=str))
    except (TypeError, ValueError, RecursionError):
        return 0  # not JSON-ready: results.storable judges it


def capped(e: Evidence) -> Evidence:
    """``e`` with its text cut to the limits above, so that one claim's 200 MB summary makes
    a record of a few hundred kilobytes, not a 420 MB results line (the report and the
    terminal show it cut, saying how much). Numbers or a counterexample too large to record
    cannot back a verdict: the piece is then UNDECIDED, saying so; figures too large are
    dropped with a note in the steps."""
    if not isinstance(e, Evidence):
        return e
    changes: dict[str, Any] = {}
    if isinstance(e.summary, str) and len(e.summary) > MAX_TEXT:
        changes["summary"] = _cut(e.summary)
    for name in _SHORT_FIELDS:
        value = getattr(e, name, None)
        if isinstance(value, str) and len(value) > 2000:
            changes[name] = _cut(value, 2000)
    if isinstance(e.steps, list) and sum(len(x) for x in e.steps if isinstance(x, str)) > (
            MAX_STEPS_TEXT) or any(isinstance(x, str) and len(x) > MAX_TEXT for x in e.steps):
        kept: list[str] = []
        budget = MAX_STEPS_TEXT
        for i, step in enumerate(e.steps):
            step = _cut(step) if isinstance(step, str) else step
            if isinstance(step, str) and len(step) > budget:
                kept.append(f"[... {len(e.steps) - i} more step(s) cut]")
                break
            kept.append(step)
            budget -= len(step) if isinstance(step, str) else 0
        changes["steps"] = kept
    if _json_size(e.figures) > MAX_DATA_BYTES:
        changes["figures"] = []
        changes["steps"] = [*changes.get("steps", e.steps),
                            f"[figures of {_json_size(e.figures):,} bytes dropped]"]
    big = [name for name in ("numbers", "counterexample")
           if _json_size(getattr(e, name)) > MAX_DATA_BYTES]
    if big and e.verdict is not Verdict.UNDECIDED:
        sizes = ", ".join(f"{n} {_json_size(getattr(e, n)):,} bytes" for n in big)
        changes["verdict"] = Verdict.UNDECIDED
        changes["summary"] = (f"[{e.verdict.value} not recorded: {sizes}, over the "
                              f"{MAX_DATA_BYTES:,}-byte limit] {changes.get('summary', e.summary)}")
    for name in big:
        changes[name] = {"cut": f"{_json_size(getattr(e, name)):,} bytes, over the limit"}
    return dataclasses.replace(e, **changes) if changes else e


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

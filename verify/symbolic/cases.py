"""Evidence over a list of exact cases, and a refutation by one exact instance.

Two shapes recur in the papers' symbolic claims:

- an identity proved case by case (each concrete size, head or branch of a statement):
  :func:`prove_cases` runs :func:`~verify.symbolic.prove_equal` on each and gives one piece
  of evidence: PROVED only if every case is an exact zero, the first REFUTED case as it is
  (it carries the engine's checked witness), else UNDECIDED naming the case that stalled;
- a formula that fails at one exact instance (a typo'd coefficient, a missing transpose):
  :func:`refute_exactly` re-checks ``lhs - rhs != 0`` in exact arithmetic before it says
  REFUTED, so no float round-off can make a refutation.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

import sympy as sp

from ..evidence import Evidence, Scope
from ..verdict import Verdict
from .assume import Assumptions
from .prove import prove_equal

Case = tuple[str, Any, Any]


def prove_cases(
    cases: Iterable[Case],
    *,
    generality: str,
    scope: Scope = "bounded",
    summary: str = "",
    assumptions: Assumptions = "real",
    timeout: float = 20.0,
    reading: str = "A",
    part: str = "main",
) -> Evidence:
    """Prove every ``(label, lhs, rhs)`` case exactly; one piece of evidence for all of them.

    ``generality`` says what the cases cover (``"N in {2, 3}, d = 4"``) and ``scope`` whether
    that is the statement's own generality (``"general"``, e.g. cases that are the branches of
    a finite statement) or only instances of it (``"bounded"``, the default). The time budget
    is shared evenly, at least 2 s a case.
    """
    t0 = time.perf_counter()
    cases = list(cases)
    if not cases:
        raise ValueError("prove_cases needs at least one (label, lhs, rhs) case")
    per_case = max(2.0, timeout / len(cases))
    steps: list[str] = []
    for label, lhs, rhs in cases:
        ev = prove_equal(lhs, rhs, assumptions=assumptions, timeout=per_case,
                         reading=reading, part=part)
        steps.append(f"{label}: {ev.verdict.value} ({ev.summary})")
        if ev.verdict is Verdict.REFUTED:
            return replace(ev, summary=f"{label}: {ev.summary}", steps=steps + list(ev.steps))
        if ev.verdict is not Verdict.PROVED:
            return Evidence(Verdict.UNDECIDED, f"{label}: {ev.summary}", method="symbolic",
                            reading=reading, part=part, steps=steps + list(ev.steps),
                            generality=generality, elapsed_s=time.perf_counter() - t0)
    lead = f"{summary}; " if summary else ""
    return Evidence(
        Verdict.PROVED, f"{lead}exact zero in {_all(len(cases), 'case')} ({generality})",
        method="symbolic", reading=reading, part=part, steps=steps, generality=generality,
        scope=scope, elapsed_s=time.perf_counter() - t0,
    )


def refute_exactly(
    summary: str,
    counterexample: Mapping[str, Any],
    *,
    lhs: Any,
    rhs: Any,
    **evidence_kw: Any,
) -> Evidence:
    """REFUTED when ``lhs - rhs`` is exactly nonzero at the instance ``counterexample`` names.

    ``lhs`` and ``rhs`` are the two sides already evaluated at that instance, in exact
    numbers (rationals, radicals, exact matrices). The difference is simplified exactly; if it
    is zero the witness does not hold and the evidence is UNDECIDED, never REFUTED. The
    counterexample records both sides and their difference, so a reader can re-check it.
    Extra keywords go to :class:`~verify.Evidence` (``reading``, ``part``, ``steps``...).
    """
    evidence_kw.setdefault("method", "symbolic")
    evidence_kw.setdefault("generality", "a single exact instance suffices")
    L, R = sp.sympify(lhs), sp.sympify(rhs)
    if _has_float(L) or _has_float(R):
        return Evidence(Verdict.UNDECIDED, f"witness is not exact (floats in a side): {summary}",
                        **evidence_kw)
    d = sp.simplify(L - R)
    zero = d.is_zero_matrix if isinstance(d, sp.MatrixBase) else d.is_zero
    if zero is not False:
        why = "difference is exactly zero" if zero else "difference not decided nonzero"
        return Evidence(Verdict.UNDECIDED, f"witness did not re-check exactly ({why}): {summary}",
                        **evidence_kw)
    ce = dict(counterexample)
    ce["lhs"], ce["rhs"], ce["difference"] = str(L), str(R), str(d)
    return Evidence(Verdict.REFUTED, summary, counterexample=ce, **evidence_kw)


def _has_float(e: Any) -> bool:
    atoms = e.atoms(sp.Float) if isinstance(e, sp.Basic) else set()
    return bool(atoms)


def _all(n: int, noun: str) -> str:
    """``the one case``, ``all 3 cases``."""
    return f"the one {noun}" if n == 1 else f"all {n} {noun}s"

"""How a claim's verdict reads wherever it is shown: with its strength, and every reading.

A verdict column alone misleads in three ways: a proof at the listed sizes reads like a proof
in the statement's own generality, a refutation by a typo reads like a false theorem, and a
pedantic reading of a display reads like a finding. So the headline is the verdict of the
reading that heads (:mod:`verify.combine`, rule 8: the statement the paper means) and carries
the qualifier that the evidence computed (rules 5, 6 and 8):

- a PROVED claim reads ``PROVED`` when its scope is ``general`` and ``PROVED (bounded)``
  when it is exact at listed instances only;
- a claim whose printed text has a defect a referee fixes with a remark reads with the
  repaired statement's verdict: ``PROVED (with erratum: sign of β⁴)``; a defect of its
  *proof* only (a wrong choice of parameters, a failing intuition) reads apart, since the
  statement stands: ``PROVED (erratum in the proof: W_B needs the star moved)``;
- a REFUTED claim reads ``REFUTED (overstated)`` or ``REFUTED (false)``;
- a claim of kind ``consistency`` (numbers the paper reports about itself, checked against
  each other) reads ``PROVED (consistency check)`` or ``REFUTED (consistency check)``: an
  agreement of the paper's own numbers is no theorem, and a disagreement no false one;

and the readings line puts every reading's verdict beside the heading one, the heading one
first (``B PROVED (with erratum: ...) · A REFUTED · C SUPPORTED``), so the literal reading's
refutation is seen without opening the claim. The run table, ``verify show``, the summary
counts (errata apart from refutations, UNDECIDED by reason) and the report all use these
functions.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from .verdict import Verdict


class _Result(Protocol):
    verdict: Verdict
    scope: str | None
    severity: str | None
    readings: dict[str, dict[str, Any]]


def _errata(r: Any) -> list[dict[str, str]]:
    return list(getattr(r, "errata", None) or [])


def of_proof(erratum: dict[str, str]) -> bool:
    """Whether an erratum corrects the paper's *proof* (combine rule 8: a proof step that
    fails beside a statement that holds), not its statement. Results written before errata
    carried ``of`` say so by the ``in the proof:`` their ``what`` begins with."""
    return erratum.get("of") == "proof" or erratum.get("what", "").startswith("in the proof:")


#: The kind of claim whose verdict reads as a check of the paper's own numbers.
CONSISTENCY = "consistency"


def qualifier(verdict: Verdict, scope: str | None, severity: str | None,
              errata: list[dict[str, str]] | None = None, *, what: bool = True,
              kind: str = "") -> str:
    """``"bounded"``, ``"false"``, ``"with erratum: sign of β⁴"``, ``"consistency check"``... :
    the words that say a verdict's strength, or ``""``; ``what=False`` leaves out what the
    errata fix. A ``consistency`` claim's verdict reads as a check of the paper's numbers,
    with neither a scope nor a severity."""
    words = []
    if kind == CONSISTENCY and verdict in (Verdict.PROVED, Verdict.REFUTED):
        words.append("consistency check")
    elif (verdict is Verdict.PROVED and scope != "general"
          or verdict is Verdict.CERTIFIED and scope == "bounded"):  # unrecorded: older files
        words.append("bounded")
    elif verdict is Verdict.REFUTED and severity:
        words.append(severity)
    text = [e for e in errata or [] if not of_proof(e)]
    proof = [e for e in errata or [] if of_proof(e)]
    for kind, found in (("with erratum", text), ("erratum in the proof", proof)):
        fixes = "; ".join(e.get("what", "").removeprefix("in the proof: ") for e in found
                          if e.get("what"))
        if found:
            words.append(f"{kind}: {fixes}" if what and fixes else kind)
    return ", ".join(words)


def label(verdict: Verdict, scope: str | None = None, severity: str | None = None,
          errata: list[dict[str, str]] | None = None, *, what: bool = True,
          kind: str = "") -> str:
    """The verdict with its qualifier: ``PROVED``, ``PROVED (bounded)``, ``REFUTED (false)``,
    ``PROVED (with erratum: sign of β⁴)`` (``what=False``: ``PROVED (with erratum)``)."""
    q = qualifier(verdict, scope, severity, errata, what=what, kind=kind)
    return f"{verdict.value} ({q})" if q else verdict.value


def headline(r: _Result) -> str:
    """The claim's headline verdict with its qualifier."""
    return label(r.verdict, r.scope, r.severity, _errata(r), kind=getattr(r, "kind", ""))


def category(r: _Result) -> str:
    """The headline without what the errata fix, and an UNDECIDED with its reason category:
    what the summary counts (``PROVED (with erratum)``, ``UNDECIDED (needs_compute)``)."""
    errata = _errata(r) if r.verdict is not Verdict.REFUTED else []  # a refutation is one
    q = qualifier(r.verdict, r.scope, r.severity, errata, what=False,
                  kind=getattr(r, "kind", ""))
    reason = getattr(r, "undecided_reason", None)
    if r.verdict is Verdict.UNDECIDED and reason:
        q = reason
    return f"{r.verdict.value} ({q})" if q else r.verdict.value


def reading_label(info: Mapping[str, Any]) -> str:
    """One other reading's verdict with its scope (``PROVED (bounded)``)."""
    try:
        v = Verdict.parse(info.get("verdict", "UNDECIDED"))
    except ValueError:
        return str(info.get("verdict", "?"))
    return label(v, info.get("scope"), None)


def readings_line(r: _Result, sep: str = " · ") -> str:
    """The heading reading first with the headline, then every other reading:
    ``A REFUTED (false) · B PROVED · C SUPPORTED``, or, where the repaired reading B heads,
    ``B PROVED (with erratum) · A REFUTED`` (what the erratum fixes is in the headline)."""
    first = getattr(r, "headline_reading", "A") or "A"
    head = label(r.verdict, r.scope, r.severity, _errata(r), what=False,
                 kind=getattr(r, "kind", ""))
    parts = [f"{first} {head}"]
    for name in sorted(r.readings, key=lambda n: (n != "A", n)):
        if name != first:
            parts.append(f"{name} {reading_label(r.readings[name])}")
    return sep.join(parts)


def counts(results: Iterable[_Result]) -> list[tuple[str, int]]:
    """Headline counts in verdict order by :func:`category`: a bounded proof, errata, each
    severity and each reason of an UNDECIDED counted apart: ``[("PROVED", 40),
    ("PROVED (with erratum)", 3), ("REFUTED (false)", 9), ("UNDECIDED (informal)", 4)]``."""
    tally = Counter(category(r) for r in results)
    order = {v: i for i, v in enumerate(Verdict)}

    def key(text: str) -> tuple[int, str]:
        return order[Verdict.parse(text.split(" ", 1)[0])], text

    return [(text, tally[text]) for text in sorted(tally, key=key)]

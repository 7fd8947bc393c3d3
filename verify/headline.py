"""How a claim's verdict reads wherever it is shown: with its strength, and every reading.

A verdict column alone misleads in two ways: a proof at the listed sizes reads like a proof
in the statement's own generality, and a refutation by a typo reads like a false theorem.
So the headline carries the qualifier that the evidence computed (:mod:`verify.combine`,
rules 5 and 6):

- a PROVED claim reads ``PROVED`` when its scope is ``general`` and ``PROVED (bounded)``
  when it is exact at listed instances only;
- a REFUTED claim reads ``REFUTED (erratum)``, ``REFUTED (overstated)`` or
  ``REFUTED (false)``;

and the readings line puts every reading's verdict beside the printed one
(``A REFUTED (erratum) · B PROVED · C SUPPORTED``), so the finding that sits in reading B is
seen without opening the claim. The run table, ``verify show``, the summary counts and the
report all use these functions.
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


def qualifier(verdict: Verdict, scope: str | None, severity: str | None) -> str:
    """``"bounded"``, ``"erratum"``... : the word that says a verdict's strength, or ``""``."""
    if verdict is Verdict.PROVED:
        return "bounded" if scope != "general" else ""
    if verdict is Verdict.REFUTED:
        return severity or ""
    return ""


def label(verdict: Verdict, scope: str | None = None, severity: str | None = None) -> str:
    """The verdict with its qualifier: ``PROVED``, ``PROVED (bounded)``, ``REFUTED (erratum)``."""
    q = qualifier(verdict, scope, severity)
    return f"{verdict.value} ({q})" if q else verdict.value


def headline(r: _Result) -> str:
    """The claim's headline verdict with its qualifier."""
    return label(r.verdict, r.scope, r.severity)


def reading_label(info: Mapping[str, Any]) -> str:
    """One other reading's verdict with its scope (``PROVED (bounded)``)."""
    try:
        v = Verdict.parse(info.get("verdict", "UNDECIDED"))
    except ValueError:
        return str(info.get("verdict", "?"))
    return label(v, info.get("scope"), None)


def readings_line(r: _Result, sep: str = " · ") -> str:
    """``A REFUTED (erratum) · B PROVED · C SUPPORTED``; just ``A ...`` with no other reading."""
    parts = [f"A {headline(r)}"]
    for name in sorted(r.readings):
        parts.append(f"{name} {reading_label(r.readings[name])}")
    return sep.join(parts)


def counts(results: Iterable[_Result]) -> list[tuple[str, int]]:
    """Headline counts in verdict order, a bounded proof and each severity counted apart:
    ``[("PROVED", 40), ("PROVED (bounded)", 12), ("REFUTED (false)", 9), ...]``."""
    tally = Counter(headline(r) for r in results)
    order = {v: i for i, v in enumerate(Verdict)}

    def key(text: str) -> tuple[int, str]:
        return order[Verdict.parse(text.split(" ", 1)[0])], text

    return [(text, tally[text]) for text in sorted(tally, key=key)]

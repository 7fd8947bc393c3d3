"""The one rule that turns a claim's pieces of evidence into its verdict.

1. **Audit.** Each piece is first checked against what its verdict needs (the table of
   docs/concepts.md, "Verdicts and what backs each"); a piece that lacks it is demoted to
   UNDECIDED, with the reason in ``Evidence.audit``:

   - PROVED needs ``method="symbolic"``: a numeric agreement is never a proof;
   - CERTIFIED needs ``method="certificate"``;
   - REFUTED needs a non-empty ``counterexample``;
   - REPRODUCED / NOT_REPRODUCED need ``method="experiment"``, the numbers
     ``paper_value`` and ``measured``, and the ``scale`` they ran at: ``"paper"`` (the
     paper's own setting) or ``"stated"`` (a smaller scale justified in ``setting``);
   - any piece whose numbers say ``scale="smoke"`` is UNDECIDED, whatever it found (a
     refutation or a pass at smoke scale does not judge the paper's experiment): the deep
     profile judges it;
   - any NaN or infinity among the numbers or in the counterexample voids the piece,
     wherever it sits (nested, in a set, in a SymPy, mpmath, Decimal, numpy or torch value);
   - so does a field the report cannot show: a counterexample or numbers that are not a
     dict with string keys, steps that are not a list of strings, figures not dicts.

2. **Within a part** (pieces with the same ``part`` label), evidence reinforces:

   - REFUTED beside PROVED or CERTIFIED is a contradiction between two checks that
     should both be sound, so the part is UNDECIDED ("conflicting evidence");
   - otherwise a confirmed REFUTED beats everything (a counterexample outweighs any
     number of passing inputs);
   - otherwise NOT_REPRODUCED beats REPRODUCED (every number must reproduce);
   - otherwise the strongest piece wins: PROVED > CERTIFIED > REPRODUCED > SUPPORTED >
     UNDECIDED (a proof plus its numeric cross-check is a proof).

3. **Across parts**, the statement is their conjunction: REFUTED if any part is refuted,
   else NOT_REPRODUCED if any part is, else the *weakest* part's verdict (a claim is
   PROVED only if every part is PROVED).

4. Every reading gets its own verdict by rules 1-3 (and 7), from its own evidence alone;
   which of them heads the claim is rule 8.

5. **Scope of a PROVED or CERTIFIED.** A reading that is PROVED (or CERTIFIED) is ``general``
   only when every part's exact pieces (PROVED or CERTIFIED) include one of scope ``general``;
   a part proved or certified only at listed instances (scope ``bounded`` or unstated: a
   certificate is computed for one numeric instance unless the claim says otherwise) makes the
   whole reading ``bounded``.

6. **Severity of a REFUTED.** When the intended reading (rule 8) is REFUTED, what a referee
   would sign depends on the *nature of the repair* that makes the statement hold, which the
   claim declares per reading (``repairs=``); whether the repair holds comes from that
   reading's own evidence (PROVED, CERTIFIED, SUPPORTED or REPRODUCED):

   - ``erratum``: a defect a referee fixes with a remark: a typo, a sign, a flattened
     exponent, a degenerate case (the zero operator, the frequency set {0}), a hypothesis
     stated nearby but not restated, a wrong choice inside a proof. The headline is the
     repaired statement's verdict, marked "with erratum" (rule 8), not a REFUTED;
   - ``overstated``: the statement holds only under a material hypothesis the paper does not
     have (named by the repairing reading and checked): REFUTED, severity ``overstated``;
   - ``false``: no reasonable reading holds, or the only repair that holds changes the
     mathematical object (a reading declared ``other_object``: a transposed softmax is not
     softmax attention): REFUTED, severity ``false``.

   The first clause whose repair holds applies, in this order; the result names the clause
   and the reading (``severity_clause``).

7. **Quantifiers.** A reading is universal (``"forall"``, the default) or existential
   (``"exists"``), as its claim declares (``verify.claim(..., quantifier=...)``). An
   existential statement ("there exist parameters such that ...", also "for every x there
   exists y": the quantifier is the one over the object the statement asserts exists) is
   decided as one:

   - it holds by a **witness**: a positive piece (PROVED, CERTIFIED, REPRODUCED, SUPPORTED)
     that carries ``Evidence.witness``, the parameters it exhibits. The reading's verdict is
     then the usual one over its parts (a witness proved exactly plus a lemma of the proof
     proved in general is PROVED); with no positive witness at all the reading is UNDECIDED
     ("no witness exhibited"), whatever other pieces hold;
   - it is REFUTED only by a **proof that no witness exists**: a REFUTED piece marked
     ``Evidence.nonexistence``, and symbolic or a certificate (a search that found nothing
     proves nothing). A proof of non-existence beside a proved or certified witness is a
     contradiction: UNDECIDED, "conflicting evidence";
   - any other REFUTED piece is one failing instance: it shows that *those* parameters are no
     witness, refutes nothing, and is demoted to UNDECIDED (its counterexample kept). Where
     the paper's proof chose those parameters, the failure is an erratum of the proof: the
     claim declares the proof's choice as a reading of its own (universal: "with these
     parameters the statement holds"), which is REFUTED beside the holding headline.

8. **The headline.** The claim's verdict is the verdict of the statement the paper *means*,
   read in its context. The claim declares which reading that is (``headline=("B", why)``,
   the why citing the paper's lines: a standing assumption of the section, an exemption the
   proof makes, a convention of the field); by default the printed reading ``A``. Then, from
   the readings' verdicts:

   - the intended reading holds, or is UNDECIDED: its verdict heads, plainly;
   - it fails (REFUTED, or NOT_REPRODUCED) and a reading declared its ``erratum`` repair
     holds: that reading heads with its own verdict, marked "with erratum" (``errata`` lists
     ``{reading, what}``); the failing reading keeps its verdict and counterexample beside it;
   - it is REFUTED and no erratum repair holds: REFUTED heads, with the severity of rule 6;
     NOT_REPRODUCED heads plainly.

   A reading that is vacuous as printed (``vacuous=why``: a display that reduces to
   ``err >= 0``) never heads: the claim declares the substantive reading as its headline, and
   "vacuous as printed" is an erratum, recorded when the printed reading does hold (vacuously).
   A reading that states a step of the paper's *proof* (``proof={"P": what}``: its intuition,
   its choice of parameters) never heads either: when its evidence refutes it, the flaw is
   recorded as an erratum of the proof beside whatever the statement's headline is.

9. **Why an UNDECIDED.** Every UNDECIDED headline carries a reason category
   (:data:`UNDECIDED_REASONS`), derived from the evidence where it can be: ``timeout`` (the
   claim or a heading piece ran out of time), ``needs_compute`` (a heading piece ran at smoke
   scale: the deep profile judges it, with its command and budget), ``informal`` (the claim's
   kind is ``informal``: not a checkable statement); otherwise the category the claim
   declares (``undecided=("open_setting", "which settings, how the verdict splits")``), and
   else ``inconclusive``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace

from .evidence import Evidence
from .jsonable import find_nonfinite
from .verdict import Verdict

#: Strength order of the non-negative verdicts, weakest first.
STRENGTH: dict[Verdict, int] = {
    Verdict.UNDECIDED: 0,
    Verdict.SUPPORTED: 1,
    Verdict.REPRODUCED: 2,
    Verdict.CERTIFIED: 3,
    Verdict.PROVED: 4,
}

AS_PRINTED = "A"

#: What a reading quantifies (rule 7): universal, the default, or existential.
QUANTIFIERS: tuple[str, ...] = ("forall", "exists")

#: Verdicts that say a statement holds.
POSITIVE = (Verdict.PROVED, Verdict.CERTIFIED, Verdict.REPRODUCED, Verdict.SUPPORTED)


@dataclass(frozen=True)
class Combined:
    """A verdict with the summary of the piece that decided it."""

    verdict: Verdict
    summary: str


def audit(ev: Evidence, quantifier: str = "forall") -> Evidence:
    """Return ``ev``, or a copy demoted to UNDECIDED when it lacks what its verdict needs in
    a reading that quantifies ``quantifier`` (rules 1 and 7)."""
    problem = _problem(ev)
    if problem is None and quantifier == "exists":
        problem = _existential_problem(ev)
    if problem is None:
        return ev
    return replace(
        ev,
        verdict=Verdict.UNDECIDED,
        audit=f"{ev.verdict.value} rejected: {problem}",
        summary=f"[{ev.verdict.value} rejected: {problem}] {ev.summary}",
    )


def _problem(ev: Evidence) -> str | None:
    v = ev.verdict
    if v is Verdict.UNDECIDED:
        return None
    if v is Verdict.ERROR:  # the status of a crashed claim (verify.execute), never evidence
        return "ERROR is no verdict a piece of evidence can carry"
    shape = _shape_problem(ev)
    if shape:
        return shape
    for name, value in (("numbers", ev.numbers), ("counterexample", ev.counterexample)):
        found = find_nonfinite(value, name)
        if found:
            where, what = found
            kind = "NaN" if "nan" in what.lower() else "infinity"
            return f"{kind} among its numbers: non-finite value {what} at {where}"
    if isinstance(ev.numbers, dict) and ev.numbers.get("scale") == "smoke":
        return _scale_problem(ev.numbers)  # a smoke run judges no experiment, whatever it found
    if v is Verdict.PROVED and ev.method != "symbolic":
        return f"PROVED needs symbolic evidence, this is {ev.method}"
    if v is Verdict.CERTIFIED and ev.method != "certificate":
        return f"CERTIFIED needs a re-checked certificate, this is {ev.method}"
    if v is Verdict.REFUTED and not ev.counterexample:
        return "REFUTED needs a counterexample"
    if v in (Verdict.REPRODUCED, Verdict.NOT_REPRODUCED):
        if ev.method != "experiment":
            return f"{v.value} needs experiment evidence, this is {ev.method}"
        missing = [k for k in ("paper_value", "measured") if k not in ev.numbers]
        if missing:
            return f"{v.value} needs numbers {', '.join(missing)}"
        return _scale_problem(ev.numbers)
    return None


def _existential_problem(ev: Evidence) -> str | None:
    """Rule 7: in an existential reading only a proof that no witness exists refutes."""
    if ev.verdict is not Verdict.REFUTED:
        return None
    if not ev.nonexistence:
        return ("one failing instance refutes nothing in an existential statement: these "
                "parameters are no witness, others may be")
    if ev.method not in ("symbolic", "certificate"):
        return (f"a proof that no witness exists must be symbolic or a certificate, this is "
                f"{ev.method}")
    return None


#: How an experiment's evidence states the scale it ran at (``numbers["scale"]``).
SCALES: tuple[str, ...] = ("paper", "stated", "smoke")


def _scale_problem(numbers: dict) -> str | None:
    """An experiment number is judged only at the paper's setting, or at a stated scale
    whose justification ``numbers["setting"]`` gives; a smoke-scale run never judges it."""
    scale, setting = numbers.get("scale"), str(numbers.get("setting") or "").strip()
    if scale not in SCALES:
        return (f"experiment evidence must state its scale ('paper', 'stated' or 'smoke'), "
                f"got {scale!r}")
    if scale == "smoke":
        return f"smoke scale ({setting or 'setting not given'}): the deep profile judges it"
    if scale == "stated" and not setting:
        return "a stated scale needs its justification in numbers['setting']"
    return None


def _shape_problem(ev: Evidence) -> str | None:
    """What the report could not show: it lays out a counterexample and the numbers as
    key/value rows, each step as a line, each figure from its dict."""
    def keyed(d: object) -> bool:
        return isinstance(d, dict) and all(isinstance(k, str) for k in d)

    ce = ev.counterexample
    if ce is not None and not keyed(ce):
        return f"counterexample must be a dict with string keys, got {_kind(ce)}"
    if not keyed(ev.numbers):
        return f"numbers must be a dict with string keys, got {_kind(ev.numbers)}"
    steps = ev.steps
    if not isinstance(steps, (list, tuple)) or not all(isinstance(s, str) for s in steps):
        return f"steps must be a list of strings, got {_kind(steps)}"
    figures = ev.figures
    if not isinstance(figures, (list, tuple)) or not all(isinstance(f, dict) for f in figures):
        return f"figures must be a list of dicts, got {_kind(figures)}"
    w = ev.witness
    if w is not None and (not keyed(w) or not w):
        return f"witness must be a non-empty dict with string keys, got {_kind(w)}"
    if not isinstance(ev.nonexistence, bool):
        return f"nonexistence must be True or False, got {_kind(ev.nonexistence)}"
    return None


def _kind(value: object) -> str:
    text = repr(value)
    return f"{type(value).__name__} {text if len(text) <= 40 else text[:37] + '...'}"


def combine_part(pieces: list[Evidence]) -> Combined:
    """Verdict of one part from its (audited) pieces: they reinforce each other."""
    if not pieces:
        return Combined(Verdict.UNDECIDED, "no evidence")
    by = {v: [p for p in pieces if p.verdict is v] for v in Verdict}
    if by[Verdict.REFUTED] and (by[Verdict.PROVED] or by[Verdict.CERTIFIED]):
        a = by[Verdict.REFUTED][0]
        b = (by[Verdict.PROVED] or by[Verdict.CERTIFIED])[0]
        return Combined(
            Verdict.UNDECIDED,
            f"conflicting evidence: {b.verdict.value} ({b.summary}) vs REFUTED ({a.summary})",
        )
    for decisive in (Verdict.REFUTED, Verdict.NOT_REPRODUCED):
        if by[decisive]:
            return Combined(decisive, by[decisive][0].summary)
    # among equally strong pieces, a general proof speaks for the part (rule 5)
    best = max(pieces, key=lambda p: (STRENGTH[p.verdict], p.scope == "general"))
    return Combined(best.verdict, best.summary)


def combine(
    evidence: Iterable[Evidence], reading: str = AS_PRINTED, quantifier: str = "forall"
) -> Combined:
    """The verdict of one reading of a claim, which quantifies ``quantifier`` (see the module
    docstring for the rule)."""
    _check_quantifier(quantifier)
    pieces = [audit(e, quantifier) for e in evidence if e.reading == reading]
    if not pieces:
        return Combined(Verdict.UNDECIDED, f"no evidence for reading {reading}")
    c = _conjoin(pieces)
    return _existential(c, pieces) if quantifier == "exists" else c


def _check_quantifier(quantifier: str) -> None:
    if quantifier not in QUANTIFIERS:
        raise ValueError(f"quantifier must be one of {QUANTIFIERS}, got {quantifier!r}")


def _existential(c: Combined, pieces: list[Evidence]) -> Combined:
    """Rule 7 on an existential reading's conjunction ``c`` of its (audited) ``pieces``: it
    holds only with a witness; a non-existence proof against a proved witness conflicts."""
    witnesses = [p for p in pieces if p.witness and p.verdict in POSITIVE]
    exact = [p for p in witnesses if p.verdict in (Verdict.PROVED, Verdict.CERTIFIED)]
    if c.verdict is Verdict.REFUTED and exact:
        return Combined(Verdict.UNDECIDED, f"conflicting evidence: witness {exact[0].verdict.value}"
                        f" ({exact[0].summary}) vs no witness exists ({c.summary})")
    if c.verdict in POSITIVE and not witnesses:
        return Combined(Verdict.UNDECIDED, f"no witness exhibited (an existential statement "
                        f"holds by one): {c.summary}")
    best = max(witnesses, key=lambda p: (STRENGTH[p.verdict], p.scope == "general"), default=None)
    if c.verdict in POSITIVE and best is not None and best.verdict is c.verdict:
        return Combined(c.verdict, f"witness: {best.summary}")  # the summary leads with it
    return c


def _conjoin(pieces: list[Evidence]) -> Combined:
    """Rules 2 and 3: each part from its pieces, then the parts' conjunction."""
    parts: dict[str, list[Evidence]] = {}
    for p in pieces:
        parts.setdefault(p.part, []).append(p)
    results = {name: combine_part(ps) for name, ps in parts.items()}
    multi = len(results) > 1

    def label(name: str, c: Combined) -> Combined:
        return Combined(c.verdict, f"{name}: {c.summary}"
                        if multi and not _names_itself(c.summary, name) else c.summary)

    for decisive in (Verdict.REFUTED, Verdict.NOT_REPRODUCED):
        for name, c in results.items():
            if c.verdict is decisive:
                return label(name, c)
    name, weakest = min(results.items(), key=lambda kv: STRENGTH[kv[1].verdict])
    return label(name, weakest)


def _names_itself(summary: str, part: str) -> bool:
    """Whether ``summary`` already leads with its part's name (``"Radial: ..."``, ``"(b) ..."``),
    so that the conjunction does not print the name twice."""
    return summary.startswith(f"{part}:") or (part.startswith("(") and
                                               summary.startswith(f"{part} "))


def readings_of(evidence: Iterable[Evidence]) -> list[str]:
    """The reading labels present, the printed reading first, the others sorted."""
    labels = {e.reading for e in evidence}
    return sorted(labels, key=lambda r: (r != AS_PRINTED, r))


#: The verdicts from exact evidence, whose scope rule 5 states.
EXACT = (Verdict.PROVED, Verdict.CERTIFIED)


def scope_of(
    evidence: Iterable[Evidence], reading: str = AS_PRINTED, quantifier: str = "forall"
) -> str | None:
    """``"general"`` or ``"bounded"`` for a PROVED or CERTIFIED reading (rule 5), ``None``
    otherwise."""
    pieces = [audit(e, quantifier) for e in evidence if e.reading == reading]
    if combine(pieces, reading, quantifier).verdict not in EXACT:
        return None
    parts: dict[str, list[Evidence]] = {}
    for p in pieces:
        parts.setdefault(p.part, []).append(p)
    general = all(
        any(p.verdict in EXACT and p.scope == "general" for p in ps)
        for ps in parts.values()
    )
    return "general" if general else "bounded"


#: Verdicts with which a repaired reading holds (rule 6).
HOLDS = (Verdict.PROVED, Verdict.CERTIFIED, Verdict.SUPPORTED, Verdict.REPRODUCED)

#: Verdicts with which an intended reading fails, so that an erratum repair may head (rule 8).
FAILS = (Verdict.REFUTED, Verdict.NOT_REPRODUCED)

#: The natures of a repair a claim can declare for a reading (rule 6), in the order in which
#: their clauses apply: a referee's remark, a material hypothesis, another object.
REPAIRS: tuple[str, ...] = ("erratum", "overstated", "other_object")

#: What each clause of the severity rule says (rule 6), for the result's ``severity_clause``.
CLAUSES: dict[str, str] = {
    "overstated": "overstated: the statement holds only under a material hypothesis the paper "
                  "does not have",
    "other_object": "false: the repair that holds changes the mathematical object",
    "false": "false: no reasonable reading holds",
}


def severity_of(
    verdict: Verdict, readings: dict[str, Verdict], repairs: dict[str, str]
) -> tuple[str | None, str | None]:
    """``(severity, repairing reading)`` of a claim whose intended reading has ``verdict``
    (rule 6); ``(None, None)`` unless it is REFUTED. ``readings`` maps labels to verdicts.
    An ``erratum`` severity means the repaired reading heads instead (rule 8); an
    ``other_object`` repair that holds leaves the severity ``false``."""
    if verdict is not Verdict.REFUTED:
        return None, None
    for role in REPAIRS:
        for label, r in sorted(repairs.items()):
            if r == role and readings.get(label) in HOLDS:
                return ("false" if role == "other_object" else role), label
    return "false", None


@dataclass(frozen=True)
class Headline:
    """What heads a claim (rule 8): the reading, its verdict, and why.

    ``severity`` and ``clause`` qualify a REFUTED headline (rule 6); ``errata`` lists the
    defects of the text that a referee fixes with a remark, ``{"reading": ..., "what": ...}``,
    each beside a headline that is the repaired statement's verdict."""

    reading: str
    verdict: Verdict
    summary: str
    reason: str = ""
    severity: str | None = None
    clause: str | None = None
    repaired_by: str | None = None
    errata: tuple[dict[str, str], ...] = ()


def headline_of(
    verdicts: dict[str, Combined],
    *,
    intended: str = AS_PRINTED,
    reason: str = "",
    repairs: dict[str, str] | None = None,
    notes: dict[str, str] | None = None,
    vacuous: str | None = None,
    proof: dict[str, str] | None = None,
) -> Headline:
    """The headline of a claim (rule 8) from its readings' combined verdicts ``verdicts``
    (every reading with evidence, ``"A"`` included): ``intended`` is the reading the paper
    means (``reason`` says why), ``repairs`` the nature of each repairing reading (rule 6),
    ``notes`` what each repair fixes ("sign of the beta^4 term"), ``vacuous`` why the
    printed reading is vacuous as printed (then it cannot be the intended one), ``proof`` the
    readings that state a step of the paper's proof, each with what it asserts."""
    repairs, notes = dict(repairs or {}), dict(notes or {})
    if vacuous is not None and intended == AS_PRINTED:
        raise ValueError("a reading vacuous as printed never heads: declare the substantive "
                         "reading as the headline")
    none = Combined(Verdict.UNDECIDED, f"no evidence for reading {intended}")
    own = verdicts.get(intended, none)
    errata: list[dict[str, str]] = []
    printed = verdicts.get(AS_PRINTED)
    if vacuous is not None and printed is not None and printed.verdict in HOLDS:
        errata.append({"reading": AS_PRINTED, "what": f"vacuous as printed: {vacuous}"})
    of_proof = [{"reading": label, "what": f"in the proof: {what}", "of": "proof"}  # listed last
                for label, what in sorted((proof or {}).items())
                if label in verdicts and verdicts[label].verdict is Verdict.REFUTED]
    why = reason or ("the statement as printed" if intended == AS_PRINTED else "")
    if own.verdict not in FAILS:
        return Headline(intended, own.verdict, own.summary, why, errata=(*errata, *of_proof))
    held = {label: verdicts[label].verdict for label in repairs if label in verdicts}
    for label, role in sorted(repairs.items()):
        if role == "erratum" and held.get(label) in HOLDS:
            what = notes.get(label) or f"corrected as reading {label}"
            errata.append({"reading": intended, "what": what})
            fixed = verdicts[label]
            summary = (f"{fixed.summary} [erratum: {what}; reading {intended} as stated is "
                       f"{own.verdict.value}: {own.summary}]")
            because = (f"reading {intended} ({why}) " if intended != AS_PRINTED else
                       f"reading {intended} (as printed) ")
            return Headline(label, fixed.verdict, summary,
                            f"{because}is {own.verdict.value}; reading {label}, its erratum "
                            f"repair ({what}), holds", repaired_by=label,
                            errata=(*errata, *of_proof))
    if own.verdict is not Verdict.REFUTED:
        return Headline(intended, own.verdict, own.summary, why, errata=(*errata, *of_proof))
    severity, by = severity_of(own.verdict, held, repairs)
    role = repairs.get(by, "false") if by else "false"
    clause = CLAUSES[role] + (f" (reading {by}: {verdicts[by].verdict.value})" if by else "")
    if by is None:
        tried = ", ".join(f"{label} {role} {held.get(label, Verdict.UNDECIDED).value}"
                          for label, role in sorted(repairs.items()))
        clause += f" (no declared repair holds: {tried})" if tried else " (no repair declared)"
    return Headline(intended, own.verdict, own.summary, why, severity, clause, by,
                    (*errata, *of_proof))


#: Why a claim is UNDECIDED (rule 9).
UNDECIDED_REASONS: tuple[str, ...] = (
    "informal", "open_setting", "needs_compute", "timeout", "inconclusive")

_TIMEOUT = re.compile(r"\btime(?:d)?[ -]?out\b|\btimed out\b", re.I)


def undecided_reason(
    verdict: Verdict,
    pieces: Iterable[Evidence],
    *,
    kind: str = "",
    error: str | None = None,
    declared: tuple[str, str] | None = None,
    deep_command: str = "",
    deep_budget_s: float | None = None,
) -> tuple[str, str] | None:
    """``(category, detail)`` of an UNDECIDED headline (rule 9), ``None`` for any other
    verdict. ``pieces`` are the heading reading's audited evidence; ``deep_command`` and
    ``deep_budget_s`` say how the deep profile would judge a smoke-scale experiment."""
    if verdict is not Verdict.UNDECIDED:
        return None
    pieces = list(pieces)
    timed = [p.summary for p in pieces if p.verdict is Verdict.UNDECIDED
             and _TIMEOUT.search(p.summary)]
    if (error and _TIMEOUT.search(error)) or timed:
        return "timeout", (error if error and _TIMEOUT.search(error) else timed[0])
    smoke = [p for p in pieces if isinstance(p.numbers, dict) and p.numbers.get("scale") == "smoke"]
    if smoke:
        cat, note = declared if declared and declared[0] == "needs_compute" else ("", "")
        budget = f"within the deep budget of {deep_budget_s:g} s" if deep_budget_s else ""
        estimate = note or budget or "the deep profile's budget"
        if "run:" in estimate:  # the claim says what runs it (or that nothing here does)
            return "needs_compute", estimate
        return "needs_compute", f"{estimate}; run: {deep_command}".strip("; ")
    if kind == "informal":
        return "informal", "not a checkable statement (the claim's kind is informal)"
    if declared is not None and declared[0] == "needs_compute" and "run:" not in declared[1]:
        return "needs_compute", f"{declared[1]}; run: {deep_command}".strip("; ")
    if declared is not None:
        return declared
    return "inconclusive", next((p.summary for p in pieces if p.verdict is Verdict.UNDECIDED),
                                "no evidence decided it")

"""Turn results into what the templates show: every value already safe LaTeX (:class:`Tex`).

The templates only lay things out; all decisions about how a value is typeset (text,
math, a number, a command) are made here, so that escaping is in one place. A claim can be
rendered in *safe mode*: every string meant as math is then shown as escaped text, which
is how a claim whose math broke the TeX run is isolated from the others.
"""

# ruff: noqa: UP031 - %-formatting keeps LaTeX's braces readable (no {{ }} doubling)

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any

from .. import headline
from ..evidence import Evidence
from ..results import ClaimResult
from ..verdict import Verdict
from . import latex, values
from .latex import Tex, code, escape_text
from .papers import title

# The order a reader wants problems in: refuted first, then not reproduced.
SEVERITY = {Verdict.REFUTED: 0, Verdict.NOT_REPRODUCED: 1}
EPS = {"float64": 2.0**-52, "float32": 2.0**-23, "float16": 2.0**-10, "bfloat16": 2.0**-7}
_VIOLATION_KEY = re.compile(r"(worst|violation|max_err|max_rel|rel_err|error)", re.I)
#: A number already in units of eps (``worst_in_eps``): shown as it is, never divided again.
_IN_EPS = re.compile(r"_?(in_)?eps$", re.I)
EXPERIMENT_KEYS = ("paper_value", "measured", "spread", "n_seeds", "tolerance", "metric")
MAX_REASON = 220
MAX_LIST = 8
#: A value with at most this many numbers (and short strings) is printed in full, however
#: deeply nested: a counterexample's input matrix is shown, not ``[..., ...]``.
MAX_FULL = 64


def badge(v: Verdict) -> Tex:
    """A coloured verdict badge."""
    return Tex(r"\vfbadge{vf%s}{%s}" % (v.value.replace("_", ""), v.value.replace("_", " ")))


def qualified_badge(v: Verdict, scope: str | None = None, severity: str | None = None,
                    errata: list[dict[str, str]] | None = None) -> Tex:
    """A verdict badge with the word that says its strength (``PROVED`` *bounded*,
    ``REFUTED`` *false*, ``PROVED`` *with erratum*), as :mod:`verify.headline` words it."""
    q = headline.qualifier(v, scope, severity, errata, what=False)
    return Tex(badge(v) + Tex(r"\,{\scriptsize\sffamily %s}" % escape_text(q) if q else ""))


def result_badge(r: ClaimResult) -> Tex:
    """The claim's headline verdict, qualified by its scope or severity."""
    return qualified_badge(r.verdict, r.scope, r.severity, r.errata)


def readings_tex(r: ClaimResult) -> Tex | None:
    """The other readings' verdicts in one muted line (``B PROVED · C SUPPORTED``)."""
    if not r.readings:
        return None
    parts = []
    for label in sorted(r.readings):
        parts.append(values.prose(f"{label} {headline.reading_label(r.readings[label])}"))
    return Tex(r"\vfmuted{\scriptsize %s}" % r" \textperiodcentered{} ".join(parts))


def fmt_number(x: float) -> Tex:
    """A float, readable: 4 significant digits, powers of ten in math."""
    return values.number_text(x)


def _small(v: Any, budget: int = MAX_FULL) -> int:
    """How much of ``budget`` is left after the leaves of ``v`` (negative: too big to print
    in full). Strings count by length, so a long text never passes as small."""
    if isinstance(v, list):
        for x in v:
            budget = _small(x, budget)
            if budget < 0:
                break
        return budget
    if isinstance(v, dict):
        for x in v.values():
            budget = _small(x, budget - 1)
            if budget < 0:
                break
        return budget
    if isinstance(v, str):
        return budget - max(1, len(v) // 16)
    return budget - 1


def fmt_value(v: Any, depth: int = 0, full: bool | None = None) -> Tex:
    """Any JSON value from evidence, as safe LaTeX, in full (the sizes are bounded by
    :func:`fit`): numbers with sensible digits, SymPy values as math, a dict as
    ``name = value`` pairs, a list in brackets; never a Python repr, never cut with dots."""
    if v is None:
        return Tex(r"--")
    if isinstance(v, bool):
        return Tex("yes" if v else "no")
    if isinstance(v, int):
        return Tex(str(v))
    if isinstance(v, float):
        return fmt_number(v)
    if isinstance(v, str):
        if v in ("nan", "inf", "-inf"):
            return fmt_number(float(v))
        if re.fullmatch(r"-?\d+/\d+", v):  # an exact rational from jsonable
            num, den = v.split("/")
            return Tex(
                r"$%s\frac{%s}{%s}$" % ("-" if num.startswith("-") else "", num.lstrip("-"), den)
            )
        return values.value_text(v)
    if isinstance(v, list):
        if _small(v, MAX_SHOWN) < 0:
            return _described(v)
        return Tex("[" + ", ".join(fmt_value(x, depth + 1) for x in v) + "]")
    if isinstance(v, dict):
        items = [values.key_text(str(k)) + Tex(" = ") + fmt_value(x, depth + 1)
                 for k, x in v.items()]
        if depth == 0:
            return Tex(r"\newline ".join(items))
        return Tex("(" + "; ".join(items) + ")")
    return values.value_text(str(v))


#: Most numbers a list is printed with; a larger one is described (its shape and range),
#: said to be in full in the results file: a page of digits helps no reader.
MAX_SHOWN = 1000


def _described(v: list[Any]) -> Tex:
    shape: list[int] = []
    inner: Any = v
    while isinstance(inner, list):
        shape.append(len(inner))
        inner = inner[0] if inner else None
    flat: list[float] = []

    def walk(x: Any) -> None:
        if isinstance(x, list):
            for y in x:
                walk(y)
        elif _is_real(x):
            flat.append(float(x))

    walk(v)
    text = Tex("a %s list" % r"$\times$".join(str(n) for n in shape))
    if flat:
        text = Tex(text + Tex(" of numbers from ") + fmt_number(min(flat)) + Tex(" to ")
                   + fmt_number(max(flat)))
    return Tex(text + Tex(" (in full in the results file)"))


def fmt_seconds(s: Any) -> Tex:
    try:
        s = float(s)
    except (TypeError, ValueError):
        return escape_text(s)
    if s < 1:
        return Tex("%.2f\\,s" % s)
    if s < 120:
        return Tex("%.1f\\,s" % s)
    return Tex("%d\\,min %d\\,s" % (int(s // 60), int(s % 60)))


def eps_units(value: Any, dtype: str | None) -> Tex | None:
    """A violation in units of the dtype's machine epsilon (``3.2 eps (float64)``)."""
    if dtype not in EPS:
        return None
    try:
        x = float(value)
    except (TypeError, ValueError):
        return None
    if not math.isfinite(x):
        return None
    return Tex(r"%s\,$\varepsilon_{\mathrm{%s}}$" % (fmt_number(x / EPS[dtype]), dtype))


@dataclass
class Renderers:
    """How a claim's strings are typeset: normally, or in safe mode (all as text)."""

    statement: Callable[[object], Tex]
    step: Callable[[object], Tex]
    prose: Callable[[object], Tex]

    @classmethod
    def for_mode(cls, safe: bool) -> Renderers:
        if safe:
            return cls(
                statement=lambda s: Tex(r"\vfdisplaytext{%s}" % latex.as_text(s)),
                step=lambda s: Tex(r"\vfprose{%s}" % latex.as_text(s)),
                prose=lambda s: escape_text(s),
            )
        return cls(statement=latex.statement, step=_step, prose=values.prose)


def _step(s: object) -> Tex:
    """A proof step: math as math; a step in words with its ASCII math typeset."""
    text = "" if s is None else str(s).strip()
    if "$" not in text and "\\" not in text and latex._is_prose(text):
        return Tex(r"\vfprose{%s}" % values.prose(text))
    return latex.step(text)


#: Most characters of a statement (each reading's too) that the report typesets.
MAX_STATEMENT = 4000
#: Most characters of any other text of a claim (a summary, a step, an error, a number's text).
MAX_PROSE = 2000
#: Most steps of one piece of evidence, and most items of one list among its numbers.
MAX_STEPS = 60
MAX_ITEMS = 200


def cut_text(s: object, limit: int) -> str:
    """``s`` cut to ``limit`` characters (at a space near the end when there is one), saying
    how much was cut: no claim's text can overflow TeX's input buffer or memory, whatever a
    results file holds."""
    s = "" if s is None else str(s)
    if len(s) <= limit:
        return s
    head = s[:limit]
    space = head.rfind(" ", limit - 200)
    if space > 0:
        head = head[:space]
    return f"{head} [{len(s) - len(head):,} more characters not shown]"


def _fit_value(value: Any) -> Any:
    if isinstance(value, str):
        return cut_text(value, MAX_PROSE)
    if isinstance(value, list):
        items = [_fit_value(v) for v in value[:MAX_ITEMS]]
        if len(value) > MAX_ITEMS:
            items.append(f"[{len(value) - MAX_ITEMS:,} more items not shown]")
        return items
    if isinstance(value, dict):
        return {cut_text(k, 200): _fit_value(v) for k, v in list(value.items())[:MAX_ITEMS]}
    return value


def _fit_evidence(e: Evidence) -> Evidence:
    steps = [cut_text(x, MAX_PROSE) for x in (e.steps or [])[:MAX_STEPS]]
    if len(e.steps or []) > MAX_STEPS:
        steps.append(f"[{len(e.steps) - MAX_STEPS:,} more steps not shown]")
    return replace(
        e, summary=cut_text(e.summary, MAX_PROSE), steps=steps,
        generality=cut_text(e.generality, 500) if e.generality else e.generality,
        numbers=_fit_value(e.numbers) if isinstance(e.numbers, dict) else e.numbers,
        counterexample=(_fit_value(e.counterexample) if isinstance(e.counterexample, dict)
                        else e.counterexample),
    )


def fit(r: ClaimResult) -> ClaimResult:
    """A copy of ``r`` whose text the report can always typeset: each field cut to the
    limits above, so that one claim's 200,000-character statement or summary costs that
    claim some text (said where it is cut), never the paper's PDF or another claim's page."""
    readings = {label: {k: cut_text(v, MAX_PROSE) if isinstance(v, str) else v
                        for k, v in info.items()} if isinstance(info, dict) else info
                for label, info in r.readings.items()}
    return replace(
        r, statement=cut_text(r.statement, MAX_STATEMENT),
        reading_statements={k: cut_text(v, MAX_STATEMENT)
                            for k, v in r.reading_statements.items()},
        summary=cut_text(r.summary, MAX_PROSE),
        error=cut_text(r.error, MAX_PROSE) if r.error else r.error,
        where=cut_text(r.where, 200), kind=cut_text(r.kind, 100),
        readings=readings, evidence=[_fit_evidence(e) for e in r.evidence],
        output={k: cut_text(v, MAX_PROSE) for k, v in r.output.items()},
        code=[cut_text(c, 300) for c in r.code[:MAX_STEPS]],
    )


def one_line(s: str, limit: int = MAX_REASON) -> str:
    """``s`` on one line, in full (a table cell wraps; the report never cuts text)."""
    return " ".join(str(s).split())


def rerun_command(r: ClaimResult, e: Evidence | None = None) -> str:
    if e is not None and e.rerun:
        return e.rerun
    if r.rerun:
        return r.rerun
    return f"verify run --claim {r.id} --seed {r.run_seed} --profile {r.profile}"


def _rows(d: dict[str, Any], skip: Iterable[str] = ()) -> list[dict[str, Tex]]:
    """Name/value rows of a counterexample or of numbers: names in words (or math), a value
    that repeats its name at its start without the repetition."""
    skip = set(skip)
    return [
        {"key": values.key_text(k),
         "value": fmt_value(values.without_label(k, v) if isinstance(v, str) else v)}
        for k, v in d.items()
        if k not in skip
    ]


def _is_real(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def evidence_view(
    r: ClaimResult, e: Evidence, k: int, fig_paths: list[dict[str, Any]], rend: Renderers
) -> dict[str, Any]:
    """One piece of evidence, laid out by its verdict and method."""
    numbers = dict(e.numbers or {})
    violations = []
    refuted = e.verdict is Verdict.REFUTED
    for key, val in numbers.items():
        if not (_VIOLATION_KEY.search(key) and _is_real(val)):
            continue
        if _IN_EPS.search(key):
            # Already in eps: the raw value beside it is shown converted; alone, it is shown
            # as the number of eps it is (never divided by eps a second time).
            converted = any(
                _VIOLATION_KEY.search(k) and not _IN_EPS.search(k) and _is_real(v)
                for k, v in numbers.items()
            )
            if refuted or converted or e.dtype not in EPS:
                continue
            violations.append({"key": values.key_text(key), "value": None,
                               "eps": Tex(r"%s\,$\varepsilon_{\mathrm{%s}}$"
                                          % (fmt_number(float(val)), e.dtype))})
            continue
        # A refutation's violation is a size, not a rounding error: no eps units there.
        units = None if refuted else eps_units(val, e.dtype)
        if refuted or units is not None:
            violations.append(
                {"key": values.key_text(key), "value": fmt_value(val), "eps": units}
            )
    details = []
    for label, value in (
        ("generality", e.generality),
        ("dtype", e.dtype),
        ("device", e.device),
        ("seed", e.seed),
    ):
        if value not in (None, ""):
            details.append({"key": Tex(label), "value": values.prose(value)})
    if e.elapsed_s:
        details.append({"key": Tex("time"), "value": fmt_seconds(e.elapsed_s)})
    symbolic = e.method in ("symbolic", "certificate")
    is_experiment = e.method == "experiment"
    shown_steps, hidden = proof_steps(e)
    hidden_note = None
    if hidden:
        names = ", ".join(dict.fromkeys(hidden))
        hidden_note = escape_text(
            f"{len(hidden)} earlier rung{'s' if len(hidden) != 1 else ''} of the ladder did not "
            f"reach zero ({one_line(names, 120)}); verify show {r.id} lists them."
        )
    return {
        "n": k,
        "verdict": badge(e.verdict),
        "verdict_name": e.verdict.value,
        "method": escape_text(e.method),
        "reading": rend.prose(e.reading),
        "part": rend.prose(e.part) if e.part != "main" else None,
        "summary": rend.prose(e.summary),
        "details": details,
        "steps": [rend.step(s) for s in shown_steps],
        "steps_hidden": hidden_note,
        "steps_title": Tex(
            {"symbolic": "Exact steps", "certificate": "Certificate and its exact re-check"}.get(
                e.method, "Steps"
            )
        ),
        "symbolic": symbolic,
        "counterexample": _rows(e.counterexample or {}),
        "refuted": e.verdict is Verdict.REFUTED,
        "violations": violations,
        "numbers": _rows(numbers, EXPERIMENT_KEYS if is_experiment else ()),
        "experiment": experiment_row(r, e) if is_experiment else None,
        "figures": fig_paths,
        "rerun": (latex.command(rerun_command(r, e))
                  if (e.verdict is Verdict.REFUTED or e.rerun) else None),
        "audit": escape_text(e.audit) if e.audit else None,
    }


#: A step of the proof ladder that did not reach zero (verify.symbolic.prove): the rung's
#: name, then the expression it left, the open matrix entries, a time guard or "not
#: applicable". The rung that reached zero reads "NAME: exact zero (0.01 s)".
_FAILED_RUNG = re.compile(
    r"^(?P<rung>[^:$]{1,80}): (?:"
    r"(?:\$.*\$|\(a large expression\)|\(expression with .* operations\)|\(an? .*\))"
    r" \(\d+\.\d+ s\)"
    r"|\d+ matrix entr(?:y|ies) not yet zero"
    r"|time guard \(.*\) exceeded, skipped"
    r"|not applicable \(.*\))$",
    re.S,
)


def proof_steps(e: Evidence) -> tuple[list[str], list[str]]:
    """The steps a reader needs, and the names of the ladder rungs left out.

    Under a PROVED symbolic piece, the rungs that did not reach zero are noise beside the
    one that did: they are left out (``verify show`` keeps them all). Every other step, and
    every step of any other verdict (where the failed rungs are the story), is kept.
    """
    if e.verdict is not Verdict.PROVED or e.method != "symbolic":
        return list(e.steps), []
    kept, hidden = [], []
    for step in e.steps:
        m = _FAILED_RUNG.match(step)
        if m and "exact zero" not in step:
            hidden.append(m.group("rung"))
        else:
            kept.append(step)
    return kept, hidden


def experiment_row(r: ClaimResult, e: Evidence) -> dict[str, Tex]:
    """One row of a paper's experiment table: the measured value beside the paper's, its
    spread and seeds, the scale it ran at, and the verdict of that evidence."""
    n = e.numbers or {}
    spread = n.get("spread")
    seeds = n.get("n_seeds")
    spread_tex = Tex(r"$\pm$\," + fmt_value(spread)) if spread is not None else Tex("--")
    if seeds is not None:
        spread_tex = Tex(spread_tex + Tex(" (%s seeds)" % fmt_value(seeds)))
    return {
        "id": code(r.id),
        "metric": values.prose(_words(values.without_label(
            f"[{e.reading}]", str(n.get("metric", e.part if e.part != "main" else ""))))),
        "paper": fmt_value(n.get("paper_value")),
        "ours": fmt_value(n.get("measured")),
        "spread": spread_tex,
        "tolerance": fmt_value(n.get("tolerance")),
        "verdict": badge(e.verdict),
        "reading": escape_text(e.reading),
    }


def claim_view(
    r: ClaimResult,
    index: int,
    figures: dict[tuple[int, int], list[dict[str, Any]]],
    safe: bool = False,
    origin: str | None = None,
) -> dict[str, Any]:
    """Everything the per-claim section shows; ``origin`` names the run its evidence came
    from when the report merges several (``deep run of 2026-11-20, gda.jsonl``)."""
    rend = Renderers.for_mode(safe)
    readings = []
    for label in sorted(set(r.readings) | set(r.reading_statements)):
        if label == "A" and not r.reading_statements.get("A"):
            continue
        info = r.readings.get(label, {})
        try:
            v = (
                qualified_badge(Verdict.parse(info["verdict"]), info.get("scope"))
                if info.get("verdict")
                else Tex("--")
            )
        except ValueError:
            v = escape_text(info.get("verdict"))
        if info.get("repairs"):
            v = Tex(v + Tex(r"\quad\vfmuted{\small repairs A: %s}" % rend.prose(info["repairs"])))
        st = r.reading_statements.get(label)
        readings.append(
            {
                "label": rend.prose(label),
                "statement": rend.statement(st) if st else None,
                "verdict": v,
                "summary": rend.prose(info.get("summary", "")),
            }
        )
    evidence = [
        evidence_view(r, e, k + 1, figures.get((index, k), []), rend)
        for k, e in enumerate(r.evidence)
    ]
    return {
        "index": index,
        "id": code(r.id),
        "id_plain": escape_text(r.id),
        "anchor": Tex("claim-%d" % index),
        "paper": escape_text(r.paper),
        "where": escape_text(r.where or "--"),
        "kind": escape_text(r.kind or "--"),
        "verdict": result_badge(r),
        # ERROR is no verdict: the claim's code crashed (verify.execute)
        "verdict_label": Tex("Status" if r.verdict is Verdict.ERROR else "Verdict"),
        "expect": badge(r.expect) if r.expect else None,
        "code": [code(loc) for loc in r.code],
        "drift": r.drift,
        "summary": rend.prose(r.summary),
        "reason": rend.prose(one_line(r.summary)),
        "statement": rend.statement(r.statement),
        "readings": readings,
        "evidence": evidence,
        "error": latex.as_text(r.error) if r.error else None,
        "elapsed": fmt_seconds(r.elapsed_s),
        "rerun": latex.command(rerun_command(r)),
        "safe": safe,
        "origin": escape_text(origin) if origin else None,
    }


def table_row(r: ClaimResult, index: int, safe: bool) -> dict[str, Any]:
    rend = Renderers.for_mode(safe)
    return {
        "index": index,
        "anchor": Tex("claim-%d" % index),
        "id": code(r.id),
        "paper": escape_text(r.paper),
        "where": escape_text(r.where or "--"),
        "kind": escape_text(r.kind or "--"),
        "verdict": result_badge(r),
        "drift": r.drift,
        "reason": rend.prose(one_line(r.summary)),
        "readings": readings_tex(r),
    }


def sort_for_table(results: list[ClaimResult], papers: list[str]) -> list[int]:
    """Indices of ``results``: refuted first, then not reproduced, then paper and file order."""
    porder = {p: k for k, p in enumerate(papers)}
    return sorted(
        range(len(results)),
        key=lambda i: (
            SEVERITY.get(results[i].verdict, 2),
            porder.get(results[i].paper, len(porder)),
            i,
        ),
    )


#: The headline categories the counts tables use, in order (verify.headline).
CATEGORIES: tuple[tuple[Verdict, str], ...] = (
    (Verdict.PROVED, ""),
    (Verdict.PROVED, "bounded"),
    (Verdict.PROVED, "with erratum"),
    (Verdict.PROVED, "erratum in the proof"),
    (Verdict.PROVED, "consistency check"),
    (Verdict.CERTIFIED, ""),
    (Verdict.CERTIFIED, "with erratum"),
    (Verdict.CERTIFIED, "erratum in the proof"),
    (Verdict.SUPPORTED, ""),
    (Verdict.SUPPORTED, "with erratum"),
    (Verdict.SUPPORTED, "erratum in the proof"),
    (Verdict.REFUTED, "false"),
    (Verdict.REFUTED, "overstated"),
    (Verdict.REFUTED, "erratum"),
    (Verdict.REFUTED, "consistency check"),
    (Verdict.REFUTED, ""),
    (Verdict.REPRODUCED, ""),
    (Verdict.REPRODUCED, "with erratum"),
    (Verdict.NOT_REPRODUCED, ""),
    (Verdict.UNDECIDED, ""),
    (Verdict.ERROR, ""),  # the claim's code crashed: no verdict (verify.execute)
)
_SHORT = {Verdict.PROVED: "Proved", Verdict.CERTIFIED: "Certif.", Verdict.SUPPORTED: "Suppor.",
          Verdict.REFUTED: "Refuted", Verdict.REPRODUCED: "Repro.",
          Verdict.NOT_REPRODUCED: "Not rep.", Verdict.UNDECIDED: "Undec.",
          Verdict.ERROR: "Error"}


def _category(r: ClaimResult) -> tuple[Verdict, str]:
    if r.errata and r.verdict is not Verdict.REFUTED:  # errata apart from refutations
        text = any(not headline.of_proof(e) for e in r.errata)
        return r.verdict, "with erratum" if text else "erratum in the proof"
    return r.verdict, headline.qualifier(r.verdict, r.scope, r.severity, kind=r.kind)


def _category_badge(v: Verdict, q: str) -> Tex:
    return Tex(badge(v) + Tex(r"\,{\scriptsize\sffamily %s}" % escape_text(q) if q else ""))


def counts(results: Iterable[ClaimResult]) -> dict[tuple[Verdict, str], int]:
    """Claims per headline category: a bounded proof and each severity counted apart."""
    out = {c: 0 for c in CATEGORIES}
    for r in results:
        cat = _category(r)
        out[cat if cat in out else (r.verdict, "")] += 1
    return out



def _share(coverage: dict[str, Any] | None) -> Any:
    """The summary's coverage cell: the paper's share of numbered statements checked, or a
    dash for a paper without an index of statements."""
    return coverage["share"] if coverage else Tex("--")

def counts_view(results: list[ClaimResult], papers: list[str],
                coverages: dict[str, dict[str, Any] | None] | None = None) -> dict[str, Any]:
    """The verdict counts per paper, with the share of each paper's numbered statements its
    claims check (``coverages``: the paper's coverage view, :mod:`.paperinfo`)."""
    coverages = coverages or {}
    total = counts(results)
    shown = [c for c in CATEGORIES if total[c]] or [CATEGORIES[0]]
    rows = []
    for p in papers:
        sub = [r for r in results if r.paper == p]
        c = counts(sub)
        rows.append(
            {
                "paper": escape_text(p),
                "title": escape_text(title(p, sub)),
                "counts": [c[k] for k in shown],
                "total": len(sub),
                "covered": _share(coverages.get(p)),
            }
        )
    return {
        "verdicts": [_category_badge(v, q) for v, q in shown],
        "short": [Tex(_SHORT[v] + (r" {\tiny %s}" % q if q else ""))
                  for v, q in shown],
        "ncols": len(shown),
        "rows": rows,
        "total": [total[k] for k in shown],
        "grand_total": sum(total.values()),
        "nonzero": [(_category_badge(v, q), total[(v, q)]) for v, q in shown
                    if total[(v, q)] and v is not Verdict.UNDECIDED]
        + _undecided_by_reason(results),
    }


def _undecided_by_reason(results: list[ClaimResult]) -> list[tuple[Tex, int]]:
    """The UNDECIDED claims counted by reason (verify.combine rule 9), for the summary line."""
    tally: dict[str, int] = {}
    for r in results:
        if r.verdict is Verdict.UNDECIDED:
            reason = r.undecided_reason or ""
            tally[reason] = tally.get(reason, 0) + 1
    return [(_category_badge(Verdict.UNDECIDED, reason), n) for reason, n in sorted(tally.items())]


#: Order of the findings: a false theorem first, a typo last (verify.combine rule 6).
SEVERITY_ORDER = {"false": 0, "overstated": 1, "consistency check": 2, "erratum": 3,
                  "erratum in the proof": 4}


_SENTENCE = {
    "false": "The statement is false: no reasonable reading of it holds.",
    "overstated": "The statement is overstated: it holds only under a hypothesis the paper "
                  "does not state.",
    "erratum": "The statement holds once a defect of its text is repaired; as printed it "
               "fails.",
}


def where_in_paper(r: ClaimResult, index: Iterable[Any] = ()) -> Tex:
    """Where the claim is in the paper: the first numbered statement of the paper's index it
    names, with its lines (``Theorem 4.3, L343--353``), else the first place its ``where``
    gives."""
    from ..coverage import cited

    names = cited(r.where).names
    for st in index:
        if (st.kind, st.number) in names:
            a, b = st.spans[0]
            return escape_text(f"{st.name}, L{a}" + (f"\u2013{b}" if b != a else ""))
    first = (r.where or "").split(";")[0].strip()
    return escape_text(first or r.id)


def findings_view(
    results: list[ClaimResult], *, only: str | None = None,
    index: Iterable[Any] | dict[str, Any] = (),
) -> list[dict[str, Any]]:
    """The refutations, most severe first, as a referee lists them: where in the paper and
    the statement as printed, the verdict in one sentence, then the evidence (the
    counterexample as a table of variables and values; for an erratum or an overstated
    claim, the repaired statement with its own verdict)."""
    index = index if isinstance(index, dict) else list(index)
    refuted = [r for r in results if r.verdict is Verdict.REFUTED or r.errata]
    if only is not None:
        refuted = [r for r in refuted if _severity(r) == only]
    refuted.sort(key=lambda r: SEVERITY_ORDER.get(_severity(r), 0))
    out = []
    for r in refuted:
        failing = r.errata[0].get("reading", "A") if r.errata else r.headline_reading
        witness = next(
            (e for e in r.evidence if e.reading == failing and e.verdict is Verdict.REFUTED), None
        )
        repaired = None
        if r.repaired_by:
            info = r.readings.get(r.repaired_by, {})
            st = r.reading_statements.get(r.repaired_by, "")
            repaired = {
                "label": escape_text(r.repaired_by),
                "statement": latex.statement(st),
                "verdict": qualified_badge(
                    Verdict.parse(info.get("verdict", "UNDECIDED")), info.get("scope")
                ),
            }
        severity = _severity(r)
        printed = r.reading_statements.get(failing) or r.statement
        out.append(
            {
                "id": code(r.id),
                "paper": escape_text(r.paper),
                "where": where_in_paper(r, index.get(r.paper, ()) if isinstance(index, dict)
                                        else index),
                "statement": latex.statement(printed),
                "badge": result_badge(r),
                "severity": escape_text(severity),
                "sentence": escape_text(_SENTENCE.get(severity, "")),
                "summary": values.prose(_capital(one_line(r.summary))),
                "counterexample": (_rows(witness.counterexample or {}) if witness is not None
                                   else []),
                "counterexample_summary": (values.prose(
                                               values.without_label("counterexample",
                                                                    witness.summary))
                                           if witness is not None and witness.summary
                                           and witness.summary not in r.summary else None),
                "repaired": repaired,
            }
        )
    return out


def _words(name: str) -> str:
    """A metric named by a snake_case key (``alignment_pca_plane``) in words
    (``alignment pca plane``): a table cell is read, not copied, and a key does not wrap."""
    return name.replace("_", " ") if re.fullmatch(r"[a-z]+(?:_[a-z0-9]+)+", name) else name


def _capital(s: str) -> str:
    """A sentence starts with a capital (a summary written as a clause does not)."""
    return s[:1].upper() + s[1:] if s[:1].isalpha() and s[:1].islower() else s


#: The tool's own words, once, in the paper's documents and the summary.
GLOSSARY = Tex(
    r"\textbf{Reading}: a statement that can be read more than one way is checked under each "
    r"reasonable reading; reading A is the statement as printed, the others are named where "
    r"they appear, and the verdict that heads is the reading the paper means. "
    r"\textbf{Scope}: a proof is \emph{general} when it covers every size the statement "
    r"quantifies over, \emph{bounded} when it was carried out for the sizes named. "
    r"\textbf{Severity} of a refutation: \emph{false} (no reasonable reading holds), "
    r"\emph{overstated} (true only under a hypothesis the paper lacks), \emph{erratum} (a "
    r"defect a referee fixes with a remark; the repaired statement heads, with its own "
    r"verdict). \textbf{Supported}: no counterexample in a numerical search, which is "
    r"evidence, not a proof; \textbf{undecided}: neither, with the reason said."
)


def _severity(r: ClaimResult) -> str:
    """``erratum`` for a claim whose headline carries an erratum of its statement, ``erratum in
    the proof`` for one whose proof alone is corrected, else its severity."""
    if r.errata and r.verdict is not Verdict.REFUTED:
        text = any(not headline.of_proof(e) for e in r.errata)
        return "erratum" if text else "erratum in the proof"
    if r.kind == headline.CONSISTENCY:  # the paper's numbers disagree: no false theorem
        return "consistency check"
    return r.severity or "false"


def provenance_view(meta: dict[str, Any], results: list[ClaimResult]) -> list[dict[str, Tex]]:
    """Where the results came from, as label/value rows (``not recorded`` when unknown)."""
    first = results[0] if results else None
    dtypes = sorted({values.unrepr(e.dtype) for r in results for e in r.evidence if e.dtype})
    devices = sorted({r.device for r in results if r.device})
    versions = meta.get("versions") or {}
    rows = [
        ("verify revision", meta.get("git_revision")),
        ("date", meta.get("date")),
        ("seed", meta.get("seed", first.run_seed if first else None)),
        ("profile", meta.get("profile", first.profile if first else None)),
        ("device", meta.get("device", ", ".join(devices) if devices else None)),
        ("dtype", ", ".join(dtypes) if dtypes else None),
        ("run time", fmt_seconds(meta["run_time_s"]) if "run_time_s" in meta else None),
        ("claims", meta.get("claims", len(results))),
        ("platform", meta.get("platform")),
        ("versions", _versions(versions) if versions else None),
    ]
    if meta.get("claims_sources"):
        rows.append(("claims packages", claims_sources_text(meta["claims_sources"])))
    return _provenance_rows(rows)


def claims_sources_text(items: Any) -> str | None:
    """``mypkg 0.3 (git 1a2b3c4d5e6f); file claims.py (git not recorded)``: the claims beyond
    verify's own that a run used, each with its version and revision."""
    if not isinstance(items, list):
        return None
    parts = []
    for item in items:
        if not isinstance(item, dict):
            continue
        text = str(item.get("source") or "?")
        if item.get("version"):
            text += f" {item['version']}"
        if item.get("distribution") and item.get("distribution") != item.get("source"):
            text += f" (distribution {item['distribution']})"
        text += f" (git {item.get('git_revision') or 'not recorded'})"
        parts.append(text)
    return "; ".join(parts) or None


def sources_view(sources: list[Any], results: list[ClaimResult]) -> list[dict[str, Tex]]:
    """The provenance of a merged report: one row per results file used (its run, how many
    claims it gave, seed, revision, run time), then what the runs share or each differs in."""
    rows: list[tuple[str, Any]] = [
        ("merged", "%d results files; per claim, the strongest profile that ran (deep over "
                   "quick), the later file between equals" % len(sources)),
    ]
    for k, src in enumerate(sources, 1):
        meta = src.meta or {}
        facts = ["%d claim%s" % (len(src.used), "" if len(src.used) == 1 else "s")]
        for label, key in (("seed", "seed"), ("verify revision", "git_revision"),
                           ("device", "device")):
            if meta.get(key) is not None:
                facts.append(f"{label} {meta[key]}")
        if isinstance(meta.get("run_time_s"), (int, float)):
            facts.append("run time %.0f s" % meta["run_time_s"])
        if not meta:
            facts.append("provenance not recorded")
        rows.append(("run %d" % k, f"{src.label()}: " + "; ".join(facts)))
    dtypes = sorted({values.unrepr(e.dtype) for r in results for e in r.evidence if e.dtype})
    rows.append(("dtype", ", ".join(dtypes) if dtypes else None))
    versions = {
        _versions(src.meta.get("versions") or {})
        for src in sources
        if src.meta.get("versions")
    }
    for k, text in enumerate(sorted(versions), 1):
        rows.append(("versions" if len(versions) == 1 else "versions (%d)" % k, text))
    claims = {claims_sources_text(src.meta.get("claims_sources")) for src in sources}
    for claims_text in sorted(c for c in claims if c is not None):
        rows.append(("claims packages", claims_text))
    return _provenance_rows(rows)


def _versions(versions: dict[str, Any]) -> Tex:
    """``sympy 1.14.0, torch 2.13.0``: each name and version kept on one line."""
    return Tex(", ".join(r"\mbox{%s}" % escape_text(f"{k} {v}") for k, v in versions.items()))


def _provenance_rows(rows: list[tuple[str, Any]]) -> list[dict[str, Tex]]:
    out = []
    for label, value in rows:
        if value is None or value == "":
            value_tex = Tex(r"\emph{not recorded}")
        elif isinstance(value, Tex):
            value_tex = value
        else:
            value_tex = escape_text(value, breakable=True)
        out.append({"key": Tex(label), "value": value_tex})
    return out

"""Which of a paper's numbered statements its claims check: the reviewer's first question.

A paper's *index* is the list of its numbered statements (theorems, lemmas, propositions,
corollaries, definitions, remarks, conjectures, examples, claims, axioms, algorithms,
tables and figures), each with the lines of the paper's text it spans. The built-in papers
declare their index as data (``proofs/<key>/statements.py``, passed to
:func:`verify.paper`); a user's paper can let :func:`find_statements` read it from the
paper's source (``verify.paper(key, source="paper.tex")``): the theorem environments,
tables, figures and ``\\label``\\ s of a LaTeX file, or the headings ("Theorem 3.",
"**Lemma D.2**", "Table 1:") of a PDF's text.

A claim says what it checks in its ``where`` (``"Theorem 4.3, L343-353; eq. (27)"``):
:func:`cited` reads the statements it names and the line ranges it gives. The rule:

    A statement is *checked* by a claim when the claim names it (kind and number, or its
    ``\\label``) or when a line range the claim gives overlaps one of the statement's spans.
    A statement no claim checks is *not checked*. Equations are not indexed: the equations
    the claims cite are listed beside the index, all checked by construction, and are not
    counted in the share covered.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = [
    "Statement",
    "Citation",
    "Coverage",
    "KINDS",
    "cited",
    "coverage",
    "find_statements",
    "find_statements_text",
    "find_statements_tex",
    "statements_from_data",
]

#: The kinds of numbered statement, in the order the coverage page lists them.
KINDS = (
    "Axiom", "Assumption", "Definition", "Theorem", "Proposition", "Lemma", "Corollary",
    "Claim", "Conjecture", "Example", "Remark", "Algorithm", "Table", "Figure",
)
#: How papers and claims abbreviate a kind (lower case, without a final dot or plural s).
_ALIASES = {
    "thm": "Theorem", "theorem": "Theorem", "lem": "Lemma", "lemma": "Lemma",
    "prop": "Proposition", "proposition": "Proposition", "cor": "Corollary",
    "corollary": "Corollary", "def": "Definition", "defn": "Definition",
    "definition": "Definition", "rem": "Remark", "remark": "Remark", "conj": "Conjecture",
    "conjecture": "Conjecture", "ex": "Example", "example": "Example", "claim": "Claim",
    "axiom": "Axiom", "assumption": "Assumption", "alg": "Algorithm", "algorithm": "Algorithm",
    "table": "Table", "tab": "Table", "fig": "Figure", "figure": "Figure",
}
_NUMBER = r"(?:[A-Z]\.?)?\d+(?:\.\d+)*"
#: Longest span a statement found in text is given (its heading line to the line before
#: its proof or the next heading).
MAX_SPAN = 25


@dataclass(frozen=True)
class Statement:
    """One numbered statement: ``Theorem 4.3`` at lines 343-353 (``spans``: every place it is
    printed, a restatement in the appendix included; the first is where it is stated)."""

    kind: str
    number: str
    spans: tuple[tuple[int, int], ...]
    label: str = ""

    @property
    def name(self) -> str:
        """``Theorem 4.3``; an unnumbered one by its line (``Definition (L297)``)."""
        return f"{self.kind} {self.number}" if self.number else f"{self.kind} (L{self.first})"

    @property
    def first(self) -> int:
        return self.spans[0][0]

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "number": self.number,
                "spans": [list(s) for s in self.spans], "label": self.label}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Statement:
        return cls(str(d["kind"]), str(d.get("number") or ""),
                   tuple((int(a), int(b)) for a, b in d["spans"]), str(d.get("label") or ""))


def statements_from_data(rows: Iterable[Sequence[Any]]) -> tuple[Statement, ...]:
    """The index a paper module declares, ``(kind, number, first, last[, first2, last2...])``
    rows, as :class:`Statement` s (a restatement's lines follow the first span)."""
    out = []
    for row in rows:
        kind, number, *lines = row
        if kind not in KINDS or len(lines) < 2 or len(lines) % 2:
            raise ValueError(f"statement row {row!r}: want (kind, number, first, last, ...)"
                             f" with kind one of {', '.join(KINDS)}")
        spans = tuple((int(lines[k]), int(lines[k + 1])) for k in range(0, len(lines), 2))
        if any(a < 1 or b < a for a, b in spans):
            raise ValueError(f"statement row {row!r}: a span's lines are out of order")
        out.append(Statement(kind, str(number), spans))
    return tuple(out)


# -- finding statements in a paper's text ------------------------------------------------------
_TEXT_HEADING = re.compile(
    r"^\s*(?:\d{1,4}\s+)?[#*_\s]*(?P<kind>" + "|".join(KINDS) + r"|Fig\.)\s*"
    r"(?P<number>" + _NUMBER + r")?\s*\.?[*_]*\s*(?P<after>.?)",
    re.I,
)
_PROOF = re.compile(r"^\s*(?:\d{1,4}\s+)?[*_]*(Proof|Sketch of proof|Proof intuition)\b", re.I)
#: A section heading ends a statement too: ``## 4.2 Results``, ``1093 F.1 Proof of ...``,
#: ``4 Engineering Implications``.
_SECTION = re.compile(
    r"^\s*(?:#|(?:\d{1,4}\s+)?(?:\d+|[A-Z])(?:\.\d+)+\s+[A-Z]"
    r"|\d{1,2}\s+[A-Z][\w-]*(?:\s+[\w-]+){0,8}\s*$)"
)


def _kind(word: str) -> str | None:
    return _ALIASES.get(word.lower().rstrip(".").removesuffix("s")) or _ALIASES.get(
        word.lower().rstrip(".")
    )


def _heading(line: str) -> tuple[str, str] | None:
    """``(kind, number)`` when ``line`` opens a numbered statement or a caption."""
    m = _TEXT_HEADING.match(line)
    if not m:
        return None
    kind = _kind(m.group("kind"))
    if kind is None:
        return None
    number = m.group("number") or ""
    after = m.group("after")
    rest = line[m.end("number") if number else m.end("kind"):].lstrip(" *_")
    if kind in ("Table", "Figure"):
        # a caption: "Table 1:", "Fig. 2.", not "Table 2 (left) shows ..."
        return (kind, number) if number and rest[:1] in (":", ".") else None
    if not number:  # "Definition (equivariance of operator)." opens an unnumbered statement
        return (kind, "") if rest[:1] == "(" and kind == "Definition" else None
    if after == "" or after == "(" or after.isupper() or rest[:1] in (".", ":", "("):
        return kind, number
    return None  # "Theorem 4.2 ensures that ...": prose that names a statement


def find_statements_text(text: str) -> list[Statement]:
    """The numbered statements of a paper's plain text (a PDF's text, or a paper as text):
    every line that opens one ("Theorem 3 (Name) ...", "**Lemma D.2**", "Table 1:"), spanning
    to the line before its proof or the next heading (at most :data:`MAX_SPAN` lines; a
    caption is one line). A statement printed again (a restatement in an appendix) keeps
    its first place and gains a span."""
    lines = text.splitlines()
    heads = [(n, h) for n, line in enumerate(lines, 1) if (h := _heading(line))]
    found: dict[tuple[str, str], list[tuple[int, int]]] = {}
    for k, (n, (kind, number)) in enumerate(heads):
        if kind in ("Table", "Figure"):
            end = n
        else:
            stop = heads[k + 1][0] - 1 if k + 1 < len(heads) else len(lines)
            end = n
            for j in range(n + 1, min(stop, n + MAX_SPAN - 1) + 1):
                if _PROOF.match(lines[j - 1]) or _SECTION.match(lines[j - 1]):
                    break
                end = j
            while end > n and not lines[end - 1].strip():
                end -= 1
        key = (kind, number or f"@{n}")
        found.setdefault(key, []).append((n, end))
    return [Statement(kind, "" if number.startswith("@") else number, tuple(spans))
            for (kind, number), spans in found.items()]


_NEWTHEOREM = re.compile(
    r"\\newtheorem(?P<star>\*?)\{(?P<env>[^}]+)\}(?:\[(?P<shared>[^\]]+)\])?"
    r"\{(?P<printed>[^}]+)\}(?:\[(?P<within>[^\]]+)\])?"
)
_TEX_TOKEN = re.compile(
    r"\\(?P<cmd>section|appendix|label|caption)\b(?P<star>\*?)(?:\s*\[[^\]]*\])?"
    r"(?:\s*\{(?P<arg>[^}]*)\})?"
    r"|\\(?P<be>begin|end)\{(?P<env>[^}]+)\}"
)
_DEFAULT_THEOREMS = {"theorem": "Theorem", "lemma": "Lemma", "proposition": "Proposition",
                     "corollary": "Corollary", "definition": "Definition", "remark": "Remark",
                     "conjecture": "Conjecture", "example": "Example", "claim": "Claim",
                     "assumption": "Assumption", "axiom": "Axiom"}


def find_statements_tex(source: str) -> list[Statement]:
    r"""The numbered statements of a LaTeX source: the environments ``\newtheorem`` declares
    (numbered as LaTeX numbers them: shared counters, numbering within sections, lettered
    appendix sections; the usual environment names when there is no declaration), each
    ``figure``/``table`` with a caption and ``algorithm``; each with its ``\label``."""
    text = re.sub(r"(?<!\\)%.*", "", source)  # comments, keeping each line in place
    envs: dict[str, tuple[str, str, str]] = {}  # env -> (printed kind, counter, within)
    for m in _NEWTHEOREM.finditer(text):
        kind = _kind(m.group("printed").split()[0]) or m.group("printed").strip()
        if m.group("star"):
            continue  # unnumbered
        counter = m.group("shared") or m.group("env")
        within = m.group("within") or (envs.get(counter, ("", "", ""))[2])
        envs[m.group("env")] = (kind, counter, within)
    if not envs:
        envs = {e: (k, e, "") for e, k in _DEFAULT_THEOREMS.items()}
    envs.update({"figure": ("Figure", "figure", ""), "figure*": ("Figure", "figure", ""),
                 "table": ("Table", "table", ""), "table*": ("Table", "table", ""),
                 "algorithm": ("Algorithm", "algorithm", "")})
    counters: dict[str, int] = {}
    section, appendix = 0, False
    open_: list[tuple[str, int, str]] = []  # env, first line, number
    labels: dict[int, str] = {}
    out: list[Statement] = []
    line_of = _line_index(text)
    for m in _TEX_TOKEN.finditer(text):
        line = line_of(m.start())
        cmd = m.group("cmd")
        if cmd == "appendix":
            appendix, section = True, 0
        elif cmd == "section" and not m.group("star"):
            section += 1
            for _k, counter, within in envs.values():
                if within == "section":
                    counters[counter] = 0
        elif cmd == "label" and open_:
            labels.setdefault(len(open_) - 1, (m.group("arg") or "").strip())
        elif m.group("be") == "begin" and m.group("env") in envs:
            kind, counter, within = envs[m.group("env")]
            counters[counter] = counters.get(counter, 0) + 1
            sec = (chr(ord("A") + section - 1) if appendix else str(section)) if section else "0"
            number = f"{sec}.{counters[counter]}" if within == "section" else str(counters[counter])
            open_.append((m.group("env"), line, number))
        elif m.group("be") == "end" and open_ and m.group("env") == open_[-1][0]:
            env, first, number = open_.pop()
            label = labels.pop(len(open_), "")
            out.append(Statement(envs[env][0], number, ((first, line),), label))
    return sorted(out, key=lambda s: s.first)


def _line_index(text: str):
    starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def line_of(pos: int) -> int:
        import bisect

        return bisect.bisect_right(starts, pos)

    return line_of


def find_statements(path: str | Path) -> list[Statement]:
    """The numbered statements of the paper at ``path``: a ``.tex`` file read as LaTeX,
    anything else as the paper's plain text (a PDF's text, extracted beforehand)."""
    p = Path(path)
    text = p.read_text(encoding="utf-8", errors="replace")
    return find_statements_tex(text) if p.suffix.lower() in (".tex", ".ltx") else (
        find_statements_text(text))


# -- what a claim cites ----------------------------------------------------------------------
_CITED_KIND = re.compile(
    r"(?<![A-Za-z])(?P<kind>Theorems?|Thms?\.?|Lemmas?|Propositions?|Props?\.|Corollary|"
    r"Corollaries|Cor\.?|Definitions?|Defs?\.?|Remarks?|Conjectures?|Examples?|Claims?|"
    r"Axioms?|Assumptions?|Algorithms?|Tables?|Figures?|Figs?\.)\s*"
    r"(?P<a>" + _NUMBER + r")(?:\s*[-–]\s*(?P<b>" + _NUMBER + r"))?"
)
_CITED_EQ = re.compile(
    r"(?:(?<![A-Za-z])eqs?\.\s*|(?<![\w.)(]))\((?P<a>\d+)\)(?:\s*[-–]\s*\((?P<b>\d+)\))?"
)
_CITED_LINES = re.compile(
    r"(?:(?<![A-Za-z])L|\b(?:ll?\.|lines?)\s*)(?P<a>\d+)(?:\s*[-–]\s*L?(?P<b>\d+))?"
)
_CITED_LABEL = re.compile(r"\\(?:ref|eqref|cref|Cref)\{(?P<label>[^}]+)\}")


@dataclass
class Citation:
    """What one claim's ``where`` cites: statements by name, equations, line ranges, labels."""

    names: set[tuple[str, str]] = field(default_factory=set)
    equations: list[str] = field(default_factory=list)
    lines: list[tuple[int, int]] = field(default_factory=list)
    labels: set[str] = field(default_factory=set)


def _expand(a: str, b: str | None) -> list[str]:
    """``3``-``6`` -> 3, 4, 5, 6 (a short range of plain numbers); else the two ends."""
    if b and a.isdigit() and b.isdigit() and 0 <= int(b) - int(a) <= 20:
        return [str(n) for n in range(int(a), int(b) + 1)]
    return [a] + ([b] if b else [])


def cited(where: str) -> Citation:
    """What a claim's ``where`` names (``"Theorem 4.3 L343-353; eqs. (19)-(23); Figs. 2-3"``)."""
    c = Citation()
    for m in _CITED_KIND.finditer(where or ""):
        kind = _kind(m.group("kind"))
        if kind:
            c.names.update((kind, n) for n in _expand(m.group("a"), m.group("b")))
    for m in _CITED_EQ.finditer(where or ""):
        for n in _expand(m.group("a"), m.group("b")):
            if n not in c.equations:
                c.equations.append(n)
    for m in _CITED_LINES.finditer(where or ""):
        a = int(m.group("a"))
        b = int(m.group("b")) if m.group("b") else a
        c.lines.append((a, max(a, b)))
    for m in _CITED_LABEL.finditer(where or ""):
        c.labels.add(m.group("label").strip())
    for word in re.findall(r"[A-Za-z]+:[\w:.-]+", where or ""):  # a bare label, thm:main
        c.labels.add(word)
    return c


@dataclass
class Coverage:
    """A paper's coverage: per statement, the claims that check it and how (``"named"`` or
    ``"lines"``); the cited equations with their claims; the share of statements checked."""

    rows: list[tuple[Statement, list[tuple[str, str]]]]
    equations: list[tuple[str, list[str]]]

    @property
    def checked(self) -> int:
        return sum(1 for _s, claims in self.rows if claims)

    @property
    def total(self) -> int:
        return len(self.rows)

    @property
    def share(self) -> float | None:
        return self.checked / self.total if self.total else None


def coverage(statements: Sequence[Statement], claims: Iterable[tuple[str, str]]) -> Coverage:
    """Apply the rule of this module to ``statements`` and ``(claim id, where)`` pairs."""
    citations = [(cid, cited(where)) for cid, where in claims]
    rows = []
    for s in sorted(statements, key=lambda s: s.first):
        found = []
        for cid, c in citations:
            if (s.kind, s.number) in c.names or (s.label and s.label in c.labels):
                found.append((cid, "named"))
            elif any(a <= hi and lo <= b for a, b in s.spans for lo, hi in c.lines):
                found.append((cid, "lines"))
        rows.append((s, found))
    equations: dict[str, list[str]] = {}
    for cid, c in citations:
        for n in c.equations:
            equations.setdefault(n, []).append(cid)
    eq_rows = sorted(equations.items(), key=lambda kv: int(kv[0]))
    return Coverage(rows, eq_rows)

"""A paper's index of numbered statements and which claims check each (verify.coverage):
found in a paper's text and in LaTeX, declared for the five papers (checked against the
seeds when they are here), and mapped to claims by name and by lines."""

from __future__ import annotations

import importlib
import textwrap
from pathlib import Path

import pytest

import verify
from verify.coverage import (
    Statement,
    cited,
    coverage,
    find_statements,
    find_statements_tex,
    find_statements_text,
    statements_from_data,
)
from verify.errors import ClaimDefinitionError
from verify.registry import Registry

ROOT = Path(__file__).resolve().parents[2]
SEEDS = ROOT.parent / "shared" / "seeds"
PAPERS = ("nfa", "pegr", "gda", "sih", "toef")

TEXT = textwrap.dedent("""\
    1 Introduction
    Theorem 4.2 ensures that the construction works.
    **Theorem 1** (Main). *For every x, f(x) = 0.*
    $$ f(x) = 0 $$
    Proof. Obvious.
    Lemma D.2. Let G be a grid.
    It has two lines.

    Table 1: Results on the benchmark.
    Table 2 (left) shows the numbers.
    *Remark E.5.* The bound is tight.
    Theorem 1 (Main, restated). For every x, f(x) = 0.
    Definition (equivariance). A map is equivariant when ...
    """)


def test_text_headings_open_statements_and_prose_does_not():
    found = {s.name: s.spans for s in find_statements_text(TEXT)}
    assert found["Theorem 1"] == ((3, 4), (12, 12))  # to the line before its proof; restated
    assert found["Lemma D.2"] == ((6, 7),)
    assert found["Table 1"] == ((9, 9),)
    assert found["Remark E.5"] == ((11, 11),)
    assert found["Definition (L13)"] == ((13, 13),)
    assert "Theorem 4.2" not in found and "Table 2" not in found  # prose naming a statement


LATEX = textwrap.dedent(r"""
    \newtheorem{theorem}{Theorem}[section]
    \newtheorem{lemma}[theorem]{Lemma}
    \newtheorem*{remark}{Remark}
    \begin{document}
    \section{Intro}
    \begin{theorem}\label{thm:main} A. \end{theorem}
    \begin{lemma} B. % \begin{theorem} in a comment
    \end{lemma}
    \section{More}
    \begin{theorem}[Named] C. \label{thm:two}\end{theorem}
    \begin{remark} unnumbered \end{remark}
    \begin{figure}\caption{F}\label{fig:f}\end{figure}
    \appendix
    \section{Proofs}
    \begin{lemma}\label{lem:app} D. \end{lemma}
    \end{document}
    """)


def test_latex_environments_are_numbered_as_latex_numbers_them():
    found = find_statements_tex(LATEX)
    assert [(s.name, s.label) for s in found] == [
        ("Theorem 1.1", "thm:main"), ("Lemma 1.2", ""), ("Theorem 2.1", "thm:two"),
        ("Figure 1", "fig:f"), ("Lemma A.1", "lem:app"),
    ]
    assert found[0].spans == ((7, 7),) and found[1].spans == ((8, 9),)


def test_cited_reads_names_ranges_equations_lines_and_labels():
    c = cited("Theorem 4.3 L343-353; Thm D.5 item 1; eqs. (19)-(21); (27); Figs. 2-3 "
              "(L398-401); Tables 4-5; Sec. 1.1(4); \\ref{thm:main}")
    assert {("Theorem", "4.3"), ("Theorem", "D.5"), ("Figure", "2"), ("Figure", "3"),
            ("Table", "4"), ("Table", "5")} <= c.names
    assert c.equations == ["19", "20", "21", "27"]  # not the 4 of "1.1(4)"
    assert c.lines == [(343, 353), (398, 401)]
    assert c.labels == {"thm:main"}
    assert cited("Theorem 3, l. 156; lines 10-12").lines == [(156, 156), (10, 12)]


def test_a_statement_is_checked_by_name_by_lines_or_not_at_all():
    index = statements_from_data([("Theorem", "1", 10, 20), ("Lemma", "2", 30, 31),
                                  ("Table", "1", 50, 50)])
    cov = coverage(index, [("p.a", "Theorem 1"), ("p.b", "L29-30"), ("p.c", "eq. (3)")])
    rows = {s.name: found for s, found in cov.rows}
    assert rows == {"Theorem 1": [("p.a", "named")], "Lemma 2": [("p.b", "lines")],
                    "Table 1": []}
    assert (cov.checked, cov.total, cov.equations) == (2, 3, [("3", ["p.c"])])


def test_bad_index_rows_are_refused():
    with pytest.raises(ValueError):
        statements_from_data([("Thm", "1", 1, 2)])  # not a kind
    with pytest.raises(ValueError):
        statements_from_data([("Theorem", "1", 5, 2)])


@pytest.mark.parametrize("key", PAPERS)
def test_builtin_index_matches_the_seed(key):
    data = importlib.import_module(f"proofs.{key}.statements")
    index = statements_from_data(data.STATEMENTS)
    assert index and len({s.name for s in index}) == len(index)
    assert verify.registry.REGISTRY.papers.get(key) is None or (
        verify.registry.REGISTRY.papers[key].statements == index)
    seed = SEEDS / data.SEED
    if not seed.exists():
        pytest.skip(f"{seed} is not here")
    lines = seed.read_text(encoding="utf-8").splitlines()
    for s in index:
        for first, last in s.spans:
            assert last <= len(lines)
            head = lines[first - 1].lower()
            words = [s.kind.lower()] + (["fig."] if s.kind == "Figure" else [])
            assert any(f"{w} {s.number}".lower() in head if s.number else w in head
                       for w in words), (s.name, first, lines[first - 1][:80])
    # nothing the finder sees in the seed is missing from the index
    assert {s.name for s in find_statements(seed)} <= {s.name for s in index}


def test_paper_finds_its_statements_in_its_source(tmp_path):
    (tmp_path / "paper.tex").write_text(LATEX, encoding="utf-8")
    reg = Registry()
    info = verify.paper("mine", title="Mine", source=tmp_path / "paper.tex", registry=reg)
    assert info.source == "paper.tex"
    assert [s.name for s in info.statements][:2] == ["Theorem 1.1", "Lemma 1.2"]
    assert info.to_dict()["statements"][0]["label"] == "thm:main"
    with pytest.raises(ClaimDefinitionError, match="cannot read source"):
        verify.paper("other", title="Other", source=tmp_path / "absent.tex", registry=reg)


def test_statement_round_trips_through_its_dict():
    s = Statement("Lemma", "D.2", ((862, 879), (900, 901)), "lem:x")
    assert Statement.from_dict(s.to_dict()) == s

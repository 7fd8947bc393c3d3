"""A rendered report reads as a referee's report: no Python repr, no cut text, no box
overfull by more than 5 pt, no overlapping tick labels, no identifier split across lines;
a user's paper shows its title, authors, url, its own revision and its coverage.

The text checks run everywhere; the PDF checks need latexmk (skipped without it). The same
checks run on a report built elsewhere when ``VERIFY_REPORT_DIR`` names its folder (the
committed report, or ``verify report ... --out /tmp/report/out``), its results beside it
given by ``VERIFY_REPORT_FROM`` (paths separated by ``:``).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from verify.report import asciimath, build, figures, latex_engine_available
from verify.report import compile as tex_compile
from verify.report.build import overfull
from verify.results import load

FIX = Path(__file__).parent.parent / "fixtures"
OUTSIDE = FIX / "outside_paper"
MAX_OVERFULL_PT = 5.0


# -- the checks --------------------------------------------------------------------------------
_OBJECT_REPR = re.compile(r"<[\w.]+ object at 0x|\b[A-Z]\w*\((?:\w+)=|\bMatrix\(")


def _text_outside_math(tex: str) -> str:
    """The document's text with inline math and comments taken out (math may hold \\dots of a
    paper's own statement, never cut text)."""
    tex = re.sub(r"(?m)(?<!\\)%.*$", "", tex)
    return re.sub(r"(?<!\\)\$[^$]*(?<!\\)\$", " ", tex)


def tex_problems(tex: str) -> list[str]:
    """What a referee would not send, in a document's LaTeX."""
    found = []
    for pattern, what in (("Matrix(", "a SymPy repr"), ("\\{'", "a dict repr"),
                          ("mpmath(", "an mpmath repr")):
        if pattern in tex:
            found.append(f"{what}: {_around(tex, tex.index(pattern))}")
    m = re.search(r"\{'[^'{}]*':", tex)  # a raw dict repr, not a macro's argument in quotes
    if m:
        found.append(f"a dict repr: {_around(tex, m.start())}")
    m = _OBJECT_REPR.search(tex)
    if m:
        found.append(f"a Python object repr: {_around(tex, m.start())}")
    text = _text_outside_math(tex)
    # an ellipsis the text means is typeset (\dots); three dots glued to a word are cut text
    for m in re.finditer(r"\.\.\.|\\dots\{\} \(\d+ in all\)|characters cut\]|items cut\]", text):
        found.append(f"cut text: {_around(text, m.start())}")
    return found


def _around(s: str, i: int) -> str:
    return " ".join(s[max(0, i - 60): i + 60].split())


def log_problems(log: str) -> list[str]:
    """Boxes overfull by more than :data:`MAX_OVERFULL_PT` in a LaTeX log."""
    return overfull(log, MAX_OVERFULL_PT)


def pdf_problems(pdf_text: str, identifiers: set[str]) -> list[str]:
    """Identifiers split across lines in a PDF's text (a line ending in ``_`` or an ``_``
    followed by a space, or an identifier hyphenated at a line's end), and ASCII math left
    raw (:func:`raw_math`)."""
    found = [f"split at _: {_around(pdf_text, m.start())}"
             for m in re.finditer(r"[A-Za-z0-9]_(?:\s*\n| )\s*[A-Za-z0-9]", pdf_text)]
    for m in re.finditer(r"([\w.]+)-\n\s*([\w.]+)", pdf_text):
        joined = m.group(1) + m.group(2)
        if joined in identifiers or any(joined in i for i in identifiers if "_" in i):
            found.append(f"hyphenated identifier: {m.group(0)!r}")
    found += [f"raw ASCII math: {t}" for t in raw_math(pdf_text, identifiers)]
    found += [f"option set as a dash: {_around(pdf_text, m.start())}"
              for m in re.finditer("\u2013[a-z]", pdf_text)]  # "--claim" joined into "–claim"
    return found


def raw_math(pdf_text: str, identifiers: set[str]) -> list[str]:
    """ASCII math left raw in a PDF's text: a word with ``^``, or with ``_`` that reads as math
    (``mean_k``, ``s_ki``, ``tau_0``); identifiers (``worst_in_eps``, claim ids, file names,
    SymPy's ``_i_1``) are not math and are not counted. Typeset math has no ``^`` or ``_`` in
    the text pdftotext gives."""
    found = []
    for word in pdf_text.split():
        token = word.strip(".,;:!?'\"’‘")
        bare = token.strip("()[]{}|")
        if (not re.search(r"[_^]", token) or token in identifiers or bare in identifiers
                or "/" in token):
            continue
        if re.fullmatch(r"[\w-]+(?:\.[\w-]+)+", token):  # a claim id, a module, a file name
            continue
        if "^" in token or asciimath.expression(token) or asciimath.expression(bare):
            found.append(token)
    return found


def figure_problems(results) -> list[str]:
    """Figures whose tick labels overlap once drawn (matplotlib's text extents at save)."""
    found = []
    current = [""]
    real_save = figures._save

    def keep(fig, path):
        figures._declutter(fig)  # what _save does before writing
        overlaps = figures.tick_overlaps(fig)
        if overlaps:
            found.append(f"{current[0]}: overlapping tick labels: {overlaps[:2]}")

    figures._save = keep
    try:
        for r in results:
            current[0] = r.id
            for e in r.evidence:
                for spec in e.figures or []:
                    try:
                        figures.draw(spec, Path("unused.pdf"))
                    except figures.FigureDataError:
                        continue
    finally:
        figures._save = real_save
    return found


def report_problems(out_dir: Path, results, *, pdf: bool) -> list[str]:
    """Every problem of the report in ``out_dir`` (its ``.tex``, and with ``pdf`` its logs
    and PDFs), each named with its document."""
    found = []
    identifiers = {r.id for r in results} | {
        k for r in results for e in r.evidence for k in (e.numbers or {}) if "_" in k} | {
        label for r in results for label in [*r.readings, *(e.reading for e in r.evidence)]}
    for tex_path in sorted(out_dir.glob("*.tex")):
        found += [f"{tex_path.name}: {p}" for p in tex_problems(tex_path.read_text("utf-8"))]
        if not pdf:
            continue
        # the build compiles in a folder of its own: compile again for the log
        figs = {f"figures/{f.name}": f for f in (out_dir / "figures").glob("*.pdf")}
        res = tex_compile.compile_tex(tex_path.read_text("utf-8"), tex_path.stem, figs)
        if res.pdf is not None:
            res.pdf.unlink(missing_ok=True)
        found += [f"{tex_path.name}: {p}" for p in log_problems(res.log)]
        pdf_path = tex_path.with_suffix(".pdf")
        assert pdf_path.exists(), f"{pdf_path} was not built"
        text = subprocess.run(["pdftotext", str(pdf_path), "-"], capture_output=True,
                              text=True, check=True).stdout
        found += [f"{pdf_path.name}: {p}" for p in pdf_problems(text, identifiers)]
    return found + figure_problems(results)


# -- a user's paper, end to end ------------------------------------------------------------------
def _run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, COLUMNS="200", PYTHONPATH=os.pathsep.join(sys.path))
    code = "import sys; from verify.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run([sys.executable, "-c", code, *args], env=env, cwd=cwd,
                          capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def outside(tmp_path_factory):
    """The outside paper's claims run in a git checkout of their own; its results."""
    work = tmp_path_factory.mktemp("outside")
    for f in OUTSIDE.iterdir():
        shutil.copy(f, work / f.name)
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"]
    subprocess.run(["git", "init", "-q"], cwd=work, check=True)
    subprocess.run([*git, "add", "."], cwd=work, check=True)
    subprocess.run([*git, "commit", "-qm", "claims"], cwd=work, check=True)
    rev = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=work, check=True,
                         capture_output=True, text=True).stdout.strip()
    p = _run("run", "claims.py", "--jobs", "1", "--json", "r.jsonl", "--quiet", cwd=work)
    assert p.returncode in (0, 1), p.stderr
    return work, rev


def test_a_users_paper_shows_its_title_authors_url_revision_and_coverage(outside, tmp_path):
    work, rev = outside
    meta = json.loads((work / "r.meta.json").read_text())
    assert [s["number"] for s in meta["papers"]["outside"]["statements"]][:3] == ["1", "1", "2"]
    out = build(work / "r.jsonl", tmp_path / "rep", compile=False)
    tex = (tmp_path / "rep" / "outside.tex").read_text("utf-8")
    for text in ("Commuting Products and Slow Rates", "A. Author, B. Writer",
                 r"\url{https://example.org/paper}", rev, "What of the paper was checked",
                 "Theorem 3", "not checked", "paper.tex"):
        assert text in tex, text
    assert "2 of 5 (40\\%)" in tex  # Definition 1, Theorems 1 and 3, Lemma 2, Table 1
    # the finding leads with the statement's number and place, then the verdict sentence
    findings = tex[tex.index(r"\section*{Findings}"): tex.index("What of the paper")]
    assert "Theorem 1" in findings and "false" in findings
    assert r"\begin{matrix}" in findings  # the counterexample's matrices typeset
    assert tex_problems(tex) == [], tex_problems(tex)
    assert out.merged.startswith("one run: quick run")
    assert r"\mbox{-{}-claim}" in tex  # a pasted re-run command keeps its two dashes


@pytest.mark.slow
def test_builtin_papers_render_without_reprs_or_cut_text(tmp_path):
    out = build(FIX / "report_results.jsonl", tmp_path / "rep", compile=False)
    problems = report_problems(tmp_path / "rep", list(load(FIX / "report_results.jsonl")),
                               pdf=False)
    assert problems == []
    summary = (tmp_path / "rep" / "summary.tex").read_text("utf-8")
    assert "coverage" in summary and r"\%)" in summary  # the share per paper
    nfa = (tmp_path / "rep" / "nfa.tex").read_text("utf-8")
    assert "What of the paper was checked" in nfa and "Theorem 16" in nfa
    assert out.tex


def test_the_checks_find_what_they_look_for():
    """Each check fails on the defect it names (a check that cannot fail checks nothing)."""
    assert tex_problems(r"counterexample: Matrix([[1]])")
    assert tex_problems(r"settings \{'a': 1\}")
    assert tex_problems("model SetTransformer(pool=first)")
    assert tex_problems("the summary was cut here...")
    assert tex_problems("{'a': 1}") and not tex_problems(r"\vfprose{'quoted words' (L3)}")
    assert not tex_problems(r"$x_1, ..., x_n$ and the rest")
    assert log_problems("Overfull \\hbox (12.5pt too wide) in paragraph")
    assert not log_problems("Overfull \\hbox (1.5pt too wide) in paragraph")
    assert pdf_problems("verify run --claim gda.exp.sticky.capacity_\ngap", set())
    assert pdf_problems("rerun verify run \u2013claim x \u2013seed 0", set())
    assert not pdf_problems("rerun verify run --claim x; pages 3\u20134", set())
    assert pdf_problems("the id sih.main.lea-\nkage_bound", {"sih.main.leakage_bound"})
    assert not pdf_problems("equi-\nvariant maps", {"sih.main.leakage_bound"})
    for raw in ("the error mean_k (N tau)", "with (y - f)^2, f", "O(T^-2) rate", "r_i| and",
                "with s_ki = 1", "tau_0} here", "span{phi_k}"):
        assert raw_math(raw, set()), raw
    assert raw_math("the same as O(T^-2)", set()) == ["O(T^-2)"]
    for text in ("worst_in_eps = 3", "claim nfa.exp.table1_equivariance", "file proofs/x_1.py",
                 "no_normalization and NOT_REPRODUCED", "Sum(Phi[_i_2, _i_1])", "x_range"):
        assert not raw_math(text, set()), text
    assert not raw_math("the value step_k", {"step_k"})


@pytest.mark.slow
@pytest.mark.skipif(not latex_engine_available() or not shutil.which("pdftotext"),
                    reason="latexmk/pdflatex or pdftotext is not installed")
def test_the_pdfs_have_no_overfull_boxes_split_identifiers_or_overlapping_ticks(
    outside, tmp_path
):
    work, _ = outside
    out = build(work / "r.jsonl", tmp_path / "user")
    assert out.ok, [str(e) for e in out.errors]
    assert not [w for w in out.warnings if "Overfull" in w.message]
    assert report_problems(tmp_path / "user", list(load(work / "r.jsonl")), pdf=True) == []
    build(FIX / "report_results.jsonl", tmp_path / "builtin", papers=["nfa"])
    results = [r for r in load(FIX / "report_results.jsonl") if r.paper == "nfa"]
    assert report_problems(tmp_path / "builtin", results, pdf=True) == []


#: The checks' ASCII math as their summaries write it (nfa, gda, pegr, toef): each is typeset.
ASCII_MATH = (
    "residuals: max_k|O_k - (1/(N tau)) sum_i s_ki r_i|, kappa=1: mean_k (N tau O_k/kappa - "
    "g_k)^2 / mean_k g_k^2 over g([-1,1]^2); ||R(tau)||_2 = O(tau^-2) and |det A|^-1 = 2 for "
    "sup_{tau >= tau_0} with v_bar=0, theta = 0, F = span{phi_k}, pi(g_a) O(S); "
    "vec(A)^T vec(B) = tr(A^T B), X^* P^* P X, (Q^T)^+; 2 sqrt(std_paper^2 + std_measured^2); "
    "flags worst_in_eps and no_normalization stay words"
)


@pytest.mark.slow
@pytest.mark.skipif(not latex_engine_available() or not shutil.which("pdftotext"),
                    reason="latexmk/pdflatex or pdftotext is not installed")
def test_ascii_math_in_a_summary_is_typeset_in_the_pdf(tmp_path, monkeypatch):
    """The fixture's first claim with the checks' ASCII math as its summary: its PDF holds no
    raw ^/_ math; with the converter switched off the same PDF does (the check can fail)."""
    record = json.loads((FIX / "report_results.jsonl").read_text("utf-8").splitlines()[0])
    record["summary"] = record["evidence"][0]["summary"] = ASCII_MATH
    results = tmp_path / "r.jsonl"
    results.write_text(json.dumps(record) + "\n", "utf-8")

    def raw_in_pdf(out: Path) -> list[str]:
        out_res = build(results, out, papers=[record["paper"]])
        assert out_res.ok, [str(e) for e in out_res.errors]
        text = subprocess.run(["pdftotext", str(out / f"{record['paper']}.pdf"), "-"],
                              capture_output=True, text=True, check=True).stdout
        assert "worst_in_eps" in text and "no_normalization" in text  # identifiers as written
        return raw_math(text, {record["id"]})

    assert raw_in_pdf(tmp_path / "typeset") == []
    monkeypatch.setattr(asciimath, "spans", lambda text: [])
    assert len(raw_in_pdf(tmp_path / "raw")) >= 10


@pytest.mark.skipif(not os.environ.get("VERIFY_REPORT_DIR"),
                    reason="VERIFY_REPORT_DIR names no built report to check")
def test_a_built_report_passes_the_checks():
    out_dir = Path(os.environ["VERIFY_REPORT_DIR"])
    sources = [Path(p) for p in os.environ.get("VERIFY_REPORT_FROM", "").split(":") if p]
    results = [r for src in sources
               for f in (sorted(src.glob("*.jsonl")) if src.is_dir() else [src])
               for r in load(f)]
    problems = report_problems(out_dir, results, pdf=any(out_dir.glob("*.pdf")))
    assert problems == [], "\n".join(problems[:40]) + f"\n({len(problems)} in all)"


def test_log_axis_tick_labels_that_overlap_are_found_and_thinned(monkeypatch):
    """A log axis over one and a half decades labels 2, 3, 4, 6 x 10^1 on top of each other
    (toef.lemma2_depth's figure); the check sees it, and the figure as saved has none."""
    xs = [16.0, 32.0, 64.0, 128.0, 256.0, 512.0]
    spec = {"kind": "rate", "x": xs, "y": [0.13 / x for x in xs], "slope": -0.986,
            "claimed_slope": -1.0, "xlabel": "T", "ylabel": "split - ref"}
    seen = {}

    def keep(fig, path):
        seen["before"] = figures.tick_overlaps(fig)
        figures._declutter(fig)
        seen["after"] = figures.tick_overlaps(fig)
        seen["labels"] = [t.get_text() for t in fig.axes[0].xaxis.get_ticklabels(which="both")
                          if t.get_visible() and t.get_text()]

    monkeypatch.setattr(figures, "_save", keep)
    figures.draw(spec, Path("unused.pdf"))
    assert seen["before"] and seen["after"] == []
    assert len(seen["labels"]) >= 2  # thinned, not emptied

"""verify.report.build: documents from a fixed results file; golden .tex; PDF; hostile input.

The golden ``.tex`` files in ``tests/golden/`` pin the output for the fixture; after an
intended change of the templates, regenerate them with ``VERIFY_UPDATE_GOLDEN=1 pytest
tests/engine/test_report.py`` and review the diff.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from verify.errors import ReportError
from verify.report import build, latex_engine_available
from verify.report.compile import compile_tex
from verify.results import load

HERE = Path(__file__).parent.parent
FIXTURE = HERE / "fixtures" / "report_results.jsonl"
GOLDEN = HERE / "golden"
DOCS = ("summary", "nfa", "gda")
PWNED = Path("/tmp/verify-report-pwned")

needs_tex = pytest.mark.skipif(not latex_engine_available(), reason="no latexmk/pdflatex")
needs_pdftotext = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="no pdftotext")


@pytest.fixture(scope="module")
def tex_only(tmp_path_factory):
    out = tmp_path_factory.mktemp("report-tex")
    return out, build(FIXTURE, out, compile=False)


@pytest.fixture(scope="module")
def compiled(tmp_path_factory):
    if not latex_engine_available():
        pytest.skip("no latexmk/pdflatex")
    PWNED.unlink(missing_ok=True)
    out = tmp_path_factory.mktemp("report-pdf")
    return out, build(FIXTURE, out)


def pdf_text(path: Path) -> str:
    return subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout


# -- .tex --------------------------------------------------------------------------------------
def test_writes_one_document_per_paper_and_a_summary(tex_only):
    out, res = tex_only
    assert sorted(p.name for p in res.tex) == sorted(f"{d}.tex" for d in DOCS)
    assert res.pdf == [] and not res.compiled
    assert len(res.figures) == 3 and all(
        p.exists() and p.read_bytes().startswith(b"%PDF") for p in res.figures
    )
    assert not res.warnings


@pytest.mark.parametrize("doc", DOCS)
def test_tex_matches_golden(tex_only, doc):
    out, _ = tex_only
    got = (out / f"{doc}.tex").read_text(encoding="utf-8")
    golden = GOLDEN / f"{doc}.tex"
    if os.environ.get("VERIFY_UPDATE_GOLDEN"):
        GOLDEN.mkdir(exist_ok=True)
        golden.write_text(got, encoding="utf-8")
    assert got == golden.read_text(encoding="utf-8"), f"{doc}.tex differs from tests/golden"


def test_tex_is_deterministic_and_has_no_absolute_paths(tex_only, tmp_path):
    out, _ = tex_only
    build(FIXTURE, tmp_path, compile=False)
    for doc in DOCS:
        a = (out / f"{doc}.tex").read_text(encoding="utf-8")
        assert a == (tmp_path / f"{doc}.tex").read_text(encoding="utf-8")
        assert (
            str(out) not in a
            and str(HERE) not in a
            and "/tmp/" not in a.replace("verify-report-pwned", "")
        )


def test_summary_lists_every_claim_refuted_first(tex_only):
    out, _ = tex_only
    tex = (out / "summary.tex").read_text(encoding="utf-8")
    ids = [r.id for r in load(FIXTURE)]
    positions = {i: tex.find(r"\texttt{" + i.replace("_", r"\_").split(".")[0]) for i in ids}
    assert all(p >= 0 for p in positions.values())
    table = tex[tex.index("Every claim, refuted first") :]
    first_rows = [line for line in table.splitlines()
                  if line.startswith(r"{\scriptsize\texttt{")][:2]
    assert "vfREFUTED" in first_rows[0] and "vfNOTREPRODUCED" in first_rows[1]


def test_hostile_strings_never_reach_tex_as_commands(tex_only):
    out, _ = tex_only
    for doc in DOCS:
        tex = (out / f"{doc}.tex").read_text(encoding="utf-8")
        body = tex[tex.index(r"\begin{document}") :]
        for macro in ("input", "write", "immediate", "openin", "read", "catcode", "def"):
            assert not re.search(r"\\" + macro + r"(?![A-Za-z])", body), (doc, macro)
        assert "^^5c" not in body


def test_paper_selection(tmp_path):
    res = build(FIXTURE, tmp_path, papers=["gda"], compile=False)
    assert sorted(p.name for p in res.tex) == ["gda.tex", "summary.tex"]
    assert "nfa." not in (tmp_path / "summary.tex").read_text(encoding="utf-8")
    with pytest.raises(ReportError, match="no results for paper"):
        build(FIXTURE, tmp_path, papers=["nope"], compile=False)


def test_without_provenance_says_not_recorded(tmp_path):
    results = tmp_path / "r.jsonl"
    shutil.copyfile(FIXTURE, results)  # no .meta.json beside it
    build(results, tmp_path / "out", compile=False)
    assert "not recorded" in (tmp_path / "out" / "summary.tex").read_text(encoding="utf-8")


def test_bad_figure_data_is_a_warning_not_a_crash(tmp_path):
    import json

    lines = FIXTURE.read_text(encoding="utf-8").splitlines()
    d = json.loads(lines[0])
    d["evidence"][0]["figures"] = [{"kind": "rate", "x": [1, 2], "y": ["a", "b"]}, {"kind": "pie"}]
    (tmp_path / "r.jsonl").write_text(json.dumps(d) + "\n", encoding="utf-8")
    res = build(tmp_path / "r.jsonl", tmp_path / "out", compile=False)
    assert len(res.warnings) == 2 and not res.figures


# -- PDF ---------------------------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.pdf
@needs_tex
@needs_pdftotext
def test_pdfs_hold_claim_ids_and_verdicts(compiled):
    out, res = compiled
    assert sorted(p.name for p in res.pdf) == sorted(f"{d}.pdf" for d in DOCS)
    texts = {d: pdf_text(out / f"{d}.pdf") for d in DOCS}
    for r in load(FIXTURE):
        verdict = r.verdict.value.replace("_", " ")
        for doc in ("summary", r.paper):
            flat = re.sub(r"\s+", "", texts[doc])
            assert r.id.replace(" ", "") in flat, (doc, r.id)
            assert verdict in texts[doc], (doc, verdict)


@pytest.mark.pdf
@needs_tex
@needs_pdftotext
def test_hostile_statement_reads_no_file_runs_nothing_breaks_no_page(compiled):
    out, res = compiled
    text = pdf_text(out / "gda.pdf")
    assert "root:x:0:0" not in text and not PWNED.exists()
    assert "\\input{/etc/passwd}" in text  # shown, as text
    # the claims after the hostile one still have their pages
    for later in ("gda.broken.math", "gda.rate.timeout", "Provenance"):
        assert later in text


@pytest.mark.pdf
@needs_tex
def test_tex_error_names_the_claim_and_is_isolated(compiled):
    out, res = compiled
    assert [(e.document, e.claim) for e in res.errors] == [("gda.tex", "gda.broken.math")]
    err = res.errors[0]
    assert "Double superscript" in err.message and "gda.tex:" in err.log
    tex = (out / "gda.tex").read_text(encoding="utf-8")
    assert "could not be typeset" in tex  # the written .tex is the one that compiled


@pytest.mark.pdf
@needs_tex
def test_engine_is_locked_down_even_without_the_sanitizer(tmp_path):
    raw = (
        "\\documentclass{article}\\begin{document}\n"
        "\\immediate\\write18{touch %s}\n"
        "\\makeatletter\\@@input /etc/hostname \\relax\n"
        "\\end{document}\n"
    ) % (tmp_path / "pwned")
    res = compile_tex(raw, "raw")
    assert not (tmp_path / "pwned").exists()
    assert res.errors and any(
        "hostname" in e.message or "hostname" in e.excerpt for e in res.errors
    )

"""One claim's huge text never costs another claim its page, and a PDF is said to be built
only when it is complete."""

from __future__ import annotations

import importlib
import shutil
from pathlib import Path

import pytest

from verify import ClaimResult, Evidence, Verdict
from verify.report import build
from verify.report import compile as tex_compile
from verify.results import write_all

build_module = importlib.import_module("verify.report.build")
needs_tex = pytest.mark.skipif(not tex_compile.latex_engine_available(),
                               reason="no TeX engine")


def _results(tmp_path: Path, statement: str, summary: str = "fine") -> Path:
    long = ClaimResult(id="big.long", paper="big", verdict=Verdict.SUPPORTED, summary=summary,
                       statement=statement, kind="property", where="l. 1",
                       evidence=[Evidence(Verdict.SUPPORTED, summary, numbers={"n": 1})])
    short = ClaimResult(id="big.short", paper="big", verdict=Verdict.SUPPORTED,
                        summary="the neighbour", statement="$1 + 1 = 2$", kind="identity",
                        where="l. 2",
                        evidence=[Evidence(Verdict.SUPPORTED, "the neighbour",
                                           numbers={"n": 1})])
    path = tmp_path / "r.jsonl"
    write_all(path, [long, short])
    return path


def _text(pdf: Path) -> str:
    import subprocess

    if not shutil.which("pdftotext"):
        pytest.skip("no pdftotext")
    return subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True,
                          timeout=60).stdout


@needs_tex
@pytest.mark.parametrize("statement", [
    "word " * 50_000,                # 250,000 characters of prose on one line
    "$" + "x + " * 60_000 + "1$",    # one 240,000-character formula
])
def test_a_huge_claim_text_does_not_cost_the_paper(tmp_path, statement):
    out = build(str(_results(tmp_path, statement)), tmp_path / "rep")
    pdf = tmp_path / "rep" / "big.pdf"
    assert pdf in out.pdf, [str(e) for e in out.errors]
    assert tex_compile.pdf_complete(pdf)
    text = _text(pdf)
    assert "big.short" in text and "the neighbour" in text
    assert "characters not shown" in " ".join(text.split())


def test_a_truncated_pdf_is_not_announced_as_built(tmp_path, monkeypatch):
    real = tmp_path / "real.pdf"
    real.write_bytes(b"%PDF-1.5\n1 0 obj\n<< >>\nendobj\n")  # no trailer, no %%EOF: cut short

    def fake_compile(tex, name, assets=None, **kw):
        copy = tmp_path / f"{name}-out.pdf"
        shutil.copyfile(real, copy)
        return tex_compile.CompileResult(copy, [], "", 0)

    monkeypatch.setattr(build_module.tex_compile, "compile_tex", fake_compile)
    monkeypatch.setattr(build_module, "latex_engine_available", lambda: True)
    out = build(str(_results(tmp_path, "$x$")), tmp_path / "rep")
    assert not out.pdf
    assert any("incomplete" in str(e) for e in out.errors), [str(e) for e in out.errors]
    assert not (tmp_path / "rep" / "big.pdf").exists()


def test_pdf_complete_reads_the_trailer(tmp_path):
    bad = tmp_path / "bad.pdf"
    bad.write_bytes(b"%PDF-1.5\n" + b"x" * 100)
    assert not tex_compile.pdf_complete(bad)
    assert not tex_compile.pdf_complete(tmp_path / "missing.pdf")

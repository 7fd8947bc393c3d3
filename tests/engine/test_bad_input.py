"""Bad input gets one clear line naming the file, the line and the problem, and exit 2
(never a traceback, never exit 1, which means drift)."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

import verify.discovery
from verify import Evidence, Verdict
from verify.cli import main
from verify.errors import ResultsFileError
from verify.results import ClaimResult, load


def _record(cid: str = "p.a", **changes) -> dict:
    d = ClaimResult(id=cid, paper="p", verdict=Verdict.SUPPORTED, summary="s", statement="x",
                    evidence=[Evidence(Verdict.SUPPORTED, "s")]).to_dict()
    d.update(changes)
    return d


def _line(**changes) -> str:
    return json.dumps(_record("p.bad", **changes))


BAD_LINES = {
    "a list": ("[1, 2]", "expected a JSON object, got list"),
    "null": ("null", "expected a JSON object, got null"),
    "a number": ("7", "expected a JSON object, got int"),
    "an int id": (_line(id=5), "id must be a non-empty string, got 5"),
    "a list paper": (_line(paper=["p"]), "paper must be a string, got ['p']"),
    "evidence a string": (_line(evidence="abc"), "evidence must be a list, got 'abc'"),
    "evidence items": (_line(evidence=[1]), "evidence 1 must be an object, got 1"),
    "evidence verdict": (_line(evidence=[{"verdict": "MAYBE", "summary": "s"}]),
                         "unknown verdict 'MAYBE'"),
    "evidence counterexample": (
        _line(evidence=[{"verdict": "UNDECIDED", "summary": "s", "counterexample": [1]}]),
        "evidence 1: counterexample must be an object or null, got [1]"),
    "evidence steps": (_line(evidence=[{"verdict": "UNDECIDED", "summary": "s", "steps": "x"}]),
                       "evidence 1: steps must be a list of strings, got 'x'"),
    "list readings": (_line(readings=[1]), "readings must be an object, got [1]"),
    "reading values": (_line(readings={"B": "x"}), "readings['B'] must be an object, got 'x'"),
    "null statement": (_line(statement=None), "statement must be a string, got None"),
    "verdict": (_line(verdict="MAYBE"), "unknown verdict 'MAYBE'"),
    "missing verdict": (json.dumps({"id": "p.bad", "paper": "p"}), "verdict is missing"),
    "run_seed": (_line(run_seed="abc"), "run_seed must be an integer, got 'abc'"),
    "elapsed": (_line(elapsed_s="soon"), "elapsed_s must be a number, got 'soon'"),
    "garbage": ("garbage", "not a JSON line"),
}


@pytest.fixture
def fixture_claims(monkeypatch):
    monkeypatch.setattr(verify.discovery, "DEFAULT_PACKAGES", ("verify_fixture_claims",))


def _bad_file(tmp_path: Path, bad: str) -> Path:
    path = tmp_path / "r.jsonl"
    good = json.dumps(_record("p.a"))
    path.write_text(f"{good}\n{bad}\n{json.dumps(_record('p.c'))}\n", encoding="utf-8")
    return path


def _one_line(capsys) -> str:
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1, err
    assert err.startswith("verify: error: ") and "Traceback" not in err
    return err


@pytest.mark.parametrize("case", sorted(BAD_LINES))
@pytest.mark.parametrize("command", ["report", "show"])
def test_a_malformed_line_is_one_error_naming_file_and_line(tmp_path, capsys, case, command):
    bad, problem = BAD_LINES[case]
    path = _bad_file(tmp_path, bad)
    if command == "report":
        argv = ["report", "--from", str(path), "--out", str(tmp_path / "out"), "--no-pdf"]
    else:
        argv = ["show", "p.a", "--from", str(path)]
    assert main(argv) == 2
    err = _one_line(capsys)
    assert f"{path}:2:" in err and problem in err, err


@pytest.mark.parametrize("only", ["garbage", "[1, 2]", "null", '{"id": "p.a", "ver'])
def test_a_file_whose_only_line_is_bad_is_not_empty(tmp_path, capsys, only):
    path = tmp_path / "r.jsonl"
    path.write_text(only + "\n")
    assert main(["report", "--from", str(path), "--out", str(tmp_path / "out"), "--no-pdf"]) == 2
    assert f"{path}:1:" in _one_line(capsys)


def test_a_truncated_last_line_is_skipped_with_a_warning(tmp_path, caplog):
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps(_record("p.a")) + '\n{"id": "p.b", "ver', encoding="utf-8")
    assert [r.id for r in load(path)] == ["p.a"]
    assert f"{path}:2:" in caplog.text and "skipped" in caplog.text


def test_garbage_as_the_last_complete_line_is_an_error(tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps(_record("p.a")) + "\ngarbage\n", encoding="utf-8")
    with pytest.raises(ResultsFileError, match=r"r.jsonl:2: not a JSON line"):
        load(path)


def test_a_folder_or_undecodable_file_is_a_results_file_error(tmp_path, capsys):
    assert main(["show", "p.a", "--from", str(tmp_path)]) == 2
    assert str(tmp_path) in _one_line(capsys)
    path = tmp_path / "r.jsonl"
    path.write_bytes(json.dumps(_record("p.a")).encode() + b"\n\xff\xfe{}\n")
    assert main(["show", "p.a", "--from", str(path)]) == 2
    assert f"{path}:2:" in _one_line(capsys)


# -- the report's output folder -----------------------------------------------------------------
def _good_file(tmp_path: Path) -> Path:
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps(_record("p.a")) + "\n", encoding="utf-8")
    return path


def test_report_out_that_is_a_file(tmp_path, capsys):
    src = _good_file(tmp_path)
    out = tmp_path / "out"
    out.write_text("x")
    assert main(["report", "--from", str(src), "--out", str(out), "--no-pdf"]) == 2
    err = _one_line(capsys)
    assert str(out) in err and "not a folder" in err


def test_report_out_that_cannot_be_written(tmp_path, capsys, monkeypatch):
    src = _good_file(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    if os.geteuid() == 0:  # root writes anywhere: make the write itself fail
        real = Path.write_text

        def refuse(self, *a, **k):
            if self.parent == out:
                raise PermissionError(13, "Permission denied", str(self))
            return real(self, *a, **k)

        monkeypatch.setattr(Path, "write_text", refuse)
    else:
        out.chmod(0o555)
    try:
        assert main(["report", "--from", str(src), "--out", str(out), "--no-pdf"]) == 2
    finally:
        out.chmod(0o755)
    err = _one_line(capsys)
    assert str(out) in err and "Permission denied" in err


# -- run's arguments ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "args, problem",
    [
        (["--json", ""], "results file name is empty"),
        (["--json", "."], "is a folder"),
        (["--timeout", "inf"], "timeout must be a positive, finite number of seconds, got inf"),
        (["--timeout", "nan"], "timeout must be a positive, finite number of seconds, got nan"),
        (["--timeout", "-1"], "timeout must be a positive, finite number of seconds, got -1"),
        (["--timeout", "0"], "timeout must be a positive, finite number of seconds, got 0"),
    ],
)
def test_run_arguments_are_checked_before_anything_is_written(
    tmp_path, capsys, fixture_claims, args, problem
):
    assert main(["run", "--claim", "fx.good_first", "--jobs", "0", *args]) == 2
    err = _one_line(capsys)
    assert problem in err
    assert list(tmp_path.iterdir()) == []


def test_run_into_a_folder_names_it(tmp_path, capsys, fixture_claims):
    (tmp_path / "r").mkdir()
    assert main(["run", "--claim", "fx.good_first", "--jobs", "0", "--json", "r"]) == 2
    assert "'r' is a folder" in _one_line(capsys)


# -- TeX time per claim -------------------------------------------------------------------------
@pytest.mark.pdf
def test_a_statement_that_makes_tex_crawl_costs_only_its_own_claim(tmp_path):
    from verify.report import build, latex_engine_available

    if not latex_engine_available():
        pytest.skip("no TeX engine")
    path = tmp_path / "r.jsonl"
    heavy = r"\left(\begin{array}{*{99999}{c}} a & b \end{array}\right)"
    lines = [_record("p.a", statement=r"x^2 \geq 0"), _record("p.heavy", statement=heavy)]
    path.write_text("".join(json.dumps(d) + "\n" for d in lines), encoding="utf-8")
    t0 = time.monotonic()
    out = build(path, tmp_path / "out")
    assert time.monotonic() - t0 < 60
    assert (tmp_path / "out" / "p.pdf").exists() and (tmp_path / "out" / "summary.pdf").exists()
    assert "p.a" in (tmp_path / "out" / "p.tex").read_text()
    assert all(e.claim in (None, "p.heavy") for e in out.errors)


@pytest.mark.pdf
def test_tex_stuck_on_one_claim_is_stopped_and_that_claim_named(tmp_path, monkeypatch):
    """The second wall: a statement the sanitizer lets through but TeX crawls over is
    stopped after CLAIM_TIMEOUT_S on that claim, named, and shown as text."""
    from verify.report import build, compile, latex, latex_engine_available

    if not latex_engine_available():
        pytest.skip("no TeX engine")
    monkeypatch.setattr(latex, "MAX_COLUMNS", 10**6)
    monkeypatch.setattr(compile, "CLAIM_TIMEOUT_S", 3)
    path = tmp_path / "r.jsonl"
    heavy = r"\begin{array}{*{99999}{c}} a & b \end{array}"
    lines = [_record("p.a", statement=r"x^2 \geq 0"), _record("p.heavy", statement=heavy),
             _record("p.z", statement=r"y \leq 1")]
    path.write_text("".join(json.dumps(d) + "\n" for d in lines), encoding="utf-8")
    t0 = time.monotonic()
    out = build(path, tmp_path / "out", papers=["p"])
    assert time.monotonic() - t0 < 60
    assert [(e.claim, "on one claim" in e.message) for e in out.errors] == [("p.heavy", True)]
    assert (tmp_path / "out" / "p.pdf").exists()
    assert "could not be typeset" in (tmp_path / "out" / "p.tex").read_text()

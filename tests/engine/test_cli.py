"""The command line: list, run exit codes, one-line usage errors, show."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

FIX = Path(__file__).parent.parent / "fixtures"


def verify_cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(FIX), *sys.path]), COLUMNS="200")
    code = ("import sys, verify.discovery as r; r.DEFAULT_PACKAGES=('verify_fixture_claims',); "
            "from verify.cli import main; sys.exit(main(sys.argv[1:]))")
    return subprocess.run([sys.executable, "-c", code, *args], env=env, cwd=cwd,
                          capture_output=True, text=True, timeout=300)


def test_list_json():
    p = verify_cli("list", "--json")
    assert p.returncode == 0, p.stderr
    rows = json.loads(p.stdout)
    keys = ("id", "paper", "where", "kind", "expect")
    assert {"id": "fx.good_first", "paper": "fx", "where": "l. 1", "kind": "identity",
            "expect": "SUPPORTED"} in [{k: row.get(k) for k in keys} for row in rows]


def test_run_exit_zero_when_verdicts_match(tmp_path):
    p = verify_cli("run", "--claim", "fx.good_first", "--json", str(tmp_path / "r.jsonl"),
                   cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert "SUPPORTED" in p.stdout and "fx.good_first" in p.stdout
    assert json.loads((tmp_path / "r.jsonl").read_text())["verdict"] == "SUPPORTED"


def test_run_exit_one_on_drift(tmp_path):
    p = verify_cli("run", "--claim", "fx.good_*", "--json", str(tmp_path / "r.jsonl"))
    assert p.returncode == 1
    assert "1 verdict differs from its expect=: fx.good_last" in p.stdout


@pytest.mark.parametrize(
    "args, message",
    [
        (["run", "--claim", "nope.*"], "verify: error: --claim 'nope.*' matches no claim"),
        (["run", "--paper", "zz"], "verify: error: no claims for paper 'zz'"),
        (["run", "--jobs", "many"], "verify: error: argument --jobs: invalid int value: 'many'"),
        (["run", "--profile", "slow"], "verify: error: argument --profile: invalid choice"),
        (["show", "fx.nothing"], "verify: error: no claim 'fx.nothing'"),
    ],
)
def test_usage_errors_are_one_line_with_status_2(args, message):
    p = verify_cli(*args)
    assert p.returncode == 2
    assert p.stderr.startswith(message)
    assert len(p.stderr.strip().splitlines()) == 1
    assert "Traceback" not in p.stderr


def test_show_prints_the_evidence_from_a_results_file(tmp_path):
    path = tmp_path / "r.jsonl"
    verify_cli("run", "--claim", "fx.raises", "--json", str(path))
    p = verify_cli("show", "fx.raises", "--from", str(path))
    assert p.returncode == 0, p.stderr
    assert "UNDECIDED" in p.stdout and "the check is broken" in p.stdout
    assert "verify run --claim fx.raises --seed 0" in p.stdout


def test_show_runs_a_claim_missing_from_the_results(tmp_path):
    p = verify_cli("show", "fx.good_first", "--from", str(tmp_path / "none.jsonl"), cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert "drew four numbers" in p.stdout


@pytest.mark.pdf
def test_report_recovers_one_claims_bad_math_and_exits_zero(tmp_path):
    from verify.report import latex_engine_available

    if not latex_engine_available():
        pytest.skip("no TeX engine")
    fixture = Path(__file__).parent.parent / "fixtures" / "report_results.jsonl"
    p = verify_cli("report", "--from", str(fixture), "--out", str(tmp_path), "--paper", "gda")
    assert p.returncode == 0, p.stdout + p.stderr
    assert "recovered (math shown as text):" in p.stdout and "gda.broken.math" in p.stdout
    assert (tmp_path / "gda.pdf").exists() and (tmp_path / "summary.pdf").exists()


def test_report_from_a_missing_file_is_a_usage_error(tmp_path):
    p = verify_cli("report", "--from", str(tmp_path / "none.jsonl"), "--out", str(tmp_path))
    assert p.returncode == 2
    assert p.stderr.startswith("verify: error:") and "does not exist" in p.stderr

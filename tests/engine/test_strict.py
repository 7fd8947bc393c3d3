"""A crashed or timed-out claim: ClaimResult.error, Results.crashed / strict_exit_code, and
``verify run --strict``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import verify
from verify import ClaimResult, Results, Verdict
from verify.context import Context
from verify.execute import execute
from verify.registry import Claim

FIX = Path(__file__).parent.parent / "fixtures"


def result(cid: str, verdict: Verdict, expect: Verdict | None = None,
           error: str | None = None) -> ClaimResult:
    return ClaimResult(id=cid, paper="p", verdict=verdict, summary="s", expect=expect,
                       error=error)


def test_strict_exit_code_counts_crashes_without_expect():
    ok = result("p.ok", Verdict.UNDECIDED)  # informal: no expect, no error
    crashed = result("p.crash", Verdict.UNDECIDED, error="check f raised ValueError: x")
    assert not ok.crashed and crashed.crashed
    assert Results([ok]).strict_exit_code == 0
    both = Results([ok, crashed])
    assert both.exit_code == 0 and both.strict_exit_code == 1
    assert [r.id for r in both.crashed] == ["p.crash"]
    drifted = Results([result("p.d", Verdict.REFUTED, expect=Verdict.PROVED)])
    assert drifted.exit_code == 1 and drifted.strict_exit_code == 1


def _claim(*checks) -> Claim:
    return Claim(id="p.c", paper="p", where="l. 1", statement="s", kind="property",
                 expect=None, checks=list(checks))


def test_a_check_that_raises_or_returns_garbage_sets_the_error():
    def good(ctx):
        return verify.Evidence(Verdict.SUPPORTED, "fine")

    def bad(ctx):
        raise ValueError("the check is broken")

    def garbage(ctx):
        return 42

    r = execute(_claim(good, bad, garbage), Context(claim_id="p.c"))
    assert r.error.startswith("check ")
    assert "raised ValueError: the check is broken" in r.error and r.error.endswith("(and 1 more)")
    assert execute(_claim(good), Context(claim_id="p.c")).error is None
    undecided = execute(_claim(lambda ctx: verify.Evidence.informal("no test named")),
                        Context(claim_id="p.c"))
    assert undecided.verdict is Verdict.UNDECIDED and undecided.error is None


def verify_cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(FIX), *sys.path]), COLUMNS="200")
    code = ("import sys, verify.discovery as r; r.DEFAULT_PACKAGES=('verify_fixture_claims',); "
            "from verify.cli import main; sys.exit(main(sys.argv[1:]))")
    return subprocess.run([sys.executable, "-c", code, *args], env=env, cwd=cwd,
                          capture_output=True, text=True, timeout=300)


@pytest.mark.slow
def test_run_strict_exits_one_on_a_crash_or_timeout_without_expect(tmp_path):
    out = tmp_path / "r.jsonl"
    args = ("run", "--claim", "fx.raises", "--claim", "fx.hangs", "--timeout", "2", "--json",
            str(out), "--quiet")
    plain = verify_cli(*args, cwd=tmp_path)
    assert plain.returncode == 3, plain.stderr  # a check that raised is ERROR
    records = {d["id"]: d for d in map(json.loads, out.read_text().splitlines())}
    assert "raised ValueError" in records["fx.raises"]["error"]
    assert "timeout" in records["fx.hangs"]["error"]
    strict = verify_cli(*args, "--strict", cwd=tmp_path)
    assert strict.returncode == 3, strict.stderr  # ERROR first
    assert "2 claims crashed or timed out (--strict): fx.raises, fx.hangs" in strict.stdout
    hangs = ("run", "--claim", "fx.hangs", "--timeout", "2", "--json", str(out), "--quiet")
    assert verify_cli(*hangs, cwd=tmp_path).returncode == 0  # a timeout alone: UNDECIDED
    assert verify_cli(*hangs, "--strict", cwd=tmp_path).returncode == 1


def test_run_strict_exits_zero_when_nothing_crashed(tmp_path):
    p = verify_cli("run", "--claim", "fx.good_first", "--strict", "--quiet", "--json",
                   str(tmp_path / "r.jsonl"), cwd=tmp_path)
    assert p.returncode == 0, p.stderr + p.stdout


def test_help_documents_strict(tmp_path):
    p = verify_cli("run", "--help", cwd=tmp_path)
    assert p.returncode == 0
    assert "--strict" in p.stdout and "crashed or timed out" in " ".join(p.stdout.split())

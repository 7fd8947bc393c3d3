"""A claim whose own code crashes is ERROR, not an UNDECIDED verdict.

A check that raises (a NameError, a wrong keyword, a wrong shape, a bad group name) or
returns something that is not evidence is a bug in the claim: its status is ERROR in the
run's table, its JSONL record and the report, with the last frame of the traceback in the
claim's file; the closing line counts it apart with the command that shows it, and
``verify run`` exits 3. A claim that runs out of time or whose process is killed stays
UNDECIDED with the reason (a limit of the run, not a fault of the code)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import verify
from verify import Verdict

CLAIMS = '''
import os, signal, time
import verify
from verify import Evidence, Verdict


@verify.claim("err.name", paper="err", where="l. 1", statement="x", kind="property")
def name_error(ctx):
    value = 1
    return undefined_name + value  # line 10: NameError


@verify.claim("err.kwarg", paper="err", where="l. 2", statement="x", kind="property")
def wrong_keyword(ctx):
    from verify.testing import assert_equivariant
    return assert_equivariant(lambda x: x, group="permutation", shape=(3, 2), nonsense=1)


@verify.claim("err.group", paper="err", where="l. 3", statement="x", kind="property")
def bad_group(ctx):
    from verify.testing import assert_equivariant
    return assert_equivariant(lambda x: x, group="no-such-group", shape=(3, 2))


@verify.claim("err.ok", paper="err", where="l. 4", statement="x", kind="property")
def fine(ctx):
    return Evidence(Verdict.SUPPORTED, "fine", numbers={"worst": 0.0})


@verify.claim("err.slow", paper="err", where="l. 5", statement="x", kind="property",
              timeout=1)
def slow(ctx):
    time.sleep(60)


@verify.claim("err.killed", paper="err", where="l. 6", statement="x", kind="property")
def killed(ctx):
    os.kill(os.getpid(), signal.SIGKILL)
'''


@pytest.fixture(scope="module")
def claims_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("claims") / "err_claims.py"
    path.write_text(textwrap.dedent(CLAIMS))
    return path


def _run(claims_file: Path, out: Path, select):
    return verify.run(select, modules=[f"file:{claims_file}"], jobs=1, results_path=out)


def test_a_check_that_raises_is_ERROR_with_the_line_in_the_claims_file(tmp_path, claims_file):
    out = tmp_path / "r.jsonl"
    results = _run(claims_file, out, ["err.name", "err.kwarg", "err.group", "err.ok"])
    for cid in ("err.name", "err.kwarg", "err.group"):
        assert results[cid].verdict is Verdict.ERROR, (cid, results[cid].summary)
        assert results[cid].crashed
    name = results["err.name"]
    assert "NameError" in name.summary and "undefined_name" in name.summary
    assert f"{claims_file.name}:10" in name.error  # the last frame in the claim's file
    assert "TypeError" in results["err.kwarg"].summary
    assert f"{claims_file.name}:" in results["err.group"].error
    assert results["err.ok"].verdict is Verdict.SUPPORTED
    records = {d["id"]: d for d in map(json.loads, out.read_text().splitlines())}
    assert records["err.name"]["verdict"] == "ERROR"
    assert records["err.ok"]["verdict"] == "SUPPORTED"
    loaded = verify.load_results(out)
    assert loaded["err.name"].verdict is Verdict.ERROR


def test_a_timeout_or_a_killed_process_stays_undecided(tmp_path, claims_file):
    results = _run(claims_file, tmp_path / "r.jsonl", ["err.slow", "err.killed"])
    slow, killed = results["err.slow"], results["err.killed"]
    assert slow.verdict is Verdict.UNDECIDED and "timeout" in slow.summary
    assert killed.verdict is Verdict.UNDECIDED and "SIGKILL" in killed.summary
    assert slow.crashed and killed.crashed  # --strict still fails on them


def test_exit_codes_of_results():
    from verify import ClaimResult, Results

    def r(cid, verdict, expect=None, error=None):
        return ClaimResult(id=cid, paper="p", verdict=verdict, summary="s", expect=expect,
                           error=error)

    ok = r("p.ok", Verdict.SUPPORTED)
    err = r("p.e", Verdict.ERROR, error="check f raised NameError: x")
    timed_out = r("p.t", Verdict.UNDECIDED, error="timeout: ...")
    drift = r("p.d", Verdict.REFUTED, expect=Verdict.PROVED)
    assert Results([ok]).exit_code == 0
    assert Results([ok, err]).exit_code == 3 and Results([ok, err]).strict_exit_code == 3
    assert Results([ok, err, drift]).exit_code == 3  # a broken claim comes first
    assert Results([ok, timed_out]).exit_code == 0
    assert Results([ok, timed_out]).strict_exit_code == 1
    assert Results([ok, drift]).exit_code == 1
    assert [x.id for x in Results([ok, err, timed_out]).errored] == ["p.e"]


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, COLUMNS="200")
    env["PYTHONPATH"] = os.pathsep.join(sys.path)
    return subprocess.run([sys.executable, "-m", "verify", *args], env=env, cwd=cwd,
                          capture_output=True, text=True, timeout=600)


def test_cli_counts_errors_apart_and_exits_3(tmp_path, claims_file):
    out = tmp_path / "r.jsonl"
    p = _cli("run", str(claims_file), "--claim", "err.name", "--claim", "err.ok",
             "--json", str(out), "--quiet", cwd=tmp_path)
    assert p.returncode == 3, p.stdout + p.stderr
    text = " ".join(p.stdout.split())
    assert "ERROR" in text
    assert "1 claim errored" in text and "verify show err.name" in text
    shown = _cli("show", "err.name", "--from", str(out), cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert "ERROR" in shown.stdout and "UNDECIDED" not in shown.stdout.split("\n")[1]
    assert f"{claims_file.name}:10" in shown.stdout


def test_run_help_documents_the_exit_codes(tmp_path):
    p = _cli("run", "--help", cwd=tmp_path)
    text = " ".join(p.stdout.split())
    assert "exit status" in text.lower()
    assert "3" in text and "ERROR" in text


def test_report_shows_ERROR(tmp_path, claims_file):
    from verify import report

    out = tmp_path / "r.jsonl"
    _run(claims_file, out, ["err.name", "err.ok"])
    built = report.build([str(out)], tmp_path / "rep", compile=False)
    tex = "\n".join(Path(p).read_text() for p in built.tex)
    assert "ERROR" in tex
    assert "NameError" in tex


def test_running_out_of_memory_is_a_limit_not_an_error():
    from verify.context import Context
    from verify.execute import execute
    from verify.registry import Claim

    def hungry(ctx):
        raise MemoryError()

    class OutOfMemoryError(RuntimeError):  # as torch.cuda names it
        pass

    def gpu_hungry(ctx):
        raise OutOfMemoryError("CUDA out of memory")

    def typo(ctx):
        return undefined_in_test  # noqa: F821

    for check, verdict in ((hungry, Verdict.UNDECIDED), (gpu_hungry, Verdict.UNDECIDED),
                           (typo, Verdict.ERROR)):
        claim = Claim(id="p.c", paper="p", where="l. 1", statement="s", kind="property",
                      expect=None, checks=[check])
        r = execute(claim, Context(claim_id="p.c"))
        assert r.verdict is verdict, (check.__name__, r.summary)
        assert r.crashed  # --strict and --resume still see it

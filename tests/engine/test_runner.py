"""The runner survives claims that raise, hang, return NaN, abort, segfault or eat memory;
results stream to disk, resume loses and repeats nothing, and equal seeds give equal files."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import verify
from verify import Results, Verdict

FIXTURES = ["verify_fixture_claims"]


@pytest.fixture(scope="module")
def misbehaving(tmp_path_factory):
    path = tmp_path_factory.mktemp("run") / "results.jsonl"
    results = verify.run("fx.*", modules=FIXTURES, jobs=2, results_path=path, memory_gib=4)
    return results, path


@pytest.mark.slow
def test_every_claim_gets_a_result_in_claim_order(misbehaving):
    results, path = misbehaving
    ids = [r.id for r in results]
    assert ids == [c.id for c in verify.REGISTRY.select("fx.*")]
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert [d["id"] for d in lines] == ids
    for d in lines:
        assert {"id", "paper", "verdict", "summary", "expect", "elapsed_s", "evidence"} <= d.keys()


def test_well_behaved_claims_finish(misbehaving):
    results, _ = misbehaving
    assert results["fx.good_first"].verdict is Verdict.SUPPORTED
    assert results["fx.good_last"].verdict is Verdict.SUPPORTED


@pytest.mark.parametrize(
    "claim_id, reason",
    [
        ("fx.nan_numbers", "NaN among its numbers"),
        ("fx.hangs", "timeout: still running after its budget of 3 s; killed"),
        ("fx.aborts", "claim process killed by SIGABRT"),
        ("fx.segfaults", "claim process killed by SIGSEGV"),
        ("fx.eats_memory", "MemoryError"),
    ],
)
def test_misbehaving_claim_is_undecided_with_its_reason(misbehaving, claim_id, reason):
    r = misbehaving[0][claim_id]
    assert r.verdict is Verdict.UNDECIDED
    assert reason in r.summary


@pytest.mark.parametrize(
    "claim_id, reason",
    [
        ("fx.raises", "raised ValueError: the check is broken"),
        ("fx.nan", "returned nan, not Evidence"),
    ],
)
def test_claim_whose_code_crashes_is_error_with_its_reason(misbehaving, claim_id, reason):
    r = misbehaving[0][claim_id]
    assert r.verdict is Verdict.ERROR  # a bug in the claim, not a verdict
    assert reason in r.summary


def test_drift_from_expect_sets_exit_code(misbehaving):
    results, _ = misbehaving
    assert [r.id for r in results.drifted] == ["fx.good_last"]
    assert results.exit_code == 3  # fx.raises errored: that comes before the drift
    assert Results(results.drifted).exit_code == 1


def test_in_process_mode_gives_the_same_verdicts(tmp_path):
    sel = ["fx.good_first", "fx.raises", "fx.nan", "fx.nan_numbers", "fx.good_last"]
    a = verify.run(sel, modules=FIXTURES, jobs=0, results_path=tmp_path / "a.jsonl")
    b = verify.run(sel, modules=FIXTURES, jobs=1, results_path=tmp_path / "b.jsonl")
    assert a.verdicts() == b.verdicts()


def _strip_timings(text: str) -> list[dict]:
    def strip(obj):
        if isinstance(obj, dict):
            return {k: strip(v) for k, v in obj.items() if k != "elapsed_s"}
        if isinstance(obj, list):
            return [strip(v) for v in obj]
        return obj

    return [strip(json.loads(line)) for line in text.splitlines()]


def test_same_seed_gives_identical_results_files(tmp_path):
    sel = ["fx.good_first", "fx.raises", "fx.good_last"]
    files = []
    for name, jobs in (("a", 2), ("b", 1)):
        path = tmp_path / f"{name}.jsonl"
        verify.run(sel, modules=FIXTURES, jobs=jobs, seed=7, results_path=path)
        files.append(_strip_timings(path.read_text()))
    assert files[0] == files[1]
    other = tmp_path / "c.jsonl"
    verify.run(sel, modules=FIXTURES, jobs=1, seed=8, results_path=other)
    assert _strip_timings(other.read_text()) != files[0]  # the seed matters


def _cli(*args: str, **kw) -> subprocess.Popen:
    fixtures = str(Path(__file__).parent.parent / "fixtures")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([fixtures, *sys.path]))
    return subprocess.Popen([sys.executable, "-c", "import sys, verify.discovery as r; "
                             "r.DEFAULT_PACKAGES=('verify_fixture_slow',); "
                             "from verify.cli import main; sys.exit(main(sys.argv[1:]))", *args],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True, **kw)


def test_resume_after_interruption_loses_and_repeats_nothing(tmp_path):
    path = tmp_path / "results.jsonl"
    proc = _cli("run", "--json", str(path), "--jobs", "1", "--quiet")
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if path.exists() and len(path.read_text().splitlines()) >= 2:
            break
        time.sleep(0.1)
    os.killpg(proc.pid, signal.SIGKILL)  # a crash, not a polite stop
    proc.communicate()  # reaps it and closes its pipes
    with open(path, "a") as f:
        f.write('{"id": "slow.c5", "verd')  # the crash cut a line in half
    before = [line for line in path.read_text().splitlines() if line.endswith("}")]
    assert 2 <= len(before) < 6

    proc = _cli("run", "--json", str(path), "--jobs", "1", "--quiet", "--resume")
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err.decode()
    after = path.read_text().splitlines()
    ids = [json.loads(line)["id"] for line in after]
    assert sorted(ids) == [f"slow.c{i}" for i in range(6)]  # each claim exactly once
    for line in before:  # the finished claims were kept, not re-run
        assert line in after


def test_resume_reruns_a_claim_that_crashed_and_keeps_the_finished_ones(tmp_path):
    path = tmp_path / "r.jsonl"
    first = verify.run(["fx.good_first", "fx.raises"], modules=FIXTURES, jobs=0,
                       results_path=path)
    assert first["fx.raises"].crashed and not first["fx.good_first"].crashed
    ran: list[str] = []
    again = verify.run(["fx.good_first", "fx.raises"], modules=FIXTURES, jobs=0,
                       results_path=path, resume=True,
                       on_start=lambda todo: ran.extend(c.id for c in todo))
    assert ran == ["fx.raises"]
    assert again["fx.good_first"].to_dict() == first["fx.good_first"].to_dict()


def test_resume_reruns_claims_of_another_seed(tmp_path):
    path = tmp_path / "r.jsonl"
    verify.run(["fx.good_first"], modules=FIXTURES, jobs=0, seed=1, results_path=path)
    again = verify.run(["fx.good_first"], modules=FIXTURES, jobs=0, seed=2, results_path=path,
                       resume=True)
    assert again["fx.good_first"].run_seed == 2


def test_global_generators_are_seeded_from_the_claim_seed():
    import random

    import numpy as np
    import torch

    from verify.execute import reset_global_state

    reset_global_state(5)
    a = (random.random(), np.random.rand(), torch.rand(3))
    reset_global_state(5)
    b = (random.random(), np.random.rand(), torch.rand(3))
    assert a[:2] == b[:2] and torch.equal(a[2], b[2])  # accidental global draws repeat

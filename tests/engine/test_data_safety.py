"""Nothing lost, nothing poisoned: the test suite stays out of the checkout, a results file
has one writer, symlinks are never followed into another file, the provenance sidecar
describes the results beside it, and one claim's odd data costs only that claim."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import time
from decimal import Decimal
from pathlib import Path

import pytest

import verify
from verify import Evidence, Verdict, provenance
from verify.combine import audit
from verify.errors import ResultsFileError, UsageError
from verify.results import ClaimResult, append, load, write_all

REPO = Path(__file__).resolve().parents[2]
FIX = Path(__file__).parent.parent / "fixtures"
ODD = ["verify_fixture_odd"]
SLOW = ["verify_fixture_slow"]


# -- the suite writes only under tmp_path -------------------------------------------------------
def test_each_test_runs_in_its_own_tmp_path(tmp_path):
    """conftest chdirs every test into its tmp_path: a default path cannot hit the checkout."""
    assert Path.cwd() == tmp_path
    assert REPO not in Path.cwd().parents and Path.cwd() != REPO


def test_a_default_results_path_lands_in_tmp_path(tmp_path):
    before = {p: p.stat().st_mtime_ns for p in REPO.glob("results*") if p.is_file()}
    verify.run("odd.ok", modules=ODD, jobs=0)
    assert load(tmp_path / "results.jsonl")["odd.ok"].verdict is Verdict.SUPPORTED
    assert provenance.read(tmp_path / "results.jsonl")["complete"] is True
    after = {p: p.stat().st_mtime_ns for p in REPO.glob("results*") if p.is_file()}
    assert after == before


def test_no_test_names_a_results_path_outside_tmp_path():
    """No test passes no (or a fixed) results path: either would write over the results of
    a run in the working directory or in a shared folder."""
    bad = []
    tests = sorted(Path(__file__).parent.parent.rglob("test_*.py"))
    assert len(tests) > 50  # every folder of the suite, not only this one
    for test in tests:
        if test.name == Path(__file__).name:
            continue
        text = test.read_text(encoding="utf-8")
        for needle in ("results_path=None", 'results_path="/', "results_path='/", "mkdtemp("):
            if needle in text:
                bad.append(f"{test.name}: {needle}")
    assert not bad


# -- one writer per results file ----------------------------------------------------------------
def _cli(*args: str, modules: tuple[str, ...]) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(FIX), *sys.path]), COLUMNS="200")
    code = (f"import sys, verify.discovery as r; r.DEFAULT_PACKAGES={modules!r}; "
            "from verify.cli import main; sys.exit(main(sys.argv[1:]))")
    return subprocess.Popen([sys.executable, "-c", code, *args], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def test_a_second_run_on_the_same_results_file_fails_at_once_naming_the_holder(tmp_path):
    path = tmp_path / "r.jsonl"
    first = _cli("run", "--claim", "slow.*", "--jobs", "0", "--quiet", "--json", str(path),
                 modules=("verify_fixture_slow",))
    lock = tmp_path / "r.jsonl.lock"
    deadline = time.monotonic() + 120
    while not (lock.exists() and lock.read_text().strip()) and first.poll() is None:
        assert time.monotonic() < deadline, "the first run never took the lock"
        time.sleep(0.05)
    t0 = time.monotonic()
    second = _cli("run", "--claim", "slow.c0", "--jobs", "0", "--quiet", "--json", str(path),
                  modules=("verify_fixture_slow",))
    out2, err2 = second.communicate(timeout=120)
    out1, err1 = first.communicate(timeout=120)
    assert first.returncode == 0, err1
    assert second.returncode == 2, err2
    assert len(err2.strip().splitlines()) == 1, err2
    assert str(path) in err2 and f"pid {first.pid}" in err2 and "Traceback" not in err2
    assert time.monotonic() - t0 < 60
    assert [r.id for r in load(path)] == [f"slow.c{i}" for i in range(6)]  # nothing lost
    assert not lock.exists()  # released and removed with the run


def test_the_lock_is_released_when_a_run_is_interrupted(tmp_path):
    path = tmp_path / "r.jsonl"

    def stop(result):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        verify.run("odd.ok", modules=ODD, jobs=0, results_path=path, on_result=stop)
    verify.run("odd.ok", modules=ODD, jobs=0, results_path=path)  # not "in use"


# -- symlinks -----------------------------------------------------------------------------------
def test_a_symlinked_results_path_leaves_the_file_it_points_to_alone(tmp_path):
    victim = tmp_path / "victim.jsonl"
    victim.write_text("precious\n")
    link = tmp_path / "r.jsonl"
    link.symlink_to(victim)
    verify.run("odd.ok", modules=ODD, jobs=0, results_path=link)
    assert victim.read_text() == "precious\n"
    assert not link.is_symlink() and load(link)["odd.ok"].verdict is Verdict.SUPPORTED


def test_resume_through_a_symlink_leaves_its_target_alone(tmp_path):
    real = tmp_path / "real.jsonl"
    verify.run("odd.ok", modules=ODD, jobs=0, results_path=real)
    saved = real.read_text()
    link = tmp_path / "r.jsonl"
    link.symlink_to(real)
    verify.run(["odd.ok", "odd.surrogate"], modules=ODD, jobs=0, results_path=link, resume=True)
    assert real.read_text() == saved
    assert [r.id for r in load(link)] == ["odd.ok", "odd.surrogate"]


def test_append_does_not_follow_a_symlink(tmp_path):
    victim = tmp_path / "victim.jsonl"
    victim.write_text("precious\n")
    link = tmp_path / "r.jsonl"
    link.symlink_to(victim)
    r = ClaimResult(id="p.a", paper="p", verdict=Verdict.SUPPORTED, summary="s")
    with pytest.raises(ResultsFileError, match="symbolic link"):
        append(link, r)
    assert victim.read_text() == "precious\n"


def test_write_all_and_the_meta_do_not_follow_symlinks(tmp_path):
    victim = tmp_path / "victim"
    victim.write_text("precious\n")
    path = tmp_path / "r.jsonl"
    for name in ("r.jsonl.tmp", "r.meta.json"):
        (tmp_path / name).symlink_to(victim)
    r = ClaimResult(id="p.a", paper="p", verdict=Verdict.SUPPORTED, summary="s")
    write_all(path, [r])
    provenance.write(path, {"seed": 0})
    assert victim.read_text() == "precious\n"
    assert [x.id for x in load(path)] == ["p.a"] and provenance.read(path) == {"seed": 0}


# -- the provenance sidecar describes the results beside it -------------------------------------
def test_the_meta_of_an_interrupted_run_states_its_own_seed(tmp_path):
    path = tmp_path / "r.jsonl"
    verify.run("odd.ok", modules=ODD, jobs=0, results_path=path, seed=0)
    assert provenance.read(path)["seed"] == 0

    def stop(result):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        verify.run(["odd.ok", "odd.big_int"], modules=ODD, jobs=0, results_path=path, seed=5,
                   on_result=stop)
    meta = provenance.read(path)
    assert meta["seed"] == 5 and meta["complete"] is False
    assert {r.run_seed for r in load(path)} == {5}
    from verify.report import build

    out = build(path, tmp_path / "out", compile=False)
    tex = (tmp_path / "out" / "summary.tex").read_text()
    assert "seed 5" in tex and "seed 0" not in tex
    assert any("interrupted" in str(w) for w in out.warnings)


def test_a_report_ignores_a_meta_that_does_not_match_its_results(tmp_path):
    path = tmp_path / "r.jsonl"
    verify.run("odd.ok", modules=ODD, jobs=0, results_path=path, seed=1)
    provenance.write(path, provenance.collect(seed=0, profile="quick", complete=True))
    from verify.report import build

    out = build(path, tmp_path / "out", compile=False)
    tex = (tmp_path / "out" / "summary.tex").read_text()
    assert "seed 1" in tex and "seed 0" not in tex
    assert any("does not describe" in str(w) for w in out.warnings)


# -- one claim's odd data -----------------------------------------------------------------------
@pytest.fixture(scope="module")
def odd_expected():
    import verify_fixture_odd

    return verify_fixture_odd.EXPECTED


@pytest.mark.parametrize("jobs", [0, 1])
def test_odd_data_makes_its_claim_undecided_and_the_run_goes_on(tmp_path, odd_expected, jobs):
    path = tmp_path / "r.jsonl"
    results = verify.run("odd.*", modules=ODD, jobs=jobs, results_path=path)
    assert results["odd.ok"].verdict is Verdict.SUPPORTED
    wrong = {cid: (results[cid].verdict.value, results[cid].summary)
             for cid, reason in odd_expected.items()
             if results[cid].verdict is not Verdict.UNDECIDED or reason not in results[cid].summary}
    assert not wrong
    assert len(load(path, strict=True)) == len(odd_expected) + 1
    for line in path.read_bytes().splitlines():
        json.loads(line.decode("utf-8"))  # valid UTF-8, valid JSON, no NaN literal
    again = verify.run("odd.*", modules=ODD, jobs=0, results_path=path, resume=True)
    assert again.verdicts() == results.verdicts()
    from verify.report import build

    out = build(path, tmp_path / "report", compile=False)
    assert (tmp_path / "report" / "odd.tex").exists() and not out.errors


@pytest.mark.parametrize(
    "value",
    [float("nan"), float("inf"), -math.inf, complex(0, math.inf), Decimal("NaN"),
     Decimal("Infinity"), {1.0, math.nan}, frozenset({math.inf}), (1, (math.nan,)),
     {"a": [{"b": (math.inf,)}]}, {math.nan: 1}, "nan", "-inf"],
    ids=repr,
)
def test_the_audit_rejects_non_finite_numbers_wherever_they_sit(value):
    for ev in (Evidence(Verdict.SUPPORTED, "s", numbers={"v": value}),
               Evidence(Verdict.REFUTED, "s", counterexample={"x": 1, "v": value})):
        got = audit(ev)
        assert got.verdict is Verdict.UNDECIDED and "non-finite" in got.audit


def test_the_audit_rejects_non_finite_sympy_mpmath_numpy_torch_values():
    import mpmath
    import numpy as np
    import sympy as sp
    import torch

    x = sp.Symbol("x")
    for value in (sp.nan, sp.oo, -sp.oo, sp.zoo, sp.Float("nan"), sp.Matrix([[1, sp.oo]]),
                  x + sp.nan, mpmath.mpf("nan"), mpmath.mpf("-inf"), mpmath.mpc(0, "inf"),
                  np.array([1.0, np.inf]), np.float32("nan"), torch.tensor([[math.nan]]),
                  torch.tensor(math.inf, dtype=torch.float64)):
        got = audit(Evidence(Verdict.SUPPORTED, "s", numbers={"v": value}))
        assert got.verdict is Verdict.UNDECIDED, value
    fine = {"a": sp.Rational(1, 3), "b": sp.Limit(1 / x, x, sp.oo), "c": np.arange(3),
            "d": torch.ones(2), "e": mpmath.mpf(2), "f": Decimal("1.5"), "g": {1, 2}}
    assert audit(Evidence(Verdict.SUPPORTED, "s", numbers=fine)).verdict is Verdict.SUPPORTED


@pytest.mark.parametrize(
    "kw, problem",
    [
        ({"verdict": Verdict.REFUTED, "counterexample": [1, 2]}, "counterexample must be"),
        ({"verdict": Verdict.REFUTED, "counterexample": {1: 2}}, "counterexample must be"),
        ({"verdict": Verdict.REFUTED, "counterexample": "x=1"}, "counterexample must be"),
        ({"verdict": Verdict.SUPPORTED, "counterexample": [1]}, "counterexample must be"),
        ({"verdict": Verdict.SUPPORTED, "numbers": [1, 2]}, "numbers must be"),
        ({"verdict": Verdict.SUPPORTED, "numbers": {3: 1.0}}, "numbers must be"),
        ({"verdict": Verdict.SUPPORTED, "steps": "one step"}, "steps must be"),
        ({"verdict": Verdict.SUPPORTED, "steps": [1]}, "steps must be"),
        ({"verdict": Verdict.SUPPORTED, "figures": {"kind": "rate"}}, "figures must be"),
        ({"verdict": Verdict.SUPPORTED, "figures": ["plot"]}, "figures must be"),
    ],
)
def test_the_audit_checks_the_shape_the_report_needs(kw, problem):
    got = audit(Evidence(summary="s", **kw))
    assert got.verdict is Verdict.UNDECIDED and problem in got.audit


def test_a_results_file_never_holds_what_load_refuses(tmp_path):
    """The writer and the reader agree: an odd record is replaced, never written broken."""
    from verify.results import storable

    bad = ClaimResult(id="p.a", paper="p", verdict=Verdict.SUPPORTED, summary="s \ud800",
                      evidence=[Evidence(Verdict.UNDECIDED, "s", counterexample=[1])])
    good = storable(bad)
    assert good.verdict is Verdict.UNDECIDED and "could not be saved" in good.summary
    append(tmp_path / "r.jsonl", good)
    assert load(tmp_path / "r.jsonl", strict=True)["p.a"].verdict is Verdict.UNDECIDED


def test_run_refuses_a_seed_that_is_not_an_integer(tmp_path):
    for seed in ("abc", 1.5, True, None):
        with pytest.raises(UsageError, match="seed"):
            verify.run("odd.ok", modules=ODD, jobs=0, results_path=tmp_path / "r.jsonl",
                       seed=seed)
    assert not (tmp_path / "r.jsonl").exists()

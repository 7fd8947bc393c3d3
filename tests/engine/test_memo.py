"""verify.memo: a memoised computation runs once per key, across processes, and an
interrupted one resumes from its checkpoint to the result an uninterrupted run gives."""

from __future__ import annotations

import multiprocessing as mp
import os
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from verify import memo


@dataclass(frozen=True)
class Cfg:
    n: int = 3
    scale: float = 1.0


CALLS = Path("calls.txt")  # relative: every test runs in its own tmp_path


@memo.persistent
def counted(cfg: Cfg, seed: int) -> np.ndarray:
    with CALLS.open("a") as fh:
        fh.write("x")
    return np.random.default_rng(seed).normal(size=cfg.n) * cfg.scale


def calls() -> int:
    return len(CALLS.read_text()) if CALLS.exists() else 0


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("VERIFY_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def fresh_process_call(cfg: Cfg, seed: int) -> np.ndarray:
    """What a second claim sees: no in-process memo, only the disk."""
    return memo.persistent(counted.uncached)(cfg, seed)


def test_a_second_caller_reads_the_result_instead_of_recomputing(cache):
    a = counted(Cfg(), 7)
    b = fresh_process_call(Cfg(), 7)
    assert calls() == 1 and np.array_equal(a, b)
    assert list(cache.rglob("*.pkl"))


def test_the_key_holds_every_argument(cache):
    fresh_process_call(Cfg(), 1)
    fresh_process_call(Cfg(n=4), 1)
    fresh_process_call(Cfg(scale=2.0), 1)
    fresh_process_call(Cfg(), 2)
    assert calls() == 4


def test_off_recomputes(monkeypatch):
    monkeypatch.setenv("VERIFY_CACHE_DIR", "off")
    fresh_process_call(Cfg(), 3)
    fresh_process_call(Cfg(), 3)
    assert calls() == 2 and memo.cache_dir() is None


def test_a_torn_entry_is_recomputed(cache):
    a = fresh_process_call(Cfg(), 5)
    for f in cache.rglob("*.pkl"):
        f.write_bytes(b"\x80torn")
    b = fresh_process_call(Cfg(), 5)
    assert calls() == 2 and np.array_equal(a, b)


def test_the_source_of_the_package_is_in_the_key():
    key = memo.key_of(counted.uncached, (Cfg(), 0), {})
    assert memo.source_digest(counted.__module__) != memo.source_digest("verify.memo")
    assert len(key) == 32 and key == memo.key_of(counted.uncached, (Cfg(), 0), {})


@memo.persistent
def slow(seed: int) -> int:
    with CALLS.open("a") as fh:
        fh.write("x")
    time.sleep(1.0)
    return seed * 2


def _slow_in_child(seed: int, out: str) -> None:
    Path(out).write_text(str(slow(seed)))


def test_two_processes_missing_the_same_key_compute_it_once(cache, tmp_path):
    ctx = mp.get_context("fork")
    procs = [ctx.Process(target=_slow_in_child, args=(21, str(tmp_path / f"o{i}")))
             for i in range(2)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(30)
    assert [(tmp_path / f"o{i}").read_text() for i in range(2)] == ["42", "42"]
    assert calls() == 1


class Interrupted(Exception):
    pass


@memo.persistent
def accumulate(steps: int, stop_at: int | None) -> list[float]:
    """A toy trainer: a random walk that saves its state at every step and, when asked,
    stops (as a timeout would) at ``stop_at``."""
    ck = memo.checkpoint()
    state = ck.load() or {"step": 0, "rng": np.random.default_rng(0), "path": []}
    for step in range(state["step"], steps):
        if stop_at is not None and step == stop_at and os.environ.get("STOP") == "1":
            raise Interrupted
        state["path"].append(float(state["rng"].normal()))
        state["step"] = step + 1
        ck.save(state)
    return state["path"]


def test_an_interrupted_computation_resumes_to_the_uninterrupted_result(cache, monkeypatch):
    monkeypatch.setenv("STOP", "1")
    with pytest.raises(Interrupted):
        accumulate(10, 6)
    assert list(cache.rglob("*.ckpt"))
    monkeypatch.setenv("STOP", "0")
    resumed = accumulate(10, 6)
    assert not list(cache.rglob("*.ckpt"))  # cleared once the result is stored
    monkeypatch.setenv("VERIFY_CACHE_DIR", "off")
    assert resumed == accumulate.uncached(10, None)


def test_checkpoint_outside_a_memoised_call_is_disabled():
    ck = memo.checkpoint()
    ck.save({"a": 1})
    assert not ck.enabled and ck.load() is None and not ck.due()


def test_arrays_are_keyed_by_every_entry_not_by_their_elided_repr():
    a = np.zeros(5000)
    b = a.copy()
    b[2500] = 1.0  # repr(a) == repr(b): numpy elides the middle
    assert repr(a) == repr(b)
    assert memo.fingerprint((a, 1)) != memo.fingerprint((b, 1))
    assert memo.fingerprint({"x": a}) == memo.fingerprint({"x": a.copy()})

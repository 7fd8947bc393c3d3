"""Time guards of verify.symbolic._guard: a guarded call is abandoned when its budget is spent."""

from __future__ import annotations

import gc
import signal
import sys
import threading
import time
from collections.abc import Callable

import pytest

from verify.symbolic._guard import Deadline, RungTimeout, guarded


def _spin(seconds: float) -> str:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass
    return "done"


def test_a_fast_call_returns_its_value() -> None:
    assert guarded(_spin, 0.01, seconds=2) == "done"
    assert guarded(_spin, 0.01, seconds=None) == "done"


def test_a_slow_call_is_interrupted_on_time() -> None:
    t0 = time.monotonic()
    with pytest.raises(RungTimeout):
        guarded(_spin, 30, seconds=0.2)
    assert time.monotonic() - t0 < 5


def test_no_budget_left_raises_at_once() -> None:
    with pytest.raises(RungTimeout, match="no time left"):
        guarded(_spin, 30, seconds=0)


def test_exceptions_of_the_call_propagate_unchanged() -> None:
    def boom() -> None:
        raise ValueError("inner")

    with pytest.raises(ValueError, match="inner"):
        guarded(boom, seconds=2)


def _interrupted_on_time(work: Callable[[], object]) -> None:
    """``work`` under a 0.1 s guard ends in RungTimeout well within 5 s."""
    t0 = time.monotonic()
    with pytest.raises(RungTimeout):
        guarded(work, seconds=0.1)
    assert time.monotonic() - t0 < 5


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="needs SIGALRM")
def test_a_timeout_swallowed_by_a_finaliser_is_raised_again(monkeypatch) -> None:
    # The first tick lands inside __del__, where Python prints and discards exceptions
    # (as in a garbage-collector callback): the guard must not lose its deadline.
    class SlowFinaliser:
        def __del__(self) -> None:
            _spin(0.5)

    def work() -> str:
        obj = SlowFinaliser()
        del obj  # runs __del__ now; the 0.1 s tick fires inside it and is swallowed
        return _spin(30)

    dropped: list[object] = []
    monkeypatch.setattr(sys, "unraisablehook", dropped.append)
    _interrupted_on_time(work)
    assert dropped == [], "a tick inside __del__ raised where Python drops the exception"


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="needs SIGALRM")
def test_a_tick_inside_a_gc_callback_waits_for_the_next_one(monkeypatch) -> None:
    # hypothesis's gc_cumulative_time is such a callback: a tick landing in it must neither be
    # reported as unraisable nor lose the deadline.
    calls: list[str] = []

    def slow_callback(phase: str, info: dict) -> None:
        if phase == "start" and not calls:  # the first collection outlasts the 0.1 s budget
            calls.append(phase)
            _spin(0.3)

    def work() -> None:
        while True:
            gc.collect()
            _spin(0.01)

    dropped: list[object] = []
    monkeypatch.setattr(sys, "unraisablehook", dropped.append)
    gc.callbacks.append(slow_callback)
    try:
        _interrupted_on_time(work)
    finally:
        gc.callbacks.remove(slow_callback)
    assert calls and dropped == []


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="needs SIGALRM")
def test_the_timer_and_handler_are_restored() -> None:
    before = signal.getsignal(signal.SIGALRM)
    guarded(_spin, 0.01, seconds=2)
    with pytest.raises(RungTimeout):
        guarded(_spin, 30, seconds=0.1)
    assert signal.getsignal(signal.SIGALRM) is before
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="needs SIGALRM")
def test_an_outer_guard_keeps_its_deadline_across_an_inner_one() -> None:
    def outer() -> str:
        guarded(_spin, 0.01, seconds=5)  # inner guard finishes early
        return _spin(30)  # the outer deadline must still fire

    with pytest.raises(RungTimeout):
        guarded(outer, seconds=0.3)


def test_off_the_main_thread_the_call_is_abandoned() -> None:
    box: dict = {}

    def run() -> None:
        t0 = time.monotonic()
        try:
            guarded(_spin, 3, seconds=0.1)
        except RungTimeout as e:
            box["error"] = e
        box["elapsed"] = time.monotonic() - t0

    th = threading.Thread(target=run)
    th.start()
    th.join(10)
    assert isinstance(box.get("error"), RungTimeout)
    assert box["elapsed"] < 2


def test_deadline_budget_is_the_smaller_of_cap_and_what_is_left() -> None:
    assert Deadline(None).budget(3) == 3
    assert Deadline(None).left() is None and not Deadline(None).expired()
    d = Deadline(10)
    assert d.budget(1) == 1
    assert 9 < d.budget(None) <= 10
    assert Deadline(0).expired()

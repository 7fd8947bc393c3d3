"""Time guards for slow SymPy calls: a rung that runs past its budget is abandoned, never waited on.

In the main thread of a Unix process (the runner's workers run checks there) the guard is an
interval timer (``signal.setitimer``) whose handler raises :class:`RungTimeout`, a
``BaseException`` so that SymPy's own ``except Exception`` clauses cannot swallow it; an outer
timer already set by the caller is saved and restored with its remaining time. Elsewhere (a
worker thread, or a platform without ``SIGALRM``) the call runs in a daemon thread that is
abandoned when its budget runs out: the caller gets control back on time, the thread finishes
in the background.
"""

from __future__ import annotations

import gc
import signal
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


class RungTimeout(BaseException):
    """Raised inside a guarded call when its time budget is spent."""


class Deadline:
    """An absolute deadline (``time.monotonic`` based); ``None`` seconds means none."""

    def __init__(self, seconds: float | None) -> None:
        self.end = None if seconds is None else time.monotonic() + max(0.0, float(seconds))

    def left(self) -> float | None:
        return None if self.end is None else self.end - time.monotonic()

    def expired(self) -> bool:
        left = self.left()
        return left is not None and left <= 0

    def budget(self, cap: float | None) -> float | None:
        """Seconds a step may take: the smaller of ``cap`` and what is left."""
        left = self.left()
        if left is None:
            return cap
        return left if cap is None else min(left, cap)


def _can_use_alarm() -> bool:
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


def guarded(fn: Callable[..., T], *args: Any, seconds: float | None, **kw: Any) -> T:
    """Call ``fn(*args, **kw)``; raise :class:`RungTimeout` if it takes more than ``seconds``.

    ``seconds=None`` calls it unguarded. Exceptions of ``fn`` propagate unchanged.
    """
    if seconds is None:
        return fn(*args, **kw)
    if seconds <= 0:
        raise RungTimeout("no time left")
    if _can_use_alarm():
        return _guard_alarm(fn, args, kw, seconds)
    return _guard_thread(fn, args, kw, seconds)


#: After the budget is spent the timer keeps firing at this interval while the guard lasts. A
#: tick that lands where Python discards exceptions (a garbage-collector callback such as
#: hypothesis's ``gc_cumulative_time``, a ``__del__``) does not raise there: the next tick does,
#: so the time budget is never lost and nothing is reported as unraisable.
RETRY_INTERVAL_S = 0.05


def _in_discarding_frame(frame: Any, depth: int = 64) -> bool:
    """Whether ``frame`` runs inside a garbage-collector callback or a finaliser, where an
    exception would be printed as unraisable and dropped instead of reaching the guard."""
    callbacks = {getattr(getattr(cb, "__func__", cb), "__code__", None) for cb in gc.callbacks}
    while frame is not None and depth > 0:
        code = frame.f_code
        if code in callbacks or code.co_name == "__del__":
            return True
        frame = frame.f_back
        depth -= 1
    return False


def _guard_alarm(fn: Callable[..., T], args: tuple, kw: dict, seconds: float) -> T:
    armed = [True]

    def handler(signum: int, frame: Any) -> None:
        if armed[0] and not _in_discarding_frame(frame):
            raise RungTimeout(f"time guard of {seconds:.3g} s exceeded")

    start = time.monotonic()
    old_handler = signal.signal(signal.SIGALRM, handler)
    old_delay, old_interval = signal.setitimer(signal.ITIMER_REAL, 0)
    delay = seconds if old_delay <= 0 else min(seconds, old_delay)
    try:
        signal.setitimer(signal.ITIMER_REAL, delay, RETRY_INTERVAL_S)
        try:
            return fn(*args, **kw)
        finally:
            armed[0] = False
    finally:
        # A tick that lands before ``armed`` is cleared still leaves through this block.
        armed[0] = False
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old_handler)
        if old_delay > 0:
            # Give the outer timer back what is left of it (at least a tick, so it still fires).
            remaining = max(1e-3, old_delay - (time.monotonic() - start))
            signal.setitimer(signal.ITIMER_REAL, remaining, old_interval)


def _guard_thread(fn: Callable[..., T], args: tuple, kw: dict, seconds: float) -> T:
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = fn(*args, **kw)
        except BaseException as e:
            box["error"] = e

    th = threading.Thread(target=target, daemon=True, name="verify-symbolic-rung")
    th.start()
    th.join(seconds)
    if th.is_alive():
        raise RungTimeout(f"time guard of {seconds:.3g} s exceeded (thread abandoned)")
    if "error" in box:
        raise box["error"]
    return box["value"]

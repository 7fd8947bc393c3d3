"""A pool of worker processes that run claims, each within a time budget.

Workers are started with ``spawn`` (safe with torch and OpenMP), import the claims once,
then take claims one at a time. The parent watches each busy worker: a result arrives,
or the worker dies (segfault, abort, out of memory), or it passes its deadline and is
killed. In the last two cases the claim is UNDECIDED with the reason and a fresh worker
replaces the lost one, so every other claim still runs.
"""

from __future__ import annotations

import logging
import multiprocessing as mp
import os
import signal
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any

from .context import Context
from .errors import DiscoveryError

log = logging.getLogger(__name__)

#: Seconds a worker may take beyond its budget to report before it is killed.
GRACE_S = 2.0
#: Seconds a fresh worker may take to import the claims.
STARTUP_S = 300.0


@dataclass
class Task:
    claim_id: str
    ctx: Context


@dataclass
class Outcome:
    """What became of a task: a result record, or the reason there is none."""

    task: Task
    record: dict[str, Any] | None
    failure: str | None
    elapsed_s: float


def _signal_name(code: int) -> str:
    try:
        return signal.Signals(-code).name
    except ValueError:
        return f"signal {-code}"


def _worker_main(conn: Connection, modules: Sequence[str] | None, threads: int, mem_gib: float | None) -> None:
    """Entry point of a worker process: discover claims, then serve tasks until told to stop."""
    os.environ.setdefault("OMP_NUM_THREADS", str(threads))
    if mem_gib:
        import resource

        limit = int(mem_gib * 2**30)
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    try:
        from .devices import configure_torch
        from .execute import execute
        from .registry import REGISTRY, discover

        configure_torch(threads)
        discover(modules)
    except BaseException as e:  # noqa: BLE001 - tell the parent, then die
        conn.send(("error", f"{type(e).__name__}: {e}"))
        return
    conn.send(("ready", None))
    while True:
        try:
            msg = conn.recv()
        except EOFError:
            return
        if msg is None:
            return
        task: Task = msg
        ctx = task.ctx
        ctx.started = time.monotonic()
        try:
            from .devices import set_device

            set_device(ctx.device)
            record = execute(REGISTRY[task.claim_id], ctx).to_dict()
            conn.send(("result", record))
        except BaseException as e:  # noqa: BLE001 - e.g. an unpicklable record
            conn.send(("failure", f"worker error: {type(e).__name__}: {e}"))


class _Worker:
    def __init__(self, ctx: Any, modules: Sequence[str] | None, threads: int, mem_gib: float | None) -> None:
        self.conn, child = ctx.Pipe(duplex=True)
        self.proc = ctx.Process(
            target=_worker_main, args=(child, modules, threads, mem_gib), daemon=True
        )
        self.proc.start()
        child.close()
        self.ready = False
        self.task: Task | None = None
        self.deadline = time.monotonic() + STARTUP_S
        self.t0 = 0.0

    def assign(self, task: Task) -> None:
        self.task = task
        self.t0 = time.monotonic()
        self.deadline = self.t0 + task.ctx.budget_s + GRACE_S
        self.conn.send(task)

    def kill(self) -> None:
        if self.proc.is_alive():
            self.proc.kill()
        self.proc.join(timeout=5)
        self.conn.close()

    def stop(self) -> None:
        try:
            self.conn.send(None)
        except (OSError, BrokenPipeError):
            pass
        self.proc.join(timeout=2)
        self.kill()


def run_tasks(
    tasks: Sequence[Task],
    *,
    jobs: int,
    modules: Sequence[str] | None,
    on_outcome: Callable[[Outcome], None],
    mem_gib: float | None = None,
) -> None:
    """Run ``tasks`` on ``jobs`` workers, calling ``on_outcome`` as each one ends."""
    mpctx = mp.get_context("spawn")
    jobs = max(1, min(jobs, len(tasks) or 1))
    threads = max(1, (os.cpu_count() or 1) // jobs)
    queue = deque(tasks)
    workers: list[_Worker] = []

    def spawn() -> _Worker:
        w = _Worker(mpctx, modules, threads, mem_gib)
        workers.append(w)
        return w

    def finish(w: _Worker, record: dict | None, failure: str | None) -> None:
        assert w.task is not None
        task, w.task = w.task, None
        on_outcome(Outcome(task, record, failure, time.monotonic() - w.t0))

    def replace(w: _Worker) -> None:
        w.kill()
        workers.remove(w)
        if queue:
            spawn()

    try:
        for _ in range(jobs):
            spawn()
        while queue or any(w.task for w in workers):
            for w in workers:
                if w.ready and w.task is None and queue:
                    w.assign(queue.popleft())
            now = time.monotonic()
            watched = [w.deadline for w in workers if w.task is not None or not w.ready]
            timeout = max(0.0, min(watched) - now) if watched else 0.1
            ready = wait([w.conn for w in workers] + [w.proc.sentinel for w in workers], timeout)
            for w in list(workers):
                if w.conn in ready:
                    try:
                        kind, payload = w.conn.recv()
                    except (EOFError, OSError):
                        kind, payload = "died", None
                    if kind == "ready":
                        w.ready = True
                        continue
                    if kind == "error":
                        raise DiscoveryError(f"worker could not load the claims: {payload}")
                    if kind == "result":
                        finish(w, payload, None)
                        continue
                    if kind == "failure":
                        finish(w, None, payload)
                        replace(w)
                        continue
                    # fall through: the pipe closed, the process is dying
                if w.proc.sentinel in ready or not w.proc.is_alive():
                    w.proc.join(timeout=5)
                    code = w.proc.exitcode
                    if w.task is not None:
                        if code is not None and code < 0:
                            why = f"worker killed by {_signal_name(code)}"
                            if code == -signal.SIGKILL:
                                why += " (out of memory?)"
                        else:
                            why = f"worker exited with status {code}"
                        finish(w, None, f"{why} while running the claim")
                    elif not w.ready:
                        raise DiscoveryError(
                            f"worker died while loading the claims (status {code}); a script that "
                            "calls verify.run with workers must guard it with "
                            "`if __name__ == '__main__':` (workers are spawned and re-import it)"
                        )
                    replace(w)
                    continue
                if (w.task is not None or not w.ready) and time.monotonic() > w.deadline:
                    if w.task is not None:
                        budget = w.task.ctx.budget_s
                        finish(w, None, f"timeout: still running after its budget of {budget:g} s; killed")
                    else:
                        raise DiscoveryError("worker did not finish loading the claims in time")
                    replace(w)
            if not workers and queue:
                spawn()
    finally:
        for w in workers:
            w.stop()

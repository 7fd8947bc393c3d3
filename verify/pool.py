"""A pool of template processes that run each claim in a fresh fork, within a time budget.

Each of the ``jobs`` slots is a *template* (:mod:`verify.isolation`): spawned once, it
imports torch, sympy and the claims and then runs nothing itself; for every claim it forks a
child, so each claim starts from the same clean, pre-imported state and nothing one claim
changes (globals, working directory, environment, monkeypatches) reaches another. The child
is forked ahead and takes its task from the slot's pipe, so a claim costs the parent one
message each way and the machine one fork (``benchmarks/bench_runner.py`` measures it).

Why own templates rather than ``multiprocessing``'s forkserver with preload: the forkserver
is one process per parent, shared by every run, whose preload cannot follow the ``modules``
of each run, and its children run multiprocessing's bootstrap (unpickling a process object,
atexit hooks) on every claim. A template per slot imports exactly the run's modules, forks
straight into the claim, and can tie its claims to itself (process groups, a subreaper,
``PR_SET_PDEATHSIG``) so that nothing a claim starts survives it or the run.

The parent watches each busy slot: a result arrives, or the claim child dies (segfault,
abort, out of memory, ``os._exit``), or it passes its deadline and the parent kills its
process group. In the last two cases the claim is UNDECIDED with the reason and the template
serves the next claim; a template that dies is replaced. SIGTERM and SIGHUP to the parent
kill every claim and template before the parent dies of the signal.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing as mp
import os
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from multiprocessing.connection import wait
from typing import Any

from .context import Context
from .errors import DiscoveryError
from .isolation import HASH_SEED, kill_group, template_main

log = logging.getLogger(__name__)

#: Seconds a claim may take beyond its budget to report before it is killed.
GRACE_S = 2.0
#: Seconds a fresh template may take to import the claims.
STARTUP_S = 300.0
#: Seconds a template may take to report on a claim the parent killed.
DRAIN_S = 30.0


# -- sizing: how many workers a machine holds, and the memory of each -------------------------
def default_jobs() -> int:
    """The number of workers a run starts when not told: one per core, at most 8."""
    return max(1, min(os.cpu_count() or 1, 8))


#: Memory one worker needs: its template process (the claims and their libraries imported,
#: about 250 MB for the built-in papers) and the claim it forks at work.
WORKER_GIB = 0.5


def _physical_memory() -> int | None:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return None


def max_jobs() -> int:
    """The most worker processes this machine holds: one per :data:`WORKER_GIB` of physical
    memory, and at most four per core (more only wait for a core, each holding its memory).
    A larger ``jobs`` is capped to it (``verify run --jobs`` says so)."""
    cores = os.cpu_count() or 1
    total = _physical_memory()
    by_memory = int(total / (WORKER_GIB * 2**30)) if total else 4 * cores
    return max(1, min(4 * cores, by_memory))


def default_memory_gib(jobs: int) -> float | None:
    """Address-space limit per worker: 80% of physical memory shared by the workers, so a
    runaway claim raises MemoryError in its own worker instead of starving the machine.
    (Not applied on CUDA, whose driver reserves large virtual ranges.)"""
    total = _physical_memory()
    if total is None:
        return None
    return max(2.0, 0.8 * total / 2**30 / max(1, jobs))


@dataclass
class Task:
    claim_id: str
    ctx: Context


@dataclass
class Outcome:
    """What became of a task: a result record, or the reason there is none (with the tail
    of what the claim printed, when its process died before sending a record)."""

    task: Task
    record: dict[str, Any] | None
    failure: str | None
    elapsed_s: float
    output: dict[str, str] | None = None


def _signal_name(code: int) -> str:
    try:
        return signal.Signals(-code).name
    except ValueError:
        return f"signal {-code}"


def death_reason(status: int | None) -> str:
    """Why a claim process that sent no record ended, from its exit code (``-signal``)."""
    if status is not None and status < 0:
        why = f"claim process killed by {_signal_name(status)}"
        if status == -signal.SIGKILL:
            why += " (out of memory?)"
        elif status == -signal.SIGXFSZ:
            why += " (it wrote a file over its size limit, verify run --max-file-gib)"
        return why
    return f"claim process exited with status {status}"


class _Slot:
    """One template process and the claim it is running.

    ``state`` is ``loading`` (importing the claims), ``idle``, ``busy`` (a claim runs) or
    ``draining`` (the parent killed the claim and awaits the template's report on it).
    """

    def __init__(self, ctx: Any, modules: Sequence[str] | None, threads: int,
                 mem_gib: float | None, env: dict[str, str] | None = None) -> None:
        self.conn, child = ctx.Pipe(duplex=True)
        self.proc = ctx.Process(
            target=template_main, args=(child, modules, threads, mem_gib, os.getpid()),
            daemon=True,
        )
        with _spawn_environment({"PYTHONHASHSEED": HASH_SEED, **(env or {})}):
            self.proc.start()
        child.close()
        self.state = "loading"
        self.task: Task | None = None
        self.claim_pid: int | None = None
        self.deadline = time.monotonic() + STARTUP_S
        self.t0 = 0.0

    def assign(self, task: Task) -> None:
        self.task, self.claim_pid, self.state = task, None, "busy"
        self.t0 = time.monotonic()
        self.deadline = self.t0 + task.ctx.budget_s + GRACE_S
        self.conn.send(task)

    def kill_claim(self) -> None:
        if self.claim_pid is not None and self.state in ("busy", "draining"):
            kill_group(self.claim_pid)

    def terminate(self) -> None:
        """Signal-safe: kill the claim's group, and ask the template to sweep and exit."""
        self.kill_claim()
        with contextlib.suppress(OSError, ValueError, AttributeError):
            if self.proc.pid is not None:
                os.kill(self.proc.pid, signal.SIGTERM)

    def kill(self) -> None:
        self.kill_claim()
        if self.proc.is_alive():
            self.proc.kill()
        self.proc.join(timeout=5)
        self.conn.close()

    def stop(self) -> None:
        self.kill_claim()
        with contextlib.suppress(OSError, ValueError):
            self.conn.send(None)
        self.proc.join(timeout=2)
        self.kill()


_ENV_LOCK = threading.Lock()


@contextlib.contextmanager
def _spawn_environment(extra: dict[str, str]) -> Iterator[None]:
    """``extra`` in the environment a template is spawned with, this process's own left as
    it was: ``PYTHONHASHSEED`` = :data:`~verify.isolation.HASH_SEED` (it cannot change once
    Python runs), so that every claim iterates a set of strings in the same order in every
    run; and on a Dask worker the client's cache setting (:mod:`verify.dask_runner`)."""
    with _ENV_LOCK:
        before = {name: os.environ.get(name) for name in extra}
        os.environ.update(extra)
        try:
            yield
        finally:
            for name, value in before.items():
                if value is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = value


@contextlib.contextmanager
def _die_with_the_run(slots: list[_Slot]) -> Iterator[None]:
    """While the pool runs, SIGTERM and SIGHUP first kill every claim and template, then do
    what they did before (by default: end the process with that signal)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous: dict[int, Any] = {}

    def handler(signum: int, frame: Any) -> None:
        for s in list(slots):
            s.terminate()
        old = previous.get(signum, signal.SIG_DFL)
        signal.signal(signum, old)
        if callable(old):
            old(signum, frame)
        else:
            os.kill(os.getpid(), signum)

    for sig in (signal.SIGTERM, signal.SIGHUP):
        old = signal.getsignal(sig)
        if old is not signal.SIG_IGN and old is not None:
            previous[sig] = old
            signal.signal(sig, handler)
    try:
        yield
    finally:
        for signum, old in previous.items():
            if signal.getsignal(signum) is handler:
                signal.signal(signum, old)


def run_tasks(
    tasks: Sequence[Task],
    *,
    jobs: int,
    modules: Sequence[str] | None,
    on_outcome: Callable[[Outcome], None],
    mem_gib: float | None = None,
) -> None:
    """Run ``tasks`` on ``jobs`` templates, each claim in its own fork, calling
    ``on_outcome`` as each one ends. ``mem_gib`` limits each claim's address space."""
    mpctx = mp.get_context("spawn")
    jobs = max(1, min(jobs, len(tasks) or 1))
    threads = max(1, (os.cpu_count() or 1) // jobs)
    pool = _Pool(deque(tasks), on_outcome, lambda: _Slot(mpctx, modules, threads, mem_gib))
    with _die_with_the_run(pool.slots):
        try:
            for _ in range(jobs):
                pool.spawn()
            while pool.pending():
                pool.step()
        finally:
            for s in pool.slots:
                s.stop()


class _Pool:
    """The parent's bookkeeping: assign tasks, read the templates' messages, enforce
    deadlines, and replace templates that die."""

    def __init__(self, queue: deque[Task], on_outcome: Callable[[Outcome], None],
                 new_slot: Callable[[], _Slot]) -> None:
        self.queue = queue
        self.on_outcome = on_outcome
        self.new_slot = new_slot
        self.slots: list[_Slot] = []

    def spawn(self) -> None:
        self.slots.append(self.new_slot())

    def pending(self) -> bool:
        return bool(self.queue) or any(s.state == "busy" for s in self.slots)

    def step(self) -> None:
        for s in self.slots:
            if s.state == "idle" and self.queue:
                s.assign(self.queue.popleft())
        watched = [s.deadline for s in self.slots if s.state != "idle"]
        timeout = max(0.0, min(watched) - time.monotonic()) if watched else 0.1
        ready = wait([s.conn for s in self.slots] + [s.proc.sentinel for s in self.slots],
                     timeout)
        for s in list(self.slots):
            if s.conn in ready and self._read(s):
                continue
            if s.proc.sentinel in ready or not s.proc.is_alive():
                self._template_died(s)
            elif s.state != "idle" and time.monotonic() > s.deadline:
                self._overdue(s)
        if not self.slots and self.queue:
            self.spawn()

    def _finish(self, s: _Slot, record: dict | None, failure: str | None,
                output: dict[str, str] | None = None) -> None:
        assert s.task is not None
        task, s.task = s.task, None
        self.on_outcome(Outcome(task, record, failure, time.monotonic() - s.t0, output))

    def _read(self, s: _Slot) -> bool:
        """Handle every message waiting from ``s``; False when its pipe is closed."""
        while True:
            try:
                if not s.conn.poll():
                    return True
                kind, payload = s.conn.recv()
            except (EOFError, OSError):
                return False
            self._message(s, kind, payload)

    def _message(self, s: _Slot, kind: str, payload: Any) -> None:
        if kind == "ready":
            s.state = "idle"
        elif kind == "error":
            raise DiscoveryError(f"worker {payload}")
        elif kind == "started":
            s.claim_pid = payload
        elif s.state == "draining":  # the end of a claim already reported as timed out
            s.state, s.claim_pid = "idle", None
        elif kind == "result":
            self._finish(s, payload, None)
            s.state, s.claim_pid = "idle", None
        else:
            if kind == "died":
                failure = payload.get("why") or death_reason(payload["status"])
                output = payload["output"]
            else:
                failure, output = payload, None
            self._finish(s, None, f"{failure} while running the claim", output)
            s.state, s.claim_pid = "idle", None

    def _template_died(self, s: _Slot) -> None:
        s.proc.join(timeout=5)
        code = s.proc.exitcode
        if s.state == "loading":
            raise DiscoveryError(
                f"worker died while loading the claims (status {code}); a script that "
                "calls verify.run with workers must guard it with "
                "`if __name__ == '__main__':` (workers are spawned and re-import it)"
            )
        if s.state == "busy":
            self._finish(s, None, f"worker died (status {code}) while running the claim")
        self._replace(s)

    def _overdue(self, s: _Slot) -> None:
        if s.state == "loading":
            raise DiscoveryError("worker did not finish loading the claims in time")
        if s.state == "busy" and s.task is not None:
            budget = s.task.ctx.budget_s
            why = f"timeout: still running after its budget of {budget:g} s; killed"
            self._finish(s, None, why)
        if s.state == "busy" and s.claim_pid is not None:
            s.kill_claim()
            s.state, s.deadline = "draining", time.monotonic() + DRAIN_S
        else:  # the claim never started, or the template does not answer
            self._replace(s)

    def _replace(self, s: _Slot) -> None:
        s.kill()
        self.slots.remove(s)
        if self.queue:
            self.spawn()


class Resident:
    """One template kept for many claims, run one at a time, each in a fresh fork of it and
    within its budget, as :func:`run_tasks` runs them: the pool of a Dask worker
    (:mod:`verify.dask_runner`) and of a pytest session (:mod:`verify.pytest_plugin`)."""

    def __init__(self, modules: Sequence[str] | None, threads: int,
                 mem_gib: float | None, env: dict[str, str] | None = None) -> None:
        spawn = mp.get_context("spawn")
        self.pool = _Pool(deque(), lambda o: None,
                          lambda: _Slot(spawn, modules, threads, mem_gib, env))
        self.pool.spawn()

    def run(self, task: Task) -> Outcome:
        """Run ``task`` and return its outcome (a crash, hang or out-of-memory is the
        outcome's failure; a template that dies is replaced)."""
        got: list[Outcome] = []
        self.pool.on_outcome = got.append
        self.pool.queue.append(task)
        if not self.pool.slots:
            self.pool.spawn()
        while not got:
            self.pool.step()
        return got[0]

    def close(self) -> None:
        for s in self.pool.slots:
            s.stop()
        self.pool.slots.clear()

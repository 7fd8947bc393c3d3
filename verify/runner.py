"""``verify.run``: discover claims, run them in isolated workers, stream their results."""

from __future__ import annotations

import contextlib
import logging
import math
import numbers
import os
import re
import signal
import socket
import stat
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

from .context import PROFILES, Context
from .discovery import default_modules, discover, discover_selected
from .errors import ResultsFileError, UsageError
from .execute import execute, failed
from .pool import (
    Outcome,
    Task,
    default_jobs,
    default_memory_gib,
    max_jobs,
    run_tasks,
)
from .registry import MAX_TIMEOUT_S, REGISTRY, Claim
from .results import (
    ClaimResult,
    Results,
    append,
    load,
    lock,
    looks_like_results,
    storable,
    write_all,
)
from .shards import merge as merge_shards
from .shards import shard_contexts

log = logging.getLogger(__name__)

DEFAULT_RESULTS = Path("results.jsonl")


def run(
    select: str | Sequence[str] | None = None,
    *,
    profile: str = "quick",
    device: str | None = None,
    jobs: int | None = None,
    seed: int = 0,
    paper: str | Sequence[str] | None = None,
    timeout: float | None = None,
    results_path: str | os.PathLike[str] | None = None,
    resume: bool = False,
    modules: Sequence[str] | None = None,
    on_start: Callable[[list[Claim]], None] | None = None,
    on_result: Callable[[ClaimResult], None] | None = None,
    memory_gib: float | None = None,
    scheduler: str | None = None,
    shards: int = 1,
    examples: int | None = None,
) -> Results:
    """Run the selected claims and return their results.

    Args:
        select: glob(s) over claim ids (``"nfa.ag.*"``); ``None`` runs every claim.
        profile: ``"quick"`` (CI), ``"deep"`` (full sweeps, reproductions) or ``"fuzz"``.
        device: ``"cpu"``, ``"cuda"``, or ``None`` for CUDA when present.
        jobs: worker processes; ``None`` = the number of cores (at most 8); more than
            :func:`max_jobs` are capped to it. ``jobs=0`` runs the claims one by one in this
            process, for debugging (a ``breakpoint()`` in a check works): no isolation from
            each other and no memory limit, but the same time budget as in a worker (the
            check is interrupted when it runs past it, from the main thread only) and the
            child processes a claim started are killed when it ends.
        seed: the run's seed; every random choice of every claim derives from it.
        paper: restrict to these paper keys.
        timeout: seconds per claim, overriding the profile's and the claims' budgets.
        results_path: the JSON-lines file results stream to (``results.jsonl``). The run
            holds it (a second run on the same file fails at once, naming this one's pid),
            writes a new file renamed into place (a symbolic link there is replaced, the
            file it pointed to left alone) and keeps ``<name>.meta.json`` beside it.
        resume: keep the results already in ``results_path`` (same seed and profile; a
            claim that crashed or timed out runs again)
            and run only the claims missing from it.
        modules: modules/packages to discover claims in (default: ``proofs``, ``numerics``
            and the entry-point group ``verify.claims``); ``"file:path/to/claims.py"`` names
            a claims file. A module advertised by an entry point that fails to import is
            skipped with a warning (``verify.REGISTRY.broken``), not fatal to the run.
        on_start, on_result: progress callbacks.
        memory_gib: memory limit of each claim, so a runaway claim fails alone: of its
            whole process tree (PSS, watched by its template) and of each process's address
            space (:mod:`verify.isolation`; default on CPU: :func:`default_memory_gib`).
        scheduler: run the claims on a Dask cluster (:mod:`verify.dask_runner`): a scheduler
            address (``"tcp://host:8786"``), or ``"local"`` for a ``LocalCluster`` of
            ``jobs`` workers started for the run. Each claim keeps its budget and its
            isolation there, and results stream to ``results_path`` as they finish.
        shards: run each claim this many times, each with its share of every falsifier
            search and a derived seed, and merge the shards' evidence (:mod:`verify.shards`;
            ``verify fuzz --shards``).
        examples: every falsifier search of a claim runs this many examples in all, over
            its shards (``verify fuzz --examples``).
    """
    # Every argument, the claims and the scheduler are checked before the results file is
    # touched: a usage error found late must not have emptied the file first.
    seed, timeout, jobs = _check_arguments(profile, jobs, seed, shards, examples, scheduler,
                                           timeout)
    path = _check_results_path(results_path, resume)
    if scheduler is not None:
        check_scheduler(scheduler)
    if jobs and jobs > max_jobs() and scheduler in (None, "local"):
        log.warning("jobs=%d is more than this machine holds: capped to %d", jobs, max_jobs())
        jobs = max_jobs()
    from .devices import resolve_device

    # On a cluster, each worker resolves an unspecified device itself (CUDA where it has it).
    dev = resolve_device(device) if scheduler is None or device is not None else "cpu"
    narrowed = modules is None  # the default sources: only the modules that can hold them
    modules = _discover(select, paper, modules, imports=jobs == 0)
    claims = REGISTRY.select(select, paper)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise UsageError(f"cannot create the folder of results file {str(path)!r}: {e}") from None

    from . import provenance

    with lock(path):
        # The sidecar describes the results beside it from the first moment: this run's seed
        # and profile, not yet complete (an interrupted run leaves it so).
        meta = provenance.collect(
            seed=seed, profile=profile,
            device=dev if scheduler is None or device is not None else "each Dask worker's",
            jobs=jobs if jobs is not None else default_jobs(), claims=len(claims),
            complete=False, claims_sources=provenance.claims_sources(modules),
        )
        done = _resumed(path, seed, profile, narrowed) if resume else {}
        try:
            provenance.write(path, meta)
            write_all(path, done.values())  # a new file (also drops a half-written last line)
        except OSError as e:
            raise UsageError(f"cannot write results file {str(path)!r}: {e}") from None

        todo = [c for c in claims if c.id not in done]
        if on_start:
            on_start(todo)
        t_run = time.monotonic()
        recorder = _Recorder(path, done, shards, on_result)
        tasks = [
            Task(c.id, x)
            for c in todo
            for x in shard_contexts(
                Context(claim_id=c.id, run_seed=seed, profile=profile, device=dev,
                        budget_s=_budget(c, profile, timeout), source=REGISTRY.origin(c),
                        examples=examples, shards=shards),
                shards,
            )
        ]
        if jobs == 0:
            _dispatch_inline(tasks, recorder.finish)
        elif scheduler is not None:
            _dispatch_dask(tasks, recorder.finish, scheduler=scheduler,
                           jobs=jobs or default_jobs(), modules=modules, profile=profile,
                           device=device)
        else:
            n_jobs = jobs or default_jobs()
            if memory_gib is None and dev == "cpu":
                memory_gib = default_memory_gib(n_jobs)
            run_tasks(tasks, jobs=n_jobs, modules=modules,
                      on_outcome=lambda o: recorder.finish(*_outcome_result(o)),
                      mem_gib=memory_gib)

        order = {c.id: i for i, c in enumerate(REGISTRY)}
        final = sorted(done.values(), key=lambda r: order.get(r.id, len(order)))
        write_all(path, final)  # claim order, so equal seeds give equal files
        meta.update(run_time_s=round(time.monotonic() - t_run, 2), claims=len(final),
                    complete=True)
        provenance.write(path, meta)
    selected = {c.id for c in claims}
    return Results([r for r in final if r.id in selected], path=path)


# -- validation -------------------------------------------------------------------------------
def _check_arguments(
    profile: str, jobs: int | None, seed: int, shards: int, examples: int | None,
    scheduler: str | None, timeout: float | None,
) -> tuple[int, float | None, int | None]:
    """``(seed, timeout, jobs)`` normalised, or :class:`UsageError` naming the first argument
    out of its range."""
    if profile not in PROFILES:
        raise UsageError(f"profile {profile!r}: expected one of {', '.join(PROFILES)}")
    if jobs is not None and (not _is_int(jobs) or jobs < 0):
        raise UsageError(f"jobs must be an integer >= 0, got {jobs!r}")
    if not _is_int(seed):
        raise UsageError(f"seed must be an integer, got {seed!r}")
    if not _is_int(shards) or shards < 1:
        raise UsageError(f"shards must be an integer >= 1, got {shards!r}")
    if examples is not None and (not _is_int(examples) or examples < 1):
        raise UsageError(f"examples must be an integer >= 1, got {examples!r}")
    if scheduler is not None and jobs == 0:
        raise UsageError("jobs=0 runs in this process: it cannot be given with a scheduler")
    return int(seed), _check_timeout(timeout), jobs


def _is_int(value: object) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def _check_timeout(timeout: object) -> float | None:
    """The per-claim budget as a float; NaN, infinities, non-positive values and values
    above :data:`~verify.registry.MAX_TIMEOUT_S` are usage errors (a NaN budget would never
    expire, so a looping claim would never be killed; a huge one overflows the OS timers)."""
    if timeout is None:
        return None
    if isinstance(timeout, bool) or not isinstance(timeout, numbers.Real):
        raise UsageError(f"timeout must be a positive, finite number of seconds, got {timeout!r}")
    t = float(timeout)
    if not (math.isfinite(t) and t > 0):
        raise UsageError(f"timeout must be a positive, finite number of seconds, got {t:g}")
    if t > MAX_TIMEOUT_S:
        raise UsageError(f"timeout must be at most {MAX_TIMEOUT_S:g} s (7 days), got {t:g}")
    return t


def _check_results_path(results_path: str | os.PathLike[str] | None, resume: bool) -> Path:
    """The results file to write, refused when it cannot be one (before anything is written):
    a folder, a FIFO or a device, an existing file that is not a results file (``verify run
    --json mypaper.py`` must not replace the user's claims), a read-only file, or a sidecar
    (``<name>.meta.json``) that is not one. A symbolic link is replaced by the run's file (what
    it points to is left alone), so only ``resume``, which reads it, checks its target."""
    from . import provenance
    from .errors import ResultsFileError

    path = DEFAULT_RESULTS if results_path is None else results_path
    if not isinstance(path, (str, os.PathLike)):
        raise UsageError(f"results_path must be a path, got {path!r}")
    if os.fspath(path) == "":
        raise UsageError("results file name is empty (--json '')")
    path = Path(path)
    if path.is_dir():
        raise UsageError(
            f"results file {str(path)!r} is a folder; give a file name, e.g. "
            f"{str(path / 'results.jsonl')!r}"
        )
    if os.path.islink(path):  # replaced by the run's own file, never written through;
        try:                  # what it points to is read only by --resume
            st = os.stat(path)
        except FileNotFoundError:
            st = None
        if resume and st is not None and not stat.S_ISREG(st.st_mode):
            raise UsageError(f"results file {str(path)!r} is not a regular file; choose "
                             "another --json file")
    elif os.path.lexists(path):
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode):
            raise UsageError(f"results file {str(path)!r} is not a regular file; choose "
                             "another --json file")
        if not looks_like_results(path):
            raise UsageError(
                f"{str(path)!r} exists and is not a results file (its first line is not a "
                "claim's record); not replacing it: choose another --json file"
            )
        if not st.st_mode & 0o222 or not os.access(path, os.W_OK):
            raise UsageError(f"results file {str(path)!r} is read-only; not replacing it "
                             "(make it writable or choose another --json file)")
    try:
        provenance.read(path)
    except ResultsFileError as e:
        raise UsageError(f"{e}; not replacing it: remove it or choose another --json file") \
            from None
    return path


#: The address forms a Dask scheduler is reached at.
_SCHEDULER_ADDRESS = re.compile(
    r"(?:(?P<scheme>tcp|tls|ws|wss|ucx)://)?(?P<host>\[[0-9a-fA-F:.]+\]|[A-Za-z0-9_.\-]+)"
    r":(?P<port>[0-9]{1,5})/?"
)


def check_scheduler(address: object, connect_s: float = 5.0) -> None:
    """Raise :class:`UsageError` unless ``address`` is ``"local"`` or the address of a Dask
    scheduler (``tcp://host:8786``) that answers a connection within ``connect_s`` seconds,
    and Dask is installed: a run on a cluster fails before it writes anything."""
    if not isinstance(address, str) or not address.strip():
        raise UsageError(f"--scheduler must be 'local' or an address such as "
                         f"tcp://host:8786, got {address!r}")
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise UsageError(f"--scheduler {address!r} needs Dask: pip install 'verify[dask]'") \
            from None
    if address == "local":
        return
    m = _SCHEDULER_ADDRESS.fullmatch(address)
    if m is None or not 0 < int(m["port"]) < 65536:
        raise UsageError(f"--scheduler {address!r}: expected 'local' or a scheduler address "
                         "such as tcp://host:8786")
    host, port = m["host"].strip("[]"), int(m["port"])
    try:
        with socket.create_connection((host, port), timeout=connect_s):
            pass
    except OSError as e:
        raise UsageError(f"--scheduler {address!r}: cannot reach {host}:{port} "
                         f"({e.strerror or e}); is the scheduler running?") from None


# -- discovery and resume ---------------------------------------------------------------------
def _discover(
    select: str | Sequence[str] | None, paper: str | Sequence[str] | None,
    modules: Sequence[str] | None, *, imports: bool,
) -> list[str]:
    """Discover the claims sources into the registry; return the modules the workers import
    (those that did not fail to import). The default sources (``modules=None``) are narrowed
    to the modules that can hold the selection; ``imports`` imports them here even when the
    claim index could answer (``jobs=0`` runs the claims in this process)."""
    if modules is None:
        found = discover_selected(select, paper, imports=imports)
    else:
        found = list(modules)
        discover(found)
    return [m for m in found if m not in REGISTRY.broken]


def _resumed(path: Path, seed: int, profile: str, narrowed: bool) -> dict[str, ClaimResult]:
    """The results already in ``path`` that a resumed run keeps: those of this seed and
    profile, less the crashed ones (a crash or timeout runs again, and a memoised training it
    was in resumes from its checkpoint, :mod:`verify.memo`)."""
    done: dict[str, ClaimResult] = {}
    if not path.exists():
        return done
    for r in load(path):
        if r.run_seed == seed and r.profile == profile and not r.crashed:
            done[r.id] = r
    if narrowed and any(cid not in REGISTRY for cid in done):
        discover(default_modules())  # the file is rewritten in the order of all claims
    return done


def _budget(c: Claim, profile: str, timeout: float | None) -> float:
    """Claim ``c``'s time budget: the run's ``timeout``, else its own, else the profile's."""
    if timeout is not None:
        return timeout
    return c.timeout_for(profile) or PROFILES[profile]["timeout"]


# -- recording --------------------------------------------------------------------------------
class _Recorder:
    """Streams each claim's result to the results file as it is known, merging a sharded
    claim's results once all its shards have theirs (:func:`verify.shards.merge`)."""

    def __init__(self, path: Path, done: dict[str, ClaimResult], shards: int,
                 on_result: Callable[[ClaimResult], None] | None) -> None:
        self.path, self.done, self.shards, self.on_result = path, done, shards, on_result
        self.gathered: dict[str, list[tuple[int, ClaimResult]]] = {}

    def record(self, result: ClaimResult) -> None:
        result = storable(result)  # odd data costs this claim, never the file or the run
        self.done[result.id] = result
        append(self.path, result)
        if self.on_result:
            self.on_result(result)

    def finish(self, c: Claim, ctx: Context, result: ClaimResult) -> None:
        """Record a claim's result, once all its shards have theirs."""
        if self.shards == 1:
            self.record(result)
            return
        got = self.gathered.setdefault(c.id, [])
        got.append((ctx.shard, result))
        if len(got) == self.shards:
            results = [r for _, r in sorted(got, key=lambda sr: sr[0])]
            self.record(merge_shards(c, replace(ctx, shard=0), results))


Finish = Callable[[Claim, Context, ClaimResult], None]


# -- dispatch: in this process, a local pool, or a Dask cluster ------------------------------
def _dispatch_inline(tasks: Sequence[Task], finish: Finish) -> None:
    """Run ``tasks`` one by one in this process (``jobs=0``)."""
    for t in tasks:
        c = REGISTRY[t.claim_id]
        finish(c, t.ctx, run_inline(c, t.ctx))


def _outcome_result(o: Outcome) -> tuple[Claim, Context, ClaimResult]:
    """The claim, context and result of a task a worker ran: its record, or the failure."""
    c = REGISTRY[o.task.claim_id]
    if o.record is not None:
        try:
            result = ClaimResult.from_dict(o.record)
        except ResultsFileError as e:
            result = failed(c, o.task.ctx, f"result could not be saved: {e}", o.elapsed_s)
    else:
        result = failed(c, o.task.ctx, o.failure or "unknown failure", o.elapsed_s, o.output)
    return c, o.task.ctx, result


def _dispatch_dask(
    tasks: Sequence[Task], finish: Finish, *, scheduler: str, jobs: int,
    modules: Sequence[str], profile: str, device: str | None,
) -> None:
    """Run ``tasks`` on a Dask cluster, each claim with the resources it declares (none when
    the run is on the CPU) and, when ``device`` is not given, the device of its worker."""
    from . import dask_runner

    def needs(t: Task) -> dict[str, float]:
        return {} if device == "cpu" else REGISTRY[t.claim_id].resources_for(profile)

    dask_runner.run_tasks(tasks, scheduler=scheduler, jobs=jobs, modules=modules,
                          on_outcome=lambda o: finish(*_outcome_result(o)), resources=needs,
                          auto_device=device is None)


# -- jobs=0: a claim in this process ------------------------------------------------------------
class _OutOfTime(BaseException):
    """Raised in a claim run in this process when its budget is spent (a BaseException, so
    that a check's ``except Exception`` does not swallow it)."""


@contextlib.contextmanager
def _alarm(seconds: float):
    """Raise :class:`_OutOfTime` in the main thread after ``seconds`` (no limit elsewhere:
    a signal reaches only the main thread)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def spent(signum: int, frame: object) -> None:
        raise _OutOfTime

    old = signal.signal(signal.SIGALRM, spent)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def run_inline(c: Claim, ctx: Context) -> ClaimResult:
    """Run claim ``c`` in this process (``jobs=0``, for debugging): stopped as a worker
    would stop it, at its budget plus the pool's grace, and every child process it started
    killed when it ends."""
    from .isolation import children, sweep_children
    from .pool import GRACE_S

    keep = set(children(os.getpid()))
    t0 = time.monotonic()
    try:
        with _alarm(ctx.budget_s + GRACE_S):
            return execute(c, ctx)
    except _OutOfTime:
        why = (f"timeout: still running after its budget of {ctx.budget_s:g} s; stopped "
               "(jobs=0: in this process)")
        return failed(c, ctx, why, time.monotonic() - t0)
    finally:
        sweep_children(keep)

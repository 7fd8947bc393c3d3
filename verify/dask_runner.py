"""Running claims on a Dask cluster: each claim is one Dask task, isolated on its worker.

:func:`run_tasks` has the signature and the contract of :func:`verify.pool.run_tasks`, so
:func:`verify.runner.run` streams, records and resumes the same way whichever runs the
claims. The cluster only decides *where* a claim runs; *how* is the pool's:

- on each Dask worker process, the task hands its claim to a resident pool slot
  (:mod:`verify.pool`: a template spawned once per worker, a fresh fork of it per claim),
  so a claim keeps its time budget and its isolation: a crash, hang or out-of-memory of
  one claim is that claim's UNDECIDED, and its template is replaced; the worker lives on;
- a Dask worker that dies (killed, or the machine lost) takes no finished result with it:
  results are recorded by the client as each task finishes, and Dask re-runs the lost
  task on another worker (``distributed.scheduler.allowed-failures`` times, after which
  the claim is UNDECIDED with the reason);
- a claim that declares resources (``@verify.claim(..., resources={"GPU": 1})``) is
  submitted with them, so Dask schedules it only on workers started with them
  (``dask worker ... --resources GPU=1``); when no worker of the cluster offers them the
  claim is UNDECIDED at once instead of waiting forever.

A worker keeps its template for the next runs, keyed by the *content* of the claims
sources (a sha256 over the claims files and the ``.py`` files of the claims packages, read
by the client): after a claims file changes, the next run gets a fresh template that imports
the new code (the old one is stopped), never the code of the previous run. The client's
cache setting (``--no-cache``, ``--cache-dir``, ``VERIFY_CACHE_DIR``) and its limits
(``--max-processes``, ``--max-file-gib``) travel with each task and are the environment of
the worker's template, so they hold on remote workers as locally.

``scheduler="local"`` starts a :class:`distributed.LocalCluster` of ``jobs`` single-threaded
worker processes for the run; anything else is a scheduler address (``tcp://host:8786``).
Dask and distributed are an optional extra: ``pip install 'verify[dask]'``.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing as mp
import os
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from .errors import UsageError
from .pool import Outcome, Resident, Task
from .sources import FILE_PREFIX

log = logging.getLogger(__name__)

#: ``--scheduler`` value that starts a local cluster for the run.
LOCAL = "local"


def run_tasks(
    tasks: Sequence[Task],
    *,
    scheduler: str,
    jobs: int,
    modules: Sequence[str] | None,
    on_outcome: Callable[[Outcome], None],
    resources: Callable[[Task], dict[str, float]] | None = None,
    auto_device: bool = False,
) -> None:
    """Run ``tasks`` as Dask tasks on the cluster at ``scheduler`` (``"local"``: a
    ``LocalCluster`` of ``jobs`` workers), calling ``on_outcome`` as each one ends.

    ``resources(task)`` gives the Dask resources a task needs; ``auto_device`` resolves each
    claim's device on the worker that runs it (CUDA where that worker has it).
    """
    if not tasks:
        return
    distributed = _import_distributed()
    shipped = _portable(modules)
    template = TemplateKey(sources_digest(shipped), _shipped_env())
    with _client(distributed, scheduler, jobs) as client:
        offered = _offered_resources(client)
        shares = _host_shares(client)
        futures: dict[Any, Task] = {}
        for task in tasks:
            need = dict(resources(task)) if resources else {}
            missing = {k: v for k, v in need.items() if offered.get(k, 0) < v}
            if missing:
                on_outcome(Outcome(task, None, _no_worker_offers(missing, scheduler), 0.0))
                continue
            fut = client.submit(run_on_worker, task, shipped, shares, auto_device, template,
                                key=f"verify-{task.ctx.claim_id}-{uuid.uuid4().hex[:8]}",
                                resources=need or None, pure=False)
            futures[fut] = task
        t0 = time.monotonic()
        for fut in distributed.as_completed(list(futures)):
            task = futures.pop(fut)
            try:
                outcome = fut.result()
            except Exception as e:
                outcome = Outcome(task, None, _task_failure(e), time.monotonic() - t0)
            on_outcome(outcome)


def cluster_threads(scheduler: str, jobs: int) -> int:
    """How many claims the cluster runs at once: ``jobs`` for a local cluster, else the
    worker threads of the cluster at ``scheduler`` now (``verify fuzz``'s default shards)."""
    if scheduler == LOCAL:
        return max(1, jobs)
    distributed = _import_distributed()
    with _client(distributed, scheduler, jobs) as client:
        info = client.scheduler_info().get("workers", {}).values()
        return max(1, sum(int(w.get("nthreads") or 1) for w in info))


def _import_distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise UsageError("--scheduler needs Dask: pip install 'verify[dask]' (dask and "
                         "distributed)") from None
    return distributed


@contextlib.contextmanager
def _client(distributed: Any, scheduler: str, jobs: int) -> Iterator[Any]:
    """A client of the cluster at ``scheduler``, or of a local cluster started for the run
    (single-threaded worker processes, no dashboard), closed at the end."""
    if scheduler == LOCAL:
        cluster = distributed.LocalCluster(
            n_workers=max(1, jobs), threads_per_worker=1, processes=True,
            dashboard_address=":0", silence_logs=logging.ERROR,  # any free port
        )
        try:
            with distributed.Client(cluster) as client:
                yield client
        finally:
            cluster.close()
        return
    try:
        client = distributed.Client(scheduler, timeout="30s")
    except (OSError, TimeoutError) as e:
        raise UsageError(f"--scheduler {scheduler}: cannot reach the Dask scheduler ({e})") \
            from None
    with client:
        yield client


def _portable(modules: Sequence[str] | None) -> list[str] | None:
    """The modules as workers must import them: claims files by absolute path (a worker's
    working folder need not be the client's)."""
    if modules is None:
        return None
    out = []
    for m in modules:
        if m.startswith(FILE_PREFIX):
            m = FILE_PREFIX + str(Path(m[len(FILE_PREFIX):]).resolve())
        out.append(m)
    return out


@dataclass(frozen=True)
class TemplateKey:
    """What a worker's template must match beyond its modules: the content of the claims
    sources and the environment the client sends (the cache setting)."""

    digest: str
    env: tuple[tuple[str, str], ...] = ()


#: Environment variables a task carries from the client to the worker's template.
SHIPPED_ENV = ("VERIFY_CACHE_DIR", "VERIFY_CHECKPOINT_S", "VERIFY_MAX_PROCESSES",
               "VERIFY_MAX_FILE_GIB")


def _shipped_env() -> tuple[tuple[str, str], ...]:
    """The client's settings of :data:`SHIPPED_ENV` (a cache folder made absolute)."""
    from .memo import OFF

    out = []
    for name in SHIPPED_ENV:
        value = os.environ.get(name)
        if value is None:
            continue
        if name == "VERIFY_CACHE_DIR" and value.strip().lower() not in (OFF, ""):
            value = str(Path(value).expanduser().resolve())
        out.append((name, value))
    return tuple(out)


def sources_digest(modules: Sequence[str] | None) -> str:
    """sha256 over the source of the claims ``modules``: a claims file's bytes, and every
    ``.py`` file of a module's top-level package (or its own file), in path order."""
    import hashlib
    import importlib.util

    h = hashlib.sha256()
    files: set[Path] = set()
    for m in modules or ():
        if m.startswith(FILE_PREFIX):
            files.add(Path(m[len(FILE_PREFIX):]))
            continue
        top = m.split(".", 1)[0]
        try:
            spec = importlib.util.find_spec(top)
        except (ImportError, ValueError):
            spec = None
        if spec is None:
            h.update(f"missing {m}\0".encode())
        elif spec.submodule_search_locations:
            for root in spec.submodule_search_locations:
                files.update(Path(root).rglob("*.py"))
        elif spec.origin:
            files.add(Path(spec.origin))
    for f in sorted(files):
        h.update(str(f).encode() + b"\0")
        try:
            h.update(f.read_bytes())
        except OSError:
            h.update(b"unreadable")
    return h.hexdigest()


def _offered_resources(client: Any) -> dict[str, float]:
    """The most of each resource one worker of the cluster offers now."""
    best: dict[str, float] = {}
    for info in client.scheduler_info().get("workers", {}).values():
        for name, amount in (info.get("resources") or {}).items():
            best[name] = max(best.get(name, 0.0), float(amount))
    return best


def _host_shares(client: Any) -> dict[str, int]:
    """How many worker threads each host runs: a claim gets its share of the host's cores
    and memory, as a local pool divides them between its slots."""
    hosts: dict[str, int] = {}
    for info in client.scheduler_info().get("workers", {}).values():
        host = info.get("host") or "?"
        hosts[host] = hosts.get(host, 0) + int(info.get("nthreads") or 1)
    return hosts


def _no_worker_offers(missing: dict[str, float], scheduler: str) -> str:
    need = ", ".join(f"{k}={v:g}" for k, v in sorted(missing.items()))
    return (f"needs Dask resources {need}, which no worker of the cluster at {scheduler} "
            f"offers (start one with: dask worker <scheduler> --resources {need})")


def _task_failure(e: BaseException) -> str:
    name = type(e).__name__
    if name == "KilledWorker":
        return ("the Dask workers that ran it died each time (distributed.scheduler."
                f"allowed-failures): {e}")
    return f"Dask task failed on its worker: {name}: {e}"


# -- on the worker ---------------------------------------------------------------------------

#: This worker process's resident templates, by (modules, sources digest and environment,
#: memory limit, threads): each spawned by the first claim that needs it, kept for the next.
_RESIDENT: dict[tuple[Any, ...], Resident] = {}
_RESIDENT_LOCK = threading.Lock()


def run_on_worker(task: Task, modules: Sequence[str] | None, shares: dict[str, int],
                  auto_device: bool, template: TemplateKey | None = None) -> Outcome:
    """The Dask task: run one claim in a fresh fork of this worker's template, within its
    budget, and return its :class:`~verify.pool.Outcome` (never raises for the claim's
    sake: a crash, hang or out-of-memory is the outcome's failure)."""
    if auto_device:
        from .devices import resolve_device

        task = Task(task.claim_id, replace(task.ctx, device=resolve_device(None)))
    template = template or TemplateKey(sources_digest(modules))
    threads, mem_gib = _share(shares, task.ctx.device)
    names = tuple(modules) if modules is not None else None
    key = (names, template, mem_gib, threads)
    with _RESIDENT_LOCK:  # a worker with several threads runs its claims one by one here
        resident = _RESIDENT.get(key)
        if resident is None:
            for old in [k for k in _RESIDENT if k[0] == names and k[1] != template]:
                _RESIDENT.pop(old).close()  # the templates of an older version of the code
            resident = _RESIDENT[key] = _resident(modules, threads, mem_gib, dict(template.env))
        return resident.run(task)


def _resident(modules: Sequence[str] | None, threads: int, mem_gib: float | None,
              env: dict[str, str]) -> Resident:
    # A Dask worker process is daemonic by default, and multiprocessing refuses children
    # to daemonic processes. The templates die with this process anyway (PR_SET_PDEATHSIG).
    me = mp.current_process()
    if me.daemon:
        me.daemon = False
    with contextlib.suppress(ImportError, ValueError):
        from distributed import get_worker

        env = {**env, "VERIFY_WORKER": get_worker().address}  # inherited: where a claim ran
    return Resident(modules, threads, mem_gib, env=env)


def _share(shares: dict[str, int], device: str) -> tuple[int, float | None]:
    """Torch threads and the address-space limit (GiB, None on CUDA) of one claim on this
    worker: its share of the host's cores and memory."""
    from .pool import default_memory_gib

    try:
        from distributed import get_worker

        host = get_worker().address.split("://")[-1].rsplit(":", 1)[0]
    except (ImportError, ValueError, AttributeError):
        host = "?"
    n = max(1, shares.get(host, 1))
    threads = max(1, (os.cpu_count() or 1) // n)
    return threads, (default_memory_gib(n) if device == "cpu" else None)

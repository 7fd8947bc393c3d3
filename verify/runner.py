"""``verify.run``: discover claims, run them in isolated workers, stream their results."""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Sequence
from pathlib import Path

from .context import PROFILES, Context
from .errors import UsageError
from .execute import execute, failed
from .pool import Outcome, Task, run_tasks
from .registry import REGISTRY, Claim, default_modules, discover
from .results import ClaimResult, Results, append, load, write_all

log = logging.getLogger(__name__)

DEFAULT_RESULTS = Path("results.jsonl")


def default_jobs() -> int:
    return max(1, min(os.cpu_count() or 1, 8))


def default_memory_gib(jobs: int) -> float | None:
    """Address-space limit per worker: 80% of physical memory shared by the workers, so a
    runaway claim raises MemoryError in its own worker instead of starving the machine.
    (Not applied on CUDA, whose driver reserves large virtual ranges.)"""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return None
    return max(2.0, 0.8 * total / 2**30 / max(1, jobs))


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
) -> Results:
    """Run the selected claims and return their results.

    Args:
        select: glob(s) over claim ids (``"nfa.ag.*"``); ``None`` runs every claim.
        profile: ``"quick"`` (CI), ``"deep"`` (full sweeps, reproductions) or ``"fuzz"``.
        device: ``"cpu"``, ``"cuda"``, or ``None`` for CUDA when present.
        jobs: worker processes; ``None`` = the number of cores (at most 8). ``jobs=0``
            runs claims in this process, without isolation (for debugging only).
        seed: the run's seed; every random choice of every claim derives from it.
        paper: restrict to these paper keys.
        timeout: seconds per claim, overriding the profile's and the claims' budgets.
        results_path: the JSON-lines file results stream to (``results.jsonl``).
        resume: keep the results already in ``results_path`` (same seed and profile)
            and run only the claims missing from it.
        modules: modules/packages to discover claims in (default: ``proofs``, ``numerics``).
        on_start, on_result: progress callbacks.
        memory_gib: address-space limit of each worker, so a runaway claim fails alone
            (default on CPU: :func:`default_memory_gib`).
    """
    if profile not in PROFILES:
        raise UsageError(f"profile {profile!r}: expected one of {', '.join(PROFILES)}")
    if jobs is not None and jobs < 0:
        raise UsageError(f"jobs must be >= 0, got {jobs}")
    if timeout is not None and timeout <= 0:
        raise UsageError(f"timeout must be positive, got {timeout}")
    from .devices import resolve_device

    dev = resolve_device(device)
    modules = list(modules) if modules is not None else default_modules()
    discover(modules)  # workers import exactly these modules too
    claims = REGISTRY.select(select, paper)
    path = Path(results_path) if results_path is not None else DEFAULT_RESULTS
    path.parent.mkdir(parents=True, exist_ok=True)

    done: dict[str, ClaimResult] = {}
    if resume and path.exists():
        for r in load(path):
            if r.run_seed == seed and r.profile == profile:
                done[r.id] = r
        write_all(path, done.values())  # drop a half-written last line before appending
    else:
        path.write_text("", encoding="utf-8")

    todo = [c for c in claims if c.id not in done]
    if on_start:
        on_start(todo)

    def budget(c: Claim) -> float:
        if timeout is not None:
            return timeout
        return c.timeout_for(profile) or PROFILES[profile]["timeout"]

    def context(c: Claim) -> Context:
        return Context(claim_id=c.id, run_seed=seed, profile=profile, device=dev, budget_s=budget(c))

    def record(result: ClaimResult) -> None:
        done[result.id] = result
        append(path, result)
        if on_result:
            on_result(result)

    import time

    from . import provenance

    t_run = time.monotonic()
    if jobs == 0:
        for c in todo:
            record(execute(c, context(c)))
    else:

        def on_outcome(o: Outcome) -> None:
            c = REGISTRY[o.task.claim_id]
            if o.record is not None:
                record(ClaimResult.from_dict(o.record))
            else:
                record(failed(c, o.task.ctx, o.failure or "unknown failure", o.elapsed_s))

        n_jobs = jobs or default_jobs()
        if memory_gib is None and dev == "cpu":
            memory_gib = default_memory_gib(n_jobs)
        run_tasks(
            [Task(c.id, context(c)) for c in todo],
            jobs=n_jobs,
            modules=modules,
            on_outcome=on_outcome,
            mem_gib=memory_gib,
        )

    order = {c.id: i for i, c in enumerate(REGISTRY)}
    final = sorted(done.values(), key=lambda r: order.get(r.id, len(order)))
    write_all(path, final)  # claim order, so equal seeds give equal files
    provenance.write(
        path,
        provenance.collect(
            seed=seed, profile=profile, device=dev, jobs=jobs if jobs is not None else default_jobs(),
            run_time_s=round(time.monotonic() - t_run, 2), claims=len(final),
        ),
    )
    selected = {c.id for c in claims}
    return Results([r for r in final if r.id in selected], path=path)

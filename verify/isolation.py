"""The two processes a claim runs through: a clean *template* and a *claim child* forked from it.

A template is spawned once per pool slot. It imports the claims modules (and with them
torch, sympy, numpy, hypothesis: whatever they import, so a run of SymPy proofs never loads
torch), then freezes that state and never runs a claim or a torch operation (so no
OpenMP or CUDA state exists to break a fork). It keeps one child forked ahead: the child
takes the next task from the parent's pipe, runs the claim, sends its record to the parent
and exits with ``os._exit``; as soon as it has taken its task the template forks the next
one, and cleans up after the running one when it exits. Whatever a claim changes in its
process (working directory, environment, warning filters, NumPy error mode, torch defaults,
SymPy flags, monkeypatched modules) dies with its child, so every claim starts from the same
state and a verdict depends only on its own claim and seed. Forking ahead keeps the fork,
and the clean-up of the last claim, off the path from task to result.

The pipe to the parent has one writer at a time: the child while it lives, else the
template, which reports a child that died during its claim (``("died", ...)``). The child
tells the template how far it got through a private status pipe (:data:`_TOOK`,
:data:`_WRITING`, :data:`_SENT`, :data:`_STOP`); a child killed in the middle of sending its
record leaves the parent's pipe unusable, and its template exits so that the parent
replaces it.

Nothing a claim starts may outlive it:

- the child leads its own process group, which the template kills when the child has
  exited (the parent kills it at the deadline);
- the template is a child subreaper, so descendants that left the group (``setsid``,
  double fork) are re-parented to it and killed by :func:`sweep_children`;
- ``PR_SET_PDEATHSIG`` ties each template to the parent (SIGTERM: it kills the running
  claim's group, sweeps, and exits) and each claim child to its template (SIGKILL).

The child's stdout and stderr (fds 1 and 2) go to unlinked temporary files, of which the
record keeps the last :data:`OUTPUT_TAIL_BYTES` bytes each in ``output``: a claim that prints
megabytes cannot flood the run's table or die of a closed pipe.

A claim may start processes of its own (``multiprocessing``, a torch ``DataLoader`` with
workers): the claim child is not a daemon, as multiprocessing would otherwise refuse it
children. They stay within the claim's bounds:

- time: they are in the claim's process group, which the parent kills at the deadline;
- memory: with a limit (``mem_gib``, ``verify run --memory-gib``), each process has it as
  its address-space limit (``RLIMIT_AS``: a runaway allocation is a ``MemoryError`` in the
  claim), and the template watches the claim's whole process tree every
  :data:`WATCH_S` seconds: when the proportional set sizes (PSS, shared pages divided
  between their sharers) of the claim child and all its descendants add up to more than the
  limit, or the tree holds more than :func:`max_processes` processes, it kills them all and
  the claim is UNDECIDED with the reason;
- disk: no file a claim process writes (its stdout and stderr included) may grow past
  :func:`max_file_bytes` (``RLIMIT_FSIZE``: the write fails with ``EFBIG``, which
  :mod:`verify.execute` counts as a limit, UNDECIDED);
- every one of them is killed when the claim ends (its group, then the subreaper's sweep).

Every template starts with ``PYTHONHASHSEED`` = :data:`HASH_SEED` (:mod:`verify.pool`; it
cannot change once Python runs): a check that iterates a set of strings sees the same order
in every run, so the same seed gives the same evidence.
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import os
import select
import signal
import sys
import tempfile
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import IO, Any

#: Bytes of each of a claim's stdout and stderr kept in its record.
OUTPUT_TAIL_BYTES = 8192

_STREAMS = ("stdout", "stderr")
#: What a claim child writes to its template's status pipe: it took a task, it is writing
#: its record to the parent, the record is sent, the run is over (no task came), or it
#: could not set itself up (followed by the reason).
_TOOK, _WRITING, _SENT, _STOP, _BROKEN = b"T", b"W", b"R", b"S", b"E"
#: Children in a row that may die before taking a task before the template gives up.
MAX_FAILED_STARTS = 3
#: Template exit status when a child died half-way through sending its record.
EXIT_TORN_PIPE = 3
#: Seconds between two looks at a running claim's process tree (its memory, its size).
WATCH_S = 0.25
#: Most processes a claim's tree may hold at once (a fork bomb is killed at this size);
#: ``VERIFY_MAX_PROCESSES`` (``verify run --max-processes``) overrides it.
MAX_PROCESSES = 512
#: Largest file a claim process may write (``RLIMIT_FSIZE``): 4 GiB;
#: ``VERIFY_MAX_FILE_GIB`` (``verify run --max-file-gib``) overrides it.
MAX_FILE_BYTES = 4 * 2**30


def max_processes() -> int:
    """:data:`MAX_PROCESSES`, or ``VERIFY_MAX_PROCESSES`` when it is a positive integer."""
    try:
        value = int(os.environ.get("VERIFY_MAX_PROCESSES", ""))
    except ValueError:
        return MAX_PROCESSES
    return value if value > 0 else MAX_PROCESSES


def max_file_bytes() -> int:
    """:data:`MAX_FILE_BYTES`, or ``VERIFY_MAX_FILE_GIB`` GiB when it is a positive number."""
    try:
        value = float(os.environ.get("VERIFY_MAX_FILE_GIB", ""))
    except ValueError:
        return MAX_FILE_BYTES
    return int(value * 2**30) if 0 < value < float("inf") else MAX_FILE_BYTES
#: ``PYTHONHASHSEED`` of every template, and so of every claim (string hashing, set order).
HASH_SEED = "0"
_PR_SET_PDEATHSIG = 1
_PR_SET_CHILD_SUBREAPER = 36
_LINUX = sys.platform.startswith("linux")

#: Pids (= process groups) of the template's claim children, for its signal handler.
_claim_children: set[int] = set()


# -- process control -------------------------------------------------------------------------


def _prctl(option: int, arg: int) -> bool:
    """``prctl(option, arg)`` on Linux; False where it is unavailable or fails."""
    if not _LINUX:
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(option, arg, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def die_with_parent(sig: int, parent_pid: int) -> None:
    """Have the kernel send ``sig`` to this process when its parent (the thread that forked
    it) dies; exit now if the parent is already gone."""
    _prctl(_PR_SET_PDEATHSIG, sig)
    if os.getppid() != parent_pid:
        os._exit(1)


def kill_group(pgid: int) -> None:
    """SIGKILL every process of group ``pgid`` (nothing if the group is gone)."""
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def children(pid: int) -> list[int]:
    """Pids of the live or zombie children of ``pid`` (Linux ``/proc``; empty elsewhere)."""
    kids: list[int] = []
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return kids
    for tid in tids:
        try:
            with open(f"/proc/{pid}/task/{tid}/children") as f:
                kids.extend(int(k) for k in f.read().split())
        except OSError:
            continue
    return kids


def sweep_children(keep: Iterable[int] = (), rounds: int = 50) -> None:
    """Kill and reap every child of this process but ``keep``, then the orphans that
    re-parent to it (a subreaper inherits them), until none is left."""
    spare = set(keep)
    for _ in range(rounds):
        kids = [k for k in children(os.getpid()) if k not in spare]
        if not kids:
            return
        for kid in kids:
            kill_group(kid)  # a child that leads a group (setsid) takes its group along
            try:
                os.kill(kid, signal.SIGKILL)
                os.waitpid(kid, 0)
            except (ProcessLookupError, PermissionError, ChildProcessError):
                pass


# -- the template ----------------------------------------------------------------------------


def _on_parent_gone(signum: int, frame: Any) -> None:
    """The run ended (SIGTERM or SIGHUP, or the parent died): take the claim down and exit."""
    for pid in list(_claim_children):
        kill_group(pid)
    sweep_children()
    os._exit(128 + signum)


def _become_template(parent_pid: int) -> None:
    """Signals and kernel ties of a template: it dies with the parent and adopts orphans."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    signal.signal(signal.SIGTERM, _on_parent_gone)
    signal.signal(signal.SIGHUP, _on_parent_gone)
    _prctl(_PR_SET_CHILD_SUBREAPER, 1)
    die_with_parent(signal.SIGTERM, parent_pid)


def template_main(
    conn: Connection,
    modules: Sequence[str] | None,
    threads: int,
    mem_gib: float | None,
    parent_pid: int,
) -> None:
    """Entry point of a template: import the claims, then keep one claim child forked ahead
    until a child finds the run over (``None`` or the parent's end of ``conn`` closed)."""
    _become_template(parent_pid)
    os.environ.setdefault("OMP_NUM_THREADS", str(threads))  # before numpy/torch load
    os.environ.setdefault("PYTORCH_NVML_BASED_CUDA_CHECK", "1")  # is_available() keeps forks safe
    try:
        from .devices import configure_torch
        from .discovery import discover

        discover(modules)
        if "torch" in sys.modules:  # claims that never import torch (SymPy proofs) skip it
            configure_torch()  # thread count in the child: a template starts no thread pool
        _preload()
    except BaseException as e:
        conn.send(("error", f"could not load the claims: {type(e).__name__}: {e}"))
        return
    gc.freeze()  # children's collections then leave the template's pages shared
    conn.send(("ready", None))
    serve(conn, (mem_gib, threads))


def _preload() -> None:
    """Import what every claim child needs (the runner's modules, NumPy's lazily loaded
    ``random``) and seed once (torch's lazy CUDA seeding reads source lines for its
    traceback), so that no child pays for it again. Seeding starts no thread."""
    from . import combine, devices, execute, results  # noqa: F401

    if "numpy" in sys.modules:
        import numpy.random  # noqa: F401
    execute.reset_global_state(0)


@dataclass
class _Child:
    """A claim child as its template sees it: its pid, the read end of its status pipe,
    and the files its stdout and stderr go to."""

    pid: int
    status: int
    outputs: dict[str, IO[bytes]]

    def close(self) -> None:
        _claim_children.discard(self.pid)
        for f in self.outputs.values():
            f.close()
        with contextlib.suppress(OSError):
            os.close(self.status)


def serve(conn: Connection, limits: tuple[float | None, int]) -> None:
    """Keep one claim child waiting for a task on ``conn``; as soon as it takes one, fork
    the next, then see the running one out (:func:`_see_out`). Returns when a child finds
    the run over, or when children keep dying before they take a task."""
    failed_starts = 0
    waiting = _fork_child(conn, limits, ())
    while True:
        first = _read_first(waiting.status)
        if first == _TOOK:
            failed_starts = 0
            running, waiting = waiting, _fork_child(conn, limits, (waiting,))
            _see_out(conn, running, keep=waiting.pid, mem_gib=limits[0])
            continue
        status = _wait_exit(waiting.pid)
        kill_group(waiting.pid)
        why = _read_available(waiting.status).decode(errors="replace")
        waiting.close()
        if first == _STOP:
            return
        failed_starts += 1
        if failed_starts >= MAX_FAILED_STARTS:
            why = why or f"it exited with status {status}"
            conn.send(("error", f"claim process could not start: {why}"))
            return
        waiting = _fork_child(conn, limits, ())


def _fork_child(conn: Connection, limits: tuple[float | None, int],
                others: Sequence[_Child]) -> _Child:
    """Fork a claim child (it never returns here); ``others`` are children whose files it
    closes."""
    outputs: dict[str, IO[bytes]] = {
        name: tempfile.TemporaryFile(prefix="verify-claim-") for name in _STREAMS}
    status_r, status_w = os.pipe()
    template = os.getpid()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - runs in the child, which never returns
        os.close(status_r)
        for other in others:
            other.close()
        _claim_child(conn, status_w, outputs, limits, template)
    os.close(status_w)
    try:
        os.setpgid(pid, pid)  # also done by the child: whichever runs first wins the race
    except OSError:
        pass
    _claim_children.add(pid)
    return _Child(pid, status_r, outputs)


def _read_first(fd: int) -> bytes:
    """The first byte a child writes on its status pipe (empty if it died first)."""
    while True:
        try:
            return os.read(fd, 1)
        except InterruptedError:  # pragma: no cover - retried by Python itself (PEP 475)
            continue


def _see_out(conn: Connection, child: _Child, keep: int, mem_gib: float | None = None) -> None:
    """Wait for a child that took a task to exit, killing its processes if their tree passes
    the memory limit (:func:`_watch`); kill its process group and every other child of the
    template but ``keep``; report it to the parent if it died during its claim, and exit if
    it died while sending its record (the parent's pipe may be torn)."""
    status, over = _watch(child.pid, keep, mem_gib)
    kill_group(child.pid)
    sweep_children(keep=(keep,))  # now no process holds its status pipe: reading cannot block
    flags = _read_available(child.status)
    try:
        if _SENT in flags:
            return
        if _WRITING in flags:
            os._exit(EXIT_TORN_PIPE)
        output = {name: text for name, f in child.outputs.items() if (text := read_tail(f))}
        conn.send(("died", {"status": status, "output": output, "why": over}))
    finally:
        child.close()


def _watch(pid: int, keep: int, mem_gib: float | None) -> tuple[int | None, str | None]:
    """Reap the claim child ``pid``; meanwhile, every :data:`WATCH_S` seconds, measure the
    process tree it runs in (every descendant of this template but the waiting child
    ``keep``) and kill it all when its memory passes ``mem_gib`` or it holds more than
    :func:`max_processes` processes. Returns the exit code and why it was killed (or None)."""
    over: str | None = None
    try:
        pidfd = os.pidfd_open(pid)
    except (AttributeError, OSError):
        pidfd = None
    try:
        while True:
            try:
                done, raw = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                return None, over
            if done:
                return os.waitstatus_to_exitcode(raw), over
            if over is None:
                over = _over_limits(keep, mem_gib)
                if over is not None:
                    kill_group(pid)
                    sweep_children(keep=(keep,))
            if pidfd is not None:
                select.select([pidfd], [], [], WATCH_S)
            else:
                time.sleep(WATCH_S)
    finally:
        if pidfd is not None:
            os.close(pidfd)


def _over_limits(keep: int, mem_gib: float | None) -> str | None:
    """Why the running claim's process tree must be killed now, or None."""
    limit = max_processes()
    tree = _descendants(os.getpid(), skip=keep, limit=limit)
    if len(tree) > limit:
        return (f"the claim's tree held more than {limit} processes at once (a fork bomb?), "
                "over its limit (verify run --max-processes); killed")
    if not mem_gib:
        return None
    used = sum(_memory_of(p) for p in tree)
    if used <= mem_gib * 2**30:
        return None
    return (f"out of memory: the claim's {len(tree)} process(es) held {used / 2**30:.2f} GiB "
            f"together, over its limit of {mem_gib:g} GiB (verify run --memory-gib); killed")


def _descendants(root: int, skip: int, limit: int = MAX_PROCESSES) -> list[int]:
    """Every live descendant of ``root`` but ``skip`` (and what is below it), from ``/proc``;
    the search stops once it found more than ``limit``."""
    found: list[int] = []
    frontier = [k for k in children(root) if k != skip]
    while frontier and len(found) <= limit:
        found.extend(frontier)
        frontier = [k for p in frontier for k in children(p)]
    return found


def _memory_of(pid: int) -> int:
    """Bytes process ``pid`` holds: its proportional set size (a page shared by n processes,
    such as the template's imports in every fork, counts 1/n), else its resident size."""
    try:
        with open(f"/proc/{pid}/smaps_rollup", "rb") as f:
            for line in f:
                if line.startswith(b"Pss:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        with open(f"/proc/{pid}/statm", "rb") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def _read_available(fd: int) -> bytes:
    """What is in pipe ``fd`` now, without waiting for writers."""
    os.set_blocking(fd, False)
    chunks = []
    try:
        while chunk := os.read(fd, 65536):
            chunks.append(chunk)
    except BlockingIOError:
        pass
    return b"".join(chunks)


def _cuda_poisoned(device: str) -> bool:
    """True when a claim on ``device`` would need CUDA that this template already set up
    (a forked child cannot use it)."""
    torch = sys.modules.get("torch")
    return bool(device.startswith("cuda") and torch and torch.cuda.is_initialized())


def _wait_exit(pid: int) -> int | None:
    """Reap ``pid`` and return its exit code (``-signal`` if a signal ended it)."""
    try:
        return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
    except ChildProcessError:
        return None


def read_tail(f: IO[bytes], limit: int = OUTPUT_TAIL_BYTES) -> str:
    """The last ``limit`` bytes of ``f`` as text, prefixed by a note of how much was cut."""
    size = os.fstat(f.fileno()).st_size
    f.seek(max(0, size - limit))
    text = f.read(limit).decode("utf-8", "replace")
    if size > limit:
        text = f"[... first {size - limit:,} bytes cut ...]\n{text}"
    return text


# -- the claim child -------------------------------------------------------------------------


def _claim_child(
    conn: Connection,
    status: int,
    outputs: dict[str, IO[bytes]],
    limits: tuple[float | None, int],
    template: int,
) -> None:
    """Set up this forked child, take one task from ``conn``, run it, send the outcome on
    ``conn`` and ``os._exit``; each step is noted on the ``status`` pipe. ``limits`` is the
    address-space limit in GiB (or None) and the torch thread count."""
    try:
        _prepare_child(outputs, limits, template)
    except BaseException as e:
        os.write(status, _BROKEN + f"{type(e).__name__}: {e}".encode())
        os._exit(4)
    try:
        task = conn.recv()
    except (EOFError, OSError):
        task = None
    if task is None:
        os.write(status, _STOP)
        os._exit(0)
    os.write(status, _TOOK)
    me = os.getpid()
    try:
        conn.send(("started", me))
        message: tuple[str, dict[str, Any] | str] = ("result", _execute(task, outputs))
    except BaseException as e:
        message = ("failure", f"claim process error: {type(e).__name__}: {e}")
    if os.getpid() != me:  # a process the claim forked, returning through this frame
        os._exit(0)
    os.write(status, _WRITING)
    try:
        conn.send(message)
    except Exception as e:
        conn.send(("failure", f"claim process error: {type(e).__name__}: {e}"))
    os.write(status, _SENT)
    os._exit(0)


def _prepare_child(outputs: dict[str, IO[bytes]], limits: tuple[float | None, int],
                   template: int) -> None:
    """Own process group, death with the template, default signals, output to files,
    memory and thread limits."""
    os.setpgid(0, 0)
    die_with_parent(signal.SIGKILL, template)
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    _redirect(outputs)
    import multiprocessing
    import resource

    multiprocessing.current_process().daemon = False  # a claim may start processes
    mem_gib, threads = limits
    if mem_gib:
        limit = int(mem_gib * 2**30)
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    _lower_limit(resource.RLIMIT_FSIZE, max_file_bytes())
    if "torch" in sys.modules:
        sys.modules["torch"].set_num_threads(threads)


def _lower_limit(which: int, value: int) -> None:
    """Set resource limit ``which`` to ``value`` unless it is already lower."""
    import resource

    soft, hard = resource.getrlimit(which)
    if hard != resource.RLIM_INFINITY:
        value = min(value, hard)
    if soft == resource.RLIM_INFINITY or soft > value:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(which, (value, hard))


def _execute(task: Any, outputs: dict[str, IO[bytes]]) -> dict[str, Any]:
    """Run the claim and return its record, with the tail of what it printed."""
    from .devices import set_device
    from .execute import execute
    from .registry import REGISTRY

    ctx = task.ctx
    ctx.started = time.monotonic()
    if _cuda_poisoned(ctx.device):
        raise RuntimeError("CUDA was initialised while the claims were imported, so a fork "
                           "cannot use it: claims modules must not touch the GPU at import")
    set_device(ctx.device)
    record = execute(REGISTRY[task.claim_id], ctx).to_dict()
    _flush()
    record["output"] = {name: text for name, f in outputs.items() if (text := read_tail(f))}
    return record


def _redirect(outputs: dict[str, IO[bytes]]) -> None:
    """Point fds 1 and 2 (and ``sys.stdout``/``sys.stderr``, which write to them) at files."""
    os.dup2(outputs["stdout"].fileno(), 1)
    os.dup2(outputs["stderr"].fileno(), 2)


def _flush() -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            pass

"""The two processes a claim runs through: a clean *template* and a *claim child* forked from it.

A template is spawned once per pool slot. It imports torch, sympy, numpy, hypothesis and the
claims modules, then freezes that state and never runs a claim or a torch operation (so no
OpenMP or CUDA state exists to break a fork). For each claim it ``os.fork()``s a child; the
child runs the claim, sends its record through a pipe and exits with ``os._exit``. Whatever a
claim changes in its process (working directory, environment, warning filters, NumPy error
mode, torch defaults, SymPy flags, monkeypatched modules) dies with its child, so every claim
starts from the same state and a verdict depends only on its own claim and seed.

Nothing a claim starts may outlive it:

- the child leads its own process group, and the template kills that group when the claim
  ends (the parent kills it at the deadline);
- the template is a child subreaper, so descendants that left the group (``setsid``,
  double fork) are re-parented to it and killed by :func:`sweep_children`;
- ``PR_SET_PDEATHSIG`` ties each template to the parent (SIGTERM: it kills the running
  claim's group, sweeps, and exits) and each claim child to its template (SIGKILL).

The child's stdout and stderr (fds 1 and 2) go to unlinked temporary files, of which the
template keeps the last :data:`OUTPUT_TAIL_BYTES` bytes each in the record's ``output``: a
claim that prints megabytes cannot flood the run's table or die of a closed pipe.
"""

from __future__ import annotations

import ctypes
import gc
import os
import signal
import sys
import tempfile
import time
from collections.abc import Sequence
from multiprocessing.connection import Connection, wait
from typing import IO, Any

#: Bytes of each of a claim's stdout and stderr kept in its record.
OUTPUT_TAIL_BYTES = 8192

_STREAMS = ("stdout", "stderr")
_PR_SET_PDEATHSIG = 1
_PR_SET_CHILD_SUBREAPER = 36
_LINUX = sys.platform.startswith("linux")

#: Pid (= process group) of the claim child the template is running, for its signal handler.
_current_claim: int | None = None


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


def sweep_children(rounds: int = 50) -> None:
    """Kill and reap every child of this process, then the orphans that re-parent to it
    (a subreaper inherits them), until none is left."""
    for _ in range(rounds):
        kids = children(os.getpid())
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
    if _current_claim is not None:
        kill_group(_current_claim)
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
    """Entry point of a template: import the claims, then fork one child per task received
    until told to stop (``None``) or the parent's end of ``conn`` closes."""
    _become_template(parent_pid)
    os.environ.setdefault("OMP_NUM_THREADS", str(threads))  # before numpy/torch load
    os.environ.setdefault("PYTORCH_NVML_BASED_CUDA_CHECK", "1")  # is_available() keeps forks safe
    try:
        from .devices import configure_torch
        from .registry import discover

        configure_torch()  # thread count in the child: a template starts no thread pool
        discover(modules)
        _preload()
    except BaseException as e:  # noqa: BLE001 - tell the parent, then die
        conn.send(("error", f"{type(e).__name__}: {e}"))
        return
    gc.freeze()  # children's collections then leave the template's pages shared
    conn.send(("ready", None))
    while True:
        try:
            task = conn.recv()
        except EOFError:
            return
        if task is None:
            return
        run_claim(conn, task, mem_gib, threads)


def _preload() -> None:
    """Import what every claim child needs (the runner's modules, NumPy's lazily loaded
    ``random``) and seed once (torch's lazy CUDA seeding reads source lines for its
    traceback), so that no child pays for it again. Seeding starts no thread."""
    from . import combine, devices, execute, results  # noqa: F401

    if "numpy" in sys.modules:
        import numpy.random  # noqa: F401
    execute.reset_global_state(0)


def _cuda_poisoned(device: str) -> bool:
    """True when a claim on ``device`` would need CUDA that this template already set up
    (a forked child cannot use it)."""
    torch = sys.modules.get("torch")
    return bool(device.startswith("cuda") and torch and torch.cuda.is_initialized())


def run_claim(conn: Connection, task: Any, mem_gib: float | None, threads: int) -> None:
    """Fork a child that runs ``task`` and report on ``conn``: ``("started", pid)``, then the
    message that ends the claim, ``("result", record)``, ``("failure", reason)`` or
    ``("died", {"status": exit code or -signal, "output": ...})``.

    Once the child has sent its record, the report goes out first and the child's process
    group and escaped descendants are killed and reaped after it (while the parent records
    the result), but always before the template reads its next task.
    """
    global _current_claim
    if _cuda_poisoned(task.ctx.device):
        conn.send(("failure", "CUDA was initialised while the claims were imported, so a fork "
                   "cannot use it: claims modules must not touch the GPU at import"))
        return
    outputs = {name: tempfile.TemporaryFile(prefix="verify-claim-") for name in _STREAMS}
    rfd, wfd = os.pipe()
    template = os.getpid()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - runs in the child, which never returns
        os.close(rfd)
        conn.close()
        _claim_child(task, wfd, outputs, (mem_gib, threads), template)
    os.close(wfd)
    try:
        os.setpgid(pid, pid)  # also done by the child: whichever runs first wins the race
    except OSError:
        pass
    _current_claim = pid
    conn.send(("started", pid))
    with Connection(rfd) as reader:
        message, status = _await_child(pid, reader)
        ended = message is None
        if ended:  # it exited without a word, or with its message still in the pipe
            status = _end_claim(pid, status)
            message = _receive(reader) if reader.poll(0) else None
    output = {name: text for name, f in outputs.items() if (text := read_tail(f))}
    for f in outputs.values():
        f.close()
    if message is None:
        conn.send(("died", {"status": status, "output": output}))
    else:
        if message[0] == "result":
            message[1]["output"] = output
        conn.send(message)
    if not ended:
        _end_claim(pid, status)
    _current_claim = None


def _await_child(pid: int, reader: Connection) -> tuple[tuple[str, Any] | None, int | None]:
    """Wait until the child sends its message or exits; return the message (None if it
    exited first) and its exit code if this already reaped it."""
    pidfd = _pidfd(pid)
    try:
        while True:
            if pidfd is None:  # no pidfd: poll for the child's exit
                ready = wait([reader], 0.05)
            else:
                ready = wait([reader, pidfd])
            if reader in ready:
                return _receive(reader), None  # None: end of file, the child is dying
            if pidfd is None:
                status = _poll_exit(pid)
                if status is not None:
                    return None, status
            elif pidfd in ready:
                return None, None
    finally:
        if pidfd is not None:
            os.close(pidfd)


def _end_claim(pid: int, status: int | None) -> int | None:
    """Kill the claim's process group, reap the child (unless ``status`` says it was), kill
    and reap its escaped descendants; return its exit code."""
    kill_group(pid)
    if status is None:
        status = _wait_exit(pid)
    sweep_children()
    return status


def _pidfd(pid: int) -> int | None:
    """A descriptor that becomes readable when ``pid`` exits (Linux >= 5.3), else None."""
    try:
        return os.pidfd_open(pid)
    except (AttributeError, OSError):
        return None


def _receive(reader: Connection) -> tuple[str, Any] | None:
    try:
        return reader.recv()
    except (EOFError, OSError):
        return None


def _poll_exit(pid: int) -> int | None:
    """The exit code of ``pid`` if it has exited (reaping it), else None."""
    done, status = os.waitpid(pid, os.WNOHANG)
    return os.waitstatus_to_exitcode(status) if done else None


def _wait_exit(pid: int) -> int | None:
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
    task: Any,
    wfd: int,
    outputs: dict[str, IO[bytes]],
    limits: tuple[float | None, int],
    template: int,
) -> None:
    """Run one claim in this forked child, send the outcome on ``wfd`` and ``os._exit``.
    ``limits`` is the address-space limit in GiB (or None) and the torch thread count."""
    code = 0
    try:
        os.setpgid(0, 0)
        die_with_parent(signal.SIGKILL, template)
        for sig in (signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        _redirect(outputs)
        _limit(*limits)
        message = ("result", _execute(task))
    except BaseException as e:  # noqa: BLE001 - e.g. SystemExit from a check
        message = ("failure", f"claim process error: {type(e).__name__}: {e}")
    try:
        _flush()
        with Connection(wfd, readable=False) as out:
            try:
                out.send(message)
            except Exception as e:  # noqa: BLE001 - an unpicklable record: nothing was written
                out.send(("failure", f"claim process error: {type(e).__name__}: {e}"))
    except BaseException:  # noqa: BLE001 - the template reports the exit status
        code = 1
    os._exit(code)


def _limit(mem_gib: float | None, threads: int) -> None:
    if mem_gib:
        import resource

        limit = int(mem_gib * 2**30)
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    if "torch" in sys.modules:
        sys.modules["torch"].set_num_threads(threads)


def _execute(task: Any) -> dict[str, Any]:
    from .devices import set_device
    from .execute import execute
    from .registry import REGISTRY

    ctx = task.ctx
    ctx.started = time.monotonic()
    set_device(ctx.device)
    return execute(REGISTRY[task.claim_id], ctx).to_dict()


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

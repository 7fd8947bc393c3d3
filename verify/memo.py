"""Long deterministic computations (trained models) computed once and shared between claims.

Each claim runs in a fresh fork of a clean template (:mod:`verify.isolation`), so an in-process
``lru_cache`` shares nothing between two claims that train the same model: in the deep profile
every gda Sec. 7.2 claim retrained the same T=2000 runs. :func:`persistent` memoises a function
on disk instead, keyed by everything its result depends on:

* the function (module and qualified name) and its arguments (``repr``: frozen dataclasses of
  numbers, strings and ints, so the key is the whole configuration and the seed);
* the source of the package that defines it (every ``.py`` file of e.g. ``numerics/gda``), so
  an edit to the model or the training loop never returns a stale result;
* the versions of Python, torch and numpy, and torch's thread count (float reductions may
  order differently with another count);
* the process state the result depends on (:func:`process_state`): torch's default dtype and
  device, its deterministic-algorithms, cuDNN and TF32 flags, and mpmath's precision. A claim
  may change them; a value computed after such a change is then stored under another key and
  never served to a process in the clean state (nor the clean value to the changed one).

Patched callables are the one piece of state a key cannot name: a claims module that
monkeypatches a helper at import changes what every memoised computation calling it returns,
in the template and so in every claim of the run. So a memoised function runs *without* the
disk (neither read nor written, and no in-process memo) while :func:`patched` finds a
callable changed: a function or class of the computation's own package (the modules the key's
source digest covers) bound to something other than its definition in the source, or a
Python function of torch, ``torch.nn.functional``, ``torch.linalg``, numpy, ``numpy.linalg``
or ``math`` that those libraries did not define. The patched process computes its own value,
and a clean process never reads it. (The key holds the state that can be named, and the
disk is refused when callables are patched: comparing with the template's state instead
would miss patches made while the template imported the claims.)

Only deterministic functions may be memoised: then a hit returns exactly what recomputing
would in a clean process, and a verdict still depends only on its own claim and seed, never
on which claim ran first. Two claims that miss the same key at once (``--jobs 2``) do not
both compute it: the second waits on a file lock and then reads the first one's result.

:func:`checkpoint` gives the computation running under :func:`persistent` a place to save its
state as it goes (every ``VERIFY_CHECKPOINT_S`` seconds, default 60): a run interrupted by a
timeout or a kill resumes mid-training in the next run instead of starting over. A resumed
computation must give the bit-identical result of an uninterrupted one (its state includes
the random generator), which the tests check for the gda trainer.

The cache lives in ``$VERIFY_CACHE_DIR`` (default ``$XDG_CACHE_HOME/verify`` or
``~/.cache/verify``); ``VERIFY_CACHE_DIR=off`` (``verify run --no-cache``) disables it.
"""

from __future__ import annotations

import ast
import contextlib
import contextvars
import fcntl
import functools
import hashlib
import importlib.util
import inspect
import logging
import os
import pickle
import sys
import tempfile
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from .import_graph import static_imports, walk

log = logging.getLogger(__name__)

F = TypeVar("F", bound=Callable[..., Any])

#: Value of ``VERIFY_CACHE_DIR`` that turns the cache off.
OFF = "off"


def cache_dir() -> Path | None:
    """The cache folder, or None when caching is off."""
    env = os.environ.get("VERIFY_CACHE_DIR")
    if env is not None:
        return None if env.strip().lower() in (OFF, "") else Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "verify"


def checkpoint_interval() -> float:
    """Seconds between two checkpoint saves (``VERIFY_CHECKPOINT_S``, default 60)."""
    try:
        return float(os.environ.get("VERIFY_CHECKPOINT_S", "60"))
    except ValueError:
        return 60.0


def _imported(module: str, path: Path, package: str) -> set[str]:
    """Modules of ``package`` that the source at ``path`` (module ``module``) imports."""
    found = static_imports(module, path, is_package=path.name == "__init__.py")
    return {n for n in found if n == package or n.startswith(package + ".")}


def _source_file(module: str) -> Path | None:
    """The ``.py`` file of ``module``, or None when it is not a module (an imported name)."""
    origin = getattr(sys.modules.get(module), "__file__", None)
    if origin is None:
        try:
            origin = getattr(importlib.util.find_spec(module), "origin", None)
        except (ImportError, AttributeError, ValueError):
            return None
    return Path(origin) if origin and origin.endswith(".py") else None


@functools.lru_cache(maxsize=64)
def _package_sources(module: str) -> tuple[tuple[str, Path], ...]:
    """``module`` and every module of its package (its top two dotted segments, e.g.
    ``numerics.gda``) that it imports, directly or through another one, with their files."""
    parts = module.split(".")
    package = ".".join(parts[:2])

    def imports_of(name: str) -> set[str]:
        path = _source_file(name)
        return _imported(name, path, package) if path is not None and len(parts) > 1 else set()

    found = walk(module, imports_of, skip=lambda name: _source_file(name) is None)
    return tuple((name, path) for name in found if (path := _source_file(name)) is not None)


@functools.lru_cache(maxsize=64)
def source_digest(module: str) -> str:
    """sha256 over the source of ``module`` and of every module of its package that it
    imports (:func:`_package_sources`): the code a memoised result can depend on. An edit
    elsewhere in the package (a decision rule, a report string) keeps the trained models."""
    h = hashlib.sha256(module.encode())
    for name, path in _package_sources(module):
        h.update(name.encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


#: What :func:`torch_state` says in a process where torch keeps its defaults: the state of a
#: process that has not imported torch yet (tests/engine/test_memo_state.py checks it against
#: torch).
TORCH_DEFAULTS = ("dtype torch.float32; device cpu; deterministic False; cudnn False False True; "
                  "tf32 False highest")


def torch_state(torch: Any) -> str:
    """torch's global settings a value computed with it may depend on, as text."""
    parts = [f"dtype {torch.get_default_dtype()}"]
    get_device = getattr(torch, "get_default_device", None)
    if get_device is not None:
        parts.append(f"device {get_device()}")
    parts.append(f"deterministic {torch.are_deterministic_algorithms_enabled()}")
    backends = torch.backends
    parts.append(f"cudnn {backends.cudnn.deterministic} {backends.cudnn.benchmark} "
                 f"{backends.cudnn.allow_tf32}")
    parts.append(f"tf32 {backends.cuda.matmul.allow_tf32} "
                 f"{torch.get_float32_matmul_precision()}")
    return "; ".join(parts)


def process_state() -> str:
    """The process state a memoised value may depend on, as text for its key (the module
    docstring says why each is there). A library not imported yet has its defaults, so the
    key is the same before and after a computation imports it (a claim that imports torch or
    mpmath first shares the entry with one that does not)."""
    import mpmath  # cheap (SymPy imports it anyway); its precision is part of the state

    torch = sys.modules.get("torch")
    state = TORCH_DEFAULTS if torch is None else torch_state(torch)
    return f"{state}; mp.prec {mpmath.mp.prec}"


#: Library modules whose Python functions :func:`patched` checks (when they are imported).
LIBRARIES = ("torch", "torch.nn.functional", "torch.linalg", "numpy", "numpy.linalg", "math")


@functools.lru_cache(maxsize=256)
def _definitions(path: Path, mtime: float) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The top-level functions and classes the source at ``path`` defines, each class with
    the methods its body defines."""
    tree = ast.parse(path.read_bytes())
    out: list[tuple[str, tuple[str, ...]]] = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            out.append((node.name, ()))
        elif isinstance(node, ast.ClassDef):
            methods = tuple(n.name for n in node.body
                            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)))
            out.append((node.name, methods))
    return tuple(out)


def _rebound(value: Any, module: str, qualname: str) -> bool:
    """True when ``value`` is a function or class that is not the one defined as
    ``module.qualname`` (objects that do not say where they come from are not judged)."""
    where = getattr(value, "__module__", None)
    name = getattr(value, "__qualname__", None)
    if not isinstance(where, str) or not isinstance(name, str):
        return False
    return where != module or name != qualname


def _patched_in_package(module: str) -> list[str]:
    found: list[str] = []
    for name, path in _package_sources(module):
        mod = sys.modules.get(name)
        if mod is None:
            continue
        try:
            defs = _definitions(path, path.stat().st_mtime)
        except (OSError, SyntaxError, ValueError):
            continue
        namespace = vars(mod)
        for top, methods in defs:
            value = namespace.get(top)
            if value is None:
                continue
            if _rebound(value, name, top):
                found.append(f"{name}.{top}")
                continue
            if isinstance(value, type):
                for meth in methods:
                    fn = value.__dict__.get(meth)
                    if inspect.isfunction(fn) and _rebound(fn, name, f"{top}.{meth}"):
                        found.append(f"{name}.{top}.{meth}")
    return found


def _patched_in_libraries() -> list[str]:
    found: list[str] = []
    for lib in LIBRARIES:
        mod = sys.modules.get(lib)
        if mod is None:
            continue
        top = lib.split(".", 1)[0]
        for attr, value in list(vars(mod).items()):
            if inspect.isfunction(value) and not attr.startswith("_"):  # public API only
                where = getattr(value, "__module__", None) or ""
                if where != top and not where.startswith(top + "."):
                    found.append(f"{lib}.{attr}")
    return found


def patched(fn: Callable[..., Any]) -> list[str]:
    """The callables a memoised ``fn`` may call that are bound to something else than their
    definition in this process (see the module docstring), as dotted names; empty in a
    clean process."""
    return sorted(set(_patched_in_package(fn.__module__) + _patched_in_libraries()))


def _environment() -> str:
    torch = sys.modules.get("torch")
    numpy = sys.modules.get("numpy")
    threads = torch.get_num_threads() if torch is not None else 0
    return (f"py{sys.version_info[:3]} torch {getattr(torch, '__version__', '-')} "
            f"numpy {getattr(numpy, '__version__', '-')} threads {threads}")


def fingerprint(value: Any) -> str:
    """A text that identifies ``value`` exactly: arrays and tensors by dtype, shape and a hash
    of their bytes (their ``repr`` elides entries), containers item by item, anything else by
    ``repr`` (frozen dataclasses of numbers and strings, as the configurations are)."""
    if isinstance(value, (tuple, list)):
        inner = ", ".join(fingerprint(v) for v in value)
        return f"{type(value).__name__}({inner})"
    if isinstance(value, dict):
        return "dict(" + ", ".join(f"{k!r}: {fingerprint(v)}" for k, v in sorted(
            value.items(), key=lambda kv: repr(kv[0]))) + ")"
    torch = sys.modules.get("torch")
    if torch is not None and isinstance(value, torch.Tensor):
        value = value.detach().cpu().contiguous().numpy()
    numpy = sys.modules.get("numpy")
    if numpy is not None and isinstance(value, numpy.ndarray):
        data = numpy.ascontiguousarray(value)
        return (f"array({data.dtype}, {data.shape}, "
                f"{hashlib.sha256(data.tobytes()).hexdigest()})")
    return repr(value)


def key_of(fn: Callable[..., Any], args: tuple, kwargs: dict[str, Any]) -> str:
    """The cache key of ``fn(*args, **kwargs)``: see the module docstring for what it holds."""
    call = fingerprint(args) + fingerprint(kwargs)
    text = "\n".join((fn.__module__, fn.__qualname__, call, source_digest(fn.__module__),
                      _environment(), process_state()))
    return hashlib.sha256(text.encode()).hexdigest()[:32]


class Checkpoint:
    """Where one memoised computation saves its state; disabled outside :func:`persistent`
    (``load`` gives None and ``save`` does nothing), so code that checkpoints runs unchanged
    when the cache is off."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._last = time.monotonic()

    @property
    def enabled(self) -> bool:
        return self.path is not None

    def load(self) -> Any | None:
        """The last saved state, or None (none saved, or unreadable: then start over)."""
        if self.path is None or not self.path.exists():
            return None
        try:
            with open(self.path, "rb") as fh:
                return pickle.load(fh)
        except Exception as exc:  # a torn or stale file costs only the resume
            log.debug("checkpoint %s unreadable (%s): starting over", self.path, exc)
            return None

    def due(self) -> bool:
        """True when the interval since the last save has passed."""
        return self.enabled and time.monotonic() - self._last >= checkpoint_interval()

    def save(self, state: Any) -> None:
        """Write ``state`` atomically (temp file, then rename)."""
        if self.path is None:
            return
        _write_atomic(self.path, state)
        self._last = time.monotonic()

    def clear(self) -> None:
        if self.path is not None:
            self.path.unlink(missing_ok=True)


_ACTIVE: contextvars.ContextVar[Checkpoint | None] = contextvars.ContextVar(
    "verify_checkpoint", default=None)


def checkpoint() -> Checkpoint:
    """The checkpoint of the memoised computation running now (a disabled one elsewhere)."""
    return _ACTIVE.get() or Checkpoint(None)


def _write_atomic(path: Path, value: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            pickle.dump(value, fh, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


_MISS = object()


def _read(path: Path) -> Any:
    try:
        with open(path, "rb") as fh:
            return pickle.load(fh)
    except FileNotFoundError:
        return _MISS
    except Exception as exc:  # torn or from an incompatible version: recompute
        log.debug("cache entry %s unreadable (%s): recomputing", path, exc)
        return _MISS


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def persistent(fn: F | None = None, *, memo: int = 8) -> Any:
    """Memoise the deterministic function ``fn`` on disk (see the module docstring), with an
    in-process memo of the last ``memo`` results in front, so repeated calls within one claim
    cost nothing (and cost no retraining when the cache is off).

    Use as ``@persistent`` or ``@persistent(memo=512)``; ``wrapper.uncached`` is ``fn``."""
    if fn is None:
        return functools.partial(persistent, memo=memo)
    recent: OrderedDict[str, Any] = OrderedDict()

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        changed = patched(fn)
        if changed:  # its value may not be the clean one: neither read nor written
            _warn_patched(fn, changed)
            return fn(*args, **kwargs)
        key = key_of(fn, args, kwargs)
        if key in recent:
            recent.move_to_end(key)
            return recent[key]
        root = cache_dir()
        if root is None:
            value = fn(*args, **kwargs)
        else:
            value = _cached_call(fn, args, kwargs, root / fn.__module__ / fn.__qualname__, key)
        recent[key] = value
        while len(recent) > memo:
            recent.popitem(last=False)
        return value

    wrapper.uncached = fn  # type: ignore[attr-defined]
    return wrapper


_WARNED: set[tuple[str, tuple[str, ...]]] = set()


def _warn_patched(fn: Callable[..., Any], changed: list[str]) -> None:
    """Say once per function and set of patches that it runs without the disk."""
    name = f"{fn.__module__}.{fn.__qualname__}"
    if (name, tuple(changed)) in _WARNED or len(_WARNED) > 256:
        return
    _WARNED.add((name, tuple(changed)))
    log.warning("%s not memoised: %s patched in this process (verify.memo)", name,
                ", ".join(changed[:5]) + (" ..." if len(changed) > 5 else ""))


def _cached_call(fn: Callable[..., Any], args: tuple, kwargs: dict[str, Any], folder: Path,
                 key: str) -> Any:
    result = folder / f"{key}.pkl"
    value = _read(result)
    if value is not _MISS:
        return value
    with _locked(folder / f"{key}.lock"):
        value = _read(result)  # computed by another claim while this one waited
        if value is not _MISS:
            return value
        ckpt = Checkpoint(folder / f"{key}.ckpt")
        token = _ACTIVE.set(ckpt)
        try:
            value = fn(*args, **kwargs)
        finally:
            _ACTIVE.reset(token)
        _write_atomic(result, value)
        ckpt.clear()
    return value

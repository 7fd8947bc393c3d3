"""Where a run came from: git revision, package versions, seed, device, profile, date.

Written beside the results file as ``<results>.meta.json`` so that a report rebuilt
later from saved results still says how they were computed. A run writes it when it
starts, with ``"complete": false``, and again when it ends (``"complete": true``, run
time, claim count), so the sidecar always describes the results beside it, even those
of an interrupted run; the report also checks its seed and profile against the records.
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import time
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

PACKAGES = ("verify", "torch", "sympy", "numpy", "scipy", "hypothesis", "cvxpy", "mpmath")


def git_revision(cwd: Path | None = None) -> str:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--short=12", "HEAD"],
            cwd=cwd or Path(__file__).resolve().parent.parent,
            capture_output=True,
            text=True,
            timeout=5,
        )
        rev = out.stdout.strip()
        if not rev:
            return "unknown"
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=cwd or Path(__file__).resolve().parent.parent,
            capture_output=True,
            text=True,
            timeout=5,
        ).stdout.strip()
        return rev + ("-dirty" if dirty else "")
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def versions() -> dict[str, str]:
    out = {"python": platform.python_version()}
    for name in PACKAGES:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = "not installed"
    return out


def _tracked_revision(file: Path) -> str | None:
    """The git revision of the checkout that tracks ``file``, or ``None`` when no checkout
    does (an installed copy inside some unrelated repository's ignored folder included)."""
    try:
        tracked = subprocess.run(
            ["git", "ls-files", "--error-unmatch", file.name],
            cwd=file.parent, capture_output=True, text=True, timeout=5,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if tracked.returncode != 0:
        return None
    rev = git_revision(file.parent)
    return None if rev == "unknown" else rev


def _distribution(top: str) -> tuple[str | None, str | None]:
    """The installed distribution that provides top-level module ``top``, and its version."""
    try:
        names = metadata.packages_distributions().get(top) or []
    except Exception:
        names = []
    for name in names:
        try:
            return name, metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return None, None


def claims_sources(modules: Sequence[str]) -> list[dict[str, Any]]:
    """The claims packages a run used beyond verify's own (entry points, ``--module``, files),
    each with the distribution and version that installed it and the git revision of the
    checkout it lives in (``null`` where there is none): a result then names the version of
    the claims that produced it, not only verify's."""
    import sys

    from .discovery import FILE_PREFIX, is_builtin

    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for name in modules:
        if name.startswith(FILE_PREFIX):
            path = Path(name[len(FILE_PREFIX):])
            out.append({"source": f"file {path}", "distribution": None, "version": None,
                        "git_revision": _tracked_revision(path.resolve())})
            continue
        top = name.split(".", 1)[0]
        if is_builtin(name) or top in seen:
            continue
        seen.add(top)
        mod = sys.modules.get(top)
        file = getattr(mod, "__file__", None) or _origin(top)  # not imported: the claim index
        dist, version = _distribution(top)
        out.append({"source": top, "distribution": dist, "version": version,
                    "git_revision": _tracked_revision(Path(file).resolve()) if file else None})
    return out


def _origin(top: str) -> str | None:
    """Where module ``top`` would be imported from, without importing it."""
    import importlib.util

    try:
        spec = importlib.util.find_spec(top)
    except (ImportError, ValueError):
        return None
    return spec.origin if spec is not None and spec.has_location else None


def collect(**run: Any) -> dict[str, Any]:
    """Provenance of a run; ``run`` adds seed, profile, device, jobs, wall time..."""
    from .results import SCHEMA_VERSION

    return {
        "schema_version": SCHEMA_VERSION,
        "git_revision": git_revision(),
        "versions": versions(),
        "platform": platform.platform(),
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "papers": papers(),
        **run,
    }


def papers() -> dict[str, dict[str, Any]]:
    """The registered papers' metadata (title, authors, url, source and index of numbered
    statements, :func:`verify.paper`): the report heads and covers each paper from it."""
    from .registry import REGISTRY

    return {key: info.to_dict() for key, info in REGISTRY.papers.items()}


def meta_path(results_path: str | Path) -> Path:
    p = Path(results_path)
    return p.with_name(p.stem + ".meta.json")


def write(results_path: str | Path, info: dict[str, Any]) -> Path:
    """Replace the sidecar of ``results_path`` with ``info`` (a new file renamed into place:
    never half-written, never written through a symbolic link)."""
    from .results import write_atomic

    path = meta_path(results_path)
    write_atomic(path, json.dumps(info, indent=2, sort_keys=True))
    return path


def read(results_path: str | Path) -> dict[str, Any]:
    """The provenance saved beside ``results_path``, or ``{}`` when there is none.

    Raises :class:`~verify.errors.ResultsFileError` when the sidecar is not a JSON object.
    """
    from .errors import ResultsFileError
    from .results import read_regular

    path = meta_path(results_path)
    if not os.path.lexists(path):
        return {}
    data = read_regular(path, "provenance file", 16 * 2**20)  # never a FIFO or /dev/zero
    try:
        info = json.loads(data.decode("utf-8"))
    except ValueError as e:
        raise ResultsFileError(f"provenance file {str(path)!r} cannot be read: {e}") from None
    if not isinstance(info, dict):
        raise ResultsFileError(f"provenance file {str(path)!r} is not a JSON object")
    return info

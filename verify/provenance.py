"""Where a run came from: git revision, package versions, seed, device, profile, date.

Written beside the results file as ``<results>.meta.json`` so that a report rebuilt
later from saved results still says how they were computed. A run writes it when it
starts, with ``"complete": false``, and again when it ends (``"complete": true``, run
time, claim count), so the sidecar always describes the results beside it, even those
of an interrupted run; the report also checks its seed and profile against the records.
"""

from __future__ import annotations

import json
import platform
import subprocess
import time
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


def collect(**run: Any) -> dict[str, Any]:
    """Provenance of a run; ``run`` adds seed, profile, device, jobs, wall time..."""
    return {
        "git_revision": git_revision(),
        "versions": versions(),
        "platform": platform.platform(),
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        **run,
    }


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

    path = meta_path(results_path)
    if not path.exists():
        return {}
    try:
        info = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise ResultsFileError(f"provenance file {str(path)!r} cannot be read: {e}") from None
    if not isinstance(info, dict):
        raise ResultsFileError(f"provenance file {str(path)!r} is not a JSON object")
    return info

"""Several results files merged into one report: per claim, the strongest profile that ran.

A quick run is a smoke test of the papers' experiments; their verdicts come from deep runs,
which take hours and are committed with their provenance. ``verify report --from quick.jsonl
--from deep/`` therefore merges: for each claim the record of the strongest profile wins
(``deep`` and ``fuzz`` over ``quick``; between equals, the file named later), and the claim
is labelled with the profile, the date and the file its evidence came from. A folder given
as a source stands for every ``*.jsonl`` in it, in name order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import provenance
from ..errors import ResultsFileError
from ..results import ClaimResult, load

#: How much a profile's evidence weighs when two files hold the same claim.
PROFILE_STRENGTH = {"quick": 0, "deep": 1, "fuzz": 1}


@dataclass(frozen=True)
class Source:
    """One results file: its path, provenance and the claims it contributed."""

    path: Path
    meta: dict[str, Any]
    used: tuple[str, ...] = ()

    def label(self) -> str:
        """``deep run of 2026-11-20, gda_deep.jsonl``: how a merged claim names its origin."""
        profile = self.meta.get("profile") or "?"
        date = str(self.meta.get("date") or "date not recorded")[:10]
        return f"{profile} run of {date}, {self.path.name}"


def expand(paths: Sequence[str | Path]) -> list[Path]:
    """The results files named: files as given, folders as their ``*.jsonl`` files."""
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            found = sorted(p.glob("*.jsonl"))
            if not found:
                raise ResultsFileError(f"{p}: folder holds no *.jsonl results file")
            out.extend(found)
        else:
            out.append(p)
    if not out:
        raise ResultsFileError("no results file given")
    return out


def pick(
    loaded: Sequence[tuple[Path, dict[str, Any], Sequence[ClaimResult]]],
) -> tuple[list[ClaimResult], list[Source], dict[str, int]]:
    """Merge files already read, ``(path, meta, results)`` each, in the order given: per claim
    the record of the strongest profile, the later file between equals.

    Returns the merged results (in order of first appearance), the sources with the claims
    each one contributed, and for each claim id the index of its source.
    """
    chosen: dict[str, tuple[ClaimResult, int]] = {}
    order: list[str] = []
    for k, (_, _, results) in enumerate(loaded):
        for r in results:
            if r.id not in chosen:
                order.append(r.id)
                chosen[r.id] = (r, k)
                continue
            old, _ = chosen[r.id]
            if PROFILE_STRENGTH.get(r.profile, 0) >= PROFILE_STRENGTH.get(old.profile, 0):
                chosen[r.id] = (r, k)
    origin = {cid: chosen[cid][1] for cid in order}
    sources = [
        Source(path, meta, tuple(cid for cid in order if origin[cid] == k))
        for k, (path, meta, _) in enumerate(loaded)
    ]
    return [chosen[cid][0] for cid in order], sources, origin


def merge(paths: Sequence[str | Path]) -> tuple[list[ClaimResult], list[Source], dict[str, int]]:
    """Load every file (folders expanded, :func:`expand`) and keep, per claim, the record of
    the strongest profile (:func:`pick`). A sidecar that cannot be read counts as none."""
    loaded = []
    for path in expand(paths):
        try:
            meta = provenance.read(path)
        except ResultsFileError:
            meta = {}
        loaded.append((path, meta, list(load(path))))
    return pick(loaded)

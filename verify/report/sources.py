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


def merge(paths: Sequence[str | Path]) -> tuple[list[ClaimResult], list[Source], dict[str, int]]:
    """Load every file and keep, per claim, the record of the strongest profile.

    Returns the merged results (in order of first appearance), the sources with the claims
    each one contributed, and for each claim id the index of its source.
    """
    files = expand(paths)
    chosen: dict[str, tuple[ClaimResult, int]] = {}
    order: list[str] = []
    metas = []
    for k, path in enumerate(files):
        metas.append(provenance.read(path))
        for r in load(path):
            if r.id not in chosen:
                order.append(r.id)
                chosen[r.id] = (r, k)
                continue
            old, _ = chosen[r.id]
            if PROFILE_STRENGTH.get(r.profile, 0) >= PROFILE_STRENGTH.get(old.profile, 0):
                chosen[r.id] = (r, k)
    origin = {cid: chosen[cid][1] for cid in order}
    sources = [
        Source(path, metas[k], tuple(cid for cid in order if origin[cid] == k))
        for k, path in enumerate(files)
    ]
    return [chosen[cid][0] for cid in order], sources, origin

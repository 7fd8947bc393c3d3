"""The result of a claim, the results of a run, and their JSON-lines file.

One line per claim, written as soon as the claim finishes (flushed and synced, so an
interrupted run loses nothing already done). The record holds at least ``id``, ``paper``,
``verdict``, ``summary``, ``expect``, ``elapsed_s`` and ``evidence`` (DESIGN.md section 4).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import ResultsFileError, UnknownClaimError
from .evidence import Evidence
from .jsonable import to_jsonable
from .verdict import Verdict


@dataclass
class ClaimResult:
    """A claim's verdict, with the evidence that decided it."""

    id: str
    paper: str
    verdict: Verdict
    summary: str
    expect: Verdict | None = None
    elapsed_s: float = 0.0
    evidence: list[Evidence] = field(default_factory=list)
    readings: dict[str, dict[str, str]] = field(default_factory=dict)
    where: str = ""
    kind: str = ""
    statement: str = ""
    reading_statements: dict[str, str] = field(default_factory=dict)
    seed: int | None = None
    run_seed: int = 0
    profile: str = "quick"
    device: str = "cpu"
    error: str | None = None
    rerun: str = ""
    scope: str | None = None  # for PROVED: "general" or "bounded" (verify.combine rule 5)
    severity: str | None = None  # for REFUTED: "erratum", "overstated", "false" (rule 6)
    repaired_by: str | None = None  # the reading whose verdict made the severity
    code: list[str] = field(default_factory=list)  # file:line of each check
    paper_title: str = ""
    #: The tail of what the claim printed, ``{"stdout": ..., "stderr": ...}`` (empty ones left
    #: out), each its last 8 KiB with a note of how much was cut (verify.isolation).
    output: dict[str, str] = field(default_factory=dict)

    @property
    def drift(self) -> bool:
        """True when the claim has an ``expect`` and the verdict differs from it."""
        return self.expect is not None and self.verdict is not self.expect

    def to_dict(self) -> dict[str, Any]:
        return to_jsonable(
            {
                "id": self.id,
                "paper": self.paper,
                "verdict": self.verdict.value,
                "scope": self.scope,
                "severity": self.severity,
                "repaired_by": self.repaired_by,
                "summary": self.summary,
                "expect": self.expect.value if self.expect else None,
                "drift": self.drift,
                "elapsed_s": round(self.elapsed_s, 4),
                "where": self.where,
                "kind": self.kind,
                "statement": self.statement,
                "readings": self.readings,
                "reading_statements": self.reading_statements,
                "seed": self.seed,
                "run_seed": self.run_seed,
                "profile": self.profile,
                "device": self.device,
                "error": self.error,
                "rerun": self.rerun,
                "code": self.code,
                "paper_title": self.paper_title,
                "output": self.output,
                "evidence": [e.to_dict() for e in self.evidence],
            }
        )

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> ClaimResult:
        try:
            return cls(
                id=d["id"],
                paper=d["paper"],
                verdict=Verdict.parse(d["verdict"]),
                summary=d.get("summary", ""),
                expect=Verdict.parse(d["expect"]) if d.get("expect") else None,
                elapsed_s=float(d.get("elapsed_s") or 0.0),
                evidence=[Evidence.from_dict(e) for e in d.get("evidence", [])],
                readings=d.get("readings", {}),
                where=d.get("where", ""),
                kind=d.get("kind", ""),
                statement=d.get("statement", ""),
                reading_statements=d.get("reading_statements", {}),
                seed=d.get("seed"),
                run_seed=int(d.get("run_seed", 0)),
                profile=d.get("profile", "quick"),
                device=d.get("device", "cpu"),
                error=d.get("error"),
                rerun=d.get("rerun", ""),
                scope=d.get("scope"),
                severity=d.get("severity"),
                repaired_by=d.get("repaired_by"),
                code=list(d.get("code") or []),
                paper_title=d.get("paper_title") or "",
                output=dict(d.get("output") or {}),
            )
        except (KeyError, ValueError, TypeError) as e:
            raise ResultsFileError(f"malformed result record for {d.get('id', '?')!r}: {e}") from e


class Results:
    """The results of a run, in claim order; ``results["nfa.x"]`` is one claim's result."""

    def __init__(self, items: Iterable[ClaimResult] = (), path: Path | None = None) -> None:
        self._items: list[ClaimResult] = list(items)
        self.path = path

    def __iter__(self) -> Iterator[ClaimResult]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __getitem__(self, claim_id: str) -> ClaimResult:
        for r in self._items:
            if r.id == claim_id:
                return r
        raise UnknownClaimError(f"no result for claim {claim_id!r}")

    def __contains__(self, claim_id: str) -> bool:
        return any(r.id == claim_id for r in self._items)

    @property
    def drifted(self) -> list[ClaimResult]:
        """Results whose verdict differs from the claim's ``expect``."""
        return [r for r in self._items if r.drift]

    @property
    def exit_code(self) -> int:
        """0 when every verdict matches its ``expect`` (or none has one), else 1."""
        return 1 if self.drifted else 0

    def counts(self) -> dict[Verdict, int]:
        out = {v: 0 for v in Verdict}
        for r in self._items:
            out[r.verdict] += 1
        return out

    def verdicts(self) -> dict[str, Verdict]:
        return {r.id: r.verdict for r in self._items}


# -- the JSON-lines file -----------------------------------------------------------------------
def dumps(result: ClaimResult) -> str:
    return json.dumps(result.to_dict(), ensure_ascii=False, allow_nan=False)


def append(path: Path, result: ClaimResult) -> None:
    """Append one record and hand it to the OS before returning, so that it survives the
    runner being killed. (No fsync per line: it cost ~50 ms a claim here and protects only
    against a power cut; the final rewrite in claim order is synced.)"""
    with open(path, "a", encoding="utf-8") as f:
        f.write(dumps(result) + "\n")


def write_all(path: Path, results: Iterable[ClaimResult]) -> None:
    """Atomically replace ``path`` with ``results`` (used to put the file in claim order)."""
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        for r in results:
            f.write(dumps(r) + "\n")
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def load(path: str | os.PathLike[str], *, strict: bool = False) -> Results:
    """Read a results file. A truncated last line (an interrupted write) is skipped,
    unless ``strict``; any other malformed line is an error naming the line."""
    p = Path(path)
    if not p.exists():
        raise ResultsFileError(f"results file {str(p)!r} does not exist")
    lines = p.read_text(encoding="utf-8").splitlines()
    items: dict[str, ClaimResult] = {}
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            d = json.loads(line)
        except json.JSONDecodeError as e:
            if n == len(lines) and not strict:
                continue  # interrupted mid-write: that claim simply did not finish
            raise ResultsFileError(f"{p}:{n}: not a JSON line ({e})") from None
        r = ClaimResult.from_dict(d)
        items[r.id] = r  # a later line for the same id supersedes an earlier one
    return Results(items.values(), path=p)

"""What changed between two runs: the claims whose verdict reads differently.

``verify diff OLD.jsonl NEW.jsonl`` compares two results files claim by claim, for a paper's
revision or a library upgrade. A verdict is compared as it reads (:mod:`verify.headline`),
with its qualifier and every reading: ``PROVED`` -> ``PROVED (bounded)`` is a change, and so
is reading B going from SUPPORTED to REFUTED while the printed statement stays PROVED.
Claims present in one file only are listed as added or removed.
"""

from __future__ import annotations

from dataclasses import dataclass

from .headline import headline, readings_line
from .results import ClaimResult, Results


@dataclass(frozen=True)
class Change:
    """One claim whose verdict differs between two runs.

    ``old`` / ``new`` are the verdicts as they read (``REFUTED (erratum)``), ``None`` when the
    claim is absent from that run; ``old_readings`` / ``new_readings`` are the readings lines
    (``A PROVED · B REFUTED (false)``), set when the claim has other readings.
    """

    id: str
    old: str | None
    new: str | None
    old_readings: str | None = None
    new_readings: str | None = None

    @property
    def kind(self) -> str:
        """``"added"``, ``"removed"`` or ``"changed"``."""
        if self.old is None:
            return "added"
        if self.new is None:
            return "removed"
        return "changed"

    def to_dict(self) -> dict[str, str | None]:
        return {"id": self.id, "change": self.kind, "old": self.old, "new": self.new,
                "old_readings": self.old_readings, "new_readings": self.new_readings}

    def __str__(self) -> str:
        if self.kind == "added":
            return f"{self.id}: added, {self.new}"
        if self.kind == "removed":
            return f"{self.id}: removed (was {self.old})"
        if self.old != self.new:
            text = f"{self.id}: {self.old} -> {self.new}"
        else:
            text = f"{self.id}: {self.old}, readings changed"
        if self.old_readings != self.new_readings:
            text += f" [{self.old_readings or 'A only'} -> {self.new_readings or 'A only'}]"
        return text


def _readings(r: ClaimResult) -> str | None:
    return readings_line(r) if r.readings else None


def diff(old: Results, new: Results) -> list[Change]:
    """The claims whose verdict (with qualifier and readings) differs, in the new run's order,
    then the claims the new run no longer has."""
    changes = []
    for r in new:
        if r.id not in old:
            changes.append(Change(r.id, None, headline(r), None, _readings(r)))
            continue
        o = old[r.id]
        if headline(o) != headline(r) or _readings(o) != _readings(r):
            changes.append(Change(r.id, headline(o), headline(r), _readings(o), _readings(r)))
    for o in old:
        if o.id not in new:
            changes.append(Change(o.id, headline(o), None, _readings(o), None))
    return changes

"""Mistakes that explain themselves: the closest claim ids to a typo, and where a module named
on the command line can be found.

A selection that matches nothing is an error (verify.registry); this module adds what the user
most likely meant, so that ``verify run --claim gda.valu_grad`` answers "did you mean
'gda.value_grad'?" instead of listing where it looked.
"""

from __future__ import annotations

import difflib
import sys
from collections.abc import Iterable
from pathlib import Path

from .errors import UnknownClaimError

#: How many close ids a message offers at most.
MAX_SUGGESTIONS = 3

#: How alike (difflib's ratio) an id must be to a typo to be offered.
CUTOFF = 0.6

#: How far below the closest id another may be and still be offered.
SPREAD = 0.06


def closest(word: str, candidates: Iterable[str], n: int = MAX_SUGGESTIONS) -> list[str]:
    """The candidates most like ``word``, best first: difflib's ratio at least :data:`CUTOFF`
    and within :data:`SPREAD` of the best one (a typo has one likely fix, not every sibling).
    A glob is compared by its literal part: ``gda.valu_*`` by ``gda.valu_``, and with the
    start of each id as long as it."""
    literal = word.replace("*", "").replace("?", "")
    scored: dict[str, float] = {}
    for c in set(candidates):
        r = difflib.SequenceMatcher(None, literal, c).ratio()
        if len(c) > len(literal):  # a prefix of a long id
            r = max(r, difflib.SequenceMatcher(None, literal, c[: len(literal)]).ratio() - 0.1)
        if r >= CUTOFF:
            scored[c] = r
    if not scored:
        return []
    best = max(scored.values())
    near = sorted((c for c, r in scored.items() if r >= best - SPREAD),
                  key=lambda c: (-scored[c], c))
    return near[:n]


def did_you_mean(word: str, candidates: Iterable[str]) -> str:
    """``"; did you mean 'a' or 'b'?"``, or ``""`` when nothing is close."""
    near = closest(word, candidates)
    if not near:
        return ""
    quoted = [repr(c) for c in near]
    listed = quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " or " + quoted[-1]
    return f"; did you mean {listed}?"


def no_match(pattern: str, ids: Iterable[str], *, named: str = "--claim") -> str:
    """The message for a claim pattern that matches no id: ``--claim 'x' matches no claim``,
    or ``no claim 'x'`` when ``named`` is empty (``verify show ID``), with the closest ids."""
    head = f"{named} {pattern!r} matches no claim" if named else f"no claim {pattern!r}"
    return head + did_you_mean(pattern, ids)


def unknown_claim(claim_id: str, ids: Iterable[str], where: str) -> UnknownClaimError:
    """The error for an id given alone (``verify show ID``): ``no claim 'x'``, the closest
    of ``ids`` (registered or saved in a results file), and where it was looked for."""
    return UnknownClaimError(f"no claim {claim_id!r}{did_you_mean(claim_id, ids)}; {where}")


def module_in_cwd(name: str) -> Path | None:
    """The file or package of module ``name`` in the current folder, when there is one and
    the current folder is not already searched (the ``verify`` script does not search it,
    ``python -m verify`` does)."""
    cwd = Path.cwd()
    if any(Path(p or ".").resolve() == cwd.resolve() for p in sys.path if isinstance(p, str)):
        return None
    parts = name.split(".")
    for candidate in (cwd.joinpath(*parts).with_suffix(".py"),
                      cwd.joinpath(*parts, "__init__.py")):
        if candidate.is_file():
            return candidate
    return None

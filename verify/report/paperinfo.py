"""What the report knows of a paper beyond its claims: authors, url, the revision of its
claims, and its coverage page (which numbered statements the claims check).

A run records every registered paper (:func:`verify.paper`) in its provenance sidecar
(``papers``); a sidecar written before that field existed says nothing, and for a built-in
paper the registration is then read from verify's own package (the index is data of this
verify, :mod:`verify.coverage`). A user's paper is never imported to build a report: what its
run recorded is what the report shows.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Iterable, Sequence
from typing import Any

from ..coverage import Statement, coverage
from ..discovery import BUILTIN_PACKAGES
from ..results import ClaimResult
from .latex import Tex, code, escape_text

log = logging.getLogger(__name__)


def registered(key: str, metas: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """The paper's registration as the runs recorded it (the last one that did), else the
    built-in paper's own; ``{}`` when neither knows the key."""
    found: dict[str, Any] = {}
    for meta in metas:
        info = (meta.get("papers") or {}).get(key) if isinstance(meta, dict) else None
        if isinstance(info, dict):
            found = info
    if found:
        return found
    return _builtin(key)


def _builtin(key: str) -> dict[str, Any]:
    from ..registry import REGISTRY

    if key not in REGISTRY.papers:
        for package in BUILTIN_PACKAGES:
            try:
                importlib.import_module(f"{package}.{key}")
            except ImportError:
                continue
            except Exception as e:
                log.warning("cannot read paper %s's registration: %s", key, e)
            break
    info = REGISTRY.papers.get(key)
    return info.to_dict() if info is not None else {}


def statements(info: dict[str, Any]) -> list[Statement]:
    """The index a registration holds (rows a reader cannot parse are left out)."""
    out = []
    for row in info.get("statements") or []:
        try:
            out.append(Statement.from_dict(row))
        except (KeyError, TypeError, ValueError):
            continue
    return out


def claims_revision(
    key: str, results: Sequence[ClaimResult], metas: Iterable[dict[str, Any]]
) -> str | None:
    """For a user's paper: the git revision of the claims that checked it (the
    ``claims_sources`` entry whose file or package holds the claims' code), ``None`` for a
    built-in paper (its claims are verify's: verify's revision is theirs), ``"not recorded"``
    when the run did not record one."""
    from ..discovery import is_builtin

    if any(is_builtin(loc.split("/", 1)[0]) for r in results for loc in r.code) or (
        not any(r.code for r in results) and _builtin(key)
    ):
        return None
    files = {loc.rsplit(":", 1)[0] for r in results for loc in r.code}
    tops = {f.split("/", 1)[0] for f in files}
    candidates = []
    for meta in metas:
        for item in meta.get("claims_sources") or []:
            if not isinstance(item, dict):
                continue
            source = str(item.get("source") or "")
            name = source.removeprefix("file ").rsplit("/", 1)[-1]
            if name in files or name in tops or source in tops:
                return str(item.get("git_revision") or "not recorded")
            candidates.append(item)
    if len(candidates) == 1:
        return str(candidates[0].get("git_revision") or "not recorded")
    return "not recorded"


def coverage_view(
    info: dict[str, Any], results: Sequence[ClaimResult], badge: Any
) -> dict[str, Any] | None:
    """The rows of the paper's coverage page: each numbered statement with the claims that
    check it (id, headline badge, and whether the claim names it or only its lines), the
    cited equations, and the share checked; ``None`` when the paper has no index."""
    index = statements(info)
    if not index:
        return None
    by_id = {r.id: r for r in results}
    cov = coverage(index, [(r.id, r.where) for r in results])
    rows = []
    for s, found in cov.rows:
        claims = []
        for cid, how in found:
            r = by_id[cid]
            note = Tex(r"\,{\scriptsize\vfmuted{(by its lines)}}") if how == "lines" else Tex("")
            claims.append(Tex(code(cid) + Tex(r"\ ") + badge(r) + note))
        rows.append({
            "name": escape_text(s.name),
            "lines": escape_text(", ".join(
                f"L{a}" if a == b else f"L{a}\u2013{b}" for a, b in s.spans)),
            "claims": claims,
            "checked": bool(claims),
        })
    equations = [
        {"name": escape_text(f"({n})"), "claims": [Tex(code(c) + Tex(r"\ ") + badge(by_id[c]))
                                                    for c in dict.fromkeys(cids)]}
        for n, cids in cov.equations
    ]
    return {
        "rows": rows,
        "equations": equations,
        "checked": cov.checked,
        "total": cov.total,
        "share": share_text(cov.checked, cov.total),
        "source": escape_text(info.get("source") or ""),
    }


def share_text(checked: int, total: int) -> Tex:
    """``23 of 31 (74\\%)``."""
    if not total:
        return Tex("--")
    return Tex(f"{checked} of {total} ({round(100 * checked / total)}\\%)")

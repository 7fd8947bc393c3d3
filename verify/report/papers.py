"""Paper titles and order for the report, read from the results themselves.

The engine holds no list of papers: a paper's title comes from its registration
(``verify.paper(key, title=...)``), which each result record carries as ``paper_title``; a
paper never registered is shown under its key. Papers appear in the order of their first
claim in the results, which is the registry's (discovery) order.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol


class _Record(Protocol):
    paper: str
    paper_title: str


def title(key: str, results: Iterable[_Record] = ()) -> str:
    """The paper's registered title as the results record it, or the key itself."""
    for r in results:
        if r.paper == key and r.paper_title:
            return r.paper_title
    return key


def order(keys: Iterable[str]) -> list[str]:
    """Paper keys in order of first appearance, each once."""
    return list(dict.fromkeys(keys))

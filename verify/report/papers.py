"""The papers of the corpus, by key (DESIGN.md section 1), in report order."""

from __future__ import annotations

PAPERS: dict[str, str] = {
    "nfa": "Neural Fields Meet Attention",
    "pegr": "Positional Encodings as Group Representations",
    "gda": "Gradient Dynamics of Attention (Bayesian trilogy II)",
    "sih": "Spatial Induction Heads (cellular automata ICL)",
    "toef": "Transformers Are Optimal Effective Fields",
}


def title(key: str) -> str:
    """The paper's title, or the key itself for a paper outside the corpus."""
    return PAPERS.get(key, key)


def order(keys: list[str]) -> list[str]:
    """Corpus papers in their table order, then any others alphabetically."""
    known = [k for k in PAPERS if k in keys]
    return known + sorted(k for k in set(keys) if k not in PAPERS)

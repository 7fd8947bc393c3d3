"""The built-in papers' numeric claims and torch constructions: one package per paper.

Each paper package lists its claim modules in ``__claims__``; the other modules are the
paper's constructions. A numeric cross-check of an identity proved in ``proofs`` is attached
to that claim with ``verify.evidence_for``.
"""

"""SymPy evidence engine: exact proofs, checked refutations, Wirtinger calculus, BCH, trig interpolation.

Public names::

    prove_equal(lhs, rhs, *, assumptions=None, timeout=None, seed=0) -> Evidence
    prove_for_sizes(builder, sizes, ...) -> Evidence
"""

from __future__ import annotations

from .prove import prove_equal, prove_for_sizes

__all__ = ["prove_equal", "prove_for_sizes"]

"""Symbolic claims of "Positional Encodings as Group Representations: A Unified Framework"
(Lim, Lawrence, Huang, Thiede; TAG-ML workshop at ICML 2023), key ``pegr``.

SymPy only: nothing here imports torch or ``numerics``. Each claim module is named by the
segment of the ids it holds (``pegr.rope.*`` in :mod:`.rope`); the paper's two-segment ids sit in
the module of their section (``pegr.abelian_irreps_1d`` and ``pegr.equivariant_maps_vs_reps`` in
:mod:`.framework`, §2 / App. A.2; ``pegr.lemma_A1`` in :mod:`.relpe`, App. A.1;
``pegr.peter_weyl`` in :mod:`.structure`, §3.2). What is not a claim module is in the package
:mod:`.model` (not searched for claims): the shared objects (``R(a)`` of L170, the two vec
conventions of L47, permutation matrices), and in :mod:`.model.general` the symbolic-size proofs
of the vec, Kronecker and permutation identities (explicit index maps). The float64
cross-checks of these claims are in the ``numerics/pegr`` module of the same name.
"""

import verify

from .model import PAPER
from .statements import STATEMENTS

verify.paper(
    PAPER,
    title="Positional Encodings as Group Representations: A Unified Framework",
    authors="Derek Lim, Hannah Lawrence, Ningyuan (Teresa) Huang, Erik H. Thiede",
    statements=STATEMENTS,
)

__claims__ = (
    "rep",
    "pe",
    "T",
    "TxT",
    "framework",
    "onehot",
    "rope",
    "relpe",
    "structure",
    "sh",
    "so2",
    "so2pe",
    "data",
)

"""Numeric claims of "Positional Encodings as Group Representations: A Unified Framework" (key
``pegr``; the paper is registered in ``proofs/pegr``).

Every module here holds claims (``__claims__``), named by the segment of the ids it holds, as
in ``proofs/pegr``; a module of the same name there holds the symbolic claims this one
cross-checks (``@verify.evidence_for``). The attention layer of eq. (1) and the NTKs of A.5 are
defined in :mod:`.attention` and :mod:`.ntk`, beside their claims. The paper's other
constructions are in :mod:`.model`, which holds no claims.
"""

__claims__ = (
    "rep",
    "so3",
    "structure",
    "graph",
    "framework",
    "rope",
    "T",
    "TxT",
    "relpe",
    "attention",
    "ntk",
    "laplacian",
    "homogeneous",
    "so2pe",
    "so2",
    "exp",
    "data",
    "ood",
    "informal",
)

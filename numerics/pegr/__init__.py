"""Constructions and numeric claims of "Positional Encodings as Group Representations: A Unified
Framework" (key ``pegr``; the paper is registered in ``proofs/pegr``).

Claim modules (``__claims__``) are named by the segment of the ids they hold, as in
``proofs/pegr``; a module of the same name there holds the symbolic claims this one cross-checks
(``@verify.evidence_for``). The paper's constructions are public modules, not searched for
claims: :mod:`.groups` (rotations, Haar SO(3), permutations, vec conventions, commutant
dimensions), :mod:`.encodings` (the Table 1 encodings and the SO(2)-Bessel PE as
``torch.nn.Module`` s), :mod:`.samplers` (group elements as orthogonal matrices for the fuzzers),
:mod:`.graphs` (Laplacians, automorphisms, the eigenspace actions of App. A.3), :mod:`.inr` (the
targets of App. D.1 and the MLP and training protocol of D.2) and :mod:`.table2_rerun` (the
paper-size re-run of Table 2, run by hand). The attention layer of eq. (1) and the NTKs of A.5
are defined in :mod:`.attention` and :mod:`.ntk`, beside their claims.
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

"""Constructions and numeric claims of "Positional Encodings as Group Representations" (key ``pegr``).

Modules: :mod:`.groups` (rotations, Haar SO(3), permutations, vec conventions, commutant
dimensions), :mod:`.encodings` (the Table 1 encodings and the SO(2)-Bessel PE as
``torch.nn.Module`` s), :mod:`.attention` (eq. (1)/(12) self-attention on vec PEs),
:mod:`.ntk` (analytic ReLU NTK, empirical NTK, kernel predictor of eq. (28)),
:mod:`.graphs` (Laplacians, automorphisms, eigenspace actions of App. A.3),
:mod:`.inr` (the targets of App. D.1 and the MLP/training protocol of D.2).
Claim modules are ``claims_*.py``; symbolic claims live in ``proofs/pegr.py``.
"""

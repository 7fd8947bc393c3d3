"""The torch constructions of "Positional Encodings as Group Representations" (key ``pegr``): no
claims here.

:mod:`.groups` (rotations, Haar SO(3), permutations, vec conventions, commutant dimensions),
:mod:`.encodings` (the Table 1 encodings and the SO(2)-Bessel PE as ``torch.nn.Module`` s),
:mod:`.samplers` (group elements as orthogonal matrices for the fuzzers), :mod:`.graphs`
(Laplacians, automorphisms, the eigenspace actions of App. A.3), :mod:`.inr` (the targets of
App. D.1 and the MLP and training protocol of D.2), :mod:`.training` (the trained Table 2
columns, memoised on disk) and :mod:`.table2_rerun` (the paper-size re-run of Table 2, run by
hand: ``python -m numerics.pegr.model.table2_rerun``).
"""

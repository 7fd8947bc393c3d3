"""Constructions and numeric claims of "Neural Fields Meet Attention" (paper key ``nfa``).

Constructions (stable public API, reused by the experiment checks):

* :mod:`numerics.nfa.groups` -- G_ST, anisotropic scalings, SO(2)/SO(3) acting on points/fields;
* :mod:`numerics.nfa.bases` -- fixed finite sinusoidal / Fourier bases and span certificates;
* :mod:`numerics.nfa.attention_gradient` -- the attention-gradient heads (Thm 3/6, 12-16);
* :mod:`numerics.nfa.field_operator` -- permutation-invariant relative-PE Transformers and the
  normalisation / continuous-frequency operators of Thm 1/4 and Thm 7, Table 1 configurations.

Claim modules: ``claims_*.py`` (and the experiments' modules).
"""

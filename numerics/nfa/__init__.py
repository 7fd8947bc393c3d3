"""Constructions and numeric claims of "Neural Fields Meet Attention" (paper key ``nfa``).

Claim modules, one per id segment (``__claims__``): :mod:`.ag`, :mod:`.eq`, :mod:`.appd`,
:mod:`.basis`, :mod:`.anis`, :mod:`.info`, and the experiments ``nfa.exp.*`` in
:mod:`.exp_table1` (Table 1, Figs 1-2, abstract), :mod:`.exp_table2` (Table 2, Fig. 3) and
:mod:`.exp_appendix` (App. E-G, Tables 3-6).

Constructions (public, reused by the claims and the tests):

* :mod:`.groups` -- G_ST, anisotropic scalings, SO(2)/SO(3) acting on points and fields;
* :mod:`.bases` -- fixed finite sinusoidal / Fourier bases and span certificates;
* :mod:`.attention_gradient` -- the attention-gradient heads (Thm 3/6, 12-16);
* :mod:`.field_operator` -- permutation-invariant relative-PE Transformers, the normalisation
  and continuous-frequency operators of Thm 1/4 and Thm 7, the Table 1 configurations;
* :mod:`.siren`, :mod:`.training` -- the SIREN decoder (Table 3) and brief meta-training;
* :mod:`.harness` -- the float64 equivariance harness; :mod:`.data` -- the experiments'
  data; :mod:`.metrics` -- the experiments' metrics and side-by-side rules.
"""

__claims__ = (
    "ag",
    "eq",
    "appd",
    "basis",
    "anis",
    "info",
    "exp_table1",
    "exp_table2",
    "exp_appendix",
)

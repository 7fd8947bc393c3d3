"""The torch constructions of "Neural Fields Meet Attention" (key ``nfa``): no claims here.

Public, reused by the claim modules of ``numerics/nfa`` and by the tests:

* :mod:`.groups` -- G_ST, anisotropic scalings, SO(2)/SO(3) acting on points and fields;
* :mod:`.bases` -- fixed finite sinusoidal / Fourier bases and span certificates;
* :mod:`.attention_gradient` -- the attention-gradient heads (Thm 3/6, 12-16);
* :mod:`.field_operator` -- permutation-invariant relative-PE Transformers, the normalisation
  and continuous-frequency operators of Thm 1/4 and Thm 7, the Table 1 configurations;
* :mod:`.siren`, :mod:`.training` -- the SIREN decoder (Table 3) and brief meta-training;
* :mod:`.harness` -- the float64 equivariance harness; :mod:`.data` -- the experiments'
  data; :mod:`.metrics` -- the experiments' metrics and side-by-side rules.
"""

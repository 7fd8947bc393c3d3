"""Symbolic (SymPy) claims of "Neural Fields Meet Attention" (paper key ``nfa``).

Modules: :mod:`.attention_gradient` (Thm 3/6, A.4.1 expansions), :mod:`.groups`
(the action rho, normalisation statistics, Thm 7 algebra), :mod:`.appendix_c` (Thm 12/13),
:mod:`.appendix_d` (Thm 14). Numeric evidence for the same ids lives in ``numerics/nfa``.
"""

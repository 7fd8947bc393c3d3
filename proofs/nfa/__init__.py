"""Symbolic (SymPy) claims of "Neural Fields Meet Attention" (paper key ``nfa``).

One module per id segment: :mod:`.ag` (``nfa.ag.*``: Thm 3/6, the update mapping, the
softmax expansions of A.4.1), :mod:`.eq` (``nfa.eq.*``: the action rho, the normalisation
statistics of Thm 4(A)), :mod:`.appc` (``nfa.appc.*``: Thm 12, 13) and :mod:`.appd`
(``nfa.appd.thm14_multihead_identity``). :mod:`.model` builds the paper's expressions
(softmax weights, symbol vectors, Taylor coefficients) for all of them. Numeric evidence for
the same ids, and the numeric claims, live in ``numerics/nfa``.
"""

import verify

from .statements import STATEMENTS

PAPER = "nfa"

verify.paper(PAPER, title="Neural Fields Meet Attention", statements=STATEMENTS)

__claims__ = ("ag", "eq", "appc", "appd")

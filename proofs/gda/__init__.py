"""Symbolic (SymPy) claims of "Gradient Dynamics of Attention" (paper key ``gda``).

One module per id segment: :mod:`.identities` (the gradient identities of Sec. 3, eqs.
(13)-(32): ``gda.ce_logit_grad`` ... ``gda.WV_grad``), :mod:`.em` (``gda.em.responsibilities``,
eq. (44)) and :mod:`.manifold` (``gda.manifold.attention_freezes``,
``gda.manifold.frame_precision``). The rest, public and not searched for claims, is the
package :mod:`.model`: the head of eqs. (1)-(9) as SymPy expressions, and its submodules
:mod:`.model.general` (the Sec. 3 identities for symbolic sizes), :mod:`.model.first_order`
(exact first-order changes of one step, Sec. 4) and :mod:`.model.context_loss` (eqs. (37)-(41)
for symbolic sizes). Numeric evidence for the same ids, and the numeric claims, live in
``numerics/gda``.
"""

import verify

from .statements import STATEMENTS

PAPER = "gda"

verify.paper(
    PAPER,
    title="Gradient Dynamics of Attention: How Cross-Entropy Sculpts Bayesian Manifolds",
    authors="Naman Agarwal, Siddhartha R. Dalal, Vishal Misra",
    statements=STATEMENTS,
)

__claims__ = ("identities", "em", "manifold")

"""The paper's interpretive narrative (``gda.interp.*``): recorded, with its prerequisites."""

from __future__ import annotations

import verify
from verify import Evidence

PAPER = "gda"


@verify.claim(
    "gda.interp.primitives",
    paper=PAPER,
    where="L21; Sec. 1.1(4); L602-604; L608",
    kind="informal",
    statement=(
        r"\text{belief accumulation emerges from responsibility-weighted value updates; belief "
        r"transport from content-dependent routing; binding from query--key matching; "
        r"architectures without content-based routing cannot implement the E-step}"
    ),
)
def interp_primitives(ctx):
    """Interpretive (L21, L602-604): the paper defines no test of 'emerges from'; it rests on
    gda.routing_gradient, gda.value_grad, gda.dyn.* and gda.em.*."""
    return Evidence.informal(
        "interpretive narrative, not a checkable statement; prerequisites: "
        "gda.routing_gradient, gda.value_grad (proved), gda.dyn.* and gda.em.e_step (refuted "
        "as sign laws for alpha)"
    )

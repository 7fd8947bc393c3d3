"""``pegr.informal.*``: the qualitative motivation of the paper (L15, L57, L71, footnote 1 L97,
L176, L299)."""

from __future__ import annotations

import verify
from proofs.pegr.model import PAPER
from verify import Evidence


@verify.claim(
    "pegr.informal.bias_and_multiscale", paper=PAPER,
    where="L15, L57, L71, footnote 1 L97, L176, L299",
    statement=r"\text{group-representation PEs give a (possibly weak) inductive bias towards "
              r"equivariance; low/high frequencies capture coarse/fine features}",
    kind="informal", expect="UNDECIDED",
)
def bias_and_multiscale(ctx):
    """Qualitative motivation ("possibly weak" bias, "to a degree", a "meaningful" group); its
    measurable proxies are ``pegr.ntk.kernel_invariance``, ``pegr.attention.equivariance`` and
    ``pegr.exp.fig2_bias_at_init`` (L299 needs Cameraman, not available offline)."""
    return Evidence.informal(
        "not a checkable statement: qualitative motivation ('possibly weak' bias, 'to a degree', "
        "'meaningful' group); proxies: pegr.ntk.kernel_invariance, pegr.attention.equivariance, "
        "pegr.exp.fig2_bias_at_init; L299 (Cameraman) not reproducible offline")

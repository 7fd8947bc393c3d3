"""Numbers this paper cites from Paper I (``gda.cite.*``), recorded for cross-reference."""

from __future__ import annotations

import verify
from verify import Evidence

PAPER = "gda"


@verify.claim(
    "gda.cite.paper1.value_manifold",
    paper=PAPER,
    where="Sec. 6.1 L339-343",
    kind="informal",
    statement=(
        r"\text{[Paper I] PC1 explains 84--90\% of variance, strongly correlated with "
        r"posterior entropy }(|r|>0.9)"
    ),
)
def cite_paper1(ctx):
    """External: numbers quoted from Paper I (L339-343); this paper gives no setup for them,
    so they are not checkable here (recorded for cross-reference)."""
    return Evidence.informal(
        "cited from Paper I (wind tunnels), no setup in this paper: not checkable here",
        numbers={"PC1_share": "84-90%", "abs_r": ">0.9"},
    )

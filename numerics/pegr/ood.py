"""``pegr.ood.*``: the remark on out-of-distribution generalisation of §3.2 (L73)."""

from __future__ import annotations

import verify
from proofs.pegr.model import PAPER
from verify import Evidence


@verify.claim(
    "pegr.ood.randomized_pe", paper=PAPER, where="L73",
    statement=r"\text{randomized positional encodings (Ruoss et al.) amount to using "
              r"representations from a larger group during training}",
    kind="informal", expect="UNDECIDED",
    readings={"B": "the larger range of positions {0..N}, N >= test length"},
)
def ood_randomized_pe(ctx):
    """An interpretive analogy: "larger group" is undefined (for T = Z every range of positions
    is a subset of the same group), so there is nothing to check."""
    return Evidence.informal(
        "not a checkable statement: an interpretive analogy; 'larger group' is undefined "
        "(positions {0..N} are subsets of one group Z, not groups); reading adopted: B (larger "
        "position range); a length-generalisation experiment is out of scope")

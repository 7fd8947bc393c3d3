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
    """An interpretive analogy with nothing to check under either reading: "larger group" is not
    defined (A: a group containing the group of training positions; for T = Z every range of
    positions lies in the same group Z), and a range of positions {0..N} (B) is no group; a
    length-generalisation experiment would be needed and is out of scope."""
    return [
        Evidence.informal("not a checkable statement: an interpretive analogy; 'larger group' is "
                          "undefined (for T = Z every range of positions lies in the one group Z)"),
        Evidence.informal("B: positions {0..N}, N >= test length, are a range, not a group; a "
                          "length-generalisation experiment is out of scope", reading="B"),
    ]

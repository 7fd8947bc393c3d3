"""App. C.1: whether one layer suffices (an impossibility the paper argues informally)."""

from __future__ import annotations

import verify
from verify import Evidence

from . import PAPER


@verify.claim(
    "sih.depth.one_layer_insufficient", paper=PAPER, where="L190-191; App. C.1 L759-780",
    kind="informal", expect="UNDECIDED",
    statement=r"\text{1-layer transformers cannot perform exact spatial ICL in general "
              r"(Appendix C.1)}",
    readings={"B": "App. C.1: an informal argument; k >= 2 left to future work"},
)
def one_layer_insufficient(ctx):
    """App. C.1 gives only an informal argument (L762-763) and leaves k >= 2 to future work
    (L778-780): no proof in the paper, and no finite computation establishes an impossibility.
    UNDECIDED."""
    return [Evidence.informal("impossibility claim without a proof in the paper (App. C.1 is an "
                              "informal argument; k >= 2 left open); not finitely checkable"),
            Evidence.informal("informal argument, as the paper itself says", reading="B")]

"""Smaller textual claims checked on the constructed transformer (App. E-F): no Layer-1 MLP at
m = 1, no Layer-2 MLP, and what causal masking guarantees about retrieved keys.

The textual claims that need no construction are in ``proofs/sih/text.py``.
"""

from __future__ import annotations

import verify
from proofs.sih import PAPER
from proofs.sih.model import ECA
from verify import Evidence, Verdict

from .ca import Stream, sample_stream
from .construction import construction_grid, end_to_end
from .main import evaluable_evidence


@verify.claim(
    "sih.text.linear_value_suffices_m1", paper=PAPER, where="L307-308; L1728-1734; L1764-1766",
    kind="property", expect="SUPPORTED",
    statement=r"m=1,\ h=|\mathcal U|:\ \text{no Layer-1 MLP; linear value projection, leakage }"
              r"\bar\varepsilon\le\varepsilon_{\rm attn};\ \bar\varepsilon<1/(4k)",
)
def linear_value_suffices_m1(ctx):
    """End-to-end with h = |U| and no Layer-1 MLP (ECA V in {2, 3}, 2D VN): every evaluable
    cell-query prediction exact (SUPPORTED)."""
    totals, bad = end_to_end(ctx, [c for c in construction_grid(ctx.quick) if c[4] is None])
    return evaluable_evidence(totals, bad, "no-MLP distributed regime")


@verify.claim(
    "sih.text.layer2_no_mlp", paper=PAPER, where="L328-329; L1574; L1789; Fig. 3 caption L512",
    kind="property", expect="SUPPORTED",
    statement=r"\text{No MLP is required in Layer 2: prediction}=\arg\max B_4\text{ after the "
              r"Layer-2 head}",
)
def layer2_no_mlp(ctx):
    """The construction reads argmax B_4 directly after Layer-2 attention: every evaluable
    cell-query prediction exact on the tested grid (h = 1, intermediate, |U|): SUPPORTED."""
    totals, bad = end_to_end(ctx, construction_grid(ctx.quick)[:4])
    return evaluable_evidence(totals, bad, "argmax B_4, no Layer-2 MLP")


@verify.claim(
    "sih.text.causal_completed", paper=PAPER, where="L1554-1555; L1775-1776", kind="property",
    expect="REFUTED",
    statement=r"\text{Causal masking ensures all retrieved context tokens correspond to completed "
              r"time steps}",
)
def causal_completed(ctx):
    """Same-row keys (t' = t, earlier in the row) are visible and can match: their row is not
    complete. Counterexample: a matching key in the query's own row found on a random ECA
    trajectory (it still carries a valid (c, f(c)) pair, so prediction is unaffected). Row-0
    and separator keys carry no valid pair (sinks in the construction)."""
    g = ctx.torch_generator("cc")
    for trial in range(50):
        _, tr, stream = sample_stream(g, ECA, 2, (8,), 4)
        cex = same_row_match(stream)
        if cex is not None:
            return causal_evidence(cex | {"trajectory": tr.tolist(), "trial": trial,
                                          "seed": ctx.seed}, 50)
    return causal_evidence(None, 50)


def same_row_match(stream: Stream) -> dict | None:
    """The first query whose predicted cell's parent configuration matches a visible key in the
    predicted cell's own row (``t' = t``, a row not yet completed), or ``None``."""
    for a in range(len(stream) - 1):
        if stream.kinds[a + 1] != "cell" or stream.times[a + 1] == 0:
            continue
        want = stream.configs[a + 1]
        for kx in range(a + 1):
            if (stream.kinds[kx] == "cell" and stream.times[kx] == stream.times[a + 1]
                    and stream.configs[kx] == want):
                return {"query_position": a,
                        "query_cell": [stream.times[a], list(stream.cells[a] or [])],
                        "matching_key": [stream.times[kx], list(stream.cells[kx])],
                        "note": "key row t' = t is not completed"}
    return None


def causal_evidence(cex: dict | None, trials: int) -> Evidence:
    """"All retrieved context tokens correspond to completed time steps": REFUTED by a matching
    key in the query's own row, UNDECIDED when the search found none."""
    if cex is None:
        return Evidence.undecided(f"no same-row match found in {trials} trajectories",
                                  method="numeric")
    t, cell = cex["matching_key"]
    return Evidence(Verdict.REFUTED, f"a same-row key ({t}, {tuple(cell)}) matches the query's "
                    "configuration", method="numeric", counterexample=cex)

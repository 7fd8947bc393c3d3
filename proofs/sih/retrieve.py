"""App. E, Remark E.7: the Layer-2 score gap in the distributed and partitioned regimes.

Lemma E.6 and Lemma E.9 / Cor. E.10, checked by search, are in ``numerics/sih/retrieve.py``.
"""

from __future__ import annotations

import sympy as sp

import verify
from verify import Evidence
from verify.symbolic import prove_cases

from . import PAPER


@verify.claim(
    "sih.retrieve.remark_e7_gap", paper=PAPER,
    where="Remark E.7, L1515-1520; Def E.8 L1539-1548; F.1 Step 3 L1779-1783", kind="identity",
    expect="UNDECIDED",
    statement=r"m=1:\ G=c(k-2k\bar\varepsilon)-c((k-1)+2k\bar\varepsilon)=c(1-4k\bar\varepsilon)"
              r">0\iff\bar\varepsilon<\tfrac1{4k};\ m>1:\ \text{match }ch,\ \text{non-match}"
              r"\le c(h-1),\ G=c",
)
def remark_e7_gap(ctx):
    """Distributed regime: the gap algebra is PROVED (symbolic c, k, eps). Partitioned regime:
    the per-block comparison the paper describes is ill-aligned for most partitions (see
    sih.main.marginalisation_alignment); with per-neighbour-index marginalisation (the
    construction in numerics/sih/construction.py) the gap is c, but the printed statement
    stays UNDECIDED."""
    c, k, e = sp.symbols("c k epsilon", positive=True)
    ev = prove_cases([("G", c * (k - 2 * k * e) - c * ((k - 1) + 2 * k * e), c * (1 - 4 * k * e))],
                     generality="symbolic c, k, eps", scope="general",
                     part="distributed")
    return [ev, Evidence.undecided("partitioned regime: depends on the marginalisation layout, "
                                   "which the paper leaves misaligned (see "
                                   "sih.main.marginalisation_alignment)", part="partitioned")]

"""App. E, Remark E.7's partitioned regime: the exact enumeration of one-hot block scores (Def
E.8, L1023-1026) and the B_3 layout of F.1 Step 2.

The claim ``sih.retrieve.remark_e7_gap`` (its distributed regime uses Lemma E.6's harness) and
Lemma E.6, Lemma E.9 / Cor. E.10 are in ``numerics/sih/retrieve.py``.
"""

from __future__ import annotations

import itertools

from verify import Evidence
from verify.symbolic import refute_exactly

from .main import def41_partitions
from .model import e_hat, union_set


def block_gap_counts(h: int, n: int) -> dict[str, int]:
    """Over all pairs of concatenations of ``h`` one-hot blocks of size ``n`` (Def E.8's
    partitioned bullet, L1023-1026): the inner products of equal pairs that are not ``h``, and
    of unequal pairs that exceed ``h - 1``."""
    words = list(itertools.product(range(n), repeat=h))
    bad_match = bad_nonmatch = 0
    for a in words:
        for b in words:
            score = sum(int(x == y) for x, y in zip(a, b, strict=True))  # <e_x, e_y> per block
            if a == b:
                bad_match += int(score != h)
            else:
                bad_nonmatch += int(score > h - 1)
    return {"equal pairs scoring != h": bad_match, "unequal pairs scoring > h-1": bad_nonmatch}


def misaligned_block(offsets, V: int, shift=None) -> dict | None:
    """The first Def. 4.1 partition block of ``U`` whose ``B_{3,K}`` and ``B_{3,Q}`` sub-blocks
    (Step 2, L1172-1177: one-hots over the states of ``S cap N_K`` and of ``S cap N_Q``) have
    different dimensions, so that Layer 2's blockwise comparison (Step 3, L1194-1195) is not
    defined; ``None`` when every block aligns. ``shift`` is ``e_hat`` unless given."""
    NK = [tuple(o) for o in offsets]
    shift = shift or e_hat(len(NK[0]))
    U = sorted(union_set(NK, shift)[2])
    for h in range(1, len(U) + 1):
        for p in def41_partitions(U, h):
            for b in p:
                JK = [j for j, o in enumerate(NK) if o in b]
                JQ = [j for j, o in enumerate(NK)
                      if tuple(x + y for x, y in zip(o, shift, strict=True)) in b]
                if len(JK) != len(JQ):
                    return {"h": h, "partition": [[list(o) for o in bb] for bb in p],
                            "block": [list(o) for o in b], "J_K": JK, "J_Q": JQ,
                            "dim_B3K_block": V ** len(JK), "dim_B3Q_block": V ** len(JQ)}
    return None


def layout_evidence(offsets, V: int, shift=None, **kw) -> Evidence:
    """Reading B: the partitioned gap on the B_3 layout of F.1 Step 2. REFUTED (exactly, the two
    dimensions) by a block whose K and Q sub-blocks differ in dimension; UNDECIDED when every
    block aligns (the gap then follows from reading A)."""
    bad = misaligned_block(offsets, V, shift)
    summary = "partitioned regime on the $B_3$ layout of Step 2"
    if bad is None:
        return Evidence.undecided(f"{summary}: every block's K and Q sub-blocks align",
                                  method="symbolic", **kw)
    return refute_exactly(
        f"{summary}: h = {bad['h']}, block {bad['block']} writes a one-hot of dimension "
        f"{bad['dim_B3K_block']} into B_3K and of dimension {bad['dim_B3Q_block']} into B_3Q, so "
        "c<q^(Q), q^(K)> does not compare configurations block by block (see "
        "sih.main.marginalisation_alignment)", bad, lhs=bad["dim_B3K_block"],
        rhs=bad["dim_B3Q_block"], generality="ECA, every Def. 4.1 partition", **kw)

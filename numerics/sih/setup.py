"""Sec. 3 of the paper checked on token streams and offset sets: the shift ``e_hat``, ``|U|``
and the partitions of Def. 4.1.

The counting and distance identities of Sec. 3 are proved in ``proofs/sih/setup.py``.
"""

from __future__ import annotations

import itertools

import sympy as sp
import torch

import verify
from proofs.sih import PAPER
from proofs.sih.model import ECA, MOORE9, VN, e_hat, partitions, union_set
from verify import Evidence, Verdict
from verify.numeric import judge_check
from verify.symbolic import prove_cases, refute_exactly

from .model.ca import token_stream


def first_off_shift_transition(widths: tuple[int, ...], tokenisation: str):
    """Scan every cell->cell transition of a stream over ``widths``: the first one whose next
    cell is not ``i + e_hat mod W`` (or ``None``), and the number of transitions."""
    stream = token_stream(torch.zeros((2, *widths), dtype=torch.long), None, tokenisation)
    shift = e_hat(len(widths))
    n = 0
    for a in range(len(stream) - 1):
        if stream.kinds[a] != "cell" or stream.kinds[a + 1] != "cell":
            continue
        n += 1
        want = tuple((c + e) % w for c, e, w in zip(stream.cells[a], shift, widths, strict=True))
        if want != stream.cells[a + 1]:
            return {"tokenisation": tokenisation, "widths": list(widths),
                    "token": [stream.times[a], list(stream.cells[a])],
                    "next_token": [stream.times[a + 1], list(stream.cells[a + 1])],
                    "i+e_hat": list(want), "position_class": "last cell of a grid row"}, n
    return None, n


def transitions_evidence(grids: list[tuple[int, ...]], tokenisation: str, summary: str, *,
                         generality: str, **kw) -> Evidence:
    """PROVED when every cell->cell transition over ``grids`` is ``i + e_hat`` (an exhaustive
    scan of the layout), else REFUTED by the first one that is not, re-checked exactly."""
    bad = next((b for b in (first_off_shift_transition(w, tokenisation)[0] for w in grids)
                if b is not None), None)
    if bad is None:
        return Evidence(Verdict.PROVED, summary, method="symbolic", scope="bounded",
                        generality=f"{generality}; the layout is scanned per width, no "
                                   "symbolic-width argument", **kw)
    return refute_exactly(summary, bad, lhs=sp.Matrix(bad["next_token"][1]),
                          rhs=sp.Matrix(bad["i+e_hat"]), generality=generality, **kw)


@verify.claim(
    "sih.setup.ehat_rowend", paper=PAPER,
    where="L216-227; eq. (2) L158-161; App. G.3.1 L1880-1884; F.1 L1685-1689, L1775",
    kind="property", expect="REFUTED",
    statement=r"\text{one fixed shift }\hat e\text{ (the +1 sequence advancement in row-major "
              r"order): the token at }(t,\mathbf i)\text{ predicts }(t,\mathbf i+\hat e),"
              r"\ \mathcal N_Q=\mathcal N_K+\hat e",
    readings={"B": "tokenisation (T2) of App. G.3.1 ([ROW_SEP] inside a 2D time step), a "
                   "hypothesis eq. (2) does not make"},
    repairs={"B": "overstated"},
)
def ehat_rowend(ctx):
    """Every cell->cell transition of the real stream compared with i + e_hat mod W. (T1),
    eq. (2), in 2D: the last cell of a grid row is followed by the first cell of the next row,
    (t, (r+1, 0)) != (t, (r, 0)) = i + e_hat (REFUTED; smallest W = 2). 1D (T1) and 2D (T2):
    every cell->cell transition is i + e_hat (the separators carry the row ends); the
    end-to-end check under (T2) is sih.main.thm43."""
    return [
        transitions_evidence([(W, W) for W in range(2, 9)], "T1",
                             r"(T1) in 2D: a cell-to-cell transition that is not "
                             r"$\mathbf i + \hat e$",
                             generality="d=2, W in [2,8]"),
        transitions_evidence([(W,) for W in range(3, 9)], "T1",
                             r"(T1) in 1D: all cell-to-cell transitions are $\mathbf i + \hat e$",
                             generality="d=1, W in [3,8]", part="1d"),
        transitions_evidence([(W, W) for W in range(2, 9)], "T2",
                             "(T2) in 2D: all cell->cell transitions are i + e_hat",
                             generality="d=2, W in [2,8]", reading="B"),
    ]


def union_relations_hold(offsets, widths=None) -> bool:
    """L229-233 and L361-362 for one offset set: the identity, both bounds, the equality case."""
    NK, NQ, U = union_set(offsets, widths=widths)
    k = len(NK)
    return (len(U) == 2 * k - len(NK & NQ) and k + 1 <= len(U) <= 2 * k
            and (len(U) == 2 * k) == (not NK & NQ))


@verify.claim(
    "sih.setup.union_size", paper=PAPER, where="L229-233; L361-362", kind="property",
    expect="SUPPORTED",
    statement=r"|\mathcal U|=2k-|\mathcal N_K\cap\mathcal N_Q|,\ k+1\le|\mathcal U|\le2k,\ "
              r"|\mathcal U|=2k\iff\mathcal N_K\cap\mathcal N_Q=\emptyset;"
              r"\ \text{ECA }|\mathcal U|=4",
    readings={"B": "offsets reduced mod W on the torus (Def D.1's i + delta mod L)"},
)
def union_size(ctx):
    """Reading A (Z^d): every offset set in [-2,2] (1D) and [-1,1]^2 (2D), and random sets in
    [-3,3]^3: the identity, both bounds and the equality case hold (SUPPORTED; a finite
    translate of a finite set never equals it, hence k+1). Reading B (torus): REFUTED by
    d = 1, W = 2, offsets {0, 1}: N_Q = N_K, so |U| = 2 = k < k+1."""
    sets = []
    for d, rng in [(1, range(-2, 3)), (2, range(-1, 2))]:
        pts = list(itertools.product(rng, repeat=d))
        for r in range(1, len(pts) + 1):
            sets += list(itertools.combinations(pts, r))
    rng3 = ctx.numpy_rng("union3")
    pts3 = list(itertools.product(range(-3, 4), repeat=3))
    for _ in range(ctx.pick(quick=200, deep=5000)):
        k = int(rng3.integers(1, 10))
        sets.append([pts3[i] for i in rng3.choice(len(pts3), size=k, replace=False)])
    ev_a = union_sets_evidence(sets)
    cex = torus_counterexample(range(2, 5))
    torus = f"|U| = {cex['|U|']} < k+1 = {cex['k+1']}" if cex else "holds"
    ev_b = judge_check(cex is None, f"torus reading: {torus}", counterexample=cex, reading="B")
    return [ev_a, ev_b]


def union_sets_evidence(sets: list, widths=None) -> Evidence:
    """Reading A over offset sets in ``Z^d``: SUPPORTED when the identity, both bounds and the
    equality case of L229-233 / L361-362 hold for every set and ECA has ``|U| = 4`` (L232),
    else REFUTED by the first failing set (or the ECA count). With ``widths`` the offsets are
    reduced mod the widths (reading B's torus)."""
    bad = next((list(map(list, s)) for s in sets if not union_relations_hold(s, widths)), None)
    fixed = {name: len(union_set(o)[2]) for name, o in [("ECA", ECA), ("VN", VN),
                                                         ("Moore9", MOORE9)]}
    ok = bad is None and fixed["ECA"] == 4
    return judge_check(
        ok, f"identity, bounds, equality case on {len(sets)} offset sets in Z^d; |U| = {fixed}",
        counterexample={"offsets": bad, "U_sizes": fixed},
        numbers={"n_sets": len(sets), "U_sizes": fixed})


def torus_counterexample(widths) -> dict | None:
    """Reading B (offsets reduced mod W, 1D): the first offset set over ``Z_W`` for ``W`` in
    ``widths`` that breaks a relation of L229-233, or ``None``."""
    for W in widths:
        for offs in (o for r in range(1, W + 1) for o in itertools.combinations(range(W), r)):
            o = [(x,) for x in offs]
            if not union_relations_hold(o, (W,)):
                NK, _, U = union_set(o, widths=(W,))
                return {"d": 1, "W": W, "offsets": list(offs), "e_hat": 1, "k": len(NK),
                        "|U|": len(U), "k+1": len(NK) + 1}
    return None


def partition_counts(settings: list[tuple[str, list]], hs: dict | None = None):
    """Per setting ``(name, U)`` and number of heads ``h`` (``1..|U|`` unless ``hs[name]`` lists
    them), the Def. 4.1 partitions with ``|S| <= ceil(|U|/h)``: counted by enumeration up to
    ``|U| = 8``, a round-robin one constructed beyond; and the first ``(setting, h)`` with none."""
    counts, missing = {}, None
    for name, U in settings:
        for h in (hs or {}).get(name, range(1, len(U) + 1)):
            m = -(-len(U) // h)
            if len(U) <= 8:
                good = sum(1 for p in partitions(U, h) if max(map(len, p)) <= m)
                counts[f"{name} h={h}"] = good
            else:
                good = int(all(0 < len(b) <= m for b in (U[i::h] for i in range(h))))
            if not good and missing is None:
                missing = {"setting": name, "h": h, "m": m}
    return counts, missing


@verify.claim(
    "sih.setup.partition", paper=PAPER, where="Def 4.1, L235-238; L240-242", kind="property",
    expect="SUPPORTED", quantifier="exists",
    statement=r"\forall h\in\{1..|\mathcal U|\}\ \exists S_1..S_h\text{ partition of }"
              r"\mathcal U,\ |S_\gamma|\le m=\lceil|\mathcal U|/h\rceil;"
              r"\ h=|\mathcal U|\Rightarrow m=1,\ h=1\Rightarrow m=|\mathcal U|",
)
def partition(ctx):
    """Endpoints ``ceil(n/n) = 1``, ``ceil(n/1) = n``: PROVED (symbolic n). Existence: every
    partition enumerated for ECA / 1D V=3 (|U| = 4) and VN (|U| = 8) at every h; for Moore-9
    (|U| = 12) a balanced one is constructed: SUPPORTED (finite cases). Existential for each h
    ("there exist S_1..S_h"): the partitions found are the witness; a construction that misses
    would refute nothing."""
    n = sp.Symbol("n", positive=True, integer=True)
    ev_end = prove_cases([("h=|U|", sp.ceiling(n / n), 1), ("h=1", sp.ceiling(n / 1), n)],
                         generality="symbolic |U| = n >= 1", scope="general",
                         part="endpoints")
    counts, missing = partition_counts(
        [("ECA", sorted(union_set(ECA)[2])), ("VN", sorted(union_set(VN)[2])),
         ("Moore9", sorted(union_set(MOORE9)[2]))])
    ev_exist = judge_check(
        missing is None,
        "a partition with |S|<=m exists for every h (ECA, VN enumerated; Moore-9 constructed)",
        counterexample=missing, part="existence", numbers={"valid_partitions": counts},
        **({"witness": {"S_1..S_h": "for each h, the partitions enumerated (ECA, VN) or the "
                        "round-robin U[i::h] (Moore-9)"}} if missing is None else {}))
    return [ev_end, ev_exist]

"""App. C.2: the naive baseline with relative-position biases (eqs. (5)-(7)).

:class:`NaiveRPE` builds the construction as C.2 describes it: the residual
``[e(x); 0_{kV}; 0_{kV}; 0_V]`` of (5); Layer 1 with ``2k`` heads whose scores are a relative
position bias only (large at the head's target offset ``(t-1, i + delta_j)`` or
``(t-1, i + delta_j + e_hat)``, ``-inf`` elsewhere, eq. (6)), writing the gathered one-hots into
``B_2`` and ``B_3`` (7); Layer 2 one head with scores ``c <B_3(query), B_2(key)>`` and value
``B_1``, read out as ``argmax B_4``. A query with no visible target (row 0, separators) gets zero
from that head (its bias row is all ``-inf``; the paper leaves it open), and separators carry a
zero state.
"""

from __future__ import annotations

import itertools
from dataclasses import replace

import sympy as sp
import torch
from torch import nn

import verify
from proofs.sih import PAPER
from proofs.sih.model import ECA, MOORE9, VN, e_hat, union_set
from proofs.sih.text import rpe_cost_evidence, rpe_table_entries
from verify import Evidence, Verdict
from verify.symbolic import prove_cases

from .main import evaluable_evidence
from .model.ca import Stream, sample_stream
from .model.construction import evaluate


class NaiveRPE(nn.Module):
    """The naive 2-layer construction of App. C.2 for offsets ``N_K``, ``V`` states, grid
    ``widths``; ``c`` is Layer 2's score scale."""

    def __init__(self, offsets, V: int, widths, c: float = 40.0) -> None:
        super().__init__()
        self.offsets = [tuple(o) for o in offsets]
        self.V, self.widths, self.c = V, tuple(widths), c
        self.k = len(self.offsets)
        self.D = (2 * self.k + 2) * V

    def targets(self, t: int, cell: tuple[int, ...]) -> list[tuple[int, tuple[int, ...]]]:
        """The ``2k`` heads' target keys of the query at ``(t, cell)``: ``(t-1, i + delta_j)``
        for the first ``k``, ``(t-1, i + delta_j + e_hat)`` for the second ``k`` (L574-576)."""
        shift = e_hat(len(self.widths))
        out = []
        for extra in ((0,) * len(shift), shift):
            for o in self.offsets:
                out.append((t - 1, tuple((c + a + b) % w for c, a, b, w in
                                         zip(cell, o, extra, self.widths, strict=True))))
        return out

    def forward(self, stream: Stream) -> dict:
        """Residual stream after both layers and ``pred = argmax B_4`` per token."""
        V, k, n = self.V, self.k, len(stream)
        onehot = torch.zeros(n, V, dtype=torch.float64)
        for a, s in enumerate(stream.states):
            if s >= 0:
                onehot[a, s] = 1.0
        h = torch.zeros(n, self.D, dtype=torch.float64)
        h[:, :V] = onehot  # B_1
        index = {(t, c): a for a, (t, c) in enumerate(zip(stream.times, stream.cells,
                                                          strict=True)) if c is not None}
        big = 1e3
        for q in range(n):
            if stream.cells[q] is None or stream.times[q] == 0:
                continue  # no visible target: every bias is -inf, the heads write zero
            for j, key in enumerate(self.targets(stream.times[q], stream.cells[q])):
                bias = torch.full((q + 1,), -torch.inf, dtype=torch.float64)
                bias[index[key]] = big  # eq. (6) with q_m^T k_n = 0
                w = torch.softmax(bias, 0)
                h[q, V + j * V:V + (j + 1) * V] = w @ onehot[: q + 1]  # B_2 (j < k), B_3
        B2, B3 = h[:, V:V + k * V], h[:, V + k * V:V + 2 * k * V]
        scores = self.c * (B3 @ B2.T)
        mask = torch.ones(n, n, dtype=torch.bool).tril()
        A = torch.softmax(scores.masked_fill(~mask, -torch.inf), -1)
        h[:, V + 2 * k * V:] = A @ h[:, :V]  # B_4 <- W_V = Pi_{B_1}
        return {"h": h, "pred": h[:, V + 2 * k * V:].argmax(-1)}


def naive_end_to_end(ctx, settings: list[tuple]) -> tuple[dict, dict | None]:
    """The naive construction on a random rule and initial row per setting ``(offsets, V,
    widths, T)`` ((T1) in 1D, (T2) in 2D): counts ``[predictions, correct]`` per position class
    summed over the settings, and the first evaluable misprediction from a cell query."""
    totals: dict = {}
    bad = None
    for n, (offsets, V, widths, T) in enumerate(settings):
        tok = "T2" if len(widths) == 2 else "T1"
        ca, _, stream = sample_stream(ctx.torch_generator(f"naive-{n}"), offsets, V, widths, T,
                                      tok)
        res = evaluate(NaiveRPE(offsets, V, widths), stream)
        for cls, (a, b) in res.items():
            r = totals.setdefault(cls, [0, 0])
            r[0] += a
            r[1] += b
        got = res.get("from_cell/evaluable", [0, 0])
        if got[1] < got[0] and bad is None:
            bad = {"offsets": [list(o) for o in offsets], "V": V, "widths": list(widths), "T": T,
                   "tokenisation": tok, "rule_table": ca.table.tolist(), "counts": res,
                   "seed": ctx.seed, "subseed_name": f"naive-{n}"}
    return totals, bad


def spatial_widths(offsets, V: int) -> dict[int, int]:
    """The spatial-aware construction's residual width per number of heads ``h``: the block sum
    ``V + d_p + 2 h V^m + V`` of (54), with ``d_p = 2d + 2`` at ``m = 1`` and ``2(m + d) + 2``
    at ``m > 1`` (Thm 4.2)."""
    d, U = len(offsets[0]), union_set(offsets)[2]
    out = {}
    for h in range(1, len(U) + 1):
        m = -(-len(U) // h)
        d_p = 2 * d + 2 if m == 1 else 2 * (m + d) + 2
        out[h] = V + d_p + 2 * h * V ** m + V
    return out


def scaling_evidence(rows: list[dict], **kw) -> Evidence:
    """(iv) "scales poorly with k and V" (L543-545) against the spatial-aware construction it
    is set against. ``rows``: per setting ``k``, ``V``, the naive ``D_naive = (2k+2)V`` and the
    spatial-aware width per ``h``. REFUTED when in every setting the naive width lies below the
    spatial-aware width at every ``h`` (it grows as k V, the spatial-aware one at least as fast);
    UNDECIDED otherwise (the naive width exceeding it somewhere would not say "poorly" either)."""
    above = [r for r in rows if r["D_naive"] >= min(r["D_spatial"].values())]
    if above:
        return Evidence.undecided(f"(iv): the naive width reaches the spatial-aware one in "
                                  f"{len(above)} of {len(rows)} settings", method="symbolic",
                                  numbers={"rows": rows}, **kw)
    first = rows[0]
    return Evidence(
        Verdict.REFUTED, f"(iv) 'scales poorly with k and V': the naive width (2k+2)V is below "
        f"the spatial-aware width at every h in all {len(rows)} settings (e.g. {first['setting']}"
        f", V={first['V']}: {first['D_naive']} vs {min(first['D_spatial'].values())}.."
        f"{max(first['D_spatial'].values())}); both grow at least as k V, and its 2k heads are "
        "at most twice the |U| >= k+1 of the MLP-free regime", method="symbolic",
        counterexample={"rows": rows[:3],
                        "gap_at_h=|U|": "2(|U|+1)V + 2d + 2 - (2k+2)V = 2(|U|-k)V + 2d + 2 > 0"},
        numbers={"rows": rows}, **kw)


@verify.claim(
    "sih.naive.rpe_construction", paper=PAPER, where="App. C L753-826; eqs. (5)-(7)",
    kind="property", expect="SUPPORTED",
    statement=r"D=(2k+2)V;\ 2k\text{ RPE heads};\ \langle\tilde{\mathcal N},\tilde{\mathcal N}'"
              r"\rangle=k\iff\text{agree, else}\le k-1;\ \text{bias table }O(T\cdot L);"
              r"\ \text{scales poorly in }k,V",
    readings={"B": "(iv) read as the comparison C.2 itself draws (L588-595): the naive "
                   "construction's positional representation scales with the grid volume L, "
                   "the spatial-aware one's does not"},
    repairs={"B": ("erratum", "L544 names k and V where the comparison C.2 draws itself "
                              "(L588-595) is with the grid volume $L$: the naive bias table has "
                              "$T\\cdot L$ entries while $d_p$ does not depend on $L$; in $k$ "
                              "and $V$ its width $(2k+2)V$ grows no faster than the "
                              "spatial-aware one")},
)
def naive_rpe_construction(ctx):
    """(i) D = V + kV + kV + V = (2k+2)V, PROVED (symbolic k, V). (ii) Hamming identity
    <N, N'> = #agreements of the one-hot encodings: exhaustive over V <= 3, k <= 4 (PROVED on
    that domain); the construction built as C.2 describes it (hard biases, 2k heads, c = 40)
    predicts every evaluable cell-query token exactly on ECA (V = 2, 3) and 2D VN under (T2)
    (SUPPORTED, "successfully predicts", L588). (iii) the bias table of L592-595 has exactly
    T L entries on real streams (PROVED at the sizes tried; the heads' finite biases take <= 2
    offsets each). (iv) "scales poorly with k and V": the naive width (2k+2)V is below the
    spatial-aware width (54) at every h for ECA, VN and Moore-9 with V in {2, 3, 4}, and both
    grow at least linearly in k V: REFUTED. Reading B, the comparison C.2 draws itself (L588-595):
    the table's T L entries grow with L while d_p of Thm 4.2 does not depend on L (PROVED):
    an erratum, k and V for L."""
    k_, V_ = sp.symbols("k V", positive=True, integer=True)
    ev_d = prove_cases([("$B_1 + B_2 + B_3 + B_4$", V_ + k_ * V_ + k_ * V_ + V_,
                         (2 * k_ + 2) * V_)],
                       generality="symbolic k, V", scope="general", part="(i) width",
                       summary="(5): V + kV + kV + V = (2k+2)V")
    cases, n = [], 0
    for V in (2, 3):
        for k in range(1, 5):
            confs = torch.tensor(list(itertools.product(range(V), repeat=k)))
            oh = torch.nn.functional.one_hot(confs, V).flatten(1)
            agree = (confs[:, None, :] == confs[None, :, :]).sum(-1)
            cases.append((f"V={V}, k={k}: pairs with <N, N'> != #agreements",
                          int((oh @ oh.T != agree).sum()), 0))
            n += agree.numel()
    ev_h = prove_cases(cases, part="(ii) hamming",
                       generality="V <= 3, k <= 4 (all pairs); for symbolic V, k the inner "
                                  "product is a sum of Kronecker deltas, not proved here",
                       summary=f"<N, N'> = #agreements on {n} pairs")
    settings = [(ECA, 2, (8,), 5), (ECA, 3, (6,), 5), (VN, 2, (4, 4), 3)]
    settings += ctx.pick(quick=[], deep=[(ECA, 2, (12,), 6), (VN, 2, (4, 4), 4)])
    totals, bad = naive_end_to_end(ctx, settings)
    ev_e2e = evaluable_evidence(totals, bad, "naive construction end to end (T1 1D, T2 2D)",
                                part="(ii) predicts", generality=f"{len(settings)} settings")
    rows = [{"T": T, "widths": list(w), "entries": rpe_table_entries(T, w)}
            for T in (2, 3, 4) for w in [(4,), (6,), (2, 2), (3, 3)]]
    ev_table = rpe_cost_evidence(rows, part="(iii) table")
    scal = [{"setting": name, "k": len(offs), "V": V, "D_naive": (2 * len(offs) + 2) * V,
             "D_spatial": spatial_widths(offs, V)}
            for name, offs in (("ECA", ECA), ("VN", VN), ("Moore-9", MOORE9)) for V in (2, 3, 4)]
    ev_iv = scaling_evidence(scal, part="(iv) scaling")
    ev_l = prove_cases(
        [(f"T={r['T']}, W={tuple(r['widths'])}: table entries / T", r["entries"] // r["T"],
          sp.prod(r["widths"])) for r in rows],
        reading="B", part="(iv) scaling",
        generality="the streams of (iii); d_p = 2d+2 or <= 2(m+d)+2 has no L in it",
        summary="the naive table grows as L (T L entries), the spatial-aware d_p does not")
    return [ev_d, ev_h, ev_e2e, ev_table, ev_iv,
            *(replace(e, reading="B") for e in (ev_d, ev_h, ev_e2e, ev_table)), ev_l]

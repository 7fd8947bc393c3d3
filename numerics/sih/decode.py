"""App. E, MLP decoding: Lemma E.2 (no affine decoder), Lemma E.4 (the ReLU bump decoder) and
Remark E.5 (tightness of its width)."""

from __future__ import annotations

from fractions import Fraction

import sympy as sp
import torch
from hypothesis import strategies as st

import verify
from proofs.sih import PAPER
from proofs.sih.model import ECA
from verify import Evidence, Verdict
from verify.numeric import falsify, judge_check
from verify.symbolic import prove_cases, refute_exactly

from .ca import sample_stream
from .construction import SpatialInductionHead, evaluate
from .decoder import BumpDecoder


@verify.claim(
    "sih.decode.lemma_e2", paper=PAPER, where="Lemma E.2, L1395-1413; L300-302; L307-308",
    kind="property", expect="PROVED",
    statement=r"n\ge3,\ r+1<n:\ \nexists\text{ affine }T:\mathbb R^r\to\mathbb R^n\text{ mapping "
              r"distinct }z_1..z_n\text{ onto }e_1..e_n;\ \text{hence for }m\ge2\text{ or }V\ge3"
              r"\text{ the Layer-1 MLP cannot be linear}",
    readings={"B": "architectural: whenever m >= 2 or V >= 3 no construction of this kind can "
                   "use a linear Layer 1"},
)
def lemma_e2(ctx):
    """A: T(z_j) = A z_j + b = e_j for all j means [Z, 1] A' = I_n, impossible as
    rank [Z, 1] <= r + 1 < n; PROVED symbolically for (r, n) = (1, 3), (1, 4) (deep: also
    (2, 4)) with symbolic z and A (det([Z, 1] A') = 0 identically, so the product is not I);
    the case split 2 < V^m iff m >= 2 or V >= 3 checked. Negative control r+1 = n: an affine
    bijection exists. B REFUTED: V = 3, m = 1 (h = |U|): the distributed construction with a
    linear Layer 1 predicts every evaluable ECA-neighbourhood cell exactly."""
    cases = []
    for r, n in ctx.pick(quick=[(1, 3), (1, 4)], deep=[(1, 3), (1, 4), (2, 4)]):
        Z = sp.Matrix(n, r, lambda i, j: sp.Symbol(f"z{i}{j}", real=True)).row_join(sp.ones(n, 1))
        A = sp.Matrix(r + 1, n, lambda i, j: sp.Symbol(f"a{i}{j}", real=True))
        cases.append((f"det([Z,1]A) = 0, r={r}, n={n}", (Z * A).det(method="berkowitz").expand(),
                      0))
    ev = prove_cases(cases, timeout=10.0 * len(cases), part="lemma",
                     generality="(r, n) in {(1,3), (1,4)} (deep: also (2,4)), symbolic z and "
                                "A; symbolic r, n would need a rank argument on matrices of "
                                "symbolic size, which is not a SymPy identity")
    ev_split = prove_cases(
        [(f"V={V}, m={m}", int(2 < V ** m), int(m >= 2 or V >= 3))
         for V in range(2, 6) for m in range(1, 5)],
        generality="V in [2,5], m in [1,4]; beyond it V^m only grows",
        part="application", summary="2 < V^m iff m >= 2 or V >= 3 (V in [2,5], m in [1,4])")
    Zc = sp.Matrix([[0, 1], [1, 1]])  # r = 1, n = 2: rows [z_j, 1] for z = (0, 1)
    ev_control = prove_cases(
        [("[z, 1] [[0,1],[1,1]]^-1 = I_2", Zc * Zc.inv(), sp.eye(2))], scope="general",
        generality="r=1, n=2: one instance shows that an affine bijection can exist at r+1 = n",
        part="control",
        summary="negative control r+1 = n = 2: the affine map [z, 1] -> [z, 1] [[0,1],[1,1]]^-1 "
                "sends z = 0, 1 to e_1, e_2 (the determinant obstruction needs r+1 < n)")
    g = ctx.torch_generator("e2B")
    _, _, stream = sample_stream(g, ECA, 3, (6,), 6)
    res = evaluate(SpatialInductionHead(ECA, 3, (6,), 6, len(stream) + 1), stream)
    counts = res.get("from_cell/evaluable", [0, 0])
    linear_works = counts[0] > 0 and counts[0] == counts[1]
    ev_b = Evidence(
        Verdict.REFUTED if linear_works else Verdict.UNDECIDED,
        f"reading B: V=3, m=1 with linear Layer 1 predicts {counts[1]}/{counts[0]} evaluable "
        "cells", method="numeric", reading="B",
        counterexample={"V": 3, "m": 1, "h": 4, "k": 3, "L": 6, "T": 6,
                        "evaluable_correct": counts, "layer1_mlp": "none (linear value)",
                        "seed": ctx.seed})
    return [ev, ev_split, ev_control, ev_b]


def bump(z: Fraction, v: Fraction, eta: Fraction) -> Fraction:
    """``b_j(z)`` of Lemma E.4 in exact arithmetic (L1434-1440)."""
    def relu(x: Fraction) -> Fraction:
        return max(x, Fraction(0))

    return (relu(z - v + 2 * eta) - relu(z - v + eta) - relu(z - v - eta)
            + relu(z - v - 2 * eta)) / eta


@verify.claim(
    "sih.decode.lemma_e4", paper=PAPER,
    where="Def E.3 L1415-1428; Lemma E.4 L1434-1454; width L1456-1459", kind="property",
    expect="REFUTED",
    statement=r"\phi=(b_j)_j,\ b_j(z)=\tfrac1\eta[\sigma(z-v_j+2\eta)-\sigma(z-v_j+\eta)"
              r"-\sigma(z-v_j-\eta)+\sigma(z-v_j-2\eta)],\ \eta=\delta/4:\ |z-v_j|\le"
              r"\varepsilon\Rightarrow\phi(z)=e_j;\ |z-v_j|>\delta/4\ \forall j\Rightarrow"
              r"\phi(z)=0",
    readings={"B": r"suppression threshold $2\eta=\delta/2$ (as concluded in the proof)"},
    repairs={"B": "erratum"},
)
def lemma_e4(ctx):
    """Reading A (Def E.3 (2) at delta/4) REFUTED exactly: v = (0, 1), delta = 1, z = 3/8
    (|z - v_j| > 1/4 for both j) gives b_0(z) = 1/2. Reading B (threshold delta/2) and the
    activation region (eps < delta/4) SUPPORTED by falsify. Width: 4n hidden units; the output
    layer is the n x 4n matrix of +-1/eta, not an identity."""
    v, eta, z = [Fraction(0), Fraction(1)], Fraction(1, 4), Fraction(3, 8)
    phi = [bump(z, vj, eta) for vj in v]
    summary_a = "Def E.3 (2) at delta/4: phi(3/8) = (1/2, 0) != 0"
    if any(phi):
        ev_a = refute_exactly(
            summary_a, {"v": ["0", "1"], "delta": "1", "eta": "1/4", "z": "3/8",
                        "phi(z)": [str(x) for x in phi], "required": [0, 0]},
            lhs=sp.Matrix(phi), rhs=sp.zeros(2, 1), generality="exact rationals")
    else:
        ev_a = Evidence.undecided(f"{summary_a}: phi vanishes at this z", method="symbolic")
    dec = BumpDecoder(torch.tensor([0.0, 1.0]))
    ev_width = prove_cases(
        [("hidden width 4n", dec.width, 8), ("output layer columns (4n, not n)",
                                             dec.out.weight.shape[1], 8)],
        generality="n = 2 (the decoder is built per n; 4n units by its definition)",
        part="width", reading="B",
        summary="hidden width 4n; output layer is +-1/eta (n x 4n), not an n x n identity")

    def prop(generator, batch, dtype, device, n, region):
        gaps = 0.5 + torch.rand(n - 1, generator=generator, dtype=torch.float64)
        vals = torch.cat([torch.zeros(1, dtype=torch.float64), gaps.cumsum(0)])
        dmin = float(gaps.min())
        dc = BumpDecoder(vals, dmin)
        j = torch.randint(0, n, (batch,), generator=generator)
        u = torch.rand(batch, generator=generator, dtype=torch.float64)
        if region == 0:  # activation: |z - v_j| <= eps < delta/4
            z = vals[j] + (2 * u - 1) * 0.999 * dmin / 4
            want = torch.nn.functional.one_hot(j, n).to(torch.float64)
            return (dc(z) - want).abs().amax(-1)
        # suppression beyond delta/2 (reading B); the region between two close points can be empty
        lo = vals[j] + dmin / 2 * 1.0001
        hi = torch.where(j + 1 < n, vals[(j + 1).clamp(max=n - 1)] - dmin / 2 * 1.0001, lo + 1.0)
        valid = (hi > lo).to(torch.float64)
        z = lo + u * (hi - lo).clamp(min=0)
        return dc(z).abs().amax(-1) * valid

    ev_b = falsify(prop, {"n": st.integers(2, 6), "region": st.integers(0, 1)},
                   budget=ctx.pick(quick=10, deep=200), batch=256, seed=ctx.seed)
    return [ev_a, ev_b.relabel(reading="B"), ev_width]


@verify.claim(
    "sih.decode.remark_e5", paper=PAPER, where="Remark E.5, L1461-1467", kind="rate",
    expect="UNDECIDED",
    statement=r"O(V^m)\text{ hidden width is tight for 2-layer ReLU MLPs};\ \text{deeper MLPs: "
              r"exponentially smaller width}",
    readings={"B": r"the same lower bound with $\varepsilon$-robust plateaus (Def E.3 (1))"},
)
def remark_e5(ctx):
    """Lower bound (A and B): each output j must be non-affine on (v_{j-1}, v_{j+1}) (0, 1, 0),
    so a breakpoint lies in each such interval; intervals j and j+2 are disjoint, hence
    >= floor((n-1)/2) distinct breakpoints and as many hidden ReLUs (one breakpoint each):
    Omega(n). Upper bound 4n: the Lemma E.4 decoder, checked here for n = 4..64 at the points
    v_j (exact interpolation, A) and at v_j +- 0.999 eta (robust plateaus, B). The 'deeper
    MLPs, exponentially smaller width' sentence: the last hidden layer must have width >= n - 1
    (the outputs e_1..e_n are affine in it, rank n), so it holds only for the earlier layers:
    UNDECIDED (width not defined in the remark)."""
    rows_a, rows_b, bad_a, bad_b = [], [], None, None
    for n in range(4, 65):
        dec = BumpDecoder(torch.arange(n, dtype=torch.float64))
        eye = torch.eye(n, dtype=torch.float64)
        at_points = float((dec(torch.arange(n, dtype=torch.float64)) - eye).abs().max())
        shifted = torch.arange(n, dtype=torch.float64)[:, None] + 0.999 * dec.eta * torch.tensor(
            [-1.0, 1.0], dtype=torch.float64)
        plateau = float((dec(shifted.flatten()) - eye.repeat_interleave(2, 0)).abs().max())
        lower, upper = (n - 1) // 2, dec.width
        rows_a.append((n, lower, upper))
        rows_b.append((n, lower, upper))
        if (at_points > 1e-12 or lower > upper) and bad_a is None:
            bad_a = {"n": n, "interpolation_error": at_points, "lower": lower, "upper": upper}
        if (plateau > 1e-12 or lower > upper) and bad_b is None:
            bad_b = {"n": n, "plateau_error": plateau, "lower": lower, "upper": upper}
    summary = "2-layer: floor((n-1)/2) <= width <= 4n for n = 4..64 (Theta(n))"
    ev = judge_check(bad_a is None, summary, counterexample=bad_a, part="tight",
                     numbers={"rows": rows_a[:5]})
    ev_b = judge_check(bad_b is None, summary + ", with eps-robust plateaus", reading="B",
                       part="tight", counterexample=bad_b, numbers={"rows": rows_b[:5]})
    ev_deep = Evidence.informal("'exponentially smaller width' for deeper MLPs: the last hidden "
                                "layer needs >= n-1 units (rank argument), so it depends on "
                                "which layer's width is meant", part="deeper")
    return [ev, ev_deep, ev_b]

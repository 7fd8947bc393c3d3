"""App. E, MLP decoding: Lemma E.2 (no affine decoder), Lemma E.4 (the ReLU bump decoder) and
Remark E.5 (tightness of its width)."""

from __future__ import annotations

import itertools
from fractions import Fraction

import sympy as sp
import torch
from hypothesis import strategies as st

import verify
from proofs.sih import PAPER
from proofs.sih.model import ECA
from verify import Evidence, Verdict
from verify.numeric import falsify
from verify.symbolic import prove_cases, refute_exactly

from .model.ca import sample_stream
from .model.construction import SpatialInductionHead, evaluate
from .model.decoder import BumpDecoder


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


def suppression_evidence(v: list[Fraction], z: Fraction) -> Evidence:
    """Def E.3 (2) at the threshold ``delta/4`` printed there (reading A), for the Lemma E.4
    decoder of the values ``v`` at the point ``z``: REFUTED, exactly, when ``z`` lies beyond
    ``delta/4`` of every ``v_j`` and ``phi(z) != 0``; UNDECIDED when ``z`` is no such point or
    ``phi`` vanishes there."""
    delta = min(b - a for a, b in itertools.pairwise(sorted(v)))
    eta = delta / 4
    phi = [bump(z, vj, eta) for vj in v]
    beyond = all(abs(z - vj) > delta / 4 for vj in v)
    summary = f"Def E.3 (2) at delta/4: phi({z}) = {tuple(str(x) for x in phi)}"
    if not beyond or not any(phi):
        why = "z within delta/4 of a value" if not beyond else "phi vanishes at this z"
        return Evidence.undecided(f"{summary}: {why}", method="symbolic")
    return refute_exactly(
        f"{summary} != 0", {"v": [str(x) for x in v], "delta": str(delta), "eta": str(eta),
                            "z": str(z), "phi(z)": [str(x) for x in phi],
                            "required": [0] * len(v)},
        lhs=sp.Matrix(phi), rhs=sp.zeros(len(v), 1), generality="exact rationals")


@verify.claim(
    "sih.decode.lemma_e4", paper=PAPER,
    where="Def E.3 L1415-1428; Lemma E.4 L1434-1454; width L1456-1459", kind="existence",
    expect="SUPPORTED", quantifier={"A": "exists"},
    statement=r"v_0<\dots<v_{n-1},\ \delta=\min_j(v_{j+1}-v_j)>0,\ \varepsilon<\delta/4:\ "
              r"\exists\text{ 2-layer ReLU MLP, hidden dimension }4n,\ \phi:\ |z-v_j|\le"
              r"\varepsilon\Rightarrow\phi(z)=e_j;\ |z-v_j|>\delta/4\ \forall j\Rightarrow"
              r"\phi(z)=0\ \text{(Def. E.3)}",
    readings={"P": r"erratum of the proof (L953-961): $\phi=(b_j)_j$, $b_j(z)=\tfrac1\eta"
                   r"[\sigma(z-v_j+2\eta)-\sigma(z-v_j+\eta)-\sigma(z-v_j-\eta)+\sigma(z-v_j"
                   r"-2\eta)]$, $\eta=\delta/4$, meets Def. E.3",
              "B": r"the proof's $\phi$ with the suppression threshold $2\eta=\delta/2$ (as "
                   r"concluded in the proof)"},
)
def lemma_e4(ctx):
    """Reading A is Lemma E.4 as stated: an existential ("there exists a 2-layer ReLU MLP with
    hidden dimension 4n" realising Def E.3), decided by a witness (verify.combine, rule 7):
    trapezoids that are 1 on |z - v_j| <= eps and 0 beyond delta/4 (:func:`trapezoid`), 4 ReLU
    units each, meet Def E.3 on every instance tried, in exact rationals (SUPPORTED). Reading P
    is the proof's construction (eta = delta/4, zero only beyond 2 eta = delta/2), REFUTED
    exactly: v = (0, 1), delta = 1, z = 3/8 (|z - v_j| > 1/4 for both j) gives b_0(z) = 1/2:
    an erratum of the proof, whose suppression threshold misses Def E.3's delta/4 (it is no
    refutation of the lemma). Reading B (the proof's phi with threshold delta/2) and its
    activation region (eps < delta/4) SUPPORTED by falsify. Width: 4n hidden units; the output
    layer is the n x 4n matrix of +-1/eta, not an identity."""
    ev_a = suppression_evidence([Fraction(0), Fraction(1)], Fraction(3, 8)).relabel(reading="P")
    ev_witness = witness_decoder_evidence(ctx.numpy_rng("e4-witness"), ctx.pick(40, 400))
    dec = BumpDecoder(torch.tensor([0.0, 1.0]))
    ev_width = prove_cases(
        [("hidden width 4n", dec.width, 8), ("output layer columns (4n, not n)",
                                             dec.out.weight.shape[1], 8)],
        generality="n = 2 (the decoder is built per n; 4n units by its definition)",
        part="width", reading="B",
        summary="hidden width 4n; output layer is +-1/eta (n x 4n), not an n x n identity")

    def prop(generator, batch, dtype, device, n, region):
        gaps = 0.5 + torch.rand(n - 1, generator=generator, dtype=torch.float64,
            device=generator.device)
        vals = torch.cat([torch.zeros(1, dtype=torch.float64, device=gaps.device),
                          gaps.cumsum(0)])
        dmin = float(gaps.min())
        dc = BumpDecoder(vals, dmin)
        j = torch.randint(0, n, (batch,), generator=generator, device=generator.device)
        u = torch.rand(batch, generator=generator, dtype=torch.float64, device=generator.device)
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
    return [ev_witness, ev_a, ev_b.relabel(reading="B"), ev_width]


def trapezoid(z: Fraction, v: Fraction, inner: Fraction, outer: Fraction) -> Fraction:
    """Four ReLU units: 1 on ``|z - v| <= inner``, 0 on ``|z - v| >= outer``, linear between
    (``0 < inner < outer``); the division by ``outer - inner`` is the output layer's weight."""
    def relu(x: Fraction) -> Fraction:
        return max(x, Fraction(0))

    return (relu(z - v + outer) - relu(z - v + inner) - relu(z - v - inner)
            + relu(z - v - outer)) / (outer - inner)


def witness_decoder_evidence(rng, trials: int) -> Evidence:
    """Lemma E.4's existence, by a witness checked in exact rationals: for ``trials`` random
    instances (n in 2..6 values with random rational gaps, eps in (0, delta/4) up to
    0.999 delta/4), phi = (trapezoid(z, v_j, eps, delta/4))_j is checked at the activation
    points v_j, v_j +- eps and between, and at suppression points just beyond delta/4 of a
    value, between values and outside them. SUPPORTED when every point meets Def E.3 (the
    witness), REFUTED with the first failure (a failing candidate: in the existential reading
    it decides nothing)."""
    checked, bad = 0, None
    for _ in range(trials):
        n = int(rng.integers(2, 7))
        gaps = [Fraction(int(rng.integers(1, 40)), int(rng.integers(1, 9))) for _ in range(n - 1)]
        v = [Fraction(int(rng.integers(-20, 21)), 4)]
        for g in gaps:
            v.append(v[-1] + g)
        delta = min(gaps)
        outer = delta / 4
        eps = outer * Fraction(int(rng.integers(1, 1000)), 1000)
        tiny = outer / 10**6
        points = [(z, e) for j, vj in enumerate(v)
                  for z, e in ((vj, j), (vj - eps, j), (vj + eps, j), (vj + eps / 3, j))]
        points += [(z, None) for vj in v for z in (vj - outer - tiny, vj + outer + tiny)]
        points += [(z, None) for z in ((a + b) / 2 for a, b in itertools.pairwise(v))]
        points += [(v[0] - 5 * delta, None), (v[-1] + 5 * delta, None)]
        for z, j in points:
            if j is None and any(abs(z - vj) <= outer for vj in v):
                continue  # not a suppression point (Def E.3 (2) asks nothing there)
            phi = [trapezoid(z, vj, eps, outer) for vj in v]
            want = [Fraction(int(k == j)) for k in range(n)]
            checked += 1
            if phi != want and bad is None:
                bad = {"v": [str(x) for x in v], "eps": str(eps), "z": str(z),
                       "phi(z)": [str(x) for x in phi], "required": [str(x) for x in want]}
    witness = {"phi_j(z)": "[relu(z - v_j + delta/4) - relu(z - v_j + eps) - relu(z - v_j - "
               "eps) + relu(z - v_j - delta/4)] / (delta/4 - eps)",
               "hidden units": "4n (4 per value)",
               "output layer": "n x 4n, entries +-1/(delta/4 - eps)"}
    summary = (f"witness decoder (trapezoids 1 within eps, 0 beyond delta/4, 4n ReLU units): "
               f"{checked} points of {trials} random instances, exact rationals")
    if bad is None:
        return Evidence(Verdict.SUPPORTED, f"{summary}: Def E.3 met at every one",
                        method="numeric", witness=witness, numbers={"points": checked},
                        generality=f"{trials} random instances, n in 2..6, exact rationals")
    return Evidence(Verdict.REFUTED, f"{summary}: fails at z = {bad['z']}", method="numeric",
                    counterexample=bad, numbers={"points": checked})


def feature_rank(values: list[Fraction], layer: list[tuple[Fraction, Fraction]]) -> int:
    """Exact rank of the constant and the hidden units ``relu(a z + b)`` of a 2-layer ReLU
    network's ``layer`` evaluated at the points ``values``: the outputs at those points are
    combinations of these columns, so one-hot outputs at all ``n`` points need rank ``n``."""
    cols = [[Fraction(1)] * len(values)]
    cols += [[max(a * v + b, Fraction(0)) for v in values] for a, b in layer]
    return sp.Matrix(cols).T.rank()


def least_interpolating_width(values: list[Fraction], rng) -> dict:
    """Widths at which a 2-layer ReLU network can output ``e_j`` at ``v_j`` for all ``j``
    (Remark E.5, reading A), searched exactly: the largest feature rank over layers with kinks
    at the midpoints and over random rational layers, per width ``n-2`` and ``n-1``; and the
    least width at which rank ``n`` was reached (``None``: not within ``n-1``)."""
    n = len(values)
    mids = [(a + b) / 2 for a, b in itertools.pairwise(values)]
    found, best = None, {}
    for w in (n - 2, n - 1):
        layers = [[(Fraction(1), -m) for m in mids[:w]]]
        for _ in range(6):
            layers.append([(Fraction(int(rng.integers(-5, 6)) or 1), Fraction(
                int(rng.integers(-40, 41)), 4)) for _ in range(w)])
        best[w] = max(feature_rank(values, lay) for lay in layers)
        if found is None and best[w] == n:
            found = w
    return {"n": n, "max_rank_at_width": best, "least_width_found": found}


def tightness_evidence(rows: list[dict], decoder_bad: dict | None, **kw) -> Evidence:
    """"The O(V^m) bound is tight" for ``n = V^m`` points: SUPPORTED when the Lemma E.4 decoder
    (4n units) decodes every ``n`` tried (``decoder_bad`` is None) and no network narrower than
    ``n - 1`` units reached rank ``n`` (rank <= width + 1, so the least width grows as n);
    REFUTED by a decoder failure or by a width below ``n - 1`` that interpolates (the bound
    would not be tight)."""
    narrow = [r for r in rows if r["least_width_found"] is not None
              and r["least_width_found"] < r["n"] - 1]
    if decoder_bad is None and not narrow and rows:
        return Evidence(Verdict.SUPPORTED, "2-layer: n - 1 <= least width <= 4n for n = "
                        f"{rows[0]['n']}..{rows[-1]['n']}: width n - 2 never reaches the rank n "
                        "one-hot outputs need, n - 1 does (exact ranks); the Lemma E.4 decoder "
                        "(4n) decodes", method="numeric", numbers={"rows": rows}, **kw)
    if not rows:
        return Evidence.undecided("no width searched", method="numeric", **kw)
    return Evidence(Verdict.REFUTED, "the 2-layer width bound is not tight as stated",
                    method="numeric", numbers={"rows": rows},
                    counterexample={"decoder_failure": decoder_bad, "narrow": narrow[:1]}, **kw)


def decoder_failure(ns: range, plateau: bool) -> dict | None:
    """The first ``n`` at which the Lemma E.4 decoder of ``v = 0..n-1`` misses ``e_j`` at the
    points ``v_j`` (``plateau``: at ``v_j +- 0.999 eta`` as well, Def E.3 (1)), or ``None``."""
    for n in ns:
        dec = BumpDecoder(torch.arange(n, dtype=torch.float64))
        z = torch.arange(n, dtype=torch.float64)[:, None]
        if plateau:
            z = z + 0.999 * dec.eta * torch.tensor([[-1.0, 0.0, 1.0]], dtype=torch.float64)
        want = torch.eye(n, dtype=torch.float64).repeat_interleave(z.shape[1], 0)
        with torch.no_grad():
            err = float((dec(z.flatten()) - want).abs().max())
        if err > 1e-12:
            return {"n": n, "error": err, "plateau": plateau}
    return None


@verify.claim(
    "sih.decode.remark_e5", paper=PAPER, where="Remark E.5, L1461-1467", kind="rate",
    expect="UNDECIDED",
    statement=r"O(V^m)\text{ hidden width is tight for 2-layer ReLU MLPs};\ \text{deeper MLPs: "
              r"exponentially smaller width}",
    readings={"B": r"the same lower bound with $\varepsilon$-robust plateaus (Def E.3 (1))",
              "C": r"deeper MLPs (affine output layer, as Lemma E.4's) exist whose widest hidden "
                   r"layer is exponentially smaller than $V^m$"},
    quantifier={"C": "exists"},
    undecided=("open_setting",
               "'exponentially smaller width' for deeper MLPs does not say which width: the "
               "widest layer's (reading C) is REFUTED at every depth -- the last hidden layer "
               "needs n - 1 = V^m - 1 units (exact rank) -- while the earlier layers' widths "
               "are not bounded by that argument and the remark gives no construction to judge"),
)
def remark_e5(ctx):
    """Tight (A, exact one-hot outputs at the n = V^m values; B, on eps-robust plateaus): the
    outputs at the n points are combinations of the constant and the hidden units, so one-hot
    outputs need n - 1 units; searched exactly for n = 4..9 (width n - 2 never reaches rank n,
    kinks between consecutive points at width n - 1 do), and the Lemma E.4 decoder (4n units)
    decodes n = 4..64: Theta(n), SUPPORTED. "Deeper MLPs ... with exponentially smaller width":
    with an affine output layer (as in Lemma E.4) the n one-hot targets are affinely independent
    (rank n - 1, exact), so the last hidden layer of any depth needs n - 1 units and only the
    earlier layers can be narrow; the remark gives no construction and does not say which
    width it means: UNDECIDED (open_setting). Reading C, the widest layer: no deeper MLP with an
    affine output layer has all hidden widths below n - 1, by the same rank (a proof that no
    witness exists, exact at n = 4, 8, 16): REFUTED."""
    rng = ctx.numpy_rng("e5")
    rows = [least_interpolating_width([Fraction(j) for j in range(n)], rng) for n in range(4, 10)]
    ev = tightness_evidence(rows, decoder_failure(range(4, 65), plateau=False), part="tight")
    ev_b = tightness_evidence(rows, decoder_failure(range(4, 65), plateau=True), part="tight",
                              reading="B")
    ranks = {n: sp.Matrix([[int(i == j) - int(i == 0) for i in range(n)]
                           for j in range(1, n)]).rank() for n in (4, 8, 16)}
    ev_deep = Evidence.informal(
        "'exponentially smaller width' for deeper MLPs: with an affine output layer the n one-hot "
        f"targets span an affine set of dimension n - 1 (exact ranks {ranks}), so the last hidden "
        "layer needs n - 1 units at any depth; the remark gives no construction and does not "
        "say which layer's width shrinks", part="deeper",
        numbers={"affine_rank_of_one_hots": ranks})
    widest = all(r == n - 1 for n, r in ranks.items())
    ev_c = Evidence(
        Verdict.REFUTED if widest else Verdict.UNDECIDED,
        "no deeper MLP with an affine output layer has every hidden layer narrower than n - 1: "
        "its outputs at the n points are W h_j + b = e_j, so the differences e_j - e_1 (affine "
        f"rank n - 1, exact: {ranks}) lie in W's column space, of dimension <= the last hidden "
        "width", method="symbolic", reading="C", nonexistence=widest,
        generality="every depth; exact ranks at n = 4, 8, 16 (the rank of e_j - e_1 is n - 1 "
                   "for every n)",
        counterexample={"n": list(ranks), "affine_rank_of_one_hots": ranks,
                        "bound": "last hidden width >= n - 1"} if widest else None)
    return [ev, ev_deep, ev_b, ev_c]

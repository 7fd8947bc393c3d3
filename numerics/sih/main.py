"""Claims of Sec. 4 / App. F: the main theorem (Thm 4.3 / F.1), leakage, dimensions, trade-off, LayerNorm,
and the textual claims checked on the same end-to-end construction."""

from __future__ import annotations

import math

import sympy as sp
import torch
from hypothesis import strategies as st

import verify
from proofs.sih import exact_enum, proved_all
from verify import Evidence, Verdict
from verify.numeric import falsify, fit_rate

from ._common import PAPER, judge, sample_stream
from .ca import ECA, VN, e_hat, partitions, union_set
from .construction import SpatialInductionHead, evaluate


def _end_to_end(ctx, configs, temporal="periodic"):
    """Run the construction on random rules; collect per-class counts and the first evaluable misprediction."""
    tot: dict = {}
    first_bad = None
    for n, (offsets, V, widths, T, part) in enumerate(configs):
        g = ctx.torch_generator(f"e2e-{n}")
        tok = "T2" if len(widths) == 2 else "T1"
        ca, _, stream = sample_stream(g, offsets, V, widths, T, tok)
        m = SpatialInductionHead(offsets, V, widths, T, len(stream) + 1, part, temporal=temporal)
        res = evaluate(m, stream)
        for kx, (a, b) in res.items():
            r = tot.setdefault(kx, [0, 0])
            r[0] += a
            r[1] += b
        ev = res.get("from_cell/evaluable", [0, 0])
        if ev[1] < ev[0] and first_bad is None:
            first_bad = {"offsets": [list(o) for o in offsets], "V": V, "widths": list(widths), "T": T, "partition": part and [[list(o) for o in b] for b in part],
                         "rule_table": ca.table.tolist(), "tokenisation": tok, "temporal": temporal, "sign": "A",
                         "seed": ctx.seed, "subseed_name": f"e2e-{n}", "counts": res}
    return tot, first_bad


def _configs(ctx):
    eca_U = sorted(union_set(ECA)[2])
    parts = [None, [eca_U], [eca_U[:2], eca_U[2:]], [[(-1,), (1,)], [(0,), (2,)]], [[(-1,), (0,)], [(1,)], [(2,)]]]
    cfg = [(ECA, 2, (8,), 5, p) for p in parts] + [(ECA, 3, (6,), 5, None), (VN, 2, (4, 4), 3, None)]
    if not ctx.quick:
        cfg += [(ECA, 2, (W,), T, p) for W in (4, 16, 33, 64) for T in (4, 8) for p in parts]
        cfg += [(ECA, 3, (12,), 6, p) for p in parts[:3]] + [(VN, 2, (5, 6), 4, None), (VN, 2, (8, 8), 3, None)]
    return cfg


@verify.claim(
    "sih.main.leakage_bound", paper=PAPER, where="F.1 Step 1, L1695-1717, (56), (57); L1793-1806", kind="property",
    expect="SUPPORTED",
    statement=r"\varepsilon_{\rm attn}\le\frac{N-m}{me^\Delta+N-m}\ (56);\ \varepsilon_{\rm attn}<\delta/4\iff\Delta>\log\frac{4(N-m)}{m\delta}\ \text{(``a valid sufficient condition'', L1714-1716)};"
              r"\ \frac{N-1}{e^\Delta+N-1}<\frac1{4k}\Rightarrow\Delta>\log((4k-1)(N-1))\ (57);\ |z_\gamma-v_j|\le\varepsilon_{\rm attn}",
    readings={"B": r"the displayed $\iff$ at L1711 taken literally (necessary and sufficient)"},
)
def leakage_bound(ctx):
    """(56) and the displayed steps: falsified (SUPPORTED). (57) is an exact equivalence (PROVED). Partitioned
    threshold: the paper displays an "iff" at L1711 but states in the next sentence (L1714-1716) that, the exact
    threshold carrying the factor (4 - delta)/delta <= 4/delta, the display is "a valid sufficient condition"; reading
    A is that sufficient direction, PROVED symbolically (at the threshold (56) equals delta/(4+delta) < delta/4 and
    (56) decreases in Delta). Reading B (the displayed "iff" taken literally, both directions) is REFUTED: N = 2,
    m = 1, delta = 1, Delta = log(7/2): leakage 2/9 < 1/4 yet Delta < log 4 (reported beside; review 2026-11)."""
    def prop(generator, batch, dtype, device, N, m, D10, spread):
        m = min(m, N - 1)
        Delta = D10 / 10
        st_ = torch.rand(batch, m, generator=generator, dtype=torch.float64) * spread
        smin = st_.min(-1, keepdim=True).values
        nt = smin - Delta - torch.rand(batch, N - m, generator=generator, dtype=torch.float64) * spread
        nt[: batch // 4] = smin[: batch // 4] - Delta  # equality case
        p = torch.softmax(torch.cat([st_, nt], -1), -1)
        eps = p[:, m:].sum(-1)
        bound = (N - m) / (m * math.exp(Delta) + N - m)
        w = torch.rand(batch, N, generator=generator, dtype=torch.float64)
        z = (p * w).sum(-1)
        alpha = torch.softmax(st_, -1)
        zstar = (alpha * w[:, :m]).sum(-1)
        return (eps - bound).clamp(min=0) + ((z - zstar).abs() - eps).clamp(min=0)
    ev = falsify(prop, {"N": st.integers(3, 300), "m": st.integers(1, 8), "D10": st.integers(0, 150), "spread": st.floats(0.0, 10.0)},
                 budget=ctx.pick(quick=10, deep=300), batch=128, seed=ctx.seed)
    ev.part = "56"
    N, k, D = sp.symbols("N k Delta", positive=True)
    ev57 = proved_all([("(57) boundary", (N - 1) / ((4 * k - 1) * (N - 1) + N - 1), 1 / (4 * k))], generality="symbolic N > 1, k >= 1",
                      part="57", summary="equality at e^Delta = (4k-1)(N-1): (57) is an exact equivalence")
    Dl = sp.log(sp.Rational(7, 2))
    leak = sp.Rational(1, 1) / (sp.Rational(7, 2) + 1)
    cex = {"N": 2, "m": 1, "delta": 1, "Delta": "log(7/2)", "leakage_bound_56": str(leak), "delta/4": "1/4", "printed_threshold": "log 4"}
    evi = exact_enum(not (leak < sp.Rational(1, 4) and Dl < sp.log(4)), "'iff' at L1711: leakage 2/9 < delta/4 at Delta = log(7/2) < log 4",
                     generality="exact", counterexample=cex, part="iff", reading="B")
    # Reading A: the sufficient direction (L1714-1716). At e^Delta = 4(N-m)/(m delta), (56) = delta/(4+delta);
    # delta/4 - delta/(4+delta) = delta^2/(4(4+delta)) > 0; d(56)/d(e^Delta) < 0.
    Ns, ms, dl, E = sp.symbols("N m delta E", positive=True)
    b56 = (Ns - ms) / (ms * E + Ns - ms)
    at_thr = sp.simplify(b56.subs(E, 4 * (Ns - ms) / (ms * dl)))
    gap = sp.factor(sp.Rational(1, 4) * dl - at_thr)
    slope = sp.factor(sp.diff(b56, E))
    suff_ok = (sp.simplify(at_thr - dl / (4 + dl)) == 0 and sp.simplify(gap - dl ** 2 / (4 * (4 + dl))) == 0
               and sp.simplify(slope + ms * (Ns - ms) / (ms * E + Ns - ms) ** 2) == 0)
    evs = exact_enum(suff_ok, "sufficient direction (L1714-1716): at e^Delta = 4(N-m)/(m delta) the bound (56) is "
                     "delta/(4+delta) = delta/4 - delta^2/(4(4+delta)) and (56) decreases in Delta, so Delta > log(4(N-m)/(m delta)) "
                     "implies (56) < delta/4", generality="symbolic N > m > 0, delta > 0", part="threshold",
                     counterexample={"note": "symbolic identity did not reduce", "at_threshold": str(at_thr)})
    return [ev, ev57, evs, evi]


@verify.claim(
    "sih.main.thm43", paper=PAPER, where="Theorem 4.3 L343-353; Theorem F.1 L1595-1614; proof L1657-1826", kind="existence",
    expect="SUPPORTED",
    statement=r"\exists\text{ 2-layer causal transformer (no LN) implementing the optimal learner with error}\le\varepsilon;\ "
              r"D=O(hV^{\lceil|\mathcal U|/h\rceil}+d),\ d_p=2d+2\ (m=1),\ \le2(m+d)+2\ (m>1),\ \text{Layer 2: one head, no MLP}",
    readings={"B": "Thm F.1: exactly predicts the evolution (argmax correct on every predicted cell)",
              "C": "the construction exactly as printed in App. D-F (temporal part [t,1]) predicts every evaluable cell"},
)
def thm43(ctx):
    """A/B (existence): our explicit 2-layer construction (App. D-F with the periodic temporal repair, BOS/separator
    sinks, per-neighbour marginalisation) predicts every evaluable cell predicted from a cell token exactly
    (argmax of B_4, no Layer-2 MLP), for h = 1, intermediate partitions and h = |U|, 1D (T1) and 2D VN (T2), with
    the dimension bounds: SUPPORTED on the tested grid. Separator-query predictions (first cell of a row) are not
    covered by our separator choice and are reported separately. C: the printed temporal part makes evaluable
    mispredictions (REFUTED)."""
    tot, bad = _end_to_end(ctx, _configs(ctx))
    ev = tot.get("from_cell/evaluable", [0, 0])
    summ = f"evaluable (cell queries) {ev[1]}/{ev[0]} exact; all classes {tot}"
    evA = judge(bad is None and ev[0] > 0, summ, cex=bad, numbers={"counts": tot}, generality="tested grid")
    evB = Evidence(evA.verdict, summ + " (separator-query predictions not covered: B stays at the cell-query level)",
                   method="numeric", reading="B", numbers={"counts": tot}, counterexample=evA.counterexample)
    totp, badp = _end_to_end(ctx, _configs(ctx)[:3], temporal="printed")
    evC = judge(badp is None, f"printed temporal part: evaluable {totp.get('from_cell/evaluable')}", cex=badp, reading="C")
    return [evA, evB, evC]


@verify.claim(
    "sih.main.dim_formula", paper=PAPER, where="eq. (3) L351-353; (54) L1614; L359-366; L378-385; Step 2 L1743-1768",
    kind="identity", expect="REFUTED",
    statement=r"D=V+d_p+2hV^m+V\le2(h+1)V+2d+2\ (m=1),\ \le2hV^m+2(m+V+d)+2\ (m>1);\ \text{Layer-1 MLP hidden width exactly }4hV^m",
    readings={"B": r"MLP width exactly $4V^{|S_\gamma|}$ per head, total bounded by $4hV^m$"},
)
def dim_formula(ctx):
    """Block sums vs (54): PROVED symbolically (d_p = 2d+2 for m = 1; d_p <= 2(m+d)+2 gives (54) for m > 1). MLP width
    A ('exactly 4hV^m') REFUTED: ECA, h = 3, blocks {-1}, {0}, {1, 2}: the decoders need 4V^2 = 16 units
    (singleton heads need none; 32 with 4V per singleton) < 4hV^m = 48.
    B holds (per-head exact, total <= 4hV^m) for every ECA/VN partition."""
    h, V, d, m = sp.symbols("h V d m", positive=True, integer=True)
    ev = proved_all([("m = 1", V + (2 * d + 2) + 2 * h * V + V, 2 * (h + 1) * V + 2 * d + 2),
                     ("m > 1 at d_p = 2(m+d)+2", V + (2 * (m + d) + 2) + 2 * h * V ** m + V, 2 * h * V ** m + 2 * (m + V + d) + 2)],
                    generality="symbolic h, V, d, m", part="block_sum")
    U = sorted(union_set(ECA)[2])
    bad, n, okB = None, 0, True
    for hh in range(1, len(U) + 1):
        mm = -(-len(U) // hh)
        for p in partitions(U, hh):
            if max(map(len, p)) > mm:
                continue
            n += 1
            tot = sum(4 * 2 ** len(b) if len(b) > 1 else 0 for b in p)
            tot4 = sum(4 * 2 ** len(b) for b in p)  # Step 2: 4V^{|S|} per head, singletons included
            okB &= tot <= 4 * hh * 2 ** mm and tot4 <= 4 * hh * 2 ** mm
            if tot != (4 * hh * 2 ** mm if mm > 1 else 0) and bad is None:
                bad = {"setting": "ECA", "V": 2, "h": hh, "m": mm, "partition": [[list(o) for o in b] for b in p], "sum_4V^|S|": tot,
                       "4hV^m": 4 * hh * 2 ** mm}
    evA = exact_enum(bad is None, "MLP width 'exactly 4hV^m'" + ("" if bad is None else f": {bad['sum_4V^|S|']} != {bad['4hV^m']}"),
                     generality=f"{n} ECA partitions", counterexample=bad, part="mlp_width")
    evB = exact_enum(okB, "per-head 4V^{|S|} and total <= 4hV^m on every ECA partition", generality=f"{n} ECA partitions",
                     part="mlp_width", reading="B")
    return [ev, evA, evB]


@verify.claim(
    "sih.main.marginalisation_alignment", paper=PAPER, where="B_3 L1674-1680; Step 2 L1753-1758; Step 3 L1779-1780; L315-317",
    kind="property", expect="REFUTED",
    statement=r"B_{3,K}[\gamma]=e_{\gamma,K}\in\mathbb R^{V^{|S_\gamma\cap\mathcal N_K|}},\ B_{3,Q}[\gamma]=e_{\gamma,Q}\in\mathbb R^{V^{|S_\gamma\cap\mathcal N_Q|}};"
              r"\ c\langle q^{(Q)},q^{(K)}\rangle=ch\iff\text{all blocks agree},\ \le c(h-1)\text{ otherwise}",
)
def marginalisation_alignment(ctx):
    """For each partition of U (ECA), the K sub-block indexes neighbours J^K = {j: delta_j in S} and the Q sub-block
    J^Q = {j: delta_j + e_hat in S}. They differ (and even have different dimensions) for most partitions, e.g.
    h = 2, S = {-1, 0}, {1, 2}: J^K_1 = {1, 2} (V^2) vs J^Q_1 = {1} (V): the blockwise inner product is undefined
    (REFUTED). Aligned only at h = 1. With per-neighbour marginalisation the score is c * (#agreeing neighbours),
    = ck iff equal (checked on all 2^3 x 2^3 ECA pairs). Review (2026-11): partitions are now restricted to Def 4.1's
    |S_gamma| <= ceil(|U|/h); the earlier witness (h = 2, blocks of sizes 1 and 3) violated that hypothesis."""
    NK = [(-1,), (0,), (1,)]
    eh = e_hat(1)
    U = sorted(union_set(ECA)[2])
    rows, bad = [], None
    for hh in range(1, len(U) + 1):
        mm = -(-len(U) // hh)
        for p in partitions(U, hh):
            if max(map(len, p)) > mm:  # Def 4.1: |S_gamma| <= m = ceil(|U|/h)
                continue
            for b in p:
                JK = sorted(j for j, o in enumerate(NK) if o in b)
                JQ = sorted(j for j, o in enumerate(NK) if (o[0] + eh[0],) in b)
                if JK != JQ:
                    rows.append((hh, [list(o) for o in b], JK, JQ))
                    if bad is None or (len(JK) != len(JQ) and len(bad["J_K"]) == len(bad["J_Q"])):
                        bad = {"setting": "ECA", "h": hh, "partition": [[list(o) for o in bb] for bb in p], "block": [list(o) for o in b],
                               "J_K": JK, "J_Q": JQ, "dims": [2 ** len(JK), 2 ** len(JQ)]}
    evA = exact_enum(bad is None, f"{len(rows)} (partition, block) pairs with J^K != J^Q" +
                     ("" if bad is None else f", e.g. h = {bad['h']}, block {bad['block']}: J^K = {bad['J_K']} (dim {bad['dims'][0]}) vs "
                      f"J^Q = {bad['J_Q']} (dim {bad['dims'][1]})"), generality="all ECA partitions with |S| <= ceil(|U|/h) (Def 4.1)",
                     counterexample=bad)
    import itertools
    ok = all(sum(a == b for a, b in zip(x, y, strict=True)) == (3 if x == y else sum(a == b for a, b in zip(x, y, strict=True))) and
             (x == y) == (sum(a == b for a, b in zip(x, y, strict=True)) == 3)
             for x in itertools.product((0, 1), repeat=3) for y in itertools.product((0, 1), repeat=3))
    evR = exact_enum(ok, "repair: per-neighbour one-hots give score c * #agreements, = ck iff equal (all 64 pairs)",
                     generality="ECA, V = 2", part="repair")
    return [evA, evR]


@verify.claim(
    "sih.main.grid_independence", paper=PAPER, where="Abstract L24-26; L75-78; L368-376; L819-826; L478-482", kind="property",
    expect="SUPPORTED",
    statement=r"\text{the required representation dimension is independent of the grid size }L=W^d;\ \text{only the context length scales}",
    readings={"B": "capacity in a wider sense (weight magnitudes W_S, W_T, Delta, c, precision) is independent of L and T"},
)
def grid_independence(ctx):
    """A: D, d_p and the MLP width of the construction are constant over W in {8..128} (1D, h = |U| and h = 1) and
    T: SUPPORTED. B: REFUTED -- W_S = Delta/(1 - cos(2 pi/L)) grows as L^2 (fit_rate slope ~2), and Delta, c grow
    as log N_seq (N_seq ~ T L)."""
    Ws = ctx.pick(quick=[8, 16, 32, 64], deep=[8, 16, 32, 64, 128])
    U = sorted(union_set(ECA)[2])
    dims, WS = [], []
    for W in Ws:
        for part in (None, [U]):
            m = SpatialInductionHead(ECA, 2, (W,), 6, 6 * W + 5, part)
            dims.append((W, part is None, m.dims["D"], m.dims["d_p"], m.dims["mlp"]))
        WS.append(SpatialInductionHead(ECA, 2, (W,), 6, 6 * W + 5).W_T[0])
    const = all(len({(r[2], r[3], r[4]) for r in dims if r[1] == flag}) == 1 for flag in (True, False))
    evA = judge(const, f"dimensions constant over W = {Ws}: {sorted({(r[1], r[2], r[3], r[4]) for r in dims})}", cex={"rows": dims},
                numbers={"rows": dims})
    import numpy as np
    fr = fit_rate(np.array(Ws, dtype=float), np.array(WS, dtype=float))
    slope, ci = float(fr.slope), [float(x) for x in fr.ci]
    cex = {"W": Ws, "W_T (= max of the W_S-driven bounds)": WS, "fitted_slope": slope, "ci": ci}
    grows = ci[0] > 0.5
    evB = Evidence(Verdict.REFUTED if grows else Verdict.UNDECIDED, f"weight magnitudes grow with L: W_T ~ L^{slope:.2f} (95% CI {ci})",
                   method="numeric", reading="B", counterexample=cex if grows else None, numbers={"slope": slope, "ci": ci})
    return [evA, evB]


@verify.claim(
    "sih.main.tradeoff", paper=PAPER, where="Abstract L26-28; L79-81; L378-385; L1761-1768; Remark E.5", kind="rate",
    expect="SUPPORTED",
    statement=r"\text{fewer Layer-1 heads shift decoding onto the Layer-1 MLP, whose width scales exponentially with cells per head};"
              r"\ h=|\mathcal U|:\ D=O(|\mathcal U|V+d),\ \text{no MLP};\ h=1:\ O(V^{|\mathcal U|})",
    readings={"B": "a lower bound for decoding a per-head scalar superposition with a 2-layer ReLU MLP (Remark E.5)",
              "C": "a lower bound for every 2-layer transformer with h Layer-1 heads"},
)
def tradeoff(ctx):
    """A: the construction's MLP width is sum_gamma 4V^{|S_gamma|} (m > 1 blocks), growing as V^m; D(h) measured for
    ECA V in {2, 3}, fit of log width vs m gives slope log V (SUPPORTED). B: Theta(n) for n = V^m (remark_e5,
    SUPPORTED). C: no argument in the paper; no finite computation settles it (UNDECIDED)."""
    U = sorted(union_set(ECA)[2])
    rows = []
    for V in (2, 3):
        for hh in range(1, len(U) + 1):
            mm = -(-len(U) // hh)
            part = [U[i * mm:(i + 1) * mm] for i in range(hh)]
            part = [b for b in part if b]
            m = SpatialInductionHead(ECA, V, (8,), 4, 40, part)
            rows.append({"V": V, "h": len(part), "m": max(map(len, part)), "mlp": m.dims["mlp"], "D": m.dims["D"]})
    ok = all(r["mlp"] == 0 for r in rows if r["m"] == 1) and all(
        r["mlp"] >= 4 * r["V"] ** r["m"] for r in rows if r["m"] > 1)
    evA = judge(ok, f"MLP width vs (V, m): {[(r['V'], r['m'], r['mlp']) for r in rows]}", cex={"rows": rows}, numbers={"rows": rows})
    evB = Evidence.informal("2-layer ReLU decoder of n = V^m values needs Theta(n) units: checked in "
                            "sih.decode.remark_e5 (not re-run here)", reading="B")
    evC = Evidence.informal("no argument in the paper; a lower bound over all 2-layer transformers is not finitely checkable", reading="C")
    return [evA, evB, evC]


@verify.claim(
    "sih.main.layernorm", paper=PAPER, where="Remark F.2, L1648-1655", kind="property", expect="REFUTED",
    statement=r"\text{scaling }p\text{ by large }\gamma:\ \|h\|\approx\gamma\|p\|,\ \text{per-token norm variations }O(1/\gamma),"
              r"\ \text{LayerNorm reduces to a near-uniform scaling}",
)
def layernorm(ctx):
    """With the printed temporal part p_t = [t, 1, ...], ||p|| varies with t, so LN's per-token std tends to
    gamma * std(p_t), whose relative spread across tokens does not vanish as gamma -> infinity (ECA, L = 8,
    T = 6: spread ~ the spread of std(p) at every gamma): REFUTED. (With the periodic repair ||p|| is constant but the
    mean of p's entries still varies per token, so the spread stays ~0.23 as well: reported.)"""
    from .embedding import SpatialAwareEmbedding
    g = ctx.torch_generator("ln")
    _, _, stream = sample_stream(g, ECA, 2, (8,), 6)
    rows = {}
    for temporal in ("printed", "periodic"):
        emb = SpatialAwareEmbedding((8,), 6, [(1,)], temporal=temporal)
        cells = [i for i, c in enumerate(stream.cells) if c is not None]
        P = emb([stream.times[i] for i in cells], [stream.cells[i] for i in cells])
        X = torch.nn.functional.one_hot(torch.tensor([stream.states[i] for i in cells]), 2).to(torch.float64)
        sp_ = []
        for gam in (1.0, 1e2, 1e4):
            h = torch.cat([X, gam * P, torch.zeros(len(cells), 4, dtype=torch.float64)], -1)
            sd = h.std(-1, unbiased=False)
            sp_.append(float((sd.max() - sd.min()) / sd.mean()))
        rows[temporal] = sp_
    bad = rows["printed"][-1] > 0.1
    cex = {"setting": "ECA L=8 T=6", "gammas": [1, 1e2, 1e4], "relative_std_spread_printed": rows["printed"],
           "relative_std_spread_periodic": rows["periodic"], "seed": ctx.seed}
    return judge(not bad, f"relative spread of LN std across tokens at gamma = 1, 1e2, 1e4: printed {rows['printed']}, "
                 f"periodic {rows['periodic']}", cex=cex, numbers=cex)


@verify.claim(
    "sih.text.linear_value_suffices_m1", paper=PAPER, where="L307-308; L1728-1734; L1764-1766", kind="property", expect="SUPPORTED",
    statement=r"m=1,\ h=|\mathcal U|:\ \text{no Layer-1 MLP; linear value projection, leakage }\bar\varepsilon\le\varepsilon_{\rm attn};\ \bar\varepsilon<1/(4k)",
)
def linear_value_suffices_m1(ctx):
    """End-to-end with h = |U| and no Layer-1 MLP (ECA V in {2, 3}, 2D VN): all evaluable cell-query predictions exact
    (SUPPORTED); measured max per-head leakage below 1/(4k)."""
    cfg = [c for c in _configs(ctx) if c[4] is None]
    tot, bad = _end_to_end(ctx, cfg)
    ev = tot.get("from_cell/evaluable", [0, 0])
    return judge(bad is None and ev[0] > 0, f"no-MLP distributed regime: evaluable {ev[1]}/{ev[0]} exact", cex=bad, numbers={"counts": tot})


@verify.claim(
    "sih.text.layer2_no_mlp", paper=PAPER, where="L328-329; L1574; L1789; Fig. 3 caption L512", kind="property", expect="SUPPORTED",
    statement=r"\text{No MLP is required in Layer 2: prediction}=\arg\max B_4\text{ after the Layer-2 head}",
)
def layer2_no_mlp(ctx):
    """The construction reads argmax B_4 directly after Layer-2 attention: every evaluable cell-query prediction exact on
    the tested grid (h = 1, intermediate, |U|): SUPPORTED."""
    tot, bad = _end_to_end(ctx, _configs(ctx)[:4])
    ev = tot.get("from_cell/evaluable", [0, 0])
    return judge(bad is None and ev[0] > 0, f"argmax B_4, no Layer-2 MLP: evaluable {ev[1]}/{ev[0]} exact", cex=bad, numbers={"counts": tot})


@verify.claim(
    "sih.text.causal_completed", paper=PAPER, where="L1554-1555; L1775-1776", kind="property", expect="REFUTED",
    statement=r"\text{Causal masking ensures all retrieved context tokens correspond to completed time steps}",
)
def causal_completed(ctx):
    """Same-row keys (t' = t, earlier in the row) are visible and can match: their row is not complete. Counterexample:
    a matching key in the query's own row found on a random ECA trajectory (it still carries a valid (c, f(c)) pair,
    so prediction is unaffected). Row-0 and separator keys carry no valid pair (sinks in our construction)."""
    g = ctx.torch_generator("cc")
    for trial in range(50):
        _, tr, stream = sample_stream(g, ECA, 2, (8,), 4)
        for a in range(len(stream) - 1):
            if stream.kinds[a + 1] != "cell" or stream.times[a + 1] == 0:
                continue
            want = stream.configs[a + 1]
            for kx in range(a + 1):
                if stream.kinds[kx] == "cell" and stream.times[kx] == stream.times[a + 1] and stream.configs[kx] == want:
                    cex = {"trajectory": tr.tolist(), "query_position": a, "query_cell": [stream.times[a], list(stream.cells[a] or [])],
                           "matching_key": [stream.times[kx], list(stream.cells[kx])], "note": "key row t' = t is not completed",
                           "trial": trial, "seed": ctx.seed}
                    return Evidence(Verdict.REFUTED, f"a same-row key ({stream.times[kx]}, {stream.cells[kx]}) matches the query's configuration",
                                    method="numeric", counterexample=cex)
    return Evidence.undecided("no same-row match found in 50 trajectories", method="numeric")

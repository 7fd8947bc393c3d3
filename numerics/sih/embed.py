"""App. D (spatial-aware embeddings) checked on token streams and by search: Def. D.1,
Lemmas D.2 / D.4, Thm 4.2 / D.5, Example D.6, Remark D.7, and the non-degeneracy of Stage (iii).

The exact parts of App. D (the temporal bilinear form, Step 4 of Lemma D.2's proof) are in
``proofs/sih/embed.py``.
"""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction

import sympy as sp
import torch

import verify
from proofs.sih import PAPER
from proofs.sih.model import ECA, VN, e_hat
from verify import Evidence, Verdict
from verify.numeric import check_injective, judge_check
from verify.symbolic import prove_cases, prove_equal, refute_exactly

from .model.ca import sample_stream
from .model.checks import def_d1_margins
from .model.construction import SpatialInductionHead, evaluate
from .model.embedding import (
    SpatialAwareEmbedding,
    case1_coefficients,
    frequency_classes,
    lemma_d4_coefficients,
    lp_polynomial,
    poly_eval,
)
from .model.lemma_d2 import search_tori, uniform_form_1d

CASE1_STATEMENT = (
    r"m=1:\ \exists\text{ explicit embedding with }d_p=2d+2:\ p_{t,\mathbf i}=[t,1,"
    r"(\cos\tfrac{2\pi i_c}{L_c},\sin\tfrac{2\pi i_c}{L_c})_c],\ Q_S=I_{2d},\ "
    r"K_S=W_S\,\mathrm{blkdiag}(R(\theta_{h,c})),\ W_S\ge\Delta/(1-\cos(2\pi/L_{\max})),"
    r"\ W_T\ge\Delta")
PRINTED_CONSTRUCTION = (
    "the construction exactly as printed (temporal part [t,1], Q_T=diag(-W_T,1), "
    "K_T=[0,1;W_T,W_T]) meets Def D.1 on the real token stream")


def printed_vs_repaired(ctx, offsets, V, widths, T, partition=None, sign="A") -> dict:
    """Worst Def. D.1 margin over the heads of the construction, for the printed temporal
    component and for the periodic repair, on one random stream (T1 in 1D, T2 in 2D)."""
    g = ctx.torch_generator(f"d1-{widths}-{T}-{partition}")
    _, _, st = sample_stream(g, offsets, V, widths, T, "T2" if len(widths) == 2 else "T1")
    out = {}
    for temporal in ("printed", "periodic"):
        m = SpatialInductionHead(offsets, V, widths, T, len(st) + 1, partition, sign=sign,
                                 temporal=temporal)
        worst = None
        for hd, wt in zip(m.heads, m.W_T, strict=True):
            r = def_d1_margins(m.emb, st, hd.coef, hd.offsets, wt, m.Delta, sign)
            tol = 1e-9 * (1 + wt + max(abs(a) + abs(b) for a, b in hd.coef.values()))
            if worst is None or r["min_margin"] < worst["min_margin"]:
                worst = {"min_margin": r["min_margin"], "class": r["worst_class"], "tol": tol,
                         "head": [list(o) for o in hd.offsets],
                         "at": r["worst"].get(r["worst_class"], (None, None))[1], "W_T": wt,
                         "Delta": m.Delta}
        out[temporal] = worst | {"d_p": m.emb.d_p, "eval": evaluate(m, st)}
    return out


def thm42_evidence(ctx, grids, partition_of=None, dims_bound=None) -> list[Evidence]:
    """Thm 4.2 on the given grids: (A) existence, the repaired embedding passes Def. D.1 (t >= 1
    queries, every visible key) with d_p within the bound; (C) the printed construction, where
    a same-row key beats the target (Def. D.1 (8) violated)."""
    results = []
    for offsets, V, widths, T in grids:
        part = partition_of(offsets, widths) if partition_of else None
        r = printed_vs_repaired(ctx, offsets, V, widths, T, part)
        bound = dims_bound(offsets, widths, part) if dims_bound else 2 * len(widths) + 2
        results.append({"offsets": offsets, "V": V, "widths": widths, "T": T, "bound": bound,
                        **r})
    return thm42_judgement(results, ctx.seed)


def thm42_judgement(results: list[dict], seed: int) -> list[Evidence]:
    """Thm 4.2 from the per-grid Def. D.1 margins ``results`` (each with the grid, the d_p
    ``bound`` and the ``periodic`` / ``printed`` worst margins of :func:`printed_vs_repaired`):
    (A) SUPPORTED when the repaired embedding's margin is within tolerance and its d_p within
    the bound on every grid, else REFUTED with the rows; (C) REFUTED by the first grid where the
    printed construction's margin is violated, else SUPPORTED."""
    if not results:
        return [Evidence.undecided("no grid tried", method="numeric"),
                Evidence.undecided("no grid tried", method="numeric", reading="C")]
    ok_rep, cex_printed, rows = True, None, []
    for r in results:
        offsets, V, widths, T, bound = r["offsets"], r["V"], r["widths"], r["T"], r["bound"]
        rep, pr = r["periodic"], r["printed"]
        ok_rep &= rep["min_margin"] >= -rep["tol"] and rep["d_p"] <= bound
        rows.append({"widths": list(widths), "T": T, "repaired_min_margin": rep["min_margin"],
                     "printed_min_margin": pr["min_margin"], "printed_worst_class": pr["class"],
                     "d_p": rep["d_p"], "bound": bound})
        if pr["min_margin"] < -pr["tol"] and cex_printed is None:
            cex_printed = {"widths": list(widths), "T": T, "V": V,
                           "offsets": [list(o) for o in offsets], "head": pr["head"],
                           "W_T": pr["W_T"], "Delta": pr["Delta"], "violation": pr["at"],
                           "key_class": pr["class"], "sign": "A",
                           "tokenisation": "T1 (1D) / T2 (2D)", "seed": seed,
                           "end_to_end_printed": pr["eval"]}
    witness = {"temporal part": "[cos(theta t), sin(theta t)] (our repair, same dimension 2)",
               "spatial part": "as printed", "grids": [r["widths"] for r in rows]}
    ev_a = judge_check(
        ok_rep, **({"witness": witness} if ok_rep else {}),
        summary="existence: an explicit embedding (temporal [cos(theta t), sin(theta t)], our "
        "repair; spatial part as printed) meets Def D.1 on every tested stream with d_p within "
        f"the bound ({len(rows)} grids)", counterexample={"rows": rows},
        numbers={"rows": rows}, generality="tested grids only")
    printed = ("meets Def D.1" if cex_printed is None else
               f"a visible {cex_printed['key_class']} key scores above "
               r"$s_{\min} - \Delta$ ($h(t,t) = +W_T$: the premise $t' \le t-1$ is false)")
    ev_c = judge_check(cex_printed is None, f"printed construction: {printed}",
                       counterexample=cex_printed, reading="C", numbers={"rows": rows})
    return [ev_a, ev_c]


@verify.claim(
    "sih.embed.def_spatial_aware", paper=PAPER, where="Definition D.1, L845-860; L258-263",
    kind="informal", expect="UNDECIDED",
    statement=r"\langle W_Q^{\rm pos}p_{t,\mathbf i},W_K^{\rm pos}p_{t',\mathbf i'}\rangle=s_j"
              r"\text{ if }(t',\mathbf i')=(t-1,\mathbf i+\delta_j),\ \le s_{\min}-\Delta"
              r"\text{ otherwise};\ s_j\text{ distinct};\ \sum_j\alpha_jx_j\ne"
              r"\sum_j\alpha_jx'_j\ (x\ne x')",
)
def def_spatial_aware(ctx):
    """A definition: recorded as UNDECIDED, with its checker exercised (numbers): the checker
    flags a moved target and a lowered margin (negative controls), and "distinct s_j" does not
    imply (10) (alpha = (.2, .3, .5): (1,1,0) and (0,0,1) collide), while (10) implies distinct
    s_j (equal alphas collide on swapped one-hots)."""
    g = ctx.torch_generator("d1def")
    _, _, st = sample_stream(g, ECA, 2, (6,), 3)
    emb = SpatialAwareEmbedding((6,), 3, [(1,)])
    Delta = 1.0
    W_S = Delta / (1 - math.cos(2 * math.pi / 6))
    coef = case1_coefficients((1,), (6,), W_S, sign="A")
    W_T = max((W_S + Delta) / math.cos(math.pi / emb.P),
              2 * W_S / (1 - math.cos(2 * math.pi / emb.P)))
    good = def_d1_margins(emb, st, coef, [(1,)], W_T, Delta)["min_margin"]
    moved = def_d1_margins(emb, st, coef, [(2,)], W_T, Delta)["min_margin"]
    lowered = def_d1_margins(emb, st, coef, [(1,)], W_T, Delta * 1.5)["min_margin"]
    alpha = [sp.Rational(1, 5), sp.Rational(3, 10), sp.Rational(1, 2)]
    collide = (sum(a * x for a, x in zip(alpha, (1, 1, 0), strict=True))
               == sum(a * x for a, x in zip(alpha, (0, 0, 1), strict=True)))
    return Evidence.informal(
        "a definition: it names the property 'spatial-aware' and asserts nothing that could "
        f"be true or false; its checker here: correct embedding margin {good:.3g} (>= 0 up to "
        f"round-off), moved target {moved:.3g} and raised Delta {lowered:.3g} (< 0: flagged); "
        f"distinct s_j do not imply (10): {bool(collide)}",
        numbers={"margin_ok": good, "margin_moved_target": moved,
                 "margin_raised_Delta": lowered, "distinct_not_implies_10": bool(collide)})


@verify.claim(
    "sih.embed.lemma_d2", paper=PAPER, where="Lemma D.2, L862-880 (proof L881-981)",
    kind="existence", expect="REFUTED", quantifier={"A": "exists"},
    timeout={"quick": 180.0},  # exact Farkas certificates for every frequency set: room under load
    statement=r"\exists\Omega,\ |\Omega|\le m+d,\ a_\omega,b_\omega:\ g(\delta_h)=s_h\ \forall h,"
              r"\ g(\delta)\le-W\ \forall\delta\notin N",
    readings={"B": r"the lemma on 1D tori ($d = 1$, $G = \mathbb{Z}_L$): "
                   r"$\Omega = \{0, 1, \dots, m\}$ works"},
    repairs={"B": "overstated"},
)
def lemma_d2(ctx):
    """A (as printed, every torus Z_{L_1} x ... x Z_{L_d}): exhaustive search over the tori
    whose character values are exact rationals (sides dividing 4 or 6; 2D and 3D), every N
    containing 0 with m <= 3, targets 0, W = 1. On Z4 x Z4, N = {(0,0), (0,2), (2,0)}: every
    one of the C(10, 5) = 252 sets of m + d = 5 frequency classes is infeasible, each by an
    exact integer Farkas certificate (re-checked in Fractions): REFUTED (deep adds Z6 x Z6,
    N = {(0,0), (0,3), (3,0)}, 15504 certificates). Why: on H = {0, (2,0), (0,2), (2,2)} every
    character with a coordinate even satisfies chi(2,2) = chi(2,0) + chi(0,2) - chi(0,0), so
    g(2,2) = 0 unless Omega holds a class with both coordinates odd, and more classes are
    needed beyond that. B (d = 1): the construction h = -prod(1 - cos(2 pi (x - delta)/L))
    with Omega = {0..m} meets the uniform form for every N of Z_L, L <= 10 (SUPPORTED): the
    lemma holds in 1D only, so it is overstated."""
    tori = ctx.pick(quick=[(2, 2), (2, 3), (3, 3), (2, 4), (2, 2, 2), (2, 2, 4), (4, 4)],
                    deep=[(2, 2), (2, 3), (3, 3), (2, 4), (2, 6), (3, 6), (2, 2, 2),
                          (2, 2, 4), (2, 2, 3), (4, 4), (6, 6)])
    found, rows = search_tori(tori, max_m=3)
    ev_a = lemma_d2_judgement(found, rows)
    Ls = ctx.pick(quick=range(2, 11), deep=range(2, 15))
    checks = [uniform_form_1d(L, [p for p in range(L) if mask >> p & 1])
              for L in Ls for mask in range(1, 2 ** L)]
    return [ev_a, lemma_d2_1d_judgement(checks)]


def lemma_d2_judgement(found: list[dict], rows: list[dict]) -> Evidence:
    """Lemma D.2 as printed from the exhaustive torus search (:func:`~.model.lemma_d2.search_tori`):
    REFUTED by the first instance whose every Omega of size m + d carries an exactly
    re-checked Farkas certificate; UNDECIDED when float64 LPs flagged candidates that could
    not be certified, or nothing was searched; SUPPORTED (on the searched tori, targets 0,
    W = 1 only) when no instance failed."""
    tried = sum(r["tried"] for r in rows)
    numbers = {"tori": rows, "instances": tried}
    if found:
        ce = found[0]
        others = "; ".join(f"{f['G']} N = {f['N']} ({f['Omegas_certified']} certificates)"
                           for f in found[1:])
        return Evidence(
            Verdict.REFUTED,
            f"{ce['G']}, $N = {ce['N']}$, $s = 0$, $W = 1$: all {ce['Omegas_certified']} sets "
            f"of $m + d = {ce['m'] + ce['d']}$ frequency classes are infeasible, each by an "
            r"exact integer Farkas certificate ($\lambda \ge 0$ off $N$, $\nu$ on $N$, "
            r"$V^\top\lambda + E^\top\nu = 0$, $W\sum\lambda - s\cdot\nu > 0$)"
            f"{'; also ' + others if others else ''}",
            method="certificate", nonexistence=True, counterexample=ce, numbers=numbers | {
                "also": [{k: f[k] for k in ("G", "N", "Omegas_certified")} for f in found[1:]]},
            generality=f"exhaustive over N containing 0, m <= 3, on {len(rows)} tori; "
                       "certificates exact (sine columns scaled by 2/sqrt 3 on 6-tori)")
    if not rows or tried == 0:
        return Evidence.undecided("no torus searched", method="numeric")
    if any(r["candidates"] for r in rows):
        return Evidence.undecided("float64 LPs found instances with no Omega of size m + d, "
                                  "but not every infeasibility was certified exactly",
                                  numbers=numbers, method="numeric")
    return Evidence(Verdict.SUPPORTED, f"{tried} instances (every N containing 0, m <= 3, "
                    f"on {len(rows)} tori; targets 0, W = 1): an Omega of size m + d found for "
                    "each (float64 HiGHS)", method="numeric", numbers=numbers,
                    generality="searched tori, targets 0 and W = 1 only",
                    witness={"Omega, a_omega, b_omega": "per instance, the feasible frequency "
                             "set and weights the LP found (numbers.tori)"})


def lemma_d2_1d_judgement(checks: list[tuple[bool, dict]]) -> Evidence:
    """Reading B (d = 1) from :func:`~.model.lemma_d2.uniform_form_1d` at every ``(L, N)``:
    SUPPORTED when the construction holds at each, REFUTED with the first failure (its
    numbers), UNDECIDED when nothing was checked."""
    if not checks:
        return Evidence.undecided("no 1D instance checked", method="numeric", reading="B")
    bad = next((n for ok, n in checks if not ok), None)
    Ls = sorted({n["L"] for _, n in checks})
    worst = min(n["sigma_m"] for _, n in checks)
    return judge_check(
        bad is None, f"d = 1: Omega = {{0..m}} and h = -prod(1 - cos(2 pi (x - delta)/L)) meet "
        f"the uniform form (h in span Omega, 0 on N, < 0 off N; rank E = m, smallest "
        f"sigma_m {worst:.2g}) for all {len(checks)} sets N of Z_L, L = {Ls[0]}..{Ls[-1]}",
        counterexample=bad, reading="B", numbers={"instances": len(checks), "min_sigma_m": worst},
        generality=f"every N of Z_L, L = {Ls[0]}..{Ls[-1]} (the degree/Vandermonde argument "
                   "holds for every L)")


@verify.claim(
    "sih.embed.lemma_d4", paper=PAPER, where="Lemma D.4, L986-1084; (22) L1069, (23) L1081",
    kind="existence", expect="SUPPORTED", quantifier={"A": "exists"},
    statement=r"L\ge4,\ \Omega=\{0,1,2\}:\ \exists a_0,a_1,a_2,b_1:\ g(0)=v_0,g(\pm1)=v_{\pm1},"
              r"\ g(\delta)\le-W\ (\delta\notin\{-1,0,1\})",
    readings={"B": r"the proof's step (iv): $a_2=-\Lambda$ with $\Lambda\ge\frac{W+v_0+|\Gamma|"
                   r"+|b_1|}{2(1-c_2)(c_1-c_2)}$ (23) is sufficient"},
)
def lemma_d4(ctx):
    """Reading A is the lemma as printed (L986-995), an existence statement; (23) is a step of
    its proof (reading B). (i)-(iii) PROVED in SymPy (symbolic theta = 2 pi/L, v, Lambda).
    A SUPPORTED: with a2 = -Lambda and Lambda grown from (23) until it works, g <= -W off N on
    every fuzzed instance, and the corrected bound (23') with 2|Gamma| in place of |Gamma|
    (|c_delta - 1| <= 2) never fails. B REFUTED: the triangle bound Gamma(c-1) <= |Gamma| is
    wrong (c - 1 reaches -2): L = 4, v = (1, 0, 1), W = 1: (23) gives Lambda = 1/2 and
    g(2) = 0 > -1 (exact: c_1 = 0, c_2 = -1)."""
    th, x, v0, vm, vp, Lam, W = sp.symbols("theta x v_0 v_m v_p Lambda W", real=True)
    c1, s1 = sp.cos(th), sp.sin(th)
    b1 = (vp - vm) / (2 * s1)
    Gam = ((vp + vm) / 2 - v0) / (c1 - 1)
    a2 = -Lam
    a1 = Gam - 2 * a2 * (c1 + 1)
    a0 = v0 - a1 - a2

    def g(dl):
        return a0 + a1 * sp.cos(dl * th) + a2 * sp.cos(2 * dl * th) + b1 * sp.sin(dl * th)

    cx = sp.cos(x * th)
    double = {sp.cos(2 * x * th): 2 * cx ** 2 - 1}
    cases = [("g(0)=v0", g(0), v0), ("g(1)=v1", sp.expand_trig(g(1)), vp),
             ("g(-1)=v-1", sp.expand_trig(g(-1)), vm),
             ("(ii) factorisation", sp.expand_trig(g(x) - v0).subs(double),
              sp.expand_trig((cx - 1) * (Gam + 2 * a2 * (cx - c1)) + b1 * sp.sin(x * th))),
             ("(iii) (22) rearrangement", (-W - g(x)).subs(double),
              2 * Lam * (1 - cx) * (c1 - cx)
              - (W + v0 + Gam * (cx - 1) + b1 * sp.sin(x * th)))]
    ev_id = prove_cases(
        cases, timeout=10.0 * len(cases), part="identities", scope="general",
        generality="symbolic theta, v, Lambda, W (theta = 2 pi/L, sin theta != 0, "
                   "cos theta != 1)")
    ev_iv = bound23_evidence(4, (1, 0, 1), 1)
    return [ev_id, ev_iv, lemma_d4_search(ctx)]


def bound23_evidence(L: int, v: tuple, W) -> Evidence:
    """Step (iv) of Lemma D.4's proof at one instance, exactly: ``a_2 = -Lambda`` with Lambda at
    equality in (23), the coefficients (i), and ``g`` at every ``delta`` outside {-1, 0, 1}
    (SymPy cosines of rational multiples of pi). REFUTED by the ``delta`` of largest ``g`` when it
    exceeds ``-W``, UNDECIDED when (23) suffices here. ``v = (v_{-1}, v_0, v_1)``."""
    vm, v0, vp = (sp.nsimplify(x) for x in v)
    W = sp.nsimplify(W)
    th = 2 * sp.pi / L
    c1, c2, s1 = sp.cos(th), sp.cos(2 * th), sp.sin(th)
    gam, b1 = ((vp + vm) / 2 - v0) / (c1 - 1), (vp - vm) / (2 * s1)
    lam = (W + v0 + abs(gam) + abs(b1)) / (2 * (1 - c2) * (c1 - c2))
    a2 = -lam
    a1 = gam - 2 * a2 * (c1 + 1)
    a0 = v0 - a1 - a2

    def g(x: int) -> sp.Expr:
        return sp.nsimplify(sp.simplify(a0 + a1 * sp.cos(x * th) + a2 * sp.cos(2 * x * th)
                                         + b1 * sp.sin(x * th)))

    off = [x for x in range(2, L - 1)]
    top = max(off, key=lambda x: float(g(x).evalf(50)), default=None)
    summary = f"(23) at L={L}, v={v}, W={W}: Lambda = {lam}"
    if top is None or float((g(top) + W).evalf(50)) <= 0:
        return Evidence.undecided(f"{summary}: g <= -W off N at this instance",
                                  method="symbolic", part="bound_23", reading="B")
    return refute_exactly(
        f"{summary}, g({top}) = {g(top)} > -W (the bound |Gamma(c-1)| <= |Gamma| fails: c-1 "
        "reaches -2)", {"L": L, "v": [str(x) for x in (vm, v0, vp)], "W": str(W),
                        "Lambda_23": str(lam), f"g({top})": str(g(top)), "required": f"<= {-W}"},
        lhs=g(top), rhs=-W, generality="exact", part="bound_23", reading="B")


def lemma_d4_search(ctx) -> Evidence:
    """Reading A (existence): with Lambda above the least working value, g <= -W off N (random
    L, v, W); also counts the failures of (23) and of the corrected bound
    (23') = (W + v0 + 2|Gamma| + |b1|) / (2(1-c2)(c1-c2))."""
    rnd = random.Random(ctx.subseed("d4"))
    worst, n, fails23, fails23c = 0.0, 0, 0, 0
    for _ in range(ctx.pick(quick=200, deep=5000)):
        L = rnd.randint(4, 256)
        v = tuple(rnd.uniform(-20, 20) for _ in range(3))
        W = rnd.choice([0.01, 0.1, 1, 10, 100])
        coef, lam23 = lemma_d4_coefficients(L, v, W)
        off = [x for x in range(L) if x not in (0, 1, L - 1)]
        gmax = max(poly_eval(coef, (x,), (L,)) for x in off)
        fails23 += gmax > -W + 1e-9 * (1 + abs(lam23))
        th = 2 * math.pi / L
        c1, c2 = math.cos(th), math.cos(2 * th)
        gam = ((v[2] + v[0]) / 2 - v[1]) / (c1 - 1)
        b1 = (v[2] - v[0]) / (2 * math.sin(th))
        lamc = max((W + v[1] + 2 * abs(gam) + abs(b1)) / (2 * (1 - c2) * (c1 - c2)), 1e-12)
        coef_c, _ = lemma_d4_coefficients(L, v, W, lamc)
        gmax_c = max(poly_eval(coef_c, (x,), (L,)) for x in off)
        fails23c += gmax_c > -W + 1e-9 * (1 + lamc)
        lam = max(lam23, 1e-12)
        for _ in range(60):  # grow until it works (existence)
            coef, _ = lemma_d4_coefficients(L, v, W, lam)
            gmax = max(poly_eval(coef, (x,), (L,)) for x in off)
            if gmax <= -W + 1e-9 * (1 + lam):
                break
            lam *= 2
        worst = max(worst, gmax + W)
        n += 1
    return existence_evidence(worst, n, fails23, fails23c)


def existence_evidence(worst: float, n: int, fails23: int, fails23c: int) -> Evidence:
    """Lemma D.4's existence from the search: SUPPORTED when, after growing Lambda, the largest
    excess ``max_{delta not in N} g(delta) + W`` over the ``n`` instances is within 1e-6 (the
    witness: a_2 = -Lambda so grown, a_0, a_1, b_1 by (i)), else REFUTED with it (the growth
    was capped: a failing candidate, which decides nothing for the existential lemma)."""
    ok = worst <= 1e-6
    witness = {"a_2": "-Lambda, Lambda doubled from (23) until g <= -W off N",
               "a_0, a_1, b_1": "by the proof's step (i)"}
    return judge_check(
        ok, **({"witness": witness} if ok else {}),
        summary=f"existence: a working Lambda found on all {n} instances; (23) itself "
        f"failed on {fails23}, the corrected (23') on {fails23c}",
        counterexample={"worst_excess": worst},
        generality=f"{n} random (L in [4,256], v in [-20,20]^3, W), float64",
        numbers={"instances": n, "fails_23": fails23, "fails_23_corrected": fails23c})


@verify.claim(
    "sih.embed.thm42_case1", paper=PAPER,
    where="Thm 4.2 bullet 1, L265-271; Thm D.5 item 1; construction L1122-1191",
    kind="existence", expect="SUPPORTED", statement=CASE1_STATEMENT, quantifier={"A": "exists"},
    readings={"C": PRINTED_CONSTRUCTION},
)
def thm42_case1(ctx):
    """Identity (30)-(33) PROVED (<u_a, R(theta) u_b> = cos(a - b - theta)). Existence (A):
    with the spatial part as printed and a periodic temporal part ([cos theta t, sin theta t],
    same dimension 2), Def. D.1 holds on real streams (1D T1, 2D T2, every offset of U as its
    own head): SUPPORTED on the tested grids. (C) The printed construction fails Def. D.1: a
    same-row key gets +W_T (REFUTED, reported beside)."""
    a, b, th = sp.symbols("a b theta", real=True)
    R = sp.Matrix([[sp.cos(th), -sp.sin(th)], [sp.sin(th), sp.cos(th)]])
    ua, ub = sp.Matrix([sp.cos(a), sp.sin(a)]), sp.Matrix([sp.cos(b), sp.sin(b)])
    ev = prove_cases([("(32)", sp.expand_trig((ua.T * R * ub)[0, 0]),
                       sp.expand_trig(sp.cos(a - b - th)))],
                     generality="symbolic angles", scope="general", part="identity")
    grids = [(ECA, 2, (5,), 3), (ECA, 2, (9,), 4)]
    grids += ctx.pick(quick=[(VN, 2, (3, 4), 2)],
                      deep=[(VN, 2, (4, 4), 3), (ECA, 3, (16,), 6), (ECA, 2, (32,), 5),
                            (VN, 2, (5, 6), 4)])
    return [ev, *thm42_evidence(ctx, grids)]


@verify.claim(
    "sih.embed.thm42_case2", paper=PAPER,
    where="Thm 4.2 bullet 2, L272-275; Thm D.5 item 2; L1193-1304, (39)-(51)",
    kind="existence", expect="SUPPORTED", quantifier={"A": "exists"},
    statement=r"m>1:\ \exists\text{ spatial-aware embedding with }d_p\le2(m+d)+2;\ "
              r"e_\omega(\mathbf i)^\top M_\omega e_\omega(\mathbf i')=a_\omega\cos(\varphi"
              r"-\varphi')+b_\omega\sin(\varphi-\varphi'),\ W_T\ge g_{\max}-s_{\min}+\Delta",
    readings={"C": PRINTED_CONSTRUCTION},
)
def thm42_case2(ctx):
    """(45)-(46) PROVED. Existence (A): for blocks of size m > 1 the LP finds g on a growing
    frequency set; with the periodic temporal part Def. D.1 holds on the real stream and
    d_p = 2 + 2|Omega| <= 2(m+d)+2 on the tested grids (SUPPORTED). (C) printed temporal part:
    REFUTED (same-row keys)."""
    ph, php, a, b = sp.symbols("phi phi' a b", real=True)
    e1, e2 = sp.Matrix([sp.cos(ph), sp.sin(ph)]), sp.Matrix([sp.cos(php), sp.sin(php)])
    Mw = sp.Matrix([[a, -b], [b, a]])
    ev = prove_cases([("(45)", sp.expand_trig((e1.T * Mw * e2)[0, 0]),
                       sp.expand_trig(a * sp.cos(ph - php) + b * sp.sin(ph - php)))],
                     generality="symbolic phases and coefficients", scope="general",
                     part="identity")

    def halves(offsets, widths):
        NK = [tuple(o) for o in offsets]
        shift = e_hat(len(widths))
        NQ = [tuple(x + y for x, y in zip(o, shift, strict=True)) for o in NK]
        U = list(dict.fromkeys(NK + NQ))
        return [U[: len(U) // 2], U[len(U) // 2:]]

    def bound(offsets, widths, part):
        return 2 * (max(map(len, part)) + len(widths)) + 2

    grids = [(ECA, 2, (8,), 3)]
    grids += ctx.pick(quick=[], deep=[(ECA, 2, (16,), 5), (ECA, 3, (12,), 4), (VN, 2, (4, 4), 3)])
    return [ev, *thm42_evidence(ctx, grids, halves, bound)]


@verify.claim(
    "sih.embed.example_d6", paper=PAPER, where="Example D.6, L1306-1341", kind="existence",
    expect="REFUTED", quantifier={"A": "exists"},
    statement=r"\text{ECA }(m=3):\ p_{(t,i)}=[t,1,1,\cos\tfrac{2\pi i}L,\sin\tfrac{2\pi i}L,"
              r"\cos\tfrac{4\pi i}L,\sin\tfrac{4\pi i}L],\ d_p=7\le10;\ W_T\ge\max(s_L,s_C,s_R)"
              r"-s_{\min}+\Delta;\ \text{all other visible tokens suppressed by }\Delta",
    readings={"B": r"$W_T\ge g_{\max}-s_{\min}+\Delta$ (eq. (51))"},
)
def example_d6(ctx):
    """The score identity <Q_S p_i, K_S p_i'> = g(i - i') is PROVED for the 5 spatial
    coordinates (one for omega = 0). The claimed outcome fails on the real ECA stream under
    both W_T readings: a same-row key gets +W_T from the printed temporal part (REFUTED;
    smallest L = 4). 2(m+d)+2 = 10 checked. Part any_projection: no W_Q^pos, W_K^pos over
    this p works for T >= 3, so the failure is not an artefact of our coefficients, W_T or
    sign choice. Reading A is existential ("we can construct the exact projection" over this
    p): the failing margins at our coefficients are failing instances and decide nothing; the
    proof that no projection works (part any_projection) refutes it."""
    i, ip, L, a0, a1, b1, a2 = sp.symbols("i i' L a_0 a_1 b_1 a_2", real=True)

    def spatial(j):
        return sp.Matrix([1, sp.cos(2 * sp.pi * j / L), sp.sin(2 * sp.pi * j / L),
                          sp.cos(4 * sp.pi * j / L), sp.sin(4 * sp.pi * j / L)])

    KS = sp.diag(a0, sp.Matrix([[a1, -b1], [b1, a1]]), a2 * sp.eye(2))
    D = i - ip
    gD = (a0 + a1 * sp.cos(2 * sp.pi * D / L) + b1 * sp.sin(2 * sp.pi * D / L)
          + a2 * sp.cos(4 * sp.pi * D / L))
    ev = prove_cases([("score = g(i-i')", sp.expand_trig(sp.expand((spatial(i).T * KS
                                                                   * spatial(ip))[0, 0])),
                       sp.expand_trig(sp.expand(gD)))],
                     generality="symbolic i, i', L and coefficients", scope="general",
                     part="identity")
    ev_dim = prove_cases([("2(m+d)+2 at m=3, d=1", 2 * (3 + 1) + 2, 10)], scope="general",
                         generality="arithmetic at the example's m = 3, d = 1",
                         part="dimension", summary="2(m+d)+2 = 10 >= 7")
    g = ctx.torch_generator("d6")
    _, _, st = sample_stream(g, ECA, 2, (4,), 3)
    out = [ev, ev_dim]
    Delta, L_ = 2.0, 4
    s = (0.0, 1.0, 0.5)  # s_L (delta=-1), s_C, s_R
    coef, _ = lemma_d4_coefficients(L_, (s[2], s[1], s[0]), -min(s) + Delta)  # D = -delta (A)
    gvals = [poly_eval(coef, (x,), (L_,)) for x in range(L_)]
    for reading, top in (("A", max(s)), ("B", max(gvals))):
        W_T = top - min(s) + Delta
        emb = SpatialAwareEmbedding((L_,), 3, [(0,), (1,), (2,)], temporal="printed")
        # the constant a_0 rides on omega = 0 as a cos/sin pair (sin 0 = 0): the same scores
        # as Example D.6's single coordinate for it
        r = def_d1_margins(emb, st, coef, [(-1,), (0,), (1,)], W_T, Delta, "A")
        cex = {"L": L_, "T": 3, "W_T": W_T, "Delta": Delta, "targets_s": s,
               "worst_class": r["worst_class"], "at": r["worst"][r["worst_class"]][1],
               "seed": ctx.seed}
        out.append(margin_evidence(r, W_T, cex, f"W_T reading {reading}", reading=reading,
                                   part="def_d1"))
    out.append(affine_in_time_obstruction())
    return out


def margin_evidence(margins: dict, W_T: float, cex: dict, what: str, **kw) -> Evidence:
    """Def. D.1 (8) from the checker's worst margins (:func:`~.model.checks.def_d1_margins`):
    SUPPORTED when the smallest margin is within ``-1e-9 (1 + W_T)``, else REFUTED with ``cex``."""
    return judge_check(margins["min_margin"] >= -1e-9 * (1 + W_T),
                       f"{what}: min Def D.1 margin {margins['min_margin']:.3g} "
                       f"({margins['worst_class']})", counterexample=cex, **kw)


def affine_in_time_obstruction(degree: int = 1) -> Evidence:
    """No projection at all works over the printed p of Example D.6, whatever the
    coefficients, W_T, Delta and sign convention.

    For any 7 x 7 bilinear form B the score of key (t', i) from query (t, i) is affine in t'
    (p is affine in t), so score(t-1) = (score(t) + score(t-2)) / 2 exactly (PROVED with a
    symbolic B and features). For t >= 2 the keys (t, i) (the query itself), (t-1, i) and
    (t-2, i) are all causally visible; (t-1, i) is the target of offset 0 (score s_C >= s_min
    under either sign convention), so Def. D.1 would need both others <= s_min - Delta and
    hence s_C <= s_min - Delta < s_min: impossible for every T >= 3. ``degree`` is the power of
    t in p's first entry (1 as printed; another degree is a control where the identity fails
    and nothing is concluded)."""
    t, c1, s1, c2, s2 = sp.symbols("t c1 s1 c2 s2", real=True)
    B = sp.Matrix(7, 7, sp.symbols("B0:49", real=True))

    def p(tt):
        return sp.Matrix([tt ** degree, 1, 1, c1, s1, c2, s2])

    def score(tp):
        return (p(t).T * B * p(tp))[0, 0]

    ev = prove_equal(sp.expand(score(t - 1)), sp.expand((score(t) + score(t - 2)) / 2),
                     assumptions="real", timeout=10.0)
    if ev.verdict is not Verdict.PROVED:
        return Evidence.undecided("affine-in-t' identity not reduced symbolically",
                                  method="symbolic", part="any_projection")
    return Evidence(
        Verdict.REFUTED, r"for every $W_Q^{\mathrm{pos}}, W_K^{\mathrm{pos}}$ over the printed "
        r"$p$ ($d_p = 7$) Def D.1 fails once $T \ge 3$: the score is affine in $t'$, so the "
        r"target $(t-1, i)$ scores the mean of the visible keys $(t, i)$ and $(t-2, i)$ and "
        r"cannot exceed both by $\Delta > 0$ (an identity proved with a symbolic "
        r"$7 \times 7$ form)", method="symbolic", part="any_projection",
        nonexistence=True,
        generality="every bilinear form, every L, every T >= 3, both sign conventions",
        counterexample={"query": "(t, i), t = 2",
                        "keys": ["(2, i) self", "(1, i) target offset 0", "(0, i)"],
                        "identity": "score(1, i) = (score(2, i) + score(0, i)) / 2",
                        "smallest": {"T": 3, "L": "any (L >= 3)"}})


@verify.claim(
    "sih.embed.remark_d7", paper=PAPER, where="Remark D.7, L1343-1347", kind="existence",
    expect="SUPPORTED",
    statement=r"\text{routing }\mathcal U=\{-1,0,1,2\}\text{ requires }|\Omega|\le|\mathcal U|+d"
              r"=5,\ d_S=10,\ d_p=12\text{, independent of }L",
    readings={"B": r"10 and 12 are upper bounds from $|\Omega| \le |\mathcal U| + d$"},
    repairs={"B": ("erratum", r"'required' for 'sufficient': $|\Omega| \le |\mathcal U| + d$ is "
                              "the bound the remark derives, and its point, a size independent "
                              "of $L$, stands")},
)
def remark_d7(ctx):
    """Minimal |Omega| for N = U in 1D (uniform form: h|_N = 0, h <= -1 off N, plus rank 4 on
    N), by exhaustive subsets with float64 LPs. It is 3 (d_S = 6, d_p = 8) for every L tested,
    so "requires 10 / 12" (A) is REFUTED, with an exact witness for every L >= 5; the upper
    bounds (B) hold."""
    rows = []
    for L in ctx.pick(quick=[8, 16], deep=[5, 8, 16, 32, 64, 128]):
        pts = [(x % L,) for x in (1, 0, -1, -2)]  # D = -delta for sign A
        best = None
        for r in range(1, 6):
            for om in itertools.combinations(frequency_classes((L,)), r):
                ncols = sum(1 if (2 * w[0]) % L == 0 else 2 for w in om)
                if ncols < 4:
                    continue
                E = torch.tensor([[math.cos(2 * math.pi * w[0] * p[0] / L) for w in om]
                                  + [math.sin(2 * math.pi * w[0] * p[0] / L) for w in om
                                     if (2 * w[0]) % L] for p in pts], dtype=torch.float64)
                if torch.linalg.matrix_rank(E) < 4:
                    continue
                if lp_polynomial(om, (L,), pts, [0.0] * 4, -1.0) is not None:
                    best = [w[0] for w in om]
                    break
            if best:
                break
        rows.append({"L": L, "min_Omega": best, "d_S": 2 * len(best) if best else None})
    ev_req, ev_upper = omega_rows_evidence(rows)
    return [ev_req, remark_d7_exact_witness(ctx.pick(quick=[5, 8, 16], deep=list(range(5, 33)))),
            ev_upper]


def omega_rows_evidence(rows: list[dict]) -> tuple[Evidence, Evidence]:
    """Remark D.7 from the least |Omega| found per L (``rows``): (A) "requires |Omega| = 5"
    SUPPORTED when every L needs exactly 5, else REFUTED with the rows; (B) the upper bound 5
    SUPPORTED when every L needs at most 5, else REFUTED."""
    required = all(r["min_Omega"] is not None and len(r["min_Omega"]) == 5 for r in rows)
    upper = all(r["min_Omega"] is not None and len(r["min_Omega"]) <= 5 for r in rows)
    cex = {"rows": rows, "note": "uniform form; d_S = 2|Omega| < 10"}
    return (judge_check(required, f"minimal |Omega| per L: "
                        f"{[(r['L'], r['min_Omega']) for r in rows]}", counterexample=cex,
                        numbers={"rows": rows}, part="lp_search"),
            judge_check(upper, "upper bounds 10 / 12 hold", reading="B", counterexample=cex))


def remark_d7_exact_witness(Ls: list[int], centre: Fraction = Fraction(1, 2)) -> Evidence:
    """Exact witness that Omega = {0, 1, 2} (d_S = 6 < 10) routes U = {-1, 0, 1, 2}
    (D = -delta in {-2, -1, 0, 1}).

    With u(x) = cos(2 pi (x + 1/2) / L) (a degree-1 trigonometric polynomial in x),
    h = -(u - cos(pi/L))(u - cos(3 pi/L)) is quadratic in u, hence in
    span{1, cos, sin, cos 2, sin 2} (Omega = {0, 1, 2}); it vanishes on N (circular distance
    1/2 or 3/2 from -1/2) and is < 0 off N (distance >= 5/2, so u <= cos(5 pi/L) <
    cos(3 pi/L) for L >= 5). Scaled so that max off N = -1 and added to the rank-4 interpolant
    of any distinct targets, it meets Def. D.1's spatial part. Checked exactly (SymPy values,
    signs at 50 digits) for each L; ``centre`` is the 1/2 of u (another value is a control on
    which the witness fails and nothing is concluded)."""
    x = sp.Symbol("x")
    bad = None
    for L in Ls:
        u = sp.cos(2 * sp.pi * (x + sp.Rational(centre.numerator, centre.denominator)) / L)
        h = -(u - sp.cos(sp.pi / L)) * (u - sp.cos(3 * sp.pi / L))
        on = [sp.simplify(h.subs(x, v)) for v in (-2, -1, 0, 1)]
        off = [h.subs(x, v).evalf(50) for v in range(2, L - 2)]
        if any(v != 0 for v in on) or not all(v < 0 for v in off):
            bad = {"L": L, "on_N": [str(v) for v in on], "max_off": str(max(off)) if off else None}
            break
    if bad is not None:
        return Evidence.undecided(f"exact witness failed at L = {bad['L']}", method="symbolic",
                                  numbers=bad, part="exact_witness")
    return Evidence(
        Verdict.REFUTED, "'required d_S = 10': Omega = {0, 1, 2} (d_S = 6, d_p = 8) already "
        "routes U = {-1,0,1,2}: h = -(u - cos(pi/L))(u - cos(3 pi/L)), u = cos(2 pi (x+1/2)/L), "
        "is 0 on N and < 0 off N (exact)", method="symbolic", part="exact_witness",
        generality=f"exact for L in {Ls[0]}..{Ls[-1]}; the argument holds for every L >= 5",
        counterexample={"L": Ls[0], "Omega": [0, 1, 2], "d_S": 6, "d_p": 8,
                        "h": "-(u - cos(pi/L)) (u - cos(3 pi/L)), u = cos(2 pi (x + 1/2)/L)",
                        "N (D = -delta)": [-2, -1, 0, 1]})


@verify.claim(
    "sih.embed.nondegeneracy", paper=PAPER,
    where="Stage (iii) L1256-1282; Lemma E.1 L1372-1393; L1713-1714", kind="property",
    expect="PROVED",
    statement=r"\text{a.e. }\alpha\in\Delta^{m-1}:\ f_\alpha\text{ injective on }\{0..V-1\}^m;"
              r"\ \text{exactly }\binom V2\text{ pairs of distinct configurations};"
              r"\ \delta\le1/(V^m-1)",
    readings={"B": r"$\binom{V^m}2$ pairs of distinct configurations"},
    repairs={"B": ("erratum", r"$\binom{V^m}{2}$ pairs of distinct configurations, not "
                              r"$\binom{V}{2}$")},
)
def nondegeneracy(ctx):
    """Injectivity for random alpha in the simplex: check_injective on all V^m configurations
    (SUPPORTED). Base-V weights give the gap exactly 1/(V^m - 1) (exact, attaining the bound).
    The pair count C(V, 2) (A) is REFUTED: V = 2, m = 2 has C(4, 2) = 6 pairs of distinct
    configurations, not 1; B (C(V^m, 2)) holds."""
    g = ctx.torch_generator("nd")
    evs = []
    sizes = [(2, 3), (3, 3), (4, 2)] + ctx.pick(quick=[], deep=[(2, 8), (3, 5), (4, 4)])
    for V, m in sizes:
        a = torch.rand(m, generator=g, dtype=torch.float64, device=g.device)
        a = a / a.sum()
        X = torch.tensor(list(itertools.product(range(V), repeat=m)), dtype=torch.float64)
        evs.append(check_injective(lambda x, a=a: x @ a, X))
    worst = min(evs, key=lambda e: e.verdict is Verdict.SUPPORTED).relabel(part="injective")
    gaps = []
    for V in (2, 3, 4):
        for m in (1, 2, 3):
            al = [sp.Rational(V ** j, sum(V ** i for i in range(m))) for j in range(m)]
            vals = sorted({sum(a_ * x for a_, x in zip(al, c, strict=True)) / (V - 1)
                           for c in itertools.product(range(V), repeat=m)})
            gaps.append((f"V={V}, m={m}", min(b - a_ for a_, b in itertools.pairwise(vals)),
                         sp.Rational(1, V ** m - 1)))
    ev_gap = prove_cases(gaps, part="gap",
                         generality="V in {2,3,4}, m in {1,2,3}; in general the values are "
                                    "N/(V^m - 1) for the integers N < V^m (base-V digits), an "
                                    "argument SymPy does not check for symbolic V, m",
                         summary="base-V weights: minimum gap exactly 1/(V^m - 1)")
    ev_a, counts = pair_count_evidence([(V, m) for V in (2, 3) for m in (1, 2, 3)])
    ev_b = prove_cases(counts, reading="B", part="count",
                       generality=r"$V \in \{2,3\}$, $m \in \{1,2,3\}$ (enumerated pairs "
                                  r"against $\binom{V^m}{2}$; a count over symbolic $V, m$ is "
                                  "not enumerable)",
                       summary=r"$\binom{V^m}{2}$ pairs (enumerated)")
    return [worst, ev_gap, ev_a, ev_b]


def pair_count_evidence(sizes: list[tuple[int, int]]) -> tuple[Evidence, list[tuple]]:
    """Stage (iii)'s "exactly C(V, 2) such pairs" (reading A) against the pairs of distinct
    configurations enumerated at each ``(V, m)``: PROVED (bounded) when every count is C(V, 2),
    else REFUTED by the first size where it is not; with the ``(label, count, C(V^m, 2))``
    cases for reading B."""
    counts, cex = [], None
    for V, m in sizes:
        npairs = len(list(itertools.combinations(list(itertools.product(range(V),
                                                                        repeat=m)), 2)))
        counts.append((f"V={V}, m={m}", npairs, math.comb(V ** m, 2)))
        if npairs != math.comb(V, 2) and cex is None:
            cex = {"V": V, "m": m, "pairs_distinct_configs": npairs, "C(V,2)": math.comb(V, 2)}
    domain = f"(V, m) in {sizes} (enumerated)"
    if cex is None:
        ev_a = Evidence(Verdict.PROVED, "pair count", method="symbolic", generality=domain,
                        scope="bounded", part="count")
    else:
        ev_a = refute_exactly(
            f"pair count: {cex['pairs_distinct_configs']} pairs of distinct configurations != "
            f"C(V, 2) = {cex['C(V,2)']} at V = {cex['V']}, m = {cex['m']}", cex,
            lhs=cex["pairs_distinct_configs"], rhs=cex["C(V,2)"], generality=domain,
            part="count")
    return ev_a, counts

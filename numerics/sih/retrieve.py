"""App. E, content retrieval by Layer 2: Lemma E.6 (noisy Hamming scores) and Lemma E.9 /
Cor. E.10 (the softmax read-out).

The gap algebra of Remark E.7 is proved in ``proofs/sih/retrieve.py``.
"""

from __future__ import annotations

import math
from fractions import Fraction

import sympy as sp
import torch
from hypothesis import strategies as st

import verify
from proofs.sih import PAPER
from verify import Evidence
from verify.numeric import falsify, judge_check
from verify.symbolic import prove_cases, refute_exactly


def block_score(q: list[list[Fraction]], qp: list[list[Fraction]]) -> Fraction:
    """``<q, q'>`` of two vectors given as their ``m`` blocks of ``V`` coordinates (exact)."""
    return sum(x * y for bq, bp in zip(q, qp, strict=True) for x, y in zip(bq, bp, strict=True))


@verify.claim(
    "sih.retrieve.lemma_e6", paper=PAPER, where="Lemma E.6, L1493-1513; L319-323",
    kind="property", expect="REFUTED",
    statement=r"\langle q+\varepsilon,q'+\varepsilon'\rangle\ge m-2m\bar\varepsilon\ (q=q'),"
              r"\ \le(m-1)+2m\bar\varepsilon\ (q\ne q');\ \text{separated iff }\bar\varepsilon<"
              r"\tfrac1{4m};\ \text{both bounds tight}",
    readings={"B": r"blocks $(1-\lambda)e_x+a$, $a\ge0$, $a_x=0$, $\|a\|_1=\lambda\le"
                   r"\bar\varepsilon$",
              "C": r"$\|\varepsilon_h\|_1\le\bar\varepsilon$ over all coordinates of each block",
              "D": r"under the hypothesis, not stated in the lemma, that each block is "
                   r"$(1-\lambda)e_x+a$, $a\ge0$, $a_x=0$, $\|a\|_1=\lambda\le\bar\varepsilon$ "
                   r"(reading B's noise set): (53) holds, and $\bar\varepsilon<\tfrac1{4m}$ "
                   r"suffices for separation ('if' in place of 'iff')"},
    repairs={"D": "overstated"},
)
def lemma_e6(ctx):
    """A (only the off-target l1 mass bounded): REFUTED -- m = 1, V = 2, eps_bar = 0,
    eps = (-1, 0): match score 0 < 1. B: (53) holds (falsify over the set), but the 'iff'
    fails: the exact worst cases are m(1-e)^2 (match) and (m-1) + 2e(1-e) (one differing
    block); for m = 1 separation holds up to e < 1/3, e.g. e = 3/10 > 1/4 (REFUTED: necessity
    and tightness). C: REFUTED -- m = 2, V = 2, e = 1/10: a matching block scores (1+e)^2 and a
    differing one 2e, total 141/100 > (m-1) + 2me = 7/5. D (the repaired statement: reading
    B's noise set as a hypothesis, 'if' for 'iff'): (53) falsified over the set, and the gap
    between its two bounds is 1 - 4m eps_bar, positive iff eps_bar < 1/(4m) (PROVED)."""
    one, zero = Fraction(1), Fraction(0)
    score_a = block_score([[one - 1, zero]], [[one, zero]])  # q + eps = (0, 0), q' + eps' = q
    summary_a = "reading A: target coordinate unconstrained, matching score 0 < m - 2m eps_bar = 1"
    if score_a < 1:
        ev_a = refute_exactly(summary_a, {"m": 1, "V": 2, "eps_bar": 0, "q": [1, 0],
                                          "eps": [-1, 0], "eps'": [0, 0], "score": str(score_a),
                                          "bound": 1},
                              lhs=score_a, rhs=1, generality="exact")
    else:
        ev_a = Evidence.undecided(f"{summary_a}: not below the bound", method="symbolic")

    e = Fraction(3, 10)
    match, nonmatch = (1 - e) ** 2, 2 * e * (1 - e)
    summary_iff = ("reading B: at eps_bar = 3/10 > 1/4 matches (49/100) still beat non-matches "
                   "(21/50)")
    if match > nonmatch:
        ev_iff = refute_exactly(
            summary_iff, {"m": 1, "V": 2, "eps_bar": "3/10", "worst_match": str(match),
                          "worst_nonmatch": str(nonmatch), "1/(4m)": "1/4",
                          "note": "separated although eps_bar > 1/(4m); blocks q+eps = "
                                  "(7/10, 3/10) ... worst pairs"},
            lhs=match, rhs=nonmatch, generality="exact worst cases, m = 1", reading="B",
            part="iff")
    else:
        ev_iff = Evidence.undecided(f"{summary_iff}: not separated", method="symbolic",
                                    reading="B", part="iff")

    def prop_b(generator, batch, dtype, device, m, V, ebar_pct, diff):
        ebar = ebar_pct / 100

        def block(x):
            lam = torch.rand(batch, m, 1, generator=generator, dtype=torch.float64) * ebar
            onehot = torch.nn.functional.one_hot(x, V).to(torch.float64)
            a = torch.rand(batch, m, V, generator=generator, dtype=torch.float64) * (1 - onehot)
            a = a / a.sum(-1, keepdim=True).clamp(min=1e-300) * lam
            return (1 - lam) * onehot + a

        x = torch.randint(0, V, (batch, m), generator=generator)
        xp = x.clone()
        nd = min(diff, m)
        xp[:, :nd] = (xp[:, :nd] + 1) % V
        s = (block(x) * block(xp)).sum((-1, -2))
        if nd == 0:
            return (m - 2 * m * ebar - s).clamp(min=0) / m
        return (s - (m - 1) - 2 * m * ebar).clamp(min=0) / m

    space_b = {"m": st.integers(1, 5), "V": st.integers(2, 4), "ebar_pct": st.integers(0, 49),
               "diff": st.integers(0, 5)}
    budget = ctx.pick(quick=10, deep=200)
    ev_b = falsify(prop_b, space_b, budget=budget, batch=256, seed=ctx.seed)
    ev_d = falsify(prop_b, space_b, budget=budget, batch=256, seed=ctx.seed)
    m_, e_ = sp.symbols("m epsilon_bar", positive=True)
    ev_d_gap = prove_cases(
        [("match bound - non-match bound", (m_ - 2 * m_ * e_) - ((m_ - 1) + 2 * m_ * e_),
          1 - 4 * m_ * e_)], generality="symbolic m, eps_bar", scope="general",
        reading="D", part="sufficiency",
        summary="the bounds of (53) differ by 1 - 4 m eps_bar, positive iff eps_bar < 1/(4m): "
                "under (53) that condition suffices for separation")

    ec = Fraction(1, 10)  # reading C: l1 over all coordinates, so a matching block can exceed 1
    q = [[1 + ec, zero], [one, ec]]  # (e_0, e_0) + eps
    qp = [[1 + ec, zero], [ec, one]]  # (e_0, e_1) + eps'
    score_c, bound_c = block_score(q, qp), 1 + 4 * ec
    summary_c = f"reading C: non-matching score {score_c} > (m-1) + 2m e = {bound_c}"
    if score_c > bound_c:
        ev_c = refute_exactly(
            summary_c, {"m": 2, "V": 2, "eps_bar": "1/10",
                        "q+eps": [[str(x) for x in r] for r in q],
                        "q'+eps'": [[str(x) for x in r] for r in qp], "score": str(score_c),
                        "bound": str(bound_c)},
            lhs=score_c, rhs=bound_c, generality="exact", reading="C")
    else:
        ev_c = Evidence.undecided(f"{summary_c}: within the bound", method="symbolic",
                                  reading="C")
    return [ev_a, ev_iff, ev_b.relabel(reading="B", part="bounds_53"), ev_c,
            ev_d.relabel(reading="D", part="bounds_53"), ev_d_gap]


@verify.claim(
    "sih.retrieve.lemma_e9_cor_e10", paper=PAPER,
    where="Def E.8 L1522-1555; Lemma E.9 L1557-1574; Cor E.10 L1576-1582", kind="property",
    expect="SUPPORTED",
    statement=r"\|\hat y-u^*\|\le2\varepsilon_{\rm ret},\ \varepsilon_{\rm ret}=\frac{(N-k)"
              r"e^{-G}}{k+(N-k)e^{-G}};\ \varepsilon_{\rm ret}<\tfrac{\sqrt2}4\Rightarrow"
              r"\arg\max\hat y=\arg\max u^*;\ G>\log(2\sqrt2(N-k)/k)\Rightarrow"
              r"\varepsilon_{\rm ret}<\tfrac{\sqrt2}4",
    readings={"B": "k = the neighbourhood size (Thm F.1), not the number of matching tokens"},
)
def lemma_e9_cor_e10(ctx):
    """A: falsified over N, k, V, G with adversarial non-match values (all non-matches on one
    wrong class): no violation (SUPPORTED). Threshold: the exact solution is
    G > log((2 sqrt2 - 1)(N-k)/k), so the printed one is sufficient (PROVED: printed > exact).
    B REFUTED: k = 3 (neighbourhood) but only 1 matching token: N = 4, G = 0; the bound with
    k = 3 gives 2 eps_ret = 0.5 while ||y - u*||_1 = 1.5."""
    def prop(generator, batch, dtype, device, N, k, V, G10):
        G = G10 / 10
        k = min(k, N - 1)
        rm = torch.rand(batch, k, generator=generator, dtype=torch.float64) * 3 + G
        rn = (torch.rand(batch, N - k, generator=generator, dtype=torch.float64)
              * (rm.min(-1, keepdim=True).values - G))
        p = torch.softmax(torch.cat([rm, rn], -1), -1)
        u_star = torch.zeros(V, dtype=torch.float64)
        u_star[0] = 1
        vals = torch.zeros(N, V, dtype=torch.float64)
        vals[:k, 0] = 1
        vals[k:, 1] = 1  # adversarial: all non-matches on one wrong class
        y = p @ vals
        x = (N - k) * math.exp(-G)
        eret = x / (k + x)
        viol = ((y - u_star).abs().sum(-1) - 2 * eret).clamp(min=0)
        if eret < math.sqrt(2) / 4:
            viol = viol + (y.argmax(-1) != 0).to(torch.float64)
        return viol

    ev = falsify(prop, {"N": st.integers(2, 200), "k": st.integers(1, 199),
                        "V": st.integers(2, 4), "G10": st.integers(0, 120)},
                 budget=ctx.pick(quick=10, deep=300), batch=128, seed=ctx.seed)
    N, k = sp.symbols("N k", positive=True)
    exact = sp.log((2 * sp.sqrt(2) - 1) * (N - k) / k)
    printed = sp.log(2 * sp.sqrt(2) * (N - k) / k)
    ev_t = prove_cases(
        [("printed - exact", sp.expand_log(printed - exact, force=True),
          sp.log(2 * sp.sqrt(2)) - sp.log(2 * sp.sqrt(2) - 1))],
        generality="symbolic N > k > 0", scope="general", part="threshold",
        summary="printed threshold exceeds the exact one by log(2 sqrt2/(2 sqrt2 - 1)) > 0: "
                "sufficient")
    p = torch.softmax(torch.zeros(4, dtype=torch.float64), 0)
    y = p @ torch.tensor([[1.0, 0], [0, 1], [0, 1], [0, 1]], dtype=torch.float64)
    l1 = float((y - torch.tensor([1.0, 0], dtype=torch.float64)).abs().sum())
    eret = 1 * 1 / (3 + 1)
    ev_b = judge_check(
        l1 <= 2 * eret, f"reading B: ||y - u*||_1 = {l1} > 2 eps_ret = {2 * eret}",
        counterexample={"N": 4, "matches": 1, "k_neighbourhood": 3, "G": 0, "||y-u*||_1": l1,
                        "2 eps_ret(k=3)": 2 * eret}, reading="B")
    return [ev, ev_t, ev_b]

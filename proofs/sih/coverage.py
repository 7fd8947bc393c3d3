"""App. B, Proposition B.2: the context length (4) that covers every configuration.

``sih.coverage.necessary``, which runs rules on trajectories, is in ``numerics/sih/coverage.py``.
"""

from __future__ import annotations

import math
from fractions import Fraction

import sympy as sp

import verify
from verify import Evidence, Verdict
from verify.symbolic import prove_cases, refute_exactly

from . import PAPER


def coverage_probability(n: int, K: int) -> Fraction:
    """Exact probability that ``n`` i.i.d. uniform draws from ``K`` configurations cover all of
    them (inclusion-exclusion): ``sum_j (-1)^j C(K, j) (1 - j/K)^n``."""
    return sum((-1) ** j * math.comb(K, j) * Fraction(K - j, K) ** n for j in range(K + 1))


def mmin_formula(V: int, k: int, L: int, P: float) -> int:
    """``M_min`` of (4): ``ceil(ln((1-P)/V^k) / (L ln(1 - V^-k)))``."""
    K = V ** k
    return math.ceil(math.log((1 - P) / K) / (L * math.log(1 - 1 / K)))


def mmin_evidence(settings: list[tuple[int, int, int]], Ps, formula=mmin_formula):
    """(4) against the exact i.i.d. coverage per ``(V, k, L)`` and ``P``: reading A (the least
    M with P_cov(LM) >= P) PROVED (bounded) when ``formula`` equals the least M everywhere, else
    REFUTED by the first case where it does not; reading B (a sufficient M) PROVED when it
    always reaches P, else REFUTED by the first case that falls short."""
    rows, cex_a, short_b = [], None, None
    for V, k, L in settings:
        K = V ** k
        for P in Ps:
            target = Fraction(P).limit_denominator(10 ** 6)
            m4 = formula(V, k, L, P)
            least = next(M for M in range(1, 200) if coverage_probability(L * M, K) >= target)
            rows.append({"V": V, "k": k, "L": L, "P": P, "M_eq4": m4, "least_M": least})
            if least != m4 and cex_a is None:
                cex_a = rows[-1] | {"P_cov(L*least)": float(coverage_probability(L * least, K))}
            if coverage_probability(L * m4, K) < target and short_b is None:
                short_b = rows[-1]
    cases = (f"the {len(rows)} (setting, P) cases, exact rationals; a general statement about "
             "(4) would need the inclusion-exclusion sum with symbolic K, which is not attempted")
    if cex_a is None:
        ev_a = Evidence(Verdict.PROVED, "(4) equals the least M under the i.i.d. model",
                        method="symbolic", generality=cases, scope="bounded",
                        numbers={"rows": rows})
    else:
        ev_a = refute_exactly("(4) vs the least M under the i.i.d. model", cex_a,
                              lhs=cex_a["M_eq4"], rhs=cex_a["least_M"], generality=cases,
                              numbers={"rows": rows})
    if short_b is None:
        ev_b = Evidence(Verdict.PROVED, "(4) always reaches P", method="symbolic", reading="B",
                        generality=cases, scope="bounded", numbers={"rows": rows})
    else:
        ev_b = refute_exactly("(4) falls short of P", short_b, lhs=short_b["M_eq4"],
                              rhs=short_b["least_M"], reading="B", numbers={"rows": rows})
    return ev_a, ev_b


@verify.claim(
    "sih.coverage.mmin", paper=PAPER, where="Proposition B.2, L728-751", kind="property",
    expect="PROVED",
    statement=r"M_{\min}=\Big\lceil\frac{\ln((1-P)/V^k)}{L\ln(1-V^{-k})}\Big\rceil\ \text{is the "
              r"minimum }M\text{ with }\Pr[\text{all covered}]\ge P",
    readings={"B": "(4) is a sufficient $M$ (union bound)"},
    repairs={"B": ("erratum", "'minimum' names the sufficient $M$ the proof's union bound gives "
                              "(L736-744); App. G uses (4) only to choose an $M$ that suffices")},
)
def coverage_mmin(ctx):
    """Exact i.i.d. coverage P_cov(n) (Fractions). The boundary of (4) solves
    K (1 - 1/K)^{LM} = 1 - P (PROVED, symbolic). A (the minimum) is REFUTED where a smaller M
    already reaches P (ECA, L = 10, P = 0.5: M = 2 gives 0.53, (4) says 3); B (sufficient)
    holds in every tested case."""
    K_, L_, P_ = sp.symbols("K L P", positive=True)
    m_star = sp.log((1 - P_) / K_) / (L_ * sp.log(1 - 1 / K_))
    boundary = sp.log(K_ * sp.exp(L_ * m_star * sp.log(1 - 1 / K_)))
    ev = prove_cases(
        [("boundary", sp.simplify(sp.expand_log(boundary, force=True)),
          sp.simplify(sp.expand_log(sp.log(1 - P_), force=True)))],
        generality="symbolic K > 1, L, P in (0, 1)", scope="general", part="derivation")
    ev_a, ev_b = mmin_evidence([(2, 3, 16), (3, 3, 32), (2, 5, 36), (2, 3, 10), (2, 3, 32)],
                               (0.5, 0.9, 0.99, 0.999))
    return [ev, ev_a, ev_b]

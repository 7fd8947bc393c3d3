"""Symbolic claims ``nfa.appc.*``: Appendix C, residual-keyed heads (Thm 12, Thm 13).

Setup (L574-586): ``f_c = sum_k c_k Phi_k`` with ``Phi_k : R^n -> R^m``, residuals
``r_i = y_i - f_c(x_i)``, loss ``L = 1/2 sum_i ||r_i||^2`` and ``g_k = dL/dc_k``. The
general proofs use symbolic N and m: ``P[i, l]`` is component l of ``Phi_k(x_i)``,
``r[i, l]`` that of ``r_i``, with ``l`` symbolic (so every component of every m).
"""

from __future__ import annotations

from dataclasses import replace

import sympy as sp

import verify
from verify import Evidence, Verdict
from verify.symbolic import prove_equal, prove_for_sizes, refute_exactly

from . import PAPER
from .model import N, i, j, mean_and_variance, softmax_output, taylor_coefficient, total

_m = sp.Symbol("m", integer=True, positive=True)
_l = sp.Symbol("l", integer=True)
_GENERAL = "symbolic N and m (IndexedBase sums), every component l"


def _general(ev: Evidence) -> Evidence:
    if ev.verdict is Verdict.PROVED:
        ev.relabel(generality=_GENERAL)
    return ev


def _instance(N: int, m: int, sign: int):
    """At concrete sizes: ``O~_k = sum_i s_i v_i`` from its definition against
    ``sign * sum_i <Phi_k(x_i), r_i> Phi_k(x_i)`` (``sign = -1``: the theorem as printed,
    L624). Two basis functions, so the residual depends on another coefficient too."""
    P = [[[sp.Symbol(f"P{k}_{a}_{b}", real=True) for b in range(m)] for a in range(N)]
         for k in range(2)]
    c = sp.symbols("c0:2", real=True)
    y = [[sp.Symbol(f"y{a}_{b}", real=True) for b in range(m)] for a in range(N)]
    r = [[y[a][b] - c[0] * P[0][a][b] - c[1] * P[1][a][b] for b in range(m)]
         for a in range(N)]
    s = [sum(P[0][a][b] * r[a][b] for b in range(m)) for a in range(N)]
    O_k = sp.Matrix([sum(s[a] * P[0][a][b] for a in range(N)) for b in range(m)])
    return O_k, sign * O_k


@verify.claim(
    "nfa.appc.thm12_linear",
    paper=PAPER,
    where="Theorem 12, L618-630; proof L632-636; interpretation L630, L638",
    statement=r"s_i=\langle\Phi_k(x_i),r_i\rangle,\ v_i=\Phi_k(x_i),\ "
    r"\widetilde O_k:=\sum_is_iv_i "
    r"\Rightarrow \widetilde O_k=-\sum_i\langle\Phi_k(x_i),r_i\rangle\Phi_k(x_i)",
    kind="identity",
    readings={
        "B": r"$\widetilde O_k=\sum_i\langle\Phi_k(x_i),r_i\rangle\Phi_k(x_i)$ "
        r"(as written in the proof, L634)",
        "C": r"interpretation (L630, L638): $\widetilde O_k$ equals $-g_k$, $g_k$, "
        r"or a fixed multiple (m = 1)",
    },
    repairs={"B": ("erratum", "sign of the sum: the proof (L634) has +")},
    expect="PROVED",
)
def thm12_linear(ctx: verify.Context) -> list[Evidence]:
    """Reading A REFUTED (sign: the definition gives +sum, the statement prints -sum); exact
    witness from prove_equal at N = 1, m = 1. Reading B (the proof's L634, the sign
    corrected: the erratum) PROVED in general, symbolic N and m: it is the definition of
    O~_k written out. Reading C REFUTED: for m = 1, N = 2, Phi = (1, 2), r = (2, -1):
    g_k = -(1*2 + 2*(-1)) = 0 but O~_k = 1*2*1 + 2*(-1)*2 = -2.
    """
    printed = prove_for_sizes(lambda N, m: _instance(N, m, -1), {"N": [1, 2], "m": [1, 2]},
                              timeout=20, seed=ctx.seed)
    P, r = sp.IndexedBase("P"), sp.IndexedBase("r")
    s_i = sp.Sum(P[i, j] * r[i, j], (j, 1, _m))  # <Phi_k(x_i), r_i>
    definition = total(s_i * P[i, _l])  # component l of O~_k = sum_i s_i v_i
    proof_form = total(sp.Sum(P[i, j] * r[i, j], (j, 1, _m)) * P[i, _l])
    corrected = _general(prove_equal(definition, proof_form, timeout=20, reading="B"))
    Phi, rr = [1, 2], [2, -1]
    g = -sum(p * q for p, q in zip(Phi, rr, strict=True))
    O_k = sum(p * q * p for p, q in zip(Phi, rr, strict=True))
    # O~_k is a fixed multiple of g_k only if O~_k = 0 whenever g_k = 0
    not_multiple = refute_exactly(
        f"not a multiple of the gradient: m=1, N=2, Phi_k(x)=(1,2), r=(2,-1): g_k = {g} but "
        f"O~_k = {O_k}",
        {"m": 1, "N": 2, "Phi_k": Phi, "r": rr, "g_k": g},
        lhs=sp.Integer(O_k), rhs=sp.Integer(0), reading="C",
        generality="a single exact rational instance",
    )
    return [printed, corrected, not_multiple]


@verify.claim(
    "nfa.appc.thm12_scalar_grad",
    paper=PAPER,
    where="App. C setup L584; Thm 12 L628-630",
    statement=r"g_k=\frac{\partial\mathcal L}{\partial c_k}=-\sum_i\langle\Phi_k(x_i),r_i\rangle"
    r"=-\langle\mathbf 1,s\rangle",
    kind="identity",
    expect="PROVED",
)
def thm12_scalar_grad(ctx: verify.Context) -> Evidence:
    """Exact in symbolic N and m. The field is ``c_k Phi_k + F`` where ``F[i, l]`` stands for
    the other basis functions' contribution ``sum_{k' != k} c_k' Phi_k'(x_i)``, which does
    not depend on c_k. expect PROVED.
    """
    c = sp.Symbol("c_k", real=True)
    P, F, y = sp.IndexedBase("P"), sp.IndexedBase("F"), sp.IndexedBase("y")
    r = y[i, j] - c * P[i, j] - F[i, j]
    L = sp.Rational(1, 2) * total(sp.Sum(r**2, (j, 1, _m)))
    ev = prove_equal(sp.diff(L, c), -total(sp.Sum(P[i, j] * r, (j, 1, _m))), timeout=30)
    return _general(ev)


@verify.claim(
    "nfa.appc.thm13_softmax_expansion",
    paper=PAPER,
    where="Theorem 13, L646-662; proof L664-680; App. C title L570",
    statement=r"O_k(\beta)=\bar v+\frac\beta N\sum_i(s_i-\bar s)v_i+O(\beta^2);\ "
    r"\bar v=0\Rightarrow O_k(\beta)=\frac\beta N\sum_is_iv_i+O(\beta^2)",
    kind="identity",
    readings={
        "B": r"gradient interpretation: the first-order term $\frac1N\sum_is_iv_i$ 'encodes "
        r"the gradient components' (proportional to $\pm g_k$ for m = 1) in Thm 12's setting"
    },
    expect="PROVED",
)
def thm13_softmax_expansion(ctx: verify.Context) -> list[Evidence]:
    """Orders 0 and 1 in beta of each component l of ``O_k(beta) = sum_i w_i(beta) v_i``,
    exact in symbolic N and m (part "expansion"); the centred form (part "centred form"):
    the order-1 coefficient minus ``(1/N) sum_i s_i v_i`` is ``-s_bar sum_i v_i / N`` and the
    order-0 coefficient is ``v_bar``, both zero when ``v_bar = 0``.

    expect PROVED. Reading B REFUTED: with s_i = <Phi_k(x_i), r_i>, v_i = Phi_k(x_i), m = 1,
    the first-order coefficient is (1/N) sum Phi_k(x_i)^2 r_i, not a multiple of
    g_k = -sum Phi_k r_i (exact witness, chosen with v_bar = 0). v_bar = 0 is a condition on
    the basis values (sum_i Phi_k(x_i) = 0), not on the residuals.
    """
    s, v = sp.IndexedBase("s"), sp.IndexedBase("v")
    O_l = softmax_output(s, v[i, _l])
    sbar, _ = mean_and_variance(s)
    vbar = total(v[i, _l]) / N
    c0, c1 = taylor_coefficient(O_l, 0), taylor_coefficient(O_l, 1)
    out = [
        _general(prove_equal(c0, vbar, timeout=30, part="expansion")),
        _general(prove_equal(c1, total((s[i] - sbar) * v[i, _l]) / N, timeout=30,
                             part="expansion")),
        _general(prove_equal(c0, vbar, timeout=30, part="centred form")),
    ]
    shift = prove_equal(c1 - total(s[i] * v[i, _l]) / N, -sbar * total(v[i, _l]) / N,
                        timeout=30, part="centred form")
    step = "v_bar = 0 makes both the order-0 coefficient and this difference vanish"
    out.append(_general(replace(shift, steps=[*shift.steps, step])))
    Phi, r = [1, 1, -2], [1, 1, 1]
    g = -sum(p * q for p, q in zip(Phi, r, strict=True))  # = 0
    first = sp.Rational(sum(p * p * q for p, q in zip(Phi, r, strict=True)), 3)
    out.append(refute_exactly(
        f"m=1, N=3, Phi_k(x)=(1,1,-2) (so v_bar=0), r=(1,1,1): g_k = {g} but first-order "
        f"coefficient (1/N) sum s_i v_i = {first}: not proportional to the gradient",
        {"m": 1, "N": 3, "Phi_k": Phi, "r": r, "g_k": g},
        lhs=first, rhs=sp.Integer(0), reading="B",
        generality="a single exact rational instance",
    ))
    return out

"""Symbolic claims ``nfa.appc.*``: Appendix C, residual-keyed heads (Thm 12, Thm 13).

Setup (L574-586): ``f_c = sum_k c_k Phi_k`` with ``Phi_k : R^n -> R^m``, residuals
``r_i = y_i - f_c(x_i)``, loss ``L = 1/2 sum_i ||r_i||^2`` and ``g_k = dL/dc_k``.
"""

from __future__ import annotations

import sympy as sp

import verify
from verify import Evidence
from verify.symbolic import prove_for_sizes, refute_exactly

from . import PAPER
from .model import softmax_weights, taylor_coeffs


def _setup(N: int, m: int, K: int = 2):
    """``Phi_k(x_i)`` in R^m as symbols, coefficients c, targets y, residuals r and the loss."""
    P = [
        [[sp.Symbol(f"P{k}_{i}_{j}", real=True) for j in range(m)] for i in range(N)]
        for k in range(K)
    ]
    c = sp.symbols(f"c0:{K}", real=True)
    y = [[sp.Symbol(f"y{i}_{j}", real=True) for j in range(m)] for i in range(N)]
    r = [[y[i][j] - sum(c[k] * P[k][i][j] for k in range(K)) for j in range(m)] for i in range(N)]
    L = sp.Rational(1, 2) * sum(r[i][j] ** 2 for i in range(N) for j in range(m))
    return P, c, r, L


def _dot(u, v):
    return sum(a * b for a, b in zip(u, v, strict=True))


def _thm12(N: int, m: int, sign: int):
    """``O~_k = sum_i s_i v_i`` from its definition against ``sign * sum_i <Phi_k, r_i> Phi_k``:
    ``sign = -1`` is the theorem as printed (L624), ``+1`` the proof's last line (L634)."""
    P, _, r, _ = _setup(N, m)
    s = [_dot(P[0][i], r[i]) for i in range(N)]
    O_k = sp.Matrix([sum(s[i] * P[0][i][j] for i in range(N)) for j in range(m)])
    claimed = sp.Matrix(
        [sign * sum(_dot(P[0][i], r[i]) * P[0][i][j] for i in range(N)) for j in range(m)]
    )
    return O_k, claimed


@verify.claim(
    "nfa.appc.thm12_linear",
    paper=PAPER,
    where="Theorem 12, L618-630; proof L632-636; interpretation L630, L638",
    statement=r"s_i=\langle\Phi_k(x_i),r_i\rangle,\ v_i=\Phi_k(x_i),\ "
    r"\widetilde O_k:=\sum_is_iv_i "
    r"\Rightarrow \widetilde O_k=-\sum_i\langle\Phi_k(x_i),r_i\rangle\Phi_k(x_i)",
    kind="identity",
    readings={
        "B": r"\widetilde O_k=\sum_i\langle\Phi_k(x_i),r_i\rangle\Phi_k(x_i) "
        r"(as written in the proof, L634)",
        "C": r"interpretation (L630, L638): \widetilde O_k equals -g_k, g_k, "
        r"or a fixed multiple (m = 1)",
    },
    expect="REFUTED",
)
def thm12_linear(ctx: verify.Context) -> list[Evidence]:
    """Reading A REFUTED (sign: the definition gives +sum, the statement prints -sum); exact
    witness from prove_equal. Reading B PROVED (N = 1..3, m = 1, 2). Reading C REFUTED: for
    m = 1, N = 2, Phi = (1, 2), r = (2, -1): g_k = -(1*2 + 2*(-1)) = 0 but
    O~_k = 1*2*1 + 2*(-1)*2 = -2.
    """
    printed = prove_for_sizes(
        lambda N, m: _thm12(N, m, -1), {"N": [1, 2], "m": [1, 2]}, timeout=20, seed=ctx.seed
    )
    proof_form = prove_for_sizes(
        lambda N, m: _thm12(N, m, +1), {"N": [1, 2, 3], "m": [1, 2]}, timeout=20, reading="B"
    )
    Phi, r = [1, 2], [2, -1]
    g = -sum(p * q for p, q in zip(Phi, r, strict=True))
    O_k = sum(p * q * p for p, q in zip(Phi, r, strict=True))
    # O~_k is a fixed multiple of g_k only if O~_k = 0 whenever g_k = 0
    not_multiple = refute_exactly(
        f"not a multiple of the gradient: m=1, N=2, Phi_k(x)=(1,2), r=(2,-1): g_k = {g} but "
        f"O~_k = {O_k}",
        {"m": 1, "N": 2, "Phi_k": Phi, "r": r, "g_k": g},
        lhs=sp.Integer(O_k),
        rhs=sp.Integer(0),
        reading="C",
        generality="a single exact rational instance",
    )
    return [printed, proof_form, not_multiple]


def _thm12_grad(N: int, m: int):
    P, c, r, L = _setup(N, m)
    s = [_dot(P[0][i], r[i]) for i in range(N)]
    return sp.diff(L, c[0]), -sum(s)


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
    """Exact at N = 1..3, m = 1..3 with two basis functions and symbolic c. expect PROVED."""
    return prove_for_sizes(_thm12_grad, {"N": [1, 2, 3], "m": [1, 2, 3]}, timeout=30)


def _thm13(N: int, m: int, what: str):
    """Orders 0 and 1 in beta of ``O_k(beta) = sum_i w_i(beta) v_i`` (L648-656) against the
    expansion (``what = "expansion"``) or its centred form (``"centred"``: ``v_bar = 0``)."""
    s = sp.symbols(f"s1:{N + 1}", real=True)
    v = [[sp.Symbol(f"v{i}_{j}", real=True) for j in range(m)] for i in range(N)]
    if what == "centred":
        v[-1] = [-sum(v[i][j] for i in range(N - 1)) for j in range(m)]
    beta = sp.Symbol("beta", real=True)
    w = softmax_weights(list(s), beta)
    sbar = sum(s) / N
    got, want = [], []
    for j in range(m):
        co = taylor_coeffs(sum(w[i] * v[i][j] for i in range(N)), beta, 1)
        vbar = sum(v[i][j] for i in range(N)) / N
        got += [co[0], co[1]]
        if what == "expansion":
            want += [vbar, sum((s[i] - sbar) * v[i][j] for i in range(N)) / N]
        else:
            want += [0, sum(s[i] * v[i][j] for i in range(N)) / N]
    return sp.Matrix(got), sp.Matrix(want)


@verify.claim(
    "nfa.appc.thm13_softmax_expansion",
    paper=PAPER,
    where="Theorem 13, L646-662; proof L664-680; App. C title L570",
    statement=r"O_k(\beta)=\bar v+\frac\beta N\sum_i(s_i-\bar s)v_i+O(\beta^2);\ "
    r"\bar v=0\Rightarrow O_k(\beta)=\frac\beta N\sum_is_iv_i+O(\beta^2)",
    kind="identity",
    readings={
        "B": r"gradient interpretation: the first-order term \frac1N\sum_is_iv_i 'encodes the "
        r"gradient components' (proportional to \pm g_k for m=1) in Thm 12's setting"
    },
    expect="PROVED",
)
def thm13_softmax_expansion(ctx: verify.Context) -> list[Evidence]:
    """Expansion and centred form exact at N = 2, 3 and m = 1, 2 (Taylor coefficients in beta).

    expect PROVED. Reading B REFUTED: with s_i = <Phi_k(x_i), r_i>, v_i = Phi_k(x_i), m = 1,
    the first-order coefficient is (1/N) sum Phi_k(x_i)^2 r_i, not a multiple of
    g_k = -sum Phi_k r_i (exact witness, chosen with v_bar = 0). v_bar = 0 is a condition on
    the basis values (sum_i Phi_k(x_i) = 0), not on the residuals.
    """
    sizes = {"N": [2, 3], "m": [1, 2]}
    out = [
        prove_for_sizes(lambda N, m, w=what: _thm13(N, m, w), sizes, timeout=30, part=part)
        for what, part in (("expansion", "expansion"), ("centred", "centred form"))
    ]
    Phi, r = [1, 1, -2], [1, 1, 1]
    g = -sum(p * q for p, q in zip(Phi, r, strict=True))  # = 0
    first = sp.Rational(sum(p * p * q for p, q in zip(Phi, r, strict=True)), 3)
    out.append(
        refute_exactly(
            f"m=1, N=3, Phi_k(x)=(1,1,-2) (so v_bar=0), r=(1,1,1): g_k = {g} but first-order "
            f"coefficient (1/N) sum s_i v_i = {first}: not proportional to the gradient",
            {"m": 1, "N": 3, "Phi_k": Phi, "r": r, "g_k": g},
            lhs=first,
            rhs=sp.Integer(0),
            reading="B",
            generality="a single exact rational instance",
        )
    )
    return out

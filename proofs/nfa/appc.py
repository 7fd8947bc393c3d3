"""Appendix C of nfa: residual-keyed heads (Thm 12, Thm 13), exact SymPy checks."""

from __future__ import annotations

import sympy as sp

import verify
from verify import Evidence
from verify.symbolic import prove_for_sizes

from ._common import PAPER, exact_witness, softmax_weights, taylor_coeffs


def _setup(N: int, m: int, K: int = 2):
    """Phi_k(x_i) in R^m as symbols, coefficients c, targets y; r_i = y_i - sum_k c_k Phi_k(x_i)."""
    P = [[[sp.Symbol(f"P{k}_{i}_{j}", real=True) for j in range(m)] for i in range(N)] for k in range(K)]
    c = sp.symbols(f"c0:{K}", real=True)
    y = [[sp.Symbol(f"y{i}_{j}", real=True) for j in range(m)] for i in range(N)]
    r = [[y[i][j] - sum(c[k] * P[k][i][j] for k in range(K)) for j in range(m)] for i in range(N)]
    L = sp.Rational(1, 2) * sum(r[i][j] ** 2 for i in range(N) for j in range(m))
    return P, c, r, L


def _dot(u, v):
    return sum(a * b for a, b in zip(u, v, strict=True))


def _thm12(N: int, m: int, reading: str):
    P, c, r, L = _setup(N, m)
    s = [_dot(P[0][i], r[i]) for i in range(N)]
    O = sp.Matrix([sum(s[i] * P[0][i][j] for i in range(N)) for j in range(m)])
    sign = -1 if reading == "A" else 1
    return O, sp.Matrix([sign * sum(_dot(P[0][i], r[i]) * P[0][i][j] for i in range(N)) for j in range(m)])


@verify.claim(
    "nfa.appc.thm12_linear",
    paper=PAPER,
    where="Theorem 12, L618-630; proof L632-636; interpretation L630, L638",
    statement=r"s_i=\langle\Phi_k(x_i),r_i\rangle,\ v_i=\Phi_k(x_i),\ \widetilde O_k:=\sum_is_iv_i "
    r"\Rightarrow \widetilde O_k=-\sum_i\langle\Phi_k(x_i),r_i\rangle\Phi_k(x_i)",
    kind="identity",
    readings={
        "B": r"\widetilde O_k=\sum_i\langle\Phi_k(x_i),r_i\rangle\Phi_k(x_i) (as written in the proof, L634)",
        "C": r"interpretation (L630, L638): \widetilde O_k equals -g_k, g_k, or a fixed multiple (m = 1)",
    },
    expect="REFUTED",
)
def thm12_linear(ctx: verify.Context) -> list[Evidence]:
    """Reading A REFUTED (sign: the definition gives +sum, the statement prints -sum); exact
    witness from prove_equal. Reading B PROVED (N = 1..3, m = 1, 2). Reading C REFUTED: for
    m = 1, N = 2, Phi = (1, 2), r = (2, -1): g_k = -(1*2 + 2*(-1)) = 0 but O~_k = 1*2*1 + 2*(-1)*2 = -2.
    """
    out = [prove_for_sizes(lambda N, m: _thm12(N, m, "A"), {"N": [1, 2], "m": [1, 2]}, timeout=20, seed=ctx.seed)]
    out.append(prove_for_sizes(lambda N, m: _thm12(N, m, "B"), {"N": [1, 2, 3], "m": [1, 2]}, timeout=20, reading="B"))
    Phi, r = [1, 2], [2, -1]
    g = -sum(p * q for p, q in zip(Phi, r, strict=True))
    O = sum(p * q * p for p, q in zip(Phi, r, strict=True))
    out.append(exact_witness(
        f"not a multiple of the gradient: m=1, N=2, Phi_k(x)=(1,2), r=(2,-1): g_k = {g} but O~_k = {O}",
        {"m": 1, "N": 2, "Phi_k": Phi, "r": r, "g_k": g, "O_k": O}, reading="C"))
    return out


def _thm12_grad(N: int, m: int):
    P, c, r, L = _setup(N, m)
    s = [_dot(P[0][i], r[i]) for i in range(N)]
    return sp.diff(L, c[0]), -sum(s)


@verify.claim(
    "nfa.appc.thm12_scalar_grad",
    paper=PAPER,
    where="App. C setup L584; Thm 12 L628-630",
    statement=r"g_k=\frac{\partial\mathcal L}{\partial c_k}=-\sum_i\langle\Phi_k(x_i),r_i\rangle=-\langle\mathbf 1,s\rangle",
    kind="identity",
    expect="PROVED",
)
def thm12_scalar_grad(ctx: verify.Context) -> Evidence:
    """Exact at N = 1..3, m = 1..3 with two basis functions and symbolic c. expect PROVED.
    (The float64 autograd cross-check is in numerics/nfa/claims_appendix.py.)
    """
    return prove_for_sizes(_thm12_grad, {"N": [1, 2, 3], "m": [1, 2, 3]}, timeout=30)


def _thm13(N: int, m: int, what: str):
    s = sp.symbols(f"s1:{N + 1}", real=True)
    v = [[sp.Symbol(f"v{i}_{j}", real=True) for j in range(m)] for i in range(N)]
    if what == "centred":
        v[-1] = [-sum(v[i][j] for i in range(N - 1)) for j in range(m)]
    beta = sp.Symbol("beta", real=True)
    w = softmax_weights(list(s), beta)
    sbar = sum(s) / N
    got, want = [], []
    for j in range(m):
        O = sum(w[i] * v[i][j] for i in range(N))
        co = taylor_coeffs(O, beta, 1)
        vbar = sum(v[i][j] for i in range(N)) / N
        if what == "expansion":
            got += [co[0], co[1]]
            want += [vbar, sum((s[i] - sbar) * v[i][j] for i in range(N)) / N]
        else:
            got += [co[0], co[1]]
            want += [0, sum(s[i] * v[i][j] for i in range(N)) / N]
    return sp.Matrix(got), sp.Matrix(want)


@verify.claim(
    "nfa.appc.thm13_softmax_expansion",
    paper=PAPER,
    where="Theorem 13, L646-662; proof L664-680; App. C title L570",
    statement=r"O_k(\beta)=\bar v+\frac\beta N\sum_i(s_i-\bar s)v_i+O(\beta^2);\ \bar v=0\Rightarrow "
    r"O_k(\beta)=\frac\beta N\sum_is_iv_i+O(\beta^2)",
    kind="identity",
    readings={"B": r"gradient interpretation: the first-order term \frac1N\sum_is_iv_i 'encodes the gradient components' "
                   r"(proportional to \pm g_k for m=1) in Thm 12's setting"},
    expect="PROVED",
)
def thm13_softmax_expansion(ctx: verify.Context) -> list[Evidence]:
    """Expansion and centred form exact at N = 2, 3 and m = 1, 2 (Taylor coefficients in beta).

    expect PROVED. Reading B REFUTED: with s_i = <Phi_k(x_i), r_i>, v_i = Phi_k(x_i), m = 1, the
    first-order coefficient is (1/N) sum Phi_k(x_i)^2 r_i, not a multiple of g_k = -sum Phi_k r_i
    (exact witness below, chosen with v_bar = 0). Note v_bar = 0 is a condition on the basis values
    (sum_i Phi_k(x_i) = 0), not on the residuals.
    """
    out = [prove_for_sizes(lambda N, m: _thm13(N, m, "expansion"), {"N": [2, 3], "m": [1, 2]}, timeout=30, part="expansion")]
    out.append(prove_for_sizes(lambda N, m: _thm13(N, m, "centred"), {"N": [2, 3], "m": [1, 2]}, timeout=30,
                               part="centred form"))
    # Reading B: centred values (sum Phi = 0), first-order term vs gradient
    Phi, r = [1, 1, -2], [1, 1, 1]
    g = -sum(p * q for p, q in zip(Phi, r, strict=True))  # = 0
    first = sp.Rational(sum(p * p * q for p, q in zip(Phi, r, strict=True)), 3)
    out.append(exact_witness(
        f"m=1, N=3, Phi_k(x)=(1,1,-2) (so v_bar=0), r=(1,1,1): g_k = {g} but first-order coefficient "
        f"(1/N) sum s_i v_i = {first}: not proportional to the gradient",
        {"m": 1, "N": 3, "Phi_k": Phi, "r": r, "g_k": g, "first_order_coeff": first}, reading="B"))
    return out

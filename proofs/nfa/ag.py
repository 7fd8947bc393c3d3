"""Symbolic claims ``nfa.ag.*``: the attention-gradient identity and its softmax expansion.

Thm 3 (L156-174) = Thm 6 (L376-412), the displayed gradient of Sec. 3.1 (L70), the update
mapping (L174, A.5 L471-482) and the softmax expansions of A.4.1 (L426-452). Float64
cross-checks of the same ids, and the numeric claims of the segment, are in
:mod:`numerics.nfa.ag`.
"""

from __future__ import annotations

from dataclasses import replace

import sympy as sp

import verify
from verify import Evidence, Verdict
from verify.symbolic import prove_equal, prove_for_sizes, refute_exactly

from . import PAPER
from .model import (
    N,
    i,
    j,
    mean_and_variance,
    softmax_output,
    softmax_weight,
    symbol_matrix,
    symbols_vec,
    taylor_coefficient,
    total,
)

# ---------------------------------------------------------------------------------------
# Thm 3 / Thm 6: linear attention = negative gradient
# ---------------------------------------------------------------------------------------


def linear_identity_matrices(N: int, K: int) -> tuple[sp.Matrix, sp.Matrix]:
    """``O = Phi^T r`` from the attention construction and ``-grad_c L`` by differentiation.

    Keys ``K_i = Phi[i, :]^T``, values ``V_i = r_i = y_i - f(x_i)``, queries ``Q_k = e_k``
    (L164-170); loss ``L = 1/2 sum_i r_i^2`` (L162).
    """
    Phi = symbol_matrix("Phi", N, K)
    c = sp.Matrix(symbols_vec("c", K))
    y = sp.Matrix(symbols_vec("y", N))
    r = y - Phi * c
    L = sp.Rational(1, 2) * sum(ri**2 for ri in r)
    Q = sp.eye(K)
    O_att = sp.Matrix(
        [sum((Q[:, k].T * Phi[i, :].T)[0, 0] * r[i] for i in range(N)) for k in range(K)]
    )
    grad = sp.Matrix([sp.diff(L, ck) for ck in c])
    return O_att, -grad


class _SymbolicGradient:
    """``O_k = sum_i Phi_ik (y_i - f(x_i))`` and ``dL/dc_k`` in symbolic N and K.

    ``d/dc_k`` of ``1/2 sum_i (y_i - sum_j c_j Phi_ij)^2`` produces ``sum_j delta_jk Phi_ij``,
    which SymPy evaluates to ``Piecewise((Phi_ik, 1 <= k <= K), (0, True))``. The statement
    concerns ``k in {1..K}``, so the first branch is taken after checking that its condition
    is exactly ``1 <= k <= K`` (``branch_ok``); the identities are then closed by
    ``prove_equal`` on ``IndexedBase`` sums.
    """

    generality = "symbolic N and K (IndexedBase sums), 1 <= k <= K"
    branch_step = (
        r"$\partial_{c_k}\sum_j c_j\Phi_{ij} = \sum_j\delta_{jk}\Phi_{ij} = \Phi_{ik}$ "
        r"for $1\le k\le K$ (branch condition checked)"
    )

    def __init__(self) -> None:
        N, K = sp.symbols("N K", integer=True, positive=True)
        i, j, k = sp.symbols("i j k", integer=True)
        Phi, y, c = sp.IndexedBase("Phi"), sp.IndexedBase("y"), sp.IndexedBase("c")
        f_i = sp.Sum(c[j] * Phi[i, j], (j, 1, K))
        L = sp.Rational(1, 2) * sp.Sum((y[i] - f_i) ** 2, (i, 1, N))
        dL = sp.diff(L, c[k])
        dL = dL.replace(
            lambda e: isinstance(e, sp.Sum) and e.has(sp.KroneckerDelta), lambda e: e.doit()
        )
        pws = list(dL.atoms(sp.Piecewise))
        in_range = sp.And(sp.Ge(k, 1), sp.Le(k, K))
        self.branch_ok = bool(pws) and all(
            sp.simplify(sp.Equivalent(p.args[0].cond, in_range)) is sp.true for p in pws
        )
        self.dL = dL.xreplace({p: p.args[0].expr for p in pws})
        self.c_k = c[k]
        self.O_k = sp.Sum(Phi[i, k] * (y[i] - f_i), (i, 1, N))  # O_k = sum_i alpha_ki V_i

    def prove(self, lhs: sp.Expr, rhs: sp.Expr, what: str) -> Evidence:
        """``prove_equal(lhs, rhs)`` after the branch check, scope general when PROVED."""
        if not self.branch_ok:
            return Evidence.undecided(
                f"symbolic N, K ({what}): the Kronecker-delta sum did not reduce to the "
                "expected Piecewise", method="symbolic")
        ev = prove_equal(lhs, rhs, timeout=30)
        ev = replace(ev, steps=[self.branch_step, *ev.steps])
        if ev.verdict is Verdict.PROVED:
            ev.relabel(generality=self.generality)
        return ev


@verify.claim(
    "nfa.ag.linear_identity",
    paper=PAPER,
    where="Theorem 3, L156-174 (= Theorem 6, L376-412; 'Theorem 2' at L32, L209, L224)",
    statement=r"K_i=(\phi_1(x_i),\dots,\phi_K(x_i))^\top,\ V_i=y_i-f(x_i),\ Q_k=e_k,\ "
    r"\alpha_{ki}=Q_k^\top K_i:\quad "
    r"O_k=\sum_{i=1}^N\phi_k(x_i)(y_i-f(x_i))=-\frac{\partial\mathcal L}{\partial c_k},"
    r"\ \mathcal L=\tfrac12\sum_i(y_i-f(x_i))^2",
    kind="identity",
    expect="PROVED",
)
def linear_identity(ctx: verify.Context) -> list[Evidence]:
    """Exact SymPy proof in symbolic N, K (IndexedBase), plus explicit concrete matrices.

    Quick profile: symbolic N, K and the explicit 3x2 instance; deep: symbolic N, K and every
    N in {1, 2, 3, 5} x K in {1, 2, 4}. The symbolic-N proof carries the generality in both.
    expect PROVED: the identity is a direct differentiation (the paper's own proof, L408).
    The float64 autograd cross-check is in :mod:`numerics.nfa.ag`.
    """
    sizes = ctx.pick(quick={"N": [3], "K": [2]}, deep={"N": [1, 2, 3, 5], "K": [1, 2, 4]})
    explicit = prove_for_sizes(linear_identity_matrices, sizes, timeout=30, seed=ctx.seed)
    grad = _SymbolicGradient()
    return [
        grad.prove(grad.O_k, -grad.dL, "O_k = -dL/dc_k"),
        explicit.relabel(prefix=f"explicit matrices ({ctx.profile} profile)"),
    ]


# ---------------------------------------------------------------------------------------
# Sec. 3.1 (L70): the displayed "gradient" formula
# ---------------------------------------------------------------------------------------


@verify.claim(
    "nfa.ag.intuition_gradient_sign",
    paper=PAPER,
    where="Sec. 3.1, L70",
    statement=r"\nabla_\theta\mathcal L=\sum_i\nabla_\theta f(x_i)\cdot(y_i-f(x_i))",
    kind="identity",
    readings={
        "B": r"$-\nabla_\theta\mathcal L=\sum_i\nabla_\theta f(x_i)(y_i-f(x_i))$ "
        r"with $\mathcal L=\frac12\sum_i(y_i-f(x_i))^2$",
        "C": r"as printed, with $\mathcal L=\sum_i(y_i-f(x_i))^2$ (no 1/2)",
    },
    repairs={"B": ("erratum", r"sign: the printed sum is $-\nabla_\theta\mathcal L$, the "
                              "descent direction")},
    expect="PROVED",
)
def intuition_gradient_sign(ctx: verify.Context) -> list[Evidence]:
    """The printed expression is the *negative* gradient of 1/2 sum (y - f)^2.

    expect PROVED (with erratum; the printed reading stays REFUTED beside it): sign error;
    exact witness N = 1, f = theta x, x = 1, y = 1, theta = 0 gives dL/dtheta = -1 but the
    displayed sum = +1. Reading B (the sign corrected: the erratum) is PROVED in general:
    symbolic N, an undefined differentiable f(x, theta), any component theta of the
    parameters. Reading C (no 1/2) is off by a factor -2: REFUTED for a linear and a
    nonlinear f (N = 2).
    """
    N = sp.Symbol("N", integer=True, positive=True)
    i = sp.Symbol("i", integer=True)
    theta = sp.Symbol("theta", real=True)
    xs, ys, f = sp.IndexedBase("x"), sp.IndexedBase("y"), sp.Function("f")
    residual = ys[i] - f(xs[i], theta)
    half = sp.Rational(1, 2) * sp.Sum(residual**2, (i, 1, N))
    printed = sp.Sum(sp.diff(f(xs[i], theta), theta) * residual, (i, 1, N))
    negated = prove_equal(-sp.diff(half, theta), printed, timeout=20, reading="B").relabel(
        generality="symbolic N, undefined f(x, theta), any parameter component theta")
    out: list[Evidence] = [negated]
    th1, th2, x1, x2, y1, y2 = sp.symbols("theta1 theta2 x1 x2 y1 y2", real=True)
    data = list(zip([x1, x2], [y1, y2], strict=True))
    models = {
        "linear f = theta1 x + theta2": lambda x: th1 * x + th2,
        "nonlinear f = theta1 sin(theta2 x)": lambda x: th1 * sp.sin(th2 * x),
    }
    for name, fm in models.items():
        shown = sp.Matrix(
            [sum(sp.diff(fm(x), t) * (y - fm(x)) for x, y in data) for t in (th1, th2)]
        )
        full = sum((y - fm(x)) ** 2 for x, y in data)
        grad_full = sp.Matrix([sp.diff(full, t) for t in (th1, th2)])
        out.append(prove_equal(grad_full, shown, assumptions="real", timeout=20, reading="C",
                               part=name, seed=ctx.seed))
    # Reading A: the minimal exact witness N = 1, f = theta x, x = y = 1, theta = 0
    t = sp.Symbol("theta", real=True)
    x, y, t0 = sp.Integer(1), sp.Integer(1), sp.Integer(0)
    grad = sp.diff(sp.Rational(1, 2) * (y - t * x) ** 2, t).subs(t, t0)
    shown = (sp.diff(t * x, t) * (y - t * x)).subs(t, t0)
    out.append(refute_exactly(
        r"sign error: with $\mathcal L=\frac12(y-f)^2$, $f=\theta x$, N = 1, x = 1, y = 1, "
        rf"$\theta=0$: $\partial\mathcal L/\partial\theta={grad}$, printed sum = {shown} (the "
        r"printed expression is $-\nabla_\theta\mathcal L$)",
        {"N": 1, "f": r"$\theta x$", "x": 1, "y": 1, "theta": 0},
        lhs=grad, rhs=shown, generality="a single exact rational instance",
    ))
    return out


# ---------------------------------------------------------------------------------------
# L174 / A.5: the update c + eta O equals a GD step
# ---------------------------------------------------------------------------------------


@verify.claim(
    "nfa.ag.gd_step_mapping",
    paper=PAPER,
    where="Theorem 3, L174; A.5, L471-482",
    statement=r"c_k\leftarrow c_k+\eta O_k\ \text{equals}\ "
    r"c_k\leftarrow c_k-\eta\,\partial\mathcal L/\partial c_k",
    kind="identity",
    expect="PROVED",
)
def gd_step_mapping(ctx: verify.Context) -> Evidence:
    """Exact in symbolic N and K (IndexedBase sums, any step size eta): the two updates agree
    because O_k = -dL/dc_k (nfa.ag.linear_identity).

    expect PROVED. The numeric sanity run (loss decreases for eta < 2/lambda_max) is in
    :mod:`numerics.nfa.ag`.
    """
    eta = sp.Symbol("eta", positive=True)
    grad = _SymbolicGradient()
    return grad.prove(grad.c_k + eta * grad.O_k, grad.c_k - eta * grad.dL, "the update")


# ---------------------------------------------------------------------------------------
# A.4.1: softmax expansions, in symbolic N
# ---------------------------------------------------------------------------------------
_SIZES = "symbolic N (IndexedBase sums), symbolic logits s_i and residuals r_i"


def _general(ev: Evidence, prefix: str) -> Evidence:
    """A symbolic-N proof of a coefficient: scope general when PROVED."""
    if ev.verdict is Verdict.PROVED:
        ev.relabel(generality=_SIZES)
    return ev.relabel(prefix=prefix)


@verify.claim(
    "nfa.ag.softmax_weight_expansion",
    paper=PAPER,
    where="L176-178; A.4.1, L426-442",
    statement=r"\alpha_{ki}(\tau)=\frac1N+\frac1{N\tau}(s_{ki}-\bar s_k)+E_{ki},\quad "
    r"|E_{ki}|\le\frac{CB^2}{\tau^2}\ \text{uniformly, } C \text{ depending only on } N",
    kind="identity",
    expect="SUPPORTED",
)
def softmax_weight_expansion(ctx: verify.Context) -> list[Evidence]:
    """Orders 0 and 1 of the Taylor series of ``alpha_i(beta) = e^{beta s_i}/sum_j
    e^{beta s_j}`` in beta = 1/tau, exact in symbolic N (part "coefficients"); the order-2
    coefficient ``((s_i - s_bar)^2 - var(s)) / (2N)`` is derived and proved the same way
    (recorded). The uniform constant is searched numerically (part "remainder constant", in
    :mod:`numerics.nfa.ag`), so the claim is SUPPORTED, not PROVED.
    """
    s = sp.IndexedBase("s")
    alpha = softmax_weight(s)
    sbar, var = mean_and_variance(s)
    wanted = {0: 1 / N, 1: (s[i] - sbar) / N}
    out = [
        _general(prove_equal(taylor_coefficient(alpha, o), w, timeout=30, part="coefficients"),
                 f"order-{o} coefficient")
        for o, w in wanted.items()
    ]
    out.append(_general(
        prove_equal(taylor_coefficient(alpha, 2), ((s[i] - sbar) ** 2 - var) / (2 * N),
                    timeout=30, part="order-2 coefficient (recorded)"),
        "order-2 coefficient = ((s_i - s_bar)^2 - var(s))/(2N)",
    ))
    return out


@verify.claim(
    "nfa.ag.softmax_output_expansion",
    paper=PAPER,
    where="A.4.1, L444-446; Theorem 16 display L752",
    statement=r"O_k(\tau)=\frac1N\sum_ir_i+\frac1{N\tau}\sum_i(s_{ki}-\bar s_k)r_i"
    r"+O(\tau^{-2})\cdot\max_i|r_i|",
    kind="identity",
    expect="SUPPORTED",
)
def softmax_output_expansion(ctx: verify.Context) -> list[Evidence]:
    """Orders 0, 1 of ``O_k(beta) = sum_i alpha_i(beta) r_i`` exact in symbolic N (part
    "coefficients"); order 2 recorded: ``sum_i ((s_i - s_bar)^2 - var) r_i / (2N)`` in
    general, and ``sum_i (s_i - s_bar)^2 r_i / (2N)`` under sum r = 0 (the two differ by
    ``-var sum_i r_i / (2N)``, proved exactly). The remainder bound ``tau^2 |rem| / max|r|``
    bounded is numeric (part "remainder", :mod:`numerics.nfa.ag`), hence SUPPORTED overall.
    """
    s, r = sp.IndexedBase("s"), sp.IndexedBase("r")
    O_k = softmax_output(s, r[i])
    sbar, var = mean_and_variance(s)
    wanted = {0: total(r[i]) / N, 1: total((s[i] - sbar) * r[i]) / N}
    out = [
        _general(prove_equal(taylor_coefficient(O_k, o), w, timeout=30, part="coefficients"),
                 f"order-{o} coefficient")
        for o, w in wanted.items()
    ]
    c2 = taylor_coefficient(O_k, 2)
    general = total(((s[i] - sbar) ** 2 - var) * r[i]) / (2 * N)
    centred = total((s[i] - sbar) ** 2 * r[i]) / (2 * N)
    part = "order-2 coefficient (recorded)"
    out.append(_general(prove_equal(c2, general, timeout=30, part=part),
                        "order-2 coefficient (general)"))
    shift = prove_equal(c2 - centred, -var * total(r[i]) / (2 * N), timeout=30, part=part)
    out.append(_general(
        replace(shift, steps=[*shift.steps, "sum_i r_i = 0 makes the difference vanish"]),
        "order-2 coefficient (sum r = 0): c2 - sum (s - s_bar)^2 r/(2N) = -var sum r/(2N)",
    ))
    return out


def _centering_case(size: int, case: str) -> tuple[sp.Expr, sp.Expr]:
    """First-order + constant term of O_k against g_k/(N tau) at a concrete size under a
    centring combination: ``"keys"`` (scores phi - phi_bar, residuals free) or
    ``"neither"``."""
    phi = symbols_vec("phi", size)
    r = symbols_vec("r", size)
    tau = sp.Symbol("tau", positive=True)
    pbar = sum(phi) / size
    s = [p - pbar for p in phi] if case == "keys" else list(phi)
    sbar = sum(s) / size
    first = sum((si - sbar) * ri for si, ri in zip(s, r, strict=True)) / (size * tau)
    g = sum(p * ri for p, ri in zip(phi, r, strict=True))
    return sum(r) / size + first, g / (size * tau)


def _centred_residuals_suffice(keys_centred: bool, reading: str) -> Evidence:
    """Symbolic N: expansion - g/(N tau) = (sum_i r_i)(1/N - phi_bar/(N tau)), with raw
    scores (``keys_centred=False``) or mean-centred keys; so sum r = 0 gives the claim."""
    tau = sp.Symbol("tau", positive=True)
    phi, r = sp.IndexedBase("phi"), sp.IndexedBase("r")
    pbar = total(phi[j], j) / N
    s = phi[i] - pbar if keys_centred else phi[i]
    sbar = total(phi[j] - pbar, j) / N if keys_centred else pbar
    expansion = total(r[i]) / N + total((s - sbar) * r[i]) / (N * tau)
    g = total(phi[i] * r[i])
    ev = prove_equal(expansion - g / (N * tau), total(r[i]) * (1 / N - pbar / (N * tau)),
                     timeout=30, reading=reading)
    step = "under sum_i r_i = 0 the right-hand side vanishes: expansion = g_k/(N tau)"
    ev = replace(ev, steps=[*ev.steps, step])
    if ev.verdict is Verdict.PROVED:
        ev.relabel(generality="symbolic N (IndexedBase sums), symbolic phi_k(x_i), r_i, tau")
    return ev


@verify.claim(
    "nfa.ag.centering_conditions",
    paper=PAPER,
    where="L180; A.4.1, L448-452",
    statement=r"\sum_ir_i=0\ \text{and}\ \bar s_k=0\ (\text{keys mean-centred}) \Rightarrow "
    r"\frac1N\sum_ir_i+\frac1{N\tau}\sum_i(s_{ki}-\bar s_k)r_i"
    r"=\frac1{N\tau}\sum_i\phi_k(x_i)(y_i-f(x_i))",
    kind="identity",
    readings={
        "B": "residual centring alone (raw scores s_ki = phi_k(x_i)) gives the same "
        "simplification",
        "C": "score (key) centring alone, residuals unconstrained, gives the same "
        "simplification",
        "D": "neither centring (raw scores, unconstrained residuals) gives the same "
        "simplification",
    },
    expect="PROVED",
)
def centering_conditions(ctx: verify.Context) -> list[Evidence]:
    """The four combinations of L448-452.

    expect PROVED for Reading A (both conditions), in symbolic N: the difference between the
    two sides is (sum_i r_i)(1/N - phi_bar/(N tau)), which sum r = 0 removes. Reading B
    (residuals centred only) is PROVED the same way: score centring adds nothing once
    sum r = 0, since sum (s - s_bar) r = sum s r. Reading C (keys centred only) is REFUTED:
    the constant term sum r / N survives and the first-order term is sum (phi - phi_bar) r,
    not g (exact witness at N = 2). Reading D (neither) is REFUTED likewise.
    """
    out = [_centred_residuals_suffice(True, "A"), _centred_residuals_suffice(False, "B")]
    out += [
        prove_for_sizes(lambda N, c=case: _centering_case(N, c), {"N": [2, 3]},
                        timeout=30, reading=rd, seed=ctx.seed)
        for case, rd in (("keys", "C"), ("neither", "D"))
    ]
    return out

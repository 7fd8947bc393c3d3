"""Soundness corpus of the symbolic engine: true identities that need real work, and false
ones that are close to true (a flipped sign, a missing transpose, a factor of 2, a dropped
term, true only for N = 1). Near-identities (sides that differ by ``exp(-100)``, a phase of
``10**-45``, far below what 50 digits resolve) must be REFUTED too, and true identities whose
floating evaluation cancels catastrophically (``sin(10**30 x)**2 + cos(10**30 x)**2``, a square
root on its branch cut reached through such a cancellation) must never be.

Each case builds ``lhs``, ``rhs`` and the keyword arguments of ``prove_equal`` lazily, so that
importing this module is cheap. ``tests/engine/test_symbolic_corpus.py`` runs them: every TRUE case
must be PROVED (or UNDECIDED, never REFUTED) and every FALSE one REFUTED with a witness that
the test re-checks independently (never PROVED).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import sympy as sp

x, y, a, b, t = sp.symbols("x y a b t", real=True)
u, v = sp.symbols("u v", positive=True)
z = sp.Symbol("z")
n = sp.Symbol("n", integer=True, positive=True)
m = sp.Symbol("m", integer=True, positive=True)
N = sp.Symbol("N", integer=True, positive=True)
k = sp.Symbol("k", integer=True)
i, j = sp.Idx("i"), sp.Idx("j")
xs, ys = sp.IndexedBase("x", real=True), sp.IndexedBase("y", real=True)
A, B, C = (sp.MatrixSymbol(s, n, n) for s in "ABC")
R = sp.MatrixSymbol("R", n, m)
Q, Kq, G = sp.MatrixSymbol("Q", n, n), sp.MatrixSymbol("K", n, n), sp.MatrixSymbol("G", n, n)
I_n = sp.Identity(n)


@dataclass(frozen=True)
class Case:
    """A corpus entry. ``may_be_undecided``: a TRUE case the ladder need not prove (it must
    still never be REFUTED); a FALSE case that need not be refuted (no witness can be
    evaluated, e.g. matrix exponentials) but must never be PROVED."""

    name: str
    build: Callable[[], tuple[Any, Any, dict[str, Any]]]
    may_be_undecided: bool = False


def sigma(s: sp.Expr) -> sp.Expr:
    return 1 / (1 + sp.exp(-s))


def softmax(vec: list[sp.Expr]) -> list[sp.Expr]:
    den = sum(sp.exp(e) for e in vec)
    return [sp.exp(e) / den for e in vec]


XS3 = list(sp.symbols("x0:3", real=True))


def softmax_jacobian() -> sp.Matrix:
    s = softmax(XS3)
    return sp.Matrix(3, 3, lambda p, q: sp.diff(s[p], XS3[q]))


def _softmax_jac_formula(sign: int = -1, delta: bool = True) -> sp.Matrix:
    s = softmax(XS3)
    return sp.Matrix(3, 3, lambda p, q: s[p] * ((1 if (p == q and delta) else 0) + sign * s[q]))


def _ce_grad(y_label: int = 0) -> sp.Matrix:
    s = softmax(XS3)
    loss = -sp.log(s[y_label])
    return sp.Matrix([sp.diff(loss, e) for e in XS3])


def _sherman_morrison(sign: int) -> tuple[sp.Matrix, sp.Matrix]:
    u1, u2, w1, w2 = sp.symbols("u1 u2 w1 w2")
    U, W = sp.Matrix([u1, u2]), sp.Matrix([w1, w2])
    lhs = (sp.eye(2) + U * W.T).inv()
    rhs = sp.eye(2) - U * W.T / (1 + sign * (W.T * U)[0, 0])
    return lhs, rhs


def _vandermonde(sign: int) -> tuple[sp.Expr, sp.Expr]:
    p = sp.symbols("p0:3")
    V = sp.Matrix(3, 3, lambda r, c: p[r] ** c)
    prod = sp.Mul(*[(p[c] - p[r]) for r in range(3) for c in range(r + 1, 3)])
    return V.det(), sign * prod


def _det2(op: str) -> tuple[sp.Expr, sp.Expr]:
    M1 = sp.Matrix(2, 2, sp.symbols("a0:4"))
    M2 = sp.Matrix(2, 2, sp.symbols("b0:4"))
    if op == "mul":
        return (M1 * M2).det(), M1.det() * M2.det()
    return (M1 + M2).det(), M1.det() + M2.det()


def _attention_grad(transpose_k: bool) -> tuple[Any, Any]:
    # L = tr(G^T Q K^T) = <G, Q K^T>: the score gradient G pulled back to the queries.
    lhs = sp.Trace(G.T * Q * Kq.T).diff(Q)
    return lhs, (G * Kq.T if transpose_k else G * Kq)


def _wirt(conj_answer: bool) -> tuple[sp.Expr, sp.Expr]:
    from verify.symbolic import wirtinger_conj

    w = sp.Symbol("w")
    f = sp.Abs(z) ** 2 + z ** 2 * sp.conjugate(w)
    rhs = sp.conjugate(z) if conj_answer else z
    return wirtinger_conj(f, z), rhs


def _bch3(sign: int) -> tuple[sp.Expr, sp.Expr]:
    from verify.symbolic import X, Y, bch, expand_commutator
    from verify.symbolic.bch import bracket

    rhs = (X + Y + bracket(X, Y) / 2 + bracket(X, bracket(X, Y)) / 12
           + sign * bracket(Y, bracket(X, Y)) / 12)
    return bch(3), expand_commutator(rhs)


def _sum(e: sp.Expr, idx: sp.Idx = i) -> sp.Expr:
    return sp.Sum(e, (idx, 0, N - 1))


Xn, Yn = sp.symbols("X Y", commutative=False)
zc, wc = sp.symbols("zc wc")  # complex: no assumptions
x_nonint = sp.Symbol("x_nonint", noninteger=True)
idx = sp.Symbol("idx", integer=True)


def _matmul_entry_split(first_in_sum: int) -> tuple[Any, Any]:
    # (AB)[0, 0] = A[0, 0] B[0, 0] + sum_{i >= 1} A[0, i] B[i, 0]; the bound i must not be
    # given one value for every entry of the sum
    rest = sp.Sum(A[0, idx] * B[idx, 0], (idx, first_in_sum, n - 1))
    return (A * B)[0, 0], A[0, 0] * B[0, 0] + rest


def _c(lhs: Any, rhs: Any, **kw: Any) -> Callable[[], tuple[Any, Any, dict[str, Any]]]:
    return lambda: (lhs, rhs, kw)


def _li2_inversion(shift: Any = 0) -> tuple[sp.Expr, sp.Expr]:
    # Li2(-w) + Li2(-1/w) = -pi^2/6 - log(w)^2/2 for w > 0: no rung proves it, and at a point
    # both sides agree only up to the roundoff of the evaluation
    w = u + shift
    return sp.polylog(2, -w) + sp.polylog(2, -1 / w), -sp.pi ** 2 / 6 - sp.log(w) ** 2 / 2


#: sin^2 x + cos^2 x: exactly 1, evaluated as 1 +- roundoff
PYTH = sp.sin(x) ** 2 + sp.cos(x) ** 2

#: pi to 50 decimals, as an exact rational
PI_50 = sp.Rational("3.14159265358979323846264338327950288419716939937510")


TRUE_CASES: list[Case] = [
    # trigonometry
    Case("pythagoras", _c(sp.sin(x) ** 2 + sp.cos(x) ** 2, 1)),
    Case("sin double angle", _c(sp.sin(2 * x), 2 * sp.sin(x) * sp.cos(x))),
    Case("cos double angle", _c(sp.cos(2 * x), sp.cos(x) ** 2 - sp.sin(x) ** 2)),
    Case("sin triple angle", _c(sp.sin(3 * x), 3 * sp.sin(x) - 4 * sp.sin(x) ** 3)),
    Case("cos triple angle", _c(sp.cos(3 * x), 4 * sp.cos(x) ** 3 - 3 * sp.cos(x))),
    Case("cos quadruple angle", _c(sp.cos(4 * x), 8 * sp.cos(x) ** 4 - 8 * sp.cos(x) ** 2 + 1)),
    Case("tan addition", _c(sp.tan(x + y), (sp.tan(x) + sp.tan(y)) / (1 - sp.tan(x) * sp.tan(y)))),
    Case("sin(x+y)sin(x-y)", _c(sp.sin(x + y) * sp.sin(x - y), sp.sin(x) ** 2 - sp.sin(y) ** 2)),
    Case("product to sum", _c(sp.cos(x) * sp.cos(y), (sp.cos(x - y) + sp.cos(x + y)) / 2)),
    Case("sum to product",
         _c(sp.sin(x) + sp.sin(y), 2 * sp.sin((x + y) / 2) * sp.cos((x - y) / 2))),
    Case("sec^2", _c(1 + sp.tan(x) ** 2, 1 / sp.cos(x) ** 2)),
    Case("sin^4 - cos^4", _c(sp.sin(x) ** 4 - sp.cos(x) ** 4, -sp.cos(2 * x))),
    Case("quarter-turn sum", _c(sum(sp.cos(x + q * sp.pi / 2) for q in range(4)), 0)),
    # exp / log / hyperbolic
    Case("tanh via sigmoid", _c(sp.tanh(x), 2 * sigma(2 * x) - 1)),
    Case("sigmoid derivative", _c(sp.diff(sigma(x), x), sigma(x) * (1 - sigma(x)))),
    Case("cosh^2 - sinh^2", _c(sp.cosh(x) ** 2 - sp.sinh(x) ** 2, 1)),
    Case("sinh double angle", _c(sp.sinh(2 * x), 2 * sp.sinh(x) * sp.cosh(x))),
    Case("tanh addition",
         _c(sp.tanh(x + y), (sp.tanh(x) + sp.tanh(y)) / (1 + sp.tanh(x) * sp.tanh(y)))),
    Case("log of product (positive)", _c(sp.log(u * v ** 2), sp.log(u) + 2 * sp.log(v))),
    Case("exp of log sum (assumed positive)",
         _c(sp.exp(sp.log(a) + sp.log(b)), a * b, assumptions={a: "positive", b: "positive"})),
    Case("softplus derivative", _c(sp.diff(sp.log(1 + sp.exp(x)), x), sigma(x))),
    Case("power of sum exponent", _c(u ** (x + y), u ** x * u ** y)),
    Case("logsumexp gradient",
         lambda: (sp.Matrix([sp.diff(sp.log(sum(sp.exp(e) for e in XS3)), e) for e in XS3]),
                  sp.Matrix(softmax(XS3)), {})),
    Case("softmax Jacobian s_i(delta_ij - s_j)",
         lambda: (softmax_jacobian(), _softmax_jac_formula(), {})),
    Case("softmax shift invariance",
         lambda: (sp.Matrix(softmax([e + t for e in XS3])), sp.Matrix(softmax(XS3)), {})),
    Case("cross-entropy gradient",
         lambda: (_ce_grad(0), sp.Matrix(softmax(XS3)) - sp.Matrix([1, 0, 0]), {})),
    # rational functions and determinants
    Case("partial fractions 1/(x(x+1))", _c(1 / (x * (x + 1)), 1 / x - 1 / (x + 1))),
    Case("difference of cubes quotient", _c((x ** 3 - y ** 3) / (x - y), x ** 2 + x * y + y ** 2)),
    Case("partial fractions 1/(x^2-1)", _c(1 / (x ** 2 - 1), (1 / (x - 1) - 1 / (x + 1)) / 2)),
    Case("Sherman-Morrison 2x2", lambda: (*_sherman_morrison(+1), {})),
    Case("Vandermonde 3x3", lambda: (*_vandermonde(+1), {})),
    Case("det multiplicative 2x2", lambda: (*_det2("mul"), {})),
    # sums in symbolic size
    Case("sum of cubes", _c(sp.Sum(k ** 3, (k, 1, n)), (n * (n + 1) / 2) ** 2)),
    Case("sum of squares", _c(sp.Sum(k ** 2, (k, 1, n)), n * (n + 1) * (2 * n + 1) / 6)),
    Case("sum linearity over Idx",
         _c(_sum(a * xs[i] + b * ys[i]), a * _sum(xs[i]) + b * _sum(ys[i]))),
    Case("double sum factorises",
         _c(sp.Sum(xs[i] * ys[j], (i, 0, N - 1), (j, 0, N - 1)), _sum(xs[i]) * _sum(ys[j], j))),
    Case("variance shift",
         _c(_sum((xs[i] - _sum(xs[j], j) / N) ** 2), _sum(xs[i] ** 2) - _sum(xs[j], j) ** 2 / N)),
    Case("geometric series", _c(sp.Sum(t ** k, (k, 0, n - 1)), (1 - t ** n) / (1 - t))),
    Case("ReLU as (x + |x|)/2", _c(sp.Max(x, 0), (x + sp.Abs(x)) / 2)),
    Case("ReLU(x) - ReLU(-x) = x", _c(sp.Max(x, 0) - sp.Max(-x, 0), x)),
    # matrix expressions in symbolic size
    Case("transpose of sum", _c((A + B).T, A.T + B.T)),
    Case("transpose of triple product", _c((A * B * C).T, C.T * B.T * A.T)),
    Case("(A+B)(A-B) noncommutative", _c((A + B) * (A - B), A ** 2 - A * B + B * A - B ** 2)),
    Case("telescoping (I-A)(I+A+A^2)", _c((I_n - A) * (I_n + A + A ** 2), I_n - A ** 3)),
    Case("Gram matrix symmetric (rectangular)", _c((R.T * R).T, R.T * R)),
    Case("trace cyclic", _c(sp.Trace(A * B * C), sp.Trace(C * A * B))),
    Case("trace of transpose product", _c(sp.Trace(A * R * R.T), sp.Trace(R.T * A.T * R))),
    Case("attention score gradient dL/dQ = G K", lambda: (*_attention_grad(False), {})),
    # Wirtinger and BCH
    Case("Wirtinger d/dzbar |z|^2 + z^2 conj(w)", lambda: (*_wirt(False), {})),
    Case("BCH order 3", lambda: (*_bch3(-1), {})),
    # branch cuts, domains, removable singularities, bound indices
    Case("exp(log z) = z for complex z", _c(sp.exp(sp.log(zc)), zc)),
    Case("exp(z/2)^2 = exp(z) for complex z", _c(sp.exp(zc / 2) ** 2, sp.exp(zc))),
    Case("exp(i pi z)^2 = exp(2 i pi z)",
         _c(sp.exp(sp.I * sp.pi * zc) ** 2, sp.exp(2 * sp.I * sp.pi * zc))),
    Case("exp(i pi k) = (-1)^k for integer k", _c(sp.exp(sp.I * sp.pi * k), (-1) ** k)),
    Case("cosh as exponentials (complex)", _c(sp.cosh(zc), (sp.exp(zc) + sp.exp(-zc)) / 2)),
    Case("sqrt(exp(x)) = exp(x/2) for real x", _c(sp.sqrt(sp.exp(x)), sp.exp(x / 2))),
    Case("log(exp(x)) = x for real x", _c(sp.log(sp.exp(x)), x)),
    Case("removable singularity (x^2-1)/(x-1) = x+1 (where defined)",
         _c((x ** 2 - 1) / (x - 1), x + 1)),
    Case("|x|/x = sign(x) (where defined)", _c(sp.Abs(x) / x, sp.sign(x))),
    Case("sign(z)|z| = z for complex z", _c(sp.sign(zc) * sp.Abs(zc), zc)),
    Case("Heaviside = (1 + sign)/2 (H(0) = 1/2)", _c(sp.Heaviside(x), (1 + sp.sign(x)) / 2)),
    Case("Max = (x + y + |x - y|)/2", _c(sp.Max(x, y), (x + y + sp.Abs(x - y)) / 2)),
    Case("Max(x,0) Min(x,0) = 0", _c(sp.Max(x, 0) * sp.Min(x, 0), 0)),
    Case("KroneckerDelta(k,0) k = 0", _c(sp.KroneckerDelta(k, 0) * k, 0)),
    Case("sum of a delta over 0..n-1 (n >= 1)",
         _c(sp.Sum(sp.KroneckerDelta(k, 0), (k, 0, n - 1)), 1)),
    Case("geometric series as Piecewise at t = 1",
         _c(sp.Sum(t ** k, (k, 0, n - 1)),
            sp.Piecewise(((1 - t ** n) / (1 - t), sp.Ne(t, 1)), (n, True)))),
    Case("ceiling - floor = 1 for a noninteger",
         _c(sp.ceiling(x_nonint) - sp.floor(x_nonint), 1), may_be_undecided=True),
    Case("(AB)[0,0] split off the first product", lambda: (*_matmul_entry_split(1), {})),
    Case("inverse of a product (where invertible)", _c(sp.Inverse(A * B), B.I * A.I)),
    Case("trace of 2I is 2n", _c(sp.Trace(2 * I_n), 2 * n)),
    Case("(AB)^T = B^T A^T, symbolic", _c((A * B).T, B.T * A.T)),
    Case("noncommutative (X+Y)^2 expanded in order",
         _c((Xn + Yn) ** 2, Xn ** 2 + Xn * Yn + Yn * Xn + Yn ** 2)),
    # catastrophic cancellation: exact zeros whose floating evaluation is roundoff-sized
    Case("(x + 10^40) - 10^40 = x", _c((x + 10 ** 40) - 10 ** 40, x)),
    Case("sqrt((u + 10^40)^2) - 10^40 = u", _c(sp.sqrt((u + 10 ** 40) ** 2) - 10 ** 40, u)),
    Case("pythagoras at 10^30 x", _c(sp.sin(10 ** 30 * x) ** 2 + sp.cos(10 ** 30 * x) ** 2, 1)),
    Case("cosh - sinh = exp(-x) at x + 60", _c(sp.cosh(x + 60) - sp.sinh(x + 60), sp.exp(-x - 60))),
    Case("logsumexp shift, both sides ~1e-44",
         _c(sp.log(sp.exp(x) + sp.exp(x + 100)) - x - 100, sp.log(1 + sp.exp(-100)))),
    Case("Li2 inversion (u > 0)", lambda: (*_li2_inversion(), {}), may_be_undecided=True),
    Case("Li2 inversion at 10^30 + u", lambda: (*_li2_inversion(10 ** 30), {}),
         may_be_undecided=True),
    Case("Li2 reflection at 1/(1 + u)",
         _c(sp.polylog(2, 1 / (1 + u)) + sp.polylog(2, u / (1 + u)),
            sp.pi ** 2 / 6 - sp.log(1 / (1 + u)) * sp.log(u / (1 + u))), may_be_undecided=True),
    Case("Hurwitz zeta(s, 2) = zeta(s) - 1", _c(sp.zeta(u + 2, 2), sp.zeta(u + 2) - 1),
         may_be_undecided=True),
    # ... and on a jump or a branch cut, where roundoff can pick the same wrong side at every
    # precision (sin^2 + cos^2 - 1 at x = 1/2 evaluates to a tiny negative number at 50 and at
    # 100 digits): a numeric witness alone would REFUTE each of these five
    Case("sign(sin^2 x + cos^2 x - 1) = 0", _c(sp.sign(PYTH - 1), 0)),
    Case("sqrt on its cut: sqrt(-p + i(p - 1)) = i, p = sin^2 + cos^2",
         _c(sp.sqrt(-PYTH + sp.I * (PYTH - 1)), sp.I)),
    Case("log on its cut: log(-p + i(p - 1)) = i pi",
         _c(sp.log(-PYTH + sp.I * (PYTH - 1)), sp.I * sp.pi)),
    Case("cube root on its cut: (-p + i(p - 1))^(1/3) = (-1)^(1/3)",
         _c((-PYTH + sp.I * (PYTH - 1)) ** sp.Rational(1, 3), (-1) ** sp.Rational(1, 3))),
    Case("atan on its cut: atan(2ip + p - 1) = atan(2i)",
         _c(sp.atan(2 * sp.I * PYTH + PYTH - 1), sp.atan(2 * sp.I))),
]

FALSE_CASES: list[Case] = [
    Case("pythagoras with flipped sign", _c(sp.sin(x) ** 2 - sp.cos(x) ** 2, 1)),
    Case("sin double angle without 2", _c(sp.sin(2 * x), sp.sin(x) * sp.cos(x))),
    Case("cos double angle with +",
         _c(sp.cos(2 * x), sp.cos(x) ** 2 + sp.sin(x) ** 2 - 1 + sp.sin(x) ** 2)),
    Case("sin triple angle 3 sin^3", _c(sp.sin(3 * x), 3 * sp.sin(x) - 3 * sp.sin(x) ** 3)),
    Case("cos triple angle +3cos", _c(sp.cos(3 * x), 4 * sp.cos(x) ** 3 + 3 * sp.cos(x))),
    Case("cos quadruple angle -1", _c(sp.cos(4 * x), 8 * sp.cos(x) ** 4 - 8 * sp.cos(x) ** 2 - 1)),
    Case("tan addition with +",
         _c(sp.tan(x + y), (sp.tan(x) + sp.tan(y)) / (1 + sp.tan(x) * sp.tan(y)))),
    Case("product to sum with -", _c(sp.cos(x) * sp.cos(y), (sp.cos(x - y) - sp.cos(x + y)) / 2)),
    Case("sum to product sin*sin",
         _c(sp.sin(x) + sp.sin(y), 2 * sp.sin((x + y) / 2) * sp.sin((x - y) / 2))),
    Case("1 - tan^2 = sec^2", _c(1 - sp.tan(x) ** 2, 1 / sp.cos(x) ** 2)),
    Case("sin(x+y) with minus", _c(sp.sin(x + y), sp.sin(x) * sp.cos(y) - sp.cos(x) * sp.sin(y))),
    Case("tanh via sigmoid without 2x", _c(sp.tanh(x), 2 * sigma(x) - 1)),
    Case("sigmoid derivative with +", _c(sp.diff(sigma(x), x), sigma(x) * (1 + sigma(x)))),
    Case("cosh^2 + sinh^2", _c(sp.cosh(x) ** 2 + sp.sinh(x) ** 2, 1)),
    Case("tanh addition with -",
         _c(sp.tanh(x + y), (sp.tanh(x) + sp.tanh(y)) / (1 - sp.tanh(x) * sp.tanh(y)))),
    Case("log of sum", _c(sp.log(u + v), sp.log(u) + sp.log(v))),
    Case("log of product for complex",
         _c(sp.log(z * sp.Symbol("w")), sp.log(z) + sp.log(sp.Symbol("w")))),
    Case("sqrt(x^2) = x for real x", _c(sp.sqrt(x ** 2), x)),
    Case("softplus derivative sigma(-x)", _c(sp.diff(sp.log(1 + sp.exp(x)), x), sigma(-x))),
    Case("exp of sum is sum", _c(sp.exp(x + y), sp.exp(x) + sp.exp(y))),
    Case("softmax Jacobian with + s_i s_j",
         lambda: (softmax_jacobian(), _softmax_jac_formula(sign=+1), {})),
    Case("softmax Jacobian without delta",
         lambda: (softmax_jacobian(), _softmax_jac_formula(delta=False), {})),
    Case("softmax scale invariance",
         lambda: (sp.Matrix(softmax([2 * e for e in XS3])), sp.Matrix(softmax(XS3)), {})),
    Case("cross-entropy gradient with +",
         lambda: (_ce_grad(0), sp.Matrix(softmax(XS3)) + sp.Matrix([1, 0, 0]), {})),
    Case("partial fractions with +", _c(1 / (x * (x + 1)), 1 / x + 1 / (x + 1))),
    Case("difference of cubes with -xy", _c((x ** 3 - y ** 3) / (x - y), x ** 2 - x * y + y ** 2)),
    Case("partial fractions missing 1/2", _c(1 / (x ** 2 - 1), 1 / (x - 1) - 1 / (x + 1))),
    Case("Sherman-Morrison with 1 - v^T u", lambda: (*_sherman_morrison(-1), {})),
    Case("Vandermonde with flipped sign", lambda: (*_vandermonde(-1), {})),
    Case("det additive", lambda: (*_det2("add"), {})),
    Case("sum of cubes halved", _c(sp.Sum(k ** 3, (k, 1, n)), n ** 2 * (n + 1) ** 2 / 2)),
    Case("sum of squares 2n-1", _c(sp.Sum(k ** 2, (k, 1, n)), n * (n + 1) * (2 * n - 1) / 6)),
    Case("double sum is diagonal sum (true for N=1)",
         _c(sp.Sum(xs[i] * ys[j], (i, 0, N - 1), (j, 0, N - 1)), _sum(xs[i] * ys[i]))),
    Case("square of sum is sum of squares (true for N=1)", _c(_sum(xs[i]) ** 2, _sum(xs[i] ** 2))),
    Case("variance shift without 1/N",
         _c(_sum((xs[i] - _sum(xs[j], j) / N) ** 2), _sum(xs[i] ** 2) - _sum(xs[j], j) ** 2)),
    Case("geometric series off by one",
         _c(sp.Sum(t ** k, (k, 0, n - 1)), (1 - t ** (n + 1)) / (1 - t))),
    Case("ReLU as (x - |x|)/2", _c(sp.Max(x, 0), (x - sp.Abs(x)) / 2)),
    Case("ReLU(x) + ReLU(-x) = x", _c(sp.Max(x, 0) + sp.Max(-x, 0), x)),
    Case("transpose of product keeps order", _c((A * B).T, A.T * B.T)),
    Case("binomial square for matrices", _c((A + B) ** 2, A ** 2 + 2 * A * B + B ** 2)),
    Case("telescoping with +A^3", _c((I_n - A) * (I_n + A + A ** 2), I_n + A ** 3)),
    Case("trace with missing transpose", _c(sp.Trace(A * B), sp.Trace(A.T * B))),
    Case("trace non-cyclic permutation", _c(sp.Trace(A * B * C), sp.Trace(A * C * B))),
    Case("attention gradient with K^T", lambda: (*_attention_grad(True), {})),
    Case("Wirtinger d/dzbar |z|^2 gives conj z", lambda: (*_wirt(True), {})),
    Case("BCH order 3 with flipped sign", lambda: (*_bch3(+1), {})),
    # branch cuts, domains, jumps, tiny differences, bound indices, noncommutative symbols
    Case("sqrt(z^2) = z for complex z", _c(sp.sqrt(zc ** 2), zc)),
    Case("log(exp(z)) = z for complex z", _c(sp.log(sp.exp(zc)), zc)),
    Case("(zw)^a = z^a w^a", _c((zc * wc) ** a, zc ** a * wc ** a)),
    Case("atan(tan x) = x", _c(sp.atan(sp.tan(x)), x)),
    Case("asin(sin x) = x", _c(sp.asin(sp.sin(x)), x)),
    Case("sqrt(exp(z)) = exp(z/2) for complex z", _c(sp.sqrt(sp.exp(zc)), sp.exp(zc / 2))),
    Case("sqrt(exp(2z)) = exp(z) for complex z", _c(sp.sqrt(sp.exp(2 * zc)), sp.exp(zc))),
    Case("exp(2 i pi z) = 1", _c(sp.exp(2 * sp.I * sp.pi * zc), 1)),
    Case("|x| = x for real x (no positivity)", _c(sp.Abs(x), x)),
    Case("|z|^2 = z^2 for complex z", _c(sp.Abs(zc) ** 2, zc ** 2)),
    Case("x + 10^-40 = x", _c(x + sp.Rational(1, 10 ** 40), x)),
    Case("sin x + 10^-40 = sin x", _c(sp.sin(x) + sp.Rational(1, 10 ** 40), sp.sin(x))),
    Case("exp(pi sqrt 163) is an integer", _c(sp.exp(sp.pi * sp.sqrt(163)), 262537412640768744)),
    Case("sign(x)^2 = 1 (fails at 0)", _c(sp.sign(x) ** 2, 1)),
    Case("Heaviside(x,0) = Heaviside(x,1)", _c(sp.Heaviside(x, 0), sp.Heaviside(x, 1))),
    Case("Max = (x + y + |x + y|)/2", _c(sp.Max(x, y), (x + y + sp.Abs(x + y)) / 2)),
    Case("floor(2x) = 2 floor(x)", _c(sp.floor(2 * x), 2 * sp.floor(x))),
    Case("Piecewise differing only at 0",
         _c(sp.Piecewise((5, sp.Eq(x, 0)), (sp.sin(x) / x, True)),
            sp.Piecewise((1, sp.Eq(x, 0)), (sp.sin(x) / x, True)))),
    Case("geometric series as Piecewise, wrong at t = 1",
         _c(sp.Sum(t ** k, (k, 0, n - 1)),
            sp.Piecewise(((1 - t ** n) / (1 - t), sp.Ne(t, 1)), (n + 5, True)))),
    Case("sum of a delta over 0..m-1 for integer m (fails at m <= 0)",
         _c(sp.Sum(sp.KroneckerDelta(k, 0), (k, 0, idx - 1)), 1)),
    Case("(AB)[0,0] with the first product counted twice", lambda: (*_matmul_entry_split(0), {})),
    Case("inverse of a product in the same order", _c(sp.Inverse(A * B), A.I * B.I)),
    Case("trace of 2I is n", _c(sp.Trace(2 * I_n), n)),
    Case("tr(ABC) = tr(BAC)", _c(sp.Trace(A * B * C), sp.Trace(B * A * C))),
    Case("det(2A) = 2 det(A)", _c(sp.Determinant(2 * A), 2 * sp.Determinant(A))),
    Case("noncommutative XY = YX", _c(Xn * Yn, Yn * Xn)),
    Case("noncommutative exp(X)exp(Y) = exp(X+Y) is not proved",
         _c(sp.exp(Xn) * sp.exp(Yn), sp.exp(Xn + Yn)), may_be_undecided=True),
    Case("noncommutative sin(X)cos(Y) = cos(Y)sin(X) is not proved",
         _c(sp.sin(Xn) * sp.cos(Yn), sp.cos(Yn) * sp.sin(Xn)), may_be_undecided=True),
    # near-identities: the sides differ by far less than 50-digit arithmetic resolves
    Case("exp(x) + e^-100 = exp(x)", _c(sp.exp(x) + sp.exp(-100), sp.exp(x))),
    Case("exp(x) + e^-1000 = exp(x)", _c(sp.exp(x) + sp.exp(-1000), sp.exp(x))),
    Case("phase shifted by 10^-45",
         _c(sp.exp(sp.I * (x + sp.Rational(1, 10 ** 45))), sp.exp(sp.I * x))),
    Case("complex exp(z + 10^-45 i) = exp(z)", _c(sp.exp(zc + sp.I / 10 ** 45), sp.exp(zc))),
    Case("sin(pi 10^-50 x) = 0", _c(sp.sin(sp.pi * x / 10 ** 50), 0)),
    Case("sin(x)(1 + 10^-40) = sin x", _c(sp.sin(x) * (1 + sp.Rational(1, 10 ** 40)), sp.sin(x))),
    Case("sigmoid saturates: sigma(u + 100) = 1", _c(sigma(u + 100), 1)),
    Case("tanh saturates: tanh(u + 60) = 1", _c(sp.tanh(u + 60), 1)),
    Case("logsumexp dropping an e^-120 term", _c(sp.log(sp.exp(x) + sp.exp(x - 120)), x)),
    Case("pi equals its 50-digit decimal", _c(sp.pi, PI_50)),
    Case("Gamma recursion off by e^-150", _c(sp.gamma(u + 1), u * sp.gamma(u) + sp.exp(-150))),
    Case("sqrt(u^2 + 10^-60) = u", _c(sp.sqrt(u ** 2 + sp.Rational(1, 10 ** 60)), u)),
    Case("pythagoras off by 10^-40 x^2", _c(PYTH, 1 + x ** 2 / 10 ** 40)),
    Case("pythagoras off by 10^-100 (u > 0)",
         _c(sp.sin(u) ** 2 + sp.cos(u) ** 2, 1 + sp.Rational(1, 10 ** 100))),
    Case("sec^2 - tan^2 = 1 + 10^-100 (u > 0)",
         _c(sp.sec(u) ** 2 - sp.tan(u) ** 2, 1 + sp.Rational(1, 10 ** 100))),
    Case("Li2 at a point moved by 10^-50",
         _c(sp.polylog(2, -u - sp.Rational(1, 10 ** 50)), sp.polylog(2, -u))),
]


# -- the classes SymPy's own rewrites got wrong, each with an independent truth check --
#
# ``truth()`` decides the statement by brute force, sharing nothing with verify or SymPy's
# summation: Python integers and Fractions over every index up to a size, or mpmath on the
# branch cut. It returns True when the identity holds at every instance it tries.

from fractions import Fraction  # noqa: E402
from itertools import product as _cartesian  # noqa: E402

import mpmath  # noqa: E402

ii = sp.Symbol("ii", integer=True)
jj = sp.Symbol("jj", integer=True)
xq = sp.IndexedBase("xq")


def _stride_sum(c: int = 2, b: int = 0) -> sp.Expr:
    return sp.Sum(sp.KroneckerDelta(ii, c * jj + b) * xq[jj], (jj, 1, N))


def _stride_rhs(c: int = 2, b: int = 0, guarded: bool = True) -> sp.Expr:
    cond = (ii >= c + b) & (ii <= c * N + b)
    if guarded:
        cond = cond & sp.Eq(sp.Mod(ii - b, c), 0)
    return sp.Piecewise((xq[(ii - b) / c], cond), (0, True))


def _brute_stride(c: int, b: int, guarded: bool, product: bool = False) -> bool:
    """Every N <= 4 and i in [-2, cN + b + 3], x_j = distinct Fractions: the left side by its
    definition; the right side reads x[(i - b)/c], an entry that must exist (1 <= it <= N)."""
    for n_ in range(1, 5):
        xv = {j: Fraction(2 * j + 1, j + 2) for j in range(1, n_ + 1)}
        for i_ in range(-2, c * n_ + b + 4):
            hits = [xv[j] for j in range(1, n_ + 1) if i_ == c * j + b]
            lhs = sum(hits, Fraction(0))
            in_range = c + b <= i_ <= c * n_ + b
            if in_range and (guarded is False or (i_ - b) % c == 0):
                if (i_ - b) % c != 0:
                    return False  # reads x[non-integer]: the formula is wrong here
                rhs = xv[(i_ - b) // c]
            else:
                rhs = Fraction(0)
            if product:
                lhs = Fraction(1) + lhs  # one factor (1 + x_j) at most; the rest are 1
                rhs = Fraction(1) + rhs
            if lhs != rhs:
                return False
    return True


def _brute_upsample() -> bool:
    """sum_{i=1}^{2N} y_i with y_i = sum_j [i = 2j] x_j equals sum_j x_j, N <= 5."""
    for n_ in range(1, 6):
        xv = {j: Fraction(j * j - 3, 2 * j + 1) for j in range(1, n_ + 1)}
        y = [sum((xv[j] for j in range(1, n_ + 1) if i_ == 2 * j), Fraction(0))
             for i_ in range(1, 2 * n_ + 1)]
        if sum(y, Fraction(0)) != sum(xv.values(), Fraction(0)):
            return False
    return True


def _brute_conjugate(f: Callable[[Any], Any]) -> bool:
    """conj(f(t)) == f(t) at real points on and off the cut, by mpmath alone."""
    mpmath.mp.dps = 30
    return all(abs(mpmath.conj(f(t)) - f(t)) < mpmath.mpf(10) ** -20
               for t in (mpmath.mpf(-2.5), mpmath.mpf(-0.5), mpmath.mpf(0.75), mpmath.mpf(3)))


xr_ = sp.Symbol("xr_", real=True)
pos_ = sp.Symbol("pos_", positive=True)
zq = sp.Symbol("zq")


def _upsample() -> tuple[sp.Expr, sp.Expr, dict[str, Any]]:
    inner = sp.Sum(sp.KroneckerDelta(ii, 2 * jj) * xq[jj], (jj, 1, N))
    return sp.Sum(inner, (ii, 1, 2 * N)), sp.Sum(xq[jj], (jj, 1, N)), {}


@dataclass(frozen=True)
class TruthCase:
    """A case of those classes: the corpus case and its independent truth check."""

    case: Case
    truth: Callable[[], bool]


REWRITE_TRUE: list[TruthCase] = [
    TruthCase(Case("up-sampling keeps the sum", _upsample), _brute_upsample),
    TruthCase(Case("stride-2 delta sum, parity-guarded formula",
                   _c(_stride_sum(), _stride_rhs()), may_be_undecided=True),
              lambda: _brute_stride(2, 0, True)),
    TruthCase(Case("stride-3 delta sum with offset 1, guarded formula",
                   _c(_stride_sum(3, 1), _stride_rhs(3, 1)), may_be_undecided=True),
              lambda: _brute_stride(3, 1, True)),
    TruthCase(Case("stride-2 delta product, guarded formula",
                   _c(sp.Product(1 + sp.KroneckerDelta(ii, 2 * jj) * xq[jj], (jj, 1, N)),
                      1 + _stride_rhs()), may_be_undecided=True),
              lambda: _brute_stride(2, 0, True, product=True)),
    TruthCase(Case("1x1 matrix against its scalar", _c(sp.Matrix([[x * (y + 1)]]), x * y + x)),
              lambda: all(Fraction(p) * (Fraction(q) + 1) == Fraction(p) * Fraction(q) + p
                          for p, q in _cartesian(range(-3, 4), range(-3, 4)))),
    TruthCase(Case("conjugate(loggamma(p)) = loggamma(p) for p > 0",
                   _c(sp.conjugate(sp.loggamma(pos_)), sp.loggamma(pos_))),
              lambda: all(abs(mpmath.conj(mpmath.loggamma(t)) - mpmath.loggamma(t)) < 1e-20
                          for t in (mpmath.mpf(0.5), mpmath.mpf(3)))),
]

REWRITE_FALSE: list[TruthCase] = [
    TruthCase(Case("stride-2 delta sum against the unguarded Piecewise (false at i = 3)",
                   _c(_stride_sum(), _stride_rhs(guarded=False)), may_be_undecided=True),
              lambda: _brute_stride(2, 0, False)),
    TruthCase(Case("stride-3 delta sum with offset, unguarded (false at i = 5)",
                   _c(_stride_sum(3, 1), _stride_rhs(3, 1, guarded=False)),
                   may_be_undecided=True),
              lambda: _brute_stride(3, 1, False)),
    TruthCase(Case("stride-2 delta product, unguarded",
                   _c(sp.Product(1 + sp.KroneckerDelta(ii, 2 * jj) * xq[jj], (jj, 1, N)),
                      1 + _stride_rhs(guarded=False)), may_be_undecided=True),
              lambda: _brute_stride(2, 0, False, product=True)),
    TruthCase(Case("conjugate(loggamma(x)) = loggamma(x) for real x (false at x = -1/2)",
                   _c(sp.conjugate(sp.loggamma(xr_)), sp.loggamma(xr_)), may_be_undecided=True),
              lambda: _brute_conjugate(mpmath.loggamma)),
    TruthCase(Case("conjugate(li(x)) = li(x) for real x",
                   _c(sp.conjugate(sp.li(xr_)), sp.li(xr_)), may_be_undecided=True),
              lambda: _brute_conjugate(mpmath.li)),
    TruthCase(Case("conjugate(uppergamma(1/3, x)) = uppergamma(1/3, x) for real x",
                   _c(sp.conjugate(sp.uppergamma(sp.Rational(1, 3), xr_)),
                      sp.uppergamma(sp.Rational(1, 3), xr_)), may_be_undecided=True),
              lambda: _brute_conjugate(lambda t: mpmath.gammainc(mpmath.mpf(1) / 3, t))),
    TruthCase(Case("conjugate(legendre(1/2, x)) = legendre(1/2, x) for real x",
                   _c(sp.conjugate(sp.legendre(sp.Rational(1, 2), xr_)),
                      sp.legendre(sp.Rational(1, 2), xr_)), may_be_undecided=True),
              lambda: _brute_conjugate(lambda t: mpmath.legenp(0.5, 0, t, type=3))),
    TruthCase(Case("conjugate(chebyshevt(1/2, x)) = chebyshevt(1/2, x) for real x",
                   _c(sp.conjugate(sp.chebyshevt(sp.Rational(1, 2), xr_)),
                      sp.chebyshevt(sp.Rational(1, 2), xr_)), may_be_undecided=True),
              lambda: _brute_conjugate(lambda t: mpmath.chebyt(0.5, t))),
    TruthCase(Case("conjugate(loggamma(z)) = loggamma(conjugate(z)) for complex z",
                   _c(sp.conjugate(sp.loggamma(zq)), sp.loggamma(sp.conjugate(zq))),
                   may_be_undecided=True),
              lambda: all(abs(mpmath.conj(mpmath.loggamma(t)) - mpmath.loggamma(mpmath.conj(t)))
                          < 1e-20 for t in (mpmath.mpf(-0.5), mpmath.mpc(1, 2)))),
]

TRUE_CASES += [t.case for t in REWRITE_TRUE]
FALSE_CASES += [t.case for t in REWRITE_FALSE]

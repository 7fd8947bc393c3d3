"""Exact first-order changes of one gradient step in view F (Sec. 4), and exact rows.

View F (free scores and values, eqs. (33)-(34)): a step ``Delta s = -eta dL/ds`` moves the
attention weights through the softmax Jacobian (18). The functions here give the exact
first-order formulas the sign claims of Secs. 3.4, 4.1, 4.4, 5.1 and 8.1 rest on, and the
exact rational rows on which those claims fail; ``numerics/gda`` uses them beside its random
float64 instances.
"""

from __future__ import annotations

from dataclasses import replace

import sympy as sp

from verify import Evidence, Verdict
from verify.symbolic import prove_cases, prove_equal

from . import sym_head

__all__ = [
    "alpha_first_order_proof",
    "exact_alpha_counterexample",
    "feedback_link_proof",
    "link2_weight_proof",
    "link3_conditional_proof",
    "score_magnitude_counterexample",
]


def alpha_first_order_proof() -> Evidence:
    """SymPy: first-order Delta alpha_ij (view F) = eta alpha_ij (alpha_ij A_ij - sum_k
    alpha_ik^2 A_ik), from (18) and (34) with A_ij = -(b_ij - E[b]) (L165)."""
    h = sym_head(3, 1)
    B = h.b()
    eta = sp.Symbol("eta", positive=True)
    adv = [[-(B[i, j] - h.Eb(i)) for j in range(3)] for i in range(3)]
    dS = [[-eta * h.d_ds(h.L, i, k) for k in range(3)] for i in range(3)]
    cases = []
    for i in range(3):
        for j in range(3):
            lhs = sum(h.d_ds(h.alpha[i, j], i, k) * dS[i][k] for k in range(3))
            spread = sum(h.alpha[i, k] ** 2 * adv[i][k] for k in range(3))
            rhs = eta * h.alpha[i, j] * (h.alpha[i, j] * adv[i][j] - spread)
            cases.append((f"Delta alpha_{i}{j}", lhs, rhs))
    return prove_cases(
        cases,
        generality="T=3, d_v=1 surrogate (the violating rows are T=3 rows; the formula is (18) "
        "composed with (34), each proved for any row length in gda.softmax_jacobian and "
        "gda.routing_gradient)",
        part="first-order formula",
        summary="Delta alpha_ij = eta alpha_ij (alpha_ij A_ij - sum_k alpha_ik^2 A_ik) (view F)",
    )


def exact_alpha_counterexample(
    mirror: bool = False,
    argmax: bool = False,
    alpha: list[sp.Expr] | None = None,
    A: list[sp.Expr] | None = None,
) -> dict:
    """Exact T=3 row: alpha = (1/10, 8/10, 1/10), A = (1, 1, -9) (centred: sum alpha A = 0).

    First-order Delta alpha_1 = eta alpha_1 (alpha_1 A_1 - sum alpha_k^2 A_k) = -0.046 eta < 0
    although A_1 = 1 > 0. (T = 2 cannot violate: Delta alpha_1 = 2 eta alpha_1^2 alpha_2 A_1.)
    ``mirror``: A -> -A (b_ij above the mean, yet Delta alpha_1 = +0.046 eta > 0).
    ``argmax``: A = (11/10, 1, -91/10), so position 1 is the row's strict argmax of A (the most
    helpful value), yet Delta alpha_1 = -0.045 eta < 0.
    ``alpha``, ``A``: another exact row (centred, any length) in place of the default one.
    """
    al = [sp.Rational(1, 10), sp.Rational(8, 10), sp.Rational(1, 10)]
    A = [sp.Integer(1), sp.Integer(1), sp.Integer(-9)] if A is None else list(map(sp.nsimplify, A))
    if alpha is not None:
        al = list(map(sp.nsimplify, alpha))
    if argmax:
        A = [sp.Rational(11, 10), sp.Integer(1), sp.Rational(-91, 10)]
    if mirror:
        A = [-x for x in A]
    if sum(x * y for x, y in zip(al, A, strict=True)) != 0:
        raise ValueError("the advantages of a row are centred: sum_j alpha_ij A_ij = 0")
    # (J (alpha * A))_0 with the softmax Jacobian J = diag(alpha) - alpha alpha^T, (18) and (34)
    d = al[0] * (al[0] * A[0] - sum(x**2 * y for x, y in zip(al, A, strict=True)))
    return {
        "T": len(al),
        "alpha_row": [str(x) for x in al],
        "A_row": [str(x) for x in A],
        "j": 0,
        "first_order_dalpha_j_over_eta": str(d),
        "exact": True,
        "violates": bool(sp.sign(d) == -sp.sign(A[0])),
        "A_j_is_row_argmax": bool(A[0] > max(A[1:])),
        "realisation": "any b_i with b_ij = c - A_ij (e.g. u_i = 1, v_j = -A_ij in d_v = 1)",
    }


def feedback_link_proof() -> Evidence:
    """SymPy: with only v_j moved by (38) (alpha, u fixed, row i stochastic),
    Delta A_ij = eta (1 - alpha_ij) u_i^T ubar_j."""
    T = 3
    a = [[sp.Symbol(f"a_{i}{j}", positive=True) for j in range(T)] for i in range(T)]
    U = [sp.Symbol(f"u_{i}", real=True) for i in range(T)]
    V = [sp.Symbol(f"v_{j}", real=True) for j in range(T)]
    eta = sp.Symbol("eta", positive=True)
    i, j = 0, 1
    a[i][2] = 1 - a[i][0] - a[i][1]  # row i stochastic
    ubar = sum(a[r][j] * U[r] for r in range(T))
    Vn = [V[k] - (eta * ubar if k == j else 0) for k in range(T)]

    def adv(Vv: list[sp.Expr]) -> sp.Expr:
        b = [U[i] * Vv[k] for k in range(T)]
        return -(b[j] - sum(a[i][k] * b[k] for k in range(T)))

    return prove_cases(
        [("Delta A_ij", adv(Vn) - adv(V), eta * (1 - a[i][j]) * U[i] * ubar)],
        generality="T=3, d_v=1, row i stochastic (the refuting instance is T=2; a symbolic-size "
        "form was not attempted)",
        part="Delta A formula",
        reading="B",
        summary="Delta A_ij = eta (1 - alpha_ij) u_i ubar_j: its sign is that of u_i.ubar_j",
    )


def link3_conditional_proof() -> Evidence:
    """Link (3) of Sec. 4.4 as the conditional it states, "as v_j moves away from u_i, b_ij
    decreases further, increasing A_ij", with only v_j moved (alpha, u fixed): b_ij changes by
    ``Delta b`` and no other b_ik of row i changes, so with ``R = sum_{k != j} alpha_ik b_ik``
    the advantage A_ij = -(b_ij - alpha_ij b_ij - R) changes by exactly
    ``Delta A_ij = -(1 - alpha_ij) Delta b_ij``: Delta b_ij < 0 gives Delta A_ij > 0 whenever
    alpha_ij < 1. Symbolic in every quantity (any T, any d_v: Delta b is the scalar
    u_i^T Delta v_j)."""
    b, a, R, db = sp.symbols("b_ij alpha_ij R Delta_b", real=True)

    def adv(bij: sp.Expr) -> sp.Expr:
        return -(bij - (a * bij + R))

    ev = prove_equal(adv(b + db) - adv(b), -(1 - a) * db, assumptions="real", reading="B",
                     part="link (3)")
    scope = "general" if ev.verdict is Verdict.PROVED else ev.scope  # a scalar identity
    return replace(ev, scope=scope, summary="link (3) as a conditional: Delta A_ij = -(1 - "
                   "alpha_ij) Delta b_ij exactly (only v_j moved), so b_ij falling raises A_ij "
                   "whenever alpha_ij < 1; " + ev.summary)


def link2_weight_proof() -> Evidence:
    """Link (2), "larger alpha_ij gives u_i more weight in ubar_j, so v_j moves further away
    from u_i (Delta v_j = -eta ubar_j)": with ubar_j = alpha_ij u_i + w (w the other rows'
    weighted signals), raising alpha_ij by delta changes Delta b_ij = u_i^T Delta v_j by
    exactly -eta delta |u_i|^2 <= 0 (u_i, w symbolic d x 1 vectors). In absolute terms v_j
    moves away from u_i iff u_i^T ubar_j > 0, i.e. when u_i's weighted term dominates ubar_j's
    projection on u_i: the premise "u_i [has] more weight in ubar_j"."""
    d = sp.Symbol("d", integer=True, positive=True)
    k = sp.Idx("k", d)
    u, w = sp.IndexedBase("u_i", real=True), sp.IndexedBase("w", real=True)
    a, dl, eta = sp.symbols("alpha_ij delta eta", real=True)

    def db(al: sp.Expr) -> sp.Expr:  # u_i^T Delta v_j, Delta v_j = -eta (al u_i + w)
        return sp.Sum(u[k] * (-eta * (al * u[k] + w[k])), (k, 0, d - 1))

    ev = prove_equal(db(a + dl) - db(a), -eta * dl * sp.Sum(u[k] ** 2, (k, 0, d - 1)),
                     assumptions="real", reading="B", part="link (2)")
    return replace(ev, summary="link (2), more weight: raising alpha_ij by delta moves "
                   "Delta b_ij = u_i^T Delta v_j by exactly -eta delta |u_i|^2 <= 0 (v_j moves "
                   "further from u_i, comparatively); " + ev.summary)


def score_magnitude_counterexample(
    alpha: list[sp.Expr] | None = None, adv: list[sp.Expr] | None = None
) -> dict:
    """Exact T=3 row where a larger |A^adv| gets the smaller score change (Sec. 8.1, L461).

    alpha = (1/2, 1/4, 1/4), A^adv = b - E[b] = (1, -3/2, -1/2) (centred). View F, (34) with
    (23): Delta s_ij = -eta alpha_ij A^adv_ij, so |Delta s| = eta (1/2, 3/8, 1/8): position 1
    has the larger |A^adv| (3/2 > 1) but the smaller score change (3/8 < 1/2). ``violates``
    says whether the row has that property (for positions 1 and 0). ``alpha``, ``adv``:
    another exact centred row in place of the default one.
    """
    al = [sp.Rational(1, 2), sp.Rational(1, 4), sp.Rational(1, 4)]
    adv = [sp.Integer(1), sp.Rational(-3, 2), sp.Rational(-1, 2)] if adv is None else adv
    adv = list(map(sp.nsimplify, adv))
    if alpha is not None:
        al = list(map(sp.nsimplify, alpha))
    if sum(x * y for x, y in zip(al, adv, strict=True)) != 0:
        raise ValueError("the advantages of a row are centred: sum_j alpha_ij A^adv_ij = 0")
    ds = [-x * y for x, y in zip(al, adv, strict=True)]  # Delta s_ij / eta, (34) with (23)
    return {
        "T": len(al),
        "alpha_row": [str(x) for x in al],
        "A_adv_row": [str(x) for x in adv],
        "Delta_s_over_eta": [str(x) for x in ds],
        "pair": [1, 0],
        "exact": True,
        "violates": bool(abs(adv[1]) > abs(adv[0]) and abs(ds[1]) < abs(ds[0])),
    }


def fraction_tex(value: str) -> str:
    """LaTeX of an exact rational given as text (``"-23/500"`` -> ``-\\frac{23}{500}``), for the
    summaries that quote a first-order change in the paper's notation."""
    return sp.latex(sp.Rational(value))

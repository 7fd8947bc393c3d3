"""Eqs. (37)-(41) (Sec. 4.2-4.3, L225-247) for any number of queries T, any value width d_v
and any number of classes C: the first-order change of one query's loss when one value moves.

``gda.dyn.context_loss_first_order`` proves the algebra on explicit matrices at T=3, d_v=2 and
the CE first-order term at T=2, d_v=1, C=2; the functions here state the same identities with
SymPy ``Sum`` over ``IndexedBase`` entries with symbolic bounds (1-based, as in the paper), so
that one proof covers every size:

* (39) ``g_i = sum_k alpha_ik v_k`` moves by ``alpha_ij Delta v_j`` when ``v_j`` alone moves by
  ``Delta v_j`` (the KroneckerDelta sum picks ``k = j``; ``j <= T`` by writing ``T = j + p``),
  and ``Delta v_j = -eta ubar_j`` with ``ubar_j = sum_r alpha_rj u_r`` (37)-(38);
* (41) ``u_i^T Delta g_i = -eta alpha_ij sum_r alpha_rj (u_i^T u_r)``: the two sides differ by
  the order of the sums over users r and coordinates c, exchanged by :func:`exchange_lemma`;
* (40) for the cross-entropy head ``L_i = -log softmax(W_O g_i + b_O)_{y_i}``: ``d/d eta
  L_i(g_i + eta D) at eta = 0`` is ``u_i^T D`` with ``u_i = W_O^T (p_i - e_{y_i})`` (eq. (14)),
  for every direction D, so ``Delta L_i = u_i^T Delta g_i + O(eta^2)``.

The exchange of two finite sums with independent bounds is proved here, by induction on the
outer bound, for an arbitrary summand ``g`` (an undefined SymPy function), and each use
instantiates it. A proof is a :class:`~verify.symbolic.chain.Derivation`, a chain of links:
``prove_equal`` zeros that must hold in symbolic size (no fallback to concrete sizes counts),
exact SymPy rewrites (``factor_terms``, ``doit``) compared structurally, and the cited lemma.
It is PROVED with scope ``general`` only if every link holds, else UNDECIDED naming the failing
link.
"""

from __future__ import annotations

from collections.abc import Callable

import sympy as sp

from verify import Evidence
from verify.symbolic import Derivation

__all__ = [
    "exchange_lemma",
    "exchange_instance",
    "value_move_symbolic",
    "context_loss_symbolic",
    "ce_first_order_symbolic",
]

_nonneg = {"integer": True, "nonnegative": True}
_pos = {"integer": True, "positive": True}
T, d, dv = sp.symbols("T d d_v", **_pos)
p, q, w = sp.symbols("p q w", **_nonneg)
r, c, e, k, i, j = sp.symbols("r c e k i j", integer=True)
g = sp.Function("g")
alpha, u, v = sp.IndexedBase("alpha"), sp.IndexedBase("u"), sp.IndexedBase("v")
eta = sp.Symbol("eta", positive=True)


# -- exchange of two finite sums ---------------------------------------------------------------


def _exchange_sides(fn: Callable[[sp.Expr, sp.Expr], sp.Expr], outer_top: sp.Expr = d
                    ) -> tuple[sp.Expr, sp.Expr]:
    """``(sum_{c=1}^{d} sum_{r=1}^{T} fn(r, c), sum_{r=1}^{T} sum_{c=1}^{d} fn(r, c))``."""
    return (sp.Sum(fn(r, c), (r, 1, T), (c, 1, outer_top)),
            sp.Sum(fn(r, c), (c, 1, outer_top), (r, 1, T)))


def exchange_lemma(*, swap_step: bool = False) -> Evidence:
    """``sum_{c=1}^{d} sum_{r=1}^{T} g(r, c) = sum_{r=1}^{T} sum_{c=1}^{d} g(r, c)`` for every
    g and T, d >= 1, by induction on d.

    With ``H(c) = sum_r g(r, c)`` and ``K(r) = sum_{c<=d} g(r, c)``: base ``sum_{c=1}^{1} H(c)
    = H(1) = sum_r g(r, 1)``, which is the right side after SymPy evaluates its one-term inner
    sum; step: the left side grows by ``H(d+1)``, and the right side by ``sum_r g(r, d+1)``
    (for each r, ``sum_{c<=d+1} g(r, c) = K(r) + g(r, d+1)``, then linearity of ``sum_r``).
    ``swap_step=True`` (a negative control) claims the right side grows by ``sum_r g(d+1,
    r)`` instead."""
    lk = Derivation()
    H, K = sp.Function("H"), sp.Function("K")
    lk.engine("base: sum_{c=1}^{1} H(c) = H(1)", sp.Sum(H(c), (c, 1, 1)), H(1))
    lk.rewrite("base: the right side at d = 1 (SymPy doit of its one-term inner sum) is "
               "H(1) = sum_r g(r, 1)", _exchange_sides(g, 1)[1].doit(),
               sp.Sum(g(r, 1), (r, 1, T)))
    lk.engine("step, left: sum_{c<=d} H(c) + sum_{c=d+1}^{d+1} H(c) = sum_{c<=d+1} H(c)",
              sp.Sum(H(c), (c, 1, d)) + sp.Sum(H(c), (c, d + 1, d + 1)),
              sp.Sum(H(c), (c, 1, d + 1)))
    lk.engine("step, left: sum_{c=d+1}^{d+1} H(c) = H(d+1)", sp.Sum(H(c), (c, d + 1, d + 1)),
              H(d + 1))
    lk.engine("step, right (each r): K(r) + sum_{c=d+1}^{d+1} g(r, c) = sum_{c<=d+1} g(r, c)",
              sp.Sum(g(r, c), (c, 1, d)) + sp.Sum(g(r, c), (c, d + 1, d + 1)),
              sp.Sum(g(r, c), (c, 1, d + 1)))
    lk.engine("step, right (each r): sum_{c=d+1}^{d+1} g(r, c) = g(r, d+1)",
              sp.Sum(g(r, c), (c, d + 1, d + 1)), g(r, d + 1))
    new = g(d + 1, r) if swap_step else g(r, d + 1)
    lk.engine("step, right: sum_r (K(r) + g(r, d+1)) = sum_r K(r) + sum_r g(r, d+1)",
              sp.Sum(K(r) + g(r, d + 1), (r, 1, T)),
              sp.Sum(K(r), (r, 1, T)) + sp.Sum(new, (r, 1, T)))
    lk.note("both sides grow by H(d+1) = sum_r g(r, d+1): by induction they agree for "
                    "every d >= 1")
    return lk.evidence("exchange of finite sums sum_c sum_r g(r, c) = sum_r sum_c g(r, c), "
                       "sizes symbolic",
                       "every summand g, T and d symbolic: induction on d", part="lemma")


def exchange_instance(fn: Callable[[sp.Expr, sp.Expr], sp.Expr], *, inner: sp.Symbol,
                      inner_top: sp.Expr, outer: sp.Symbol, outer_top: sp.Expr
                      ) -> tuple[sp.Expr, sp.Expr]:
    """The two sides of :func:`exchange_lemma` with ``g := fn`` (``fn(inner, outer)``), the
    inner index ``r`` renamed ``inner`` (running to ``inner_top``) and the outer ``c`` renamed
    ``outer`` (to ``outer_top``): ``(sum_outer sum_inner fn, sum_inner sum_outer fn)``."""
    if fn(sp.Dummy("x"), sp.Dummy("y")).free_symbols & {inner, outer}:
        raise ValueError("exchange_instance: the summand uses a bound variable of the instance")
    L, R = _exchange_sides(g)
    rep = {T: inner_top, d: outer_top, r: inner, c: outer}
    # rename first, with g still abstract, so that nothing inside fn is renamed
    return tuple(side.xreplace(rep).replace(g, fn) for side in (L, R))  # type: ignore[return-value]


def _nested(summand: sp.Expr, inner: tuple, outer: tuple) -> sp.Expr:
    """``sum_outer (factor_terms of sum_inner summand)``: the inner-free factors pulled out."""
    return sp.Sum(sp.factor_terms(sp.Sum(summand, inner)), outer)


# -- (39): the context moves by alpha_ij Delta v_j ---------------------------------------------


def value_move_symbolic(*, weight: sp.Expr | None = None) -> Evidence:
    """(39), coordinate c, for every T and d_v: with ``g_ic = sum_{k=1}^T alpha_ik v_kc`` and
    ``v_j`` alone moved by ``Delta_c``, ``Delta g_ic = alpha_ij Delta_c`` (j in 1..T: ``j = p +
    1``, ``T = p + 1 + q``); with ``Delta v_j = -eta ubar_j`` (38) this is ``-eta alpha_ij
    sum_r alpha_rj u_rc``. ``weight`` replaces the claimed ``alpha_ij`` (negative control)."""
    lk = Derivation()
    TT, j0 = p + 1 + q, p + 1
    Dl = sp.IndexedBase("Delta")
    moved = sp.Sum(alpha[i, k] * (v[k, c] + sp.KroneckerDelta(k, j0) * Dl[c]), (k, 1, TT))
    before = sp.Sum(alpha[i, k] * v[k, c], (k, 1, TT))
    a_ij = alpha[i, j0] if weight is None else weight
    lk.engine("Delta g_ic = sum_k alpha_ik (v_kc + [k = j] Delta_c) - g_ic = alpha_ij Delta_c",
              moved - before, a_ij * Dl[c])
    ubar = sp.Sum(alpha[r, j0] * u[r, c], (r, 1, TT))
    lk.engine("alpha_ij Delta v_jc with Delta v_j = -eta ubar_j (37)-(38)",
              (a_ij * Dl[c]).xreplace({Dl[c]: -eta * ubar}),
              -eta * alpha[i, j0] * sp.Sum(alpha[r, j0] * u[r, c], (r, 1, TT)))
    return lk.evidence(r"(39) $\Delta g_i = \alpha_{ij} \Delta v_j = -\eta\, \alpha_{ij} "
                       r"\sum_r \alpha_{rj} u_r$, sizes symbolic",
                       "T, d_v symbolic, any alpha, u, v, each coordinate c",
                       part="algebra (39)-(41)")


# -- (41): u_i^T Delta g_i ----------------------------------------------------------------------


def context_loss_symbolic(*, lemma: Evidence | None = None, swap: bool = False) -> Evidence:
    """(40) = (41) for every T and d_v: ``sum_c u_ic (-eta alpha_ij sum_r alpha_rj u_rc) =
    -eta alpha_ij sum_r alpha_rj sum_c u_ic u_rc``. The left side is ``-eta alpha_ij sum_c
    sum_r g(r, c)`` with ``g = u_ic alpha_rj u_rc`` (``factor_terms``), the right side ``-eta
    alpha_ij sum_r sum_c g(r, c)``; :func:`exchange_lemma` identifies them. ``swap=True`` (a
    negative control) claims ``u_ri u_cr``-style transposed products on the right."""
    lk = Derivation()
    lk.cite("exchange of finite sums", lemma if lemma is not None else exchange_lemma())
    a_ij = alpha[i, j]
    dg = -eta * a_ij * sp.Sum(alpha[r, j] * u[r, c], (r, 1, T))  # Delta g_ic, (39)
    lhs = sp.Sum(u[i, c] * dg, (c, 1, dv))  # u_i^T Delta g_i, (40)
    inner_product = u[c, r] * u[c, i] if swap else u[i, c] * u[r, c]
    rhs = -eta * a_ij * sp.Sum(alpha[r, j] * sp.Sum(inner_product, (c, 1, dv)), (r, 1, T))

    def summand(rr: sp.Expr, cc: sp.Expr) -> sp.Expr:
        return u[i, cc] * alpha[rr, j] * u[rr, cc]

    over_c, over_r = exchange_instance(summand, inner=r, inner_top=T, outer=c, outer_top=dv)
    lk.rewrite("u_i^T Delta g_i = -eta alpha_ij sum_c sum_r u_ic alpha_rj u_rc "
               "(factor_terms: u_ic into the r-sum, constants out)", sp.factor_terms(lhs),
               -eta * a_ij * _nested(over_c.function, over_c.limits[0], over_c.limits[1]))
    lk.note(f"exchange lemma instance: {sp.sstr(over_c)} = {sp.sstr(over_r)}")
    lk.rewrite("-eta alpha_ij sum_r sum_c u_ic alpha_rj u_rc = (41) (factor_terms: alpha_rj out "
               "of the c-sum)", -eta * a_ij * _nested(over_r.function, over_r.limits[0],
                                                       over_r.limits[1]),
               sp.factor_terms(rhs))
    return lk.evidence("(40)-(41) u_i^T Delta g_i = -eta alpha_ij sum_r alpha_rj (u_i^T u_r), "
                       "sizes symbolic",
                       "T, d_v symbolic, any alpha, u", part="algebra (39)-(41)")


# -- (40): the first-order change of the CE loss -----------------------------------------------


def ce_first_order_symbolic(*, lemma: Evidence | None = None, sign: int = 1) -> Evidence:
    """(40) for the CE head with any C and d_v: ``L_i(eta) = -(l_y - log sum_{e=1}^C
    e^{l_e})``, ``l_e(eta) = b_e + sum_c W_ec (g_c + eta D_c)``; then ``dL_i/d eta (0) = sum_c
    D_c u_c`` with ``u_c = sum_e W_ec (p_e - [e = y])`` (eq. (14)), for every direction D and
    label y in 1..C (``y = w + 1``, ``C = w + 1 + q``).

    Links: ``l_e(eta) = lambda_e + eta s_e`` with ``lambda_e = l_e(0)``, ``s_e = sum_c W_ec
    D_c`` (linearity); SymPy's derivative at 0 is ``-s_y + sum_e p_e s_e``; that is ``sum_e
    q_e s_e`` with ``q_e = p_e - [e = y]`` (delta sum); ``sum_e q_e sum_c W_ec D_c = sum_c D_c
    sum_e W_ec q_e`` by :func:`exchange_lemma`. ``sign=-1`` (a negative control) claims
    ``u = W_O^T (e_y - p)``."""
    lk = Derivation()
    lk.cite("exchange of finite sums", lemma if lemma is not None else exchange_lemma())
    C, y = w + 1 + q, w + 1
    W, bO, G, D = (sp.IndexedBase(name) for name in ("W_O", "b_O", "g", "D"))
    lam, s, qe = sp.IndexedBase("lambda"), sp.IndexedBase("s"), sp.IndexedBase("q")
    b2 = sp.Symbol("b", integer=True)
    logit = bO[e] + sp.Sum(W[e, b2] * (G[b2] + eta * D[b2]), (b2, 1, dv))
    lk.engine("l_e(eta) = lambda_e + eta s_e: b_e + sum_c W_ec (g_c + eta D_c) = (b_e + sum_c "
              "W_ec g_c) + eta sum_c W_ec D_c", logit,
              bO[e] + sp.Sum(W[e, b2] * G[b2], (b2, 1, dv)) + eta * sp.Sum(W[e, b2] * D[b2],
                                                                         (b2, 1, dv)))
    Z = sp.Sum(sp.exp(lam[e] + eta * s[e]), (e, 1, C))
    L_i = -((lam[y] + eta * s[y]) - sp.log(Z))
    Z0 = sp.Sum(sp.exp(lam[e]), (e, 1, C))
    P = sp.IndexedBase("p")  # p_e = e^{lambda_e} / Z0, the softmax at eta = 0
    lk.engine("dL_i/d eta at 0 = -s_y + (sum_e e^{lambda_e} s_e) / sum_e e^{lambda_e}",
              sp.diff(L_i, eta).subs(eta, 0), -s[y] + sp.Sum(sp.exp(lam[e]) * s[e], (e, 1, C)) / Z0)
    lk.rewrite("(sum_e e^{lambda_e} s_e) / Z = sum_e p_e s_e, p_e = e^{lambda_e} / Z "
               "(factor_terms: the e-free 1/Z out of the sum)",
               sp.factor_terms(sp.Sum(sp.exp(lam[e]) / Z0 * s[e], (e, 1, C))),
               sp.Sum(sp.exp(lam[e]) * s[e], (e, 1, C)) / Z0)
    lk.engine("-s_y + sum_e p_e s_e = sum_e (p_e - [e = y]) s_e = sum_e q_e s_e (y in 1..C)",
              -s[y] + sp.Sum(P[e] * s[e], (e, 1, C)),
              sp.Sum((P[e] - sp.KroneckerDelta(e, y)) * s[e], (e, 1, C)))

    def summand(cc: sp.Expr, ee: sp.Expr) -> sp.Expr:
        return qe[ee] * W[ee, cc] * D[cc]

    over_e, over_c = exchange_instance(summand, inner=c, inner_top=dv, outer=e, outer_top=C)
    lk.rewrite("sum_e q_e s_e with s_e = sum_c W_ec D_c is sum_e sum_c q_e W_ec D_c "
               "(factor_terms: q_e out of the c-sum)",
               _nested(over_e.function, over_e.limits[0], over_e.limits[1]),
               sp.Sum(qe[e] * sp.Sum(W[e, c] * D[c], (c, 1, dv)), (e, 1, C)))
    lk.note(f"exchange lemma instance: {sp.sstr(over_e)} = {sp.sstr(over_c)}")
    u_c = sp.Sum(W[e, c] * sign * qe[e], (e, 1, C))  # u_c = (W_O^T (p - e_y))_c, q_e = p_e - [e=y]
    lk.rewrite("sum_c sum_e q_e W_ec D_c = sum_c D_c u_c, u = W_O^T (p - e_y) (factor_terms: "
               "D_c out of the e-sum)", _nested(over_c.function, over_c.limits[0],
                                                 over_c.limits[1]),
               sp.Sum(D[c] * u_c, (c, 1, dv)))
    return lk.evidence("(40) CE head: dL_i/d eta = u_i^T Delta g_i / eta at eta = 0, "
                       "u_i = W_O^T (p_i - e_{y_i}), sizes symbolic",
                       "C, d_v symbolic, any W_O, b_O, g_i, label y and direction Delta g_i",
                       part="(40) first order")

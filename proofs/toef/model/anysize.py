"""Proofs of toef statements in their own generality: symbolic sizes N, C, every degree, every
matrix size.

The concrete-size checks of the claim modules (``N = C = 2`` entrywise, polynomials of bounded
degree) are instances; the functions here prove the statements themselves, each as a short
chain of identities that :func:`~verify.symbolic.prove_equal` reduces to an exact zero without
fixing a size (:func:`~verify.symbolic.chain.prove_steps`). Sizes are symbolic through sums
over ``IndexedBase`` entries with symbolic bounds (an index ``q`` in ``1..N`` is written
``q = r + 1``, ``N = r + 1 + s`` with ``r, s >= 0``, so that SymPy resolves Kronecker deltas
in range), through ``MatrixSymbol`` expressions of symbolic shape, or through noncommutative
letters (an identity of noncommutative polynomials holds in every associative algebra, so for
matrices of every size). What each chain cites rather than computes (the chain rule,
uniqueness of solutions of a linear ODE, an induction on the degree) is recorded in its steps.

Each proof routine takes the formula it proves (or the lemma it builds on) as a parameter,
the paper's formula by default, so that a wrong formula can be fed to the same routine and be
seen not to come out PROVED.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import sympy as sp

from verify import Evidence
from verify.symbolic import Step, prove_steps, requires

#: Assumptions of a size offset: ``N = r + 1 + s`` with ``r, s`` non-negative integers.
_OFFSET = {"integer": True, "nonnegative": True}


# -- Sec. 2.3, l. 68: dissipative and conservative parts -------------------------------------


def flow_rate_any_size(imaginary: bool,
                       claimed: Callable[[sp.Expr], sp.Expr] | None = None) -> Evidence:
    """``d/dt F`` along ``Xdot = dV/dX^*`` for ``V = F`` (real part, ``imaginary=False``) or
    ``V = iF`` (imaginary part), ``F`` real, in symbolic size N x C (l. 68, Def. 2's flow).

    At a point, ``p_jk = dF/du_jk`` and ``q_jk = dF/dv_jk`` (``X = u + iv``) are free real
    numbers (``IndexedBase``, real), and ``dF/dconj(X)_jk = (p + iq)/2`` is the Wirtinger
    derivative by definition. The flow's ``udot, vdot`` are the real and imaginary parts of
    ``dV/dconj(X)``, and ``dF/dt = sum_jk p udot + q vdot`` (chain rule in real coordinates).
    ``claimed(g)`` is the summand the rate is claimed to equal, with ``g = dF/dconj(X)_jk``:
    ``2 g conj(g)`` for the real part (so ``dR/dt = 2 |dR/dX^*|^2 >= 0``), ``0`` for the
    imaginary part.
    """
    j, k = sp.symbols("j k", integer=True)
    N, C = sp.symbols("N C", integer=True, positive=True)
    p, q = sp.IndexedBase("p", real=True), sp.IndexedBase("q", real=True)
    P, Q = p[j, k], q[j, k]
    g = (P + sp.I * Q) / 2
    xdot = sp.I * g if imaginary else g
    rate = sp.Sum(P * sp.re(xdot) + Q * sp.im(xdot), (j, 1, N), (k, 1, C))
    if claimed is None:
        def claimed(g_: sp.Expr) -> sp.Expr:
            return sp.Integer(0) if imaginary else 2 * g_ * sp.conjugate(g_)
    target = sp.Sum(claimed(g), (j, 1, N), (k, 1, C))
    name = "H" if imaginary else "R"
    steps = [Step(f"d{name}/dt = sum_jk (claimed summand in g = d{name}/dconj(X)_jk)", rate,
                  target)]
    if not imaginary:
        steps.append(Step("2 sum |g|^2 = sum (p^2 + q^2)/2, a sum of real squares", target,
                          sp.Sum((P**2 + Q**2) / 2, (j, 1, N), (k, 1, C))))
    what = (r"along $\dot X=\partial(iH)/\partial X^*$: $dH/dt=0$" if imaginary else
            r"along $\dot X=\partial R/\partial X^*$: $dR/dt=2\|\partial R/\partial X^*\|^2"
            r"\ge0$ (R increases)")
    return prove_steps(
        steps, summary=what, part="imaginary part" if imaginary else "real part",
        generality=f"symbolic N, C; every real-differentiable {name} on C^(N x C) (the chain "
                   f"rule in u = Re X, v = Im X at a point, the partials d{name}/du_jk, "
                   f"d{name}/dv_jk free real symbols)",
        argument=["Wirtinger derivative d/dconj(x) = (d/du + i d/dv)/2 (l. 196)",
                  "chain rule: dF/dt = sum_jk dF/du_jk udot_jk + dF/dv_jk vdot_jk"])


# -- Axiom 2 (l. 104, 220): the flow of V = F(X^*X) ------------------------------------------


def _gram_setting() -> dict[str, Any]:
    """Symbols of the index-level Gram computations: entry ``(q, n)`` of an ``N x C`` X with
    ``q = r + 1``, ``n = u + 1``, ``N = r + 1 + s``, ``C = u + 1 + w`` (all in range)."""
    r, s, u, w = sp.symbols("r s u w", **_OFFSET)
    a, b, c, d, p = sp.symbols("a b c d p", integer=True)
    X, Xb = sp.IndexedBase("X"), sp.IndexedBase("Xb")
    N, C = r + 1 + s, u + 1 + w

    def gram(i: sp.Expr, j: sp.Expr, row: sp.Symbol = p) -> sp.Sum:
        """``K_ij = (X^*X)_ij = sum_p conj(X)_pi X_pj``, ``Xb`` standing for ``conj(X)``."""
        return sp.Sum(Xb[row, i] * X[row, j], (row, 1, N))

    return {"X": X, "Xb": Xb, "N": N, "C": C, "q": r + 1, "n": u + 1, "gram": gram,
            "idx": (a, b, c, d)}


def gram_direction(S: dict[str, Any]) -> Callable[[sp.Expr, sp.Expr], sp.Expr]:
    """``D_ab = dK_ab / dconj(X)_qn = delta_an X_qb``: the direction in which K moves."""
    return lambda i, j: sp.KroneckerDelta(i, S["n"]) * S["X"][S["q"], j]


def gram_chain_rule_any_size(
        contraction: Callable[[dict[str, Any], sp.IndexedBase], sp.Expr] | None = None
) -> Evidence:
    """Every F of K = X^*X: ``sum_ab G_ab dK_ab/dconj(X)_qn = (X G^T)_qn``, symbolic N, C.

    ``G_ab = dF/dK_ab`` is left free (``IndexedBase``): with the chain rule (F holomorphic in
    the entries of K as formal variables), ``dV/dX^* = X G(K)^T`` for every differentiable F.
    ``contraction(S, G)`` is the claimed right-hand side (default ``sum_b X_qb G_nb``).
    """
    S = _gram_setting()
    a, b = S["idx"][:2]
    G = sp.IndexedBase("G")
    lhs = sp.Sum(G[a, b] * sp.diff(S["gram"](a, b), S["Xb"][S["q"], S["n"]]),
                 (a, 1, S["C"]), (b, 1, S["C"]))
    if contraction is None:
        def contraction(S_: dict[str, Any], G_: sp.IndexedBase) -> sp.Expr:
            return sp.Sum(S_["X"][S_["q"], b] * G_[S_["n"], b], (b, 1, S_["C"]))
    return prove_steps(
        [Step("sum_ab G_ab dK_ab/dconj(X)_qn = (X G^T)_qn", lhs, contraction(S, G))],
        summary="chain rule through K = X^*X: dV/dX^* = X G(K)^T",
        part="every F (chain rule through K)",
        generality="symbolic N, C; every F differentiable in the entries of K (G_ab = "
                   "dF/dK_ab free at the point)",
        argument=["Wirtinger chain rule: dV/dconj(X)_qn = sum_ab dF/dK_ab dK_ab/dconj(X)_qn "
                  "for F holomorphic in the formal entries K_ab"])


#: The named potentials F(K) of the un_equivariant_flow_form checks, as functions of an
#: accessor ``k(i, j)`` for the entries of K (so that K can be the Gram sums or K + tD).
GRAM_POTENTIALS: dict[str, Callable[[Callable, dict[str, Any]], sp.Expr]] = {
    "Tr(AK)": lambda k, S: sp.Sum(sp.IndexedBase("A")[S["idx"][0], S["idx"][1]]
                                  * k(S["idx"][1], S["idx"][0]),
                                  (S["idx"][0], 1, S["C"]), (S["idx"][1], 1, S["C"])),
    "Tr(AKBK)": lambda k, S: sp.Sum(
        sp.IndexedBase("A")[S["idx"][0], S["idx"][1]] * k(S["idx"][1], S["idx"][2])
        * sp.IndexedBase("B")[S["idx"][2], S["idx"][3]] * k(S["idx"][3], S["idx"][0]),
        *[(i, 1, S["C"]) for i in S["idx"]]),
    "(Tr K)^2": lambda k, S: sp.Sum(k(S["idx"][0], S["idx"][0]), (S["idx"][0], 1, S["C"]))**2,
}


Direction = Callable[[sp.Expr, sp.Expr], sp.Expr]


def gram_gradient_any_size(
        name: str, direction: Callable[[dict[str, Any]], Direction] = gram_direction) -> Evidence:
    """``dV/dX^* = X G(K)^T`` for ``V = F(X^*X)``, F one of :data:`GRAM_POTENTIALS` with
    symbolic A, B, in symbolic size, entrywise.

    The left side is SymPy's derivative of ``V`` (sums over ``IndexedBase`` entries) with
    respect to ``conj(X)_qn``; the right side ``(X G^T)_qn = sum_ab G_ab D_ab`` is the
    derivative of ``F(K + tD)`` at ``t = 0`` with ``D = direction(S)`` (default
    :func:`gram_direction`), and ``sum_ab G_ab D_ab = sum_b X_qb G_nb`` for every G.
    """
    S = _gram_setting()
    F = GRAM_POTENTIALS[name]
    t = sp.Symbol("t")
    D = direction(S)
    lhs = sp.diff(F(S["gram"], S), S["Xb"][S["q"], S["n"]])
    rhs = sp.diff(F(lambda i, j: S["gram"](i, j) + t * D(i, j), S), t).subs(t, 0)
    a, b = S["idx"][:2]
    G = sp.IndexedBase("G")
    contraction = sp.Sum(G[a, b] * D(a, b), (a, 1, S["C"]), (b, 1, S["C"]))
    return prove_steps(
        [Step(f"dV/dconj(X)_qn = d/dt F(K + tD) at t = 0, F = {name}", lhs, rhs),
         Step("sum_ab G_ab D_ab = sum_b X_qb G_nb = (X G^T)_qn", contraction,
              sp.Sum(S["X"][S["q"], b] * G[S["n"], b], (b, 1, S["C"])))],
        summary=f"F = {name}: dV/dX^* = X G(K)^T", part=name,
        generality=f"symbolic N, C, symbolic A, B, the polynomial F = {name} (every F: part "
                   "'every F (chain rule through K)')",
        argument=["d/dt F(K + tD) at t = 0 is sum_ab dF/dK_ab D_ab (chain rule in one "
                  "variable)"])


def gram_invariance_any_size(
        rotated: Callable[[sp.MatrixSymbol, sp.MatrixSymbol], sp.MatrixExpr] | None = None
) -> Evidence:
    """U(N)-equivariance of ``X -> X Phi(X^*X)``, symbolic N, C: ``(PX)^*(PX) = X^*P^*PX``
    (``rotated(P, X)``, default ``X^* P^* P X``), which is ``X^*X`` when ``P^*P = I``; so
    ``(PX) Phi((PX)^*(PX)) = P (X Phi(X^*X))``."""
    N, C = sp.symbols("N C", integer=True, positive=True)
    P, X = sp.MatrixSymbol("P", N, N), sp.MatrixSymbol("X", N, C)
    Phi = sp.MatrixSymbol("Phi", C, C)
    H = sp.adjoint
    claimed = (H(X) * H(P) * P * X) if rotated is None else rotated(P, X)
    gram_px = (H(P * X) * (P * X)).doit()
    unitary = gram_px.subs(H(P) * P, sp.Identity(N))
    return prove_steps(
        [Step("(PX)^*(PX) = X^* P^* P X", gram_px, claimed),
         Step("with P^*P = I: (PX)^*(PX) = X^*X", unitary, H(X) * X),
         Step("(PX) Phi = P (X Phi)", (P * X) * Phi, P * (X * Phi))],
        summary="U(N)-equivariance: the Gram matrix is invariant, so X Phi(X^*X) -> "
                "P X Phi(X^*X)", part="U(N)-equivariance",
        generality="symbolic N, C, every unitary P (MatrixSymbol), every Phi",
        argument=["Phi is evaluated at the same Gram matrix for X and PX"])


# -- Lemma 4 (l. 106, 232-240): matrix-unit words --------------------------------------------


def _default_junction(b_prev: sp.Expr, a_next: sp.Expr) -> tuple[sp.Expr, sp.Expr]:
    """The entry ``K_{b_i a_{i+1}}`` that joins ``X E_{a_i b_i} X^*`` and the next factor."""
    return b_prev, a_next


def unit_trace_induction(
        junction: Callable[[sp.Expr, sp.Expr], tuple[sp.Expr, sp.Expr]] = _default_junction
) -> Evidence:
    """``Tr prod_{i=1}^m X E_{a_i b_i} X^* = prod_{i=1}^m K_{b_i a_{i+1}}`` (``a_{m+1} = a_1``,
    ``K = X^*X``) for every degree m and all indices in ``1..C``, symbolic N, C.

    The recipe's matrix-unit identity (Lemma 4, l. 232-240): by induction on m,
    ``P(m): prod_{i<=m} X E_{a_i b_i} X^* = (prod_{i<m} K_{b_i a_{i+1}}) X E_{a_1 b_m} X^*``.
    Steps proved entrywise with sums over ``IndexedBase`` entries: (R) ``(X E_ab X^*)_pq =
    X_pa conj(X)_qb`` (both orders of a, b in range); (S) the induction step
    ``c (X E_{a_1 b} X^*)(X E_{a' b'} X^*) = c K_{junction(b, a')} X E_{a_1 b'} X^*`` on
    entries; (T) the trace ``Tr(c X E_{a_1 b} X^*) = c K_{b a_1}``. ``junction`` gives the
    K entry the step claims (default ``K_{b a'}``).
    """
    r, s, u, v, w = sp.symbols("r s u v w", **_OFFSET)
    p, q, row, k, l = sp.symbols("p q r_ k l", integer=True)
    a1, b, a2, b2 = sp.symbols("a1 b a2 b2", integer=True)
    X, Xb = sp.IndexedBase("X"), sp.IndexedBase("Xb")
    N = sp.Symbol("N", integer=True, positive=True)
    c = sp.Symbol("c")

    def gram(i: sp.Expr, j: sp.Expr, rr: sp.Symbol = row) -> sp.Sum:
        return sp.Sum(Xb[rr, i] * X[rr, j], (rr, 1, N))

    steps = []
    for order, (al, be, C) in (("a <= b", (u + 1, u + 1 + v, u + 1 + v + w)),
                               ("a > b", (u + 2 + v, u + 1, u + 2 + v + w))):
        unit = sp.KroneckerDelta(k, al) * sp.KroneckerDelta(l, be)
        steps.append(Step(f"(R) (X E_ab X^*)_pq = X_pa conj(X)_qb, {order}",
                          sp.Sum(X[p, k] * unit * Xb[q, l], (k, 1, C), (l, 1, C)),
                          X[p, al] * Xb[q, be]))
    i, j = junction(b, a2)
    steps.append(Step("(S) c (X E_{a1 b} X^*)(X E_{a' b'} X^*) = c K_{b a'} X E_{a1 b'} X^* "
                      "(entry p, q)",
                      sp.Sum(c * X[p, a1] * Xb[row, b] * X[row, a2] * Xb[q, b2], (row, 1, N)),
                      c * gram(i, j) * X[p, a1] * Xb[q, b2]))
    steps.append(Step("(T) Tr(c X E_{a1 b} X^*) = c K_{b a1}",
                      sp.Sum(c * X[p, a1] * Xb[p, b], (p, 1, N)), c * gram(b, a1, p)))
    return prove_steps(
        steps, summary="Tr prod_i X E_{a_i b_i} X^* = prod_i K_{b_i a_{i+1}} for every degree",
        part="every monomial of K (any degree)",
        generality="every degree m, symbolic N, C, all indices in 1..C: every monomial "
                   "K_{c1 d1} ... K_{cm dm} = Tr prod_i X E_{d_{i-1} c_i} X^* (d_0 = d_m), so "
                   "every polynomial in the entries of K = X^*X (termwise every power series) "
                   "is Tr f(X W_1 X^*, ...) with W_i matrix units and f a noncommutative "
                   "polynomial",
        argument=["P(1) is (R); P(m) => P(m+1): multiply P(m) by X E_{a b} X^* and apply (S) to "
                  "the entries given by (R); the trace of P(m) is (T)",
                  "a monomial prod_i K_{c_i d_i} is the case a_i = d_{i-1}, b_i = c_i"])


def unit_trace_value(pairs: Sequence[tuple[sp.Expr, sp.Expr]],
                     K: sp.IndexedBase | None = None) -> sp.Expr:
    """``Tr prod_i X E_{a_i b_i} X^*`` for ``pairs = [(a_1, b_1), ...]`` as the product
    ``prod_i K_{b_i a_{i+1}}`` that :func:`unit_trace_induction` proves, K formal."""
    K = sp.IndexedBase("K") if K is None else K
    m = len(pairs)
    return sp.Mul(*[K[pairs[i][1], pairs[(i + 1) % m][0]] for i in range(m)])


def trace_square_any_size(lemma: Evidence) -> Evidence:
    """``(Tr K)^2 = sum_ab Tr(X E_ab X^* X E_ba X^*)`` in symbolic size, from the matrix-unit
    rule ``lemma`` (:func:`unit_trace_induction`)."""
    blocked = requires(lemma, "the matrix-unit trace rule", part="main")
    if blocked is not None:
        return blocked
    a, b = sp.symbols("a b", integer=True)
    C = sp.Symbol("C", integer=True, positive=True)
    K = sp.IndexedBase("K")
    tr_a, tr_b = sp.Sum(K[a, a], (a, 1, C)), sp.Sum(K[b, b], (b, 1, C))
    return prove_steps(
        [Step("Tr(X E_ab X^* X E_ba X^*) = K_aa K_bb (the rule at m = 2)",
              unit_trace_value([(a, b), (b, a)]), K[a, a] * K[b, b]),
         Step("sum_a K_aa K_bb = K_bb Tr K (b fixed)", sp.Sum(K[a, a] * K[b, b], (a, 1, C)),
              K[b, b] * tr_a),
         Step("sum_b K_bb Tr K = (Tr K)(Tr K)", sp.Sum(K[b, b] * tr_a, (b, 1, C)),
              tr_b * tr_a)],
        summary="(Tr K)^2 = sum_ab Tr(X E_ab X^* X E_ba X^*)",
        generality="symbolic N, C (K = X^*X; the matrix-unit rule proved for every degree)",
        argument=[f"matrix-unit rule: {lemma.summary}",
                  "summing step 2 over b gives the double sum; (Tr K)(Tr K) = (Tr K)^2 with the "
                  "bound variable renamed"])


def _quartic_setting() -> tuple[tuple[sp.Symbol, ...], list[tuple[sp.Symbol, int, sp.Symbol]],
                                sp.IndexedBase, sp.IndexedBase]:
    """The indices ``a, b, c, d`` of a quartic invariant ``sum T_abcd K_ab K_cd``, their
    limits ``1..C`` (C symbolic), the tensor ``T`` and ``K = X^*X`` (formal entries)."""
    idx = sp.symbols("a b c d", integer=True)
    C = sp.Symbol("C", integer=True, positive=True)
    return idx, [(i, 1, C) for i in idx], sp.IndexedBase("T"), sp.IndexedBase("K")


def quartic_invariant_any_size(lemma: Evidence) -> Evidence:
    """``sum T_abcd K_ab K_cd = sum T_abcd Tr(X E_da X^* X E_bc X^*)`` for a general tensor T,
    in symbolic size, from the matrix-unit rule ``lemma``."""
    part = "general quartic invariant"
    blocked = requires(lemma, "the matrix-unit trace rule", part=part)
    if blocked is not None:
        return blocked
    (a, b, c, d), lim, T, K = _quartic_setting()
    return prove_steps(
        [Step("sum T_abcd K_ab K_cd = sum T_abcd Tr(X E_da X^* X E_bc X^*)",
              sp.Sum(T[a, b, c, d] * K[a, b] * K[c, d], *lim),
              sp.Sum(T[a, b, c, d] * unit_trace_value([(d, a), (b, c)]), *lim))],
        summary="every quartic invariant sum T K K is a single trace", part=part,
        generality="symbolic N, C, every tensor T (degree 4; every degree: part 'every monomial "
                   "of K (any degree)')",
        argument=[f"matrix-unit rule: {lemma.summary}"])


# -- Theorem 5 (l. 244-256): quartic invariants as Def-4 heads -------------------------------


def _swap_pairs(S: sp.Sum, idx: Sequence[sp.Symbol]) -> sp.Sum:
    """The same finite sum with its bound variables renamed ``a <-> c, b <-> d`` and the
    limits put back in the order ``a, b, c, d`` (renaming and exchanging finite sums)."""
    a, b, c, d = idx
    renamed = S.xreplace({a: c, b: d, c: a, d: b})
    return renamed.reorder((0, 2), (1, 3))


def quartic_heads_any_size(
        lemma: Evidence,
        tied: Callable[[sp.IndexedBase, tuple], sp.Expr] | None = None) -> Evidence:
    """The field of a general quartic invariant ``V = sum T_abcd K_ab K_cd`` is
    ``sum_abcd tied(T, (a,b,c,d)) X E_bc X^* X E_da`` (default ``T_abcd + T_cdab``): Def-4 heads
    with tied parameters, symbolic N, C (Theorem 5's proof, l. 254).

    Steps: (1) ``K_ab K_cd = Tr(X E_da X^* X E_bc X^*)`` (the matrix-unit rule ``lemma``);
    (2) Lemma 3's key identity ``d/dX^* Tr(XAX^*XBX^*) = XBX^*XA + XAX^*XB`` in symbolic size
    (MatrixSymbols, :func:`~proofs.toef.linearized.trace_grad_conj`) with ``A = E_da``,
    ``B = E_bc``, i.e. ``H_abcd + H_cdab`` with ``H_abcd = X E_bc X^* X E_da``; (3) summing
    over a, b, c, d with weights T and renaming ``a <-> c, b <-> d`` in the second sum.
    """
    from ..linearized import KEY_WORD, matrix_letters, trace_grad_conj  # no claims registered early

    part = "(A) quartic invariants give heads of Definition 4"
    blocked = requires(lemma, "the matrix-unit trace rule", part=part)
    if blocked is not None:
        return blocked
    idx, lim, T, K = _quartic_setting()
    a, b, c, d = idx
    H = sp.IndexedBase("H")
    m = matrix_letters()
    X, Xs = m["X"], m["Xs"]

    def E(i: sp.Symbol, j: sp.Symbol) -> sp.MatrixSymbol:
        return sp.MatrixSymbol(f"E_{i}{j}", *m["A"].shape)

    def head(i: sp.Symbol, j: sp.Symbol, k: sp.Symbol, l_: sp.Symbol) -> sp.MatrixExpr:
        return X * E(j, k) * Xs * X * E(l_, i)

    key = trace_grad_conj(KEY_WORD, {**m, "A": E(d, a), "B": E(b, c)})
    if tied is None:
        def tied(T_: sp.IndexedBase, ix: tuple) -> sp.Expr:
            i, j, k, l_ = ix
            return T_[i, j, k, l_] + T_[k, l_, i, j]
    field = (sp.Sum(T[a, b, c, d] * H[a, b, c, d], *lim)
             + _swap_pairs(sp.Sum(T[a, b, c, d] * H[c, d, a, b], *lim), idx))
    return prove_steps(
        [Step("(1) K_ab K_cd = Tr(X E_da X^* X E_bc X^*)", unit_trace_value([(d, a), (b, c)]),
              K[a, b] * K[c, d]),
         Step("(2) d/dX^* Tr(X E_da X^* X E_bc X^*) = H_abcd + H_cdab", key,
              head(a, b, c, d) + head(c, d, a, b)),
         Step("(3) sum T_abcd (H_abcd + H_cdab) = sum tied_abcd H_abcd (renaming a <-> c, "
              "b <-> d in the second sum)", field, sp.Sum(tied(T, idx) * H[a, b, c, d], *lim))],
        summary="field of sum T K K = sum (T + T^swap)_abcd X E_bc X^* X E_da", part=part,
        generality="symbolic N, C, every tensor T: every quartic invariant's field is a sum of "
                   "heads of Definition 4 with paired, tied parameters",
        argument=[f"matrix-unit rule: {lemma.summary}",
                  "d/dX^* is linear, so the field of sum_abcd T_abcd Tr(...) is "
                  "sum_abcd T_abcd (H_abcd + H_cdab) by (1) and (2)"])


# -- Lemma 8 (l. 134-138, 266-290): the BCH gate --------------------------------------------


def _d_ds(expr: sp.Expr, s: sp.Symbol, rules: dict[sp.Symbol, sp.Expr]) -> sp.Expr:
    """``d/ds`` of a noncommutative polynomial by the product rule: commutative coefficients
    are differentiated by SymPy, each letter by ``rules`` (letters absent from it are
    constant)."""
    out = sp.Integer(0)
    for term in sp.Add.make_args(sp.expand(expr)):
        cpart, ncpart = term.args_cnc()
        coef = sp.Mul(*cpart)
        letters: list[sp.Expr] = []
        for f in ncpart:
            base, ex = f.as_base_exp()
            if not (ex.is_Integer and ex > 0):
                raise ValueError(f"factor {f} is not a positive power of a letter")
            letters += [base] * int(ex)
        out += sp.diff(coef, s) * sp.Mul(*letters)
        for i, f in enumerate(letters):
            out += coef * sp.Mul(*letters[:i]) * rules.get(f, 0) * sp.Mul(*letters[i + 1:])
    return sp.expand(out)


def _rewrite(expr: sp.Expr, pattern: sp.Expr, image: sp.Expr, limit: int = 20) -> sp.Expr:
    """Apply ``pattern -> image`` to a noncommutative polynomial until nothing changes."""
    for _ in range(limit):
        new = sp.expand(expr.subs(pattern, image))
        if new == expr:
            return new
        expr = new
    raise ValueError("rewriting did not terminate")


def bch_gate_any_size(gate: Callable[[sp.Expr], sp.Expr],
                      beta: sp.Symbol | None = None) -> Evidence:
    """``e^X e^Y = e^(X + G(beta) Y)`` for all square X, Y of every size with
    ``[X, Y] = beta Y`` (Lemma 8, l. 136), ``G = gate``, real ``beta != 0``.

    Noncommutative letters ``X, Y`` and ``Ep = e^{sX}``, ``Em = e^{-sX}``,
    ``Z = e^{s(X + cY)}`` with ``d Ep/ds = X Ep``, ``d Em/ds = -Em X``, ``dZ/ds = (X + cY) Z``:
    (1) ``f = Em Y Ep`` has ``f' = -beta f`` under ``XY = YX + beta Y``, so (uniqueness, with
    ``e^{-beta s} Y`` solving the same problem) ``Em Y = e^{-beta s} Y Em``; (2) ``U = Em Z``
    has ``U' = c e^{-beta s} Y U``; (3) so does ``exp(phi(s) Y)`` with
    ``phi = c (1 - e^{-beta s})/beta``, and both start at I, so ``e^{-X} e^{X + cY} =
    exp(phi(1) Y)``; (4) ``phi(1) = 1`` at ``c = G(beta)``.
    """
    Xl, Yl, Ep, Em, Z = sp.symbols("X Y Ep Em Z", commutative=False)
    b = sp.Symbol("beta", real=True, nonzero=True) if beta is None else beta
    s, c = sp.symbols("s c", real=True)
    rules = {Ep: Xl * Ep, Em: -Em * Xl, Z: (Xl + c * Yl) * Z}
    f = Em * Yl * Ep
    df = _rewrite(_d_ds(f, s, rules), Xl * Yl, Yl * Xl + b * Yl)
    decay = sp.exp(-b * s)
    dU = _rewrite(_d_ds(Em * Z, s, rules), Em * Yl, decay * Yl * Em)
    phi = c * (1 - sp.exp(-b * s)) / b
    return prove_steps(
        [Step("(1) f = e^{-sX} Y e^{sX}: f' = -beta f under [X, Y] = beta Y", df, -b * f),
         Step("(1') e^{-beta s} Y: derivative = -beta times itself", sp.diff(decay, s),
              -b * decay),
         Step("(2) U = e^{-sX} e^{s(X+cY)}: U' = c e^{-beta s} Y U (by (1))", dU,
              c * decay * Yl * Em * Z),
         Step("(3) phi = c (1 - e^{-beta s})/beta: phi' = c e^{-beta s}", sp.diff(phi, s),
              c * decay),
         Step("(3') phi(0) = 0", phi.subs(s, 0), 0),
         Step("(4) phi(1) = 1 at c = G(beta)", phi.subs({s: 1, c: gate(b)}), 1)],
        summary="e^X e^Y = e^(X + G(beta) Y) whenever [X, Y] = beta Y",
        generality="every matrix size, all complex X, Y with [X, Y] = beta Y, every real "
                   "beta != 0 (noncommutative letters; the argument needs only e^beta != 1)",
        argument=["d/ds e^{sA} = A e^{sA} = e^{sA} A; product rule on the letters",
                  "(1): f and e^{-beta s} Y solve f' = -beta f, f(0) = Y, so they are equal "
                  "(uniqueness for linear ODEs); then Em Y = e^{-beta s} Y Em",
                  "(2), (3): U and exp(phi Y) solve W' = c e^{-beta s} Y W, W(0) = I "
                  "(phi(s) Y commutes with phi'(s) Y), so U(1) = e^{-X} e^{X+cY} = "
                  "exp(phi(1) Y); with (4), e^{X + G Y} = e^X e^Y"])


def bch_gate_every_degree(gate: Callable[[sp.Expr], sp.Expr]) -> Evidence:
    """Every degree n of the BCH series reduced by ``[X, Y] = beta Y`` (l. 276-286): its
    value on the faithful 2x2 representation ``X = diag(beta, 0)``, ``Y = E_12`` is
    ``X + g_{n-1} beta^{n-1} Y`` for n >= 2, ``g_k`` the Taylor coefficients of ``gate``.

    The series is the formal ``log(e^X e^Y)`` (how :func:`verify.symbolic.bch` computes it).
    Evaluating at ``tX, tY`` is a homomorphism into 2x2 matrices of formal power series in t
    that sends the degree-n part to ``t^n`` times its value, and exp is a bijection from
    ``t M_2[[t]]`` to ``I + t M_2[[t]]`` whose inverse is that log series. So the image of the
    series is the unique ``Z(t)`` with ``Z(0) = 0`` and ``exp Z(t) = e^{tX} e^{tY}``; the
    steps check that ``Z(t) = tX + t G(t beta) Y`` is it, exactly.
    """
    t, b = sp.symbols("t beta", real=True, nonzero=True)
    Xr, Yr = sp.Matrix([[b, 0], [0, 0]]), sp.Matrix([[0, 1], [0, 0]])
    M = (t * Xr).exp() * (t * Yr).exp()
    Zt = t * Xr + t * gate(t * b) * Yr
    return prove_steps(
        [Step("e^{tX} e^{tY} = [[e^{t beta}, t e^{t beta}], [0, 1]]", M,
              sp.Matrix([[sp.exp(t * b), t * sp.exp(t * b)], [0, 1]])),
         Step("exp(tX + t G(t beta) Y) = e^{tX} e^{tY}", Zt.exp(), M),
         Step("[X, Y] = beta Y on the representation", Xr * Yr - Yr * Xr, b * Yr)],
        part="BCH series reduced by the relation",
        summary="log(e^{tX} e^{tY}) = tX + t G(t beta) Y on the 2x2 representation",
        generality="every degree n of the BCH series, in the 2-dim Lie algebra [X, Y] = beta Y "
                   "(faithful 2x2 representation), real beta: degree n gives "
                   "G^(n-1)(0)/(n-1)! beta^(n-1) Y",
        argument=["t G(t beta) is analytic at t = 0 and vanishes there (G(0) = 1), so Z(0) = 0",
                  "the t^n coefficient of t G(t beta) is G^(n-1)(0)/(n-1)! beta^(n-1): the Y "
                  "coefficient of the degree-n part; the X entry tX has no term above degree 1"])

"""Sec. 3.2 of the paper (Axioms 1-3, Lemma 4), symbolically: which invariant potentials the
canonical form ``Tr f(X W_1 X^*, ..., X W_n X^*)`` represents, and the form of the flow of a
U(N)-invariant potential. The axioms' numeric checks (centralizers, Gram dependence, Lemma 4's
sufficiency and double commutant) are in ``numerics/toef/axioms.py``.
"""

from __future__ import annotations

from collections.abc import Iterator

import sympy as sp

import verify
from verify import Verdict
from verify.symbolic import prove_equal, refute_exactly, wirtinger_conj

from .model import PAPER, matrix_unit, quartic_tensor, symbol_matrix, token_matrix
from .model.anysize import (
    GRAM_POTENTIALS,
    gram_chain_rule_any_size,
    gram_gradient_any_size,
    gram_invariance_any_size,
    quartic_invariant_any_size,
    trace_square_any_size,
    unit_trace_induction,
)


def _gram_potentials(N: int, C: int) -> Iterator[tuple[str, sp.Expr, sp.Matrix, sp.Matrix]]:
    """Examples ``V = F(K)``, ``K = X^*X``, with their formal gradients ``G_ab = dF/dK_ab``:
    yields ``(name of F, V(X), X G(K)^T, X)``."""
    X = token_matrix(N, C)
    Kf = symbol_matrix(C, C, "K")
    A, B = symbol_matrix(C, C, "a"), symbol_matrix(C, C, "b")
    polys = {"Tr(AK)": (A * Kf).trace(), "Tr(AKBK)": (A * Kf * B * Kf).trace(),
             "(Tr K)^2": Kf.trace() ** 2}
    K = X.H * X
    at_gram = {Kf[a, b]: K[a, b] for a in range(C) for b in range(C)}
    for name, F in polys.items():
        G = sp.Matrix(C, C, lambda a, b, F=F: sp.diff(F, Kf[a, b])).subs(at_gram)
        yield name, F.subs(at_gram), X * G.T, X


@verify.claim(
    "toef.un_equivariant_flow_form", paper=PAPER,
    where="derived from Axiom 2 (L104, L220); used in Theorem 5 (L244-256)",
    statement=r"V(X)=F(X^*X)\Rightarrow\partial V/\partial X^*=X\,G(K)^\top,\ G_{ab}="
              r"\partial F/\partial K_{ab};\ \text{the flow }X\mapsto X\Phi(X^*X)\text{ is }"
              r"U(N)\text{-equivariant}",
    kind="identity", expect="PROVED",
    readings={"B": "causally masked (lower-triangular) linear attention also has this form"},
)
def un_equivariant_flow_form(ctx):
    """PROVED in symbolic size N x C: for every F, ``sum_ab dF/dK_ab dK_ab/dconj(X)_qn =
    (X G^T)_qn`` (the chain rule through K = X^*X, :func:`.model.anysize.gram_chain_rule_any_size`);
    for F = Tr(AK), Tr(AKBK), (Tr K)^2 with symbolic A, B the entrywise derivative of V itself
    (:func:`.model.anysize.gram_gradient_any_size`); the equivariance from ``(PX)^*(PX) = X^*X``
    (:func:`.model.anysize.gram_invariance_any_size`). The same F are checked entrywise at N = C = 2
    with explicit matrices; the equivariance of eq. (4) and the causal-mask counterexample
    (reading B) numerically."""
    out = [gram_chain_rule_any_size(), gram_invariance_any_size()]
    out += [gram_gradient_any_size(name) for name in GRAM_POTENTIALS]
    out += [
        prove_equal(wirtinger_conj(V, X), rhs).relabel(
            part=name, generality=f"N=2, C=2, the polynomial F = {name} with symbolic A, B "
                                  "(an instance of the symbolic-size proof)",
            prefix=f"F = {name}")
        for name, V, rhs, X in _gram_potentials(2, 2)
    ]
    return out


@verify.claim(
    "toef.lemma4_canonical_form", paper=PAPER,
    where="Lemma 4, L106; appendix L212; sketch L108; proof L218, L232-240",
    statement=r"\text{Under Axioms 1-3, }V(X)=\mathrm{Tr}f(XW_1X^*,\dots,XW_nX^*)\text{ for some "
              r"analytic spectral }f\text{ and some }W_1,\dots,W_n\in\mathbb C^{C\times C}",
    kind="identity", expect="PROVED", quantifier="exists",
    readings={"w2-f1": r"(f1) with the $W_i$ of Axiom 3 for the given V (w2): e.g. $W\propto I$",
              "w2-f2": r"(f2) with the $W$ of Axiom 3 for the given V (w2): $f$ a spectral "
                       r"function of the one matrix argument $XWX^*$"},
)
def lemma4_canonical_form(ctx):
    """A (as printed: "some" W_i -- the list's (w1) -- f a noncommutative power series): with
    matrix units,
    Tr(X E_ab X^* X E_cd X^*) = K_bc K_da, so every polynomial in the entries of K = X^*X --
    e.g. (Tr K)^2 = sum_ab Tr(X E_ab X^* X E_ba X^*) and a general T_abcd K_ab K_cd -- is a
    single trace. PROVED for every degree in symbolic size N, C by induction on the degree
    (:func:`.model.anysize.unit_trace_induction`: Tr prod_i X E_{a_i b_i} X^* = prod_i
    K_{b_i a_{i+1}}), and entrywise at C = 2, N = 2. That an A1-A3 potential is a series in
    the entries of K is Axiom 2's Gram dependence (toef.axiom2_gram_dependence), taken from
    there. w2-f1 / w2-f2 (the list's readings (w2) of the W_i with (f1) / (f2) of f): with
    W = I (G = U(C)), Tr f(XX^*) = sum_k f(mu_k) is additively separable in
    the eigenvalues of XX^*, but (Tr K)^2 = (mu_1 + mu_2)^2 has mixed partial 2: not
    representable (REFUTED, N = C = 2). Every reading is existential ("for some f and some
    W_i", for each V): A holds by its witness, the matrix units W_i = E_ab with f the trace
    word; w2-f1 and w2-f2 are refuted by the proof that no f exists for (Tr K)^2 at W = I."""
    units = unit_trace_induction()
    if units.verdict is Verdict.PROVED:
        units.witness = {"W_i": "the matrix units E_ab", "f": "the trace word Tr prod_i X E_{a_i "
                         "b_i} X^* = prod_i K_{b_i a_{i+1}} of each monomial in K = X^*X"}
    out = [units, trace_square_any_size(units), quartic_invariant_any_size(units)]
    X = token_matrix(2, 2)
    K = X.H * X

    def E(i: int, j: int) -> sp.Matrix:
        return matrix_unit(2, i, j)

    rhs = sum((X * E(a, b) * X.H * X * E(b, a) * X.H).trace() for a in range(2) for b in range(2))
    out.append(prove_equal(sp.expand(K.trace() ** 2), sp.expand(rhs)).relabel(
        generality="N=2, C=2, the quartic (Tr K)^2 (explicit entries; every size: the "
                   "symbolic-size proof)", scope="bounded",
        prefix="(Tr K)^2 = sum_ab Tr(X E_ab X^* X E_ba X^*)"))
    T = quartic_tensor(2)
    lhs = sum(T[(a, b, c, d)] * K[a, b] * K[c, d] for a, b, c, d in T)
    rhs2 = sum(T[(a, b, c, d)] * (X * E(d, a) * X.H * X * E(b, c) * X.H).trace()
               for a, b, c, d in T)
    out.append(prove_equal(sp.expand(lhs), sp.expand(rhs2)).relabel(
        part="general quartic invariant",
        generality="N=2, C=2, every quartic invariant sum T K K (explicit entries; every "
                   "size and degree: the symbolic-size proofs)", scope="bounded",
        prefix="sum T_abcd K_ab K_cd = sum T_abcd Tr(X E_da X^* X E_bc X^*)"))
    m1, m2 = sp.symbols("mu1 mu2", positive=True)
    mixed = sp.diff((m1 + m2) ** 2, m1, m2)
    for reading in ("w2-f1", "w2-f2"):
        out.append(refute_exactly(
            "W = I: Tr f(XX^*) = f(mu1) + f(mu2) has zero mixed partial, (Tr K)^2 = "
            "(mu1+mu2)^2 has mixed partial 2", {"N": 2, "C": 2, "W": "I", "V": "(Tr X^*X)^2"},
            lhs=mixed, rhs=0, reading=reading, nonexistence=True))
    return out

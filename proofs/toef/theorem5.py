"""Sec. 3.3 of the paper (Theorem 5, Lemma 6), symbolically: the quartic invariants as Def-4
heads, the phase argument for minimality, and the width arithmetic of Lemma 6. The truncation
rate, the MLP fusion width and the softmax potential's invariance are numeric
(``numerics/toef/theorem5.py``).
"""

from __future__ import annotations

import sympy as sp

import verify
from verify import Evidence, Verdict
from verify.symbolic import prove_cases, prove_equal, refute_exactly, wirtinger_conj

from .model import PAPER, matrix_unit, quartic_tensor, token_matrix
from .model.anysize import quartic_heads_any_size, unit_trace_induction


@verify.claim(
    "toef.thm5_minimal_interaction", paper=PAPER,
    where="Theorem 5, L110; restated L244; proof L246-256; L112",
    statement=r"\text{Under Axioms 1, 2, 3, Definition 4 is the minimal nontrivial interaction "
              r"ODE.}",
    kind="identity", expect="PROVED",
    readings={"B": "every instance of eq. (4), with untied parameters, is the flow of such a V",
              "C": "minimality: under A1-A3 no non-constant invariant term has degree below the "
                   "quadratic one, and none lies strictly between quadratic and quartic (odd or "
                   "unequal bidegrees in X, conj X)",
              "D": "'optimal' in the sense of Definition 3 (the flow extremizes the action)"},
)
def thm5_minimal_interaction(ctx):
    """A (every V satisfying A1-A3, truncated at quartic order, has a flow of the form (4) for
    some, possibly tied, parameters): a general (2,2) invariant sum T_abcd K_ab K_cd (C = 2,
    16 symbols) has field X G^T = sum (T + T^swap)_abcd X E_bc X^* X E_da, a sum of Def-4
    heads with paired/tied parameters: PROVED in symbolic size N, C from the matrix-unit rule
    K_ab K_cd = Tr(X E_da X^* X E_bc X^*), Lemma 3's key identity (symbolic size) and a
    renaming of the summation indices (:func:`.model.anysize.quartic_heads_any_size`), and entrywise
    at N = 2, C = 2. C (minimality): under
    X -> e^{i theta} X a monomial of bidegree (p, q) picks up e^{i(p-q)theta}, whose average
    vanishes unless p = q, so the invariant terms have bidegree (1,1), (2,2), ... and degree
    0, 2, 4, ...: nothing below quadratic and nothing between quadratic and quartic (PROVED for
    every bidegree). B: the untied single head A = E_11, B = E_12 at N = 1, C = 2 is not closed
    (exact witness), so it is the flow of no potential (REFUTED). D is the statement of
    toef.def3_structural_optimality and is decided there."""
    N, C = 2, 2
    X = token_matrix(N, C)
    K = X.H * X
    T = quartic_tensor(C)
    V = sum(T[(a, b, c, d)] * K[a, b] * K[c, d] for a, b, c, d in T)
    heads = sp.zeros(N, C)
    for (a, b, c, d), t in T.items():
        heads += (t + T[(c, d, a, b)]) * X * matrix_unit(C, b, c) * X.H * X * matrix_unit(C, d, a)
    out = [quartic_heads_any_size(unit_trace_induction())]
    out.append(prove_equal(wirtinger_conj(V, X), heads).relabel(
        part="(A) quartic invariants give heads of Definition 4",
        generality="N=2, C=2, general T (explicit entries; every size: the symbolic-size proof)",
        prefix="field of sum T K K = sum of heads X E_bc X^* X E_da"))
    th = sp.Symbol("theta", real=True)
    k = sp.Symbol("k", integer=True, nonzero=True)  # k = p - q
    out.append(prove_cases(
        [("p != q", sp.integrate(sp.exp(sp.I * k * th), (th, 0, 2 * sp.pi)) / (2 * sp.pi), 0),
         ("p = q", sp.integrate(sp.Integer(1), (th, 0, 2 * sp.pi)) / (2 * sp.pi), 1)],
        generality="every bidegree (p, q): k = p - q a symbolic nonzero integer, and k = 0",
        scope="general", summary="phase average of e^{i(p-q)theta} is [p = q]", reading="C"))
    x0 = sp.Symbol("x0")
    xb0, xb1 = sp.symbols("xb0 xb1")
    # F = x A x^* x B with A = E_11, B = E_12 (N = 1): F = (x0 xb0) * (0, x0)
    F = [sp.Integer(0), x0 * xb0 * x0]
    J = sp.Matrix([[sp.diff(F[a], v) for v in (xb0, xb1)] for a in range(2)])
    out.append(refute_exactly(
        "untied head A = E_11, B = E_12 (N = 1, C = 2): dF_2/dxb_1 = x0^2 but dF_1/dxb_2 = 0, "
        "so eq. (4) is not a Wirtinger gradient",
        {"N": 1, "C": 2, "n": 1, "QK*": "E_11", "VO*": "E_12", "x": [1, 0]},
        lhs=J[1, 0].subs(x0, 1), rhs=J[0, 1].subs(x0, 1), reading="B"))
    out.append(Evidence.informal(
        "not checked here: 'optimal' in the sense of Definition 3 is the statement of "
        "toef.def3_structural_optimality, whose check finds the flow of a real V not stationary",
        reading="D"))
    return out


@verify.claim(
    "toef.lemma6_low_rank", paper=PAPER,
    where="Lemma 6, L114; restated L258; proof L260; L112",
    statement=r"\text{Under Axiom 4, if } n \text{ is sufficiently large, then } C_A\ll C"
              r"<C_\mathrm{MLP}",
    kind="identity", expect="PROVED",
    readings={"B": r"with $n=C/C_A$ (l. 122) and $C_\mathrm{MLP}=nC_A$ (l. 254)"},
)
def lemma6_low_rank(ctx):
    """With C_MLP := n C_A (l. 254) and C_A > 0: C < C_MLP iff n > C/C_A (exact inequality
    solving); C_A << C is Axiom 4 itself. PROVED for all positive C, C_A. Reading B: with
    n = C/C_A (l. 122), C_MLP = n C_A = C exactly, so C < C_MLP never holds (e.g. C = 2,
    C_A = 1, n = 2): REFUTED."""
    n, C, CA = sp.symbols("n C C_A", positive=True)
    sol = sp.solve(n * CA - C > 0, n)
    solved = sp.Piecewise((1, sol), (0, True)) - sp.Piecewise((1, n > C / CA), (0, True))
    main = prove_equal(sp.simplify(solved), 0).relabel(
        generality="all positive real C, C_A, n",
        prefix=f"C < n C_A solved for n: {sol}")
    C_mlp = sp.simplify((C / CA) * CA)
    if sp.Lt(C, C_mlp) is sp.false:
        heads_per_cone = Evidence(
            Verdict.REFUTED, f"n = C/C_A gives C_MLP = n C_A = {C_mlp} = C for every C, C_A, so "
            "C < C_MLP fails (e.g. C = 2, C_A = 1, n = 2, C_MLP = 2)", method="symbolic",
            reading="B", counterexample={"C": 2, "C_A": 1, "n": 2, "C_MLP": 2},
            generality="all positive C, C_A")
    else:
        heads_per_cone = Evidence.undecided(f"with n = C/C_A, C_MLP = {C_mlp}: C < C_MLP not "
                                            "decided", method="symbolic", reading="B")
    return [main, heads_per_cone]

"""Sec. 3.1 of the paper (Def. 4, Lemma 3), symbolically: the linearised Transformer (eq. 4)
as the Wirtinger gradient of the quadratic-plus-quartic trace potential, and what that
potential determines (abstract, l. 11).

Wirtinger derivatives of trace polynomials in symbolic size. ``X`` is an ``N x C``
``MatrixSymbol`` and ``Xs`` (``C x N``) stands for ``X^*``, an independent letter (the
Wirtinger convention of l. 196: "treat X and X^* as independent variables"). For a trace word
``V = Tr(w_1 ... w_m)``, the product rule and trace cyclicity give
``dV = sum_{p: w_p = Xs} Tr(dXs w_{p+1} ... w_m w_1 ... w_{p-1})``, so in the paper's layout
(``dV = Tr(dX^* G)``) ``dV/dX^* = sum_p w_{p+1} ... w_{p-1}`` (:func:`trace_grad_conj`).
SymPy's own ``diff`` with respect to a MatrixSymbol is not used: in SymPy 1.13 it returns 0 for
a sum of traces and recurses forever on adjoints. The layout is cross-checked entrywise
(``wirtinger_conj``) at explicit sizes (:func:`layout_check`).
"""

from __future__ import annotations

import itertools

import sympy as sp

import verify
from verify import Evidence, Verdict
from verify.symbolic import prove_equal, refute_exactly, wirtinger_conj

from .model import PAPER, symbol_matrix, token_matrix

#: A trace potential: ``[(coefficient, word)]`` with words over the letters of
#: :func:`matrix_letters`, e.g. ``(1, ["X", "W", "Xs"])`` for ``Tr(X W X^*)``.
TraceTerms = list[tuple[sp.Expr, list[str]]]

#: The C x C parameter letters of the Lemma-3 potentials.
PARAMETERS = ("A", "B", "W", "S", "Sh")

#: The key identity's potential ``Tr(X A X^* X B X^*)`` (proof of Lemma 3, l. 206-210).
KEY_WORD: TraceTerms = [(sp.Integer(1), ["X", "A", "Xs", "X", "B", "Xs"])]

_N, _C = sp.symbols("N C", integer=True, positive=True)


def matrix_letters(N: sp.Expr = _N, C: sp.Expr = _C) -> dict[str, sp.MatrixSymbol]:
    """The letters of the Lemma-3 potentials: X (N x C), Xs = X^* (C x N), C x C parameters."""
    out = {"X": sp.MatrixSymbol("X", N, C), "Xs": sp.MatrixSymbol("Xs", C, N)}
    for name in PARAMETERS:
        out[name] = sp.MatrixSymbol(name, C, C)
    return out


def trace_grad_conj(terms: TraceTerms, m: dict[str, sp.MatrixSymbol]) -> sp.MatrixExpr:
    """``dV/dX^*`` (N x C) of ``V = sum_t coef_t Tr(word_t)`` by the product rule and trace
    cyclicity (module docstring)."""
    out = []
    for coef, word in terms:
        for p, letter in enumerate(word):
            if letter == "Xs":
                rotated = word[p + 1:] + word[:p]
                out.append(coef * sp.MatMul(*[m[w] for w in rotated]))
    return sp.MatAdd(*out)


def _explicit_potential(terms: TraceTerms, N: int, C: int) -> tuple[sp.Expr, dict, sp.Matrix]:
    """The same potential with explicit symbol matrices and ``Xs = X^H``."""
    X = token_matrix(N, C)
    sub = {"X": X, "Xs": X.H}
    for name in PARAMETERS:
        sub[name] = symbol_matrix(C, C, name.lower())
    V = sp.Integer(0)
    for coef, word in terms:
        M = sp.eye(N)
        for w in word:
            M = M * sub[w]
        V += coef * M.trace()
    return V, sub, X


def layout_check(terms: TraceTerms, N: int, C: int, part: str, reading: str = "A") -> Evidence:
    """The entrywise Wirtinger derivative (``wirtinger_conj``) equals the symbolic-size formula
    :func:`trace_grad_conj` at the explicit size ``N x C``."""
    V, sub, X = _explicit_potential(terms, N, C)
    m = matrix_letters(N, C)
    G = trace_grad_conj(terms, m).doit()
    G_explicit = sp.Matrix(G.xreplace({m[k]: sub[k] for k in m}).doit())
    return prove_equal(wirtinger_conj(V, X), G_explicit).relabel(
        part=part, reading=reading, generality=f"N={N}, C={C}, entrywise d/d conj(X_jk)",
        prefix=f"layout check: entrywise Wirtinger derivative = trace-rule formula at "
               f"N={N}, C={C}")


@verify.claim(
    "toef.lemma3_wirtinger_linear_ffn", paper=PAPER,
    where="Lemma 3, linear part, L86-88; proof L200",
    statement=r"\partial\,\mathrm{Tr}(XWX^*)/\partial X^*=XW,\ W=W_\mathrm{in}W_\mathrm{out}^*",
    kind="identity", expect="PROVED",
)
def lemma3_wirtinger_linear_ffn(ctx):
    """PROVED in symbolic size (N x C MatrixSymbol X, X^* an independent letter, the trace rule
    of :func:`trace_grad_conj`), and entrywise with a fully symbolic complex W at N = 2, C = 3
    (quick) / N <= 3, C <= 3 (deep), which also checks the layout."""
    m = matrix_letters()
    out = [prove_equal(trace_grad_conj([(sp.Integer(1), ["X", "W", "Xs"])], m),
                       m["X"] * m["W"]).relabel(
        generality="all N, C (MatrixSymbol X, X^* an independent letter)", prefix="symbolic size")]
    for N, C in ctx.pick([(2, 3)], [(1, 1), (1, 3), (2, 2), (2, 3), (3, 3)]):
        X, W = token_matrix(N, C), symbol_matrix(C, C, "w")
        out.append(prove_equal(wirtinger_conj((X * W * X.H).trace(), X), X * W).relabel(
            generality=f"N={N}, C={C}, symbolic W (entrywise)", prefix=f"N={N}, C={C}"))
    return out


#: The witness family the paper's proof intends (W_B^* = V O^*): every paired parameter set.
WITNESS_PAIRED = {
    "n": "any even n", "heads": "any paired set: Q_iK_i^* = V_{i+n/2}O_{i+n/2}^*, "
    "Q_{i+n/2}K_{i+n/2}^* = V_iO_i^*", "W_MLP": "W_in W_out^*", "W_A_i": "Q_i K_i^*",
    "W_B_i": "O_i V_i^* (W_B_i^* = V_i O_i^*)"}
#: A witness that keeps the proof's own W_B = V O^*: paired heads with Hermitian V O^*.
WITNESS_HERMITIAN = {
    "n": "any even n", "heads": "paired, with V_iO_i^* Hermitian (V_iO_i^* = S + S^*)",
    "W_MLP": "W_in W_out^*", "W_A_i": "Q_i K_i^*", "W_B_i": "V_i O_i^* (as the proof, L210)"}


@verify.claim(
    "toef.lemma3_wirtinger_linear_attention", paper=PAPER,
    where="Lemma 3 and remark, L86-90; appendix L194-210",
    statement=r"n\text{ even}\Rightarrow\exists W_\mathrm{in},W_\mathrm{out},Q_i,K_i,V_i:\ "
              r"\text{eq. (4)}=\frac{\partial V}{\partial X^*},\ "
              r"V(X)=\mathrm{Tr}(XW_\mathrm{MLP}X^*)"
              r"+\tfrac1{\sqrt{C_A}}\sum_{i=1}^{n/2}\mathrm{Tr}(XW_{A_i}X^*XW_{B_i}^*X^*)",
    kind="existence", expect="PROVED", quantifier={"A": "exists", "A1": "exists"},
    readings={"A2": r"(A)(2) the proof's substitution (L210): $W_{A_i}=Q_iK_i^*$, "
                    r"$W_{B_i}=V_iO_i^*$ make $\partial V/\partial X^*$ equal eq. (4) for every "
                    r"parameter set with the pairing",
              "B2": r"(B)(2) $W_{B_i}^*=V_iO_i^*$ ($W_{B_i}=O_iV_i^*$), for every parameter set "
                    r"with the pairing",
              "A1": r"(A)(1) existential with the proof's own $W_{B_i}=V_iO_i^*$: paired heads "
                    r"whose $V_iO_i^*$ is Hermitian, so that $W_{B_i}=W_{B_i}^*$"},
    proof={"A2": r"$W_B=VO^*$ at L210 needs the star moved ($W_B^*=VO^*$)"},
)
def lemma3_wirtinger_linear_attention(ctx):
    """Reading A is Lemma 3 as stated (L86-88, L194-196): an existential, "there exists
    parameters W_in, W_out, Q_i, K_i, V_i" such that eq. (4) is dV/dX^* of the quadratic-plus-
    quartic trace potential. It holds by a witness (verify.combine, rule 7): every paired
    parameter set, with W = W_in W_out^*, W_{A_i} = Q_iK_i^* and W_{B_i}^* = V_iO_i^* (the star
    of the potential's W_B^* and of eq. (4) matched), gives dV/dX^* = eq. (4), PROVED in
    symbolic size; so does the proof's own W_{B_i} = V_iO_i^* on paired heads whose V_iO_i^* is
    Hermitian (V O^* = S + S^*), PROVED in symbolic size. The key identity the proof uses,
    d/dX^* Tr(XAX^*XBX^*) = XBX^*XA + XAX^*XB, is PROVED in symbolic size and checked entrywise
    (``wirtinger_conj``) at N = 2, C = 2 (quick) / N = 2, C = 3 (deep). The other readings
    carry the list's labels: its substitution A (W_B = V O^*) or B (W_B^* = V O^*) with its
    quantifier reading (1) existential or (2) every paired set. Reading A2 is the
    proof's substitution (L210) as it stands, a universal statement: W_{B_i} = V_iO_i^* with the
    pairing, for every paired set. It fails: N = C = 1, n = 2, Q K^* = 1, V O^* = i gives
    dV/dX^* = -2i|x|^2 x against eq. (4) = 2i|x|^2 x (REFUTED, exact): an erratum of the
    proof (its W_B needs the star moved, reading B2), not of the lemma, whose existence
    statement a wrong choice of parameters does not refute. Reading B2, W_B^* = V_iO_i^* for
    every paired set, is PROVED in symbolic size; reading A1, the existential with the proof's
    W_B and Hermitian V_iO_i^*, is PROVED in symbolic size. Symbolic size: N x C MatrixSymbol
    X, X^* an independent letter, dV/dX^* by :func:`trace_grad_conj`."""
    m = matrix_letters()
    X, Xs, A, B, W, S, Sh = (m[k] for k in ("X", "Xs", "A", "B", "W", "S", "Sh"))
    c = sp.Symbol("c")  # c = C_A^{-1/2}
    gen = "all N, C (MatrixSymbol X: N x C, X^* an independent letter; C_A^{-1/2} = c symbolic)"
    out = [
        prove_equal(trace_grad_conj(KEY_WORD, m), X * B * Xs * X * A + X * A * Xs * X * B)
        .relabel(part="key identity", generality=gen,
                 prefix="d/dX^* Tr(XAX^*XBX^*) = XBX^*XA + XAX^*XB"),
        layout_check(KEY_WORD, *ctx.pick((2, 2), (2, 3)), part="key identity"),
    ]
    # reading A2: the proof's W_B = V O^* with the pairing: heads (1, i) and (i, 1), N = C = 1
    x1 = sp.Symbol("x1")
    X1 = sp.Matrix([[x1]])
    a1, b1 = sp.Integer(1), sp.I
    eq4_1 = X1 * a1 * X1.H * X1 * b1 + X1 * b1 * X1.H * X1 * a1
    G1 = wirtinger_conj((X1 * a1 * X1.H * X1 * sp.conjugate(b1) * X1.H).trace(), X1)
    out.append(refute_exactly(
        r"the proof's $W_B=VO^*$ with $VO^*=i$ (N = C = 1, $QK^*=1$): "
        r"$\partial V/\partial X^*=-2i|x|^2x$ but eq. (4) $=2i|x|^2x$ (at x = 1: -2i vs 2i)",
        {"N": 1, "C": 1, "n": 2, "QK*": [1, "i"], "VO*": ["i", 1], "x": 1},
        lhs=G1.subs(x1, 1)[0, 0], rhs=eq4_1.subs(x1, 1)[0, 0]).relabel(reading="A2"))
    # V = Tr(XWX^*) + c Tr(X A X^* X W_B^* X^*) with W_B^* = V O^* = B; heads (A, B), (B, A)
    terms_b = [(sp.Integer(1), ["X", "W", "Xs"]), (c, ["X", "A", "Xs", "X", "B", "Xs"])]
    eq4 = X * W + c * (X * A * Xs * X * B + X * B * Xs * X * A)
    for reading, witness in (("A", WITNESS_PAIRED), ("B2", None)):
        out.append(prove_equal(trace_grad_conj(terms_b, m), eq4).relabel(
            reading=reading, generality=gen, witness=witness,
            prefix=r"paired heads, $W_B=OV^*$: $\partial V/\partial X^*$ = eq. (4)"))
    if not ctx.quick:
        out.append(layout_check(terms_b, 2, 2, part="main", reading="B2"))
    # the proof's W_B = V O^* = S + S^* (Hermitian), so W_B^* = Sh + S
    terms_d = [(sp.Integer(1), ["X", "W", "Xs"]), (c, ["X", "A", "Xs", "X", "Sh", "Xs"]),
               (c, ["X", "A", "Xs", "X", "S", "Xs"])]
    Bh = S + Sh
    eq4h = X * W + c * (X * A * Xs * X * Bh + X * Bh * Xs * X * A)
    for reading in ("A", "A1"):
        out.append(prove_equal(trace_grad_conj(terms_d, m), eq4h).relabel(
            reading=reading, generality=gen + ", V_i O_i^* = S + S^*", witness=WITNESS_HERMITIAN,
            prefix=r"the proof's $W_B=VO^*$ with Hermitian $VO^*=S+S^*$ gives eq. (4)"))
    return out


@verify.claim(
    "toef.uniqueness_of_potential", paper=PAPER, where="abstract, L11",
    statement=r"\text{a complex-valued Transformer with linear attention and linear feed-forward "
              r"residual blocks is uniquely determined by a potential field}",
    kind="identity", expect="PROVED",
    readings={"B": "the ODE determines V (up to an additive constant under Axiom 2)",
              "C": "V determines the parameters W_in, W_out, Q_i, K_i, V_i, O_i"},
)
def uniqueness_of_potential(ctx):
    """A: V -> dV/dX^* is a function; for the Lemma-3 potential it gives eq. (4) (PROVED in
    symbolic size by the trace rule, and entrywise at N = C = 2). B: V and V + g, g holomorphic
    (g = sum X_jk^2), have the same field exactly (so without Axiom 2 the ODE fixes V only up
    to a holomorphic g); under Axiom 2, g is invariant under the phases u I_N, which kills
    every homogeneous part of degree >= 1 (exact decomposition check, degree <= 3). C: the
    gauge (W_in G, W_out G^{-*}) leaves V unchanged: N = C = C_MLP = 1, W_in = 2, W_out = 1/2
    vs W_in = W_out = 1 give the same V (REFUTED)."""
    m = matrix_letters()
    Xm, Xs, Am, Bm, Wm = (m[k] for k in ("X", "Xs", "A", "B", "W"))
    terms = [(sp.Integer(1), ["X", "W", "Xs"]), (sp.Integer(1), ["X", "A", "Xs", "X", "B", "Xs"])]
    out = [prove_equal(trace_grad_conj(terms, m),
                       Xm * Wm + Xm * Bm * Xs * Xm * Am + Xm * Am * Xs * Xm * Bm).relabel(
        generality="all N, C (MatrixSymbol X, X^* an independent letter), symbolic parameters",
        prefix="V determines the field (eq. 4 with paired heads), symbolic size")]
    X = token_matrix(2, 2)
    A, B, W = (symbol_matrix(2, 2, name) for name in ("a", "b", "w"))
    V = (X * W * X.H).trace() + (X * A * X.H * X * B * X.H).trace()
    out.append(prove_equal(wirtinger_conj(V, X),
                           X * W + X * B * X.H * X * A + X * A * X.H * X * B).relabel(
        generality="N=2, C=2, symbolic parameters (entrywise layout check)",
        prefix="V determines the field, entrywise"))
    g = sum(e**2 for e in X)
    out.append(prove_equal(wirtinger_conj(V + g, X), wirtinger_conj(V, X)).relabel(
        reading="B", part="holomorphic ambiguity",
        generality="N=2, C=2 (g has no conj(X) at any size; the instance is what is checked)",
        prefix="V + sum X_jk^2 has the same field as V"))
    # Under Axiom 2 the ambiguity g (holomorphic: dg/dX^* = 0) is invariant under the scalar
    # unitaries P = u I_N, |u| = 1. Writing g(uX) = sum_k u^k g_k(X) (g_k homogeneous of
    # degree k), invariance on the unit circle forces g_k = 0 for k >= 1, i.e. g = g(0). Exact
    # check of the decomposition for a generic holomorphic polynomial of degree <= 3 on a 1 x 2 X.
    u = sp.Symbol("u")
    z = sp.symbols("z0 z1")
    monomials = [mo for d in range(4) for mo in itertools.combinations_with_replacement(z, d)]
    coefs = sp.symbols(f"g0:{len(monomials)}")
    gz = sum(cf * sp.Mul(*mo) for cf, mo in zip(coefs, monomials, strict=True))
    gu = sp.Poly(sp.expand(gz.subs({zi: u * zi for zi in z}, simultaneous=True)), u)
    homogeneous = [gu.coeff_monomial(u**k) for k in range(4)]
    out.append(prove_equal(sp.Matrix([sum(homogeneous), homogeneous[0]]),
                           sp.Matrix([gz, gz.subs({zi: 0 for zi in z})])).relabel(
        reading="B", part="under Axiom 2: only constants",
        generality="holomorphic polynomials of degree <= 3 on C^{1x2} (the phase argument is "
                   "size- and degree-free; SymPy checks the decomposition for one generic "
                   "polynomial)",
        prefix="g(uX) = sum_k u^k g_k(X): invariance for |u| = 1 leaves g = g_0 = g(0)"))
    x1 = sp.Symbol("x1")
    V1 = x1 * 2 * sp.conjugate(sp.Rational(1, 2)) * sp.conjugate(x1)
    V2 = x1 * 1 * 1 * sp.conjugate(x1)
    gauge = {"N": 1, "C": 1, "C_MLP": 1, "params_1": {"W_in": 2, "W_out": "1/2"},
             "params_2": {"W_in": 1, "W_out": 1}, "V": "|x|^2"}
    if sp.expand(V1 - V2) == 0:
        out.append(Evidence(Verdict.REFUTED, "W_in = 2, W_out = 1/2 and W_in = W_out = 1 give "
                            "the same V = |x|^2 (parameters not determined by V)",
                            method="symbolic", reading="C", counterexample=gauge))
    else:
        out.append(Evidence.undecided(f"the gauge pair gives different potentials {V1} and {V2}",
                                      method="symbolic", reading="C"))
    return out

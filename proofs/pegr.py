"""Symbolic claims of "Positional Encodings as Group Representations" (key ``pegr``).

Conventions (claims/pegr.md, Shared objects): ``R(a)`` is the 2x2 rotation of L170; ``vec`` is
column-major (reading A) or row-major (reading B); positions are group elements (X = G, reading A).
Every PROVED states its generality (symbolic angles / frequencies; concrete matrix sizes where
needed); every REFUTED carries an exact witness. Numeric cross-checks live in ``numerics/pegr``.
"""

from __future__ import annotations

import itertools
import math

import sympy as sp

import verify
from verify import Evidence, Verdict
from verify.symbolic import prove_equal

PAPER = "pegr"
I2 = sp.eye(2)


def R(a: sp.Expr) -> sp.Matrix:
    """``R(a)`` of L170."""
    return sp.Matrix([[sp.cos(a), -sp.sin(a)], [sp.sin(a), sp.cos(a)]])


def blockdiag(*ms: sp.Matrix) -> sp.Matrix:
    return sp.diag(*ms)


def vec_col(A: sp.Matrix) -> sp.Matrix:
    """Column-major vec (SymPy ``Matrix.vec()``)."""
    return A.T.reshape(A.rows * A.cols, 1)


def vec_row(A: sp.Matrix) -> sp.Matrix:
    return A.reshape(A.rows * A.cols, 1)


def smat(n: int, name: str) -> sp.Matrix:
    return sp.Matrix(n, n, lambda i, j: sp.Symbol(f"{name}{i}{j}", real=True))


def pe(lhs, rhs, summary: str, *, part: str = "main", reading: str = "A", generality: str | None = None,
       assumptions="real", timeout: float = 20.0) -> Evidence:
    """``prove_equal`` with labels (real symbols unless told)."""
    return prove_equal(lhs, rhs, assumptions=assumptions, timeout=timeout).relabel(
        part=part, reading=reading, generality=generality, prefix=summary)


def exact_refuted(summary: str, counterexample: dict, *, lhs, rhs, **kw) -> Evidence:
    """REFUTED after an exact re-check ``lhs - rhs != 0`` (SymPy, exact numbers)."""
    d = sp.simplify(sp.sympify(lhs) - sp.sympify(rhs))
    zero = d.is_zero_matrix if isinstance(d, sp.MatrixBase) else (d == 0)
    if zero:
        return Evidence(Verdict.UNDECIDED, f"witness did not re-check exactly: {summary}", method="symbolic", **kw)
    ce = dict(counterexample)
    ce["lhs"], ce["rhs"], ce["difference"] = str(lhs), str(rhs), str(d)
    return Evidence(Verdict.REFUTED, summary, method="symbolic", counterexample=ce, **kw)


a, b, t, s, x, y, th, ph, r = sp.symbols("alpha beta t s x y theta phi r", real=True)


# =========================================================================================
# A. Representation-theoretic framework
# =========================================================================================
@verify.claim(
    "pegr.rep.complete_reducibility", paper=PAPER, where="L23 + L41; hedged restatement L69",
    statement=r"\text{any group representation }\rho\text{ can be written as a direct product of irreps}",
    kind="identity", expect="REFUTED",
    readings={"B": "compact (or finite) G, finite-dim. continuous rho: rho = (+) irreps (Maschke / Peter-Weyl), L69",
              "C": "connective 'direct product' read as a tensor product of irreps"},
)
def complete_reducibility(ctx):
    """Reading A (every group of the paper, incl. T): REFUTED exactly by the unipotent representation
    ``rho(t) = [[1, t], [0, 1]]`` of T = (R, +) (also ``n -> M^n``, M = [[1,1],[0,1]], of (Z, +)): a
    homomorphism (PROVED), ``span(e1)`` is invariant, and the only invariant line is ``span(e1)``, so
    it has no invariant complement (SymPy solves ``rho(1) v = lam v`` exactly). Reading B (compact):
    PROVED on instances: SO(2) ``R(theta) (+) R(2 theta)`` (the block projector commutes), the S_3
    permutation representation (trivial (+) standard, projector onto (1,1,1) commutes with all six
    permutation matrices). Reading C (tensor product): REFUTED: the 3-dim permutation representation
    of S_3 cannot be a tensor product of S_3 irreps (dimensions 1, 1, 2; 3 is no product of them)."""
    out = []
    U = lambda u: sp.Matrix([[1, u], [0, 1]])  # noqa: E731
    out.append(pe(U(s + t), U(s) * U(t), "rho(t) = [[1,t],[0,1]] is a homomorphism of (R,+)",
                  part="counterexample is a representation", generality="symbolic s, t"))
    out.append(pe(U(t) * sp.Matrix([1, 0]), sp.Matrix([1, 0]), "span(e1) is invariant",
                  part="counterexample is a representation", generality="symbolic t"))
    p, q, lam = sp.symbols("p q lam")
    sols = sp.solve(list(U(1) * sp.Matrix([p, q]) - lam * sp.Matrix([p, q])), [p, q, lam], dict=True)
    lines = {sp.simplify(sol.get(q, q)) for sol in sols}
    if lines == {0}:
        out.append(exact_refuted(
            "T = (R,+), rho(t) = [[1,t],[0,1]]: span(e1) is invariant and is the only invariant line "
            "(eigenvectors of rho(1) all have q = 0), so it has no invariant complement: rho is not a direct "
            "sum of irreps", {"group": "(R,+) (also (Z,+) with M=[[1,1],[0,1]])", "rho(t)": "[[1,t],[0,1]]",
                              "invariant subspace": "span(e1)", "eigen-solutions of rho(1)": str(sols)},
            lhs=U(1) * sp.Matrix([0, 1]), rhs=sp.Matrix([0, 1]), generality="exact (SymPy solve)"))
    # reading B: compact instances
    rho2 = blockdiag(R(th), R(2 * th))
    Pblk = sp.diag(1, 1, 0, 0)
    out.append(pe(Pblk * rho2, rho2 * Pblk, "SO(2): R(theta)(+)R(2theta) splits (block projector commutes)",
                  reading="B", generality="symbolic theta"))
    perms = list(itertools.permutations(range(3)))
    Pm = [sp.Matrix(3, 3, lambda i, j, s_=sg: 1 if s_[j] == i else 0) for sg in perms]
    Ptriv = sp.ones(3, 3) / 3
    out.append(pe(sp.Matrix.vstack(*[Ptriv * M for M in Pm]), sp.Matrix.vstack(*[M * Ptriv for M in Pm]),
                  "S_3 on R^3 = trivial (+) standard (projector onto (1,1,1) commutes with all 6 elements)",
                  reading="B", generality="exhaustive over S_3"))
    out.append(Evidence(Verdict.REFUTED, "reading C (tensor product): dim 3 of the S_3 permutation rep is no product "
                        "of irrep dimensions {1, 1, 2}", method="symbolic", reading="C",
                        counterexample={"group": "S_3", "rep": "permutation rep on R^3", "irrep dims": [1, 1, 2],
                                        "products <= 3": sorted({1, 2})}))
    return out


@verify.claim(
    "pegr.pe.vec_rho_properties", paper=PAPER, where="L47; A.4 eqs. (17)-(19), L239-249; L271",
    statement=r"\|\gamma(x)\|^2=D,\quad \gamma(gx)=\mathrm{vec}(\rho(g)\rho(x))=(I\otimes\rho(g))\,\mathrm{vec}(\rho(x))",
    kind="identity", expect="PROVED",
    readings={"B": "vec is row-major (C order, torch's reshape(-1)), Kronecker order as printed (I (x) rho(g))",
              "A'": "column-major vec with the other Kronecker order, rho(g) (x) I",
              "B'": "row-major vec with the other Kronecker order, rho(g) (x) I"},
)
def vec_rho_properties(ctx):
    """(i) ``vec(A)^T vec(A) = tr(A^T A)`` for generic 3x3 A (both conventions) and ``= 2`` for ``R(theta)``.
    (ii) the four combinations (generic 3x3 A, B): column-major with ``I (x) A`` PROVED (reading A,
    as printed), row-major with ``A (x) I`` PROVED; row-major with ``I (x) A`` (reading B) and column-major
    with ``A (x) I`` REFUTED (exact 2x2 witnesses)."""
    A3, B3 = smat(3, "a"), smat(3, "b")
    out = [pe((vec_col(A3).T * vec_col(A3))[0], (A3.T * A3).trace(), "(i) |vec A|^2 = tr(A^T A), column-major",
              part="(i) constant norm", generality="generic 3x3"),
           pe((vec_row(A3).T * vec_row(A3))[0], (A3.T * A3).trace(), "(i) |vec A|^2 = tr(A^T A), row-major",
              part="(i) constant norm", generality="generic 3x3"),
           pe((vec_col(R(th)).T * vec_col(R(th)))[0], 2, "(i) |vec R(theta)|^2 = D = 2", part="(i) constant norm",
              generality="symbolic theta")]
    K = lambda M, order: sp.kronecker_product(sp.eye(M.rows), M) if order == "I(x)A" else sp.kronecker_product(M, sp.eye(M.rows))  # noqa: E731,E501
    out.append(pe(vec_col(A3 * B3), K(A3, "I(x)A") * vec_col(B3), "(ii) column-major, I (x) A (as printed)",
                  part="(ii) Kronecker trick", generality="generic 3x3"))
    out.append(pe(vec_row(A3 * B3), K(A3, "A(x)I") * vec_row(B3), "(ii') row-major, A (x) I",
                  part="(ii) other convention pairs", reading="B'", generality="generic 3x3"))
    A2 = sp.Matrix([[0, 1], [0, 0]])
    B2 = sp.Matrix([[0, 0], [1, 0]])
    out.append(exact_refuted("row-major vec with I (x) A fails: A=[[0,1],[0,0]], B=[[0,0],[1,0]]",
                             {"A": str(A2.tolist()), "B": str(B2.tolist()), "vec": "row-major", "kron": "I (x) A"},
                             lhs=vec_row(A2 * B2), rhs=K(A2, "I(x)A") * vec_row(B2), reading="B",
                             part="(ii) Kronecker trick", generality="2x2 exact"))
    out.append(exact_refuted("column-major vec with A (x) I fails: A=[[0,1],[0,0]], B=[[0,0],[1,0]]",
                             {"A": str(A2.tolist()), "B": str(B2.tolist()), "vec": "column-major", "kron": "A (x) I"},
                             lhs=vec_col(A2 * B2), rhs=K(A2, "A(x)I") * vec_col(B2), reading="A'",
                             part="(ii) other convention pairs", generality="2x2 exact"))
    return out


def _sinusoid_pieces(F: int) -> tuple[list[sp.Symbol], sp.Matrix, sp.Matrix, sp.Matrix]:
    al = sp.symbols(f"alpha1:{F + 1}", real=True)
    rho = lambda u: blockdiag(*[R(aj * u) for aj in al])  # noqa: E731
    gA = lambda u: sp.Matrix([v for aj in al for v in (sp.cos(aj * u), sp.sin(aj * u))])  # noqa: E731
    return list(al), rho, gA, None


@verify.claim(
    "pegr.T.sinusoidal_rep", paper=PAPER, where="Table 1 row 'Text / T' (L31); L49; A.2 L162",
    statement=r"\rho_T(s+t)=\rho_T(s)\rho_T(t),\ \gamma_T(x+t)=\rho_T(t)\gamma_T(x),\ "
              r"\gamma_T(x)^\top\gamma_T(y)=\sum_j\cos(\alpha_j(x-y)),\ e^{i\alpha(x+y)}=e^{i\alpha x}e^{i\alpha y}",
    kind="identity", expect="PROVED",
    readings={"B": "gamma_T(x) = vec(rho_T(x)) per frequency (L47): vec identity and inner product 2 sum cos"},
)
def T_sinusoidal_rep(ctx):
    """SymPy with symbolic frequencies and positions (F = 2 quick, 3 deep): homomorphism and
    orthogonality of ``rho_T = (+) R(alpha_j t)``, equivariance of the Table 1 form (A) and of the
    ``vec(R)`` form (B), the inner products ``sum cos`` (A) and ``2 sum cos`` (B), and the character
    identity with ``(Re, Im) e^{i alpha x} = (cos, sin)``. Valid for T = Z and T = R alike (symbols real).
    Float64 fuzzing with the Vaswani frequencies: numerics/pegr/claims_reps.py."""
    F = ctx.pick(quick=2, deep=3)
    al, rho, gA, _ = _sinusoid_pieces(F)
    gB = lambda u: sp.Matrix.vstack(*[vec_col(R(aj * u)) for aj in al])  # noqa: E731
    gen = f"symbolic alpha_1..alpha_{F}, x, y, s, t (real)"
    out = [pe(rho(s + t), rho(s) * rho(t), "(i) rho_T(s+t) = rho_T(s) rho_T(t)", part="(i)", generality=gen),
           pe(rho(t).T * rho(t), sp.eye(2 * F), "(i) rho_T orthogonal", part="(i)", generality=gen),
           pe(gA(x + t), rho(t) * gA(x), "(ii) gamma_T(x+t) = rho_T(t) gamma_T(x)", part="(ii)", generality=gen),
           pe((gA(x).T * gA(y))[0], sum(sp.cos(aj * (x - y)) for aj in al), "(iii) inner product", part="(iii)",
              generality=gen),
           pe(gB(x + t), sp.kronecker_product(sp.eye(1), blockdiag(*[sp.kronecker_product(I2, R(aj * t)) for aj in al]))
              * gB(x), "(ii) B: vec R(a(x+t)) = (I (x) R(a t)) vec R(a x)", part="(ii)", reading="B", generality=gen),
           pe((gB(x).T * gB(y))[0], 2 * sum(sp.cos(aj * (x - y)) for aj in al), "(iii) B: inner product 2 sum cos",
              part="(iii)", reading="B", generality=gen),
           pe(sp.exp(sp.I * a * (x + y)), sp.exp(sp.I * a * x) * sp.exp(sp.I * a * y), "(iv) e^{ia(x+y)} character",
              part="(iv)", generality="symbolic alpha, x, y"),
           pe(sp.Matrix([sp.re(sp.exp(sp.I * a * x)), sp.im(sp.exp(sp.I * a * x))]),
              sp.Matrix([sp.cos(a * x), sp.sin(a * x)]), "(iv)/(v) (Re, Im) e^{i a x} = (cos a x, sin a x)",
              part="(iv)", generality="symbolic alpha, x")]
    return out


@verify.claim(
    "pegr.TxT.sinusoidal_rep", paper=PAPER, where="Table 1 row 'Image / T x T' (L32); L49; D.2 L329-331",
    statement=r"\gamma_{T\times T}(p+t)=\rho(t)\gamma_{T\times T}(p),\ \chi(p+q)=\chi(p)\chi(q),\ "
              r"\gamma(p)^\top\gamma(q)=\sum_i\cos(\alpha^{(i)}\cdot(p-q))",
    kind="identity", expect="PROVED",
    readings={"B": "frequencies with the 2 pi factor of Tancik et al. (cos(2 pi alpha . p))"},
)
def TxT_sinusoidal_rep(ctx):
    """SymPy with one (quick) / two (deep) symbolic frequency vectors ``alpha^(i)`` (the identities are per
    frequency block and the blocks are independent, so 16 frequencies follow), positions p, q, t in R^2, without (A) and with (B) the 2 pi factor. Gram
    non-invariance under rotations (contrast measurement): numerics/pegr/claims_reps.py."""
    out = []
    n = ctx.pick(quick=1, deep=2)  # the identities are per frequency block; quick keeps the sympy cost ~2 s
    al = [sp.symbols(f"a{i}_1:3", real=True) for i in range(n)]
    p = sp.symbols("p1:3", real=True)
    q = sp.symbols("q1:3", real=True)
    tt = sp.symbols("t1:3", real=True)
    dot = lambda u, v: u[0] * v[0] + u[1] * v[1]  # noqa: E731
    for reading, sc in (("A", 1), ("B", 2 * sp.pi)):
        g = lambda u: sp.Matrix([w for ai in al for w in (sp.cos(sc * dot(ai, u)), sp.sin(sc * dot(ai, u)))])  # noqa: E731,B023,E501
        rho = blockdiag(*[R(sc * dot(ai, tt)) for ai in al])
        pt = [p[0] + tt[0], p[1] + tt[1]]
        gen = f"symbolic alpha^(1..{n}) in R^2 (per-frequency identities), p, q, t in R^2"
        out.append(pe(g(pt), rho * g(p), f"(i) gamma(p+t) = rho(t) gamma(p) [{'no 2pi' if sc == 1 else '2pi'}]",
                      part="(i)", reading=reading, generality=gen))
        pmq = [p[0] - q[0], p[1] - q[1]]
        out.append(pe((g(p).T * g(q))[0], sum(sp.cos(sc * dot(ai, pmq)) for ai in al), "(iii) inner product",
                      part="(iii)", reading=reading, generality=gen))
        chi = lambda u: sp.exp(sp.I * sc * dot(al[0], u))  # noqa: E731,B023
        out.append(pe(chi([p[0] + q[0], p[1] + q[1]]), chi(p) * chi(q), "(ii) chi(p+q) = chi(p) chi(q)",
                      part="(ii)", reading=reading, generality="symbolic alpha, p, q"))
    return out


@verify.claim(
    "pegr.abelian_irreps_1d", paper=PAPER, where="L49; A.2 L162",
    statement=r"\text{(a) complex irreps of abelian }T, T\times T\text{ are one-dimensional; (b) the group irreps are }"
              r"e^{i\alpha x}\text{ and }e^{i(\alpha_1x+\alpha_2y)}",
    kind="identity", expect="REFUTED",
    readings={"B": "(b) restricted to unitary irreps"},
)
def abelian_irreps_1d(ctx):
    """(a) The 2-dim real rep ``R(alpha t)`` of T splits over C: ``(1, -i)`` and ``(1, i)`` are common eigenvectors
    with eigenvalues ``e^{+-i alpha t}`` (PROVED, symbolic). (b) ``chi_z(x) = e^{z x}`` is a continuous
    homomorphism for every complex z (PROVED); reading A (every irrep is ``e^{i alpha x}``, alpha real) is
    REFUTED exactly by ``z = 1``: ``|chi(1)| = e != 1 = |e^{i alpha}|`` (also ``n -> 2^n`` on Z). Reading B
    (unitary): ``|e^{z x}| = 1`` for all x forces ``Re z = 0`` (from x = 1), so the unitary ``chi_z`` are
    exactly ``e^{i alpha x}`` (PROVED within the family chi_z; that every continuous character is some chi_z is
    the classical Cauchy-equation result, not re-proved here). Review: the REFUTED needs alpha real, which the
    paper's wording ("frequencies", L49, D.2) fixes; with complex alpha, e^{zx} = e^{i(-iz)x} and (b) holds."""
    out = [pe(R(a * t) * sp.Matrix([1, -sp.I]), sp.exp(sp.I * a * t) * sp.Matrix([1, -sp.I]),
              "(a) (1,-i) is a common eigenvector of R(alpha t), eigenvalue e^{i alpha t}", part="(a)",
              generality="symbolic alpha, t"),
           pe(R(a * t) * sp.Matrix([1, sp.I]), sp.exp(-sp.I * a * t) * sp.Matrix([1, sp.I]),
              "(a) (1,i): eigenvalue e^{-i alpha t}", part="(a)", generality="symbolic alpha, t")]
    z = sp.Symbol("z")
    out.append(pe(sp.exp(z * (x + y)), sp.exp(z * x) * sp.exp(z * y), "(b) e^{z x} is a homomorphism of (R,+)",
                  part="(b) family", generality="symbolic complex z, real x, y", assumptions={x: "real", y: "real"}))
    lhs = sp.Abs(sp.exp(sp.Integer(1)))
    out.append(exact_refuted("(b) chi(x) = e^x is a continuous 1-dim (so irreducible) complex rep of (R,+) not of "
                             "the form e^{i alpha x}: |chi(1)| = e, while |e^{i alpha}| = 1; on Z: n -> 2^n",
                             {"group": "(R,+)", "chi": "x -> e^x (z = 1)", "x": 1, "|chi(1)|": "E",
                              "Z version": "n -> 2^n"}, lhs=lhs, rhs=sp.Integer(1), part="(b) form",
                             generality="exact"))
    aa = sp.Symbol("a_", real=True)
    out.append(pe(sp.Abs(sp.exp((aa + sp.I * b) * 1)) ** 2, sp.exp(2 * aa),
                  "(b) B: |e^{z}|^2 = e^{2 Re z}, = 1 iff Re z = 0 (unitary chi_z = e^{i alpha x})",
                  part="(b) form", reading="B", generality="symbolic z = a + i b"))
    return out


@verify.claim(
    "pegr.onehot.permutation_rep", paper=PAPER, where="Table 1 row 'Any (learned embedding)' (L35); A.2 L180-182",
    statement=r"P(\sigma\tau)=P(\sigma)P(\tau),\ \mathbf 1_{\sigma x}=P(\sigma)\mathbf 1_x,\ \gamma(x_i)=W\mathbf 1_{x_i}",
    kind="identity", expect="PROVED",
    readings={"B": "the acting element g ranges over S_|X| (reading A: g in X = Z_N acting by the left-regular "
                   "permutation, X = G)",
              "B'": "opposite composition convention (sigma tau)(i) = tau(sigma(i))"},
)
def onehot_permutation_rep(ctx):
    """Exact integer matrices, exhaustive over S_N (N = 3 quick, 4 deep) via one stacked SymPy identity:
    ``P(sigma tau) = P(sigma) P(tau)`` with ``(sigma tau)(i) = sigma(tau(i))`` and ``1_{sigma x} = P(sigma) 1_x``
    (reading B); reading A: ``Z_N`` acting on itself by addition (left-regular permutations). The opposite
    composition convention gives an anti-homomorphism (reported as reading B', REFUTED by a 3-cycle and a
    transposition). ``W 1_{x_i} = w_i`` for symbolic W."""
    N = ctx.pick(quick=3, deep=4)
    perms = list(itertools.permutations(range(N)))
    P = lambda sg: sp.Matrix(N, N, lambda i, j: 1 if sg[j] == i else 0)  # noqa: E731
    comp = lambda s1, s2: tuple(s1[s2[i]] for i in range(N))  # noqa: E731
    e = lambda i: sp.Matrix(N, 1, lambda k, _: 1 if k == i else 0)  # noqa: E731
    L = sp.Matrix.vstack(*[P(comp(s1, s2)) for s1 in perms for s2 in perms])
    Rr = sp.Matrix.vstack(*[P(s1) * P(s2) for s1 in perms for s2 in perms])
    gen = f"exhaustive over S_{N} ({len(perms)**2} pairs), exact integers"
    out = [pe(L, Rr, "P(sigma tau) = P(sigma) P(tau)", part="homomorphism", reading="B", generality=gen),
           pe(sp.Matrix.vstack(*[e(sg[i]) for sg in perms for i in range(N)]),
              sp.Matrix.vstack(*[P(sg) * e(i) for sg in perms for i in range(N)]), "1_{sigma x} = P(sigma) 1_x",
              part="one-hot equivariance", reading="B", generality=gen)]
    reg = [tuple((g + i) % N for i in range(N)) for g in range(N)]
    out.append(pe(sp.Matrix.vstack(*[e((g + xx) % N) for g in range(N) for xx in range(N)]),
                  sp.Matrix.vstack(*[P(reg[g]) * e(xx) for g in range(N) for xx in range(N)]),
                  "X = Z_N acting on itself: 1_{g+x} = P(lambda_g) 1_x", part="one-hot equivariance",
                  generality=f"exhaustive, N = {N}"))
    out.append(pe(sp.Matrix.vstack(*[P(reg[(g + h) % N]) for g in range(N) for h in range(N)]),
                  sp.Matrix.vstack(*[P(reg[g]) * P(reg[h]) for g in range(N) for h in range(N)]),
                  "Z_N left-regular permutations are a homomorphism", part="homomorphism", generality=f"exhaustive, N = {N}"))
    W = sp.Matrix(2, N, lambda i, j: sp.Symbol(f"w{i}{j}"))
    out.append(pe(sp.Matrix.hstack(*[W * e(i) for i in range(N)]), W, "W 1_{x_i} = w_i (the i-th column)",
                  part="learned table", generality=f"symbolic W (2 x {N})"))
    s1, s2 = (1, 2, 0), (1, 0, 2)
    opp = tuple(s2[s1[i]] for i in range(3))
    out.append(exact_refuted("opposite convention (sigma tau)(i) = tau(sigma(i)): P(sigma tau) != P(sigma) P(tau)",
                             {"sigma": s1, "tau": s2, "convention": "(sigma tau)(i) = tau(sigma(i))"},
                             lhs=sp.Matrix(3, 3, lambda i, j: 1 if opp[j] == i else 0),
                             rhs=sp.Matrix(3, 3, lambda i, j: 1 if s1[j] == i else 0)
                             * sp.Matrix(3, 3, lambda i, j: 1 if s2[j] == i else 0),
                             reading="B'", part="composition convention"))
    return out


@verify.claim(
    "pegr.rope.representation", paper=PAPER, where="Table 1 row 'Text (spherical embedding) / SO(2)^{n/2}' (L36); "
    "A.2 L164-170",
    statement=r"R_\Theta(m+n)=R_\Theta(m)R_\Theta(n),\ R_\Theta(m)^\top R_\Theta(m)=I,\ \det R_\Theta(m)=1,\ "
              r"R_\Theta(m+t)v=R_\Theta(t)(R_\Theta(m)v)",
    kind="identity", expect="PROVED",
    readings={"B": "the group is SO(2)^{d/2} (Table 1): (phi_i) -> (+) R(phi_i) is a homomorphism",
              "C": "a representation of the position group (Z,+) with image in SO(2)^{d/2} in SO(d)",
              "D": "RoFormer relative property <R(m)q, R(n)k> = q^T R(n-m) k (Su et al., not in this paper)"},
)
def rope_representation(ctx):
    """SymPy, d = 6 (quick: d = 4), symbolic frequencies and positions m, n, t, symbolic q, k: (i) homomorphism,
    (ii) orthogonality and det = 1 (so the image lies in SO(d): reading A, the defining representation of
    SO(d) evaluated on R_Theta(m)), (iii) the equivariance with ``R(t alpha_i)`` on each coordinate pair,
    reading B (SO(2)^{d/2} homomorphism), reading D (relative property). Float64 fuzzing:
    numerics/pegr/claims_reps.py."""
    d = ctx.pick(quick=4, deep=6)
    al = sp.symbols(f"alpha1:{d // 2 + 1}", real=True)
    m, n = sp.symbols("m n", integer=True)
    RT = lambda u: blockdiag(*[R(u * ai) for ai in al])  # noqa: E731
    v = sp.Matrix(sp.symbols(f"v1:{d + 1}", real=True))
    q = sp.Matrix(sp.symbols(f"q1:{d + 1}", real=True))
    k = sp.Matrix(sp.symbols(f"k1:{d + 1}", real=True))
    gen = f"d = {d}, symbolic alpha_i, m, n, t, v, q, k"
    asm = "real"
    out = [pe(RT(m + n), RT(m) * RT(n), "(i) R(m+n) = R(m) R(n)", part="(i)", generality=gen, assumptions=asm),
           pe(RT(m).T * RT(m), sp.eye(d), "(ii) orthogonal", part="(ii)", generality=gen, assumptions=asm),
           pe(sp.simplify(RT(m).det()), 1, "(ii) det = 1", part="(ii)", generality=gen, assumptions=asm),
           pe(RT(m + t) * v, RT(t) * (RT(m) * v), "(iii) R(m+t) v = R(t) R(m) v", part="(iii)", generality=gen,
              assumptions=asm),
           pe((RT(m) * v)[0:2, 0], R(t * al[0]).T * (RT(m + t) * v)[0:2, 0],
              "(iii) coordinates (1,2) are rotated by R(t alpha_1)", part="(iii)", generality=gen, assumptions=asm)]
    phis = sp.symbols(f"phi1:{d // 2 + 1}", real=True)
    psis = sp.symbols(f"psi1:{d // 2 + 1}", real=True)
    out.append(pe(blockdiag(*[R(p_ + q_) for p_, q_ in zip(phis, psis, strict=False)]),
                  blockdiag(*[R(p_) for p_ in phis]) * blockdiag(*[R(q_) for q_ in psis]),
                  "B: SO(2)^{d/2} -> SO(d), (phi_i) -> (+) R(phi_i) is a homomorphism", reading="B", generality=gen))
    out.append(pe(RT(m + n), RT(m) * RT(n), "C: m -> R_Theta(m) is a representation of (Z,+)", reading="C",
                  generality=gen))
    out.append(pe(((RT(m) * q).T * (RT(n) * k))[0], (q.T * RT(n - m) * k)[0],
                  "D: <R(m)q, R(n)k> = q^T R(n-m) k", reading="D", generality=gen))
    return out


@verify.claim(
    "pegr.rope.frequency_formula", paper=PAPER, where="A.2 L170",
    statement=r"\alpha_i=10000^{\frac{2(i-1)}{d}}\ \text{(RoPE, Su et al. 2021)}",
    kind="identity", expect="REFUTED",
    readings={"B": "only 'the frequencies ... exponentially vary' (L170): alpha_{i+1}/alpha_i constant"},
)
def rope_frequency_formula(ctx):
    """Specification check: the printed ``alpha_i = 10000^{+2(i-1)/d}`` vs RoFormer's eq. (15)
    ``theta_i = 10000^{-2(i-1)/d}``. They differ exactly at d = 4, i = 2 (100 vs 1/100): REFUTED as a
    description of the cited RoPE. With the printed signs the step angles ``alpha_i mod 2 pi`` are
    scrambled and the long-term decay of ``q^T R(Delta) k / d`` (q = k = 1, d = 64) is lost (numbers).
    Reading B (exponential variation, ratio ``10000^{+-2/d}`` constant): PROVED for both signs."""
    d = 4
    printed = [sp.Integer(10000) ** sp.Rational(2 * (i - 1), d) for i in (1, 2)]
    roformer = [sp.Integer(10000) ** sp.Rational(-2 * (i - 1), d) for i in (1, 2)]
    out = [exact_refuted("d = 4: printed alpha = (1, 100), RoFormer theta = (1, 1/100)",
                         {"d": 4, "i": 2, "printed": [str(v) for v in printed], "roformer": [str(v) for v in roformer]},
                         lhs=sp.Matrix(printed), rhs=sp.Matrix(roformer), generality="exact, d = 4")]
    numbers = {}
    for dd in (8, 64, 128):
        pr = [10000 ** (2 * i / dd) for i in range(dd // 2)]
        rf = [10000 ** (-2 * i / dd) for i in range(dd // 2)]
        numbers[f"d={dd}"] = {"printed_range": [pr[0], pr[-1]], "roformer_range": [rf[0], rf[-1]],
                              "printed_mod_2pi_first4": [v % (2 * math.pi) for v in pr[:4]]}
    for name, sign in (("printed", 1), ("roformer", -1)):
        al = [10000 ** (sign * 2 * i / 64) for i in range(32)]
        numbers[f"decay_{name}"] = {str(D): 2 * sum(math.cos(D * ai) for ai in al) / 64 for D in (1, 10, 100, 1000)}
    out[0].numbers = numbers
    i, dd = sp.symbols("i d", positive=True)
    for sign in (1, -1):
        f = lambda j: sp.Integer(10000) ** (sign * 2 * (j - 1) / dd)  # noqa: E731,B023
        out.append(pe(sp.powsimp(f(i + 1) / f(i)), sp.Integer(10000) ** (sign * 2 / dd),
                      f"B: alpha_(i+1)/alpha_i = 10000^({'+' if sign > 0 else '-'}2/d)", reading="B",
                      generality="symbolic i, d", assumptions={"i": "positive", "d": "positive"}))
    return out


@verify.claim(
    "pegr.equivariant_maps_vs_reps", paper=PAPER, where="A.2 L172-178; L176",
    statement=r"\text{group representations are a special case of equivariant maps, because the image of }\rho"
              r"\text{ itself is a vector space; maps equivariant w.r.t. a unitary rep. keep property (1)}",
    kind="identity", expect="REFUTED",
    readings={"B": "rho takes values in the vector space End(V) (not: rho(G) is a vector space)"},
)
def equivariant_maps_vs_reps(ctx):
    """(a) ``rho(gh) = rho(g) rho(h)`` is equivariance of rho from left multiplication to ``A -> rho(g) A``
    (PROVED for SO(2), symbolic). (b) as printed, 'the image of rho itself is a vector space': REFUTED
    exactly, ``rho(SO(2))`` does not contain 0 (det 0 != 1) and ``R(0) + R(0) = 2I`` has det 4 (not a
    rotation); reading B (End(V) is a vector space, ``A -> rho(g) A`` linear): PROVED. (c) generalised
    Lemma A.1: for an orthogonal rho_V, ``<rho u, rho v> = <u, v>`` (PROVED for ``R(k phi)``, symbolic u, v);
    (d) RoPE and the SO(2)-Bessel PE are equivariant vectors: see pegr.rope.representation, pegr.so2pe.equivariance."""
    k = sp.Symbol("k", integer=True)
    out = [pe(R(k * (s + t)), R(k * s) * R(k * t), "(a) rho(g h) = rho(g) rho(h), i.e. rho(g . h) = g . rho(h)",
              part="(a)", generality="SO(2) reps R(k theta), symbolic")]
    Z = sp.zeros(2, 2)
    out.append(exact_refuted("(b) rho(SO(2)) is not a vector space: it misses 0 (det 0 != 1) and R(0)+R(0) = 2I has "
                             "det 4 != 1", {"group": "SO(2)", "rho": "R(theta)", "zero matrix det": 0,
                                            "R(0)+R(0)": "2I", "det(2I)": 4},
                             lhs=(R(0) + R(0)).det(), rhs=1, part="(b) reason", generality="exact"))
    out[-1].numbers = {"det_of_zero": str(Z.det())}
    A = smat(2, "A")
    B = smat(2, "B")
    c = sp.Symbol("c", real=True)
    out.append(pe(R(th) * (A + c * B), R(th) * A + c * (R(th) * B), "B: A -> rho(g) A is linear on End(V)",
                  part="(b) reason", reading="B", generality="symbolic 2x2 A, B, c, theta"))
    u = sp.Matrix(sp.symbols("u1:3", real=True))
    w = sp.Matrix(sp.symbols("w1:3", real=True))
    out.append(pe(((R(k * ph) * u).T * (R(k * ph) * w))[0], (u.T * w)[0], "(c) <rho u, rho v> = <u, v>",
                  part="(c)", generality="R(k phi), symbolic u, v"))
    return out


@verify.claim(
    "pegr.relpe.invariance", paper=PAPER, where="A.1 L144",
    statement=r"\eta(i+t,j+t)=\eta(i,j),\quad \eta(gx,gy)=\eta(x,y)\ \text{for}\ \eta(x,y)="
              r"\mathrm{vec}(\rho(x))^\top\mathrm{vec}(\rho(y))",
    kind="identity", expect="PROVED",
    readings={"B": "row-major vec", "C": "derived: eta(x,y) = tr rho(x^{-1} y), the character at x^{-1} y"},
)
def relpe_invariance(ctx):
    """(i) ``(i+t) - (j+t) = i - j``; (ii) SO(2) ``R(theta) (+) R(3 theta)`` with symbolic angles, both vec
    conventions; S_3 exhaustive (exact integers); (iii) = ``2 cos(y-x) + 2 cos 3(y-x)``."""
    i, j = sp.symbols("i j", integer=True)
    out = [pe((i + t) - (j + t), i - j, "(i) eta(i+t, j+t) = eta(i, j)", part="(i)", generality="symbolic")]
    rho = lambda u: blockdiag(R(u), R(3 * u))  # noqa: E731
    for reading, vec in (("A", vec_col), ("B", vec_row)):
        eta = lambda p, q: (vec(rho(p)).T * vec(rho(q)))[0]  # noqa: E731,B023
        out.append(pe(eta(ph + x, ph + y), eta(x, y), "(ii) eta(gx, gy) = eta(x, y), rho = R(.) (+) R(3 .)",
                      part="(ii)", reading=reading, generality="symbolic angles"))
    eta = lambda p, q: (vec_col(rho(p)).T * vec_col(rho(q)))[0]  # noqa: E731
    out.append(pe(eta(x, y), 2 * sp.cos(y - x) + 2 * sp.cos(3 * (y - x)), "(iii) eta = character 2cos + 2cos3",
                  reading="C", generality="symbolic angles"))
    perms = list(itertools.permutations(range(3)))
    P = lambda sg: sp.Matrix(3, 3, lambda a_, b_: 1 if sg[b_] == a_ else 0)  # noqa: E731
    L = [(vec_col(P(g) * P(xx)).T * vec_col(P(g) * P(yy)))[0] for g in perms for xx in perms for yy in perms]
    Rr = [(vec_col(P(xx)).T * vec_col(P(yy)))[0] for g in perms for xx in perms for yy in perms]
    out.append(pe(sp.Matrix(L), sp.Matrix(Rr), "(ii) S_3 permutation rep, all (g, x, y)", part="(ii)",
                  generality="exhaustive over S_3^3, exact"))
    return out


@verify.claim(
    "pegr.lemma_A1", paper=PAPER, where="Lemma A.1 (L146); proof eqs. (2)-(5), L148-158",
    statement=r"\rho\ \text{orthogonal}\Rightarrow \mathrm{vec}(\rho(gx))^\top\mathrm{vec}(\rho(gy))="
              r"\mathrm{vec}(\rho(x))^\top\mathrm{vec}(\rho(y))",
    kind="identity", expect="PROVED",
    readings={"B": "row-major vec"},
)
def lemma_A1(ctx):
    """Each proof step as a standalone identity: (2) ``vec(A)^T vec(B) = tr(A^T B)`` for generic 3x3 A, B (both
    vec conventions); (3)-(4) with an abstract orthogonal G: ``tr((G X)^T (G Y)) = tr(X^T G^T G Y)`` and with
    ``G^T G = I`` substituted, ``tr(X^T Y)`` (generic 3x3 X, Y); the whole lemma for SO(2) ``R(k theta)`` with
    symbolic angles and for S_3 exhaustively. Fuzzing over SO(3), Wigner D^2, S_n and direct sums, plus the
    non-orthogonal negative controls: numerics/pegr/claims_bias.py."""
    A3, B3, G3 = smat(3, "a"), smat(3, "b"), smat(3, "g")
    out = [pe((vec_col(A3).T * vec_col(B3))[0], (A3.T * B3).trace(), "(2) vec(A)^T vec(B) = tr(A^T B), col-major",
              part="(2)", generality="generic 3x3"),
           pe((vec_row(A3).T * vec_row(B3))[0], (A3.T * B3).trace(), "(2) row-major", part="(2)", reading="B",
              generality="generic 3x3"),
           pe(((G3 * A3).T * (G3 * B3)).trace(), (A3.T * (G3.T * G3) * B3).trace(), "(3) tr((GX)^T GY) = tr(X^T G^T G Y)",
              part="(3)", generality="generic 3x3")]
    k = sp.Symbol("k", integer=True)
    out.append(pe(R(k * th).T * R(k * th), I2, "(4) R(k theta)^T R(k theta) = I", part="(4)",
                  generality="symbolic k, theta"))
    rho = lambda u: blockdiag(R(u), R(k * u))  # noqa: E731
    for reading, vec in (("A", vec_col), ("B", vec_row)):
        out.append(pe((vec(rho(ph + x)).T * vec(rho(ph + y)))[0], (vec(rho(x)).T * vec(rho(y)))[0],
                      "lemma for SO(2), rho = R(theta) (+) R(k theta)", part="lemma", reading=reading,
                      generality="symbolic angles and integer k"))
    perms = list(itertools.permutations(range(3)))
    P = lambda sg: sp.Matrix(3, 3, lambda a_, b_: 1 if sg[b_] == a_ else 0)  # noqa: E731
    L = [(vec_col(P(g) * P(xx)).T * vec_col(P(g) * P(yy)))[0] for g in perms for xx in perms for yy in perms]
    Rr = [(vec_col(P(xx)).T * vec_col(P(yy)))[0] for g in perms for xx in perms for yy in perms]
    out.append(pe(sp.Matrix(L), sp.Matrix(Rr), "lemma for S_3 (all 216 triples)", part="lemma",
                  generality="exhaustive over S_3^3, exact"))
    return out


def _s3_irreps() -> tuple[list, list[sp.Matrix]]:
    """S_3 as the dihedral group of the triangle: trivial, sign and standard (orthonormal basis) irreps."""
    rr = R(2 * sp.pi / 3).applyfunc(sp.nsimplify)
    sref = sp.diag(1, -1)
    elems = [(kk, f) for f in (0, 1) for kk in range(3)]
    std = [rr**kk * (sref if f else I2) for kk, f in elems]
    return elems, std


@verify.claim(
    "pegr.peter_weyl", paper=PAPER, where="L69",
    statement=r"\text{the matrix entries of irreducible representations form an orthonormal basis for }L^2(G)",
    kind="identity", expect="REFUTED",
    readings={"B": "the scaled entries sqrt(d_lambda) rho_ij form an orthonormal basis (Peter-Weyl, compact G)"},
)
def peter_weyl(ctx):
    """Exact Schur orthogonality on S_3 (trivial, sign, standard in an orthonormal basis), normalised counting
    measure: the Gram matrix of the 6 unscaled entry functions is ``diag(1, 1, 1/2, 1/2, 1/2, 1/2)``, not I
    (reading A REFUTED: the standard irrep's entries have norm^2 1/d = 1/2); with ``sqrt(d_lambda)`` scaling it
    is I (reading B PROVED), and ``1 + 1 + 2^2 = |S_3|`` (completeness count). SO(2) characters are
    orthonormal (exact integrals, |k|, |l| <= 2). Scope: T = Z, R and T x T are not compact (L71 uses them);
    Monte-Carlo Haar check for SO(3): numerics/pegr/claims_reps.py."""
    elems, std = _s3_irreps()
    sign = [sp.Integer(-1) ** f for _, f in elems]
    funcs = [[sp.Integer(1)] * 6, sign] + [[M[i, j] for M in std] for i in range(2) for j in range(2)]
    dims = [1, 1, 2, 2, 2, 2]
    G = sp.Matrix(6, 6, lambda p, q: sp.nsimplify(sum(fp * fq for fp, fq in zip(funcs[p], funcs[q], strict=False)) / 6))
    Gs = sp.Matrix(6, 6, lambda p, q: sp.sqrt(dims[p] * dims[q]) * G[p, q])
    out = [exact_refuted("S_3: Gram of unscaled irrep entries is diag(1,1,1/2,1/2,1/2,1/2) != I (standard irrep entries "
                         "have norm^2 1/2)", {"group": "S_3", "irreps": "trivial, sign, standard (orthonormal basis)",
                                              "Gram": str(G.tolist())}, lhs=G, rhs=sp.eye(6),
                         generality="exact, S_3")]
    out.append(pe(Gs, sp.eye(6), "B: sqrt(d) scaled entries are orthonormal on S_3", reading="B",
                  generality="exact, S_3"))
    out.append(pe(sum(d_ ** 2 for d_ in (1, 1, 2)), 6, "B: sum d_lambda^2 = |S_3|", reading="B", part="completeness",
                  generality="exact"))
    u = sp.Symbol("u", real=True)
    ks = range(-2, 3)
    Gc = sp.Matrix(5, 5, lambda p, q: sp.integrate(sp.exp(sp.I * (ks[p] - ks[q]) * u), (u, 0, 2 * sp.pi)) / (2 * sp.pi))
    out.append(pe(Gc, sp.eye(5), "B: SO(2) characters e^{ik theta}, |k| <= 2, orthonormal (d = 1)", reading="B",
                  part="SO(2)", generality="exact integrals, |k| <= 2"))
    out[0].numbers = {"compact": {"T=Z": False, "T=R": False, "TxT": False, "SO(2)": True, "SO(3)": True, "S_n": True}}
    return out


def solid_harmonic(ell: int, m: int, X: sp.Symbol, Y: sp.Symbol, Z: sp.Symbol) -> sp.Expr:
    """``r^ell Y_ell^m`` up to its normalisation constant, as a polynomial:
    ``(x + i y)^m r^{ell-m} P_ell^{(m)}(z/r)`` (m >= 0; ``P^{(m)}`` the m-th derivative of the Legendre
    polynomial, parity ell - m, so only even powers of r remain); m < 0 uses ``x - i y``."""
    tt = sp.Symbol("t")
    am = abs(m)
    Pm = sp.Poly(sp.diff(sp.legendre(ell, tt), tt, am), tt)
    Q = sum(cf * Z**c_ * (X**2 + Y**2 + Z**2) ** sp.Rational(ell - am - c_, 2)
            for (c_,), cf in Pm.terms())
    return sp.expand((X + sp.sign(m if m else 1) * sp.I * Y) ** am * Q)


@verify.claim(
    "pegr.sh.degree", paper=PAPER, where="L71",
    statement=r"\text{the }\ell^{th}\text{ spherical harmonic is a polynomial of degree at most }\ell\text{ in }x,y,z",
    kind="identity", expect="SUPPORTED",
    readings={"B": "derived: r^ell Y_ell^m is a homogeneous harmonic polynomial of degree exactly ell"},
)
def sh_degree(ctx):
    """SUPPORTED (not PROVED): the polynomial side is exact, the identification with scipy's Y_l^m is float64.
    For ell <= 2 (quick) / 4 (deep) and every m: the solid harmonic ``(x +- iy)^|m| r^{ell-|m|} P^{(|m|)}(z/r)``
    is a polynomial (SymPy ``Poly``), homogeneous of total degree ell, harmonic (Laplacian = 0, PROVED);
    its Re/Im (the real basis) are real polynomials of the same kind. A float64 cross-check against
    ``scipy.special.sph_harm_y`` confirms that on S^2 it is a constant multiple of ``Y_ell^m``."""
    import numpy as np
    from scipy import special
    X, Y, Z = sp.symbols("x y z", real=True)
    L = ctx.pick(quick=2, deep=4)
    out = []
    rng = np.random.default_rng(ctx.subseed("sh"))
    worst = 0.0
    polys_ok = True
    for ell in range(L + 1):
        for m in range(-ell, ell + 1):
            h = solid_harmonic(ell, m, X, Y, Z)
            P = sp.Poly(h, X, Y, Z)
            polys_ok &= P.is_homogeneous and P.total_degree() == ell
            lap = sp.diff(h, X, 2) + sp.diff(h, Y, 2) + sp.diff(h, Z, 2)
            out.append(pe(lap, 0, f"ell={ell}, m={m}: Laplacian of r^l Y_l^m = 0", part="harmonic", reading="B",
                          generality=f"exact, ell={ell}, m={m}", assumptions="real"))
            pts = rng.standard_normal((12, 3))
            pts /= np.linalg.norm(pts, axis=1, keepdims=True)
            f = sp.lambdify((X, Y, Z), h, "numpy")
            hv = np.asarray(f(pts[:, 0], pts[:, 1], pts[:, 2]), dtype=complex) * np.ones(12)
            theta, phi = np.arccos(pts[:, 2]), np.arctan2(pts[:, 1], pts[:, 0])
            yv = special.sph_harm_y(ell, m, theta, phi)
            ratio = yv / hv
            worst = max(worst, float(np.abs(ratio - ratio[0]).max() / abs(ratio[0])))
    out.append(Evidence(Verdict.PROVED if polys_ok else Verdict.REFUTED,
                        f"r^l Y_l^m is a polynomial, homogeneous of degree exactly l, for all l <= {L}, all m "
                        "(so Y_l^m on S^2 is a polynomial of degree <= l)", method="symbolic",
                        generality=f"exact, ell <= {L}, all m",
                        counterexample=None if polys_ok else {"ell_max": L}))
    out.append(Evidence(Verdict.SUPPORTED if worst < 1e-10 else Verdict.UNDECIDED,
                        f"float64: Y_l^m (scipy) / polynomial is constant on S^2, rel. spread {worst:.1e}",
                        method="numeric", dtype="float64", numbers={"rel_spread": worst}, part="matches Y_l^m"))
    return out


@verify.claim(
    "pegr.so2.orbit_decomposition", paper=PAPER, where="L79; footnote 2 L99",
    statement=r"\mathbb R^2\text{ is not a homogeneous space of SO(2); orbits }\{\|p\|=r\};\ "
              r"\theta(R_\phi p)=\theta(p)+\phi\bmod 2\pi",
    kind="identity", expect="PROVED",
)
def so2_orbit_decomposition(ctx):
    """``||R_phi p|| = ||p||`` (PROVED, symbolic), so points of different radii are never related by a rotation
    (non-transitive: R^2 is not homogeneous) and any function of r is invariant; on a circle r > 0,
    ``R_phi (r cos theta, r sin theta) = (r cos(theta+phi), r sin(theta+phi))`` (PROVED): the action is
    free and transitive with theta an equivariant coordinate. atan2 mod 2 pi (incl. near the branch cut,
    atan2(0,0) = 0 at the origin): numerics/pegr/claims_so2.py."""
    p = sp.Matrix(sp.symbols("p1:3", real=True))
    out = [pe(((R(ph) * p).T * (R(ph) * p))[0], (p.T * p)[0], "||R_phi p||^2 = ||p||^2", part="orbits",
              generality="symbolic p, phi")]
    rp = sp.Symbol("rp", positive=True)
    out.append(pe(R(ph) * sp.Matrix([rp * sp.cos(th), rp * sp.sin(th)]),
                  sp.Matrix([rp * sp.cos(th + ph), rp * sp.sin(th + ph)]), "theta -> theta + phi on each circle",
                  part="equivariant coordinate", generality="symbolic r > 0, theta, phi",
                  assumptions={"theta": "real", "phi": "real"}))
    return out


@verify.claim(
    "pegr.so2pe.equivariance", paper=PAPER, where="L79; D.2 L333; footnote 2 L99",
    statement=r"\gamma(R_\phi p)=\rho(\phi)\gamma(p),\ \rho(\phi)=\bigoplus_iR(k_i\phi),\ "
              r"\gamma(p)=(J_0(c_ir)\cos k_i\theta,J_0(c_ir)\sin k_i\theta)_i",
    kind="identity", expect="PROVED",
)
def so2pe_equivariance(ctx):
    """In polar form with ``J`` an opaque function (so J_0 and every J_m): ``gamma_i(r, theta + phi) =
    R(k_i phi) gamma_i(r, theta)`` for integer k_i (PROVED, symbolic), ``rho`` a homomorphism and orthogonal,
    and the Gram invariance consequence. Cartesian float64 fuzzing with atan2 (points near the negative x
    axis included), the paper's (C, K) grid and m in {0,1,2}: numerics/pegr/claims_so2.py."""
    k1, k2 = sp.symbols("k1 k2", integer=True)
    c1, c2 = sp.symbols("c1 c2", positive=True)
    J = sp.Function("J")
    g = lambda rr, tt: sp.Matrix([J(c1 * rr) * sp.cos(k1 * tt), J(c1 * rr) * sp.sin(k1 * tt),  # noqa: E731
                                  J(c2 * rr) * sp.cos(k2 * tt), J(c2 * rr) * sp.sin(k2 * tt)])
    rho = lambda u: blockdiag(R(k1 * u), R(k2 * u))  # noqa: E731
    gen = "two features, symbolic c_i, integer k_i, r, theta, phi; J opaque (any J_m)"
    out = [pe(g(r, th + ph), rho(ph) * g(r, th), "gamma(R_phi p) = rho(phi) gamma(p)", generality=gen,
              assumptions={"r": "real", "theta": "real", "phi": "real"}),
           pe(rho(s + t), rho(s) * rho(t), "rho homomorphism", part="rho", generality=gen),
           pe(rho(ph).T * rho(ph), sp.eye(4), "rho orthogonal", part="rho", generality=gen)]
    r2, th2 = sp.symbols("r2 theta2", real=True)
    out.append(pe((g(r, th + ph).T * g(r2, th2 + ph))[0], (g(r, th).T * g(r2, th2))[0],
                  "Gram invariance gamma(R p)^T gamma(R q) = gamma(p)^T gamma(q)", part="consequence", generality=gen))
    return out


def _polar_targets(rr, tt, magnitude: bool = False):
    Irad = sp.sin(15 * sp.sqrt(rr))
    Isp = sp.sin(30 * sp.sqrt(rr / 10) + tt)
    if magnitude:
        Irad, Isp = sp.Abs(Irad), sp.Abs(Isp)
    e = sp.Matrix([sp.cos(tt), sp.sin(tt)])
    return Irad, Isp, sp.sin(15 * sp.sqrt(rr)) * e, sp.sin(30 * sp.sqrt(rr / 10) + tt) * e


@verify.claim(
    "pegr.data.definitions_and_radial_symmetry", paper=PAPER, where="eqs. (30)-(31), L317-323; L325; claims L89, L114",
    statement=r"I_{rad}(R_\phi p)=I_{rad}(p),\quad v_{rad}(R_\phi p)=R_\phi v_{rad}(p)",
    kind="identity", expect="PROVED",
    readings={"B": "image intensity = |sin(15 sqrt r)| ('magnitude of the vector', L325)"},
)
def data_radial_symmetry(ctx):
    """Polar form, ``theta -> theta + phi``: the Radial image does not depend on theta (both the signed and the
    magnitude reading), and ``v_rad(r, theta + phi) = R(phi) v_rad(r, theta)`` (PROVED, symbolic). Grid
    checks (exact C4 symmetry of the centred linspace grid, target variances): numerics/pegr/claims_data.py."""
    rr = sp.Symbol("r", positive=True)
    out = []
    for reading, mag in (("A", False), ("B", True)):
        Irad, _, vrad, _ = _polar_targets(rr, th + ph, mag)
        Irad0, _, vrad0, _ = _polar_targets(rr, th, mag)
        out.append(pe(Irad, Irad0, "Radial image invariant", part="image", reading=reading,
                      generality="symbolic r > 0, theta, phi", assumptions={"theta": "real", "phi": "real"}))
    _, _, vrad, _ = _polar_targets(rr, th + ph)
    _, _, vrad0, _ = _polar_targets(rr, th)
    out.append(pe(vrad, R(ph) * vrad0, "Radial VF equivariant", part="vector field",
                  generality="symbolic r > 0, theta, phi", assumptions={"theta": "real", "phi": "real"}))
    return out


@verify.claim(
    "pegr.data.spiral_approx", paper=PAPER, where="L89; L114",
    statement=r"I_{sp}(R_\phi p)\approx I_{sp}(p),\quad v_{sp}(R_\phi p)\approx R_\phi v_{sp}(p)",
    kind="identity", expect="REFUTED",
    readings={"B": "local: the error tends to 0 as phi -> 0"},
)
def data_spiral_approx(ctx):
    """Exact residuals in polar form (``a(r) = 30 sqrt(r/10)``, u = a + theta uniform on each circle):
    relative L2 error ``eps_2(phi)^2 = 4 sin^2(phi/2)`` for the signed image and for the VF (PROVED by exact
    integration; the same on every circle, so on any rotation-invariant domain). Reading A (global, the
    metrics of pegr.rep.equivariance_def): REFUTED: at phi = pi the Spiral image is exactly anti-invariant,
    ``I_sp(R_pi p) = -I_sp(p)``, eps_2 = 2, larger than the independent-pixel random image's sqrt(2); the
    Spiral VF has ``v(R_pi p) - R_pi v(p) = 2 v(p)``; witness p = (0.025, 0) (a = 3/2). Reading B (local):
    ``eps_2 = 2|sin(phi/2)| -> 0`` linearly (PROVED). Magnitude reading of the image and grid numbers:
    numerics/pegr/claims_data.py."""
    u = sp.Symbol("u", real=True)
    num = sp.integrate(sp.expand_trig((sp.sin(u + ph) - sp.sin(u)) ** 2), (u, 0, 2 * sp.pi))
    den = sp.integrate(sp.sin(u) ** 2, (u, 0, 2 * sp.pi))
    out = [pe(sp.simplify(num / den), 4 * sp.sin(ph / 2) ** 2, "eps_2(phi)^2 = 4 sin^2(phi/2) (signed image)",
              part="closed form", reading="B", generality="exact, every circle, symbolic phi")]
    rr_ = sp.Symbol("r", positive=True)
    _, _, _, v_rot = _polar_targets(rr_, th + ph)
    _, _, _, v0 = _polar_targets(rr_, th)
    res = v_rot - R(ph) * v0
    a_r = 30 * sp.sqrt(rr_ / 10)
    out.append(pe((res.T * res)[0], (sp.sin(a_r + th + ph) - sp.sin(a_r + th)) ** 2,
                  "VF: |v(R p) - R v(p)|^2 = (sin(u+phi) - sin u)^2, so the same eps_2", part="closed form",
                  reading="B", generality="symbolic r > 0, theta, phi", assumptions={"theta": "real", "phi": "real"}))
    rr = sp.Rational(1, 40)
    _, Isp_rot, _, vsp_rot = _polar_targets(rr, sp.pi)
    _, Isp, _, vsp = _polar_targets(rr, sp.Integer(0))
    out.append(exact_refuted("phi = pi, p = (1/40, 0): I_sp(R_pi p) = -I_sp(p) = -sin(3/2) (relative error 2; on the "
                             "disk eps_2(pi) = 2 > sqrt(2) of a random image)",
                             {"p": ["1/40", "0"], "phi": "pi", "I(p)": "sin(3/2)", "I(R_pi p)": "-sin(3/2)",
                              "eps_2(pi)": 2, "random_image_eps_2": "sqrt(2)",
                              "angular_mean_on_every_circle": str(sp.integrate(sp.sin(sp.Symbol("u") + th),
                                                                               (sp.Symbol("u"), 0, 2 * sp.pi))),
                              "note": "zero angular mean: the projection onto SO(2)-invariant functions is 0"},
                             lhs=Isp_rot, rhs=Isp, part="image", generality="exact witness"))
    out.append(exact_refuted("phi = pi, p = (1/40, 0): v_sp(R_pi p) - R_pi v_sp(p) = 2 v_sp(p)",
                             {"p": ["1/40", "0"], "phi": "pi", "v(p)": "sin(3/2)(1, 0)"},
                             lhs=vsp_rot, rhs=R(sp.pi) * vsp, part="vector field", generality="exact witness"))
    return out

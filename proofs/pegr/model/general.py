"""Symbolic-size proofs of the vec, Kronecker and permutation identities of the paper (any
size, not only 3x3 or S_3): Lemma A.1 and its proof step (2) (L146-158), the constant norm of
``gamma = vec rho`` (L271), the Kronecker trick of eqs. (17)-(19) (L239-249), the relative PE of
A.1 (L144) and the one-hot permutation representation of A.2 (L180-182).

Every statement is written with index maps made explicit, so that no identity of
symbolic-size vec or Kronecker products is assumed:

* column-major vec of an ``n x m`` matrix: ``vec(A)[i + n j] = A[i, j]``; row-major:
  ``vec(A)[j + m i] = A[i, j]`` (0-based, ``0 <= i < n``, ``0 <= j < m``);
* Kronecker products: ``(I_m (x) A)[i + p c, l + n q] = delta_cq A[i, l]`` and
  ``(A (x) I_m)[c + m i, q + m l] = A[i, l] delta_cq`` for ``A`` of size ``p x n``;
* permutation matrices: ``P(sigma)[a, b] = delta(a, sigma(b))``, i.e. ``P(sigma) e_b =
  e_sigma(b)``.

The one fact about index maps that all vec identities use is the *block index lemma*
(:func:`block_index_lemma`): for every ``f`` and ``n, m >= 1``,
``sum_{k=0}^{nm-1} f(k) = sum_{j=0}^{m-1} sum_{i=0}^{n-1} f(i + n j)``, proved by induction on
``m`` from exact SymPy zeros. With ``f`` the indicator of one index it also says that
``(i, j) -> i + n j`` is a bijection onto ``0..nm-1``, so an identity checked at the generic
entry ``i + n j`` holds at every entry.

A proof here is a :class:`~verify.symbolic.chain.Derivation`: a chain of links, each an exact
zero of ``verify.symbolic.prove_equal`` with symbolic sizes, an exact SymPy rewrite whose result
is compared structurally, the application of a stated hypothesis, or an earlier proof of this
module instantiated. It is PROVED with scope ``general`` only when every link holds; a link that
fails leaves it UNDECIDED, naming the link (never REFUTED: a failed route is not a
counterexample). Each index-map definition is also compared entry by entry with the explicit
matrices of :mod:`.model` (``vec_col``, ``vec_row``, ``kron_I``, ``perm_matrix``) at one concrete
size, so that the symbolic statement is the one the paper's objects satisfy.
"""

from __future__ import annotations

from collections.abc import Callable

import sympy as sp

from verify import Evidence
from verify.symbolic import Derivation

from . import perm_matrix, vec_col, vec_row

__all__ = [
    "block_index_lemma",
    "lemma_instance",
    "vecdot_trace",
    "kron_vec",
    "lemma_A1_general",
    "norm_general",
    "character_general",
    "permutation_hom_general",
    "onehot_equivariance_general",
    "regular_onehot_general",
    "regular_hom_general",
    "learned_table_general",
]

_pos = {"integer": True, "positive": True}
_nonneg = {"integer": True, "nonnegative": True}
n, m, p = sp.symbols("n m p", **_pos)
D, N, d = sp.symbols("D N d", **_pos)
k, i, j, l_, q = sp.symbols("k i j l q", integer=True)
c, s, a, b, x, t0 = sp.symbols("c s a b x t_0", **_nonneg)
g, h = sp.symbols("g h", integer=True)
f = sp.Function("f")


# -- the block index lemma --------------------------------------------------------------------


def _lemma_sides(fn: Callable[[sp.Expr], sp.Expr], index: Callable[[sp.Expr, sp.Expr], sp.Expr]
                 ) -> tuple[sp.Expr, sp.Expr]:
    """``(sum_{k<nm} fn(k), sum_{j<m} sum_{i<n} fn(index(i, j)))`` in the symbols n, m, i, j."""
    return (sp.Sum(fn(k), (k, 0, n * m - 1)),
            sp.Sum(fn(index(i, j)), (i, 0, n - 1), (j, 0, m - 1)))


def _column_index(ii: sp.Expr, jj: sp.Expr) -> sp.Expr:
    return ii + n * jj


def block_index_lemma(index: Callable[[sp.Expr, sp.Expr], sp.Expr] = _column_index,
                      ) -> Evidence:
    """``sum_{k=0}^{nm-1} f(k) = sum_{j=0}^{m-1} sum_{i=0}^{n-1} f(index(i, j))`` for every
    ``f`` and ``n, m >= 1``, by induction on ``m`` (``index(i, j) = i + n j``, the column-major
    vec index, unless a test passes another map).

    With ``L(m)`` the left side and ``R(m) = sum_{j<m} h(j)``, ``h(j) = sum_{i<n}
    f(index(i, j))``: base ``R(1) = h(0) = L(1)``; step ``L(m+1) = L(m) + sum_{k=nm}^{nm+n-1}
    f(k)``, ``R(m+1) = R(m) + h(m)``, and the tail shifted by ``nm`` is ``h(m)``, so ``L(m+1) -
    R(m+1) = L(m) - R(m)``. Each link is an exact SymPy zero in symbolic n, m (or SymPy's own
    ``change_index``, compared structurally)."""
    dv = Derivation()
    H = sp.Function("h")

    def h_def(jj: sp.Expr) -> sp.Expr:
        return sp.Sum(f(index(i, jj)), (i, 0, n - 1))

    dv.engine("base: sum_{j=0}^{0} h(j) = h(0)", sp.Sum(H(j), (j, 0, 0)), H(0))
    dv.rewrite("base: h(0) = sum_{k=0}^{n-1} f(k) = L(1)", h_def(sp.Integer(0)),
               sp.Sum(f(k), (k, 0, n - 1)))
    tail = sp.Sum(f(k), (k, n * m, n * m + n - 1))
    dv.engine("step: L(m) + sum_{k=nm}^{nm+n-1} f(k) = L(m+1)",
              sp.Sum(f(k), (k, 0, n * m - 1)) + tail, sp.Sum(f(k), (k, 0, n * (m + 1) - 1)))
    dv.engine("step: R(m) + sum_{j=m}^{m} h(j) = R(m+1)",
              sp.Sum(H(j), (j, 0, m - 1)) + sp.Sum(H(j), (j, m, m)), sp.Sum(H(j), (j, 0, m)))
    dv.engine("step: sum_{j=m}^{m} h(j) = h(m)", sp.Sum(H(j), (j, m, m)), H(m))
    dv.rewrite("step: the tail shifted by nm (k = i + nm, SymPy change_index) is h(m)",
               tail.change_index(k, k - n * m, i), h_def(m))
    dv.note("so L(m+1) - R(m+1) = L(m) - R(m) = 0: by induction L(m) = R(m) for m >= 1")
    L, R = _lemma_sides(f, index)
    return dv.evidence(f"block index lemma {sp.sstr(L)} = {sp.sstr(R)}",
                       "every f, n and m symbolic: induction on m", part="lemma")


def lemma_instance(fn: Callable[[sp.Expr], sp.Expr], *, rows: sp.Expr = n, cols: sp.Expr = m,
                   inner: sp.Symbol = i, outer: sp.Symbol = j) -> tuple[sp.Expr, sp.Expr]:
    """The two sides of the block index lemma with ``f := fn``, ``(n, m) := (rows, cols)`` and
    the bound variables ``(i, j)`` renamed ``(inner, outer)``: ``sum_{k < rows cols} fn(k) =
    sum_{outer < cols} sum_{inner < rows} fn(inner + rows outer)``."""
    if fn(sp.Dummy("z")).free_symbols & {inner, outer}:
        raise ValueError("lemma_instance: the summand uses a bound variable of the instance")
    L, R = _lemma_sides(f, _column_index)
    rep = {n: rows, m: cols, i: inner, j: outer}
    # rename first, with f still abstract, so that nothing inside fn is renamed
    return tuple(side.xreplace(rep).replace(f, fn) for side in (L, R))  # type: ignore[return-value]


# -- vec and Kronecker definitions, checked against the explicit matrices ---------------------


def _check_vec_definition(dv: Derivation, order: str) -> None:
    """The index map of ``order`` against :func:`.model.vec_col` / ``vec_row`` on a 2x3
    matrix."""
    rows, cols = 2, 3
    A = sp.Matrix(rows, cols, lambda r, cc: sp.Symbol(f"A{r}{cc}"))
    vec = vec_col(A) if order == "col" else vec_row(A)
    idx = (lambda r, cc: r + rows * cc) if order == "col" else (lambda r, cc: cc + cols * r)
    ok = all(vec[idx(r, cc)] == A[r, cc] for r in range(rows) for cc in range(cols))
    name = "i + n j" if order == "col" else "j + m i"
    dv.check(f"definition: vec(A)[{name}] = A[i, j] agrees with model.vec_{order} (2x3)", ok,
             "entry by entry")


def _check_kron_definition(dv: Derivation, kron: str) -> None:
    """The Kronecker index map against ``sympy.kronecker_product`` (A 2x3, I_2)."""
    pp, nn, mm = 2, 3, 2
    A = sp.Matrix(pp, nn, lambda r, cc: sp.Symbol(f"A{r}{cc}"))
    eye = sp.eye(mm)
    K = sp.kronecker_product(eye, A) if kron == "I(x)A" else sp.kronecker_product(A, eye)
    ok = True
    for ii in range(pp):
        for cc in range(mm):
            for ll in range(nn):
                for qq in range(mm):
                    want = A[ii, ll] * (1 if cc == qq else 0)
                    if kron == "I(x)A":
                        ok &= K[ii + pp * cc, ll + nn * qq] == want
                    else:
                        ok &= K[cc + mm * ii, qq + mm * ll] == want
    shown = ("(I (x) A)[i + p c, l + n q] = delta_cq A[i, l]" if kron == "I(x)A"
             else "(A (x) I)[c + m i, q + m l] = A[i, l] delta_cq")
    dv.check(f"definition: {shown} agrees with sympy.kronecker_product (A 2x3, I_2)", ok,
             "entry by entry")


# -- (2): vec(A)^T vec(B) = tr(A^T B) ---------------------------------------------------------


def vecdot_trace(order: str = "col", *, lemma: Evidence | None = None,
                 target: Callable[[sp.MatrixSymbol, sp.MatrixSymbol], sp.Expr] | None = None,
                 reading: str = "A", part: str = "(2)") -> Evidence:
    """Step (2) of Lemma A.1 for ``n x m`` matrices, n and m symbolic:
    ``vec(A)^T vec(B) = tr(A^T B)`` (``order`` "col": column-major vec, "row": row-major).

    ``vec(A)^T vec(B) = sum_{k<nm} a(k) b(k)`` with ``a, b`` the entries of the two vecs; the
    block index lemma with ``f = a b`` (rows and columns exchanged for row-major) and the
    definition of vec turn it into ``sum_j sum_i A_ij B_ij``, which is SymPy's own
    ``Trace(A^T B).rewrite(Sum)`` (row-major: ``tr(B A^T)``, equal to ``tr(A^T B)`` by the
    engine's cyclic-trace rung). ``target(A, B)`` replaces the right side ``tr(A^T B)`` (a
    negative control passes a wrong one)."""
    dv = Derivation()
    dv.cite("block index lemma", lemma if lemma is not None else block_index_lemma())
    _check_vec_definition(dv, order)
    A, B = sp.MatrixSymbol("A", n, m), sp.MatrixSymbol("B", n, m)
    va, vb = sp.Function("vecA"), sp.Function("vecB")
    rhs = target(A, B) if target is not None else sp.Trace(A.T * B)
    if order == "col":
        L, R = lemma_instance(lambda e: va(e) * vb(e))
        defs = {va(i + n * j): A[i, j], vb(i + n * j): B[i, j]}
        trace = rhs
    else:
        L, R = lemma_instance(lambda e: va(e) * vb(e), rows=m, cols=n, inner=j, outer=i)
        defs = {va(j + m * i): A[i, j], vb(j + m * i): B[i, j]}
        trace = sp.Trace(B * A.T)
        dv.engine(f"{sp.sstr(rhs)} = tr(B A^T) (cyclic trace)", rhs, trace)
    dv.rewrite("vec(A)^T vec(B) = sum_{k<nm} a(k) b(k) is the lemma's left side with f = a b",
               L, sp.Sum(va(k) * vb(k), (k, 0, n * m - 1)))
    by_def = R.xreplace(defs)
    dv.check("definition of vec applied to every entry of the lemma's right side",
             not by_def.has(va, vb), sp.sstr(by_def)[:160])
    dv.rewrite(f"sum_j sum_i A_ij B_ij = {sp.sstr(trace)} written as a sum (SymPy rewrite)",
               by_def, trace.rewrite(sp.Sum))
    name = "column-major" if order == "col" else "row-major"
    return dv.evidence(r"(2) $\mathrm{vec}(A)^\top \mathrm{vec}(B) = \mathrm{tr}(A^\top B)$, "
                       f"{name} vec",
                       r"$A, B$ of any size $n \times m$ ($n, m$ symbolic); block index lemma by "
                       "induction",
                       reading=reading, part=part)


# -- eqs. (17)-(19): vec(A B) = (I (x) A) vec(B) -----------------------------------------------


def _kron_true(kron: str) -> Callable[..., sp.Expr]:
    if kron == "I(x)A":
        return lambda A, ii, cc, ll, qq: sp.KroneckerDelta(cc, qq) * A[ii, ll]
    return lambda A, ii, cc, ll, qq: A[ii, ll] * sp.KroneckerDelta(cc, qq)


def kron_vec(vec: str = "col", kron: str = "I(x)A", *, lemma: Evidence | None = None,
             entry: Callable[..., sp.Expr] | None = None, reading: str = "A",
             part: str = "(ii) Kronecker trick") -> Evidence:
    """``vec(A B) = K vec(B)`` for ``A`` of size ``p x n`` and ``B`` of size ``n x m`` (p, n, m
    symbolic) with ``K = I_m (x) A`` and column-major vec (eqs. (17)-(19) as printed, ``vec
    ="col"``) or ``K = A (x) I_m`` and row-major vec (``vec="row"``, ``kron="A(x)I"``).

    At the generic entry (``i + p c`` column-major, ``c + m i`` row-major; ``c <= m - 1`` by
    writing ``m = c + 1 + s``): ``(K vec B)[e] = sum_{k'} K[e, k'] vec(B)[k']``, the block index
    lemma splits ``k'`` into ``(l, q)``, the definitions give ``sum_q sum_l delta_cq A_il
    B_lq``, SymPy evaluates the delta sum, and the result is SymPy's ``(A B)[i, c]``, which is
    ``vec(A B)[e]``. ``entry`` replaces the Kronecker entry ``(A, i, c, l, q) -> ...`` (a
    negative control passes a wrong one)."""
    dv = Derivation()
    dv.cite("block index lemma", lemma if lemma is not None else block_index_lemma())
    _check_vec_definition(dv, vec)
    _check_kron_definition(dv, kron)
    kentry = entry if entry is not None else _kron_true(kron)
    mm = c + 1 + s  # the number of columns of B, with c <= m - 1
    A, B = sp.MatrixSymbol("A", p, n), sp.MatrixSymbol("B", n, mm)
    K, vb = sp.Function("K"), sp.Function("vecB")
    if vec == "col":
        e = i + p * c
        _, R = lemma_instance(lambda z: K(e, z) * vb(z), rows=n, cols=mm, inner=l_, outer=q)
        col = l_ + n * q
    else:
        e = c + mm * i
        _, R = lemma_instance(lambda z: K(e, z) * vb(z), rows=mm, cols=n, inner=q, outer=l_)
        col = q + mm * l_
    by_def = R.xreplace({K(e, col): kentry(A, i, c, l_, q), vb(col): B[l_, q]})
    dv.check("definitions of the Kronecker product and of vec applied", not by_def.has(K, vb),
             sp.sstr(by_def)[:160])
    summand, limits = by_def.function, by_def.limits
    if limits[0][0] == l_:  # pull the l-free delta out of the inner l-sum, then sum over q
        inner = sp.factor_terms(sp.Sum(summand, limits[0]))
        by_def = sp.Sum(inner, limits[1])
    dv.rewrite(f"the delta sum over q, evaluated by SymPy (c <= m - 1), is (A B)[i, c] = "
               f"vec(A B)[{sp.sstr(e)}]", by_def.doit(), (A * B)[i, c])
    name = ("column-major vec, I (x) A (as printed)" if vec == "col"
            else "row-major vec, A (x) I")
    return dv.evidence(f"vec(A B) = K vec(B), {name}",
                       "A p x n, B n x m, p, n, m symbolic, at the generic entry (every entry, "
                       "by the block index lemma)", reading=reading, part=part)


# -- Lemma A.1 and its consequences ------------------------------------------------------------


def _apply_orthogonality(expr: sp.Expr, G: sp.MatrixSymbol, eye: sp.MatrixExpr
                         ) -> tuple[sp.Expr, bool]:
    """Replace the factor pair ``G^T G`` inside the trace's product by ``eye``."""
    tr = expr if isinstance(expr, sp.Trace) else None
    if tr is None or not isinstance(tr.arg, sp.MatMul):
        return expr, False
    args = list(tr.arg.args)
    for t in range(len(args) - 1):
        if args[t] == G.T and args[t + 1] == G:
            return sp.Trace(sp.MatMul(*args[:t], eye, *args[t + 2:])), True
    return expr, False


def lemma_A1_general(order: str = "col", *, step2: Evidence | None = None,
                     orthogonal: bool = True, reading: str = "A", part: str = "lemma"
                     ) -> Evidence:
    """Lemma A.1 for every orthogonal representation of any degree D: with G = rho(g), X =
    rho(x), Y = rho(y) (D x D matrix symbols), ``vec(G X)^T vec(G Y) = tr((G X)^T G Y)``
    [(2) with A = GX, B = GY] ``= tr(X^T G^T G Y)`` [engine] ``= tr(X^T Y)`` [hypothesis
    ``G^T G = I``] ``= vec(X)^T vec(Y)`` [(2) with A = X, B = Y]; step (3) ``rho(gx) =
    rho(g) rho(x)`` is how ``GX`` enters. ``orthogonal=False`` (the negative control, a
    representation outside the hypothesis, as GL(D)) asks the engine for ``tr(X^T G^T G Y) =
    tr(X^T Y)`` without the hypothesis."""
    dv = Derivation()
    dv.cite("(2) vec(A)^T vec(B) = tr(A^T B) for all A, B",
            step2 if step2 is not None else vecdot_trace(order, reading=reading))
    G, X, Y = (sp.MatrixSymbol(name, D, D) for name in ("G", "X", "Y"))
    Rgx, Rgy = sp.MatrixSymbol("rho_gx", D, D), sp.MatrixSymbol("rho_gy", D, D)
    start = sp.Trace(Rgx.T * Rgy)
    first = start.xreplace({Rgx: G * X, Rgy: G * Y})
    dv.hypothesis("hypothesis (3) rho(gx) = rho(g) rho(x), rho(gy) = rho(g) rho(y)", start,
                  first, first != start)
    moved = sp.Trace(X.T * G.T * G * Y)
    dv.engine("tr((G X)^T G Y) = tr(X^T G^T G Y)", first, moved)
    if orthogonal:
        used, applied = _apply_orthogonality(moved, G, sp.Identity(D))
        dv.hypothesis("hypothesis (4) rho(g)^T rho(g) = I_D", moved, used, applied)
    else:
        used = moved
    dv.engine("tr(X^T I Y) = tr(X^T Y)" if orthogonal else "tr(X^T G^T G Y) = tr(X^T Y)",
              used, sp.Trace(X.T * Y))
    name = "column-major" if order == "col" else "row-major"
    return dv.evidence(f"Lemma A.1, {name} vec: "
                       r"$\mathrm{vec}(\rho(gx))^\top \mathrm{vec}(\rho(gy)) = "
                       r"\mathrm{vec}(\rho(x))^\top \mathrm{vec}(\rho(y))$",
                       "any orthogonal representation, degree $D$ symbolic", reading=reading,
                       part=part)


def norm_general(order: str = "col", *, step2: Evidence | None = None,
                 value: sp.Expr = D, reading: str = "A", part: str = "(i) constant norm"
                 ) -> Evidence:
    """(i) of ``pegr.pe.vec_rho_properties`` (L271) for any degree D: ``|vec X|^2 = tr(X^T X)``
    [(2) with A = B = X] ``= tr(I_D)`` [hypothesis X orthogonal] ``= D`` [engine]. ``value``
    replaces ``D`` (a negative control passes a wrong one)."""
    dv = Derivation()
    dv.cite("(2) vec(A)^T vec(B) = tr(A^T B) for all A, B",
            step2 if step2 is not None else vecdot_trace(order, reading=reading))
    X = sp.MatrixSymbol("X", D, D)
    before = sp.Trace(X.T * X)
    after = sp.Trace(sp.Identity(D))
    dv.hypothesis("hypothesis rho(x)^T rho(x) = I_D", before,
                  after, isinstance(before.arg, sp.MatMul) and before.arg.args == (X.T, X))
    dv.engine(f"tr(I_D) = {value}", after, value)
    name = "column-major" if order == "col" else "row-major"
    return dv.evidence(r"$\|\gamma(x)\|^2 = \mathrm{tr}(\rho(x)^\top\rho(x)) = D$, "
                       f"{name} vec",
                       "any orthogonal representation, degree $D$ symbolic", reading=reading,
                       part=part)


def character_general(*, step2: Evidence | None = None, wrong: bool = False,
                      reading: str = "C", part: str = "main") -> Evidence:
    """(iii) of ``pegr.relpe.invariance``: ``eta(x, y) = tr(rho(x)^T rho(y))`` [(2)] ``=
    tr(rho(x^-1) rho(y))`` [hypothesis: rho orthogonal, so ``rho(x)^T = rho(x)^-1 =
    rho(x^-1)``] ``= tr rho(x^-1 y)`` [hypothesis: rho a homomorphism], the character.
    ``wrong=True`` (a negative control) asks for ``tr rho(y x^-1)`` instead, which the
    homomorphism does not give (it equals the character at x^-1 y only by cyclicity, which the
    chain does not assert)."""
    dv = Derivation()
    dv.cite("(2) vec(A)^T vec(B) = tr(A^T B) for all A, B",
            step2 if step2 is not None else vecdot_trace("col", reading=reading))
    X, Y = sp.MatrixSymbol("X", D, D), sp.MatrixSymbol("Y", D, D)
    Xinv, Z = sp.MatrixSymbol("Xinv", D, D), sp.MatrixSymbol("Z", D, D)
    before = sp.Trace(X.T * Y)
    mid = before.xreplace({X.T: Xinv})
    dv.hypothesis("hypothesis rho(x)^T = rho(x^-1) (orthogonal representation)", before, mid,
                  mid != before)
    pattern = Y * Xinv if wrong else Xinv * Y
    after = mid.xreplace({pattern: Z})
    dv.hypothesis("hypothesis rho(x^-1) rho(y) = rho(x^-1 y) =: Z (homomorphism)", mid, after,
                  after == sp.Trace(Z))
    return dv.evidence("(iii) eta(x, y) = tr rho(x^-1 y), the character at x^-1 y",
                       "any orthogonal representation, degree D symbolic", reading=reading,
                       part=part)


# -- A.2: one-hot vectors and permutation matrices ---------------------------------------------


def _check_perm_definition(dv: Derivation) -> None:
    sigma = (2, 0, 3, 1)
    P = perm_matrix(sigma)
    ok = all(P[r, cc] == (1 if r == sigma[cc] else 0) for r in range(4) for cc in range(4))
    dv.check("definition: P(sigma)[a, b] = delta(a, sigma(b)) agrees with model.perm_matrix "
             "(a 4-cycle)", ok, "entry by entry")


def permutation_hom_general(*, opposite: bool = False, reading: str = "B",
                            part: str = "homomorphism") -> Evidence:
    """``P(sigma tau) = P(sigma) P(tau)`` with ``(sigma tau)(b) = sigma(tau(b))`` for every N
    and all maps sigma, tau of ``{0..N-1}`` into itself (permutations in particular): entry
    ``(a, b)`` of the product is ``sum_c delta(a, sigma(c)) delta(c, tau(b))``; with ``t_0 =
    tau(b)`` and ``N = t_0 + 1 + s`` (tau(b) in range) SymPy sums it to ``delta(a,
    sigma(t_0))``, entry (a, b) of ``P(sigma tau)``. ``opposite=True`` (the negative control)
    states the opposite convention ``(sigma tau)(b) = tau(sigma(b))``."""
    dv = Derivation()
    _check_perm_definition(dv)
    sigma, tau = sp.Function("sigma"), sp.Function("tau")
    NN = t0 + 1 + s
    product = sp.Sum(sp.KroneckerDelta(a, sigma(c)) * sp.KroneckerDelta(c, tau(b)),
                     (c, 0, NN - 1))
    composed = sp.KroneckerDelta(a, tau(sigma(b)) if opposite else sigma(tau(b)))
    # tau(b) is named t_0, a value in {0..N-1}: N = t_0 + 1 + s
    dv.engine("sum_c delta(a, sigma(c)) delta(c, tau(b)) = " + sp.sstr(composed),
              product.xreplace({tau(b): t0}), composed.xreplace({tau(b): t0}))
    return dv.evidence("P(sigma tau) = P(sigma) P(tau), (sigma tau)(i) = sigma(tau(i))",
                       "every N (symbolic), all sigma, tau in S_N, entry (a, b) symbolic",
                       reading=reading, part=part)


def onehot_equivariance_general(*, image: sp.Expr | None = None, reading: str = "B",
                                part: str = "one-hot equivariance") -> Evidence:
    """``1_{sigma(x)} = P(sigma) 1_x`` for every N, every map sigma and every x in
    ``{0..N-1}`` (``N = x + 1 + s``): entry a is ``sum_b delta(a, sigma(b)) delta(b, x) =
    delta(a, sigma(x))``. ``image`` replaces ``sigma(x)`` (a negative control passes a wrong
    one)."""
    dv = Derivation()
    _check_perm_definition(dv)
    sigma = sp.Function("sigma")
    NN = x + 1 + s
    target = image if image is not None else sigma(x)
    dv.engine(f"(P(sigma) 1_x)[a] = sum_b delta(a, sigma(b)) delta(b, x) = 1_{{{target}}}[a]",
              sp.Sum(sp.KroneckerDelta(a, sigma(b)) * sp.KroneckerDelta(b, x), (b, 0, NN - 1)),
              sp.KroneckerDelta(a, target))
    return dv.evidence("1_{sigma x} = P(sigma) 1_x",
                       "every N (symbolic), every sigma in S_N and x, entry a symbolic",
                       reading=reading, part=part)


def regular_onehot_general(*, shift: int = 0, reading: str = "A",
                           part: str = "one-hot equivariance") -> Evidence:
    """Reading A (X = Z_N acting on itself, L182): ``1_{g+x} = P(L_g) 1_x`` with the
    left-regular permutation ``L_g(b) = (g + b) mod N``, for every N, g and x in
    ``{0..N-1}``: ``sum_b delta(a, (g+b) mod N) delta(b, x) = delta(a, (g+x) mod N)``.
    ``shift`` adds to the claimed image ``g + x`` (a negative control passes 1)."""
    dv = Derivation()
    NN = x + 1 + s
    dv.engine("sum_b delta(a, (g+b) mod N) delta(b, x) = delta(a, (g+x) mod N)",
              sp.Sum(sp.KroneckerDelta(a, sp.Mod(g + b, NN)) * sp.KroneckerDelta(b, x),
                     (b, 0, NN - 1)),
              sp.KroneckerDelta(a, sp.Mod(g + x + shift, NN)))
    return dv.evidence("X = Z_N acting on itself: 1_{g+x} = P(L_g) 1_x",
                       "every N (symbolic), every g in Z_N and x, entry a symbolic",
                       reading=reading, part=part)


def regular_hom_general(*, hom: Evidence | None = None, sign: int = 1, reading: str = "A",
                        part: str = "homomorphism") -> Evidence:
    """Reading A: ``P(L_{(g+h) mod N}) = P(L_g) P(L_h)`` for every N: the general
    homomorphism (:func:`permutation_hom_general`, all maps sigma, tau) with ``sigma = L_g``,
    ``tau = L_h`` (``L_h(b) = (h + b) mod N`` lies in ``{0..N-1}``), and the maps agree:
    ``L_g(L_h(b)) = L_{(g+h) mod N}(b)``, an exact zero of SymPy's ``Mod``. ``sign=-1`` (a
    negative control) claims ``L_{(g-h) mod N}`` instead."""
    dv = Derivation()
    dv.cite("P(sigma tau) = P(sigma) P(tau) for all maps sigma, tau of {0..N-1}",
            hom if hom is not None else permutation_hom_general(reading=reading, part=part))
    dv.engine("L_g(L_h(b)) = L_{(g+h) mod N}(b)", sp.Mod(g + sp.Mod(h + b, N), N),
              sp.Mod(sp.Mod(g + sign * h, N) + b, N))
    return dv.evidence("Z_N left-regular permutations are a homomorphism",
                       "every N (symbolic), all g, h in Z_N", reading=reading, part=part)


def learned_table_general(*, column: sp.Expr | None = None, reading: str = "A",
                          part: str = "learned table") -> Evidence:
    """``W 1_x = w_x`` (L182) for a table W of any size ``d x N`` and every x in
    ``{0..N-1}``: ``sum_b W[r, b] delta(b, x) = W[r, x]``. ``column`` replaces the column x
    (a negative control passes a wrong one)."""
    dv = Derivation()
    NN = x + 1 + s
    W = sp.MatrixSymbol("W", d, NN)
    r = sp.Symbol("r", integer=True, nonnegative=True)
    dv.engine("(W 1_x)[r] = sum_b W[r, b] delta(b, x) = W[r, x]",
              sp.Sum(W[r, b] * sp.KroneckerDelta(b, x), (b, 0, NN - 1)),
              W[r, x if column is None else column])
    return dv.evidence("W 1_{x_i} = w_{x_i} (the x_i-th column)",
                       "every table size d x N (symbolic) and x", reading=reading, part=part)

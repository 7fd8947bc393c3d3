"""Proofs in a symbolic size ``n`` by induction: telescoping steps and Zeilberger recurrences.

``prove_equal`` proves an identity such as ``sum_{k=1}^n 1/(k(k+1)) = n/(n+1)`` only at
n = 1..4 when no rewriting closes it, and SymPy's own ``Sum.doit()`` is not trusted as a
proof step (it is wrong in places). This rung proves such identities for every integer
``n >= n0`` (``n0 = 1`` for a positive ``n``, ``0`` for a nonnegative one) from two exact
facts, never from sampled ``n``:

* **Route A (summand free of n).** Every sum/product ``X(n)`` over ``k = q .. m n + c`` is
  peeled: ``X(n) = X(n-1) + f(m(n-1)+c+1) + ... + f(mn+c)`` (times, for a product). With
  ``Y = X(n-1)`` a fresh symbol, ``D(n-1)`` becomes ``H(Y, n)`` and ``D(n)`` becomes
  ``G(Y, n)``; the step is ``G - lambda(n) H = 0`` as a rational function (so ``D(n-1) = 0``
  forces ``D(n) = 0``); the base ``D(n0) = 0`` is evaluated as an explicit finite sum.
* **Route B (summand F(n, k) hypergeometric in n and k).** Creative telescoping
  (Zeilberger): polynomials ``a_j(n)`` and a term ``G(n, k)`` with
  ``sum_j a_j(n) F(n+j, k) = G(n, k+1) - G(n, k)`` for every ``k`` of the range, found by
  solving Gosper's equation with unknown ``a_j`` and then *re-verified* exactly. Summed over
  ``k = lo .. n+c`` with the boundary terms written out (``G`` at both ends, the terms
  ``F(n+j, k)`` for ``k > n+c``), the sum satisfies ``sum_j a_j(n) S(n+j) = B(n)``; the
  closed form is shown to satisfy the same recurrence exactly, and enough initial values are
  evaluated as explicit finite sums.

Every exact check goes through :func:`zero_on_domain`: factorials and binomials become
gamma functions; a gamma whose argument is >= 1 on the whole domain is written as one base
gamma of its class times a rising factorial (``gamma(A+s) = gamma(A) A (A+1)...``), and a
gamma that can reach a pole appears only as ``1/gamma``, normalised with the entire identity
``1/gamma(A-s) = (A-s)...(A-1)/gamma(A)`` (so ``binomial(n, k) = 0`` for ``k > n`` stays
exact); every denominator left must be nonzero on the whole integer domain. The rational
function that remains must be the structural zero. Anything outside this fragment raises
:class:`NotApplicable` and the prover falls back to concrete sizes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import sympy as sp
from sympy.concrete.gosper import gosper_normal

from .ladder import NotApplicable, is_zero

#: Largest multiplier m of n in an upper limit m n + c (route A peels m terms per step).
MAX_STRIDE = 4
#: Recurrence orders and certificate degrees tried by the Zeilberger search.
ORDERS = (1, 2)
MAX_CERTIFICATE_DEGREE = 5
#: How far the start of the induction may move up when a check needs a larger n.
MAX_START_SHIFT = 4

_GAMMA_FAMILY = (sp.gamma, sp.factorial, sp.binomial)


@dataclass
class InductionProof:
    """A proof of ``lhs = rhs`` for every integer ``n >= start``: the route, the steps."""

    n: sp.Symbol
    start: int
    route: str
    steps: list[str] = field(default_factory=list)

    @property
    def generality(self) -> str:
        return f"all integers {self.n.name} >= {self.start} (induction)"

    @property
    def summary(self) -> str:
        return f"proved by induction on {self.n.name} ({self.route}); {self.generality}"


class NeedsLargerStart(NotApplicable):
    """A check that may pass when the induction starts at a larger n (a denominator or a
    gamma argument that is only safe further on)."""


# -- the integer domain and exact zero checks ------------------------------------------------


@dataclass(frozen=True)
class Domain:
    """Integer points ``n >= n_min`` and, with ``k``, ``k_lo <= k <= n + k_hi``."""

    n: sp.Symbol
    n_min: int
    k: sp.Symbol | None = None
    k_lo: int = 0
    k_hi: int = 0

    @property
    def variables(self) -> tuple[sp.Symbol, ...]:
        return (self.n,) if self.k is None else (self.n, self.k)

    def at_least(self, e: sp.Expr, bound: int) -> bool:
        """Whether the affine integer form ``e`` is ``>= bound`` at every point."""
        form = _affine(e, self.variables)
        if form is None:
            return False
        coeffs, const = form
        a = coeffs[0]
        if self.k is None:
            return a >= 0 and a * self.n_min + const >= bound
        b = coeffs[1]
        if self.n_min + self.k_hi < self.k_lo:
            return False  # an empty domain proves nothing
        corners = [(self.n_min, self.k_lo), (self.n_min, self.n_min + self.k_hi)]
        # the domain is the cone of the directions (1, 0) and (1, 1) at those corners
        return a >= 0 and a + b >= 0 and all(a * x + b * y + const >= bound for x, y in corners)

    def nonzero(self, e: sp.Expr) -> bool:
        return self.at_least(e, 1) or self.at_least(-e, 1)


def _affine(e: sp.Expr, variables: tuple[sp.Symbol, ...]) -> tuple[list[int], int] | None:
    """``(coefficients, constant)`` of an affine form with integer coefficients, else None."""
    e = sp.expand(e)
    if e.free_symbols - set(variables):
        return None
    try:
        poly = sp.Poly(e, *variables)
    except sp.PolynomialError:
        return None
    if poly.total_degree() > 1:
        return None
    coeffs = [poly.coeff_monomial(v) for v in variables]
    const = poly.coeff_monomial(1)
    if not all(c.is_Integer for c in (*coeffs, const)):
        return None
    return [int(c) for c in coeffs], int(const)


def _as_gamma(e: sp.Expr, variables: tuple[sp.Symbol, ...]) -> sp.Expr:
    """Factorials and binomials whose arguments involve the variables, as gamma functions.

    ``binomial(A, B) = gamma(A+1) / (gamma(B+1) gamma(A-B+1))`` for integers ``A >= 0`` and
    any integer ``B`` (both sides 0 outside ``0 <= B <= A``); ``A >= 0`` holds because the
    numerator gamma must be >= 1 on the domain (checked in :func:`_normal_form`).
    """
    rep: dict[sp.Basic, sp.Expr] = {}
    for f in e.atoms(sp.factorial, sp.binomial):
        if not f.has(*variables):
            continue
        if any(_affine(a, variables) is None for a in f.args):
            raise NotApplicable(f"{f}: arguments not affine with integer coefficients")
        if isinstance(f, sp.factorial):
            rep[f] = sp.gamma(f.args[0] + 1)
        else:
            a, b = f.args
            rep[f] = sp.gamma(a + 1) / (sp.gamma(b + 1) * sp.gamma(a - b + 1))
    return e.xreplace(rep) if rep else e


def _normal_form(e: sp.Expr, dom: Domain, whole_classes: bool) -> tuple[sp.Expr, list[sp.Expr]]:
    """``e`` with every gamma and power of the variables replaced by fresh symbols (see the
    module docstring), and the denominators left; NotApplicable outside the fragment."""
    v = dom.variables
    e = _as_gamma(sp.sympify(e), v)
    if e.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
        raise NeedsLargerStart("a term is undefined (a pole of gamma) at the domain's edge")
    for a in e.atoms(sp.Sum, sp.Product, sp.Integral, sp.Derivative, sp.Piecewise):
        if a.has(*v):
            raise NotApplicable(f"{type(a).__name__} in the variables left in a step")
    rep: dict[sp.Basic, sp.Expr] = {}
    rep.update(_gamma_replacements(e, dom, whole_classes))
    rep.update(_power_replacements(e, v))
    for f in e.atoms(sp.Function):
        if f in rep or not f.has(*v) or isinstance(f, sp.core.function.AppliedUndef):
            continue
        if not isinstance(f, sp.gamma):
            raise NotApplicable(f"{f.func} of the induction variable is outside this rung")
    out = e.xreplace(rep)
    # the denominators as written (a replacement may cancel a vanishing factor against a
    # rising factorial), and those after it (1/gamma at a pole must not land in one);
    # a bare 1/gamma is entire and needs no check
    before = [p.base for p in e.atoms(sp.Pow) if p.exp.is_negative
              and not isinstance(p.base, sp.gamma)]
    after = [p.base for p in out.atoms(sp.Pow) if p.exp.is_negative]
    return out, before + after


def _gamma_replacements(e: sp.Expr, dom: Domain, whole_classes: bool) -> dict[sp.Basic, sp.Expr]:
    """Safe gammas of a class in terms of the lowest one, the others as ``1/gamma`` of the
    highest; with ``whole_classes``, a class with one unsafe member is normalised entirely
    as ``1/gamma`` (valid for any argument, and only accepted where every member of the
    class sits in a denominator)."""
    v = dom.variables
    safe: dict[sp.Expr, list[tuple[int, sp.Expr]]] = {}
    unsafe: dict[sp.Expr, list[tuple[int, sp.Expr]]] = {}
    for g in e.atoms(sp.gamma):
        if not g.has(*v):
            continue
        arg = g.args[0]
        form = _affine(arg, v)
        if form is None:
            raise NotApplicable(f"{g}: argument not affine with integer coefficients")
        shift = form[1]
        (safe if dom.at_least(arg, 1) else unsafe).setdefault(sp.expand(arg - shift), []).append(
            (shift, g))
    if whole_classes:
        for cls in [c for c in safe if c in unsafe]:
            unsafe[cls] += safe.pop(cls)
    rep: dict[sp.Basic, sp.Expr] = {}
    for cls, members in safe.items():
        base = min(s for s, _ in members)
        sym = sp.Dummy("Gamma")
        for s, g in members:
            rep[g] = sym * sp.Mul(*[cls + base + i for i in range(s - base)])
    for cls, members in unsafe.items():
        top = max(s for s, _ in members)
        inv = sp.Dummy("invGamma")  # 1/gamma(cls + top), entire
        for s, g in members:
            rep[g] = 1 / (inv * sp.Mul(*[cls + s + i for i in range(top - s)]))
    return rep


def _power_replacements(e: sp.Expr, v: tuple[sp.Symbol, ...]) -> dict[sp.Basic, sp.Expr]:
    rep: dict[sp.Basic, sp.Expr] = {}
    gens: dict[tuple[sp.Expr, sp.Symbol], sp.Symbol] = {}
    for p in e.atoms(sp.Pow):
        if not p.exp.has(*v):
            if p.base.has(*v) and not p.exp.is_Integer:
                raise NotApplicable(f"{p}: a non-integer power of the induction variable")
            continue
        if p.base.has(*v):
            raise NotApplicable(f"{p}: base and exponent both involve the variables")
        form = _affine(p.exp, v)
        if form is None:
            raise NotApplicable(f"{p}: exponent not affine with integer coefficients")
        coeffs, const = form
        out = p.base ** const
        for var, c in zip(v, coeffs, strict=True):
            if c:
                sym = gens.setdefault((p.base, var), sp.Dummy(f"pow_{var}"))
                out *= sym ** c
        rep[p] = out
    exps = [x for x in e.atoms(sp.exp) if x.has(*v)]
    if exps:
        raise NotApplicable(f"{exps[0]}: exp of the induction variable is outside this rung")
    return rep


def _checked_normal(e: sp.Expr, dom: Domain, whole_classes: bool) -> sp.Expr:
    """The normal form of ``e`` after checking that no denominator can vanish on ``dom``."""
    out, bases = _normal_form(e, dom, whole_classes)
    v = dom.variables
    inv = {s for s in out.free_symbols if isinstance(s, sp.Dummy) and s.name == "invGamma"}
    for b in bases:
        if b.free_symbols & inv:
            raise NeedsLargerStart("1/gamma at a possible pole appears in a denominator")
        if not b.has(*v):
            continue
        for fac, _mult in _factors(b):
            if fac.has(*v) and not dom.nonzero(fac):
                raise NeedsLargerStart(f"the denominator factor {fac} may vanish for "
                                    f"{dom.n} >= {dom.n_min}")
    return out


def _factors(e: sp.Expr) -> list[tuple[sp.Expr, int]]:
    """The irreducible factors of ``e`` with their multiplicities (none for a number)."""
    if not e.free_symbols:
        return []
    return sp.factor_list(e)[1]


def defined_on(e: sp.Expr, dom: Domain) -> None:
    """Raise NotApplicable unless ``e`` is finite at every integer point of ``dom`` (every
    gamma in a numerator has an argument >= 1, every denominator keeps one sign)."""
    try:
        _checked_normal(e, dom, whole_classes=True)
    except NeedsLargerStart:
        _checked_normal(e, dom, whole_classes=False)


def zero_on_domain(e: sp.Expr, dom: Domain) -> bool:
    """Whether ``e`` is exactly 0 at every integer point of ``dom`` (a sufficient test).

    True only when the normal form is the zero rational function and no denominator can
    vanish on the domain (a factor of the variables must be affine and keep one sign; a
    factor of other symbols only, or of the base gammas, is a generic nonzero); raises
    NotApplicable outside the fragment. Both gamma normalisations are tried; each is sound.
    """
    failure: NotApplicable | None = None
    for whole_classes in (True, False):
        try:
            out = _checked_normal(e, dom, whole_classes)
        except NotApplicable as exc:
            failure = exc
            continue
        if is_zero(sp.expand(sp.numer(sp.together(out)))):
            return True
        failure = None
    if failure is not None:
        raise failure
    return False


# -- explicit evaluation at a concrete n -----------------------------------------------------


def explicit_at(e: sp.Expr, n: sp.Symbol, value: int) -> sp.Expr:
    """``e`` at ``n = value`` with every sum and product written out term by term (no
    ``doit``); only ranges with ``upper >= lower - 1`` (the empty range is 0 or 1)."""
    e = sp.sympify(e).xreplace({n: sp.Integer(value)})
    rep = {}
    for a in _outer_atoms(e):
        (k, lo, hi), = a.limits
        if not (lo.is_Integer and hi.is_Integer) or hi < lo - 1:
            raise NotApplicable(f"{a}: limits not integers in normal order at {n} = {value}")
        terms = [a.function.xreplace({k: sp.Integer(i)}) for i in range(int(lo), int(hi) + 1)]
        rep[a] = sp.Add(*terms) if isinstance(a, sp.Sum) else sp.Mul(*terms)
    out = e.xreplace(rep)
    if out.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
        raise NotApplicable(f"undefined at {n} = {value}")
    if out.has(sp.Sum, sp.Product):
        raise NotApplicable("nested sums or products")
    return out


def _outer_atoms(e: sp.Expr) -> list[sp.Expr]:
    atoms = list(e.atoms(sp.Sum, sp.Product))
    for a in atoms:
        if len(a.limits) != 1 or a.function.has(sp.Sum, sp.Product) or any(
                b.has(sp.Sum, sp.Product) for b in a.limits[0][1:]):
            raise NotApplicable(f"{a}: only single, non-nested sums and products")
    return atoms


def _exact_zero_value(e: sp.Expr) -> bool:
    return is_zero(sp.expand(sp.numer(sp.together(sp.expand(e)))))


def base_cases(d: sp.Expr, n: sp.Symbol, values: list[int], steps: list[str]) -> None:
    """``d = 0`` at each concrete ``n`` in ``values``, by explicit finite sums; raise otherwise."""
    for value in values:
        at = explicit_at(d, n, value)
        if not _exact_zero_value(at):
            raise NotApplicable(f"base case {n} = {value} not an exact zero")
    steps.append(f"induction base: lhs - rhs = 0 at {n.name} = "
                 f"{', '.join(map(str, values))} (explicit finite sums, exact)")


# -- route A: sums and products whose summand is free of n -----------------------------------


def _peel(atom: sp.Expr, n: sp.Symbol, start: int, y: sp.Symbol) -> sp.Expr:
    """``atom(n)`` in terms of ``y = atom(n-1)`` for ``n >= start + 1``."""
    (k, lo, hi), = atom.limits
    f = atom.function
    if f.has(n) or lo.has(n):
        raise NotApplicable(f"{atom}: summand or lower limit depends on {n}")
    form = _affine(hi, (n,))
    if form is None or not lo.is_Integer:
        raise NotApplicable(f"{atom}: limits not of the form q .. m {n} + c")
    (m,), c = form
    if not 1 <= m <= MAX_STRIDE:
        raise NotApplicable(f"{atom}: stride {m} outside 1..{MAX_STRIDE}")
    if m * start + c < lo - 1:
        raise NeedsLargerStart(f"{atom}: a range empty by convention at {n} = {start}")
    kk = sp.Dummy("k", integer=True)
    defined_on(f.xreplace({k: kk}), Domain(kk, int(lo)))
    new = [f.xreplace({k: m * (n - 1) + c + j}) for j in range(1, m + 1)]
    return y + sp.Add(*new) if isinstance(atom, sp.Sum) else y * sp.Mul(*new)


def route_a(d: sp.Expr, n: sp.Symbol, start: int, steps: list[str]) -> None:
    """The step of route A on ``d = lhs - rhs`` for ``n >= start + 1``; raise when not shown."""
    atoms = [a for a in _outer_atoms(d) if a.has(n)]
    if not atoms:
        raise NotApplicable("no sum or product in the induction variable")
    ys = {a: sp.Dummy("Y") for a in atoms}
    defined_on(d.xreplace(ys), Domain(n, start))  # the closed parts, every denominator kept
    h = d.xreplace(ys).xreplace({n: n - 1})
    g = d.xreplace({a: _peel(a, n, start, ys[a]) for a in atoms})
    lam = None
    for y in ys.values():
        dh = sp.cancel(sp.diff(h, y))
        if not is_zero(dh):
            lam = sp.cancel(sp.diff(g, y) / dh)
            break
    if lam is None or lam.has(*ys.values()):
        raise NotApplicable("lhs - rhs is not linear in its sums and products")
    if not zero_on_domain(g - lam * h, Domain(n, start + 1)):
        raise NotApplicable("the induction step is not an exact zero")
    steps.append(f"induction step ({n.name} - 1 -> {n.name}, {n.name} >= {start + 1}): each "
                 f"sum/product peeled by its last term(s); D({n.name}) - ({sp.sstr(lam)}) "
                 f"D({n.name} - 1) is the zero rational function after gamma normalisation")


# -- route B: creative telescoping -----------------------------------------------------------


@dataclass
class Recurrence:
    """``sum_j a[j] F(n+j, k) = G(n, k+1) - G(n, k)``: the operator and the certificate."""

    a: list[sp.Expr]
    g: sp.Expr  # G(n, k) as an expression in n, k


def zeilberger(f: sp.Expr, n: sp.Symbol, k: sp.Symbol) -> Recurrence:
    """Search (not proof) for a telescoping recurrence of ``f(n, k)``; the caller verifies it."""
    ratios = [sp.combsimp(f.xreplace({n: n + j}) / f) for j in ORDERS + (0,)]
    sigma = sp.combsimp(f.xreplace({k: k + 1}) / f)
    if not all(r.is_rational_function(n, k) for r in (*ratios, sigma)):
        raise NotApplicable("the summand is not hypergeometric in n and k")
    for order in ORDERS:
        rec = _zeilberger_order(f, n, k, order, sigma)
        if rec is not None:
            return rec
    raise NotApplicable("no recurrence of order <= 2 found")


def _zeilberger_order(f: sp.Expr, n: sp.Symbol, k: sp.Symbol, order: int,
                      sigma: sp.Expr) -> Recurrence | None:
    rho = [sp.together(sp.combsimp(f.xreplace({n: n + j}) / f)) for j in range(order + 1)]
    q = sp.Integer(1)
    for r in rho:
        q = sp.lcm(q, sp.denom(r))
    pj = [sp.expand(sp.cancel(r * q)) for r in rho]
    bar = sp.cancel(sigma * q / q.xreplace({k: k + 1}))
    num, den = sp.fraction(bar)
    a_poly, b_poly, c_poly = gosper_normal(num, den, k, polys=False)
    a_syms = sp.symbols(f"a0:{order + 1}", cls=sp.Dummy)
    p0 = sum(a * p for a, p in zip(a_syms, pj, strict=True))
    for deg in range(MAX_CERTIFICATE_DEGREE + 1):
        xs = sp.symbols(f"x0:{deg + 1}", cls=sp.Dummy)
        x = sum(c * k**i for i, c in enumerate(xs))
        eq = sp.expand(a_poly * x.xreplace({k: k + 1}) - b_poly.xreplace({k: k - 1}) * x
                       - p0 * c_poly)
        unknowns = list(a_syms) + list(xs)
        coeffs = sp.Poly(eq, k).all_coeffs()
        mat, _ = sp.linear_eq_to_matrix(coeffs, unknowns)
        for vec in mat.nullspace():
            vec = vec.applyfunc(sp.cancel)
            a_vals = list(vec[: order + 1])
            if all(is_zero(a) for a in a_vals):
                continue
            scale = sp.Integer(1)
            for val in vec:
                scale = sp.lcm(scale, sp.denom(sp.together(val)))
            vec = (vec * scale).applyfunc(sp.cancel)
            a_vals = [sp.factor(a) for a in vec[: order + 1]]
            x_val = sum(c * k**i for i, c in enumerate(vec[order + 1:]))
            r_cert = b_poly.xreplace({k: k - 1}) * x_val / (c_poly * q)
            return Recurrence(a_vals, _absorbed(sp.cancel(r_cert) * _as_gamma(f, (n, k)), n, k))
    return None


def _absorbed(g: sp.Expr, n: sp.Symbol, k: sp.Symbol) -> sp.Expr:
    """``g`` with linear denominator factors folded into the gammas they match
    (``1/(A gamma(A)) = 1/gamma(A+1)``), so that ``G`` stays finite where ``R`` has a pole
    that ``F`` cancels. Only a candidate: the verification decides."""
    g = sp.cancel(sp.together(g))
    for _ in range(8):
        num, den = sp.fraction(g)
        changed = False
        factors = _factors(den)
        gammas = [x for x in den.atoms(sp.gamma)]
        for fac, _mult in factors:
            for gm in gammas:
                arg = gm.args[0]
                for sign in (1, -1):
                    if sp.expand(sign * fac - arg) == 0:
                        g = sp.cancel(sp.together(g.xreplace({gm: sp.gamma(arg + 1) / arg})))
                        changed = True
                        break
                if changed:
                    break
            if changed:
                break
        if not changed:
            return g
    return g


def route_b(d: sp.Expr, n: sp.Symbol, start: int, steps: list[str]) -> list[int]:
    """Route B on ``d = S - r`` (or ``r - S``); returns the n at which ``d`` must still be
    checked explicitly (initial values and the roots of the leading coefficient)."""
    atoms = [a for a in _outer_atoms(d) if a.has(n)]
    if len(atoms) != 1 or not isinstance(atoms[0], sp.Sum):
        raise NotApplicable("route B takes exactly one sum in n")
    s = atoms[0]
    y = sp.Dummy("S")
    lin = d.xreplace({s: y})
    sign = sp.diff(lin, y)
    if sign not in (1, -1):
        raise NotApplicable("the sum must appear as + S or - S")
    r = -sign * lin.xreplace({y: 0})  # d = sign * (S - r)
    (k, lo, hi), = s.limits
    f = s.function
    form = _affine(hi, (n,))
    if not lo.is_Integer or form is None or form[0] != [1]:
        raise NotApplicable("route B needs the limits lo .. n + c")
    c = form[1]
    if start + c < lo - 1:
        raise NeedsLargerStart("empty-by-convention range at the start")
    kk = sp.Dummy("k", integer=True)
    f = f.xreplace({k: kk})
    dom_k = Domain(n, start, kk, int(lo), c)
    defined_on(f, dom_k)
    defined_on(r, Domain(n, start))
    rec = zeilberger(f, n, kk)
    order = len(rec.a) - 1
    if is_zero(rec.a[-1]) or rec.a[-1].free_symbols - {n} or not _numer_only(rec.a[-1], n):
        raise NotApplicable("the leading coefficient is not a nonzero polynomial in n alone")
    cert = sum(a * f.xreplace({n: n + j}) for j, a in enumerate(rec.a)) - (
        rec.g.xreplace({kk: kk + 1}) - rec.g)
    if not zero_on_domain(cert, dom_k):
        raise NotApplicable("the telescoping certificate is not an exact zero")
    boundary = rec.g.xreplace({kk: n + c + 1}) - rec.g.xreplace({kk: lo})
    extra = sum(rec.a[j] * f.xreplace({n: n + j, kk: n + c + i})
                for j in range(1, order + 1) for i in range(1, j + 1))
    rhs_rec = sum(a * r.xreplace({n: n + j}) for j, a in enumerate(rec.a)) - (boundary + extra)
    if not zero_on_domain(rhs_rec, Domain(n, start)):
        raise NotApplicable("the closed form does not satisfy the recurrence exactly")
    def shifted(j: int) -> str:
        return f"S({n.name}{f'+{j}' if j else ''})"

    upper = f"{n.name}{f'{c:+d}' if c else ''}"
    ops = " + ".join(f"({sp.sstr(a)}) {shifted(j)}" for j, a in enumerate(rec.a))
    shown = sp.factor(rec.g).xreplace({kk: k})
    steps.append(f"creative telescoping: {ops} = B({n.name}) with certificate "
                 f"G({n.name}, {k}) = {sp.sstr(shown)}; sum_j a_j F({n.name}+j, {k}) = "
                 f"G({n.name}, {k}+1) - G({n.name}, {k}) is an exact zero for "
                 f"{lo} <= {k} <= {upper}, {n.name} >= {start} (gamma normal form)")
    steps.append(f"boundary terms: B({n.name}) = G({n.name}, {upper}+1) - G({n.name}, {lo}) + "
                 f"sum_(j>=1) a_j sum_(i=1..j) F({n.name}+j, {upper}+i) (the terms of "
                 f"S({n.name}+j) past {k} = {upper}); the closed form satisfies the same "
                 f"recurrence exactly for {n.name} >= {start}")
    lead = sp.Poly(sp.numer(sp.together(rec.a[-1])), n)
    roots = [int(x) for x in sp.roots(lead, filter="Z") if int(x) >= start]
    initial = list(range(start, start + order))
    initial += [x + order for x in roots]
    if roots:
        steps.append(f"the leading coefficient vanishes at {n.name} = {roots}: the value "
                     f"{order} further on is checked explicitly")
    return sorted(set(initial))


def _numer_only(e: sp.Expr, n: sp.Symbol) -> bool:
    return not sp.denom(sp.together(e)).has(n)


# -- entry points ----------------------------------------------------------------------------


def _start_of(n: sp.Symbol) -> int:
    if n.is_integer is not True:
        raise NotApplicable(f"{n} is not declared an integer")
    if n.is_positive:
        return 1
    if n.is_nonnegative:
        return 0
    raise NotApplicable(f"{n} is not declared positive or nonnegative")


def prove_by_induction(lhs: Any, rhs: Any, n: sp.Symbol | None = None) -> InductionProof:
    """Prove ``lhs = rhs`` for every integer ``n >= n0`` by induction, or raise
    :class:`NotApplicable` saying why not.

    ``n`` (default: the only symbol in a summation/product limit) must be an integer symbol
    declared positive (``n0 = 1``) or nonnegative (``n0 = 0``). Route A (summands free of
    ``n``) is tried first, then route B (one sum whose summand depends on ``n``). When a
    check needs larger ``n`` (a gamma argument or a denominator that is only safe further
    on), the induction starts up to :data:`MAX_START_SHIFT` later and the skipped ``n`` are
    base cases.
    """
    d = sp.sympify(lhs) - sp.sympify(rhs)
    if isinstance(d, sp.MatrixBase) or not isinstance(d, sp.Expr):
        raise NotApplicable("scalar identities only")
    if n is None:
        limit_syms = {s for a in _outer_atoms(d) for b in a.limits[0][1:] for s in b.free_symbols}
        if len(limit_syms) != 1:
            raise NotApplicable("needs exactly one symbol in the summation limits")
        (n,) = limit_syms
    n0 = _start_of(n)
    reasons: list[str] = []
    for route in ("A", "B"):
        for start in range(n0, n0 + MAX_START_SHIFT + 1):
            steps: list[str] = []
            try:
                if route == "A":
                    route_a(d, n, start, steps)
                    bases = list(range(n0, start + 1))
                else:
                    bases = route_b(d, n, start, steps)
                    bases = sorted(set(range(n0, start)) | set(bases))
                base_cases(d, n, bases, steps)
            except NeedsLargerStart as exc:
                reasons.append(f"route {route} from {n.name} >= {start}: {exc}")
                continue
            except NotApplicable as exc:
                reasons.append(f"route {route}: {exc}")
                break  # a later start cannot help
            except Exception as exc:
                reasons.append(f"route {route}: {type(exc).__name__}: {str(exc)[:80]}")
                break
            what = ("telescoping step of each sum/product" if route == "A"
                    else "creative telescoping (Zeilberger) recurrence")
            return InductionProof(n, n0, what, steps)
    raise NotApplicable("; ".join(reasons[:3]))


def attempt(lhs: Any, rhs: Any, dims: list[sp.Symbol]) -> tuple[InductionProof | None, list[str]]:
    """The hook for :func:`.prove.prove_equal`: ``(proof, steps)``, or ``(None, [why not])``."""
    if len(dims) != 1:
        return None, []
    try:
        proof = prove_by_induction(lhs, rhs, dims[0])
    except NotApplicable as exc:
        return None, [f"induction on {dims[0].name}: not applicable ({str(exc)[:200]})"]
    except Exception as exc:
        return None, [f"induction on {dims[0].name}: not applicable "
                      f"({type(exc).__name__}: {str(exc)[:120]})"]
    return proof, list(proof.steps)


__all__ = ["InductionProof", "NeedsLargerStart", "Domain", "prove_by_induction", "attempt",
           "zero_on_domain", "defined_on", "explicit_at", "zeilberger"]

"""Known-unsound rewrites: SymPy's automatic evaluations that are wrong, vetted one by one.

A proof step is only as good as the rewrite it trusts. Each :class:`Entry` below names a
rewrite SymPy performs on its own (when an expression is built, or in ``doit``) that is false
somewhere, with a reproducer (``entry.wrong()`` returns SymPy's output next to the truth, and
``tests/engine/test_symbolic_unsound.py`` asserts that SymPy still gets it wrong) and a detector.

How each kind is neutralised while a claim is proved (:mod:`.prove`):

* **delta summation with a stride** (``doit`` of ``Sum(KroneckerDelta(i, 2*j)*x[j], (j, 1,
  N))`` gives ``x[i/2]`` under ``i >= 2, N >= i/2`` without the parity condition; likewise a
  stride 3 with an offset and the same delta in a ``Product``): before a rung runs, every
  ``Sum``/``Product`` whose summand holds a delta linear in the bound variable with a
  coefficient other than +-1 is replaced by an opaque symbol (:func:`mask`, the outermost
  binder around it included, so that no enclosing sum treats it as constant). A rung can then
  only prove what holds for *every* value of that sum; the concrete-size route expands it
  term by term instead (:mod:`.confirm`), where the delta is evaluated on integers.
* **conjugates pushed through branch cuts** (``conjugate(loggamma(z))`` becomes
  ``loggamma(conjugate(z))`` when it is built, and ``loggamma(x)`` for real x, false on the
  negative axis; likewise ``li``, ``uppergamma``/``lowergamma`` and Legendre/Chebyshev
  functions of non-integer degree): the rewrite happens before the prover sees the claim, so
  it cannot be undone; :func:`fingerprints` finds what it leaves behind (the function applied
  to ``conjugate(w)``, or to a real argument that may lie on the cut) and the prover decides
  UNDECIDED naming the entry: the statement received may not be the statement written. A
  conjugate kept unevaluated (``conjugate(f(w), evaluate=False)``) counts too: any rung that
  rebuilds it, and any evaluation at a point, makes the same rewrite.

The list is what was confirmed on SymPy 1.14 (and the issue tracker: sympy/sympy#27359, a
delta inside a ``Piecewise`` summand, whose simplified sum leaks the bound variable).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import sympy as sp


@dataclass(frozen=True)
class Entry:
    """One vetted wrong rewrite: ``key`` names it in verdict reasons, ``wrong()`` reproduces
    it as ``(what SymPy gives, what is true)`` at a point where they differ."""

    key: str
    what: str
    wrong: Callable[[], tuple[Any, Any]]


def _stride_sum() -> tuple[Any, Any]:
    i, j = sp.symbols("i j", integer=True)
    N = sp.Symbol("N", integer=True, positive=True)
    x = sp.IndexedBase("x")
    got = sp.Sum(sp.KroneckerDelta(i, 2 * j) * x[j], (j, 1, N)).doit().xreplace({i: 3, N: 2})
    return got, sp.Integer(0)  # i = 3 is odd: no j has 2j = 3


def _stride3_sum() -> tuple[Any, Any]:
    i, j = sp.symbols("i j", integer=True)
    N = sp.Symbol("N", integer=True, positive=True)
    x = sp.IndexedBase("x")
    got = sp.Sum(sp.KroneckerDelta(i, 3 * j + 1) * x[j], (j, 1, N)).doit()
    return got.xreplace({i: 5, N: 2}), sp.Integer(0)  # 3j + 1 = 5 has no integer j


def _stride_product() -> tuple[Any, Any]:
    i, j = sp.symbols("i j", integer=True)
    N = sp.Symbol("N", integer=True, positive=True)
    x = sp.IndexedBase("x")
    got = sp.Product(1 + sp.KroneckerDelta(i, 2 * j) * x[j], (j, 1, N)).doit()
    return got.xreplace({i: 3, N: 2}), sp.Integer(1)


def _conj(f: Callable[[sp.Expr], sp.Expr], at: sp.Expr) -> Callable[[], tuple[Any, Any]]:
    def run() -> tuple[Any, Any]:
        x = sp.Symbol("x", real=True)
        got = sp.conjugate(f(x)).xreplace({x: at})  # SymPy drops the conjugate for real x
        true = sp.conjugate(sp.N(f(at), 30))
        return sp.N(got, 30), true
    return run


def _half(f: Callable[..., sp.Expr]) -> Callable[[sp.Expr], sp.Expr]:
    return lambda t: f(sp.Rational(1, 2), t)


def _third(f: Callable[..., sp.Expr]) -> Callable[[sp.Expr], sp.Expr]:
    return lambda t: f(sp.Rational(1, 3), t)


def _piecewise_delta_sum() -> tuple[Any, Any]:
    i, j, n = sp.symbols("i j n")
    x = sp.IndexedBase("x")
    U = sp.Sum(sp.Piecewise((sp.KroneckerDelta(i, j, (1, n)), x[i] > 0), (0, True)), (i, 1, n))
    got = sp.simplify(-U)
    return got.free_symbols, (-U).free_symbols  # the bound i leaks out as a free symbol


#: Rewrites of a conjugate that SymPy performs for these functions (first argument position
#: of the variable, where the branch cut is, and whether a degree must be an integer).
_CONJ_CUTS: dict[type, str] = {
    sp.loggamma: "(-oo, 0]",
    sp.li: "(-oo, 0)",
    sp.uppergamma: "(-oo, 0] (non-integer order)",
    sp.lowergamma: "(-oo, 0] (non-integer order)",
    sp.legendre: "(-oo, -1] (non-integer degree)",
    sp.assoc_legendre: "(-oo, -1] and [1, oo) (non-integer degree)",
    sp.chebyshevt: "(-oo, -1] (non-integer degree)",
    sp.chebyshevu: "(-oo, -1] (non-integer degree)",
}

ENTRIES: tuple[Entry, ...] = (
    Entry("delta-sum-stride",
          "Sum(KroneckerDelta(i, c*j + b)*f(j), j).doit() with |c| != 1 drops the condition "
          "that c divides i - b", _stride_sum),
    Entry("delta-sum-stride-offset",
          "the same with stride 3 and an offset: Sum(KroneckerDelta(i, 3j + 1) x[j]) reads "
          "x[(i - 1)/3] for every i >= 4", _stride3_sum),
    Entry("delta-product-stride",
          "Product(1 + KroneckerDelta(i, 2j) x[j], j).doit() reads x[i/2] for odd i",
          _stride_product),
    Entry("delta-piecewise-sum",
          "simplify of a Sum of Piecewise((KroneckerDelta(i, j), x[i] > 0), ...) over i "
          "leaves i free (sympy/sympy#27359)", _piecewise_delta_sum),
    Entry("conjugate-loggamma",
          "conjugate(loggamma(z)) -> loggamma(conjugate(z)), loggamma(x) for real x; false "
          "on the cut (-oo, 0]", _conj(sp.loggamma, sp.Rational(-1, 2))),
    Entry("conjugate-li", "conjugate(li(z)) -> li(conjugate(z)); false on (-oo, 0)",
          _conj(sp.li, sp.Rational(-1, 2))),
    Entry("conjugate-uppergamma",
          "conjugate(uppergamma(a, z)) -> uppergamma(a, conjugate(z)); false for z < 0",
          _conj(_third(sp.uppergamma), sp.Rational(-1, 2))),
    Entry("conjugate-lowergamma",
          "conjugate(lowergamma(a, z)) -> lowergamma(a, conjugate(z)); false for z < 0",
          _conj(_third(sp.lowergamma), sp.Rational(-1, 2))),
    Entry("conjugate-legendre",
          "conjugate(legendre(nu, z)) -> legendre(nu, conjugate(z)) for non-integer nu; "
          "false on (-oo, -1]", _conj(_half(sp.legendre), sp.Integer(-3))),
    Entry("conjugate-assoc-legendre",
          "conjugate(assoc_legendre(nu, m, z)) -> assoc_legendre(nu, m, conjugate(z)); false "
          "off [-1, 1] for non-integer nu",
          _conj(lambda t: sp.assoc_legendre(sp.Rational(1, 2), 1, t), sp.Integer(3))),
    Entry("conjugate-chebyshevt",
          "conjugate(chebyshevt(nu, z)) -> chebyshevt(nu, conjugate(z)) for non-integer nu; "
          "false on (-oo, -1)", _conj(_half(sp.chebyshevt), sp.Integer(-3))),
    Entry("conjugate-chebyshevu",
          "conjugate(chebyshevu(nu, z)) -> chebyshevu(nu, conjugate(z)) for non-integer nu; "
          "false on (-oo, -1)", _conj(_half(sp.chebyshevu), sp.Integer(-3))),
)

_KEY_OF = {sp.loggamma: "conjugate-loggamma", sp.li: "conjugate-li",
           sp.uppergamma: "conjugate-uppergamma", sp.lowergamma: "conjugate-lowergamma",
           sp.legendre: "conjugate-legendre", sp.assoc_legendre: "conjugate-assoc-legendre",
           sp.chebyshevt: "conjugate-chebyshevt", sp.chebyshevu: "conjugate-chebyshevu"}


def entry(key: str) -> Entry:
    """The entry named ``key``."""
    return next(e for e in ENTRIES if e.key == key)


# -- delta summation with a stride ------------------------------------------------------------


def stride_delta(binder: sp.Basic) -> bool:
    """Whether a ``Sum``/``Product`` holds a ``KroneckerDelta`` (in its summand or a
    ``Piecewise`` condition of it) linear in one of its bound variables with a coefficient
    other than +-1: the delta SymPy's ``deltasummation`` would use, wrongly."""
    for v in binder.variables:
        for d in binder.function.atoms(sp.KroneckerDelta):
            try:
                p = sp.Poly(d.args[0] - d.args[1], v)
            except sp.PolynomialError:
                continue
            if p.degree() == 1 and p.LC() not in (1, -1):
                return True
    return False


def _piecewise_delta(binder: sp.Basic) -> bool:
    """sympy/sympy#27359: a delta in a ``Piecewise`` whose condition holds a bound variable."""
    bound = set(binder.variables)
    return any(pw.has(sp.KroneckerDelta)
               and any(c.free_symbols & bound for _, c in pw.args)
               for pw in binder.function.atoms(sp.Piecewise))


def unsafe_binders(e: Any) -> list[tuple[sp.Basic, str]]:
    """Every ``Sum``/``Product`` in ``e`` on a delta-summation entry, with the entry's key."""
    if not isinstance(e, sp.Basic):
        return []
    out = []
    for b in e.atoms(sp.Sum, sp.Product):
        if stride_delta(b):
            out.append((b, "delta-sum-stride" if isinstance(b, sp.Sum) else
                        "delta-product-stride"))
        elif _piecewise_delta(b):
            out.append((b, "delta-piecewise-sum"))
    return out


def mask(e: Any) -> tuple[Any, list[str]]:
    """``e`` with each unsafe ``Sum``/``Product`` (:func:`unsafe_binders`), and every
    binder around it, replaced by one opaque symbol per distinct subtree; and the keys hit.

    Sound for the ladder: an identity that is zero for every value of the opaque symbols is
    zero for the value the sum has. The enclosing binders go too, because the symbol must not
    depend on a bound variable that an outer sum would then treat as a constant."""
    if not isinstance(e, sp.Basic):
        return e, []
    hits = unsafe_binders(e)
    if not hits:
        return e, []
    inner = {b for b, _ in hits}
    keys = sorted({k for _, k in hits})

    def contains_unsafe(x: sp.Basic) -> bool:
        return any(x == b or x.has(b) for b in inner)

    rep: dict[sp.Basic, sp.Symbol] = {}

    def go(x: Any) -> Any:
        if not isinstance(x, sp.Basic) or x.is_Atom:
            return x
        if isinstance(x, (sp.Sum, sp.Product)) and contains_unsafe(x):
            if x not in rep:
                rep[x] = sp.Dummy(f"opaque{len(rep)}")
            return rep[x]
        if not contains_unsafe(x):
            return x
        return x.func(*[go(a) for a in x.args])

    return go(e), keys


# -- conjugates pushed through branch cuts ----------------------------------------------------


def _variable_arg(f: sp.Basic) -> sp.Expr:
    return f.args[-1]


def _degree_integer(f: sp.Basic) -> bool:
    if isinstance(f, (sp.uppergamma, sp.lowergamma, sp.legendre, sp.assoc_legendre,
                      sp.chebyshevt, sp.chebyshevu)):
        return bool(f.args[0].is_integer)
    return False


def _may_be_on_cut(f: sp.Basic) -> bool:
    """Whether the real argument of ``f`` may lie on its branch cut (conservative)."""
    a = _variable_arg(f)
    if isinstance(f, (sp.loggamma, sp.li, sp.uppergamma, sp.lowergamma)):
        return not bool(a.is_positive)
    if isinstance(f, sp.assoc_legendre):
        return not bool((1 - a ** 2).is_nonnegative)
    return not bool((a + 1).is_positive)


def fingerprints(*exprs: Any) -> list[str]:
    """Keys of the conjugate entries whose trace is in ``exprs``: a listed function applied
    to ``conjugate(w)`` (what ``conjugate(f(w))`` became), or to a real argument that may lie
    on its cut (what ``conjugate(f(x))`` became for real x). Functions of an integer degree
    or order (no cut) are not counted."""
    keys: set[str] = set()
    for e in exprs:
        if isinstance(e, sp.MatrixBase):
            found = fingerprints(*list(e))
            keys |= set(found)
            continue
        if not isinstance(e, sp.Basic):
            continue
        for f in e.atoms(*_CONJ_CUTS):
            if _degree_integer(f):
                continue
            a = _variable_arg(f)
            if isinstance(a, sp.conjugate) or (a.is_real and _may_be_on_cut(f)):
                keys.add(_KEY_OF[type(f)])
        # conjugate(f(w)) kept unevaluated (evaluate=False): the first rung that rebuilds it
        # makes the rewrite, and so would the evaluation at a point
        for c in e.atoms(sp.conjugate):
            f = c.args[0]
            if isinstance(f, tuple(_CONJ_CUTS)) and not _degree_integer(f):
                keys.add(_KEY_OF[type(f)])
    return sorted(keys)


def describe(keys: Iterable[str]) -> str:
    """One line per key: ``key (what)``, for a verdict's reason."""
    return "; ".join(f"{k} ({entry(k).what})" for k in keys)

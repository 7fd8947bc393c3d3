"""Search for a point where two expressions differ, re-checked exactly or at high precision.

A witness is a substitution of exact values (integers, rationals, Gaussian rationals) for the
free variables (symbols, ``Indexed`` entries ``x[2]``, matrix entries ``A[0, 1]``) that respects
each variable's assumptions. At the point the two sides are compared

* exactly, when both sides evaluate to numbers in Q(i) (rational functions, polynomials): the
  difference is an exact nonzero rational;
* otherwise with mpmath through SymPy's ``evalf``: a difference above ``1e-30`` relative at 50
  digits must be confirmed at 100 digits (the two evaluations agree and the difference is still
  above ``1e-60`` relative) before it counts.

Points where a side is undefined (division by zero, a pole, ``nan``) are skipped. Points are
drawn from ``random.Random(seed)``, small values first, so a witness is small and reproducible.

**Adaptive precision** (``search(..., adaptive=True)``, :func:`compare_adaptive`). A false
identity whose sides differ by less than the 50-digit comparison resolves (a term ``exp(-100)``,
a phase ``10**-45``) agrees at every point of that search. Only after it found nothing, the
points where the sides agreed *numerically* (not exactly) are looked at again, at most
:data:`ADAPTIVE_POINTS` of them. Any of these makes a witness (tried cheapest first:
``expand``, enclosure, ``simplify``, enclosure of the simplified form, two precisions):

1. exact: ``lhs - rhs`` at the point, ``expand``-ed, then ``simplify``-ed (time-guarded), is a
   Gaussian rational ``q``. ``q == 0`` is exact agreement; ``q != 0`` is a witness once a
   100-digit evaluation of the sides is consistent with ``q`` (a guard against a rewriting bug).
   Nothing is guessed from digits (no ``nsimplify``).
2. interval arithmetic (``mpmath.iv``, outward rounding) on ``lhs - rhs`` and on its simplified
   form, for the functions it encloses rigorously (``+ * /``, integer powers, ``exp``, ``log`` and
   non-integer powers away from the branch cut, ``sin cos tan``, hyperbolic functions via ``exp``,
   ``gamma``, ``Abs re im conjugate``): a witness when, at two consecutive precisions of
   :data:`IV_LEVELS` (50, 100, 400 digits, and 800 to confirm a difference first seen at 400),
   the enclosure excludes 0 with a margin of :data:`MARGIN` digits
   (``|value| > 10**MARGIN * width``) and the two enclosures overlap.
3. the classic rule, for everything else: both sides by ``evalf`` at two consecutive precisions
   ``p < q`` of :data:`LEVELS`; with ``scale = max(1, |lhs|, |rhs|)`` and the error bound
   ``eps(p) = 10**-(p - GUARD) * scale``, a witness when ``|d_p| > 10**MARGIN * eps(p)``,
   ``|d_q| > 10**MARGIN * eps(q)`` and ``|d_p - d_q| <= eps(p) + eps(q)`` (the difference is
   stable: roundoff shrinks with the precision, a true difference does not) -- and no
   discontinuity lies within the error of an argument (see below).

Roundoff shrinks with the precision only where the expression is continuous: ``sign(e)``,
``floor(e)``, ``log`` or a square root on its branch cut give the same wrong value at every
precision when ``e`` is an exact zero (or exactly on the cut) that evaluates to roundoff of one
sign (``sin(1/2)**2 + cos(1/2)**2 - 1`` is negative at 50, 100 and 400 digits). So every
numeric (non-interval) witness, the 50/100-digit one of :func:`compare` included, also needs
each argument of a function with jumps that is not an exact Gaussian rational to be evaluated,
at both precisions, farther than its error from the jumps (:func:`continuous_at`); functions
not known to be continuous (``Piecewise``, undefined functions, Bessel functions...) with an
inexact argument give no numeric witness. A true identity is therefore never refuted by
roundoff: an exact zero that evaluates to ``1e-90`` at 100 digits evaluates to about
``1e-390`` at 400 and fails the stability test. The classic rule resolves about
``10**-(100 - GUARD - MARGIN)`` relative; the interval route about ``1e-780`` of ``lhs - rhs``,
and any size when SymPy's exact cancellation leaves a small exact term (``exp(x) +
exp(-1000)`` vs ``exp(x)``: the difference is ``-exp(-1000)``, whose enclosure excludes 0); the
exact route any size.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Any

import mpmath
import sympy as sp
from mpmath.ctx_iv import MPIntervalContext
from sympy.matrices.expressions.matexpr import MatrixElement

from ._guard import Deadline, RungTimeout, guarded
from .assume import describe

_UNEVALUATED = (sp.Sum, sp.Product, sp.Derivative, sp.Integral, sp.Limit)

#: Relative thresholds of the high-precision comparison.
DPS, DPS_CONFIRM = 50, 100
TOL, TOL_CONFIRM = sp.Float("1e-30", DPS), sp.Float("1e-60", DPS_CONFIRM)

#: Precisions (decimal digits) of the adaptive-precision witness, tried in order.
LEVELS = (50, 100, 400)
#: The interval route adds a confirming level: an enclosure is cheap and rigorous, so a
#: difference first seen at 400 digits is confirmed at 800.
IV_LEVELS = (*LEVELS, 800)
#: Digits of an ``evalf`` value at a level that are not trusted (roundoff of the evaluation).
GUARD = 15
#: Digits by which a difference must clear its error bound before it counts as nonzero.
MARGIN = 10
#: How many numerically agreeing points of the search get the adaptive-precision check.
ADAPTIVE_POINTS = 3
#: Seconds for the adaptive check of all points, of one point, and of the ``simplify`` in it
#: (the caller's deadline still bounds all three).
ADAPTIVE_TOTAL_S, ADAPTIVE_POINT_S, SIMPLIFY_S = 12.0, 6.0, 3.0


@dataclass
class SearchResult:
    """What the witness search found: a confirmed counterexample or the tally of points tried."""

    counterexample: dict[str, Any] | None = None
    tried: int = 0
    agreed: int = 0
    undefined: int = 0
    unconfirmed: int = 0
    refined: int = 0
    timed_out: bool = False
    notes: list[str] = field(default_factory=list)


def variables(*exprs: Any) -> list[sp.Basic]:
    """The atoms a witness assigns values to, in a stable order.

    Symbols that are free, ``Indexed`` entries and ``MatrixElement`` entries; the labels of
    ``IndexedBase`` objects and of matrix symbols are not variables themselves.
    """
    atoms: set[sp.Basic] = set()
    labels: set[sp.Basic] = set()
    for e in exprs:
        if not isinstance(e, sp.Basic):
            continue
        free = e.free_symbols
        for a in e.atoms(sp.Indexed):
            labels.add(a.base.label)
            if all(i.free_symbols <= free for i in a.indices):
                atoms.add(a)
        for a in e.atoms(MatrixElement):
            parent = a.parent
            # an entry of an explicit matrix is that matrix's entry once its indices are
            # known: the indices are the variables, never the entry itself
            explicit = isinstance(parent, sp.MatrixBase)
            if not explicit and all(i.free_symbols <= free for i in _indices(a)):
                atoms.add(a)
            labels |= {parent} if isinstance(parent, sp.MatrixSymbol) else parent.free_symbols
        for s in free:
            if isinstance(s, sp.Symbol) and s not in labels:
                atoms.add(s)
    return sorted(atoms, key=lambda a: (not isinstance(a, sp.Symbol), sp.default_sort_key(a)))


def _indices(a: sp.Basic) -> tuple:
    if isinstance(a, sp.Indexed):
        return tuple(a.indices)
    return (sp.sympify(a.i), sp.sympify(a.j))


def _has_bound_indexed(x: Any) -> bool:
    """Whether substituting values for atoms would reach inside a sum, product or integral.

    True when an ``Indexed`` or ``MatrixElement`` entry has a bound index (``x[i]`` or
    ``A[0, i]`` inside ``Sum(..., (i, 0, n - 1))``), or when a symbol is bound somewhere and
    free elsewhere (``Sum(x[i], (i, 0, N - 1)) + x[i]``). ``xreplace`` does not respect binding:
    it would give one value to every ``A[0, i]`` of the sum (a bogus counterexample to
    ``(AB)[0, 0] = A[0, 0] B[0, 0] + sum_{i >= 1} A[0, i] B[i, 0]``).
    """
    from sympy.concrete.expr_with_limits import ExprWithLimits

    for _, e in _entries(x):
        if isinstance(e, sp.Basic):
            free = e.free_symbols
            bound: set[sp.Basic] = set()
            for w in e.atoms(ExprWithLimits):
                bound |= {lim[0] for lim in w.limits}
            if free & bound:
                return True
            for a in e.atoms(sp.Indexed, MatrixElement):
                idx_syms = set().union(*(i.free_symbols for i in _indices(a)))
                if not idx_syms <= free or idx_syms & bound:
                    return True
    return False


def _kind(atom: sp.Basic) -> tuple[str, dict[str, bool]]:
    facts: dict[str, bool] = {}
    if isinstance(atom, sp.Symbol):
        facts = {k: v for k, v in atom.assumptions0.items() if v is not None}
        return describe(atom), facts
    if isinstance(atom, sp.Indexed):
        base = atom.base.label
        if isinstance(base, sp.Symbol):
            facts = {k: v for k, v in base.assumptions0.items() if v is not None}
            return describe(base), facts
    return "complex", facts


def _draw(kind: str, rng: random.Random, level: int, allow_complex: bool) -> sp.Expr:
    m = (2, 4, 9, 30)[min(level, 3)]  # magnitude of numerators
    q = (2, 3, 5, 9)[min(level, 3)]   # largest denominator

    def rat(nonzero: bool = False, sign: int = 0) -> sp.Rational:
        while True:
            num = rng.randint(-m, m)
            if sign > 0:
                num = abs(num)
            if sign < 0:
                num = -abs(num)
            if num == 0 and (nonzero or sign):
                continue
            return sp.Rational(num, rng.randint(1, q))

    if kind in ("positive integer", "prime"):
        return sp.Integer(rng.randint(1, m + 2))
    if kind == "nonnegative integer":
        return sp.Integer(rng.randint(0, m + 2))
    if kind in ("integer", "even", "odd"):
        return sp.Integer(rng.randint(-m - 2, m + 2))
    if kind == "positive":
        return rat(sign=1)
    if kind == "nonnegative":
        return rat() if rng.random() < 0.1 else rat(sign=1)
    if kind == "negative":
        return rat(sign=-1)
    if kind == "nonpositive":
        return -rat(sign=1) if rng.random() > 0.1 else sp.Integer(0)
    if kind == "imaginary":
        return sp.I * rat(nonzero=True)
    if kind in ("real", "rational") or not allow_complex:
        return rat()
    return rat() + sp.I * rat(nonzero=True)


def consistent(value: sp.Expr, facts: dict[str, bool]) -> bool:
    """Whether ``value`` provably satisfies every fact (``{"positive": True, ...}``).

    Every assumption SymPy knows counts (``irrational``, ``noninteger``, ``composite``...),
    not only the ones :func:`_draw` aims at: a fact the value cannot be shown to satisfy
    (``polar``) rejects it, so a symbol whose assumptions no drawn value meets gets no
    witness at all rather than an invalid one (``ceiling(x) - floor(x) = 1`` for a
    ``noninteger`` x must not be refuted at ``x = 0``).
    """
    for key, want in facts.items():
        got = getattr(value, "is_" + key, None)
        if got is None or bool(got) != bool(want):
            return False
    return True


def draw_point(atoms: list[sp.Basic], rng: random.Random, level: int, allow_complex: bool) -> dict:
    """One assignment of exact values to ``atoms`` respecting their assumptions.

    Symbols are drawn first; an ``Indexed``/``MatrixElement`` atom whose indices land on an
    entry already assigned (``x[i]`` and ``x[2]`` with ``i = 2``) reuses that entry's value,
    so the point is a consistent assignment of the underlying sequence or matrix.
    """
    point: dict[sp.Basic, sp.Expr] = {}
    entries: dict[tuple, sp.Expr] = {}
    for a in sorted(atoms, key=lambda s: not isinstance(s, sp.Symbol)):
        key = _entry_key(a, point)
        if key is not None and _not_an_entry(key):
            continue  # x[i/2] at i = 3 names no entry: it gets no value (the side is undefined)
        if key is not None and key in entries:
            point[a] = entries[key]
            continue
        kind, facts = _kind(a)
        for _ in range(200):
            v = _draw(kind, rng, level, allow_complex)
            if consistent(v, facts):
                break
        else:
            raise ValueError(f"cannot draw a value for {a} with assumptions {facts}")
        point[a] = v
        if key is not None:
            entries[key] = v
    return point


def _not_an_entry(key: tuple) -> bool:
    """Whether an entry key has a numeric index that is not an integer (``x[3/2]``)."""
    idx = key[2] if key[0] == "indexed" else key[2:]
    return any(sp.sympify(i).is_number and not sp.sympify(i).is_Integer for i in idx)


def _reads_no_entry(v: sp.Basic) -> bool:
    """Whether ``v`` still reads an ``Indexed`` entry at a numeric non-integer index."""
    return any(any(sp.sympify(i).is_number and not sp.sympify(i).is_Integer for i in a.indices)
               for a in v.atoms(sp.Indexed))


def _entry_key(a: sp.Basic, point: dict) -> tuple | None:
    if isinstance(a, sp.Indexed):
        return ("indexed", a.base.label, tuple(sp.sympify(i).xreplace(point) for i in a.indices))
    if isinstance(a, MatrixElement):
        i, j = sp.sympify(a.i).xreplace(point), sp.sympify(a.j).xreplace(point)
        return ("matrix", a.parent, i, j)
    return None


def evaluate(expr: Any, point: dict) -> Any:
    """``expr`` at ``point`` (simultaneous exact substitution, then ``doit`` where needed)."""
    if isinstance(expr, sp.MatrixBase):
        return expr.applyfunc(lambda e: evaluate(e, point))
    if not isinstance(expr, sp.Basic):
        return sp.sympify(expr)
    if _index_out_of_range(expr, point):
        return sp.nan
    try:
        v = expr.xreplace(point)
    except IndexError:  # an index of an explicit matrix drawn outside its shape
        return sp.nan
    if v.has(*_UNEVALUATED) or isinstance(v, sp.MatrixExpr):
        v = v.doit()
    if isinstance(v, sp.Basic) and _reads_no_entry(v):
        return sp.nan  # a side that reads x[3/2] is undefined there, never a witness
    return v


def _index_out_of_range(v: sp.Basic, point: dict) -> bool:
    """Whether ``v`` at ``point`` reads an entry outside a matrix of known shape (``X[2, 0]``
    of a 1x1 ``X``, or ``M[-1, 0]``, which Python would read from the end): such a point is
    undefined, not a witness."""
    for a in v.atoms(MatrixElement):
        for idx, dim in zip((a.i, a.j), a.parent.shape, strict=True):
            idx, dim = sp.sympify(idx).xreplace(point), sp.sympify(dim)
            if idx.is_Integer and dim.is_Integer and not 0 <= int(idx) < int(dim):
                return True
    return False


def _undefined(v: sp.Expr) -> bool:
    return bool(v.has(sp.nan, sp.zoo, sp.oo, -sp.oo)) or v.is_finite is False


def _exact(v: sp.Expr) -> sp.Expr | None:
    """``v`` as an exact Gaussian rational, or None."""
    v = sp.expand(v)
    if v.has(sp.Function, sp.NumberSymbol):
        return None  # what automatic evaluation left of them is not rational (and is slow)
    re, im = v.as_real_imag()
    if re.is_Rational and im.is_Rational:
        return v
    return None


def _num(v: sp.Expr, dps: int) -> sp.Expr | None:
    try:
        f = v.evalf(dps, strict=False)
    except Exception:
        return None
    if not f.is_number or f.has(sp.nan, sp.zoo, sp.oo, -sp.oo):
        return None
    re, im = f.as_real_imag()
    re, im = re.evalf(dps), im.evalf(dps)
    if not (re.is_Float or re.is_Rational) or not (im.is_Float or im.is_Rational):
        return None
    return re + sp.I * im


def compare(lv: Any, rv: Any) -> tuple[str, dict[str, str]]:
    """Compare two values: ``"differ"`` (confirmed), ``"agree"``, ``"undefined"``, ``"unsure"``."""
    if _undefined(lv) or _undefined(rv):
        return "undefined", {}
    if not (lv.is_number and rv.is_number):
        return "undefined", {}
    el, er = _exact(lv), _exact(rv)
    if el is not None and er is not None:
        d = sp.expand(el - er)
        info = {"lhs": str(el), "rhs": str(er), "difference": str(d),
                "check": "exact (Gaussian) rational arithmetic"}
        return ("agree" if d == 0 else "differ"), info
    l1, r1 = _num(lv, DPS), _num(rv, DPS)
    if l1 is None or r1 is None:
        return "undefined", {}
    scale = max(sp.Float(1), abs(l1), abs(r1))
    d1 = abs(l1 - r1)
    if d1 <= TOL * scale:
        return "agree", {}
    if not (continuous_at(lv, (DPS, DPS_CONFIRM)) and continuous_at(rv, (DPS, DPS_CONFIRM))):
        return "unsure", {}  # a jump or branch cut within roundoff of an argument
    l2, r2 = _num(lv, DPS_CONFIRM), _num(rv, DPS_CONFIRM)
    if l2 is None or r2 is None:
        return "unsure", {}
    scale2 = max(sp.Float(1), abs(l2), abs(r2))
    d2 = abs(l2 - r2)
    stable = abs(d2 - d1) <= sp.Float("1e-25") * max(d1, sp.Float(1e-300)) + TOL * scale
    if d2 > TOL_CONFIRM * scale2 and stable:
        info = {
            "lhs": sp.sstr(l2.evalf(20)),
            "rhs": sp.sstr(r2.evalf(20)),
            "difference": sp.sstr((l2 - r2).evalf(20)),
            "check": f"mpmath {DPS} digits, confirmed at {DPS_CONFIRM} digits",
        }
        return "differ", info
    return "unsure", {}


# -- adaptive precision: exact difference, interval enclosure, classic two-precision rule ----


def _digits_to_bits(dps: int) -> int:
    return int(dps * 3.3219280948873626) + 16


def _gaussian(e: Any) -> sp.Expr | None:
    """``e`` as an exact Gaussian rational, or None (never raises)."""
    try:
        return _exact(e) if isinstance(e, sp.Expr) and e.is_number else None
    except Exception:
        return None


# Functions continuous wherever they are finite: roundoff in their arguments moves their
# values continuously (poles give huge, precision-dependent values that fail the stability test).
_CONTINUOUS: tuple[type, ...] = (
    sp.exp, sp.sin, sp.cos, sp.tan, sp.cot, sp.sec, sp.csc, sp.sinh, sp.cosh, sp.tanh, sp.coth,
    sp.sech, sp.csch, sp.gamma, sp.factorial, sp.erf, sp.erfc, sp.erfi, sp.Abs, sp.re, sp.im,
    sp.conjugate, sp.Max, sp.Min,
)


def _near_jump(f: sp.Basic, args: list[complex | None], err: list[float]) -> bool:
    """Whether a jump (branch cut, integer step) of ``f`` lies within ``err`` of its arguments.

    ``args`` holds each argument's value (None when it is exact and needs no test). Unknown
    functions count as near a jump.
    """
    def cut_left_of(a: complex, e: float, c: float) -> bool:  # (-inf, c] on the real axis
        return a.real <= c + e and abs(a.imag) <= e

    a, e = args[0], err[0]
    if f.is_Pow or isinstance(f, (sp.log, sp.arg, sp.loggamma)):
        return a is not None and cut_left_of(a, e, 0.0)
    if isinstance(f, sp.LambertW):
        return len(args) > 1 or (a is not None and cut_left_of(a, e, -math.exp(-1)))
    if isinstance(f, (sp.asin, sp.acos, sp.atanh)):
        return a is not None and abs(a.real) >= 1 - e and abs(a.imag) <= e
    if isinstance(f, sp.acosh):
        return a is not None and cut_left_of(a, e, 1.0)
    if isinstance(f, sp.acoth):
        return a is not None and abs(a.real) <= 1 + e and abs(a.imag) <= e
    if isinstance(f, (sp.atan, sp.asinh)):
        return a is not None and abs(a.imag) >= 1 - e and abs(a.real) <= e
    if isinstance(f, sp.acot):
        return a is not None and abs(a.imag) <= 1 + e and abs(a.real) <= e
    if isinstance(f, (sp.floor, sp.ceiling, sp.frac)):
        return a is not None and any(abs(c - round(c)) <= e for c in (a.real, a.imag))
    if isinstance(f, (sp.sign, sp.Heaviside)):
        return args[1:] != [None] * (len(args) - 1) or (a is not None and abs(a) <= e)
    if isinstance(f, sp.polylog):  # cut [1, oo) in z; continuous in an exact order s
        z, ez = args[1], err[1]
        return a is not None or (z is not None and z.real >= 1 - ez and abs(z.imag) <= ez)
    return True


def _complex_at(e: sp.Expr, dps: int) -> complex | None:
    v = _num(e, dps)
    if v is None:
        return None
    re, im = v.as_real_imag()
    try:
        return complex(float(re), float(im))
    except (TypeError, ValueError, OverflowError):
        return None


def continuous_at(value: Any, levels: tuple[int, int]) -> bool:
    """Whether roundoff cannot move ``value`` (a number expression) across a discontinuity.

    Every node of ``value`` is a number, ``+``, ``*``, an integer power, a function in
    ``_CONTINUOUS``, a node whose arguments are all exact Gaussian rationals (evaluated with
    no roundoff at all), or a function with known jumps (``log``, non-integer powers, inverse
    trigonometric and hyperbolic functions, ``LambertW``, ``polylog``, ``floor``, ``ceiling``,
    ``frac``, ``sign``, ``Heaviside``) whose inexact arguments, evaluated at both precisions of
    ``levels``, agree within their error and keep farther than it from every jump. The error of
    an argument at ``p`` digits is ``10**-(p - GUARD) * max(1, |a|)``, as for the values.
    """
    if not isinstance(value, sp.Basic):
        return True
    for node in sp.preorder_traversal(value):
        if node.is_Atom or node.is_Add or node.is_Mul:
            continue
        if node.is_Pow and (node.exp.is_Integer or node.base is sp.E):
            continue
        if isinstance(node, _CONTINUOUS):
            continue
        if all(_gaussian(a) is not None for a in node.args):
            continue
        if not all(isinstance(a, sp.Expr) and a.is_number for a in node.args):
            return False  # Piecewise conditions, tuples, unevaluated objects
        inexact = [a if _gaussian(a) is None else None for a in node.args]
        if node.is_Pow:
            inexact = [inexact[0]]  # only the base: continuous in the exponent off the cut
        seen: list[list[complex | None]] = []
        for dps in levels:
            vals = [None if a is None else _complex_at(a, dps) for a in inexact]
            if any(v is None for v, a in zip(vals, inexact, strict=True) if a is not None):
                return False
            err = [10.0 ** -(dps - GUARD) * max(1.0, abs(v)) if v is not None else 0.0
                   for v in vals]
            if _near_jump(node, vals, err):
                return False
            seen.append(vals)
        lo = levels[0]
        for v0, v1 in zip(seen[0], seen[-1], strict=True):
            if v0 is not None and v1 is not None \
                    and abs(v0 - v1) > 2 * 10.0 ** -(lo - GUARD) * max(1.0, abs(v0)):
                return False
    return True


class _NoEnclosure(Exception):
    """A part of the expression that :func:`_enclose` does not enclose rigorously."""


# A private interval context: its working precision is set per evaluation. Outward rounding
# keeps every enclosure rigorous at any precision, so a concurrent change (an abandoned guarded
# thread) can only widen an enclosure, never make it wrong.
_IV = MPIntervalContext()


def _iv_log(z: Any) -> Any:
    """Principal ``log`` of an interval that stays off the branch cut ``(-inf, 0]``."""
    if hasattr(z, "_mpci_"):
        re, im = _ends(z.real), _ends(z.imag)
        if not (re[0] > 0 or im[0] > 0 or im[1] < 0):
            raise _NoEnclosure("log near its branch cut")
    elif not _ends(z)[0] > 0:
        raise _NoEnclosure("log of an interval that reaches 0 or below")
    return _IV.log(z)


def _ends(z: Any) -> tuple[mpmath.mpf, mpmath.mpf]:
    return mpmath.mp.make_mpf(z._mpi_[0]), mpmath.mp.make_mpf(z._mpi_[1])


def _enclose(e: sp.Expr) -> Any:
    """An interval (``ivmpf``/``ivmpc``) that contains the exact value of the number ``e``."""
    ctx = _IV
    if e.is_Integer:
        return ctx.mpf(int(e))
    if e.is_Rational:
        return ctx.mpf(int(e.p)) / ctx.mpf(int(e.q))
    if e.is_Float:
        return ctx.mpf(mpmath.mp.make_mpf(e._mpf_))
    if e is sp.pi:
        return ctx.pi
    if e is sp.E:
        return ctx.e
    if e is sp.I:
        return ctx.mpc(0, 1)
    args = [_enclose(a) for a in e.args] if not e.is_Pow else []
    if e.is_Add:
        out = args[0]
        for a in args[1:]:
            out = out + a
        return out
    if e.is_Mul:
        out = args[0]
        for a in args[1:]:
            out = out * a
        return out
    if e.is_Pow:
        base, ex = e.args
        if base is sp.E:
            return ctx.exp(_enclose(ex))
        if ex.is_Integer:
            return _enclose(base) ** int(ex)
        return ctx.exp(_enclose(ex) * _iv_log(_enclose(base)))
    if len(args) != 1:
        raise _NoEnclosure(type(e).__name__)
    (a,) = args
    if isinstance(e, sp.exp):
        return ctx.exp(a)
    if isinstance(e, sp.log):
        return _iv_log(a)
    if isinstance(e, (sp.sin, sp.cos, sp.gamma)):
        return {sp.sin: ctx.sin, sp.cos: ctx.cos, sp.gamma: ctx.gamma}[type(e)](a)
    if isinstance(e, sp.tan):
        return ctx.sin(a) / ctx.cos(a)
    if isinstance(e, (sp.sinh, sp.cosh, sp.tanh)):
        p, m = ctx.exp(a), ctx.exp(-a)
        return {sp.sinh: (p - m) / 2, sp.cosh: (p + m) / 2, sp.tanh: (p - m) / (p + m)}[type(e)]
    if isinstance(e, (sp.re, sp.im, sp.conjugate, sp.Abs)):
        re, im = (a.real, a.imag) if hasattr(a, "_mpci_") else (a, ctx.mpf(0))
        if isinstance(e, sp.re):
            return re
        if isinstance(e, sp.im):
            return im
        if isinstance(e, sp.conjugate):
            return ctx.mpc(re, -im)
        return ctx.sqrt(re ** 2 + im ** 2)
    raise _NoEnclosure(type(e).__name__)


def _enclosure_at(e: sp.Expr, dps: int) -> list[tuple[mpmath.mpf, mpmath.mpf]] | None:
    """Real and imaginary enclosures ``[(lo, hi), (lo, hi)]`` of ``e`` at ``dps`` digits."""
    _IV.prec = _digits_to_bits(dps)
    try:
        v = _enclose(e)
    except (_NoEnclosure, ArithmeticError, ValueError, TypeError, KeyError, AttributeError):
        return None
    if hasattr(v, "_mpci_"):
        return [_ends(v.real), _ends(v.imag)]
    return [_ends(v), (mpmath.mpf(0), mpmath.mpf(0))]


def _excludes_zero(box: list[tuple[mpmath.mpf, mpmath.mpf]], dps: int) -> bool:
    """Some component of ``box`` excludes 0 with ``MARGIN`` digits to spare."""
    with mpmath.workprec(_digits_to_bits(dps)):
        for lo, hi in box:
            if not (mpmath.isfinite(lo) and mpmath.isfinite(hi)):
                continue
            if (lo > 0 or hi < 0) and min(abs(lo), abs(hi)) > 10 ** MARGIN * (hi - lo):
                return True
    return False


_Box = list[tuple[mpmath.mpf, mpmath.mpf]]  # (lo, hi) of the real and the imaginary part


def _overlap(a: _Box, b: _Box) -> bool:
    return all(lo1 <= hi2 and lo2 <= hi1 for (lo1, hi1), (lo2, hi2) in zip(a, b, strict=True))


def _interval_witness(d: sp.Expr) -> tuple[int, int, list] | None:
    """Two consecutive levels at which the enclosure of ``d`` excludes 0, or None."""
    prev: tuple[int, list] | None = None
    for i, dps in enumerate(IV_LEVELS):
        box = _enclosure_at(d, dps)
        if box is None:
            return None
        if _excludes_zero(box, dps):
            if prev is not None and _overlap(prev[1], box):
                return prev[0], dps, box
            prev = (dps, box)
        elif i >= len(IV_LEVELS) - 2:
            return None  # no pair of consecutive levels is left
        else:
            prev = None
    return None


def _classic_witness(lv: sp.Expr, rv: sp.Expr) -> tuple[int, int, sp.Expr, sp.Expr] | None:
    """Two consecutive levels at which ``lv - rv`` is stable and far above its error bound."""
    prev: tuple[int, sp.Expr, sp.Expr] | None = None
    for i, dps in enumerate(LEVELS):
        lf, rf = _num(lv, dps), _num(rv, dps)
        if lf is None or rf is None:
            return None
        eps = sp.Float(10, dps) ** -(dps - GUARD) * max(sp.Float(1), abs(lf), abs(rf))
        d = lf - rf
        if abs(d) > 10 ** MARGIN * eps:
            if prev is not None and abs(prev[1] - d) <= prev[2] + eps:
                if continuous_at(lv, (prev[0], dps)) and continuous_at(rv, (prev[0], dps)):
                    return prev[0], dps, lf, rf
                return None
            prev = (dps, d, eps)
        elif i >= len(LEVELS) - 2:
            return None  # no pair of consecutive levels is left: skip the costly last level
        else:
            prev = None
    return None


def _shown(lv: sp.Expr, rv: sp.Expr, d: sp.Expr) -> tuple[str, str]:
    """Both values with enough digits (at most 60) to show where they part."""
    lf, rf = _num(lv, LEVELS[-1]), _num(rv, LEVELS[-1])
    if lf is None or rf is None:
        return sp.sstr(lv), sp.sstr(rv)
    scale = max(sp.Float(1), abs(lf), abs(rf))
    gap = abs(sp.N(d, 5)) / scale if d != 0 else sp.Float(1)
    digits = 20 if gap == 0 else int(min(60, max(20, 8 - sp.log(gap, 10).evalf(5))))
    return sp.sstr(lf.evalf(digits)), sp.sstr(rf.evalf(digits))


def compare_adaptive(lv: Any, rv: Any) -> tuple[str, dict[str, str]]:
    """Compare two number expressions at increasing precision, for differences too small for
    :func:`compare`: ``"differ"`` (an exact or certified nonzero difference), ``"agree"`` (an
    exact zero) or ``"unsure"``. The rule is in the module docstring; run it under a time guard.
    """
    lv, rv = sp.sympify(lv), sp.sympify(rv)
    if _undefined(lv) or _undefined(rv) or not (lv.is_number and rv.is_number):
        return "unsure", {}
    d = lv - rv  # SymPy's automatic cancellation is exact: exp(1/2) + exp(-100) - exp(1/2)
    enclosed: list[sp.Expr] = []
    for how in ("expand", "simplify"):  # cheapest first; each form is enclosed once
        g = _rewritten(d, how)
        q = None if g is None else _gaussian(g)
        if q is not None:
            return _exact_outcome(lv, rv, q, how)
        for label, form in (("lhs - rhs", d), (f"{how}(lhs - rhs)", g)):
            if form is None or any(form == f for f in enclosed):
                continue
            enclosed.append(form)
            hit = _interval_witness(form)
            if hit is not None:
                return "differ", _interval_info(lv, rv, label, *hit)
    hit_c = _classic_witness(lv, rv)
    if hit_c is not None:
        p_lo, p_hi, lf, rf = hit_c
        lhs_s, rhs_s = _shown(lv, rv, lf - rf)
        return "differ", {
            "lhs": lhs_s, "rhs": rhs_s, "difference": sp.sstr((lf - rf).evalf(20)),
            "check": f"mpmath at {p_lo} and {p_hi} digits: the difference is stable and "
                     f"exceeds 10^{MARGIN} times the error bound "
                     f"10^-({p_lo}-{GUARD})*max(1, |lhs|, |rhs|); no jump or branch cut within "
                     "the error of an argument",
        }
    return "unsure", {}


def _rewritten(d: sp.Expr, how: str) -> sp.Expr | None:
    """``expand(d)``, or ``simplify(d)`` under a time guard, when it is a defined number."""
    try:
        g = sp.expand(d) if how == "expand" else guarded(sp.simplify, d, seconds=SIMPLIFY_S)
    except RungTimeout:
        return None
    except Exception:
        return None
    if not isinstance(g, sp.Expr) or not g.is_number or _undefined(g):
        return None
    return g


def _interval_info(lv: sp.Expr, rv: sp.Expr, label: str, p: int, q: int,
                   box: list[tuple[mpmath.mpf, mpmath.mpf]]) -> dict[str, str]:
    with mpmath.workprec(_digits_to_bits(q)):
        re, im = ((lo + hi) / 2 for lo, hi in box)
    diff = sp.Float(re, 20) + sp.I * sp.Float(im, 20) if im else sp.Float(re, 20)
    lhs_s, rhs_s = _shown(lv, rv, diff)
    return {
        "lhs": lhs_s, "rhs": rhs_s, "difference": sp.sstr(diff),
        "check": f"interval arithmetic (mpmath.iv, outward rounding) on {label}: the "
                 f"enclosures at {p} and {q} digits exclude 0 and overlap",
    }


def _exact_outcome(lv: sp.Expr, rv: sp.Expr, q: sp.Expr, how: str) -> tuple[str, dict[str, str]]:
    """The exact difference ``q`` at a point, checked against a 100-digit evaluation."""
    if q == 0:
        return "agree", {"check": f"exact: {how}(lhs - rhs) = 0"}
    lf, rf = _num(lv, LEVELS[1]), _num(rv, LEVELS[1])
    if lf is None or rf is None:
        return "unsure", {}
    eps = sp.Float(10, LEVELS[1]) ** -(LEVELS[1] - GUARD) * max(sp.Float(1), abs(lf), abs(rf))
    if abs((lf - rf) - q) > eps:
        return "unsure", {}  # the rewriting disagrees with the numbers: trust neither
    lhs_s, rhs_s = _shown(lv, rv, q)
    return "differ", {
        "lhs": lhs_s, "rhs": rhs_s, "difference": str(q),
        "check": f"exact: {how}(lhs - rhs) at the point is the nonzero rational 'difference' "
                 f"(consistent with {LEVELS[1]}-digit values)",
    }


def _entries(x: Any) -> list[tuple[tuple[int, ...] | None, Any]]:
    if isinstance(x, sp.MatrixBase):
        return [((i, j), x[i, j]) for i in range(x.rows) for j in range(x.cols)]
    return [(None, x)]


def search(
    lhs: Any,
    rhs: Any,
    *,
    seed: int = 0,
    points: int = 24,
    deadline: Deadline | None = None,
    per_point_s: float = 5.0,
    extra: dict[str, Any] | None = None,
    adaptive: bool = False,
) -> SearchResult:
    """Look for a confirmed point where ``lhs != rhs`` (scalars, or explicit matrices of one shape).

    ``extra`` is copied into the counterexample (e.g. the concrete sizes used). With
    ``adaptive``, when no point differs, up to :data:`ADAPTIVE_POINTS` points where the sides
    agreed only numerically are compared again by :func:`compare_adaptive` (exact difference,
    interval enclosure, 50/100/400 digits), each under a time guard.
    """
    deadline = deadline or Deadline(None)
    res = SearchResult()
    atoms = variables(*(e for _, e in _entries(lhs)), *(e for _, e in _entries(rhs)))
    if _has_bound_indexed(lhs) or _has_bound_indexed(rhs):
        res.notes.append("entries indexed by a bound (summation) variable: "
                         "witness search needs concrete sizes")
        return res
    rng = random.Random(seed)
    near: list[dict] = []  # points where the sides agreed numerically, not exactly
    if any(not getattr(a, "is_commutative", True) for a in atoms):
        return _search_noncommutative(lhs, rhs, atoms, rng, points, deadline, res, seed, extra)
    has_complex = any(_kind(a)[0] == "complex" for a in atoms)
    n_real = points if not has_complex else max(1, (2 * points) // 3)
    for k in range(points):
        if deadline.expired():
            res.timed_out = True
            break
        level = min(3, (4 * k) // max(points, 1))
        allow_complex = k >= n_real
        try:
            point = draw_point(atoms, rng, level, allow_complex)
        except ValueError as e:
            res.notes.append(str(e))
            break
        res.tried += 1
        try:
            outcome = guarded(_check_point, lhs, rhs, point, seconds=deadline.budget(per_point_s))
        except RungTimeout:
            res.unconfirmed += 1
            if deadline.expired():
                res.timed_out = True
                break
            continue
        except Exception as e:
            res.undefined += 1
            res.notes.append(f"point {k}: {type(e).__name__}: {e}"[:200])
            continue
        status, info = outcome
        if status == "differ":
            cex: dict[str, Any] = {"point": {str(a): str(v) for a, v in point.items()}}
            cex.update(info)
            cex["seed"] = seed
            if extra:
                cex.update(extra)
            res.counterexample = cex
            return res
        if status == "agree":
            res.agreed += 1
        elif status == "undefined":
            res.undefined += 1
        else:
            res.unconfirmed += 1
        if status in ("agree", "unsure") and not info.get("exact"):
            near.append(point)
    if adaptive and not res.timed_out:
        _refine(lhs, rhs, near[:ADAPTIVE_POINTS], deadline, res, seed, extra)
    return res


def _refine(lhs: Any, rhs: Any, near: list[dict], deadline: Deadline, res: SearchResult,
            seed: int, extra: dict[str, Any] | None) -> None:
    """The adaptive-precision check of the points in ``near``; a confirmed one becomes the
    counterexample of ``res``."""
    stage = Deadline(deadline.budget(ADAPTIVE_TOTAL_S))
    for point in near:
        if stage.expired():
            res.timed_out = deadline.expired()
            return
        res.refined += 1
        try:
            status, info = guarded(_check_point, lhs, rhs, point, adaptive=True,
                                   seconds=stage.budget(ADAPTIVE_POINT_S))
        except RungTimeout:
            res.notes.append("adaptive-precision check: time guard exceeded")
            continue
        except Exception as e:
            res.notes.append(f"adaptive-precision check: {type(e).__name__}: {e}"[:200])
            continue
        if status == "differ":
            cex: dict[str, Any] = {"point": {str(a): str(v) for a, v in point.items()}}
            cex.update(info)
            cex["seed"] = seed
            if extra:
                cex.update(extra)
            res.counterexample = cex
            return


def _check_point(lhs: Any, rhs: Any, point: dict,
                 adaptive: bool = False) -> tuple[str, dict[str, Any]]:
    """Compare every entry at ``point`` (:func:`compare`, or :func:`compare_adaptive`);
    ``"agree"`` carries ``{"exact": True}`` when every entry agreed exactly."""
    L = _entries(evaluate(lhs, point))
    R = _entries(evaluate(rhs, point))
    if len(L) != len(R):
        raise ValueError("sides have different shapes")
    any_agree, all_exact, pending = False, True, ""
    for (idx, lv), (_, rv) in zip(L, R, strict=True):
        lv, rv = sp.sympify(lv), sp.sympify(rv)
        if adaptive and not _undefined(lv) and not _undefined(rv) \
                and (_gaussian(lv) is None or _gaussian(rv) is None):
            status, info = compare_adaptive(lv, rv)  # the search's compare() found nothing here
        else:
            status, info = compare(lv, rv)
        exact = info.get("check", "").startswith("exact")
        if status == "differ":
            if idx is not None:
                return status, {"entry": list(idx), **info}
            return status, info
        if status in ("undefined", "unsure"):
            if not adaptive:
                return status, {}
            pending = pending or status  # the other entries may still differ
            continue
        any_agree = True
        all_exact = all_exact and exact
    if pending:
        return pending, {}
    if not any_agree:
        return "undefined", {}
    return "agree", ({"exact": True} if all_exact else {})


# -- noncommutative polynomials: substitute random rational matrices -------------------------

NC_SIZE = 3


def nc_evaluate(expr: sp.Expr, values: dict) -> sp.Matrix:
    """Evaluate a polynomial in noncommutative symbols at matrices ``values[symbol]``.

    Commutative symbols must have numbers in ``values`` too. Raises ``ValueError`` for
    anything that is not a polynomial in the noncommutative letters.
    """
    size = next(v.shape[0] for v in values.values() if isinstance(v, sp.MatrixBase))
    out = sp.zeros(size, size)
    for term in sp.Add.make_args(sp.expand(expr)):
        c_part, nc_part = term.args_cnc()
        numbers = {k: v for k, v in values.items() if not isinstance(v, sp.MatrixBase)}
        coeff = sp.Mul(*c_part).xreplace(numbers)
        if coeff.free_symbols:
            raise ValueError(f"coefficient {coeff} not numeric")
        prod = sp.eye(size)
        for f in nc_part:
            base, ex = f.as_base_exp()
            if not (base in values and ex.is_Integer and ex >= 0):
                raise ValueError(f"factor {f} is not a letter power")
            prod = prod * values[base] ** int(ex)
        out += coeff * prod
    return out


def _search_noncommutative(lhs: Any, rhs: Any, atoms: list, rng: random.Random, points: int,
                           deadline: Deadline, res: SearchResult, seed: int,
                           extra: dict[str, Any] | None) -> SearchResult:
    nc = [a for a in atoms if not a.is_commutative]
    comm = [a for a in atoms if a.is_commutative]
    for k in range(points):
        if deadline.expired():
            res.timed_out = True
            break
        level = min(3, (4 * k) // max(points, 1))
        point = draw_point(comm, rng, level, allow_complex=False)
        for a in nc:
            entries = [_draw("real", rng, level, False) for _ in range(NC_SIZE * NC_SIZE)]
            point[a] = sp.Matrix(NC_SIZE, NC_SIZE, entries)
        res.tried += 1
        try:
            lv, rv = nc_evaluate(sp.sympify(lhs), point), nc_evaluate(sp.sympify(rhs), point)
        except ValueError as e:
            res.notes.append(f"noncommutative witness: {e}")
            return res
        diff = (lv - rv).applyfunc(sp.expand)
        bad = [(r, c) for r in range(NC_SIZE) for c in range(NC_SIZE) if diff[r, c] != 0]
        if bad:
            r, c = bad[0]
            cex: dict[str, Any] = {
                "point": {str(a): sp.sstr(v.tolist()) if isinstance(v, sp.MatrixBase) else str(v)
                          for a, v in point.items()},
                "entry": [r, c], "lhs": str(lv[r, c]), "rhs": str(rv[r, c]),
                "difference": str(diff[r, c]),
                "check": "exact rational arithmetic, noncommutative symbols as "
                         f"{NC_SIZE}x{NC_SIZE} matrices",
                "seed": seed,
            }
            if extra:
                cex.update(extra)
            res.counterexample = cex
            return res
        res.agreed += 1
    return res

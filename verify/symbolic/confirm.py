"""The second route: every PROVED and every REFUTED of ``prove_equal`` is re-checked by
explicit evaluation, sharing no rewriting with the proof.

Why: a rung proves ``lhs - rhs = 0`` by trusting SymPy rewrites, and SymPy is wrong in places
(:mod:`.unsound`). This route trusts only arithmetic:

1. sizes: every dimension symbol (matrix shapes, summation limits) is given concrete values
   from its own domain (1, 2, 3 for a positive size; 0 and -1 too for a plain integer);
2. explicit expansion (:func:`expand_explicit`): every ``Sum``/``Product`` with integer limits
   becomes a finite ``Add``/``Mul`` over its integer index values (Karr's convention for an
   empty or reversed range, as SymPy's), outermost binder first; a ``KroneckerDelta`` of two
   integers evaluates to 0 or 1 on construction; no ``doit`` ever runs on a sum;
3. points: exact rational values, real ones on the negative axis and complex ones on the
   branch cuts of ``log``/``sqrt`` (``-1/2``, ``-2``) included, integers for integer symbols
   (odd and even, 0 and negative ones), rational matrices for matrix symbols, small integers
   for undefined functions, a rational for each derivative of one; every entry ``x[k]`` an
   exact rational of its own;
4. comparison: exactly in Q(i) when both sides are Gaussian rationals, otherwise at 50 digits
   confirmed at 100 (:func:`.witness.compare`, which also refuses a difference that roundoff
   next to a jump could explain).

An entry read at a non-integer index (``x[3/2]``) or, for a sequence the sums read over a
known range, outside it, does not exist: a side that reads one where the other side has a
value is a disagreement (a formula that is undefined where the claim is not), and a witness
that names one is no witness.

Outcomes (:class:`Confirmation`): ``contradicted`` (a point where the explicit values differ,
or one side reads an entry that does not exist): the prover's PROVED becomes UNDECIDED naming
the rung and the point. ``confirmed``: every planned point compared, all agree. ``partial``:
some points agree, others could not be compared within the budget or were undefined.
``none``: no point could be compared (noncommutative functions, unevaluable derivatives...).

What a PROVED with a ``partial`` or ``none`` confirmation means: the rung's proof stands (no
point contradicts it) and the summary says how far the second route got. The confirmation can
only *remove* a PROVED, never make one; a contradiction anywhere removes it.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, field
from typing import Any

import sympy as sp
from sympy.core.function import AppliedUndef
from sympy.matrices.expressions import MatrixExpr
from sympy.matrices.expressions.matexpr import MatrixElement

from ._guard import Deadline, RungTimeout, guarded
from .witness import compare, compare_adaptive, consistent, nc_evaluate

#: Seconds the confirmation of one verdict may take, and one point of it.
BUDGET_S, POINT_S = 4.0, 2.0
#: At most this many terms in one explicit sum (a larger one is left to other sizes).
MAX_TERMS = 400
#: At most this many size combinations, and points per combination (fewer when many, and
#: two for an explicit matrix with more than four entries: every point compares every entry).
MAX_COMBOS, POINTS = 6, 4
#: Candidate concrete sizes, kept where the symbol's assumptions allow them.
SIZE_CANDIDATES = (1, 2, 3, 0, -1)
#: Integer values cycled through for integer symbols: odd and even, 0, negative.
INTEGERS = (0, 1, 3, 2, 5, -1, 4, 7, 6, -2)


class NotExplicit(ValueError):
    """A sum whose limits are not integers, or too long to expand."""


@dataclass
class Confirmation:
    """What the explicit route found."""

    status: str = "none"  # confirmed | partial | none | contradicted
    compared: int = 0
    planned: int = 0
    skipped: list[str] = field(default_factory=list)
    outside: int = 0  # points where both sides are undefined: outside the claim's domain
    disagreement: str = ""
    point: dict[str, str] | None = None

    def text(self) -> str:
        """One clause for a summary."""
        if self.status == "contradicted":
            return f"the explicit route disagrees: {self.disagreement}"
        if self.status == "confirmed":
            out = f"confirmed by explicit evaluation at {self.compared} points"
            return out + (f" ({self.outside} more where both sides are undefined)"
                          if self.outside else "")
        why = "; ".join(dict.fromkeys(self.skipped))[:200] or "no point could be evaluated"
        if self.status == "partial":
            return (f"explicit confirmation partial: {self.compared} of {self.planned} points "
                    f"agreed, the others not compared ({why})")
        return f"not confirmed by the explicit route ({why})"


# -- explicit expansion -----------------------------------------------------------------------


def _int(v: Any) -> int:
    v = sp.sympify(v)
    if not v.is_Integer:
        raise NotExplicit(f"limit {v} is not an integer")
    return int(v)


def expand_explicit(e: Any, ranges: dict | None = None) -> Any:
    """``e`` with every ``Sum``/``Product`` of integer limits written out term by term.

    ``ranges`` (optional) collects, per ``IndexedBase`` label, the integer indices the sums
    read: ``{label: [(lo, hi) per position]}``, the range of a sequence that exists.
    """
    if isinstance(e, sp.MatrixBase):
        return e.applyfunc(lambda t: expand_explicit(t, ranges))
    if not isinstance(e, sp.Basic) or e.is_Atom:
        return e
    if isinstance(e, (sp.Sum, sp.Product)):
        var, lo, hi = e.limits[-1]
        inner = e.func(e.function, *e.limits[:-1]) if len(e.limits) > 1 else e.function
        a, b = _int(expand_explicit(lo, ranges)), _int(expand_explicit(hi, ranges))
        sign = 1
        if b < a:  # Karr: sum_{a}^{b} = -sum_{b+1}^{a-1}; product: 1 / prod_{b+1}^{a-1}
            a, b, sign = b + 1, a - 1, -1
        if b - a + 1 > MAX_TERMS:
            raise NotExplicit(f"{b - a + 1} terms")
        terms = []
        for k in range(a, b + 1):
            t = expand_explicit(substitute_free(inner, var, sp.Integer(k)), ranges)
            if ranges is not None:
                _note_ranges(t, ranges)
            terms.append(t)
        if isinstance(e, sp.Sum):
            return sign * sp.Add(*terms)
        prod = sp.Mul(*terms)
        return prod if sign == 1 else 1 / prod
    args = [expand_explicit(a, ranges) for a in e.args]
    return e.func(*args) if args != list(e.args) else e


def substitute_free(e: Any, var: sp.Basic, val: sp.Expr) -> Any:
    """``e`` with the free occurrences of ``var`` replaced by ``val``: a nested sum that
    binds the same name again (``sum_j (s_j - (1/N) sum_j s_j)^2``) keeps its own."""
    if not isinstance(e, sp.Basic):
        return e
    if not any(var in b.variables for b in e.atoms(sp.Sum, sp.Product)):
        return e.xreplace({var: val})
    if isinstance(e, (sp.Sum, sp.Product)):
        limits, bound = [], False
        for lim in e.limits:  # innermost first: bounds of a limit see the variables before it
            v, lo, hi = lim
            if not bound:
                lo, hi = substitute_free(lo, var, val), substitute_free(hi, var, val)
            limits.append((v, lo, hi))
            bound = bound or v == var
        fn = e.function if var in e.variables else substitute_free(e.function, var, val)
        return e.func(fn, *limits)
    return e.func(*[substitute_free(a, var, val) for a in e.args])


def _note_ranges(t: Any, ranges: dict) -> None:
    if not isinstance(t, sp.Basic):
        return
    for a in t.atoms(sp.Indexed):
        if not all(sp.sympify(i).is_Integer for i in a.indices):
            continue
        have = ranges.setdefault(a.base.label, [None] * len(a.indices))
        for p, i in enumerate(a.indices):
            i = int(i)
            lo_hi = have[p] if p < len(have) else None
            have[p] = (i, i) if lo_hi is None else (min(lo_hi[0], i), max(lo_hi[1], i))


def missing_entry(v: Any, ranges: dict) -> str | None:
    """The first ``Indexed`` entry of ``v`` that does not exist: a numeric index that is not
    an integer, or an integer outside the range the sums read for that sequence."""
    if not isinstance(v, sp.Basic):
        return None
    for a in sorted(v.atoms(sp.Indexed), key=sp.default_sort_key):
        idx = [sp.sympify(i) for i in a.indices]
        if any(i.is_number and not i.is_Integer for i in idx):
            return str(a)
        have = ranges.get(a.base.label)
        if have is None or len(have) != len(idx):
            continue
        for i, lo_hi in zip(idx, have, strict=True):
            if i.is_Integer and lo_hi is not None and not lo_hi[0] <= int(i) <= lo_hi[1]:
                return str(a)
    return None


# -- points -----------------------------------------------------------------------------------


def _facts(s: sp.Basic) -> dict[str, bool]:
    if isinstance(s, sp.Idx):
        return {"integer": True}
    return {k: v for k, v in getattr(s, "assumptions0", {}).items() if v is not None}


def size_values(d: sp.Symbol) -> list[int]:
    """Concrete sizes for a dimension symbol, from its own domain."""
    facts = _facts(d)
    return [c for c in SIZE_CANDIDATES if consistent(sp.Integer(c), facts)]


#: Special values, tried first: negative reals and points on the cuts of log and sqrt.
_SPECIAL_REAL = (sp.Rational(-1, 2), sp.Rational(-3, 2), sp.Rational(2, 3), sp.Integer(-2))
_SPECIAL_COMPLEX = (sp.Rational(-1, 2), sp.Integer(-2), sp.Rational(1, 3) + sp.I / 2,
                    -sp.Rational(2, 3) - sp.I * sp.Rational(3, 4))


def _value(sym: sp.Basic, k: int, slot: int, rng: random.Random) -> sp.Expr | None:
    """A value for ``sym`` at point ``k`` (the ``slot``-th symbol), respecting its facts."""
    facts = _facts(sym)
    cands: list[sp.Expr] = []
    if facts.get("integer"):
        cands = [sp.Integer(INTEGERS[(k + 2 * slot + j) % len(INTEGERS)])
                 for j in range(len(INTEGERS))]
    else:
        special = _SPECIAL_REAL if facts.get("real") or facts.get("extended_real") \
            else _SPECIAL_COMPLEX
        if k < 2:  # the first two points: the cut and the negative axis; then random ones
            cands.append(special[(k + slot) % len(special)])
        for _ in range(40):
            num = sp.Rational(rng.randint(-9, 9), rng.randint(1, 7))
            cands.append(num if facts.get("real") or rng.random() < 0.5
                         else num + sp.I * sp.Rational(rng.randint(1, 9), rng.randint(1, 5)))
    for c in cands:
        if consistent(c, facts):
            return c
    return None


def _rational(rng: random.Random) -> sp.Rational:
    return sp.Rational(rng.randint(-9, 9), rng.randint(1, 5))


# -- evaluation -------------------------------------------------------------------------------


class _Missing(Exception):
    """A side reads an entry that does not exist."""


def _evaluate(e: Any, sym_point: dict, ranges: dict, entries: dict, rng: random.Random) -> Any:
    """``e`` (already explicit) at the point: symbols, then matrix symbols, then entries and
    undefined functions (each distinct entry its own exact value, drawn once)."""
    if isinstance(e, sp.MatrixBase):
        return sp.Matrix(e.rows, e.cols,
                         [_evaluate(t, sym_point, ranges, entries, rng) for t in e])
    if not isinstance(e, sp.Basic):
        return sp.sympify(e)
    # a derivative of an undefined function is a value of its own at the point (the same
    # node on both sides gets the same value), taken before its variable gets a number
    ders = {d: entries.setdefault(("derivative", d), _rational(rng))
            for d in e.atoms(sp.Derivative) if d.has(AppliedUndef)}
    v = (e.xreplace(ders) if ders else e).xreplace(sym_point)
    mats = {m: entries.setdefault(("matrix", m.name, m.shape), sp.ImmutableMatrix(
        int(m.shape[0]), int(m.shape[1]), lambda i, j: _rational(rng)))
        for m in v.atoms(sp.MatrixSymbol) if all(sp.sympify(s).is_Integer for s in m.shape)}
    if mats:
        v = v.xreplace(mats)
    if isinstance(v, MatrixExpr) or v.has(sp.Trace, sp.Determinant, sp.Derivative,
                                         MatrixElement, sp.Integral):
        v = v.doit()
        if isinstance(v, MatrixExpr) and not isinstance(v, sp.MatrixBase):
            v = v.as_explicit()
        if isinstance(v, sp.MatrixBase):
            return v.applyfunc(lambda t: _evaluate(t, {}, ranges, entries, rng))
    gone = missing_entry(v, ranges)
    if gone is not None:
        raise _Missing(gone)
    rep: dict[sp.Basic, sp.Expr] = {}
    for a in v.atoms(sp.Indexed):
        rep[a] = entries.setdefault(("indexed", a), _rational(rng))
    if rep:
        v = v.xreplace(rep)
        rep = {}
    for f in v.atoms(AppliedUndef):
        if all(x.is_number for x in f.args):
            facts = _facts(f)
            val = next((sp.Integer(c) for c in range(0, 6) if consistent(sp.Integer(c), facts)),
                       None)
            if val is not None:
                rep[f] = entries.setdefault(("function", f), sp.Integer(rng.randint(0, 3))
                                            if consistent(sp.Integer(0), facts) else val)
    return v.xreplace(rep) if rep else v


def _entries(x: Any) -> list[Any]:
    return list(x) if isinstance(x, sp.MatrixBase) else [x]


def _shown(point: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in point.items())


# -- the route --------------------------------------------------------------------------------


def confirm_proved(L: Any, R: Any, dims: list[sp.Symbol], *, rung: str, seed: int = 0,
                   budget_s: float = BUDGET_S,
                   sizes: dict[sp.Symbol, list[int]] | None = None) -> Confirmation:
    """Re-check a proved ``L = R`` by explicit evaluation (see the module doc). ``sizes``:
    the values of the dimension symbols a bounded proof covers (default: each symbol's own
    domain, :func:`size_values`)."""
    deadline = Deadline(budget_s)
    out = Confirmation()
    if _noncommutative(L, R):
        return _confirm_noncommutative(L, R, rung, seed, deadline, out)
    rng = random.Random(seed)
    ranges_per_dim = [list((sizes or {}).get(d, size_values(d))) for d in dims]
    # the smallest sizes first (0 and -1 included where the domain allows them)
    combos = sorted(itertools.product(*ranges_per_dim),
                    key=lambda c: (sum(abs(v) for v in c), c))[:MAX_COMBOS] if dims else [()]
    points = POINTS if len(combos) <= 2 else max(2, (2 * POINTS) // len(combos) + 1)
    if len(_entries(L)) > 4:
        points = min(points, 2)  # an explicit matrix: every point compares every entry
    for combo in combos:
        sizes = dict(zip(dims, (sp.Integer(c) for c in combo), strict=True))
        ranges: dict = {}
        try:
            Lc, Rc = guarded(lambda: (_explicit(L, sizes, ranges), _explicit(R, sizes, ranges)),  # noqa: B023
                             seconds=deadline.budget(POINT_S))
        except RungTimeout:
            out.skipped.append("explicit expansion ran out of time")
            break
        except Exception as exc:
            out.skipped.append(f"not expanded at {_shown(sizes)}: {type(exc).__name__}: "
                               f"{str(exc)[:60]}")
            continue
        syms = _free_symbols(Lc, Rc)
        for k in range(points):
            if deadline.expired():
                out.skipped.append("time budget spent")
                return _finish(out)
            point = {}
            for slot, s in enumerate(syms):
                v = _value(s, k, slot, rng)
                if v is None:
                    out.skipped.append(f"no value satisfies the assumptions of {s}")
                    return _finish(out)
                point[s] = v
            out.planned += 1
            shown = {str(d): str(c) for d, c in sizes.items()} | \
                {str(s): str(v) for s, v in point.items()}
            try:
                res = guarded(_compare_at, Lc, Rc, point, ranges, random.Random(seed + k),
                              seconds=deadline.budget(POINT_S))
            except RungTimeout:
                out.skipped.append("a point ran out of time")
                continue
            except Exception as exc:
                out.skipped.append(f"{type(exc).__name__}: {str(exc)[:60]}")
                continue
            status, info = res
            if status == "agree":
                out.compared += 1
            elif status == "contradicted":
                out.status = "contradicted"
                out.point = shown
                out.disagreement = (f"{rung} gave an exact zero, but at {_shown(shown)} "
                                    f"{info}")
                return out
            elif status == "undefined":
                out.outside += 1
            else:
                out.skipped.append(info or status)
    return _finish(out)


def _finish(out: Confirmation) -> Confirmation:
    if out.compared == 0:
        out.status = "none"
    elif out.compared + out.outside == out.planned and not out.skipped:
        out.status = "confirmed"
    else:
        out.status = "partial"
    return out


def _explicit(x: Any, sizes: dict, ranges: dict, entries: bool = False) -> Any:
    """``x`` at ``sizes``, sums written out; with ``entries``, every matrix symbol of integer
    shape becomes its matrix of entries ``A[i, j]`` (a witness names entries)."""
    y = x.xreplace(sizes) if sizes and isinstance(x, (sp.Basic, sp.MatrixBase)) else x
    if entries and isinstance(y, (sp.Basic, sp.MatrixBase)):
        ms = [m for t in _entries(y) if isinstance(t, sp.Basic) for m in t.atoms(sp.MatrixSymbol)]
        rep = {m: m.as_explicit() for m in ms if all(sp.sympify(s).is_Integer for s in m.shape)}
        if rep:
            y = y.xreplace(rep)
        if isinstance(y, MatrixExpr) and not isinstance(y, sp.MatrixBase) and all(
                sp.sympify(s).is_Integer for s in y.shape):
            y = y.as_explicit()
    y = expand_explicit(y, ranges)
    if isinstance(y, (sp.Basic, sp.MatrixBase)) and any(
            isinstance(t, sp.Basic) and t.has(sp.Derivative) for t in _entries(y)):
        # a derivative in a variable that a point will give a value to: taken first
        y = y.replace(lambda q: isinstance(q, sp.Derivative), lambda q: q.doit())
    return y


def _free_symbols(*xs: Any) -> list[sp.Symbol]:
    syms: set[sp.Symbol] = set()
    labels: set[sp.Basic] = set()
    for x in xs:
        for t in _entries(x):
            if not isinstance(t, sp.Basic):
                continue
            syms |= {s for s in t.free_symbols if isinstance(s, (sp.Symbol, sp.Idx))}
            labels |= {a.base.label for a in t.atoms(sp.Indexed)}
            labels |= {m for m in t.atoms(sp.MatrixSymbol)}
            for m in t.atoms(MatrixElement):
                labels |= {m.parent} if isinstance(m.parent, sp.MatrixSymbol) else set()
    # Symbols before labels: a matrix symbol's name is not a variable, an index symbol is.
    return sorted((s for s in syms if s not in labels), key=sp.default_sort_key)


def _compare_at(Lc: Any, Rc: Any, point: dict, ranges: dict,
                rng: random.Random) -> tuple[str, str]:
    """``("agree", "")``, ``("contradicted", why)`` or another status with its reason."""
    entries: dict = {}
    sides = []
    for side in (Lc, Rc):
        try:
            sides.append(("value", _evaluate(side, point, ranges, entries, rng)))
        except _Missing as m:
            sides.append(("missing", str(m)))
        except IndexError:
            sides.append(("missing", "an entry outside its matrix"))
    (kl, lv), (kr, rv) = sides
    if kl == "missing" and kr == "missing":
        return "undefined", "both sides read entries that do not exist"
    if "missing" in (kl, kr):
        name, other, val = ("lhs", "rhs", rv) if kl == "missing" else ("rhs", "lhs", lv)
        gone = lv if kl == "missing" else rv
        if all(_defined(t) for t in _entries(val)):
            return "contradicted", (f"the {name} reads {gone}, an entry that does not exist, "
                                    f"where the {other} is {_short(val)}")
        return "undefined", "an entry that does not exist"
    le, re_ = _entries(lv), _entries(rv)
    if len(le) != len(re_):
        return "contradicted", "the sides have different shapes"
    agreed = 0
    for a, b in zip(le, re_, strict=True):
        a, b = sp.sympify(a), sp.sympify(b)
        status, info = _quick_compare(a, b)
        if status == "differ?":
            status, info = compare(a, b)  # the careful rule decides a difference
        if status == "differ":
            return "contradicted", f"lhs = {info['lhs']} and rhs = {info['rhs']} ({info['check']})"
        if status == "agree":
            agreed += 1
        elif status == "unsure":
            return "unsure", "a difference at 50 digits not confirmed at 100"
    if agreed == 0:
        return "undefined", "both sides undefined at the point"
    return "agree", ""


def _gaussian(v: sp.Expr) -> sp.Expr | None:
    """``v`` when it is visibly ``p + q i`` with rational p, q (no assumption queries)."""
    if isinstance(v, sp.Rational):
        return v
    try:
        parts = v.as_coefficients_dict()
    except Exception:
        return None
    if set(parts) <= {sp.S.One, sp.I} and all(isinstance(c, sp.Rational) for c in parts.values()):
        return v
    return None


#: Agreement threshold of the quick comparison: relative, at 50 digits.
_QUICK_TOL = sp.Float("1e-30", 50)


def _quick_compare(a: sp.Expr, b: sp.Expr) -> tuple[str, dict[str, str]]:
    """``agree``/``undefined``/``differ?``: exact for Gaussian rationals, else one 50-digit
    evaluation; a possible difference goes to :func:`.witness.compare`, which confirms it at
    100 digits and away from jumps (this path skips its slow assumption queries when the
    sides agree, the common case of a confirmation)."""
    ga, gb = _gaussian(a), _gaussian(b)
    if ga is not None and gb is not None:
        return ("agree", {}) if sp.expand(ga - gb) == 0 else ("differ?", {})
    try:
        va, vb = a.evalf(50, strict=False), b.evalf(50, strict=False)
    except Exception:
        return "undefined", {}
    if not (va.is_number and vb.is_number) or va.has(sp.nan, sp.zoo, sp.oo, -sp.oo) \
            or vb.has(sp.nan, sp.zoo, sp.oo, -sp.oo):
        return "undefined", {}
    try:
        scale = max(sp.Float(1), abs(va), abs(vb))
        d = abs(va - vb)
        if d.is_number and d <= _QUICK_TOL * scale:
            return "agree", {}
    except TypeError:
        pass
    return "differ?", {}


def _defined(v: Any) -> bool:
    v = sp.sympify(v)
    return bool(v.is_number) and not v.has(sp.nan, sp.zoo, sp.oo, -sp.oo)


def _short(v: Any) -> str:
    s = sp.sstr(v)
    return s if len(s) <= 60 else s[:57] + "..."


def _noncommutative(*xs: Any) -> bool:
    return any(isinstance(t, sp.Basic) and any(isinstance(s, sp.Symbol) and s.is_commutative
                                               is False for s in t.free_symbols)
               for x in xs for t in _entries(x))


def _confirm_noncommutative(L: Any, R: Any, rung: str, seed: int, deadline: Deadline,
                            out: Confirmation) -> Confirmation:
    """Noncommutative letters: random 3x3 rational matrices, products in order."""
    rng = random.Random(seed)
    letters = sorted({s for t in _entries(L) + _entries(R) if isinstance(t, sp.Basic)
                      for s in t.free_symbols}, key=lambda s: s.name)
    for _ in range(3):
        if deadline.expired():
            out.skipped.append("time budget spent")
            break
        values = {s: (sp.Matrix(3, 3, lambda i, j: _rational(rng)) if not s.is_commutative
                      else _rational(rng)) for s in letters}
        out.planned += 1
        try:
            lv, rv = guarded(lambda: (nc_evaluate(L, values), nc_evaluate(R, values)),  # noqa: B023
                             seconds=deadline.budget(POINT_S))
        except RungTimeout:
            out.skipped.append("a point ran out of time")
            continue
        except (ValueError, StopIteration) as exc:
            out.skipped.append(f"not a polynomial in the letters ({str(exc)[:60]})")
            break
        if sp.simplify(lv - rv) != sp.zeros(3, 3):
            out.status = "contradicted"
            out.point = {str(s): sp.sstr(v) for s, v in values.items()}
            out.disagreement = (f"{rung} gave an exact zero, but with random 3x3 rational "
                                "matrices for the letters the sides differ")
            return out
        out.compared += 1
    return _finish(out)


def confirm_witness(L: Any, R: Any, cex: dict[str, Any],
                    budget_s: float = BUDGET_S) -> tuple[bool, str]:
    """Whether the witness ``cex`` (point, and sizes if any) makes the sides differ by the
    explicit route; with the reason when it does not. A witness naming an entry at a
    non-integer index or outside the range the sums read is no witness."""
    if "point" not in cex:
        return True, ""
    if _noncommutative(L, R):
        return True, "noncommutative: checked by matrix substitution"
    try:
        return guarded(_confirm_witness, L, R, cex, seconds=budget_s)
    except RungTimeout:
        return False, "the explicit re-check of the witness ran out of time"


def _numeric_matrices(names: dict[str, sp.Basic], full: dict,
                      values: dict[str, sp.Expr]) -> dict[sp.Basic, sp.ImmutableMatrix]:
    """Each matrix symbol whose entries the witness names, as the numeric matrix they make at
    the witness's sizes (an entry it does not name is read by neither side: 0). Products and
    inverses are then taken in exact arithmetic, not on symbolic entries."""
    out: dict[sp.Basic, sp.ImmutableMatrix] = {}
    for ms in (a for a in names.values() if isinstance(a, sp.MatrixSymbol)):
        at = ms.xreplace(full)
        if not all(sp.sympify(d).is_Integer for d in at.shape):
            continue
        rows, cols = int(at.shape[0]), int(at.shape[1])
        keys = [f"{ms.name}[{i}, {j}]" for i in range(rows) for j in range(cols)]
        if not any(k in values for k in keys):
            continue
        out[at] = sp.ImmutableMatrix(rows, cols, [values.get(k, sp.Integer(0)) for k in keys])
    return out


def _confirm_witness(L: Any, R: Any, cex: dict[str, Any]) -> tuple[bool, str]:
    names: dict[str, sp.Basic] = {}
    for x in (L, R):
        for t in _entries(x):
            if isinstance(t, sp.Basic):
                shapes = [d for ms in t.atoms(sp.MatrixSymbol) for d in ms.shape]
                for a in (*t.free_symbols, *t.atoms(sp.Indexed), *t.atoms(MatrixElement),
                          *t.atoms(sp.MatrixSymbol),
                          *(s for d in shapes for s in sp.sympify(d).free_symbols)):
                    names.setdefault(str(a), a)
    size_sub = {}
    for k, v in (cex.get("sizes") or {}).items():
        if k in names:
            size_sub[names[k]] = sp.Integer(v)
    values = {k: sp.sympify(v) for k, v in cex["point"].items()}
    sym_point = {names[k]: v for k, v in values.items()
                 if k in names and isinstance(names[k], sp.Symbol)}
    full = {**size_sub, **sym_point}
    ranges: dict = {}
    mats = _numeric_matrices(names, full, values)
    L2, R2 = (x.xreplace(full).xreplace(mats) if isinstance(x, (sp.Basic, sp.MatrixBase))
              else x for x in (L, R))
    Lc, Rc = _explicit(L2, {}, ranges, entries=True), _explicit(R2, {}, ranges, entries=True)
    # the point's entries, at their indices under the point (x[i/2] with i = 3 is x[3/2]);
    # an entry that exists only at the concrete size (s[i, 1] of a sum over j) is read back
    # from its name with the claim's own bases and symbols
    local: dict[str, Any] = {a.name: a for a in names.values() if isinstance(a, sp.Symbol)}
    for a in names.values():  # a base's name is its label's: the base wins
        if isinstance(a, sp.Indexed):
            local[str(a.base.label)] = a.base
        elif isinstance(a, sp.MatrixSymbol):
            local[a.name] = a
    entry_vals: dict[str, sp.Expr] = {}
    for k, v in values.items():
        a = names.get(k)
        if a is None and "[" in k:
            try:
                a = sp.sympify(k, locals=local)
            except Exception:
                a = None
        if isinstance(a, MatrixElement):
            entry_vals[str(a.xreplace(full))] = v
        elif isinstance(a, sp.Indexed):
            at = a.xreplace(full)
            gone = missing_entry(at, ranges)
            if gone is not None:
                return False, f"the witness names {gone}, an entry that does not exist"
            entry_vals[str(at)] = v
        elif a is None and "[" in k:
            entry_vals[k] = v
    sides = []
    for side in (Lc, Rc):
        ents = []
        for t in _entries(side):
            t = sp.sympify(t)
            if isinstance(t, MatrixExpr) or t.has(MatrixElement, sp.Trace, sp.Determinant,
                                                  sp.Derivative, MatrixExpr):
                t = t.doit()
            gone = missing_entry(t, ranges)
            if gone is not None:
                return False, f"at the witness a side reads {gone}, an entry that does not exist"
            rep = {a: entry_vals[str(a)] for a in (*t.atoms(sp.Indexed), *t.atoms(MatrixElement))
                   if str(a) in entry_vals}
            ents.append(t.xreplace(rep) if rep else t)
        sides.append(ents)
    le, re_ = sides
    if "entry" in cex and len(le) > 1:
        r, c = cex["entry"]
        cols = Lc.cols if isinstance(Lc, sp.MatrixBase) else 1
        le, re_ = [le[r * cols + c]], [re_[r * cols + c]]
    for a, b in zip(le, re_, strict=True):
        if not (_defined(a) and _defined(b)):
            continue
        status, _ = compare(a, b)
        if status != "differ":
            status, _ = compare_adaptive(a, b)
        if status == "differ":
            return True, ""
    return False, "the explicit route does not confirm that the sides differ at the witness"


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
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import sympy as sp
from sympy.matrices.expressions.matexpr import MatrixElement

from ._guard import Deadline, RungTimeout, guarded
from .assume import describe

_UNEVALUATED = (sp.Sum, sp.Product, sp.Derivative, sp.Integral, sp.Limit)

#: Relative thresholds of the high-precision comparison.
DPS, DPS_CONFIRM = 50, 100
TOL, TOL_CONFIRM = sp.Float("1e-30", DPS), sp.Float("1e-60", DPS_CONFIRM)


@dataclass
class SearchResult:
    """What the witness search found: a confirmed counterexample or the tally of points tried."""

    counterexample: dict[str, Any] | None = None
    tried: int = 0
    agreed: int = 0
    undefined: int = 0
    unconfirmed: int = 0
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
            if all(i.free_symbols <= free for i in _indices(a)):
                atoms.add(a)
            labels |= a.parent.free_symbols if not isinstance(a.parent, sp.MatrixSymbol) else {a.parent}
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


def _entry_key(a: sp.Basic, point: dict) -> tuple | None:
    if isinstance(a, sp.Indexed):
        return ("indexed", a.base.label, tuple(sp.sympify(i).xreplace(point) for i in a.indices))
    if isinstance(a, MatrixElement):
        return ("matrix", a.parent, sp.sympify(a.i).xreplace(point), sp.sympify(a.j).xreplace(point))
    return None


def evaluate(expr: Any, point: dict) -> Any:
    """``expr`` at ``point`` (simultaneous exact substitution, then ``doit`` where needed)."""
    if isinstance(expr, sp.MatrixBase):
        return expr.applyfunc(lambda e: evaluate(e, point))
    if not isinstance(expr, sp.Basic):
        return sp.sympify(expr)
    v = expr.xreplace(point)
    if v.has(*_UNEVALUATED) or isinstance(v, sp.MatrixExpr):
        v = v.doit()
    return v


def _undefined(v: sp.Expr) -> bool:
    return bool(v.has(sp.nan, sp.zoo, sp.oo, -sp.oo)) or v.is_finite is False


def _exact(v: sp.Expr) -> sp.Expr | None:
    """``v`` as an exact Gaussian rational, or None."""
    v = sp.expand(v)
    re, im = v.as_real_imag()
    if re.is_Rational and im.is_Rational:
        return v
    return None


def _num(v: sp.Expr, dps: int) -> sp.Expr | None:
    try:
        f = v.evalf(dps, strict=False)
    except Exception:  # noqa: BLE001 - evalf failure means "cannot evaluate here"
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
        info = {"lhs": str(el), "rhs": str(er), "difference": str(d), "check": "exact (Gaussian) rational arithmetic"}
        return ("agree" if d == 0 else "differ"), info
    l1, r1 = _num(lv, DPS), _num(rv, DPS)
    if l1 is None or r1 is None:
        return "undefined", {}
    scale = max(sp.Float(1), abs(l1), abs(r1))
    d1 = abs(l1 - r1)
    if d1 <= TOL * scale:
        return "agree", {}
    l2, r2 = _num(lv, DPS_CONFIRM), _num(rv, DPS_CONFIRM)
    if l2 is None or r2 is None:
        return "unsure", {}
    scale2 = max(sp.Float(1), abs(l2), abs(r2))
    d2 = abs(l2 - r2)
    if d2 > TOL_CONFIRM * scale2 and abs(d2 - d1) <= sp.Float("1e-25") * max(d1, sp.Float(1e-300)) + TOL * scale:
        info = {
            "lhs": sp.sstr(l2.evalf(20)),
            "rhs": sp.sstr(r2.evalf(20)),
            "difference": sp.sstr((l2 - r2).evalf(20)),
            "check": f"mpmath {DPS} digits, confirmed at {DPS_CONFIRM} digits",
        }
        return "differ", info
    return "unsure", {}


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
) -> SearchResult:
    """Look for a confirmed point where ``lhs != rhs`` (scalars or explicit matrices of equal shape).

    ``extra`` is copied into the counterexample (e.g. the concrete sizes used).
    """
    deadline = deadline or Deadline(None)
    res = SearchResult()
    atoms = variables(*(e for _, e in _entries(lhs)), *(e for _, e in _entries(rhs)))
    if _has_bound_indexed(lhs) or _has_bound_indexed(rhs):
        res.notes.append("entries indexed by a bound (summation) variable: witness search needs concrete sizes")
        return res
    rng = random.Random(seed)
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
        except Exception as e:  # noqa: BLE001 - a point SymPy cannot evaluate is skipped
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
    return res


def _check_point(lhs: Any, rhs: Any, point: dict) -> tuple[str, dict[str, Any]]:
    L = _entries(evaluate(lhs, point))
    R = _entries(evaluate(rhs, point))
    if len(L) != len(R):
        raise ValueError("sides have different shapes")
    any_agree = False
    for (idx, lv), (_, rv) in zip(L, R, strict=True):
        status, info = compare(sp.sympify(lv), sp.sympify(rv))
        if status == "differ":
            if idx is not None:
                info = {"entry": list(idx), **info}
            return status, info
        if status in ("undefined", "unsure"):
            return status, {}
        any_agree = True
    return ("agree" if any_agree else "undefined"), {}


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
        coeff = sp.Mul(*c_part).xreplace({k: v for k, v in values.items() if not isinstance(v, sp.MatrixBase)})
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
                "check": f"exact rational arithmetic, noncommutative symbols as {NC_SIZE}x{NC_SIZE} matrices",
                "seed": seed,
            }
            if extra:
                cex.update(extra)
            res.counterexample = cex
            return res
        res.agreed += 1
    return res

"""The rungs of the proof ladder: exact rewritings of a difference ``lhs - rhs``.

Each rung maps an expression to an equal expression (equal wherever both are defined) by
an exact SymPy rewriting. The ladder succeeds only when a rung returns the structural zero
``S.Zero`` (or a ``ZeroMatrix``): no numeric ``equals`` guess, no floating point.

Rungs that introduce formal generators are sound in one direction only, which is the one
used: :func:`exp_normal` replaces each ``exp(c*m)`` by ``E_m**k`` with a fresh symbol
``E_m = exp(m/q)`` and an integer ``k``; if the resulting rational function is identically
zero in the formal symbols, it is zero after substituting the exponentials back.
:func:`to_noncommutative` maps a matrix expression of symbolic size to a polynomial in
noncommutative symbols (transposes pushed down to the leaves, ``X.T`` and ``X**-1`` kept as
fresh letters); a zero polynomial is a zero matrix for every size.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import reduce
from math import lcm
from typing import Any

import sympy as sp
from sympy.matrices.expressions import (
    Identity,
    Inverse,
    MatAdd,
    MatMul,
    MatPow,
    MatrixExpr,
    MatrixSymbol,
    Transpose,
    ZeroMatrix,
)


class NotApplicable(ValueError):
    """A rung that has nothing to work on (no traces, no Piecewise); not worth a step."""


@dataclass(frozen=True)
class Rung:
    """One exact rewriting: its name, the function, and a time cap in seconds."""

    name: str
    fn: Callable[[Any], Any]
    cap_s: float
    cheap: bool = False


def is_zero(e: Any) -> bool:
    """Structural zero only: ``S.Zero``, integer 0, or a ``ZeroMatrix``."""
    if isinstance(e, ZeroMatrix):
        return True
    if isinstance(e, sp.MatrixBase):
        return all(is_zero(x) for x in e)
    try:
        return e == 0 and not getattr(e, "is_Float", False)
    except Exception:
        return False


# -- individual rewritings -------------------------------------------------------------------


def r_expand(e: sp.Expr) -> sp.Expr:
    return sp.expand(e)


def r_cancel(e: sp.Expr) -> sp.Expr:
    return sp.cancel(sp.together(e))


def r_numerator(e: sp.Expr) -> sp.Expr:
    """Numerator of the combined fraction, expanded (zero numerator => zero where defined)."""
    num, _ = sp.fraction(sp.together(sp.expand(e)))
    return sp.expand(num)


def r_doit(e: sp.Expr) -> sp.Expr:
    return sp.expand(sp.expand(e).doit())


def _undefined_at(e: sp.Expr, point: dict) -> bool:
    v = e.xreplace(point)
    try:
        v = v.doit()
    except Exception:
        return False
    return bool(v.has(sp.nan, sp.zoo))


def _point_of(cond: Any) -> dict | None:
    """``{s: c}`` when ``cond`` is ``Eq(s, c)`` (or an ``And`` of such) with numeric ``c``."""
    eqs = cond.args if isinstance(cond, sp.And) else (cond,)
    out: dict = {}
    for eq in eqs:
        if not isinstance(eq, sp.Eq):
            return None
        lhs, rhs = eq.args
        if isinstance(rhs, sp.Symbol) and lhs.is_number:
            lhs, rhs = rhs, lhs
        if not (isinstance(lhs, sp.Symbol) and rhs.is_number):
            return None
        out[lhs] = rhs
    return out


def r_piecewise(e: sp.Expr) -> sp.Expr:
    """Case analysis: ``doit``, ``Abs``/``Max``/``Min``/``sign``/``Heaviside`` rewritten as
    ``Piecewise``, folded into one ``Piecewise`` with disjoint conditions. Zero when every
    branch is zero, or is zero at the single point its condition allows (``Eq(x, 0)``), or
    lies at a point where the difference itself is undefined (``0/0`` in a closed form, as
    in a geometric sum): the identity is asserted only where both sides are defined.
    """
    base = sp.expand(e).doit()
    pw = sp.piecewise_fold(base.rewrite(sp.Piecewise))
    if not isinstance(pw, sp.Piecewise):
        raise NotApplicable("no Piecewise")
    pw = sp.piecewise_exclusive(pw)
    for expr_k, cond_k in pw.args:
        if cond_k == sp.false:
            continue
        rewrites = (sp.expand, r_cancel, lambda q: sp.cancel(exp_normal(q)))
        if any(is_zero(f(expr_k)) for f in rewrites):
            continue
        point = _point_of(cond_k)
        if point is not None:
            at = expr_k.xreplace(point)
            if not at.has(sp.nan, sp.zoo) and is_zero(sp.expand(at)):
                continue
            if _undefined_at(e, point):
                continue
        return pw
    return sp.Integer(0)


def r_log(e: sp.Expr) -> sp.Expr:
    """``expand_log`` / ``powsimp`` / ``powdenest`` under the symbols' assumptions (no
    ``force``)."""
    e = sp.expand_log(sp.expand(e), force=False)
    e = sp.powsimp(sp.powdenest(e), force=False)
    e = sp.expand_log(sp.expand(e), force=False)
    return sp.cancel(sp.together(sp.expand(e)))


def exp_normal(e: sp.Expr) -> sp.Expr:
    """Replace exponentials by integer powers of formal positive-free symbols (see module doc)."""
    e = sp.expand(e, power_exp=True, mul=True, multinomial=True)
    exps = [x for x in e.atoms(sp.exp)]
    if not exps:
        return e
    terms: dict[sp.Expr, list[sp.Rational]] = {}
    split: dict[sp.Expr, list[tuple[sp.Rational, sp.Expr]]] = {}
    for x in exps:
        parts = []
        for t in sp.Add.make_args(sp.expand(x.args[0])):
            c, m = t.as_coeff_Mul()
            if not c.is_Rational:
                c, m = sp.Integer(1), t
            parts.append((c, m))
            terms.setdefault(m, []).append(c)
        split[x] = parts
    gens: dict[sp.Expr, tuple[sp.Symbol, int]] = {}
    for k, (m, cs) in enumerate(sorted(terms.items(), key=lambda kv: sp.default_sort_key(kv[0]))):
        q = reduce(lcm, (int(c.q) for c in cs), 1)
        gens[m] = (sp.Dummy(f"E{k}"), q)
    rep = {}
    for x, parts in split.items():
        rep[x] = sp.Mul(*[gens[m][0] ** int(c * gens[m][1]) for c, m in parts])
    return e.xreplace(rep)


def r_exp(e: sp.Expr) -> sp.Expr:
    """Rewrite trig/hyperbolic functions with ``exp``, then cancel in formal exponentials."""
    e = sp.expand(e).rewrite(sp.exp)
    return sp.cancel(sp.together(exp_normal(e)))


def r_expand_trig(e: sp.Expr) -> sp.Expr:
    return sp.cancel(sp.together(sp.expand(sp.expand_trig(sp.expand(e)))))


def r_trigsimp(e: sp.Expr) -> sp.Expr:
    return sp.expand(sp.trigsimp(e))


def r_fu(e: sp.Expr) -> sp.Expr:
    return sp.expand(sp.fu(e))


def r_simplify(e: sp.Expr) -> sp.Expr:
    return sp.simplify(e)


def r_sum(e: sp.Expr) -> sp.Expr:
    """Sums: linearity (``expand``), merging sums over the same range, then ``doit``."""
    from sympy.simplify.simplify import sum_simplify

    e = sp.expand(e)
    e = sum_simplify(e)
    return sp.expand(sp.expand(e).doit())




# -- matrix expressions of symbolic size -----------------------------------------------------


def to_noncommutative(e: MatrixExpr) -> sp.Expr:
    """A matrix expression as a polynomial in noncommutative letters (see the module doc)."""
    letters: dict[str, sp.Symbol] = {}

    def letter(name: str) -> sp.Symbol:
        if name not in letters:
            letters[name] = sp.Symbol(name, commutative=False)
        return letters[name]

    def go(x: Any, t: bool) -> sp.Expr:
        if isinstance(x, MatrixSymbol):
            return letter(x.name + ("^T" if t else ""))
        if isinstance(x, Identity):
            return sp.Integer(1)
        if isinstance(x, ZeroMatrix):
            return sp.Integer(0)
        if isinstance(x, Transpose):
            return go(x.arg, not t)
        if isinstance(x, MatAdd):
            return sp.Add(*[go(a, t) for a in x.args])
        if isinstance(x, MatMul):
            scal = [a for a in x.args if not isinstance(a, MatrixExpr)]
            mats = [a for a in x.args if isinstance(a, MatrixExpr)]
            if t:
                mats = mats[::-1]
            return sp.Mul(*scal) * sp.Mul(*[go(a, t) for a in mats])
        if isinstance(x, MatPow) and x.exp.is_Integer and x.exp >= 0:
            return go(x.base, t) ** int(x.exp)
        if isinstance(x, Inverse) and isinstance(x.arg, MatrixSymbol):
            return letter(x.arg.name + ("^{-T}" if t else "^{-1}"))
        if not isinstance(x, MatrixExpr):
            return x
        raise NotImplementedError(f"no noncommutative form for {type(x).__name__}")

    return go(e, False)


def r_matrix_doit(e: MatrixExpr) -> Any:
    return e.doit()


def r_matrix_nc(e: MatrixExpr) -> Any:
    return sp.expand(to_noncommutative(e.doit()))


def _transpose_letter(name: str) -> str:
    for a, b in (("^{-T}", "^{-1}"), ("^T", "")):
        if name.endswith(a):
            return name[: -len(a)] + b
    for a, b in (("^{-1}", "^{-T}"),):
        if name.endswith(a):
            return name[: -len(a)] + b
    return name + "^T"


def _canonical_trace_word(word: tuple[str, ...]) -> tuple[str, ...]:
    """Least representative of tr(word) under rotation and transposition (reverse + ^T)."""
    if not word:
        return word
    tw = tuple(_transpose_letter(c) for c in reversed(word))
    cands = [w[i:] + w[:i] for w in (word, tw) for i in range(len(w))]
    return min(cands)


def r_trace(e: sp.Expr) -> sp.Expr:
    """Traces of matrix words as commutative symbols ``tr(word)``, the word made canonical
    under cyclic rotation and transposition; then ``expand``.

    Sound: two traces get the same symbol only if they are equal for every size.
    """
    e = sp.sympify(e).doit()
    traces = e.atoms(sp.Trace)
    if not traces:
        raise NotApplicable("no traces")
    rep: dict[sp.Expr, sp.Expr] = {}
    syms: dict[tuple[str, ...], sp.Symbol] = {}
    for t in traces:
        poly = sp.expand(to_noncommutative(t.arg))
        total = sp.Integer(0)
        for term in sp.Add.make_args(poly):
            c_part, nc_part = term.args_cnc()
            word: list[str] = []
            for f in nc_part:
                base, ex = f.as_base_exp()
                if not (isinstance(base, sp.Symbol) and ex.is_Integer and ex > 0):
                    raise NotImplementedError(f"factor {f}")
                word += [base.name] * int(ex)
            if not word:  # tr(c * I) needs the size: leave it to concrete sizes
                raise NotImplementedError("trace of a multiple of the identity")
            key = _canonical_trace_word(tuple(word))
            if key not in syms:
                syms[key] = sp.Dummy("tr(" + " ".join(key) + ")")
            total += sp.Mul(*c_part) * syms[key]
        rep[t] = total
    return sp.expand(e.xreplace(rep))


MATRIX_RUNGS: tuple[Rung, ...] = (
    Rung("as given", lambda e: e, 2.0, cheap=True),
    Rung("matrix doit (canonical MatAdd/MatMul)", r_matrix_doit, 10.0, cheap=True),
    Rung("noncommutative polynomial in the matrix letters, expanded", r_matrix_nc, 10.0,
         cheap=True),
)


#: For expressions with noncommutative symbols: only rewritings that keep the order of
#: factors. ``cancel``/``together``, the formal-exponential rung (its generators are
#: commutative), ``trigsimp``, ``fu`` and ``simplify`` treat ``exp(X)``, ``sin(X)`` as
#: commuting and "prove" ``exp(X)exp(Y) = exp(X+Y)`` or ``sin(X)cos(Y) = cos(Y)sin(X)``.
NONCOMMUTATIVE_RUNGS: tuple[Rung, ...] = (
    Rung("as given", lambda e: e, 2.0, cheap=True),
    Rung("expand (noncommutative)", r_expand, 10.0, cheap=True),
    Rung("doit + expand (noncommutative)", r_doit, 10.0),
)


def has_noncommutative(e: Any) -> bool:
    """Whether ``e`` contains a noncommutative symbol (``Symbol(..., commutative=False)``)."""
    if not isinstance(e, sp.Basic):
        return False
    return any(s.is_commutative is False for s in e.atoms(sp.Symbol))


SCALAR_RUNGS: tuple[Rung, ...] = (
    Rung("as given", lambda e: e, 2.0, cheap=True),
    Rung("expand", r_expand, 10.0, cheap=True),
    Rung("together + cancel", r_cancel, 10.0, cheap=True),
    Rung("expanded numerator of the common fraction", r_numerator, 10.0, cheap=True),
    Rung("doit + expand", r_doit, 10.0),
    Rung("traces in canonical cyclic/transposed words", r_trace, 10.0),
    Rung("sum linearity (expand, sum_simplify, doit)", r_sum, 10.0),
    Rung("piecewise branches (zero, or at a point where a side is undefined)", r_piecewise, 10.0),
    Rung("expand_log + powsimp + powdenest", r_log, 10.0),
    Rung("rewrite(exp) + cancel in formal exponentials", r_exp, 15.0),
    Rung("expand_trig + cancel", r_expand_trig, 10.0),
    Rung("trigsimp", r_trigsimp, 15.0),
    Rung("fu", r_fu, 15.0),
    Rung("simplify", r_simplify, 20.0),
)

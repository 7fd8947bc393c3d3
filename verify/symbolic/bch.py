"""Baker-Campbell-Hausdorff series ``log(e^X e^Y)`` and free-Lie-algebra helpers.

The series is computed as a truncated noncommutative power series with exact rational
coefficients: with ``W = e^X e^Y - 1`` (no constant term), ``log(1 + W) = sum_k (-1)^(k+1)
W^k / k``, every product truncated at total degree ``order``. Polynomials are dicts
``word -> Fraction`` with words tuples of letters ``"X"``/``"Y"``; results are cached.

:func:`to_commutators` writes a Lie polynomial in nested commutators, either in the Lyndon
(Hall) basis (unique; coefficients found by exact linear algebra; a polynomial that is not
a Lie element is reported) or by the Dynkin-Specht-Wever map ``x1...xn -> (1/n)
[...[x1, x2], ..., xn]``. :func:`expand_commutator` expands commutators back into words.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction
from functools import cache
from math import factorial
from typing import Any

import sympy as sp

Word = tuple[str, ...]
Poly = dict[Word, Fraction]

X, Y = sp.symbols("X Y", commutative=False)


def _mul(a: Poly, b: Poly, order: int) -> Poly:
    out: Poly = {}
    for wa, ca in a.items():
        room = order - len(wa)
        for wb, cb in b.items():
            if len(wb) <= room:
                w = wa + wb
                out[w] = out.get(w, Fraction(0)) + ca * cb
    return {w: c for w, c in out.items() if c}


def _exp_letter(letter: str, order: int) -> Poly:
    return {(letter,) * k: Fraction(1, factorial(k)) for k in range(order + 1)}


@cache
def _bch_words(order: int) -> tuple[tuple[Word, Fraction], ...]:
    ex = _exp_letter("X", order)
    ey = _exp_letter("Y", order)
    w = _mul(ex, ey, order)
    w.pop((), None)  # W = e^X e^Y - 1
    total: Poly = {}
    power: Poly = {(): Fraction(1)}
    for k in range(1, order + 1):
        power = _mul(power, w, order)
        if not power:
            break
        sign = Fraction((-1) ** (k + 1), k)
        for word, c in power.items():
            total[word] = total.get(word, Fraction(0)) + sign * c
    items = [(wd, c) for wd, c in total.items() if c]
    items.sort(key=lambda t: (len(t[0]), t[0]))
    return tuple(items)


def bch_words(order: int) -> Poly:
    """The BCH series up to total degree ``order`` as ``{word: Fraction}`` (words over X, Y)."""
    if order < 1:
        raise ValueError("order must be >= 1")
    return dict(_bch_words(int(order)))


def words_to_expr(
    poly: Mapping[Word, Any], letters: Mapping[str, sp.Expr] | None = None
) -> sp.Expr:
    """A word polynomial as a SymPy expression in noncommutative symbols (default X, Y)."""
    letters = dict(letters or {"X": X, "Y": Y})
    for k in {ch for w in poly for ch in w} - set(letters):
        letters[k] = sp.Symbol(k, commutative=False)
    def coefficient(c: Any) -> sp.Expr:
        if isinstance(c, Fraction):
            return sp.Rational(c.numerator, c.denominator)
        return sp.sympify(c)

    return sp.Add(*[coefficient(c) * sp.Mul(*[letters[ch] for ch in w])
                    for w, c in poly.items()])


def expr_to_words(expr: sp.Expr) -> Poly:
    """Inverse of :func:`words_to_expr`: expand and read off ``{word: coefficient}``.

    Coefficients must be rational numbers; letters are the noncommutative symbols' names.
    """
    out: Poly = {}
    for term in sp.Add.make_args(sp.expand(expr)):
        if term == 0:
            continue
        c_part, nc_part = term.args_cnc()
        c = sp.Mul(*c_part)
        if not c.is_Rational:
            raise ValueError(f"coefficient {c} of {term} is not rational")
        word: list[str] = []
        for f in nc_part:
            base, exp = f.as_base_exp()
            if not (isinstance(base, sp.Symbol) and exp.is_Integer and exp > 0):
                raise ValueError(f"factor {f} is not a letter power")
            word += [base.name] * int(exp)
        w = tuple(word)
        out[w] = out.get(w, Fraction(0)) + Fraction(int(c.p), int(c.q))
    return {w: c for w, c in out.items() if c}


def bch(order: int) -> sp.Expr:
    """``log(e^X e^Y)`` up to total degree ``order``: an expanded polynomial in the
    noncommutative symbols ``X``, ``Y`` (:data:`X`, :data:`Y`) with rational coefficients.

    >>> bch(2)
    X + Y + X*Y/2 - Y*X/2
    """
    return words_to_expr(bch_words(order))


# -- commutators -----------------------------------------------------------------------------


def bracket(a: Any, b: Any) -> sp.Expr:
    """An unevaluated commutator ``[a, b]`` (``sympy.physics.quantum.Commutator``)."""
    from sympy.physics.quantum import Commutator

    return Commutator(a, b)


def expand_commutator(expr: sp.Expr) -> sp.Expr:
    """Expand every commutator ``[a, b] -> a b - b a`` (nested ones too), then ``expand``."""
    from sympy.physics.quantum import Commutator

    def go(e: sp.Expr) -> sp.Expr:
        if isinstance(e, Commutator):
            a, b = (go(x) for x in e.args)
            return a * b - b * a
        if e.args:
            return e.func(*[go(x) for x in e.args])
        return e

    return sp.expand(go(sp.sympify(expr)))


def _bracket_words(a: Poly, b: Poly) -> Poly:
    out: Poly = {}
    for wa, ca in a.items():
        for wb, cb in b.items():
            out[wa + wb] = out.get(wa + wb, Fraction(0)) + ca * cb
            out[wb + wa] = out.get(wb + wa, Fraction(0)) - ca * cb
    return {w: c for w, c in out.items() if c}


def lyndon_words(alphabet: Iterable[str], n: int) -> list[Word]:
    """Lyndon words of length ``n`` over the ordered ``alphabet`` (Duval's algorithm)."""
    a = sorted(alphabet)
    k = len(a)
    out: list[Word] = []
    w = [-1]
    while w:
        w[-1] += 1
        m = len(w)
        if m == n:
            out.append(tuple(a[i] for i in w))
        while len(w) < n:
            w.append(w[len(w) - m])
        while w and w[-1] == k - 1:
            w.pop()
    return out


def _standard_factor(w: Word) -> tuple[Word, Word]:
    """Standard factorisation w = u v with v the longest proper Lyndon suffix."""
    for i in range(1, len(w)):
        v = w[i:]
        if _is_lyndon(v):
            return w[:i], v
    raise ValueError(f"{w} has no standard factorisation")


def _is_lyndon(w: Word) -> bool:
    return all(w < w[i:] + w[:i] for i in range(1, len(w)))


@cache
def _lyndon_bracket(w: Word) -> tuple[Any, tuple[tuple[Word, Fraction], ...]]:
    """(nested bracket as a tree, its expansion as words) of a Lyndon word."""
    if len(w) == 1:
        return w[0], (((w[0],), Fraction(1)),)
    u, v = _standard_factor(w)
    tu, pu = _lyndon_bracket(u)
    tv, pv = _lyndon_bracket(v)
    return (tu, tv), tuple(_bracket_words(dict(pu), dict(pv)).items())


def _tree_expr(t: Any, letters: Mapping[str, sp.Expr]) -> sp.Expr:
    if isinstance(t, str):
        return letters[t]
    return bracket(_tree_expr(t[0], letters), _tree_expr(t[1], letters))


def lyndon_coordinates(poly: Mapping[Word, Fraction]) -> dict[Word, Fraction]:
    """Coefficients of ``poly`` in the Lyndon basis: ``{lyndon word: coefficient}``.

    Raises ``ValueError`` when ``poly`` is not a Lie polynomial (the exact linear system has
    no solution).
    """
    alphabet = sorted({ch for w in poly for ch in w})
    out: dict[Word, Fraction] = {}
    for n in sorted({len(w) for w in poly}):
        target = {w: c for w, c in poly.items() if len(w) == n and c}
        if not target:
            continue
        basis = lyndon_words(alphabet, n)
        cols = [dict(_lyndon_bracket(b)[1]) for b in basis]
        words = sorted(set(target) | {w for col in cols for w in col})
        M = sp.Matrix([[sp.Rational(col.get(w, 0)) for col in cols] for w in words])
        rhs = sp.Matrix([sp.Rational(target.get(w, 0)) for w in words])
        try:
            sol, params = M.gauss_jordan_solve(rhs)
        except ValueError:
            raise ValueError(f"degree-{n} part is not a Lie polynomial") from None
        if params.shape[0]:
            raise ValueError("Lyndon brackets not independent (should not happen)")
        for b, c in zip(basis, sol, strict=True):
            if c != 0:
                out[b] = Fraction(int(c.p), int(c.q))
    return out


def to_commutators(poly: Any, *, basis: str = "lyndon") -> sp.Expr:
    """Write a Lie polynomial (SymPy NC expression or word dict) in nested commutators.

    ``basis="lyndon"``: the unique expansion in the Lyndon basis (standard bracketing, e.g.
    ``[X, [X, Y]]``, ``[[X, Y], Y]``); raises ``ValueError`` if ``poly`` is not Lie.
    ``basis="dynkin"``: the Dynkin-Specht-Wever form, each word ``w1...wn`` with coefficient
    ``c`` mapped to ``c/n [...[w1, w2], ..., wn]`` (valid for Lie polynomials; not checked).
    The result is unevaluated; :func:`expand_commutator` gives the words back.
    """
    words = expr_to_words(poly) if isinstance(poly, sp.Basic) else dict(poly)
    letters = {ch: sp.Symbol(ch, commutative=False) for w in words for ch in w}
    if basis == "lyndon":
        coords = lyndon_coordinates(words)
        return sp.Add(*[sp.Rational(c.numerator, c.denominator)
                        * _tree_expr(_lyndon_bracket(w)[0], letters)
                        for w, c in sorted(coords.items(), key=lambda t: (len(t[0]), t[0]))])
    if basis == "dynkin":
        terms = []
        for w, c in sorted(words.items(), key=lambda t: (len(t[0]), t[0])):
            t: sp.Expr = letters[w[0]]
            for ch in w[1:]:
                t = bracket(t, letters[ch])
            terms.append(sp.Rational(c.numerator, c.denominator * len(w)) * t)
        return sp.Add(*terms)
    raise ValueError(f"unknown basis {basis!r}; use 'lyndon' or 'dynkin'")


def evaluate_words(poly: Mapping[Word, Any], values: Mapping[str, Any]) -> Any:
    """Evaluate a word polynomial on matrices (numpy arrays or anything with ``@``)."""
    import numpy as np

    some = next(iter(values.values()))
    n = some.shape[0]
    out = np.zeros_like(some, dtype=np.result_type(some, float))
    cache: dict[Word, Any] = {(): np.eye(n, dtype=out.dtype)}
    for w in sorted(poly, key=len):
        if w not in cache:
            cache[w] = cache[w[:-1]] @ values[w[-1]] if w[:-1] in cache else _word(w, values, n)
        out = out + float(poly[w]) * cache[w]
    return out


def _word(w: Word, values: Mapping[str, Any], n: int) -> Any:
    import numpy as np

    m = np.eye(n)
    for ch in w:
        m = m @ values[ch]
    return m

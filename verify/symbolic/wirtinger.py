"""Wirtinger calculus: derivatives with ``z`` and ``conj(z)`` as independent variables.

For ``f(z, conj z)`` the Wirtinger derivatives are

    df/dz     = (df/dx - i df/dy) / 2,
    df/dzbar  = (df/dx + i df/dy) / 2,     z = x + i y,

computed here by treating ``conjugate(z)`` as an independent symbol: ``Abs(a)`` is written
``sqrt(a*conj(a))``, ``re``/``im`` as ``(a +- conj(a))/2(i)``, SymPy pushes ``conjugate``
through analytic functions, ``conjugate(z)`` is replaced by a fresh symbol ``zb``, the
derivative is taken, and ``zb`` becomes ``conjugate(z)`` again.

PyTorch convention (checked in ``tests/engine/test_symbolic_wirtinger.py``): for a *real* loss
``L`` of a complex leaf ``z``, ``z.grad`` equals ``2 * dL/dzbar`` = ``conj(2 * dL/dz)``, the
direction of steepest ascent ``dL/dx + i dL/dy``; :func:`torch_grad` returns exactly that.
"""

from __future__ import annotations

from typing import Any

import sympy as sp
from sympy.matrices.expressions.matexpr import MatrixElement


def _open(expr: sp.Expr) -> sp.Expr:
    """Rewrite Abs, re, im, arg-free forms in terms of the argument and its conjugate."""
    expr = sp.sympify(expr)
    expr = expr.replace(sp.Abs, lambda a: sp.sqrt(a * sp.conjugate(a)))
    expr = expr.replace(sp.re, lambda a: (a + sp.conjugate(a)) / 2)
    expr = expr.replace(sp.im, lambda a: (a - sp.conjugate(a)) / (2 * sp.I))
    return expr


#: Functions that are not holomorphic in their arguments (after ``Abs``, ``re``, ``im`` were
#: opened): their dependence on ``conj(z)`` cannot be read off by treating ``z``, ``zb`` apart.
_NOT_HOLOMORPHIC: tuple[type[sp.Basic], ...] = (
    sp.conjugate, sp.arg, sp.sign, sp.Abs, sp.re, sp.im, sp.floor, sp.ceiling, sp.frac,
    sp.Heaviside, sp.DiracDelta, sp.KroneckerDelta, sp.Max, sp.Min, sp.Piecewise,
    sp.polar_lift, sp.periodic_argument, sp.adjoint, sp.transpose,
    sp.core.relational.Relational,
)


def _check_var(z: Any) -> sp.Expr:
    if not isinstance(z, (sp.Symbol, sp.Indexed, MatrixElement)):
        raise TypeError(f"Wirtinger derivative needs a symbol or a matrix/indexed entry, got {z!r}")
    if z.is_real:
        raise ValueError(f"{z} is declared real: its Wirtinger derivatives are not independent")
    return z


def _scalar(expr: sp.Expr, z: sp.Expr, conj: bool) -> sp.Expr:
    z = _check_var(z)
    zb = sp.Dummy(f"{z}_bar")
    e = _open(expr).xreplace({sp.conjugate(z): zb})
    if e.has(sp.conjugate(z)):  # conjugate not pushed through an unknown function
        raise ValueError(f"cannot separate conjugate({z}) in {expr}")
    for node in sp.preorder_traversal(e):
        # a function that is not holomorphic in its argument hides a dependence on conj(z):
        # diff would treat arg(z) or conjugate(sqrt(z)) as free of zb and return 0
        if isinstance(node, _NOT_HOLOMORPHIC) and (node.has(z) or node.has(zb)):
            raise ValueError(f"cannot separate conjugate({z}) in {expr}: {node} is not "
                             "holomorphic in its argument")
    d = sp.diff(e, zb if conj else z)
    return d.xreplace({zb: sp.conjugate(z)})


def _apply(expr: Any, z: Any, conj: bool) -> Any:
    if isinstance(z, sp.MatrixSymbol):
        if not all(sp.sympify(s).is_Integer for s in z.shape):
            raise ValueError("a MatrixSymbol variable needs a concrete shape")
        z = z.as_explicit()
        if isinstance(expr, sp.Basic):
            expr = expr.xreplace({m: m.as_explicit() for m in expr.atoms(sp.MatrixSymbol)
                                  if all(sp.sympify(s).is_Integer for s in m.shape)}).doit()
    if isinstance(z, (sp.MatrixBase, list, tuple)):
        Z = sp.Matrix(z)
        if isinstance(expr, sp.MatrixBase):
            raise ValueError(
                "matrix-valued expression and matrix variable: take entries one by one"
            )
        return Z.applyfunc(lambda zij: _scalar(expr, zij, conj))
    if isinstance(expr, sp.MatrixBase):
        return expr.applyfunc(lambda e: _scalar(e, z, conj))
    return _scalar(sp.sympify(expr), z, conj)


def wirtinger(expr: Any, z: Any) -> Any:
    """``d expr / dz`` with ``conj(z)`` held fixed.

    ``expr`` a scalar expression or a Matrix (entrywise); ``z`` a symbol, a Matrix of
    symbols, or a ``MatrixSymbol`` of concrete shape (its entries ``Z[i, j]`` are the
    variables; matrix symbols in ``expr`` are made explicit). Layout for a matrix ``z``:
    ``result[i, j] = d expr / d z[i, j]`` (same shape as ``z``), for a scalar ``expr`` only.
    """
    return _apply(expr, z, conj=False)


def wirtinger_conj(expr: Any, z: Any) -> Any:
    """``d expr / d conj(z)`` with ``z`` held fixed; same layout as :func:`wirtinger`."""
    return _apply(expr, z, conj=True)


def torch_grad(loss: Any, z: Any) -> Any:
    """What ``torch`` stores in ``z.grad`` after ``loss.backward()`` for a real ``loss``:
    ``2 dL/dzbar``."""
    g = _apply(loss, z, conj=True)
    return g.applyfunc(lambda e: 2 * e) if isinstance(g, sp.MatrixBase) else 2 * g


def check_cauchy_riemann(expr: Any, z: sp.Symbol) -> bool:
    """True when ``d expr / d conj(z)`` is an exact zero after ``expand`` (``expr`` holomorphic
    in z)."""
    return sp.expand(_scalar(sp.sympify(expr), z, conj=True)) == 0

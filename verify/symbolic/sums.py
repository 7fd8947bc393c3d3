"""Rewrites of finite sums with symbolic bounds that SymPy does not do on its own.

``prove_equal`` cancels two sums only when they are the same SymPy object. ``sum_k f(k)`` and
``sum_j f(j)`` are the same sum with different names for the bound variable (alpha-equivalent), but
they are different objects. :func:`bound_variables_renamed` gives every flat sum canonical bound
variables, so that such sums cancel (e.g. ``sum_k e^{s_k} / sum_l e^{s_l} = 1``).
"""

from __future__ import annotations

import sympy as sp

_CANONICAL = tuple(sp.Symbol(f"_kappa{n}", integer=True) for n in range(4))


def bound_variables_renamed(expr: sp.Expr) -> sp.Expr:
    """``expr`` with the summation variables of every ``Sum`` renamed to canonical symbols, by
    limit position.

    This is alpha-equivalence only: bounds, summands and free symbols are untouched, and the
    order of the limits is kept (no exchange of sums). It applies only to sums that contain no
    other sum, where a canonical name cannot be captured, and to at most four limits per sum.
    Otherwise it raises ``ValueError`` quoting the sum.
    """
    sums = sp.sympify(expr).atoms(sp.Sum)
    for S in sums:
        nested = S.function.has(sp.Sum) or any(
            part.has(sp.Sum) for lim in S.limits for part in lim[1:]
        )
        if nested or len(S.limits) > len(_CANONICAL):
            raise ValueError(f"bound_variables_renamed: nested or too deep a sum: {S}")
    return expr.xreplace(
        {S: S.xreplace(dict(zip(S.variables, _CANONICAL, strict=False))) for S in sums}
    )

"""The paper's objects as SymPy expressions, shared by the nfa proofs.

Each builder cites the construction of the paper it encodes; the exact checks themselves are
done by :mod:`verify.symbolic`. Torch-free, so the numeric checks in ``numerics/nfa`` may use
it too.
"""

from __future__ import annotations

from typing import Any

import sympy as sp


def symbols_vec(name: str, n: int, **assume: Any) -> list[sp.Symbol]:
    """``[name1, ..., name_n]`` as SymPy symbols (real unless told otherwise)."""
    assume.setdefault("real", True)
    return list(sp.symbols(f"{name}1:{n + 1}", **assume))


def symbol_matrix(name: str, rows: int, cols: int) -> sp.Matrix:
    """A generic real ``rows x cols`` matrix of symbols ``name_{i,k}``."""
    return sp.Matrix(rows, cols, lambda i, k: sp.Symbol(f"{name}_{i + 1}{k + 1}", real=True))


def taylor_coeffs(expr: sp.Expr, var: sp.Symbol, order: int) -> list[sp.Expr]:
    """Exact Taylor coefficients ``[f(0), f'(0), f''(0)/2, ...]`` of ``expr`` in ``var``.

    Computed by differentiation then substitution (cheaper than ``series`` for softmax
    quotients); exact for analytic functions such as ``exp(beta s_i)/sum_j exp(beta s_j)``.
    """
    out = []
    d = expr
    for n in range(order + 1):
        out.append(sp.together(d.subs(var, 0)) / sp.factorial(n))
        d = sp.diff(d, var)
    return out


def softmax_weights(s: list[sp.Expr], beta: sp.Symbol) -> list[sp.Expr]:
    """``alpha_i(beta) = exp(beta s_i) / sum_j exp(beta s_j)`` (A.4.1, L426; beta = 1/tau)."""
    Z = sum(sp.exp(beta * si) for si in s)
    return [sp.exp(beta * si) / Z for si in s]

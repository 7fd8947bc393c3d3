"""The paper's objects as SymPy expressions, shared by the nfa proofs.

Each builder cites the construction of the paper it encodes; the exact checks themselves are
done by :mod:`verify.symbolic`. Sizes are symbolic wherever the identity allows it: the
softmax objects of A.4.1 and App. C are sums over ``i = 1..N`` with ``N`` a symbol
(``IndexedBase`` entries), so a proof about them holds for every N. Torch-free, so the
numeric checks in ``numerics/nfa`` may use it too.
"""

from __future__ import annotations

from typing import Any

import sympy as sp

#: The number of samples, symbolic.
N = sp.Symbol("N", integer=True, positive=True)
#: Summation indices over the samples.
i, j = sp.symbols("i j", integer=True)
#: The inverse temperature ``beta = 1/tau`` (A.4.1, L426).
beta = sp.Symbol("beta", real=True)


def symbols_vec(name: str, n: int, **assume: Any) -> list[sp.Symbol]:
    """``[name1, ..., name_n]`` as SymPy symbols (real unless told otherwise)."""
    assume.setdefault("real", True)
    return list(sp.symbols(f"{name}1:{n + 1}", **assume))


def symbol_matrix(name: str, rows: int, cols: int) -> sp.Matrix:
    """A generic real ``rows x cols`` matrix of symbols ``name_{i,k}``."""
    return sp.Matrix(rows, cols, lambda i, k: sp.Symbol(f"{name}_{i + 1}{k + 1}", real=True))


def total(expr: sp.Expr, idx: sp.Symbol = i) -> sp.Sum:
    """``sum_{idx=1}^{N} expr`` for the symbolic N."""
    return sp.Sum(expr, (idx, 1, N))


def mean_and_variance(s: sp.IndexedBase) -> tuple[sp.Expr, sp.Expr]:
    """``s_bar = (1/N) sum_j s_j`` and ``var(s) = (1/N) sum_j (s_j - s_bar)^2``."""
    sbar = total(s[j], j) / N
    return sbar, total((s[j] - sbar) ** 2, j) / N


def softmax_weight(s: sp.IndexedBase) -> sp.Expr:
    """``alpha_i(beta) = exp(beta s_i) / sum_j exp(beta s_j)`` (A.4.1, L426; Thm 13 L648)."""
    return sp.exp(beta * s[i]) / total(sp.exp(beta * s[j]), j)


def softmax_output(s: sp.IndexedBase, v: sp.Expr) -> sp.Expr:
    """``O(beta) = sum_i alpha_i(beta) v_i`` (A.4.1 L444, Thm 13 L650); ``v`` is the value of
    sample ``i`` (an expression in the index ``i``)."""
    return total(sp.exp(beta * s[i]) * v) / total(sp.exp(beta * s[j]), j)


def taylor_coefficient(expr: sp.Expr, order: int) -> sp.Expr:
    """The exact order-``order`` Taylor coefficient of ``expr`` in ``beta`` at 0, computed by
    differentiation then substitution, with the sums evaluated where SymPy can
    (``sum_j 1 = N``)."""
    d = expr
    for _ in range(order):
        d = sp.diff(d, beta)
    return (d.subs(beta, 0) / sp.factorial(order)).doit()

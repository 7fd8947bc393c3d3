"""Shared SymPy builders for the nfa proofs (private: not scanned for claims).

Every builder cites the paper's construction it encodes. The exact checks themselves are done
by :func:`verify.symbolic.prove_equal`; this module only builds expressions.
"""

from __future__ import annotations

from typing import Any

import sympy as sp

from verify import Evidence, Verdict

PAPER = "nfa"


def symbols_vec(name: str, n: int, **assume: Any) -> list[sp.Symbol]:
    """``[name1, ..., name_n]`` as SymPy symbols (real unless told otherwise)."""
    assume.setdefault("real", True)
    return list(sp.symbols(f"{name}1:{n + 1}", **assume))


def symbol_matrix(name: str, rows: int, cols: int) -> sp.Matrix:
    """A generic real ``rows x cols`` matrix of symbols ``name_{i,k}``."""
    return sp.Matrix(rows, cols, lambda i, k: sp.Symbol(f"{name}_{i + 1}{k + 1}", real=True))


def taylor_coeffs(expr: sp.Expr, var: sp.Symbol, order: int) -> list[sp.Expr]:
    """Exact Taylor coefficients ``[f(0), f'(0), f''(0)/2, ...]`` of an analytic ``expr`` in ``var``.

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


def exact_witness(
    summary: str, values: dict[str, Any], *, reading: str = "A", part: str = "main", steps: list[str] | None = None
) -> Evidence:
    """REFUTED (symbolic) with an exact rational witness already evaluated by the caller."""
    return Evidence(
        Verdict.REFUTED,
        summary,
        method="symbolic",
        reading=reading,
        part=part,
        counterexample={k: (str(v) if isinstance(v, sp.Basic) else v) for k, v in values.items()},
        steps=steps or [],
        generality="a single exact rational instance",
    )

"""The symbolic objects shared by the toef claim modules.

The paper's conventions (Def. 2, l. 64; the Wirtinger calculus of l. 196): ``X`` is an
``N x C`` matrix of complex entries (N tokens, C features), ``X^*`` its conjugate transpose
(``X.H``), and ``dV/dX^*`` the ``N x C`` matrix of ``dV/d conj(X_jk)`` with ``X`` and
``conj(X)`` independent (:func:`verify.symbolic.wirtinger_conj`).

No claims here; :mod:`.anysize` holds the proofs in the statements' own generality (symbolic N,
C, every degree, every matrix size) that the claim modules use beside their instances.
"""

from __future__ import annotations

import itertools

import sympy as sp

#: The paper's key: every claim id starts with ``toef.``.
PAPER = "toef"


def symbol_matrix(rows: int, cols: int, name: str) -> sp.Matrix:
    """``rows x cols`` matrix of independent symbols ``{name}{j}{k}`` (``x01``, ``w10``...)."""
    return sp.Matrix(rows, cols, lambda j, k: sp.Symbol(f"{name}{j}{k}"))


def token_matrix(N: int, C: int, name: str = "x") -> sp.Matrix:
    """The token matrix ``X`` (``N x C``, l. 32) as symbols ``x{j}{k}``."""
    return symbol_matrix(N, C, name)


def matrix_unit(C: int, i: int, j: int) -> sp.Matrix:
    """The ``C x C`` matrix unit ``E_ij`` (1 at ``(i, j)``, 0 elsewhere)."""
    return sp.Matrix(C, C, lambda r, s: 1 if (r, s) == (i, j) else 0)


def quartic_tensor(C: int) -> dict[tuple[int, int, int, int], sp.Symbol]:
    """Symbols ``t_abcd`` for a general 4-index tensor over ``1..C``: the coefficients of a
    quartic invariant ``sum T_abcd K_ab K_cd`` (``K = X^*X``) or of ``sum_i A_i (x) B_i``."""
    return {
        idx: sp.Symbol("t_" + "".join(map(str, idx)))
        for idx in itertools.product(range(C), repeat=4)
    }


# -- tolerances of the numeric checks (relative, float64 / complex128) -----------------------

#: An identity evaluated in float64 holds when its relative error is at most this.
IDENTITY_TOL = 1e-10
#: A counterexample needs a relative error at least this large.
COUNTEREXAMPLE_TOL = 1e-3
#: A rate is the claimed one when the fitted log-log slope is within this of it.
RATE_MARGIN = 0.3

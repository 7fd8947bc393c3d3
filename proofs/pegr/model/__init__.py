"""The shared objects of the paper, exact (SymPy), used by both claim trees.

* ``R(a)``: the 2x2 rotation of A.2, L170.
* ``vec_col`` / ``vec_row``: the two readings of "vec flattens a matrix into a vector" (L47):
  column-major (stack the columns, SymPy's ``Matrix.vec()``) and row-major (stack the rows).
* ``kron_I``: the Kronecker products ``I (x) A`` (as printed in eqs. (17)-(19)) and ``A (x) I``.
* ``perm_matrix``: ``P(sigma)`` with ``P(sigma) e_i = e_{sigma(i)}`` (A.2, L180-182).
* ``generic_matrix``: an ``n x n`` matrix of independent real symbols.
* ``step_timeout``: the time budget of a symbolic step, a share of the claim's budget.
* The float64 thresholds every numeric check of the paper uses: an identity holds when its
  relative error is at most ``IDENTITY_TOL`` (times the size where stated), and a mismatch is a
  counterexample only from ``COUNTEREXAMPLE_ERROR`` on.

No claims here; :mod:`.general` holds the symbolic-size proofs of the vec, Kronecker and
permutation identities (explicit index maps) that the claim modules use.
"""

from __future__ import annotations

from collections.abc import Sequence

import sympy as sp

PAPER = "pegr"
#: float64 relative error up to which an identity holds (scaled by the size D where stated).
IDENTITY_TOL = 1e-12
#: float64 relative error from which a re-checked mismatch is a counterexample.
COUNTEREXAMPLE_ERROR = 1e-6
#: The least time a symbolic step gets (``prove_cases``' default).
STEP_TIMEOUT_MIN_S = 20.0


def step_timeout(ctx, remaining: int = 1) -> float:
    """Seconds for the next of a claim's ``remaining`` symbolic steps: an even share of most of
    what is left of the claim's budget, never less than :data:`STEP_TIMEOUT_MIN_S`. A step's
    rungs (a sum over the blocks of a PE, with a symbolic number of blocks, reaches the rung that
    closes it only after the sum rungs) take seconds on an idle machine and several times that
    on a loaded one; a fixed cap would make the verdict depend on the load rather than on the
    mathematics."""
    return max(STEP_TIMEOUT_MIN_S, 0.8 * ctx.time_left() / max(1, remaining))


def R(a: sp.Expr) -> sp.Matrix:
    """``R(a) = [[cos a, -sin a], [sin a, cos a]]`` (L170)."""
    return sp.Matrix([[sp.cos(a), -sp.sin(a)], [sp.sin(a), sp.cos(a)]])


def vec_col(A: sp.Matrix) -> sp.Matrix:
    """Column-major vec: the columns of ``A`` stacked (SymPy ``Matrix.vec()``)."""
    return A.T.reshape(A.rows * A.cols, 1)


def vec_row(A: sp.Matrix) -> sp.Matrix:
    """Row-major vec: the rows of ``A`` stacked (C order, torch's ``reshape(-1)``)."""
    return A.reshape(A.rows * A.cols, 1)


def kron_I(A: sp.Matrix, order: str) -> sp.Matrix:
    """``I (x) A`` for ``order="I(x)A"`` (eqs. (17)-(19) as printed), ``A (x) I`` for
    ``order="A(x)I"``; ``I`` has the size of ``A``."""
    eye = sp.eye(A.rows)
    if order == "I(x)A":
        return sp.kronecker_product(eye, A)
    if order == "A(x)I":
        return sp.kronecker_product(A, eye)
    raise ValueError(f"order must be 'I(x)A' or 'A(x)I', got {order!r}")


def perm_matrix(sigma: Sequence[int]) -> sp.Matrix:
    """``P(sigma)`` with ``P(sigma) e_i = e_{sigma(i)}``, so that ``P(sigma tau) = P(sigma)
    P(tau)`` for ``(sigma tau)(i) = sigma(tau(i))``."""
    n = len(sigma)
    return sp.Matrix(n, n, lambda i, j: 1 if sigma[j] == i else 0)


def generic_matrix(n: int, name: str) -> sp.Matrix:
    """``n x n`` matrix of independent real symbols ``{name}{i}{j}``."""
    return sp.Matrix(n, n, lambda i, j: sp.Symbol(f"{name}{i}{j}", real=True))

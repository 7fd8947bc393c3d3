"""Exact rational linear algebra: the arithmetic every certificate is re-checked in.

Everything here works on :class:`fractions.Fraction` (vectors are lists, matrices lists of
rows), so a check either holds exactly or fails exactly; no tolerance appears anywhere in
this module. The routines are plain Gaussian elimination and a pivoted LDL^T, meant for the
small and medium problems (tens to a few hundred unknowns) that papers' claims produce.

The PSD test (:func:`psd_witness`) is the heart of the SDP certificates: a symmetric
rational matrix is positive semidefinite iff the symmetric-pivoting LDL^T elimination never
meets a negative pivot, nor a zero pivot with a non-zero row below it. When it fails, the
elimination is unwound into a rational vector ``v`` with ``v^T M v < 0``, which is then
re-checked directly, so a "not PSD" answer comes with its own proof.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from decimal import Decimal
from fractions import Fraction
from numbers import Rational
from typing import Any

Vector = list[Fraction]
Matrix = list[list[Fraction]]


# -- conversion ------------------------------------------------------------------------------
def to_fraction(value: Any) -> Fraction:
    """``value`` as an exact Fraction.

    Accepts ints, Fractions, ``numbers.Rational`` (sympy Integer/Rational, numpy ints),
    floats (converted *exactly*: ``Fraction(0.1)`` is the binary double, not 1/10), Decimals,
    strings such as ``"3/7"`` and sympy Floats. Irrational symbolic values (``sqrt(2)``,
    ``cos(pi/7)``) are refused: pass a float approximation explicitly, so that it is clear the
    certificate is about the rounded data.
    """
    if isinstance(value, Fraction):
        return value
    if isinstance(value, bool):
        return Fraction(int(value))
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"cannot make an exact rational of {value!r}")
        return Fraction(value)
    if isinstance(value, (Decimal, str)):
        return Fraction(value)
    module = type(value).__module__.split(".")[0]
    if module == "sympy":
        import sympy

        if isinstance(value, sympy.Rational):
            return Fraction(int(value.p), int(value.q))
        if isinstance(value, sympy.Float):
            return Fraction(sympy.Rational(value).p, sympy.Rational(value).q)
        raise TypeError(f"{value!r} is not a rational number; pass a float approximation")
    if module == "numpy":
        import numpy as np

        if isinstance(value, np.integer):
            return Fraction(int(value))
        if isinstance(value, np.floating):
            return to_fraction(float(value))
        if isinstance(value, np.ndarray) and value.ndim == 0:
            return to_fraction(value.item())
    if isinstance(value, Rational):
        return Fraction(int(value.numerator), int(value.denominator))
    raise TypeError(f"cannot make an exact rational of {type(value).__name__} {value!r}")


def to_vector(values: Any) -> Vector:
    """A 1-D array-like as a list of Fractions."""
    if hasattr(values, "tolist") and not isinstance(values, list):
        values = values.tolist()
    return [to_fraction(v) for v in values]


def to_matrix(values: Any) -> Matrix:
    """A 2-D array-like (numpy, nested lists, sympy Matrix) as a list of Fraction rows."""
    if values is None:
        return []
    if type(values).__module__.split(".")[0] == "sympy":
        return [[to_fraction(values[i, j]) for j in range(values.cols)] for i in range(values.rows)]
    if hasattr(values, "tolist") and not isinstance(values, list):
        values = values.tolist()
    rows = [to_vector(r) for r in values]
    if rows and any(len(r) != len(rows[0]) for r in rows):
        raise ValueError("ragged matrix")
    return rows


# -- basic operations ------------------------------------------------------------------------
def dot(a: Sequence[Fraction], b: Sequence[Fraction]) -> Fraction:
    return sum((x * y for x, y in zip(a, b, strict=True) if x and y), Fraction(0))


def matvec(A: Matrix, x: Sequence[Fraction]) -> Vector:
    return [dot(row, x) for row in A]


def transpose(A: Matrix, ncols: int | None = None) -> Matrix:
    if not A:
        return [[] for _ in range(ncols or 0)]
    return [list(col) for col in zip(*A, strict=True)]


def rmatvec(A: Matrix, y: Sequence[Fraction], ncols: int) -> Vector:
    """``A^T y`` for an ``m x ncols`` matrix (an empty ``A`` gives the zero vector)."""
    out = [Fraction(0)] * ncols
    for row, yi in zip(A, y, strict=True):
        if yi:
            for j, a in enumerate(row):
                if a:
                    out[j] += a * yi
    return out


def inner(A: Matrix, B: Matrix) -> Fraction:
    """Frobenius inner product ``<A, B> = trace(A^T B)``."""
    return sum((dot(ra, rb) for ra, rb in zip(A, B, strict=True)), Fraction(0))


def identity(n: int) -> Matrix:
    return [[Fraction(int(i == j)) for j in range(n)] for i in range(n)]


def mat_add(A: Matrix, B: Matrix, scale: Fraction = Fraction(1)) -> Matrix:
    """``A + scale * B``."""
    return [[a + scale * b for a, b in zip(ra, rb, strict=True)]
            for ra, rb in zip(A, B, strict=True)]


def lin_comb(base: Matrix, coeffs: Iterable[Fraction], mats: Iterable[Matrix]) -> Matrix:
    """``base + sum_i coeffs[i] * mats[i]``."""
    out = [list(r) for r in base]
    for c, M in zip(coeffs, mats, strict=True):
        if c:
            out = mat_add(out, M, c)
    return out


def is_symmetric(M: Matrix) -> bool:
    n = len(M)
    return all(len(r) == n for r in M) and all(
        M[i][j] == M[j][i] for i in range(n) for j in range(i + 1, n)
    )


# -- linear systems --------------------------------------------------------------------------
def solve(A: Matrix, b: Sequence[Fraction]) -> Vector | None:
    """One exact solution of ``A x = b`` (free unknowns set to 0), or None if inconsistent."""
    m = len(A)
    n = len(A[0]) if A else 0
    rows = [list(A[i]) + [Fraction(b[i])] for i in range(m)]
    pivots: list[int] = []
    r = 0
    for col in range(n):
        piv = next((i for i in range(r, m) if rows[i][col]), None)
        if piv is None:
            continue
        rows[r], rows[piv] = rows[piv], rows[r]
        p = rows[r][col]
        rows[r] = [v / p for v in rows[r]]
        for i in range(m):
            if i != r and rows[i][col]:
                f = rows[i][col]
                rows[i] = [vi - f * vr for vi, vr in zip(rows[i], rows[r], strict=True)]
        pivots.append(col)
        r += 1
        if r == m:
            break
    if any(rows[i][n] for i in range(r, m)):
        return None
    x = [Fraction(0)] * n
    for i, col in enumerate(pivots):
        x[col] = rows[i][n]
    return x


def min_norm_correction(A: Matrix, residual: Sequence[Fraction]) -> Vector | None:
    """The least-norm ``d`` with ``A d = residual`` (``d = A^T w``, ``A A^T w = residual``).

    It moves a rounded point exactly onto an affine subspace while moving it as little as
    possible. None when the system is inconsistent.
    """
    if not A:
        return None if any(residual) else []
    n = len(A[0])
    gram = [[dot(ri, rj) for rj in A] for ri in A]
    w = solve(gram, residual)
    if w is None:
        return None
    return rmatvec(A, w, n)


# -- positive semidefiniteness ---------------------------------------------------------------
def psd_witness(M: Matrix, *, strict: bool = False) -> Vector | None:
    """None if the symmetric matrix ``M`` is PSD (PD when ``strict``), else a witness.

    The witness is a rational vector ``v != 0`` with ``v^T M v < 0`` (``<= 0`` when
    ``strict``), re-checked by direct evaluation before it is returned. Raises ValueError on
    a non-symmetric matrix.

    Method: LDL^T with symmetric (diagonal) pivoting on the largest remaining diagonal. If
    the largest remaining diagonal ``d`` is negative, or zero (strict), or zero with a
    non-zero off-diagonal entry left, a witness exists in the Schur complement; it is
    carried back through the eliminations (``x_pivot = -(m^T v) / d``) to the original
    coordinates, where ``x^T M x`` equals the Schur complement's ``v^T S v``.
    """
    if not is_symmetric(M):
        raise ValueError("psd check needs a symmetric matrix")
    n = len(M)
    S = [list(r) for r in M]
    idx = list(range(n))  # original index of each remaining row of S
    history: list[tuple[int, list[tuple[int, Fraction]], Fraction]] = []
    witness_local: dict[int, Fraction] | None = None
    while idx:
        k = len(idx)
        neg = next((i for i in range(k) if S[i][i] < 0), None)
        if neg is not None:
            witness_local = {idx[neg]: Fraction(1)}
            break
        best = max(range(k), key=lambda i: S[i][i])
        d = S[best][best]
        if strict and d == 0:
            witness_local = {idx[best]: Fraction(1)}
            break
        if d == 0:
            # every remaining diagonal is 0: PSD iff the whole block is 0
            nz = next(((i, j) for i in range(k) for j in range(k) if S[i][j]), None)
            if nz is None:
                break
            i, j = nz
            witness_local = {idx[i]: Fraction(1), idx[j]: Fraction(-1 if S[i][j] > 0 else 1)}
            break
        col = [(idx[i], S[i][best]) for i in range(k) if i != best and S[i][best]]
        history.append((idx[best], col, d))
        keep = [i for i in range(k) if i != best]
        S = [
            [S[i][j] - S[i][best] * S[best][j] / d if S[i][best] and S[best][j] else S[i][j]
             for j in keep]
            for i in keep
        ]
        idx = [idx[i] for i in keep]
    if witness_local is None:
        return None
    x = [Fraction(0)] * n
    for i, v in witness_local.items():
        x[i] = v
    for piv, col, d in reversed(history):
        x[piv] = -sum((m * x[i] for i, m in col), Fraction(0)) / d
    q = quad_form(M, x)
    if not (q < 0 or (strict and q <= 0 and any(x))):
        raise AssertionError("internal error: PSD witness failed its own re-check")
    return x


def quad_form(M: Matrix, x: Sequence[Fraction]) -> Fraction:
    """``x^T M x`` exactly."""
    return dot(x, matvec(M, x))


def is_psd_exact(M: Any, *, strict: bool = False) -> bool:
    """True iff the (exactly converted) symmetric matrix ``M`` is PSD (PD when ``strict``)."""
    return psd_witness(to_matrix(M), strict=strict) is None


def min_eig_lower_bound_holds(M: Any, t: Any) -> bool:
    """True iff ``lambda_min(M) >= t``, decided exactly as ``M - t I`` PSD."""
    A = to_matrix(M)
    return psd_witness(mat_add(A, identity(len(A)), -to_fraction(t))) is None

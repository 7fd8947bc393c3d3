"""From a solver's floats to candidate rational certificates.

A solver's answer is only a *hint*: these helpers turn it into rational candidates, and
the exact checks in :mod:`verify.certify.lp` / :mod:`verify.certify.sdp` decide whether a
candidate proves anything. Nothing here needs to be correct for soundness, only useful.

Two ideas are used:

* **small denominators first.** LP vertices and many SDP optima are rational with small
  denominators; ``Fraction.limit_denominator`` at 1, 10, 100, ... recovers them exactly, and
  the exact check then sees a zero duality gap.
* **exact repair.** When plain rounding leaves a residual on constraints that must hold
  with equality (or are active at the optimum), the least-norm exact correction onto that
  affine subspace (:func:`verify.certify.exact.min_norm_correction`) removes it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from fractions import Fraction

from .exact import Matrix, Vector, matvec, min_norm_correction

#: Denominator ladder tried by :func:`candidates`, smallest first.
DENOMINATORS: tuple[int, ...] = tuple(10**k for k in range(0, 13, 1))


def rationalize(v: float, max_denominator: int) -> Fraction:
    """The best rational approximation of ``v`` with denominator at most ``max_denominator``."""
    if not math.isfinite(v):
        raise ValueError(f"cannot rationalize {v!r}")
    return Fraction(v).limit_denominator(max_denominator)


def round_vector(values: Sequence[float], max_denominator: int | None) -> Vector:
    """Every entry rationalised (``None``: the exact binary value of the double)."""
    if max_denominator is None:
        return [Fraction(float(v)) for v in values]
    return [rationalize(float(v), max_denominator) for v in values]


def candidates(
    values: Sequence[float], denominators: Iterable[int] = DENOMINATORS
) -> Iterator[Vector]:
    """Rational roundings of ``values``, from small denominators up to the exact doubles.

    Consecutive duplicates are skipped, so a vertex with small denominators is yielded once.
    """
    last: Vector | None = None
    for q in [*denominators, None]:
        v = round_vector(values, q)
        if v != last:
            yield v
            last = v


def project_affine(x: Vector, A: Matrix, b: Sequence[Fraction]) -> Vector | None:
    """``x`` moved exactly onto ``{z : A z = b}`` by the least-norm correction (None if empty)."""
    if not A:
        return list(x)
    residual = [bi - ai for bi, ai in zip(b, matvec(A, x), strict=True)]
    if not any(residual):
        return list(x)
    d = min_norm_correction(A, residual)
    if d is None:
        return None
    return [xi + di for xi, di in zip(x, d, strict=True)]


def scale_of(values: Iterable[float]) -> float:
    """A magnitude for relative tolerances: ``1 + max |v|``."""
    m = 0.0
    for v in values:
        if math.isfinite(v):
            m = max(m, abs(v))
    return 1.0 + m

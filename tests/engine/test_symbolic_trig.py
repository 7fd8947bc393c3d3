"""Exact trigonometric interpolation on Z_L: unique solutions, kernels, inconsistency."""

from __future__ import annotations

import sympy as sp

from verify import Verdict
from verify.symbolic import check_trig_interpolation, trig_interpolate

theta = sp.Symbol("theta")


def _values_of(f: sp.Expr, L: int, points) -> list[sp.Expr]:
    return [sp.nsimplify(0) + f.subs(theta, 2 * sp.pi * k / L) for k in points]


def _holds(f: sp.Expr, L: int, points, values) -> bool:
    return all(sp.N(f.subs(theta, 2 * sp.pi * k / L) - v, 50) == 0 or
               abs(sp.N(f.subs(theta, 2 * sp.pi * k / L) - v, 50)) < 1e-40
               for k, v in zip(points, values, strict=True))


def test_unique_solution_recovers_the_polynomial() -> None:
    f = 3 - 2 * sp.cos(theta) + sp.Rational(1, 2) * sp.sin(theta) + 5 * sp.cos(2 * theta)
    pts = range(5)
    vals = _values_of(f, 5, pts)
    res = trig_interpolate(5, pts, vals, [0, 1, 2])
    assert res.unique
    assert [sp.nsimplify(c) for c in res.solution[:4]] == [3, -2, sp.Rational(1, 2), 5]
    assert sp.simplify(res.solution[4]) == 0


def test_L7_algebraic_coefficients_interpolate_exactly() -> None:
    vals = [1, 2, 3]
    res = trig_interpolate(7, [0, 1, 2], vals, [0, 1])
    assert res.unique
    assert _holds(res.as_function(theta), 7, [0, 1, 2], vals)


def test_kernel_when_not_unique() -> None:
    res = trig_interpolate(6, range(6), [1, 2, 3, 4, 5, 6], [0, 1, 2, 3])
    assert res.consistent and not res.unique
    assert res.basis[-1] == "sin(3 theta)" and res.kernel == [[0, 0, 0, 0, 0, 0, 1]]
    assert _holds(res.as_function(theta), 6, range(6), [1, 2, 3, 4, 5, 6])
    # fewer points than unknowns: kernel vectors vanish at every point
    res = trig_interpolate(8, [0, 3], [1, -1], [0, 1])
    assert len(res.kernel) == 1
    kf = sum(c * b for c, b in zip(res.kernel[0], [1, sp.cos(theta), sp.sin(theta)], strict=True))
    assert _holds(kf, 8, [0, 3], [0, 0])


def test_inconsistent_system_has_a_certificate() -> None:
    res = trig_interpolate(4, range(4), [1, 2, 3, 4], [0, 1])
    assert not res.consistent and res.solution is None
    y = res.certificate
    rows = [[1, sp.cos(sp.pi * k / 2), sp.sin(sp.pi * k / 2)] for k in range(4)]
    for col in range(3):
        assert sp.simplify(sum(y[r] * rows[r][col] for r in range(4))) == 0
    assert sp.simplify(sum(y[r] * v for r, v in enumerate([1, 2, 3, 4]))) != 0


def test_evidence_wrapper() -> None:
    ok = check_trig_interpolation(4, range(4), [1, 0, -1, 0], [0, 1], expected=[0, 1, 0])
    assert ok.verdict is Verdict.PROVED and "unique" in ok.summary
    bad = check_trig_interpolation(4, range(4), [1, 0, -1, 0], [0, 1], expected=[0, 1, 1])
    assert bad.verdict is Verdict.REFUTED and bad.counterexample["k"] == 1
    ex = check_trig_interpolation(4, range(4), [1, 2, 3, 4], [0, 1])
    assert ex.verdict is Verdict.REFUTED and ex.counterexample["certificate_y"]
    assert check_trig_interpolation(4, range(4), [1, 0, -1, 0], [0, 1]).verdict is Verdict.PROVED

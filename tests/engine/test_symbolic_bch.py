"""BCH series: known terms, Lie-ness, commutator forms, and agreement with scipy's expm/logm."""

from __future__ import annotations

import time
from fractions import Fraction

import numpy as np
import pytest
import scipy.linalg as sla
import sympy as sp

from verify.symbolic import (
    X,
    Y,
    bch,
    bch_words,
    expand_commutator,
    lyndon_coordinates,
    to_commutators,
)
from verify.symbolic.bch import bracket, evaluate_words, lyndon_words


def _c(a, b):
    return bracket(a, b)


def test_low_order_terms() -> None:
    assert sp.expand(bch(1) - (X + Y)) == 0
    known = (X + Y + _c(X, Y) / 2 + _c(X, _c(X, Y)) / 12 - _c(Y, _c(X, Y)) / 12
             - _c(Y, _c(X, _c(X, Y))) / 24)
    assert sp.expand(bch(4) - expand_commutator(known)) == 0


def test_degree_five_terms() -> None:
    """Degree 5 of BCH (standard table, e.g. Wikipedia 'BCH formula'): -1/720 ([Y,[Y,[Y,[Y,X]]]]
    + [X,[X,[X,[X,Y]]]]) + 1/360 ([X,[Y,[Y,[Y,X]]]] + [Y,[X,[X,[X,Y]]]]) + 1/120 ([Y,[X,[Y,[X,Y]]]]
    + [X,[Y,[X,[Y,X]]]])."""
    deg5 = (-sp.Rational(1, 720) * (_c(Y, _c(Y, _c(Y, _c(Y, X)))) + _c(X, _c(X, _c(X, _c(X, Y)))))
            + sp.Rational(1, 360) * (_c(X, _c(Y, _c(Y, _c(Y, X)))) + _c(Y, _c(X, _c(X, _c(X, Y)))))
            + sp.Rational(1, 120) * (_c(Y, _c(X, _c(Y, _c(X, Y)))) + _c(X, _c(Y, _c(X, _c(Y, X))))))
    assert sp.expand(bch(5) - bch(4) - expand_commutator(deg5)) == 0


def test_order_8_is_fast_lie_and_round_trips() -> None:
    t0 = time.perf_counter()
    words = bch_words(8)
    assert time.perf_counter() - t0 < 10
    assert max(len(w) for w in words) == 8 and all(isinstance(c, Fraction) for c in words.values())
    coords = lyndon_coordinates(words)  # raises if some degree is not a Lie polynomial
    assert all(len(w) <= 8 for w in coords)
    back = expand_commutator(to_commutators(words))
    assert sp.expand(back - bch(8)) == 0


def test_dynkin_form_equals_series() -> None:
    assert sp.expand(expand_commutator(to_commutators(bch(6), basis="dynkin")) - bch(6)) == 0


def test_non_lie_polynomial_is_rejected() -> None:
    with pytest.raises(ValueError):
        to_commutators(X * Y)


def test_lyndon_word_counts() -> None:
    # Witt's formula for 2 letters: 2, 1, 2, 3, 6, 9, 18, 30
    assert [len(lyndon_words("XY", n)) for n in range(1, 9)] == [2, 1, 2, 3, 6, 9, 18, 30]


@pytest.mark.parametrize("order", [2, 4, 6])
def test_matches_scipy_logm_with_residual_t_to_order_plus_one(order: int) -> None:
    rng = np.random.default_rng(order)
    Xm, Ym = rng.normal(size=(3, 3)), rng.normal(size=(3, 3))
    words = bch_words(order)
    ts = np.array([0.2, 0.1, 0.05])
    res = []
    for t in ts:
        exact = sla.logm(sla.expm(t * Xm) @ sla.expm(t * Ym)).real
        series = evaluate_words(words, {"X": t * Xm, "Y": t * Ym})
        res.append(np.linalg.norm(exact - series))
    slope = np.polyfit(np.log(ts), np.log(res), 1)[0]
    assert slope == pytest.approx(order + 1, abs=0.35), (res, slope)


def test_bch_order_8_against_a_60_digit_matrix_logarithm() -> None:
    """Independent check of every coefficient up to order 8: for X, Y scaled by t the residual
    log(e^{tX} e^{tY}) - bch(8)(tX, tY) must be O(t^9); one wrong coefficient of order k <= 8
    leaves an O(t^k) residual, which the ratio at t = 1e-3 and 1e-4 would show."""
    import random

    import mpmath as mp

    from verify.symbolic import X, bch

    with mp.workdps(60):
        rng = random.Random(1)
        Xm = mp.matrix([[rng.uniform(-1, 1) for _ in range(3)] for _ in range(3)])
        Ym = mp.matrix([[rng.uniform(-1, 1) for _ in range(3)] for _ in range(3)])
        terms = []
        for term in sp.Add.make_args(sp.expand(bch(8))):
            c, nc = term.args_cnc()
            word = []
            for f in nc:
                base, ex = f.as_base_exp()
                word += [base] * int(ex)
            q = sp.Rational(sp.Mul(*c))
            terms.append((mp.mpf(q.p) / q.q, word))
        ratios = []
        for t in (mp.mpf("1e-3"), mp.mpf("1e-4")):
            A, B = t * Xm, t * Ym
            approx = mp.zeros(3, 3)
            for c, word in terms:
                P = mp.eye(3)
                for letter in word:
                    P = P * (A if letter == X else B)
                approx += c * P
            r = mp.mnorm(mp.logm(mp.expm(A) * mp.expm(B)) - approx, 1)
            ratios.append(r / t ** 9)
        assert 0 < ratios[0] < 1 and abs(ratios[0] / ratios[1] - 1) < 0.01, ratios

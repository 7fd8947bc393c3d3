"""Exact rational helpers of verify.certify: conversion, linear solves, the PSD test."""

from fractions import Fraction as F

import numpy as np
import pytest
import sympy

from verify.certify.exact import (
    is_psd_exact,
    min_eig_lower_bound_holds,
    min_norm_correction,
    psd_witness,
    quad_form,
    solve,
    to_fraction,
    to_matrix,
)


def test_to_fraction_is_exact() -> None:
    assert to_fraction(0.1) == F(3602879701896397, 36028797018963968)  # the double, not 1/10
    assert to_fraction(sympy.Rational(3, 7)) == F(3, 7)
    assert to_fraction("5/11") == F(5, 11)
    assert to_fraction(np.int64(4)) == 4
    with pytest.raises(TypeError):
        to_fraction(sympy.sqrt(2))
    with pytest.raises(ValueError):
        to_fraction(float("nan"))


def test_solve_and_min_norm() -> None:
    A = to_matrix([[1, 2], [2, 4]])  # rank 1
    assert solve(A, [F(3), F(6)]) is not None
    assert solve(A, [F(3), F(7)]) is None  # inconsistent
    d = min_norm_correction(to_matrix([[1, 1]]), [F(1)])
    assert d == [F(1, 2), F(1, 2)]


def test_psd_exact_accepts_singular_psd_and_rejects_indefinite() -> None:
    assert is_psd_exact([[1, 1], [1, 1]])  # singular PSD
    assert not is_psd_exact([[1, 1], [1, 1]], strict=True)
    # leading minors all >= 0 yet indefinite: the classic trap for minor tests
    M = to_matrix([[0, 0, 0], [0, 0, 1], [0, 1, 0]])
    w = psd_witness(M)
    assert w is not None and quad_form(M, w) < 0


def test_psd_witness_after_elimination() -> None:
    # PD leading 2x2 block, indefinite overall: the witness must be carried back
    M = to_matrix([[4, 2, 2], [2, 2, 2], [2, 2, F(3, 2)]])
    w = psd_witness(M)
    assert w is not None and quad_form(M, w) < 0
    assert is_psd_exact([[4, 2, 2], [2, 2, 2], [2, 2, 3]])


def test_psd_agrees_with_eigenvalues_on_random_rationals() -> None:
    rng = np.random.default_rng(0)
    for _ in range(40):
        B = rng.integers(-3, 4, size=(4, 3))
        M = B @ B.T - int(rng.integers(0, 2)) * np.diag(rng.integers(0, 2, size=4))
        exact = is_psd_exact(M.tolist())
        assert exact == (np.linalg.eigvalsh(M.astype(float)).min() >= -1e-9)


def test_min_eigenvalue_bound() -> None:
    M = [[2, 1], [1, 2]]  # eigenvalues 1, 3
    assert min_eig_lower_bound_holds(M, 1)
    assert not min_eig_lower_bound_holds(M, F(1001, 1000))


def test_non_symmetric_rejected() -> None:
    with pytest.raises(ValueError):
        psd_witness(to_matrix([[1, 2], [0, 1]]))

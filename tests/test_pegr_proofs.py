"""Tests of the symbolic helpers of proofs/pegr.py (vec conventions, solid harmonics, S_3 irreps)."""

import sympy as sp

from proofs.pegr import R, _s3_irreps, solid_harmonic, vec_col, vec_row


def test_vec_conventions():
    A = sp.Matrix([[1, 2], [3, 4]])
    assert list(vec_col(A)) == [1, 3, 2, 4]
    assert list(vec_row(A)) == [1, 2, 3, 4]
    assert vec_row(A) == vec_col(A.T)


def test_kronecker_trick_column_major_only():
    A = sp.Matrix([[0, 1], [0, 0]])
    B = sp.Matrix([[0, 0], [1, 0]])
    K = sp.kronecker_product(sp.eye(2), A)
    assert vec_col(A * B) == K * vec_col(B)
    assert vec_row(A * B) != K * vec_row(B)


def test_rotation_is_orthogonal():
    t = sp.Symbol("t", real=True)
    assert sp.simplify(R(t).T * R(t) - sp.eye(2)) == sp.zeros(2, 2)


def test_solid_harmonic_is_harmonic_homogeneous():
    x, y, z = sp.symbols("x y z", real=True)
    for ell, m in [(0, 0), (1, -1), (2, 1), (3, -2)]:
        h = solid_harmonic(ell, m, x, y, z)
        P = sp.Poly(h, x, y, z)
        assert P.is_homogeneous and P.total_degree() == ell
        assert sp.expand(sp.diff(h, x, 2) + sp.diff(h, y, 2) + sp.diff(h, z, 2)) == 0


def test_s3_standard_irrep_is_a_homomorphism_of_order_6():
    elems, std = _s3_irreps()
    mats = {tuple(M) for M in std}
    assert len(mats) == 6
    for A in std:
        for B in std:
            assert tuple(sp.simplify(A * B)) in mats

"""Tests of the symbolic constructions of proofs/pegr (vec conventions, solid harmonics, S_3
irreps) and of its layout (SymPy only, never torch)."""

import subprocess
import sys

import sympy as sp

from proofs.pegr.model import R, kron_I, perm_matrix, vec_col, vec_row
from proofs.pegr.sh import solid_harmonic
from proofs.pegr.structure import s3_irreps


def test_vec_conventions():
    A = sp.Matrix([[1, 2], [3, 4]])
    assert list(vec_col(A)) == [1, 3, 2, 4]
    assert list(vec_row(A)) == [1, 2, 3, 4]
    assert vec_row(A) == vec_col(A.T)


def test_kronecker_trick_column_major_only():
    A = sp.Matrix([[0, 1], [0, 0]])
    B = sp.Matrix([[0, 0], [1, 0]])
    K = kron_I(A, "I(x)A")
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
    elems, std = s3_irreps()
    mats = {tuple(M) for M in std}
    assert len(mats) == 6
    for A in std:
        for B in std:
            assert tuple(sp.simplify(A * B)) in mats


def test_permutation_matrices_compose_as_sigma_after_tau():
    sigma, tau = (1, 2, 0), (1, 0, 2)
    composed = tuple(sigma[tau[i]] for i in range(3))
    assert perm_matrix(composed) == perm_matrix(sigma) * perm_matrix(tau)


def test_symbolic_claims_never_import_torch_or_numerics():
    code = (
        "import importlib, sys\n"
        "import proofs.pegr as p\n"
        "for m in p.__claims__ + ('model',):\n"
        "    importlib.import_module('proofs.pegr.' + m)\n"
        "bad = [k for k in sys.modules if k == 'torch' or k.startswith('numerics')]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)

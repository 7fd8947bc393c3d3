"""numerics.toef.model.lie: BCH gate, brackets, Lie-Trotter products."""

import cmath
import math

import torch

from numerics.toef.model.lie import (
    bracket,
    commutator,
    flow,
    gate,
    gate_matrices,
    hidden_pair,
    lie_trotter,
)
from numerics.toef.model.wirtinger import rel_err


def test_gate_values_and_series():
    assert gate(0) == 1.0
    b = 1e-3
    assert abs(gate(b) - (1 + b / 2 + b * b / 12)) < 1e-12
    assert abs(gate(-40.0) / (40 * math.exp(-40)) - 1) < 1e-12
    assert abs(gate(complex(0, 2 * math.pi) + 1e-9)) > 1e6  # pole at 2 pi i


def test_gate_matrices_identity_real_beta():
    for b in (-2.0, 0.5, 3.0):
        X, Y = gate_matrices(b)
        assert rel_err(commutator(X, Y), b * Y) == 0
        E = torch.linalg.matrix_exp
        assert rel_err(E(X) @ E(Y), E(X + gate(b) * Y)) < 1e-14


def test_gate_fails_at_pole():
    X, Y = gate_matrices(2j * math.pi)
    E = torch.linalg.matrix_exp
    for c in (0.0, 1.0, 5.0 + 2j):
        assert rel_err(E(X) @ E(Y), E(X + c * Y)) > 0.1


def test_hidden_pair_relation():
    X, Y = hidden_pair(0.7, 5, torch.Generator().manual_seed(0))
    assert rel_err(commutator(X, Y), 0.7 * Y) < 1e-13


def test_bracket_of_scaling_and_cubic():
    g = torch.Generator().manual_seed(1)
    A = torch.randn(2, 2, generator=g, dtype=torch.float64)
    B = torch.randn(2, 2, generator=g, dtype=torch.float64)
    FA = lambda X: X @ A @ X.T @ X @ B  # noqa: E731
    X = torch.randn(2, 2, generator=g, dtype=torch.float64)
    assert rel_err(bracket(lambda Y: 0.3 * Y, FA, X), 0.6 * FA(X)) < 1e-14


def test_lie_trotter_converges():
    g = torch.Generator().manual_seed(2)
    A = torch.randn(3, 3, generator=g, dtype=torch.float64).to(torch.complex128)
    B = torch.randn(3, 3, generator=g, dtype=torch.float64).to(torch.complex128)
    ref = torch.linalg.matrix_exp(A + B)
    e1, e2 = (rel_err(lie_trotter(A, B, T), ref) for T in (32, 64))
    assert e2 < e1 and 1.7 < e1 / e2 < 2.3


def test_flow_linear():
    X0 = torch.tensor([[1.0, 2.0]], dtype=torch.float64)
    assert rel_err(flow(lambda X: -X, X0), X0 * math.exp(-1)) < 1e-11
    Z0 = torch.tensor([[1.0 + 1j]], dtype=torch.complex128)
    assert rel_err(flow(lambda Z: 1j * Z, Z0), Z0 * cmath.exp(1j)) < 1e-11

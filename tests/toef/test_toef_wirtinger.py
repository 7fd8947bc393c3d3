"""numerics.toef.model.wirtinger: torch Wirtinger conventions, gradients and the closedness
defect."""

import torch

from numerics.toef.model.wirtinger import (
    closedness_defect,
    crandn,
    dV_dX,
    dV_dXbar,
    random_unitary,
    rel_err,
)


def _g(seed=0):
    return torch.Generator().manual_seed(seed)


def test_torch_grad_is_twice_conjugate_wirtinger():
    X = crandn(3, 2, generator=_g())
    Xg = X.clone().requires_grad_(True)
    (Xg.abs() ** 2).sum().backward()
    assert rel_err(Xg.grad, 2 * X) < 1e-15  # d|X|^2/dXbar = X


def test_dV_dXbar_quadratic_trace():
    g = _g(1)
    X, W = crandn(2, 3, generator=g), crandn(3, 3, generator=g)
    V = lambda Y: torch.trace(Y @ W @ Y.conj().T)  # noqa: E731
    assert rel_err(dV_dXbar(V, X), X @ W) < 1e-14
    # dV/dX (entry layout) = conj(X) W^T
    assert rel_err(dV_dX(V, X), X.conj() @ W.T) < 1e-14


def test_dV_dXbar_works_under_no_grad():
    X = crandn(2, 2, generator=_g(2))
    with torch.no_grad():
        G = dV_dXbar(lambda Y: (Y.abs() ** 2).sum(), X)
    assert rel_err(G, X) < 1e-15


def test_closedness_defect_separates_gradient_fields():
    g = _g(3)
    A, B = crandn(2, 2, generator=g), crandn(2, 2, generator=g)
    X = crandn(3, 2, generator=g)
    H = lambda M: M.conj().T  # noqa: E731
    paired = lambda Y: Y @ A @ H(Y) @ Y @ B + Y @ B @ H(Y) @ Y @ A  # noqa: E731
    untied = lambda Y: Y @ A @ H(Y) @ Y @ B  # noqa: E731
    assert closedness_defect(paired, X) < 1e-12
    assert closedness_defect(untied, X) > 1e-3


def test_random_unitary():
    P = random_unitary(4, _g(4))
    assert rel_err(P.conj().T @ P, torch.eye(4, dtype=torch.complex128)) < 1e-14

"""numerics.toef.model.transformer and potentials: Definition 1 / 4 modules and the paper's
potentials."""

import pytest
import torch

from numerics.toef.model.potentials import H, lse_potential, triple_trace_potential
from numerics.toef.model.transformer import (
    LinearizedTransformer,
    TransformerODE,
    parallel_layer,
    softmax_rows,
    split_layer,
)
from numerics.toef.model.wirtinger import crandn, dV_dXbar, rel_err


def _w(C, C_MLP, C_A, n, seed=0):
    g = torch.Generator().manual_seed(seed)
    r = lambda *s: torch.randn(*s, generator=g, dtype=torch.float64)  # noqa: E731
    return dict(W_gate=r(C, C_MLP), W_in=r(C, C_MLP), W_out=r(C, C_MLP), Q=r(n, C, C_A),
                K=r(n, C, C_A), V=r(n, C, C_A), O=r(n, C, C_A))


def test_reading_b_compact_equals_expanded():
    m = TransformerODE(**_w(3, 5, 2, 2), reading="B")
    X = torch.randn(4, 3, dtype=torch.float64)
    assert rel_err(m(X), m.compact(X)) < 1e-13


def test_reading_a_ill_typed_unless_square():
    with pytest.raises(RuntimeError):
        TransformerODE(**_w(1, 2, 1, 1), reading="A")(torch.ones(1, 1, dtype=torch.float64))
    m = TransformerODE(**_w(3, 3, 1, 2), reading="A")
    X = torch.randn(2, 3, dtype=torch.float64)
    assert rel_err(m(X), m.compact(X)) < 1e-13


def test_linearized_gram_form():
    g = torch.Generator().manual_seed(1)
    r = lambda *s: crandn(*s, generator=g)  # noqa: E731
    m = LinearizedTransformer(r(3, 2), r(3, 2), r(2, 3, 1), r(2, 3, 1), r(2, 3, 1), r(2, 3, 1))
    X = r(4, 3)
    assert m(X).shape == X.shape
    assert rel_err(m(X), m.forward_gram(X)) < 1e-14


def test_softmax_rows_complex_matches_real():
    S = torch.randn(3, 3, dtype=torch.float64)
    assert rel_err(softmax_rows(S.to(torch.complex128)).real, torch.softmax(S, -1)) < 1e-15


def test_lse_gradient_is_transposed_softmax():
    g = torch.Generator().manual_seed(2)
    W, X = crandn(2, 2, generator=g, scale=0.5), crandn(3, 2, generator=g, scale=0.5)
    G = dV_dXbar(lse_potential([W], 1), X)
    assert rel_err(G, softmax_rows(X @ W @ H(X)).T @ X @ W) < 1e-13
    assert rel_err(G, softmax_rows(X @ W @ H(X)) @ X @ W) > 1e-3  # the printed field differs


def test_triple_trace_tied_gradient():
    W = torch.randn(2, 3, dtype=torch.float64)
    X = torch.randn(2, 2, dtype=torch.float64, requires_grad=True)
    triple_trace_potential(W, W, W)(X).backward()
    assert rel_err(X.grad, ((X @ W) * (X @ W)) @ W.T) < 1e-13


def test_split_vs_parallel_layers_linear():
    A, B = torch.randn(2, 2, dtype=torch.float64), torch.randn(2, 2, dtype=torch.float64)
    X = torch.randn(1, 2, dtype=torch.float64)
    h = 0.1
    s = split_layer(lambda Y: Y @ A, lambda Y: Y @ B, h)(X)
    p = parallel_layer(lambda Y: Y @ A, lambda Y: Y @ B, h)(X)
    assert rel_err(s - p, h * h * X @ A @ B) < 1e-13  # exact one-step expansion for linear maps

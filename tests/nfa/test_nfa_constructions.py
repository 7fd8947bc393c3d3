"""Tests of the nfa constructions: groups, attention-gradient heads, field operators."""

from __future__ import annotations

import torch

from numerics.nfa.model.attention_gradient import (
    AttentionGradientHead,
    MultiHeadAttentionGradient,
    ResidualKeyedHead,
    attention_inputs,
    negative_gradient,
    squared_loss,
)
from numerics.nfa.model.field_operator import (
    TABLE1_CONFIGS,
    SinusoidalField,
    build_table1_operator,
    scale_matrix,
)
from numerics.nfa.model.groups import MatrixAffine, random_rotation, random_scale_translation

F64 = torch.float64


def _gen(s: int = 0) -> torch.Generator:
    return torch.Generator().manual_seed(s)


def test_scale_translation_group_law_and_inverse():
    g = random_scale_translation(5, 3, generator=_gen())
    h = random_scale_translation(5, 3, generator=_gen(1))
    x = torch.randn(5, 7, 3, dtype=F64, generator=_gen(2))
    assert torch.allclose(g.compose(h).apply(x), g.apply(h.apply(x)), atol=1e-12, rtol=1e-12)
    assert torch.allclose(g.inverse().apply(g.apply(x)), x, atol=1e-12)
    th, mu, s = g.rho(
        torch.ones(5, 2, dtype=F64), torch.zeros(5, 3, dtype=F64), torch.ones(5, dtype=F64)
    )
    assert torch.allclose(mu, g.b) and torch.allclose(s, g.a)


def test_rotations_are_orthogonal():
    for d in (2, 3):
        R = random_rotation(4, d, generator=_gen()).A
        assert torch.allclose(
            R @ R.transpose(-1, -2), torch.eye(d, dtype=F64).expand(4, d, d), atol=1e-12
        )
        assert torch.allclose(torch.linalg.det(R), torch.ones(4, dtype=F64))


def test_linear_head_is_negative_gradient_and_softmax_is_not():
    Phi = torch.randn(9, 4, dtype=F64, generator=_gen())
    y = torch.randn(9, dtype=F64, generator=_gen(1))
    c = torch.randn(4, dtype=F64, generator=_gen(2), requires_grad=True)
    k, v, q = attention_inputs(Phi, y, c)
    (grad,) = torch.autograd.grad(squared_loss(Phi, y, c), c)
    assert torch.allclose(AttentionGradientHead("linear")(k, v.detach(), q), -grad, atol=1e-12)
    soft = AttentionGradientHead("softmax", tau=1.0)(k, v.detach(), q)
    assert not torch.allclose(soft, -grad, atol=1e-3)  # negative control
    mh = MultiHeadAttentionGradient(torch.eye(4, dtype=F64))
    assert torch.allclose(mh(Phi, v.detach()), negative_gradient(Phi, y, c.detach()), atol=1e-12)


def test_residual_keyed_head_linear_form():
    P = torch.randn(5, 2, dtype=F64, generator=_gen())
    r = torch.randn(5, 2, dtype=F64, generator=_gen(1))
    expected = ((P * r).sum(-1, keepdim=True) * P).sum(0)
    assert torch.allclose(ResidualKeyedHead("linear")(P, r), expected)


def _field_violation(op, g, x, y, xq):
    with torch.no_grad():
        return (
            (op.field(op(g.apply(x), y), g.apply(xq)) - op.field(op(x, y), xq)).abs().max().item()
        )


def test_table1_normalised_configs_equivariant_raw_not():
    gen = _gen(3)
    fld = SinusoidalField(3 * torch.randn(8, 2, dtype=F64, generator=gen))
    x = torch.rand(2, 30, 2, dtype=F64, generator=gen) * 2 - 1
    y = torch.randn(2, 30, dtype=F64, generator=gen)
    xq = torch.rand(2, 10, 2, dtype=F64, generator=gen) * 3 - 1.5
    g = random_scale_translation(2, 2, generator=gen)
    kw = dict(dim=16, heads=2, layers=1, ff=16, head_hidden=16)
    for cfg in TABLE1_CONFIGS:
        op = build_table1_operator(cfg, 2, fld, generator=_gen(4), **kw)
        assert not op.training
        v = _field_violation(op, g, x, y, xq)
        if cfg in ("no_normalization", "absolute_pe_raw"):
            assert v > 1e-4, cfg
        else:
            assert v < 1e-10, cfg


def test_scale_matrix_covariance_chol_but_not_sqrtm():
    x = torch.randn(30, 2, dtype=F64, generator=_gen())
    A = torch.tensor([[2.0, 0.0], [0.0, 0.5]], dtype=F64)
    assert torch.allclose(scale_matrix(x @ A.T, "chol"), A @ scale_matrix(x, "chol"), atol=1e-12)
    assert not torch.allclose(
        scale_matrix(x @ A.T, "sqrtm"), A @ scale_matrix(x, "sqrtm"), atol=1e-6
    )
    g = MatrixAffine(A, torch.zeros(2, dtype=F64))
    assert torch.allclose(g.apply_inverse(g.apply(x)), x, atol=1e-12)

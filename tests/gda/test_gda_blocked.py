"""The blocked closed-form step equals the paper's full-matrix closed form (and autograd)."""

from __future__ import annotations

import pytest
import torch

from numerics.gda.model.attention_head import closed_form_grads, head_forward
from numerics.gda.model.blocked import blocked_head_step


def _instance(
    seed: int, R: int = 3, T: int = 11, d_x: int = 5, d_k: int = 3, d_v: int = 4, C: int = 6
):
    g = torch.Generator().manual_seed(seed)
    X = torch.randn(R, T, d_x, generator=g, dtype=torch.float64)
    y = torch.randint(0, C, (R, T), generator=g)
    params = [
        torch.randn(R, *s, generator=g, dtype=torch.float64)
        for s in ((d_k, d_x), (d_k, d_x), (d_v, d_x), (C, d_v), (C,))
    ]
    return X, params, y


@pytest.mark.parametrize("causal", [True, False])
@pytest.mark.parametrize("reduction", ["sum", "mean"])
@pytest.mark.parametrize("block", [1, 4, 11, 64])  # one row, non-dividing, exactly T, larger than T
def test_blocked_step_equals_full_closed_form(causal, reduction, block):
    X, params, y = _instance(block)
    tr = head_forward(X, *params, y, causal=causal, reduction=reduction)
    cf = closed_form_grads(tr)
    st = blocked_head_step(X, *params, y, causal=causal, reduction=reduction, block=block)
    for name, got, want in zip(
        ("dW_Q", "dW_K", "dW_V", "dW_O", "db_O"),
        st.grads(),
        (cf.dW_Q, cf.dW_K, cf.dW_V, cf.dW_O, cf.db_O),
        strict=True,
    ):
        assert torch.allclose(got, want, rtol=1e-11, atol=1e-12), name
    assert torch.allclose(st.loss, tr.loss, rtol=1e-12)
    logp = torch.log_softmax(tr.logits, -1)
    assert torch.allclose(st.entropy, -(logp.exp() * logp).sum(-1).mean(-1), rtol=1e-12)
    assert torch.equal(st.acc, (tr.logits.argmax(-1) == y).double().mean(-1))


def test_blocked_step_matches_autograd():
    X, params, y = _instance(5, T=9)
    leaves = [p.clone().requires_grad_(True) for p in params]
    head_forward(X, *leaves, y, causal=True, reduction="mean").loss.sum().backward()
    st = blocked_head_step(X, *params, y, causal=True, reduction="mean", block=4)
    for leaf, got in zip(leaves, st.grads(), strict=True):
        assert torch.allclose(leaf.grad, got, rtol=1e-10, atol=1e-12)


def test_forward_only_step_has_no_gradients():
    X, params, y = _instance(2)
    st = blocked_head_step(X, *params, y, grads=False)
    assert st.dW_Q is None
    with pytest.raises(ValueError, match="grads=False"):
        st.grads()


@pytest.mark.parametrize(
    ("kw", "match"), [({"reduction": "none"}, "reduction"), ({"block": 0}, "block")]
)
def test_bad_arguments_are_named(kw, match):
    X, params, y = _instance(3)
    with pytest.raises(ValueError, match=match):
        blocked_head_step(X, *params, y, **kw)

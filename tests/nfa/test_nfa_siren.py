"""Tests of numerics.nfa.model.siren (Table 3 SIREN)."""

import math

import torch

from numerics.nfa.model.siren import Siren, SirenField, siren_param_count


def test_param_count_and_flat_roundtrip():
    g = torch.Generator().manual_seed(0)
    m = Siren(2, 64, 3, generator=g)
    assert m.num_params == siren_param_count(2, 64, 3) == 2 * 64 + 64 + 64 * 64 + 64 + 64 + 1
    x = 2 * torch.rand(7, 2, dtype=torch.float64, generator=g) - 1
    assert torch.allclose(m(x), m(x, m.flat_params()), rtol=0, atol=1e-14)


def test_table3_init_bounds():
    g = torch.Generator().manual_seed(1)
    m = Siren(3, 32, 2, generator=g)
    assert m.layers[0].weight.abs().max() <= 0.5
    assert m.layers[0].weight.abs().max() > 0.4  # the full range is used
    bound = math.sqrt(6 / 32) / 30
    assert m.layers[1].weight.abs().max() <= bound


def test_omega0_scales_coordinates_before_first_layer():
    g = torch.Generator().manual_seed(2)
    m = Siren(2, 8, 2, generator=g)
    x = torch.rand(4, 2, dtype=torch.float64, generator=g)
    W, b = m.layers[0].weight, m.layers[0].bias
    h = torch.sin((30 * x) @ W.T + b)
    ref = h @ m.layers[1].weight.T + m.layers[1].bias
    assert torch.allclose(m(x), ref, atol=1e-13)


def test_batched_theta_and_field_decoder():
    g = torch.Generator().manual_seed(3)
    f = SirenField(2, 16, 3, generator=g)
    theta = 0.01 * torch.randn(3, f.num_params, dtype=torch.float64, generator=g)
    x = torch.rand(3, 5, 2, dtype=torch.float64, generator=g)
    out = f(theta, x)
    assert out.shape == (3, 5)
    one = f(theta[1], x[1])
    assert torch.allclose(out[1], one, atol=1e-14)
    assert torch.allclose(
        f(torch.zeros(f.num_params, dtype=torch.float64), x[0]), f.siren(x[0])[..., 0]
    )

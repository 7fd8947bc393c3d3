"""verify.numeric.groups: Haar samplers, strategies and actions users import."""

from __future__ import annotations

import math

import pytest
import torch
from hypothesis import given, settings

from verify.numeric import groups as G

SETTINGS = settings(max_examples=25, deadline=None, database=None)


def gen(seed: int = 0) -> torch.Generator:
    return torch.Generator().manual_seed(seed)


# -- Haar samplers ------------------------------------------------------------------------------
@pytest.mark.parametrize("group", [G.ROTATION, G.ORTHOGONAL, G.UNITARY])
@pytest.mark.parametrize("n", [1, 2, 3, 5])
def test_matrix_samplers_are_orthogonal_to_1e12_in_float64(group, n):
    q = group.sample(generator=gen(), batch=256, n=n)
    assert q.shape == (256, n, n)
    assert q.dtype == (torch.complex128 if group.complex else torch.float64)
    eye = torch.eye(n, dtype=q.dtype)
    assert (q.mH @ q - eye).abs().max() < 1e-12
    assert (q @ q.mH - eye).abs().max() < 1e-12


def test_so_has_determinant_one_and_o_both_signs_half_each():
    det_so = torch.linalg.det(G.ROTATION.sample(generator=gen(), batch=2000, n=3))
    assert (det_so - 1).abs().max() < 1e-12
    det_o = torch.linalg.det(G.ORTHOGONAL.sample(generator=gen(), batch=2000, n=3))
    assert ((det_o.abs() - 1).abs() < 1e-12).all()
    negative = float((det_o < 0).double().mean())
    assert 0.45 < negative < 0.55  # binomial(2000, 1/2): sd 0.011


@pytest.mark.parametrize("group", [G.ROTATION, G.ORTHOGONAL, G.UNITARY])
def test_haar_moments(group):
    """For Haar measure on SO(3), O(3), U(3): E[tr g] = 0 and E|tr g|^2 = 1 (the defining
    representation is irreducible), E|g_ij|^2 = 1/n. A QR without the sign fix has
    E[tr g] ~ -0.5 for n = 3, so this separates the two."""
    n, batch = 3, 20000
    q = group.sample(generator=gen(1), batch=batch, n=n)
    tr = torch.diagonal(q, dim1=-2, dim2=-1).sum(-1)
    assert abs(complex(tr.mean())) < 0.05
    assert abs(float((tr.abs() ** 2).mean()) - 1.0) < 0.05
    assert abs(float((q.abs() ** 2).mean()) - 1 / n) < 1e-9  # rows are unit vectors
    assert float(q[:, 0, 0].real.mean()) == pytest.approx(0.0, abs=0.03)


def test_samplers_are_reproducible_from_the_generator_and_round_from_float64():
    a = G.ROTATION.sample(generator=gen(7), batch=8, n=4)
    b = G.ROTATION.sample(generator=gen(7), batch=8, n=4)
    c = G.ROTATION.sample(generator=gen(8), batch=8, n=4)
    assert torch.equal(a, b) and not torch.equal(a, c)
    low = G.ROTATION.sample(generator=gen(7), batch=8, n=4, dtype=torch.float32)
    assert low.dtype == torch.float32 and torch.equal(low, a.to(torch.float32))
    for group, size in [(G.PERMUTATION, {"n": 6}), (G.CYCLIC, {"n": 6}),
                        (G.TRANSLATION, {"sizes": (3, 4)}), (G.RIGID, {"n": 3}),
                        (G.SCALING, {}), (G.UNITARY, {"n": 2})]:
        x = group.sample(generator=gen(3), batch=5, **size)
        y = group.sample(generator=gen(3), batch=5, **size)
        assert torch.equal(x, y), group.name


def test_index_samplers_draw_valid_uniform_elements():
    p = G.PERMUTATION.sample(generator=gen(), batch=3000, n=3)
    assert torch.equal(p.sort(dim=1).values, torch.arange(3).expand(3000, 3))
    counts = torch.unique(p, dim=0, return_counts=True)[1]
    assert len(counts) == 6 and counts.min() > 400  # 6 permutations, 500 each expected
    s = G.CYCLIC.sample(generator=gen(), batch=1000, n=5)
    assert s.min() == 0 and s.max() == 4
    t = G.TRANSLATION.sample(generator=gen(), batch=1000, sizes=(2, 7))
    assert t.shape == (1000, 2) and t[:, 0].max() == 1 and t[:, 1].max() == 6


def test_scaling_is_log_uniform_in_range():
    s = G.SCALING.sample(generator=gen(), batch=20000, low=0.5, high=8.0)
    assert s.min() >= 0.5 and s.max() <= 8.0
    assert float(torch.log(s).mean()) == pytest.approx(math.log(2.0), abs=0.02)  # midpoint
    with pytest.raises(ValueError, match="0 < low <= high"):
        G.SCALING.sample(generator=gen(), batch=2, low=0.0)


def test_rigid_motion_is_homogeneous_with_a_rotation_block():
    h = G.RIGID.sample(generator=gen(), batch=100, n=3, translation_scale=5.0)
    assert h.shape == (100, 4, 4)
    assert torch.equal(h[:, 3], torch.tensor([0.0, 0, 0, 1], dtype=torch.float64).expand(100, 4))
    assert (torch.linalg.det(h[:, :3, :3]) - 1).abs().max() < 1e-12
    assert 3.0 < float(h[:, :3, 3].std()) < 7.0


def test_unknown_keyword_is_a_type_error_naming_sampler_and_keyword():
    with pytest.raises(TypeError, match=r"sampler sample_so .* unexpected keyword 'd'.* takes n"):
        G.ROTATION.sample(generator=gen(), batch=2, n=3, d=4)
    with pytest.raises(TypeError, match=r"sample_scaling .* 'n'.* takes low, high"):
        G.SCALING.sample(generator=gen(), batch=2, n=3)
    with pytest.raises(TypeError, match=r"sample_permutation .* 'm'"):
        G.PERMUTATION.sampler(m=3)
    with pytest.raises(ValueError, match="integers >= 1"):
        G.PERMUTATION.sample(generator=gen(), batch=2, n=0)


def test_bound_sampler_takes_only_the_standard_keywords():
    import inspect

    s = G.ROTATION.sampler(n=2)
    assert list(inspect.signature(s).parameters) == ["generator", "batch", "dtype", "device"]
    assert s.__name__ == "so.sampler(n=2)"
    assert s(generator=gen(), batch=3).shape == (3, 2, 2)


def test_get_by_name_and_alias():
    assert G.get("rotation") is G.ROTATION and G.get("SO") is G.ROTATION
    assert G.get("permutation") is G.PERMUTATION and G.get(G.UNITARY) is G.UNITARY
    with pytest.raises(ValueError, match="no group named 'lorentz'; groups: permutation"):
        G.get("lorentz")


# -- strategies ---------------------------------------------------------------------------------
@SETTINGS
@given(G.ROTATION.strategy(3))
def test_so_strategy_draws_rotations(g):
    m = torch.tensor(g, dtype=torch.float64)
    assert (m.T @ m - torch.eye(3, dtype=torch.float64)).abs().max() < 1e-12
    assert abs(float(torch.linalg.det(m)) - 1) < 1e-12


@SETTINGS
@given(G.ORTHOGONAL.strategy(2))
def test_o_strategy_draws_orthogonal_matrices(g):
    m = torch.tensor(g, dtype=torch.float64)
    assert (m.T @ m - torch.eye(2, dtype=torch.float64)).abs().max() < 1e-12
    assert abs(abs(float(torch.linalg.det(m))) - 1) < 1e-12


@SETTINGS
@given(G.UNITARY.strategy(3))
def test_unitary_strategy_draws_unitaries(g):
    u = G.as_element(g, torch.zeros(1, dtype=torch.complex128))
    assert u.dtype == torch.complex128
    assert (u.mH @ u - torch.eye(3, dtype=torch.complex128)).abs().max() < 1e-12


@SETTINGS
@given(G.RIGID.strategy(2, translation_scale=2.0))
def test_se_strategy_draws_rigid_motions(g):
    h = torch.tensor(g, dtype=torch.float64)
    assert h[2].tolist() == [0.0, 0.0, 1.0] and h[:2, 2].abs().max() <= 8.0
    assert abs(float(torch.linalg.det(h[:2, :2])) - 1) < 1e-12


@SETTINGS
@given(G.PERMUTATION.strategy(5), G.CYCLIC.strategy(4), G.TRANSLATION.strategy((2, 3)),
       G.SCALING.strategy(0.5, 2.0))
def test_index_and_scaling_strategies_draw_valid_elements(p, s, t, c):
    assert sorted(p) == list(range(5))
    assert 0 <= s < 4
    assert len(t) == 2 and 0 <= t[0] < 2 and 0 <= t[1] < 3
    assert 0.5 <= c <= 2.0


def test_strategies_shrink_towards_the_identity():
    from hypothesis import find

    m = find(G.ROTATION.strategy(2), lambda g: True)
    assert m == [[1.0, 0.0], [0.0, 1.0]] or m == [[1.0, -0.0], [0.0, 1.0]]
    assert find(G.PERMUTATION.strategy(4), lambda g: True) == [0, 1, 2, 3]


# -- actions ------------------------------------------------------------------------------------
def test_permutation_acts_on_the_chosen_axis_per_item_or_for_all():
    x = torch.randn(4, 5, 3, generator=gen(), dtype=torch.float64)
    p = G.PERMUTATION.sample(generator=gen(1), batch=4, n=5)
    y = G.PERMUTATION.act(p, x)
    assert all(torch.equal(y[b], x[b][p[b]]) for b in range(4))
    one = [4, 3, 2, 1, 0]
    assert torch.equal(G.PERMUTATION.act(one, x), x.flip(1))
    q = [2, 0, 1]
    assert torch.equal(G.PERMUTATION.act(q, x, axis=-1), x[:, :, q])
    a = torch.randn(2, 3, 3, dtype=torch.float64)
    both = G.PERMUTATION.act(q, a, axis=(0, 1))
    perm = torch.eye(3, dtype=torch.float64)[q]
    assert torch.allclose(both, perm @ a @ perm.T)
    with pytest.raises(ValueError, match="permutation of 3 cannot act on axis 0 of size 5"):
        G.PERMUTATION.act(q, x)


def test_cyclic_and_translation_are_rolls():
    x = torch.randn(3, 4, 6, dtype=torch.float64)
    assert torch.equal(G.CYCLIC.act(1, x), torch.roll(x, 1, dims=1))
    s = torch.tensor([0, 1, 3])
    y = G.CYCLIC.act(s, x)
    assert all(torch.equal(y[b], torch.roll(x[b], int(s[b]), dims=0)) for b in range(3))
    assert torch.equal(G.TRANSLATION.act([1, 5], x), torch.roll(x, (1, 5), dims=(1, 2)))
    assert torch.equal(G.TRANSLATION.act([2], x, axes=[1]), torch.roll(x, 2, dims=2))


def test_matrix_rigid_and_scaling_actions():
    x = torch.randn(5, 7, 3, generator=gen(), dtype=torch.float64)
    r = G.ROTATION.sample(generator=gen(2), batch=5, n=3)
    y = G.ROTATION.act(r, x)
    assert torch.allclose(y[1], x[1] @ r[1].T)
    assert torch.allclose(y.norm(dim=-1), x.norm(dim=-1))
    xt = x.transpose(1, 2)  # vectors along axis 0 of the item
    assert torch.allclose(G.ROTATION.act(r, xt, axis=0), y.transpose(1, 2))
    m = torch.randn(5, 3, 3, dtype=torch.float64)
    assert torch.allclose(G.ROTATION.action("conjugate")(r, m)[2], r[2] @ m[2] @ r[2].T)
    h = G.RIGID.sample(generator=gen(3), batch=5, n=3)
    pts = G.RIGID.act(h, x)
    assert torch.allclose(pts[4], x[4] @ h[4, :3, :3].T + h[4, :3, 3])
    assert torch.allclose(G.RIGID.action("vector")(h, x)[4], x[4] @ h[4, :3, :3].T)
    s = G.SCALING.sample(generator=gen(), batch=5)
    assert torch.allclose(G.SCALING.action(degree=2)(s, x), x * s.reshape(5, 1, 1) ** 2)
    u = G.UNITARY.sample(generator=gen(), batch=5, n=3)
    z = G.UNITARY.act(u, x)  # a real input is promoted to complex
    assert z.dtype == torch.complex128 and torch.allclose(z.abs().norm(dim=-1), x.norm(dim=-1))
    with pytest.raises(TypeError, match="action 'vector' of SO\\(n\\) got an unexpected keyword"):
        G.ROTATION.action(degree=2)
    with pytest.raises(ValueError, match="SO\\(n\\) has no action 'point'"):
        G.ROTATION.action("point")

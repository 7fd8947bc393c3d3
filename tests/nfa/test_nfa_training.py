"""numerics/nfa/model/training.py: the in-line AdamW, the band-limited fields, a tiny training
run."""

from __future__ import annotations

import dataclasses

import torch

from numerics.nfa.model.training import QUICK_TRAIN, AdamW, bandlimited_fields, train_operator


def test_adamw_matches_torch_adamw_step_for_step():
    g = torch.Generator().manual_seed(0)
    w0 = torch.randn(5, 3, generator=g, dtype=torch.float64)
    a, b = w0.clone().requires_grad_(True), w0.clone().requires_grad_(True)
    ours = AdamW([a], lr=3e-2, weight_decay=5e-2)
    ref = torch.optim.AdamW([b], lr=3e-2, weight_decay=5e-2)
    target = torch.randn(5, 3, generator=g, dtype=torch.float64)
    for _ in range(20):
        for p, opt in ((a, ours), (b, ref)):
            opt.zero_grad()
            ((p - target) ** 3).abs().sum().backward()
            opt.step()
    assert torch.allclose(a, b, rtol=1e-12, atol=1e-12)


def test_bandlimited_fields_are_band_limited_and_seeded():
    f1 = bandlimited_fields(10, 2, band=6.0, generator=torch.Generator().manual_seed(1))
    f2 = bandlimited_fields(10, 2, band=6.0, generator=torch.Generator().manual_seed(1))
    assert torch.equal(f1.omega, f2.omega)
    assert float(f1.omega.norm(dim=-1).max()) <= 6.0
    x = torch.rand(3, 7, 2, dtype=torch.float64)
    assert f1(torch.tensor([0, 1, 2]), x).shape == (3, 7)


def test_training_reduces_loss_and_is_reproducible():
    cfg = dataclasses.replace(QUICK_TRAIN, steps=60, fields=4, batch=4, lr=3e-3)
    r1 = train_operator("softmax_tau1", 2, cfg, seed=3)
    r2 = train_operator("softmax_tau1", 2, cfg, seed=3)
    assert r1.losses == r2.losses  # seeded: data, weights, batches and dropout
    assert r1.last_loss < r1.first_loss
    assert not r1.operator.training  # returned in eval mode


def test_grid_fields_interpolate_pixel_centres_and_vanish_outside():
    import numpy as np

    from numerics.nfa.model.data import pixel_coords, rerasterise
    from numerics.nfa.model.training import GridFields

    img = np.random.default_rng(0).random((8, 8))
    pool = GridFields(torch.as_tensor(img[None]), 7.0)
    x = torch.as_tensor(pixel_coords(8, "A"))[None]
    assert torch.allclose(pool(torch.tensor([0]), x)[0], torch.as_tensor(img.ravel()), atol=1e-12)
    # between centres: the bilinear read-out of rerasterise (P2) with the identity map shifted
    b = np.array([0.1, -0.05])
    shifted = torch.as_tensor(pixel_coords(8, "A") - b)[None]
    assert np.allclose(
        pool(torch.tensor([0]), shifted)[0].numpy(), rerasterise(img, 1.0, b).ravel(), atol=1e-12
    )
    assert (
        float(pool(torch.tensor([0]), torch.full((1, 1, 2), 3.0, dtype=torch.float64)).abs().max())
        == 0.0
    )
    pts = pool.points(2, 50, 2, torch.Generator().manual_seed(0))
    assert pts.min() >= -1 + 1 / 7 - 1e-6 and pts.max() <= -1 + 15 / 7 + 1e-6


def test_training_on_grid_fields_reduces_loss():
    import numpy as np

    from numerics.nfa.model.training import QUICK_FIELD_TRAIN, GridFields

    imgs = np.random.default_rng(1).random((4, 8, 8))
    cfg = dataclasses.replace(QUICK_FIELD_TRAIN, steps=60, fields=4, batch=4, lr=3e-3)
    r = train_operator("softmax_tau1", 2, cfg, seed=5, pool=GridFields(torch.as_tensor(imgs), 7.0))
    assert r.last_loss < r.first_loss
    assert not r.operator.training

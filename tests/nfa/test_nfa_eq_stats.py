"""The deviations of the A3a statistics behind nfa.eq.norm_stats_covariance (harness, eq)."""

from __future__ import annotations

import torch

from numerics.nfa.eq import EPS64, TOL_EPS
from numerics.nfa.model.harness import stat_cloud as cloud
from numerics.nfa.model.harness import stat_deviations as deviations


def test_deviations_vanish_to_roundoff_for_positive_a():
    g = torch.Generator().manual_seed(0)
    for kind in ("spread", "gaussian", "clustered"):
        x = cloud(kind, 32, 20, 3, generator=g, dtype=torch.float64)
        a = torch.exp(8 * torch.rand(32, generator=g, dtype=torch.float64) - 4)
        b = 1000 * torch.randn(32, 3, generator=g, dtype=torch.float64)
        dev = deviations(x, a, b)
        for part in ("anchor", "scale", "normalised coordinates"):
            assert float((dev[part] / dev["conditioning"]).max()) <= TOL_EPS * EPS64


def test_negative_a_flips_scale_and_coordinates():
    x = torch.tensor([[[0.0], [1.0]]], dtype=torch.float64)
    a, b = torch.tensor([-1.0], dtype=torch.float64), torch.zeros(1, 1, dtype=torch.float64)
    dev = deviations(x, a, b)
    assert float(dev["anchor"][0]) == 0.0
    # |s' - a s| / |a s| = 2 since s' = |a| s = -a s
    assert abs(abs(float(dev["scale"][0])) - 2.0) < 1e-15
    assert abs(float(dev["normalised coordinates"][0]) - 2.0) < 1e-15  # x~' = -x~, |x~| = 1


def test_float32_deviation_grows_with_conditioning():
    g = torch.Generator().manual_seed(1)
    x = cloud("spread", 4, 16, 2, generator=g, dtype=torch.float64)
    s = x.sub(x.mean(-2, keepdim=True)).pow(2).sum(-1).mean(-1).sqrt()
    devs = []
    for ratio in (1.0, 1e5):
        b = torch.zeros(4, 2, dtype=torch.float64)
        b[:, 0] = ratio * s
        dev = deviations(x.float(), torch.ones(4), b.float())
        devs.append(float(dev["normalised coordinates"].max()))
    assert devs[1] > 100 * devs[0]

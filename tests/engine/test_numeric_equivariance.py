"""verify.numeric.check_equivariance: planted symmetry breaks are found; exact symmetries are not
flagged, even in float32 at a float32-eps tolerance on thousands of inputs."""

from __future__ import annotations

import json
import math

import torch
from hypothesis import strategies as st

from verify import Verdict
from verify.combine import audit
from verify.numeric import check_equivariance, rand, randn

EPS32 = torch.finfo(torch.float32).eps


# -- permutations and a DeepSets layer ---------------------------------------------------------


class DeepSets(torch.nn.Module):
    """Permutation-equivariant layer f(X)_i = X_i A + (sum_j X_j) B + c (Zaheer et al. 2017)."""

    def __init__(self, d: int = 4, seed: int = 0) -> None:
        super().__init__()
        g = torch.Generator().manual_seed(seed)
        self.A = torch.nn.Parameter(torch.randn(d, d, generator=g))
        self.B = torch.nn.Parameter(torch.randn(d, d, generator=g) / d)
        self.c = torch.nn.Parameter(torch.randn(d, generator=g))

    def forward(self, X: torch.Tensor) -> torch.Tensor:
        return X @ self.A + X.sum(1, keepdim=True) @ self.B + self.c


def permute(p: torch.Tensor, X: torch.Tensor) -> torch.Tensor:
    return X.gather(1, p[:, :, None].expand(-1, -1, X.shape[2]))


def sets(generator, batch, dtype, device, n):
    return randn(batch, n, 4, generator=generator, dtype=dtype, device=device)


def perms(generator, batch, dtype, device, n):
    keys = rand(batch, n, generator=generator, dtype=torch.float64, device=device)
    return torch.argsort(keys, dim=1)


def test_deepsets_no_false_alarm_in_float32():
    ev = check_equivariance(
        DeepSets(),
        permute,
        permute,
        sets,
        perms,
        params={"n": st.integers(1, 12)},
        budget=15,
        batch=256,
        dtype=torch.float32,
        device="cpu",
        tol=64 * EPS32,
    )
    assert ev.verdict is Verdict.SUPPORTED, ev.summary
    assert ev.numbers["inputs_tried"] >= 3000
    assert ev.dtype == "float32"


# -- rotations and radial maps ------------------------------------------------------------------


def rot(theta: torch.Tensor | float, x: torch.Tensor) -> torch.Tensor:
    """Rotate each row of x (batch, 2) by theta (a number or one angle per row)."""
    theta = torch.as_tensor(theta, dtype=x.dtype, device=x.device)
    c, s = torch.cos(theta), torch.sin(theta)
    return torch.stack([c * x[:, 0] - s * x[:, 1], s * x[:, 0] + c * x[:, 1]], dim=1)


def radial(x: torch.Tensor) -> torch.Tensor:
    """x * sigmoid(|x|): commutes with every rotation."""
    return x * torch.sigmoid(x.norm(dim=1, keepdim=True))


def points(generator, batch, dtype, device, scale=1.0):
    return scale * randn(batch, 2, generator=generator, dtype=dtype, device=device)


def angles(generator, batch, dtype, device, **_):
    return rand(batch, generator=generator, dtype=dtype, device=device, high=2 * math.pi)


def test_radial_map_float32_no_false_alarm():
    ev = check_equivariance(
        radial, rot, rot, points, angles,
        params={"scale": st.floats(0.01, 100.0)},
        budget=20, batch=512, dtype=torch.float32, device="cpu", tol=64 * EPS32,
    )  # fmt: skip
    assert ev.verdict is Verdict.SUPPORTED, ev.summary
    assert ev.numbers["inputs_tried"] >= 10_000
    assert ev.numbers["worst_in_eps"] < 64


def rot_out_buggy(theta: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """A rotation action that is off by 0.01 rad when the angle lies in [1.00, 1.03]."""
    off = ((theta > 1.0) & (theta < 1.03)).to(y.dtype) * 0.01
    return rot(theta + off, y)


def test_narrow_angle_window_is_found():
    ev = check_equivariance(radial, rot, rot_out_buggy, points, angles, budget=20, batch=512,
                            device="cpu")
    assert ev.verdict is Verdict.REFUTED
    g = ev.counterexample["inputs"]["g"]
    assert 1.0 < g < 1.03
    assert ev.counterexample["violation_float64"] > 1e-3
    assert audit(ev) is ev


def radial_corner_bug(x: torch.Tensor) -> torch.Tensor:
    """Radial except on a corner of input space: |x| > 3 with x_0 > 0 is scaled by 1.01."""
    y = radial(x)
    corner = (x.norm(dim=1) > 3.0) & (x[:, 0] > 0)
    return torch.where(corner[:, None], 1.01 * y, y)


def test_corner_bug_with_hypothesis_drawn_angle_is_found_and_rechecks():
    ev = check_equivariance(
        radial_corner_bug, rot, rot, points, st.floats(0.0, 2 * math.pi),
        budget=30, batch=512, dtype=torch.float32, device="cpu",
    )  # fmt: skip
    assert ev.verdict is Verdict.REFUTED, ev.summary
    theta = ev.counterexample["params"]["group_element"]
    x = torch.tensor([ev.counterexample["inputs"]["x"]], dtype=torch.float64)
    a, b = radial_corner_bug(rot(theta, x)), rot(theta, radial_corner_bug(x))
    rel = float((a - b).norm() / torch.maximum(a.norm(), b.norm()))
    assert rel > 1e-3  # the counterexample reproduces in float64 from its printed values


def test_float32_rounding_is_not_a_refutation():
    def shifted(x):  # (x + 1e4) - 1e4 == x exactly in reals; float32 loses ~1e-3 absolute
        return (x + 1e4) - 1e4

    ev = check_equivariance(
        shifted, rot, rot, points, angles, budget=5, batch=256, dtype=torch.float32, device="cpu"
    )
    assert ev.verdict is Verdict.SUPPORTED, ev.summary
    assert ev.numbers["worst_violation"] > ev.numbers["tol"]  # float32 saw a violation
    assert ev.numbers["cleared_by_float64"] >= 1


def test_deterministic():
    kw = dict(budget=10, batch=64, device="cpu", seed=7)
    a = check_equivariance(radial_corner_bug, rot, rot, points, st.floats(0.0, 6.28), **kw)
    b = check_equivariance(radial_corner_bug, rot, rot, points, st.floats(0.0, 6.28), **kw)
    da, db = a.to_dict(), b.to_dict()
    da.pop("elapsed_s"), db.pop("elapsed_s")
    assert json.dumps(da, sort_keys=True) == json.dumps(db, sort_keys=True)

"""Grid checks of ``pegr.data.*`` (the synthetic targets of App. D.1, eqs. (30)-(31), L317-325;
proved in polar form in ``proofs/pegr/data.py``) on the centred 256^2 grid of the experiments."""

from __future__ import annotations

import math

import numpy as np
import torch

import verify
from proofs.pegr.model import COUNTEREXAMPLE_ERROR, IDENTITY_TOL
from verify.numeric import judge_error

from .model.inr import grid, radial_img, radial_vf, spiral_img, spiral_vf


@verify.evidence_for("pegr.data.definitions_and_radial_symmetry")
def data_grid_checks(ctx):
    """On the centred 256^2 linspace grid: exact C4 symmetry (``np.rot90``) of the Radial image
    and equivariance of the Radial VF under the pixel rotation by pi/2 (float64; the grid is
    C4-symmetric); the target variances (the MSE of the best constant predictor) for both image
    readings, reported as reference scales for Table 2."""
    n = 256
    P = grid(n)
    image = radial_img(P).reshape(n, n).cpu().numpy()
    d_img = np.abs(np.rot90(image) - image)
    err = float(d_img.max())
    V = radial_vf(P).reshape(n, n, 2).cpu().numpy()
    V_rot = np.rot90(V)  # the field sampled at the rotated pixel
    quarter_turns = (np.array([[0.0, -1.0], [1.0, 0.0]]), np.array([[0.0, 1.0], [-1.0, 0.0]]))
    d_vf = min((np.abs(V_rot - np.einsum("ij,abj->abi", Q, V)).max(-1) for Q in quarter_turns),
               key=lambda d: float(d.max()))
    errv = float(d_vf.max())
    which, d = ("image", d_img) if err >= errv else ("vector field", d_vf)
    i, j = np.unravel_index(int(np.argmax(d)), d.shape)
    Pg = P.reshape(n, n, 2).cpu().numpy()
    case = {"grid": "linspace(-1, 1, 256)^2", "target": f"Radial {which}",
            "pixel": [int(i), int(j)], "point": Pg[i, j].tolist(),
            "rotation": "np.rot90 (quarter turn of the pixel grid)",
            "deviation": float(d[i, j])}
    variances = {"radial_signed": float(radial_img(P).var()),
                 "radial_magnitude": float(radial_img(P, True).var()),
                 "spiral_signed": float(spiral_img(P).var()),
                 "spiral_magnitude": float(spiral_img(P, True).var()),
                 "radial_vf_mean_comp": float(radial_vf(P).var(0).mean()),
                 "spiral_vf_mean_comp": float(spiral_vf(P).var(0).mean())}
    return judge_error(max(err, errv), "256^2 grid: Radial image rot90-invariant and Radial VF "
                       "rot90-equivariant", tol=IDENTITY_TOL, fail=COUNTEREXAMPLE_ERROR,
                       counterexample=case, part="image",
                       numbers={"target_variances": variances})


@verify.evidence_for("pegr.data.spiral_approx")
def spiral_grid(ctx):
    """Grid numbers beside the exact residuals: the relative L2 error of the Spiral image (signed
    and magnitude readings) under rotation by phi in {0.1, pi/4, pi/2, pi} (the formula at the
    rotated points), the independent-pixel random reference sqrt(2), and the angular Fourier
    energy by frequency k on a circle (signed: all in |k| = 1). The grid's eps_2(pi) must match
    the closed form 2 to 1e-2 (discretisation); a mismatch is a fault of the grid, not of the
    paper, so the piece keeps no counterexample (UNDECIDED, never REFUTED)."""
    P = grid(ctx.pick(quick=96, deep=256))
    P = P[P.norm(dim=1) <= 1]
    nums = {}
    for magnitude in (False, True):
        for phi in (0.1, math.pi / 4, math.pi / 2, math.pi):
            c, s = math.cos(phi), math.sin(phi)
            Pr = P @ torch.tensor([[c, s], [-s, c]], dtype=torch.float64)
            I0, I1 = spiral_img(P, magnitude), spiral_img(Pr, magnitude)
            key = f"{'mag' if magnitude else 'signed'}@{phi:.3f}"
            nums[key] = float(((I1 - I0).pow(2).mean() / I0.pow(2).mean()).sqrt())
    th = torch.arange(256, dtype=torch.float64) * 2 * math.pi / 256
    r = torch.tensor(0.5, dtype=torch.float64)
    ring = torch.stack([r * torch.cos(th), r * torch.sin(th)], -1)
    F = torch.fft.rfft(spiral_img(ring)).abs() ** 2
    nums["angular_energy_fraction_k1"] = float(F[1] / F.sum())
    nums["random_image_reference"] = math.sqrt(2)
    e = nums["signed@3.142"]
    return judge_error(abs(e - 2), f"grid: eps_2(pi) = {e:.4f} (closed form 2, random image "
                       f"sqrt 2); magnitude reading eps_2(pi/2) = {nums['mag@1.571']:.3f}",
                       tol=1e-2, fail=1.0, part="closed form", reading="B", numbers=nums)

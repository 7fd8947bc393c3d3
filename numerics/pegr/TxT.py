"""Float64 check and rotation contrast of ``pegr.TxT.sinusoidal_rep`` (Table 1 row "Image /
T x T", L32; D.2 L329-331; proved in ``proofs/pegr/TxT.py``)."""

from __future__ import annotations

import math

import torch

import verify
from proofs.pegr.model import COUNTEREXAMPLE_ERROR, IDENTITY_TOL
from verify.numeric import judge_error

from .model.encodings import FourierFeaturePE, SO2BesselPE
from .model.groups import rot2


@verify.evidence_for("pegr.TxT.sinusoidal_rep")
def txt_contrast(ctx):
    """Translations act orthogonally (float64 check of (i) for c in the paper's grid, D.2 L331);
    rotations do not, which matters for the experiments of §5: ``||Gram(gamma(R_phi P)) -
    Gram(gamma(P))||_F / ||Gram||_F`` for c = 5 and phi in {0.1, 0.9, pi/2} on 50 points,
    against the SO(2) PE (0 up to rounding); reported in the numbers."""
    g = torch.Generator().manual_seed(ctx.subseed("contrast"))
    P = torch.rand(50, 2, generator=g, dtype=torch.float64, device=g.device) * 2 - 1
    worst, case = 0.0, None
    for c in (0.1, 1, 3, 5, 10, 15, 20, 50):
        ff = FourierFeaturePE.sample(c, 16, g)
        tt = torch.rand(2, generator=g, dtype=torch.float64, device=g.device) * 2 - 1
        lhs, rhs = ff(P + tt), ff(P) @ ff.rho(tt).T
        err = float((lhs - rhs).abs().max()) / (1 + c * 4)
        if case is None or err > worst:
            i = int((lhs - rhs).abs().amax(-1).argmax())
            worst, case = err, {"c": c, "alpha": ff.alpha.tolist(), "t": tt.tolist(),
                                "p": P[i].tolist(), "gamma(p+t)": lhs[i].tolist(),
                                "rho(t) gamma(p)": rhs[i].tolist()}
    ff = FourierFeaturePE.sample(5.0, 16, g)
    so2 = SO2BesselPE.sample(25.0, 4, 16, g)
    contrast = {}
    for phi in (0.1, 0.9, math.pi / 2):
        Rm = rot2(torch.tensor(phi, dtype=torch.float64))
        for name, pe in (("TxT", ff), ("SO2", so2)):
            G0 = pe(P) @ pe(P).T
            G1 = pe(P @ Rm.T) @ pe(P @ Rm.T).T
            contrast[f"{name}@{phi:.2f}"] = float((G1 - G0).norm() / G0.norm())
    return judge_error(worst, f"(i) translations, c in the paper's grid (float64); rotation Gram "
                       f"contrast {contrast}", tol=IDENTITY_TOL, fail=COUNTEREXAMPLE_ERROR,
                       counterexample=case, part="(i)", numbers={"gram_contrast": contrast})

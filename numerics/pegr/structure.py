"""Monte-Carlo cross-check of the Peter-Weyl remark of §3.2, L69 (``pegr.peter_weyl``, proved
on S_3 and SO(2) in ``proofs/pegr/structure.py``) on SO(3)."""

from __future__ import annotations

import math

import numpy as np
import torch

import verify
from verify.numeric import judge_error

from .model.groups import haar_so3


@verify.evidence_for("pegr.peter_weyl")
def peter_weyl_so3(ctx):
    """Monte-Carlo Haar average on SO(3) with D^1 (the defining representation): ``E[R_ij R_kl]
    = delta delta / 3``, so the unscaled entries have norm^2 1/3 (reading A fails again) and the
    ``sqrt(3) R_ij`` are orthonormal (reading B); tolerance ``3 * 5/sqrt(N)``. Reading B keeps
    no counterexample: a Monte-Carlo average can support it but not refute it (its exact Gram
    is proved in ``proofs/pegr/structure.py``); reading A's deviation 2/3 is far beyond any
    sampling error and the exact value 1/3 is recorded with it; being under 10x its threshold
    0.5, it is re-measured on fresh Haar samples (rule 2 of ``verify.numeric.judge``)."""
    N = ctx.pick(quick=20000, deep=200000)

    def gram(*stream: str) -> np.ndarray:
        Rs = haar_so3(N, torch.Generator().manual_seed(ctx.subseed(*stream))).reshape(N, 9)
        return (Rs.T @ Rs / N).cpu().numpy()

    G = gram("pw")
    tol = 5 / math.sqrt(N) * 3
    return [
        judge_error(float(np.abs(3 * G - np.eye(9)).max()),
                    rf"B: SO(3) $D^1$, $3\,\mathbb{{E}}[R_{{ij}} R_{{kl}}]$ vs the identity "
                    f"($N = {N}$ Haar samples)", tol=tol,
                    fail=0.5, reading="B", part="SO(3)"),
        judge_error(float(abs(G[0, 0] - 1)), r"A: $\mathbb{E}[R_{11}^2]$ vs 1 (unscaled)",
                    tol=tol, fail=0.5, part="SO(3)",
                    fresh=lambda: float(abs(gram("pw", "fresh")[0, 0] - 1)),
                    counterexample={"group": "SO(3)", "entry": "R_11", "E[R_11^2]": float(G[0, 0]),
                                    "exact": "1/3", "N": N}),
    ]

"""Group elements as orthogonal matrices, for the fuzzers of Lemma A.1 (L146) and of the
attention layer of A.4 (L212-265): SO(2) sums, SO(3), Wigner D^2, S_4 and a direct sum."""

from __future__ import annotations

import numpy as np
import torch

from .encodings import sphere_points, wigner_real
from .groups import block_rot, haar_so3

#: The representations :func:`sample_rep` draws from.
KINDS = ["so2", "so3", "wigner2", "s4", "so3+s4"]

#: Fixed points on S^2 on which the Wigner D^2 matrices are fitted (least squares).
FIT_POINTS = sphere_points(60, np.random.default_rng(12345))


def sample_rep(kind: str, n: int, generator: torch.Generator) -> torch.Tensor:
    """``n + 1`` group elements as orthogonal matrices (the last one plays g): SO(2)
    ``R(theta) (+) R(3 theta)``, the SO(3) defining representation, Wigner D^2, S_4 permutation
    matrices, or the direct sum SO(3) (+) S_4."""
    m = n + 1
    if kind == "so2":
        th = (torch.rand(m, generator=generator, dtype=torch.float64,
            device=generator.device) * 2 - 1) * 1e3
        return block_rot(torch.stack([th, 3 * th], -1))
    if kind in ("so3", "wigner2"):
        R = haar_so3(m, generator)
        if kind == "so3":
            return R
        return torch.tensor(np.stack([wigner_real(2, r, FIT_POINTS) for r in R.cpu().numpy()]))
    perms = torch.stack([torch.randperm(4, generator=generator,
        device=generator.device) for _ in range(m)])
    P = torch.zeros(m, 4, 4, dtype=torch.float64)
    P[torch.arange(m)[:, None], perms, torch.arange(4)[None, :]] = 1.0
    if kind == "s4":
        return P
    R = haar_so3(m, generator)
    out = torch.zeros(m, 7, 7, dtype=torch.float64)
    out[:, :3, :3], out[:, 3:, 3:] = R, P
    return out

"""Paper-size re-run of Table 2's synthetic columns outside the suite (reported in docs/papers/pegr.md).

256^2 grid, 5% train / 40% val / rest test, 500 full-batch Adam steps, MLP 3 x 128 ReLU, PE dim 32, float32,
PyTorch default init; reduced selection on seed 0 validation MSE (SO(2): C x K at lr 1e-2; T x T:
c in {1, 5, 10, 20} at lr 1e-2; None: lr in {1e-2, 1e-1}); then seeds 1..3 (split, PE sample and init vary).
About 12 minutes on one CPU core. Usage: ``python -m numerics.pegr._rerun_table2 [out.json]``.
"""

from __future__ import annotations

import json
import sys

import numpy as np
import torch

from .inr import train_ensemble

GRID = {"none": [{"lr": 1e-2}, {"lr": 1e-1}],
        "TxT": [{"c": c, "lr": 1e-2} for c in (1.0, 5.0, 10.0, 20.0)],
        "SO2": [{"C": C, "K": K, "lr": 1e-2} for C in (5.0, 25.0, 50.0) for K in (2, 4, 8)]}


def rerun(tasks: tuple[str, ...] = ("Radial VF", "Radial", "Spiral", "Spiral VF"), seeds: int = 3) -> dict:
    out: dict = {}
    for task in tasks:
        out[task] = {}
        for kind, cands in GRID.items():
            res = []
            for lr in sorted({h["lr"] for h in cands}):
                group = [h for h in cands if h["lr"] == lr]
                res += list(zip(group, train_ensemble(task, [(kind, hp, 0) for hp in group], n=256, steps=500)[0],
                                strict=True))
            best = min(res, key=lambda t: t[1].val)[0]
            fin, _ = train_ensemble(task, [(kind, best, s) for s in range(1, seeds + 1)], n=256, steps=500)
            tests = [r.test for r in fin]
            out[task][kind] = {"hp": best, "mean": float(np.mean(tests)), "sd": float(np.std(tests, ddof=1)),
                               "runs": tests}
    return out


if __name__ == "__main__":
    torch.set_num_threads(1)
    json.dump(rerun(), open(sys.argv[1] if len(sys.argv) > 1 else "pegr_table2_rerun.json", "w"), indent=1)

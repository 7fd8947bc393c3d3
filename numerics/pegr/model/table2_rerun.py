"""Paper-size re-run of Table 2's synthetic columns (L101-106), outside the claim suite; its
numbers are reported in docs/papers/pegr.md.

The D.2 protocol (L329-337) with a reduced selection: 256^2 grid, 5% train / 40% validation / rest
test, 500 full-batch Adam steps, MLP 3 x 128 ReLU, PE dim 32, float32, PyTorch default init;
hyperparameters selected on seed 0's validation MSE (SO(2): C x K at lr 1e-2; T x T: c in {1, 5,
10, 20} at lr 1e-2; no PE: lr in {1e-2, 1e-1}), then seeds 1..3 (split, PE sample and init vary).
About 12 minutes on one CPU core::

    python -m numerics.pegr.model.table2_rerun [out.json]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import torch

from .inr import train_ensemble

#: The reduced hyperparameter grid per PE kind.
GRID = {"none": [{"lr": 1e-2}, {"lr": 1e-1}],
        "TxT": [{"c": c, "lr": 1e-2} for c in (1.0, 5.0, 10.0, 20.0)],
        "SO2": [{"C": C, "K": K, "lr": 1e-2} for C in (5.0, 25.0, 50.0) for K in (2, 4, 8)]}


def rerun(tasks: tuple[str, ...] = ("Radial VF", "Radial", "Spiral", "Spiral VF"),
          seeds: int = 3) -> dict:
    """Per task and PE kind: the selected hyperparameters and the test MSEs of ``seeds`` runs
    (mean, sample sd, the runs)."""
    out: dict = {}
    for task in tasks:
        out[task] = {}
        for kind, candidates in GRID.items():
            scored = []
            for lr in sorted({h["lr"] for h in candidates}):
                group = [h for h in candidates if h["lr"] == lr]
                runs, _ = train_ensemble(task, [(kind, hp, 0) for hp in group], n=256, steps=500)
                scored += list(zip(group, runs, strict=True))
            best = min(scored, key=lambda t: t[1].val)[0]
            final, _ = train_ensemble(task, [(kind, best, s) for s in range(1, seeds + 1)], n=256,
                                      steps=500)
            tests = [r.test for r in final]
            out[task][kind] = {"hp": best, "mean": float(np.mean(tests)),
                               "sd": float(np.std(tests, ddof=1)), "runs": tests}
    return out


def main(argv: list[str]) -> None:
    """Run :func:`rerun` on one CPU thread and write the JSON to ``argv[0]`` (default
    ``pegr_table2_rerun.json``)."""
    torch.set_num_threads(1)
    path = Path(argv[0] if argv else "pegr_table2_rerun.json")
    path.write_text(json.dumps(rerun(), indent=1))


if __name__ == "__main__":
    main(sys.argv[1:])

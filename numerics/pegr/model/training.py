"""The trained Table 2 columns of ``pegr.exp.*`` (§5, App. D.2), memoised on disk.

Kept apart from :mod:`..exp` on purpose: the disk memo (:mod:`verify.memo`) keys a result on the
source of this module and the package modules it imports (:mod:`.inr`, :mod:`.encodings`), so
an edit to a decision rule, a report string or an ``expect=`` in :mod:`..exp` keeps the trained
ensembles of a deep run (hours on a 2-core CPU), while an edit to the training code discards
them.
"""

from __future__ import annotations

import numpy as np

from verify.memo import persistent

from .inr import train_ensemble

#: Display name of each PE (Table 2's rows) -> the encoding kind of :mod:`.inr`.
PE_KIND = {"None": "none", "TxT": "TxT", "SO2": "SO2"}
#: Fixed hyperparameters of the quick profile.
QUICK_HP = {"None": {"lr": 1e-2}, "TxT": {"c": 10.0, "lr": 1e-2},
            "SO2": {"C": 25.0, "K": 4, "lr": 1e-2}}
#: The reduced grid of ``pegr.exp.reproduction`` (deep profile).
REDUCED_GRID = {
    "None": [{"lr": lr} for lr in (1e-3, 1e-2, 1e-1)],
    "TxT": [{"c": c, "lr": lr} for c in (1.0, 5.0, 10.0, 20.0) for lr in (1e-3, 1e-2)],
    "SO2": [{"C": C, "K": K, "lr": lr} for C in (5.0, 25.0, 50.0) for K in (2, 4, 8)
            for lr in (1e-3, 1e-2)],
}


@persistent(memo=4)
def trained_ensemble(task: str, runs: tuple[tuple[str, tuple, int], ...], n: int, steps: int,
                     device: str = "cpu") -> list:
    """:func:`train_ensemble` (test/val/train MSEs only), memoised on disk (:mod:`verify.memo`):
    an interrupted deep column resumes at the last finished ensemble. ``runs`` holds each
    hyperparameter dict as a sorted tuple of items, so the call is hashable and keyed exactly."""
    res, _ = train_ensemble(task, [(k, dict(hp), s) for k, hp, s in runs], n=n, steps=steps,
                            device=device)
    return res


def _ensemble(task: str, runs: list[tuple[str, dict, int]], n: int, steps: int,
              device: str) -> list:
    return trained_ensemble(task, tuple((k, tuple(sorted(hp.items())), s) for k, hp, s in runs),
                            n, steps, device)


@persistent(memo=16)
def synthetic_results(task: str, n: int, steps: int, seeds: int, select: bool, base_seed: int,
                      device: str = "cpu", grid: dict | None = None) -> dict:
    """Test MSEs per PE for one synthetic task: hyperparameters fixed (quick) or selected by
    validation MSE on seed ``base_seed`` over ``grid`` (default the reduced grid), then
    ``seeds`` runs (split, PE sample and init vary with the seed). Memoised on disk:
    ``pegr.exp.reproduction`` reuses the columns of ``table2_images`` and
    ``table2_vector_fields``."""
    grid = REDUCED_GRID if grid is None else grid
    out = {}
    for pe, kind in PE_KIND.items():
        hp = QUICK_HP[pe]
        if select:
            scores = []
            for cand in grid[pe]:
                res = _ensemble(task, [(kind, cand, base_seed)], n, steps, device)
                scores.append((res[0].val, cand))
            hp = min(scores, key=lambda t: t[0])[1]
        runs = [(kind, hp, base_seed + 1 + s) for s in range(seeds)]
        res = _ensemble(task, runs, n, steps, device)
        tests = [r.test for r in res]
        out[pe] = {"mean": float(np.mean(tests)),
                   "sd": float(np.std(tests, ddof=1)) if seeds > 1 else 0.0,
                   "runs": tests, "hp": hp}
    return out

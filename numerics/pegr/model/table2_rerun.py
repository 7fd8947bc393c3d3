"""Paper-size re-run of Table 2's synthetic columns (L101-106), outside the claim suite, judged
by the claims' own rule (:func:`.exp.column_evidence`); its numbers are reported in
docs/papers/pegr.md.

The D.2 protocol (L329-337): 256^2 grid, 5% train / 40% validation / rest test, 500 full-batch
Adam steps, MLP 3 x 128 ReLU, PE dim 32, float32, PyTorch default init; hyperparameters selected
on seed 0's validation MSE, then seeds 1..``seeds`` (split, PE sample and init vary).

- ``--grid reduced`` (the default): SO(2) C x K at lr 1e-2, T x T c in {1, 5, 10, 20} at lr
  1e-2, no PE lr in {1e-2, 1e-1}, 3 seeds; about 12 minutes on one CPU core. A reduced grid
  decides no ranking: every column comes out UNDECIDED (needs_compute), with its numbers.
- ``--grid paper``: D.2's full grid (:data:`.exp.PAPER_GRID`) and its 10 runs, the protocol
  of the claims' deep profile (:data:`.exp.TABLE2_COMPUTE` for the cost)::

    python -m numerics.pegr.model.table2_rerun [out.json] [--grid paper]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import torch

from ..exp import PAPER_GRID, column_evidence
from .inr import train_ensemble
from .training import PE_KIND, synthetic_results

#: The reduced hyperparameter grid per PE kind.
GRID = {"none": [{"lr": 1e-2}, {"lr": 1e-1}],
        "TxT": [{"c": c, "lr": 1e-2} for c in (1.0, 5.0, 10.0, 20.0)],
        "SO2": [{"C": C, "K": K, "lr": 1e-2} for C in (5.0, 25.0, 50.0) for K in (2, 4, 8)]}

TASKS = ("Radial VF", "Radial", "Spiral", "Spiral VF")


def rerun(tasks: tuple[str, ...] = TASKS, seeds: int = 3) -> dict:
    """Per task and PE kind over the reduced grid: the selected hyperparameters and the test
    MSEs of ``seeds`` runs (mean, sample sd, the runs)."""
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


def rerun_paper_grid(tasks: tuple[str, ...] = TASKS, seeds: int = 10) -> dict:
    """Per task and PE (Table 2's row names) over D.2's full grid, then ``seeds`` runs."""
    return {task: synthetic_results(task, 256, 500, seeds, True, 0, "cpu", PAPER_GRID)
            for task in tasks}


def judged(results: dict, grid: str) -> dict:
    """Each column's verdict and summary by :func:`.exp.column_evidence`."""
    names = {kind: pe for pe, kind in PE_KIND.items()}
    out = {}
    for task, res in results.items():
        by_pe = {names.get(k, k): v for k, v in res.items()}
        seeds = min(len(v["runs"]) for v in by_pe.values())
        ev = column_evidence(task, by_pe, {"n": 256, "steps": 500, "seeds": seeds,
                                           "smoke": False, "grid": grid})
        out[task] = {"verdict": ev.verdict.value, "summary": ev.summary}
    return out


def main(argv: list[str]) -> None:
    """Run the re-run on one CPU thread and write the results and their verdicts as JSON to
    the first positional argument (default ``pegr_table2_rerun.json``)."""
    torch.set_num_threads(1)
    grid = "paper" if "--grid" in argv and argv[argv.index("--grid") + 1] == "paper" \
        else "reduced"
    rest = [a for i, a in enumerate(argv)
            if a != "--grid" and (i == 0 or argv[i - 1] != "--grid")]
    path = Path(rest[0] if rest else "pegr_table2_rerun.json")
    results = rerun_paper_grid() if grid == "paper" else rerun()
    path.write_text(json.dumps({"grid": grid, "results": results,
                                "judged": judged(results, grid)}, indent=1))


if __name__ == "__main__":
    main(sys.argv[1:])

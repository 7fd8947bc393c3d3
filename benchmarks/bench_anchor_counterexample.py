"""Time to a counterexample: ``falsify`` against plain random search, on planted bugs.

The input space is a parameter ``theta`` in [0, 1) (drawn by hypothesis in ``falsify``, as
group elements and sizes are in the claims) times a batched input ``x`` in [0, 1)^2 (drawn
from the torch generator). A bug of *rarity* p covers a fraction p of that space, at a random
place (away from the edges, which hypothesis favours), in one of three shapes:

- ``x-box``: a square of area p in x, for every theta (a needle among the batched inputs);
- ``theta-needle``: an interval of length p in theta, for every x; violation 0 elsewhere;
- ``theta-slope``: the same interval, but outside it the violation rises towards it while
  staying below the tolerance (as the error of a real numerical bug grows near a
  singularity), which ``falsify``'s ``target()`` can climb.

Both searches get the same budget of inputs (``--examples`` x ``--batch``). Random search
draws theta *and* x uniformly for every input, in batches, and stops at the first violation.
``falsify`` runs until it returns (REFUTED: found, shrunk and re-checked in float64), in two
ways of writing the property: theta drawn by hypothesis, one per example (*per example*), or
theta drawn from the generator like x, one per input (*per input*: what
``check_equivariance``'s batched ``sample_group`` does). Per rarity and shape: the success
rate over ``--trials`` seeds, and the median time to the counterexample of the successful
trials (for ``falsify`` to the first violating batch, and to its REFUTED verdict).
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import hypothesis.strategies as st
import torch
from _common import save

from verify.numeric import falsify
from verify.numeric.falsify import default_tol

TOL = default_tol(torch.float64)
SHAPES = ("x-box", "theta-needle", "theta-slope")


def planted(shape: str, p: float, rng: torch.Generator):
    """``violation(theta, x)`` (batched) with a bug of rarity ``p`` at a random place."""
    c = 0.1 + 0.8 * float(torch.rand((), generator=rng, dtype=torch.float64))
    c2 = 0.1 + 0.8 * float(torch.rand((), generator=rng, dtype=torch.float64))
    side = math.sqrt(p)

    def violation(theta: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
        if shape == "x-box":
            inside = ((x[:, 0] - c).abs() < side / 2) & ((x[:, 1] - c2).abs() < side / 2)
            return inside.to(x.dtype).expand(x.shape[0])
        dist = (theta - c).abs() - p / 2
        inside = (dist < 0).to(x.dtype).expand(x.shape[0])
        if shape == "theta-needle":
            return inside
        near = (0.5 * TOL * torch.exp(-dist.clamp_min(0) / 0.05)).expand(x.shape[0])
        return torch.where(inside > 0, inside, near)

    return violation


def run_falsify(violation, examples: int, batch: int, seed: int,
                per_input: bool) -> tuple[bool, float, float]:
    first: list[float] = []
    t0 = time.perf_counter()

    def prop(*, generator, batch, dtype, device, theta=None):
        x = torch.rand(batch, 2, generator=generator, dtype=torch.float64, device=device)
        if per_input:
            th = torch.rand(batch, generator=generator, dtype=torch.float64, device=device)
        else:
            th = torch.tensor(theta, dtype=torch.float64)
        v = violation(th, x)
        if not first and bool((v > TOL).any()):
            first.append(time.perf_counter() - t0)
        return v.to(dtype)

    params = {} if per_input else {"theta": st.floats(0, 1, exclude_max=True)}
    ev = falsify(prop, params, budget=examples, batch=batch, dtype=torch.float64,
                 device="cpu", seed=seed)
    found = ev.verdict.value == "REFUTED"
    return found, (first[0] if first else math.nan), time.perf_counter() - t0


def run_random(violation, examples: int, batch: int, seed: int) -> tuple[bool, float]:
    g = torch.Generator().manual_seed(seed)
    t0 = time.perf_counter()
    for _ in range(examples):
        theta = torch.rand(batch, generator=g, dtype=torch.float64)
        x = torch.rand(batch, 2, generator=g, dtype=torch.float64)
        if bool((violation(theta, x) > TOL).any()):
            return True, time.perf_counter() - t0
    return False, math.nan


def _median(xs: list[float]) -> float:
    xs = [x for x in xs if not math.isnan(x)]
    return statistics.median(xs) if xs else math.nan


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--examples", type=int, default=100, help="batches per search")
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--trials", type=int, default=20, help="seeds per rarity and shape")
    ap.add_argument("--rarity", type=float, nargs="+", default=[1e-2, 1e-3, 1e-4])
    ap.add_argument("--shape", nargs="+", default=list(SHAPES), choices=SHAPES)
    args = ap.parse_args()
    torch.set_num_threads(1)
    load0 = os.getloadavg()
    falsify(lambda **k: torch.zeros(k["batch"]), {"theta": st.floats(0, 1)}, budget=3, batch=4)
    rows = []
    print(f"budget: {args.examples} x {args.batch} = {args.examples * args.batch} inputs; "
          f"{args.trials} trials each; times are medians over the successful trials")
    head = "ok / first hit / REFUTED"
    print(f"{'':<22}{'falsify, theta per example':^28}{'falsify, theta per input':^28}"
          f"{'random search':^16}")
    print(f"{'shape':<14}{'rarity':>8}{head:^28}{head:^28}{'ok / hit':^16}")
    for shape in args.shape:
        for p in args.rarity:
            row: dict = {"shape": shape, "rarity": p}
            cells = []
            for way, per_input in (("per_example", False), ("per_input", True)):
                ok_n, firsts, totals = 0, [], []
                for trial in range(args.trials):
                    violation = planted(shape, p, torch.Generator().manual_seed(1000 + trial))
                    ok, first, total = run_falsify(violation, args.examples, args.batch, trial,
                                                   per_input)
                    ok_n += ok
                    if ok:
                        firsts.append(first)
                        totals.append(total)
                row[f"falsify_{way}"] = {"success": ok_n / args.trials,
                                         "first_hit_s": _median(firsts),
                                         "refuted_s": _median(totals)}
                cells.append(f"{ok_n / args.trials:4.0%} / {_median(firsts):6.3f}s / "
                             f"{_median(totals):5.2f}s")
            r_ok, r_time = 0, []
            for trial in range(args.trials):
                violation = planted(shape, p, torch.Generator().manual_seed(1000 + trial))
                ok, t = run_random(violation, args.examples, args.batch, trial)
                r_ok += ok
                r_time.append(t)
            row["random"] = {"success": r_ok / args.trials, "hit_s": _median(r_time)}
            rows.append(row)
            print(f"{shape:<14}{p:8.0e}{cells[0]:^28}{cells[1]:^28}"
                  f"{f'{r_ok / args.trials:4.0%} / {_median(r_time):6.4f}s':^16}")
    print(f"load average before/after: {load0} / {os.getloadavg()}")
    path = save("anchor_counterexample", {"rows": rows, "examples": args.examples,
                                          "batch": args.batch, "trials": args.trials,
                                          "load_average": [load0, os.getloadavg()]})
    print(f"saved {path}")


if __name__ == "__main__":
    main()

"""The falsifier against what a user would write instead: a plain hypothesis test, a raw loop.

One property, rotation equivariance of a radial map ``f(p) = p tanh(|p|)`` on ``n`` points
in the plane (``f(x R^T) = f(x) R^T``, exact, so every search runs its whole budget), written
four ways and timed in one run, interleaved. ``n`` is fixed (``--n``) so that every way does
the same work per input (hypothesis draws small sizes more often than large ones):

- *hypothesis*: a plain per-example hypothesis test with numpy: hypothesis draws ``theta``
  and the ``n x 2`` points (``hypothesis.extra.numpy.arrays``), one input per
  example (what a property test usually looks like);
- *raw*: the same batched torch op alone in a Python loop (``theta`` drawn by ``random``,
  inputs by a ``torch.Generator``, the worst violation reduced to a float): the practical
  limit of any tool that evaluates this property in batches;
- *falsify*: ``verify.numeric.falsify`` on the same batched op;
- *check_equivariance*: ``verify.numeric.check_equivariance`` with ``f`` and the rotation
  as its actions.

Beside them, *engine*: the hypothesis test ``falsify`` builds, with nothing to evaluate (draw
the example, ``target()``): its time per example is the fixed cost each batch pays on top of
the raw op, which is what ``falsify`` loses to the raw loop at a small batch.

Reports inputs per CPU-second (one torch thread; on a quiet machine the same as inputs per
second, on a shared one far less noisy) and the ratios; with ``--device cuda`` the batched
ways are timed in wall seconds (the plain hypothesis test stays on the CPU, where on the
GPU machine's idle cores its CPU time is its wall time). Targets: falsify and
check_equivariance >= 80% of raw, and >= 300x the plain hypothesis test.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import hypothesis.strategies as st
import numpy as np
import torch
from _common import save
from hypothesis import HealthCheck, Phase, Verbosity, given, settings, target
from hypothesis import seed as hypothesis_seed
from hypothesis.extra import numpy as hnp

from verify.numeric import check_equivariance, falsify

N_POINTS = 16
DTYPE = torch.float64
TARGET_RAW = 0.8
TARGET_HYPOTHESIS = 300.0


# -- the property, batched (torch) ---------------------------------------------------------------
def radial(p: torch.Tensor) -> torch.Tensor:
    return p * torch.tanh(p.norm(dim=-1, keepdim=True))


def rotation(theta: float, dtype: torch.dtype, device: str) -> torch.Tensor:
    c, s = math.cos(theta), math.sin(theta)
    return torch.tensor([[c, -s], [s, c]], dtype=dtype, device=device)


def violation(x: torch.Tensor, R: torch.Tensor) -> torch.Tensor:
    lhs, rhs = radial(x @ R.T), radial(x) @ R.T
    return (lhs - rhs).norm(dim=(-1, -2)) / (1 + rhs.norm(dim=(-1, -2)))


def rotation_equivariance(*, generator, batch, dtype, device, n, theta):
    """The property as ``falsify`` takes it: ``batch`` violations for one draw of (n, theta)."""
    x = torch.randn(batch, n, 2, generator=generator, dtype=dtype, device=device)
    return violation(x, rotation(theta, dtype, device))


THETA = st.floats(-math.pi, math.pi)


# -- the four ways --------------------------------------------------------------------------------
def run_hypothesis(examples: int, n: int) -> int:
    """A plain property test: one input per example, numpy, hypothesis draws everything."""

    def f(p: np.ndarray) -> np.ndarray:
        return p * np.tanh(np.linalg.norm(p, axis=-1, keepdims=True))

    @settings(max_examples=examples, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(x=hnp.arrays(np.float64, (n, 2), elements=st.floats(-10, 10)), theta=THETA)
    def test(x, theta):
        c, s = math.cos(theta), math.sin(theta)
        R = np.array([[c, -s], [s, c]])
        lhs, rhs = f(x @ R.T), f(x) @ R.T
        assert np.linalg.norm(lhs - rhs) <= 1e-8 * (1 + np.linalg.norm(rhs))

    test()
    return examples


def run_raw(examples: int, batch: int, n: int, device: str) -> int:
    """The batched op alone, in a loop: the practical limit."""
    rng = random.Random(0)
    g = torch.Generator(device=device)
    worst = 0.0
    for _ in range(examples):
        theta = rng.uniform(-math.pi, math.pi)
        g.manual_seed(rng.getrandbits(32))
        with torch.no_grad():
            v = rotation_equivariance(generator=g, batch=batch, dtype=DTYPE, device=device,
                                      n=n, theta=theta)
        worst = max(worst, float(v.max()))
    assert worst < 1e-8
    return examples * batch


def run_falsify(examples: int, batch: int, n: int, device: str) -> int:
    params = {"n": st.just(n), "theta": THETA}
    ev = falsify(rotation_equivariance, params, budget=examples, batch=batch, dtype=DTYPE,
                 device=device, seed=0)
    assert ev.verdict.value == "SUPPORTED", ev.summary
    return ev.numbers["inputs_tried"]


def run_check_equivariance(examples: int, batch: int, n: int, device: str) -> int:
    def sample_input(*, generator, batch, dtype, device, n):
        return torch.randn(batch, n, 2, generator=generator, dtype=dtype, device=device)

    def act(theta, x):
        return x @ rotation(theta, x.dtype, str(x.device)).T

    ev = check_equivariance(radial, act, act, sample_input, THETA, params={"n": st.just(n)},
                            budget=examples, batch=batch, dtype=DTYPE, device=device, seed=0)
    assert ev.verdict.value == "SUPPORTED", ev.summary
    return ev.numbers["inputs_tried"]


def run_engine(examples: int) -> int:
    """falsify's hypothesis test (same settings and strategies) with an empty property."""

    @hypothesis_seed(0)
    @settings(max_examples=examples, database=None, deadline=None, verbosity=Verbosity.quiet,
              phases=[Phase.generate, Phase.target, Phase.shrink],
              suppress_health_check=list(HealthCheck), report_multiple_bugs=True,
              print_blob=False)
    @given(drawn=st.fixed_dictionaries({"n": st.just(N_POINTS), "theta": THETA}),
           torch_seed=st.integers(0, 2**32 - 1))
    def test(drawn, torch_seed):
        target(0.0, label="worst violation")

    test()
    return examples


def rate(fn, *args, clock=time.process_time) -> float:
    """Inputs per second of ``clock``. On CPU, per CPU-second of this process (torch runs on
    one thread): on a shared machine CPU time is what the work costs, where wall time also
    counts the other tenants. On CUDA, per wall second (the GPU's time is not this process's
    CPU time; every way ends its batches with a reduction read back to the host, which
    synchronises)."""
    t0 = clock()
    n = fn(*args)
    return n / (clock() - t0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--examples", type=int, default=200, help="batches per batched measurement")
    ap.add_argument("--batch", type=int, nargs="+", default=[1024, 4096, 8192])
    ap.add_argument("--hypothesis-examples", type=int, default=2000)
    ap.add_argument("--repeat", type=int, default=3, help="interleaved rounds; the best counts")
    ap.add_argument("--n", type=int, default=N_POINTS, help="points per input")
    ap.add_argument("--device", default="cpu")
    args = ap.parse_args()
    torch.set_num_threads(1)  # one core each: the shared machine, and a fair comparison
    dev = args.device
    clock = time.perf_counter if dev.startswith("cuda") else time.process_time
    for fn in (run_raw, run_falsify, run_check_equivariance):  # warm-up
        fn(3, 8, args.n, dev)
    run_hypothesis(20, args.n)
    best: dict[str, float] = {}
    for _ in range(args.repeat):  # interleaved, so load changes hit every way alike
        key = "hypothesis"
        best[key] = max(best.get(key, 0.0), rate(run_hypothesis, args.hypothesis_examples,
                                                     args.n))
        best["engine"] = max(best.get("engine", 0.0), rate(run_engine, args.examples))
        for b in args.batch:
            for name, fn in (("raw", run_raw), ("falsify", run_falsify),
                             ("check_equivariance", run_check_equivariance)):
                key = f"{name}@{b}"
                best[key] = max(best.get(key, 0.0), rate(fn, args.examples, b, args.n, dev,
                                                           clock=clock))
    rows = []
    hyp, engine_ms = best["hypothesis"], 1000 / best["engine"]
    print(f"load average before/after: {LOAD0} / {os.getloadavg()}")
    print(f"{'way':<28}{'inputs/s':>14}{'/ raw':>9}{'/ hypothesis':>14}")
    print(f"{'hypothesis (1 per example)':<28}{hyp:14.0f}{'':>9}{1.0:14.1f}")
    print(f"hypothesis engine alone: {engine_ms:.3f} ms (CPU) per example")
    for b in args.batch:
        raw = best[f"raw@{b}"]
        raw_ms = 1000 * b / raw
        print(f"  batch {b}: raw op {raw_ms:.3f} ms per batch; raw / (raw + engine) = "
              f"{raw_ms / (raw_ms + engine_ms):.2f}")
        for name in ("raw", "falsify", "check_equivariance"):
            r = best[f"{name}@{b}"]
            rows.append({"way": name, "batch": b, "inputs_per_s": r, "vs_raw": r / raw,
                         "vs_hypothesis": r / hyp})
            print(f"{name + f' (batch {b})':<28}{r:14.0f}{r / raw:9.2f}{r / hyp:14.0f}")
    for row in rows:
        if row["way"] != "raw":
            ok = row["vs_raw"] >= TARGET_RAW and row["vs_hypothesis"] >= TARGET_HYPOTHESIS
            print(f"{row['way']} batch {row['batch']}: "
                  f"{'meets' if ok else 'MISSES'} the targets (>= {TARGET_RAW:.0%} of raw, "
                  f">= {TARGET_HYPOTHESIS:g}x hypothesis)")
    path = save("anchor_falsify", {
        "hypothesis_inputs_per_s": hyp, "engine_ms_per_example": engine_ms, "rows": rows,
        "device": dev, "dtype": str(DTYPE),
        "clock": "wall" if clock is time.perf_counter else "process CPU",
        "examples": args.examples, "n": args.n, "load_average": [LOAD0, os.getloadavg()],
    })
    print(f"saved {path}")


LOAD0 = os.getloadavg()

if __name__ == "__main__":
    main()

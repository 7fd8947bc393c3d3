"""``check_equivariance`` against e3nn's own test and against the same check as one raw op.

The module is an e3nn ``FullyConnectedTensorProduct`` on ``8x0e+8x1o+4x2e`` (both inputs and
the output; 3264 weights), in float64, and the group O(3). Three ways check that it is
equivariant, timed in one run, interleaved:

- *e3nn*: ``e3nn.util.test.assert_equivariant(tp, args_in=[x1, x2])`` with a batch of inputs:
  one random rotation and one rotoinversion, each applied to the whole batch (``2 * batch``
  (g, x) pairs per call); its error is the largest componentwise absolute difference;
- *raw*: the same check written as one batched torch op in a loop (a random O(3) element per
  batch, Wigner matrices from e3nn, the relative gap ``||f(g.x) - g.f(x)|| / max(..)`` per
  input, reduced to its worst);
- *check_equivariance*: ``verify.numeric.check_equivariance`` with the group element drawn
  by hypothesis (a unit quaternion and a parity), shared by the batch like e3nn's.

Reports (g, x) pairs per CPU-second (per wall second with ``--device cuda``) and the float64
error floor each way sees (e3nn: absolute; raw and check_equivariance: relative, and in units
of eps). Target: check_equivariance >= 80% of raw.

e3nn is not a dependency of verify: install it into a separate benchmark environment, e.g.

    python -m venv /tmp/bench-e3nn
    echo "$PWD/.venv/lib/python3.11/site-packages" > \\
        /tmp/bench-e3nn/lib/python3.11/site-packages/verify-venv.pth
    /tmp/bench-e3nn/bin/pip install --no-deps -e . e3nn==0.6.0 opt_einsum opt_einsum_fx
    /tmp/bench-e3nn/bin/python benchmarks/bench_anchor_e3nn.py

Without e3nn the script says so and exits with status 0.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import hypothesis.strategies as st
import torch
from _common import save

from verify.numeric import check_equivariance

IRREPS = "8x0e+8x1o+4x2e"
TARGET_RAW = 0.8

try:
    from e3nn import o3
    from e3nn.util.test import assert_equivariant
except ImportError:  # pragma: no cover - the usual case outside the benchmark environment
    o3 = None


class Pair(torch.nn.Module):
    """``tp(x[:, :d], x[:, d:])``: the two-input tensor product as a map of one input, so
    ``check_equivariance`` converts it (and its weights) to each dtype it searches in."""

    def __init__(self, tp: torch.nn.Module, d: int) -> None:
        super().__init__()
        self.tp, self.d = tp, d

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.tp(x[:, : self.d], x[:, self.d:])


def quaternion_matrix(q: tuple[float, float, float, float], parity: int,
                      dtype: torch.dtype) -> torch.Tensor:
    """The O(3) element ``(-1)^parity R(q)`` for a (not necessarily unit) quaternion."""
    w, x, y, z = (torch.tensor(v, dtype=dtype) for v in q)
    n = torch.sqrt(w * w + x * x + y * y + z * z)
    w, x, y, z = w / n, x / n, y / n, z / n
    R = torch.stack([
        torch.stack([1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)]),
        torch.stack([2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)]),
        torch.stack([2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]),
    ])
    return R * (-1) ** parity


#: An O(3) element for hypothesis: a quaternion away from 0, and a parity.
GROUP = st.tuples(
    st.tuples(*[st.floats(-1, 1) for _ in range(4)]).filter(
        lambda q: sum(v * v for v in q) > 1e-2),
    st.integers(0, 1),
)


def build(dtype: torch.dtype, device: str):
    torch.manual_seed(0)
    ir = o3.Irreps(IRREPS)
    tp = o3.FullyConnectedTensorProduct(ir, ir, ir).to(dtype=dtype, device=device).eval()
    return ir, tp


def act_on(ir, R: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    """``D(R) x`` for each row of ``x`` (one element ``R``, or one per row)."""
    D = ir.D_from_matrix(R.cpu()).to(dtype=x.dtype, device=x.device)
    return x @ D.transpose(-1, -2) if D.dim() == 2 else torch.einsum("bij,bj->bi", D, x)


def run_e3nn(calls: int, batch: int, ir, tp, device: str) -> tuple[int, list[float]]:
    worst = []
    for _ in range(calls):
        x1, x2 = (ir.randn(batch, -1, dtype=torch.float64, device=device) for _ in range(2))
        errors = assert_equivariant(tp, args_in=[x1, x2])
        worst.append(max(float(e.max()) for e in errors.values()))
    return calls * 2 * batch, worst


def run_raw(calls: int, batch: int, ir, tp, device: str) -> tuple[int, list[float]]:
    g = torch.Generator().manual_seed(0)
    f, d = Pair(tp, ir.dim), ir.dim
    worst = []
    for _ in range(calls):
        R = o3.rand_matrix(dtype=torch.float64) * (-1) ** int(torch.randint(2, (), generator=g))
        x = torch.randn(batch, 2 * d, generator=g, dtype=torch.float64).to(device)
        with torch.no_grad():
            gx = torch.cat([act_on(ir, R, x[:, :d]), act_on(ir, R, x[:, d:])], dim=1)
            a, b = f(gx), act_on(ir, R, f(x))
        v = (a - b).norm(dim=1) / torch.maximum(a.norm(dim=1), b.norm(dim=1))
        worst.append(float(v.max()))
    return calls * batch, worst


def run_check(calls: int, batch: int, ir, tp, device: str) -> tuple[int, list[float]]:
    d = ir.dim

    def act_in(g, x):
        R = quaternion_matrix(*g, x.dtype)
        return torch.cat([act_on(ir, R, x[:, :d]), act_on(ir, R, x[:, d:])], dim=1)

    def act_out(g, y):
        return act_on(ir, quaternion_matrix(*g, y.dtype), y)

    def sample_input(*, generator, batch, dtype, device):
        return torch.randn(batch, 2 * d, generator=generator, dtype=dtype, device=device)

    ev = check_equivariance(Pair(tp, d).eval(), act_in, act_out, sample_input, GROUP,
                            budget=calls, batch=batch, dtype=torch.float64, device=device, seed=0)
    assert ev.verdict.value == "SUPPORTED", ev.summary
    per_example = [v * ev.numbers["eps"] for v in ev.figures[0]["values"]]  # stored in eps
    return ev.numbers["inputs_tried"], per_example


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--calls", type=int, default=30, help="batches (e3nn calls) per measurement")
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--repeat", type=int, default=3, help="interleaved rounds; the best counts")
    ap.add_argument("--device", default="cpu")
    args = ap.parse_args()
    if o3 is None:
        print("e3nn is not installed: skipping (install e3nn==0.6.0 into a separate benchmark "
              "environment, see this script's docstring)")
        return
    torch.set_num_threads(1)
    # e3nn builds its Wigner matrices in torch's default dtype, whatever the dtype of the
    # rotation: with float32 there, every float64 check sees errors of ~1e-7
    torch.set_default_dtype(torch.float64)
    load0 = os.getloadavg()
    dev = args.device
    # on CUDA the GPU's time is not this process's CPU time: wall seconds there (each way
    # reads its worst error back to the host per batch, which synchronises)
    clock = time.perf_counter if dev.startswith("cuda") else time.process_time
    unit = "wall-s" if dev.startswith("cuda") else "CPU-s"
    ir, tp = build(torch.float64, dev)
    ways = {"e3nn": run_e3nn, "raw": run_raw, "check_equivariance": run_check}
    for fn in ways.values():  # warm-up
        fn(1, 4, ir, tp, dev)
    best: dict[str, float] = {}
    floor: dict[str, list[float]] = {}
    for _ in range(args.repeat):
        for name, fn in ways.items():
            t0 = clock()
            pairs, worst = fn(args.calls, args.batch, ir, tp, dev)
            best[name] = max(best.get(name, 0.0), pairs / (clock() - t0))
            floor.setdefault(name, []).extend(worst)
    eps = torch.finfo(torch.float64).eps
    print(f"load average before/after: {load0} / {os.getloadavg()}")
    print(f"FullyConnectedTensorProduct {IRREPS} (x2 -> same), float64, batch {args.batch}, "
          f"device {dev}")
    print("float64 error floor: the worst error of a batch, median and max over the batches "
          "(e3nn: absolute, componentwise; raw and check_equivariance: relative)")
    print(f"{'way':<20}{'pairs/' + unit:>13}{'/ raw':>8}{'/ e3nn':>8}{'median':>10}{'max':>10}")
    rows = []
    for name in ways:
        r = best[name]
        med, top = statistics.median(floor[name]), max(floor[name])
        rows.append({"way": name, "pairs_per_s": r, "vs_raw": r / best["raw"],
                     "vs_e3nn": r / best["e3nn"], "error_median": med, "error_max": top,
                     "error_kind": "abs" if name == "e3nn" else "rel",
                     "median_in_eps": med / eps, "max_in_eps": top / eps})
        print(f"{name:<20}{r:13.0f}{r / best['raw']:8.2f}{r / best['e3nn']:8.2f}"
              f"{med:10.1e}{top:10.1e}")
    ratio = best["check_equivariance"] / best["raw"]
    print(f"check_equivariance: {ratio:.0%} of raw "
          f"({'meets' if ratio >= TARGET_RAW else 'MISSES'} the {TARGET_RAW:.0%} target)")
    path = save("anchor_e3nn", {"rows": rows, "batch": args.batch, "calls": args.calls,
                                "irreps": IRREPS, "device": dev, "clock": unit,
                                "load_average": [load0, os.getloadavg()]})
    print(f"saved {path}")


if __name__ == "__main__":
    main()

"""Throughput of ``verify.numeric.falsify``: inputs checked per second against the batch size.

The property is the rotation equivariance of a radial map in the plane (exactly equivariant,
so the search runs its whole budget). One hypothesis example evaluates ``batch`` inputs as
one tensor operation; the ratio to ``batch=1`` shows what batching buys over one input per
example. Runs on CPU, and on CUDA too when present.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import hypothesis.strategies as st
import torch
from _common import save

from verify.numeric import falsify


def rotation_equivariance(*, generator, batch, dtype, device, n, theta):
    x = torch.randn(batch, n, 2, generator=generator, dtype=dtype, device=device)
    c, s = torch.cos(torch.tensor(theta, dtype=dtype)), torch.sin(torch.tensor(theta, dtype=dtype))
    R = torch.stack([torch.stack([c, -s]), torch.stack([s, c])]).to(device)

    def f(p):
        r = p.norm(dim=-1, keepdim=True)
        return p * torch.tanh(r)

    lhs, rhs = f(x @ R.T), f(x) @ R.T
    return (lhs - rhs).norm(dim=(-1, -2)) / (1 + rhs.norm(dim=(-1, -2)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--budget", type=int, default=30, help="hypothesis examples per measurement")
    ap.add_argument("--batches", type=int, nargs="+", default=[1, 64, 1024, 8192])
    args = ap.parse_args()
    devices = ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])
    params = {"n": st.integers(1, 32), "theta": st.floats(-3.14, 3.14)}
    rows = []
    for device in devices:  # warm-up: first-call costs (kernels, hypothesis) are not throughput
        falsify(
            rotation_equivariance, params, budget=3, batch=8, dtype=torch.float32, device=device
        )
    for device in devices:
        base = None
        for batch in args.batches:
            t0 = time.perf_counter()
            ev = falsify(
                rotation_equivariance,
                params,
                budget=args.budget,
                batch=batch,
                dtype=torch.float32,
                device=device,
                seed=0,
            )
            dt = time.perf_counter() - t0
            rate = args.budget * batch / dt
            base = base or rate
            rows.append(
                {
                    "device": device,
                    "batch": batch,
                    "seconds": dt,
                    "inputs_per_s": rate,
                    "speedup_vs_batch1": rate / base,
                    "verdict": ev.verdict.value,
                }
            )
            print(
                f"{device:>5} batch {batch:>6}: {dt:7.2f} s, {rate:12.0f} inputs/s, "
                f"x{rate / base:8.1f} vs batch {args.batches[0]}  ({ev.verdict.value})"
            )
    print(f"saved {save('falsify', {'budget': args.budget, 'rows': rows})}")


if __name__ == "__main__":
    main()

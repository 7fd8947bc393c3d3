"""One training step of the gda sticky task: blocked closed form against the full-matrix one.

A step of Sec. 7.2 evaluates the paper's closed-form gradients (13)-(32) for every batched run
(``R`` runs, causal head, ``T`` positions). ``closed_form_grads`` materialises the ``(R, T, T)``
score, weight and routing-gradient matrices; ``blocked_head_step`` processes ``block`` query
rows at a time and skips the masked half. Both compute the same numbers
(tests/gda/test_gda_blocked.py);
this script reports their time ratio per block size, measured in one run, and the agreement.
Runs on CPU, and on CUDA too when present.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import torch
from _common import save, timeit

from numerics.gda.model.attention_head import closed_form_grads, head_forward
from numerics.gda.model.blocked import blocked_head_step


def _instance(R: int, T: int, device: str):
    g = torch.Generator().manual_seed(0)
    X = torch.randn(R, T, 20, generator=g)
    y = torch.randint(0, 8, (R, T), generator=g)
    shapes = ((10, 20), (10, 20), (15, 20), (8, 15))
    params = [torch.randn(R, *s, generator=g) * 0.1 for s in shapes] + [torch.zeros(R, 8)]
    return X.to(device), [p.to(device) for p in params], y.to(device)


def measure(device: str, runs: int, T: int, blocks: list[int], repeat: int) -> list[dict]:
    """Median times of the full and the blocked step on one device, and their agreement."""
    X, params, y = _instance(runs, T, device)
    sync = torch.cuda.synchronize if device == "cuda" else (lambda: None)

    def full():
        with torch.no_grad():
            cf = closed_form_grads(head_forward(X, *params, y, causal=True, reduction="mean"))
        sync()
        return cf

    def blocked(block: int):
        st = blocked_head_step(X, *params, y, causal=True, reduction="mean", block=block)
        sync()
        return st

    ref = full()  # also the warm-up
    base = timeit(full, repeat)
    rows = [{"device": device, "method": "full", "block": None, **base, "ratio_vs_full": 1.0}]
    print(f"{device:>5} full matrices      : median {base['median_s']:.3f} s")
    for block in blocks:
        got = blocked(block).grads()
        t = timeit(lambda block=block: blocked(block), repeat)
        err = max(
            float((a - b).abs().max() / b.abs().max().clamp_min(1e-30))
            for a, b in zip(got, (ref.dW_Q, ref.dW_K, ref.dW_V, ref.dW_O, ref.db_O), strict=True)
        )
        ratio = base["median_s"] / t["median_s"]
        rows.append(
            {
                "device": device,
                "method": "blocked",
                "block": block,
                **t,
                "ratio_vs_full": ratio,
                "max_rel_diff_vs_full": err,
            }
        )
        print(
            f"{device:>5} blocked, {block:>4} rows: median {t['median_s']:.3f} s, "
            f"x{ratio:5.1f} faster, "
            f"max rel. diff {err:.1e} ({X.dtype})"
        )
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument(
        "--runs",
        type=int,
        default=10,
        help="batched training runs (Table 1: 2 protocols x 5 seeds)",
    )
    ap.add_argument(
        "--T",
        type=int,
        nargs="+",
        default=[100, 2000],
        help="sequence lengths (quick profile 100, the paper's 2000)",
    )
    ap.add_argument("--blocks", type=int, nargs="+", default=[32, 64, 128, 256])
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    devices = ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])
    rows = []
    for device in devices:
        for T in args.T:
            print(f"T = {T}, {args.runs} runs")
            rows += [{"T": T, **r} for r in measure(device, args.runs, T, args.blocks, args.repeat)]
    print(f"saved {save('gda_step', {'runs': args.runs, 'rows': rows})}")


if __name__ == "__main__":
    main()

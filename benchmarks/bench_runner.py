"""Per-claim cost of running each claim in a fresh fork of a template, against in-process runs.

Registers ``2 * --claims`` trivial claims in a temporary module and runs ``--claims`` and then
all of them with ``jobs=0`` (in-process, no isolation) and with ``jobs=1`` and ``jobs=2``
(templates that fork one child per claim). Template start-up (importing torch, sympy and the
claims) is paid once per slot; the per-claim figures leave it out:

- *gap*: the median time between consecutive results once the templates are up;
- *CPU*: the CPU time (this process, its templates and their claim children) of the longer
  run minus the shorter one, per extra claim, which a busy machine inflates far less than
  wall time.

The isolation *overhead* is each figure minus the in-process one (fork, output files, pipe,
reaping and sweeping). Target: at most 50 ms per claim.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import textwrap
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _common import save

import verify

MODULE = "bench_trivial_claims"
TARGET_MS = 50.0


def _write_claims(folder: Path, n: int) -> None:
    (folder / f"{MODULE}.py").write_text(textwrap.dedent(f"""
        import verify
        for i in range({n}):
            verify.claim(f"bench.c{{i}}", paper="bench", where="-", statement="-",
                         kind="property")(lambda ctx: verify.Evidence("SUPPORTED", "ok"))
    """))


def _cpu() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def measure(jobs: int, n: int, out: Path) -> dict[str, float]:
    """Run ``n`` and ``2 n`` claims: the median gap between results, and the wall and CPU
    time per claim of the difference between the two runs."""
    row: dict[str, float] = {}
    for size in (n, 2 * n):
        stamps: list[float] = []
        t0, c0 = time.perf_counter(), _cpu()
        verify.run([f"bench.c{i}" for i in range(size)], modules=[MODULE], jobs=jobs,
                   results_path=out, on_result=lambda r, s=stamps: s.append(time.perf_counter()))
        row[f"wall_{size}"], row[f"cpu_{size}"] = time.perf_counter() - t0, _cpu() - c0
        row["first_s"] = stamps[0] - t0
    gaps = [b - a for a, b in zip(stamps, stamps[1:], strict=False)]
    row["gap_ms"] = 1000 * statistics.median(gaps)
    row["wall_ms"] = 1000 * (row[f"wall_{2 * n}"] - row[f"wall_{n}"]) / n
    row["cpu_ms"] = 1000 * (row[f"cpu_{2 * n}"] - row[f"cpu_{n}"]) / n
    return row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--claims", type=int, default=50)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp())
    _write_claims(tmp, 2 * args.claims)
    sys.path.insert(0, str(tmp))
    out = tmp / "r.jsonl"
    verify.run("bench.*", modules=[MODULE], jobs=0, results_path=out)  # warm-up: imports
    rows: dict[int, dict[str, float]] = {}
    for jobs in (0, 1, 2):
        runs = [measure(jobs, args.claims, out) for _ in range(args.repeat)]
        rows[jobs] = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
    print(f"{args.claims} and {2 * args.claims} trivial claims, median of {args.repeat} runs; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"{'jobs':>4} {'start-up s':>11} {'gap ms':>8} {'wall ms':>8} {'CPU ms':>8} "
          f"{'overhead: gap':>14} {'wall':>6} {'CPU':>6}")
    base = rows[0]
    for jobs, r in rows.items():
        for k in ("gap", "wall", "cpu"):
            r[f"overhead_{k}_ms"] = r[f"{k}_ms"] - base[f"{k}_ms"]
        print(f"{jobs:>4} {r['first_s']:>11.2f} {r['gap_ms']:>8.2f} {r['wall_ms']:>8.2f} "
              f"{r['cpu_ms']:>8.2f} {r['overhead_gap_ms']:>14.2f} {r['overhead_wall_ms']:>6.2f} "
              f"{r['overhead_cpu_ms']:>6.2f}")
    one = rows[1]
    verdict = "within" if one["overhead_gap_ms"] <= TARGET_MS else "OVER"
    print(f"isolation overhead per claim (jobs=1): {one['overhead_gap_ms']:.1f} ms between "
          f"results, {one['overhead_cpu_ms']:.1f} ms CPU; {verdict} the {TARGET_MS:g} ms target")
    path = save("runner", {"claims": args.claims, "repeat": args.repeat, "rows": rows,
                           "loadavg": os.getloadavg()})
    print(f"saved {path}")


if __name__ == "__main__":
    main()

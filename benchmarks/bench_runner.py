"""Per-claim cost of running each claim in a fresh fork of a template, against in-process runs.

Registers ``--claims`` trivial claims in a temporary module and runs them with ``jobs=0``
(in-process, no isolation) and with ``jobs=1`` and ``jobs=2`` (templates that fork one child
per claim). Template start-up (importing torch, sympy and the claims) is paid once per slot
and reported apart; the per-claim figure is the median time between consecutive results
once the templates are up, and the *overhead* is that minus the in-process time per claim
(fork, output files, pipe, reaping and sweeping). Target: at most 50 ms per claim.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import textwrap
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _common import save  # noqa: E402

import verify  # noqa: E402

MODULE = "bench_trivial_claims"
TARGET_MS = 50.0


def _write_claims(folder: Path, n: int) -> None:
    (folder / f"{MODULE}.py").write_text(textwrap.dedent(f"""
        import verify
        for i in range({n}):
            verify.claim(f"bench.c{{i}}", paper="bench", where="-", statement="-",
                         kind="property")(lambda ctx: verify.Evidence("SUPPORTED", "ok"))
    """))


def measure(jobs: int, out: Path) -> dict[str, float]:
    """One run: wall time, time to the first result, and the median gap between results."""
    stamps: list[float] = []
    t0 = time.perf_counter()
    verify.run("bench.*", modules=[MODULE], jobs=jobs, results_path=out,
               on_result=lambda r: stamps.append(time.perf_counter()))
    wall = time.perf_counter() - t0
    gaps = [b - a for a, b in zip(stamps, stamps[1:], strict=False)]
    return {"wall_s": wall, "first_s": stamps[0] - t0, "per_claim_s": statistics.median(gaps)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--claims", type=int, default=50)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp())
    _write_claims(tmp, args.claims)
    sys.path.insert(0, str(tmp))
    out = tmp / "r.jsonl"
    verify.run("bench.*", modules=[MODULE], jobs=0, results_path=out)  # warm-up: imports
    rows: dict[int, dict[str, float]] = {}
    for jobs in (0, 1, 2):
        runs = [measure(jobs, out) for _ in range(args.repeat)]
        rows[jobs] = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
    base = rows[0]["per_claim_s"]
    print(f"{args.claims} trivial claims, median of {args.repeat} runs")
    print(f"{'jobs':>4} {'wall s':>8} {'start-up s':>11} {'per claim ms':>13} {'overhead ms':>12}")
    for jobs, r in rows.items():
        r["overhead_ms"] = 1000 * (r["per_claim_s"] - base)
        print(f"{jobs:>4} {r['wall_s']:>8.2f} {r['first_s']:>11.2f} "
              f"{1000 * r['per_claim_s']:>13.2f} {r['overhead_ms']:>12.2f}")
    worst = rows[1]["overhead_ms"]
    verdict = "within" if worst <= TARGET_MS else "OVER"
    print(f"isolation overhead per claim (jobs=1): {worst:.1f} ms, {verdict} the {TARGET_MS:g} ms "
          "target")
    path = save("runner", {"claims": args.claims, "repeat": args.repeat, "rows": rows})
    print(f"saved {path}")


if __name__ == "__main__":
    main()

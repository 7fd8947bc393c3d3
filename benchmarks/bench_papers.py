"""Wall time of each paper's claims in one profile, claim by claim (quick target: under 60 s
on 2 cores; deep: where the time goes).

Runs ``verify.run`` per paper (or per ``--claim`` glob) with the given jobs and reports the
wall time, the sum of the claims' own times (what parallelism divides), their ratio, and the
slowest ten claims; the JSON record keeps every claim's time. Trained models are memoised on
disk (``verify.memo``), so by default each paper runs with a fresh, empty cache: the figures
include the training, as a first run on a new machine pays it. ``--warm DIR`` reuses a cache
folder instead (a re-run's cost).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _common import save

import verify
from verify.registry import REGISTRY, discover


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--profile", default="quick")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--paper", action="append", help="paper key (repeatable); default: all")
    ap.add_argument("--claim", action="append",
                    help="claim id glob (repeatable); measured as one group instead of per paper")
    ap.add_argument("--warm", metavar="DIR", help="reuse this cache folder (default: empty)")
    ap.add_argument("--timeout", type=float, help="seconds per claim (default: the claims')")
    args = ap.parse_args()
    discover()
    if args.claim:
        groups = [("+".join(args.claim), {"select": args.claim})]
    else:
        papers = args.paper or sorted({c.paper for c in REGISTRY})
        groups = [(key, {"paper": key}) for key in papers]
    rows = []
    for name, sel in groups:
        work = Path(tempfile.mkdtemp())
        os.environ["VERIFY_CACHE_DIR"] = args.warm or str(work / "cache")
        t0 = time.perf_counter()
        res = verify.run(**sel, profile=args.profile, jobs=args.jobs, timeout=args.timeout,
                         results_path=work / "r.jsonl")
        wall = time.perf_counter() - t0
        total = sum(r.elapsed_s for r in res)
        slow = sorted(res, key=lambda r: -r.elapsed_s)[:10]
        rows.append(
            {
                "group": name,
                "claims": len(res),
                "cache": "warm" if args.warm else "cold",
                "wall_s": wall,
                "claims_s": total,
                "slowest": [(r.id, round(r.elapsed_s, 2), r.verdict.value) for r in slow],
                "times": {r.id: round(r.elapsed_s, 2) for r in res},
            }
        )
        print(f"{name}: {len(res)} claims, wall {wall:.1f} s, claims {total:.1f} s "
              f"(x{total / wall:.2f}); slowest:")
        for cid, t, v in rows[-1]["slowest"]:
            print(f"    {t:8.1f} s  {cid}  {v}")
    print(f"saved {save(f'papers_{args.profile}', {'jobs': args.jobs, 'rows': rows})}")


if __name__ == "__main__":
    main()

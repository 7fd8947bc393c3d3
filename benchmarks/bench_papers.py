"""Wall time of each paper's claims in one profile (target for quick: under 60 s on 2 cores).

Runs ``verify.run(paper=KEY)`` per paper with the given jobs and reports the wall time, the
sum of the claims' own times (what parallelism divides), their ratio, and the slowest claims.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _common import save  # noqa: E402

import verify  # noqa: E402
from verify.registry import REGISTRY, discover  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--profile", default="quick")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--paper", action="append")
    args = ap.parse_args()
    discover()
    papers = args.paper or sorted({c.paper for c in REGISTRY})
    rows = []
    for key in papers:
        out = Path(tempfile.mkdtemp()) / "r.jsonl"
        t0 = time.perf_counter()
        res = verify.run(paper=key, profile=args.profile, jobs=args.jobs, results_path=out)
        wall = time.perf_counter() - t0
        total = sum(r.elapsed_s for r in res)
        slow = sorted(res, key=lambda r: -r.elapsed_s)[:3]
        rows.append(
            {
                "paper": key,
                "claims": len(res),
                "wall_s": wall,
                "claims_s": total,
                "slowest": [(r.id, round(r.elapsed_s, 2)) for r in slow],
            }
        )
        print(
            f"{key:>6}: {len(res):3d} claims, wall {wall:6.1f} s, claims {total:6.1f} s "
            f"(x{total / wall:.2f}); slowest: "
            + ", ".join(f"{i} {t:.1f}s" for i, t in rows[-1]["slowest"])
        )
    print(f"saved {save(f'papers_{args.profile}', {'jobs': args.jobs, 'rows': rows})}")


if __name__ == "__main__":
    main()

"""Overhead of running claims in isolated worker processes, against in-process execution.

Registers ``--claims`` trivial claims in a temporary module, runs them with ``jobs=0``
(in-process, no isolation) and with ``jobs=1`` and ``jobs=2`` (spawned workers), and reports
the per-claim overhead and the ratios. Worker start-up (importing torch, sympy and the claims)
is paid once per worker, so the overhead per claim falls as the number of claims grows.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import textwrap
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _common import save, timeit  # noqa: E402

import verify  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--claims", type=int, default=40)
    ap.add_argument("--repeat", type=int, default=2)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp())
    (tmp / "bench_trivial_claims.py").write_text(textwrap.dedent(f"""
        import verify
        for i in range({args.claims}):
            verify.claim(f"bench.c{{i}}", paper="bench", where="-", statement="-",
                         kind="property")(lambda ctx: verify.Evidence("SUPPORTED", "ok"))
    """))
    sys.path.insert(0, str(tmp))
    out = tmp / "r.jsonl"
    verify.run("bench.*", modules=["bench_trivial_claims"], jobs=0, results_path=out)  # warm-up: imports
    rows = {}
    for jobs in (0, 1, 2):
        rows[jobs] = timeit(
            lambda jobs=jobs: verify.run("bench.*", modules=["bench_trivial_claims"], jobs=jobs,
                                         results_path=out),
            repeat=args.repeat,
        )
    base = rows[0]["median_s"]
    print(f"{args.claims} trivial claims")
    print(f"{'jobs':>6} {'median s':>10} {'per claim ms':>14} {'ratio to in-process':>20}")
    for jobs, r in rows.items():
        print(f"{jobs:>6} {r['median_s']:>10.3f} {1000 * r['median_s'] / args.claims:>14.2f} "
              f"{r['median_s'] / base:>20.1f}")
    path = save("runner", {"claims": args.claims, "rows": rows})
    print(f"saved {path}")


if __name__ == "__main__":
    main()

"""Start-up: ``verify list`` and one trivial claim end to end, against the bare imports.

Times, in fresh processes, interleaved over ``--repeat`` rounds (the median counts):

- *bare*: ``python -c "import torch, sympy, hypothesis"``, the floor any tool built on them
  pays;
- ``verify list`` (every claim: imports every paper module);
- ``verify list --claim ID`` (the modules that can hold ID only);
- ``verify run --claim ID`` with ``ID`` a trivial SymPy identity (default
  ``nfa.appc.thm12_scalar_grad``): discovery, a template process, the claim's fork, the
  results file and the table.

Reports wall time and CPU time (user + system, the process and its children: on a shared
machine the less noisy of the two) and each one's ratio to *bare*. Target: the trivial claim
end to end within 1.5x the bare import time.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _common import save  # noqa: E402

TARGET = 1.5
TRIVIAL = "nfa.appc.thm12_scalar_grad"


def timed(cmd: list[str], cwd: str) -> tuple[float, float]:
    """Wall and CPU seconds (user + system of the command and all its descendants)."""
    before = os.times()
    t0 = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.perf_counter() - t0
    after = os.times()
    cpu = (after.children_user - before.children_user) + (
        after.children_system - before.children_system)
    return wall, cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--claim", default=TRIVIAL, help="the trivial claim to run")
    args = ap.parse_args()
    py = sys.executable
    verify = [py, "-m", "verify"]
    cases = {
        "bare import torch, sympy, hypothesis": [py, "-c", "import torch, sympy, hypothesis"],
        "verify list": [*verify, "list", "--json"],
        f"verify list --claim {args.claim}": [*verify, "list", "--json", "--claim", args.claim],
        f"verify run --claim {args.claim}": [*verify, "run", "--quiet", "--claim", args.claim,
                                             "--json", "r.jsonl"],
    }
    load0 = os.getloadavg()
    times: dict[str, list[tuple[float, float]]] = {k: [] for k in cases}
    with tempfile.TemporaryDirectory() as tmp:
        for cmd in cases.values():  # warm-up: the page cache, .pyc files
            timed(cmd, tmp)
        for _ in range(args.repeat):
            for name, cmd in cases.items():
                times[name].append(timed(cmd, tmp))
    med = {k: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v))
           for k, v in times.items()}
    bare_wall, bare_cpu = med["bare import torch, sympy, hypothesis"]
    print(f"load average before/after: {load0} / {os.getloadavg()}")
    print(f"{'command':<52}{'wall':>8}{'x bare':>8}{'CPU':>8}{'x bare':>8}")
    rows = []
    for name, (wall, cpu) in med.items():
        rows.append({"command": name, "wall_s": wall, "cpu_s": cpu,
                     "wall_vs_bare": wall / bare_wall, "cpu_vs_bare": cpu / bare_cpu})
        print(f"{name:<52}{wall:7.2f}s{wall / bare_wall:8.2f}{cpu:7.2f}s{cpu / bare_cpu:8.2f}")
    run = rows[-1]
    ok = run["wall_vs_bare"] <= TARGET
    print(f"trivial claim end to end: {run['wall_vs_bare']:.2f}x the bare import (wall), "
          f"{'meets' if ok else 'MISSES'} the {TARGET}x target")
    path = save("startup", {"rows": rows, "repeat": args.repeat, "claim": args.claim,
                            "load_average": [load0, os.getloadavg()]})
    print(f"saved {path}")


if __name__ == "__main__":
    main()

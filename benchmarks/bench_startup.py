"""Start-up: ``verify list`` and single claims end to end, against the bare imports, with the
claim index warm (verify/claim_index.py) and, in the same run, without it.

Times, in fresh processes, interleaved over ``--repeat`` rounds (the median counts):

- *bare*: ``python -c "import torch, sympy, hypothesis"``, the floor any tool built on them
  pays;
- ``verify list`` and ``verify list --claim ID``;
- ``verify run --claim ID`` for a symbolic and a numeric claim of each paper (the fastest of
  each in the committed quick results, ``docs/report/results.jsonl``) and two
  whose modules the index must find (``gda.value_grad``, whose id does not name its
  modules, and ``nfa.ag.gd_step_mapping``);
- those two claims and ``verify list`` with ``VERIFY_INDEX_DIR=off`` too (every
  selection imports; ``--off-all`` for every claim), and ``verify list``
  once with an empty index (the one-time cost of building it).

For each run: wall and CPU time (user + system of the command and its descendants), the
claim's own time (``elapsed_s`` in its record: its checks, in the worker), and the start-up,
wall minus the claim's own time. Targets: ``verify list`` within 1 s; a single
claim's start-up within 1.2x the bare import.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _common import save

ROOT = Path(__file__).resolve().parent.parent
LIST_TARGET_S = 1.0
RUN_TARGET = 1.2
ISSUE_CLAIMS = ["gda.value_grad", "nfa.ag.gd_step_mapping"]


def pick_claims(results: Path, limit_s: float = 1.0) -> list[str]:
    """Per paper, the fastest symbolic claim (symbolic evidence only, checks in ``proofs/``) and
    the fastest numeric one (numeric evidence, a check in ``numerics/``) of the committed quick
    results, then the issue's."""
    best: dict[tuple[str, str], tuple[float, str]] = {}
    for line in results.read_text().splitlines():
        r = json.loads(line)
        if r.get("profile") != "quick" or r.get("error") or not r.get("code"):
            continue
        methods = {e.get("method") for e in r.get("evidence", [])}
        if "numeric" in methods and any(c.startswith("numerics/") for c in r["code"]):
            kind = "numeric"
        elif methods == {"symbolic"} and all(c.startswith("proofs/") for c in r["code"]):
            kind = "symbolic"
        else:
            continue  # informal, experiment, certificate: neither of the two
        t = float(r.get("elapsed_s") or 0)
        key = (r["paper"], kind)
        if t <= limit_s and (key not in best or t < best[key][0]):
            best[key] = (t, r["id"])
    picked = [cid for _, (_, cid) in sorted(best.items())]
    return picked + [c for c in ISSUE_CLAIMS if c not in picked]


def timed(cmd: list[str], cwd: str, env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds (user + system of the command and all its descendants)."""
    before = os.times()
    t0 = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, env=env, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.PIPE)
    wall = time.perf_counter() - t0
    after = os.times()
    cpu = (after.children_user - before.children_user) + (
        after.children_system - before.children_system)
    return wall, cpu


def own_time(path: Path) -> float:
    """The claim's own time in a one-claim results file."""
    return float(json.loads(path.read_text().splitlines()[0])["elapsed_s"])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--claim", action="append", help="claims to run (default: picked)")
    ap.add_argument("--no-off", action="store_true", help="skip the runs without the index")
    ap.add_argument("--off-all", action="store_true",
                    help="run every claim without the index too (default: the two above)")
    args = ap.parse_args()
    claims = args.claim or pick_claims(ROOT / "docs" / "report" / "results.jsonl")
    py = sys.executable
    verify = [py, "-m", "verify"]
    load0 = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        index = Path(tmp) / "index"
        on = dict(os.environ, VERIFY_INDEX_DIR=str(index), VERIFY_CACHE_DIR=str(Path(tmp) / "c"))
        off = dict(on, VERIFY_INDEX_DIR="off")
        cases: dict[str, tuple[list[str], dict[str, str], str | None]] = {
            "bare import torch, sympy, hypothesis": (
                [py, "-c", "import torch, sympy, hypothesis"], on, None),
            "verify list": ([*verify, "list", "--json"], on, None),
            f"verify list --claim {claims[0]}": ([*verify, "list", "--json", "--claim",
                                                  claims[0]], on, None),
        }
        for i, cid in enumerate(claims):
            out = str(Path(tmp) / f"r{i}.jsonl")
            cmd = [*verify, "run", "--quiet", "--jobs", "1", "--claim", cid, "--json", out]
            cases[f"run {cid}"] = (cmd, on, out)
            if not args.no_off and (args.off_all or cid in ISSUE_CLAIMS):
                out_off = str(Path(tmp) / f"off{i}.jsonl")
                cases[f"run {cid} (no index)"] = ([*cmd[:-1], out_off], off, out_off)
        if not args.no_off:
            cases["verify list (no index)"] = ([*verify, "list", "--json"], off, None)
        build_wall, build_cpu = timed([*verify, "list", "--json"], tmp, on)  # empty index
        for cmd, env, _ in cases.values():  # warm-up: the page cache, .pyc files
            timed(cmd, tmp, env)
        times: dict[str, list[tuple[float, float, float]]] = {k: [] for k in cases}
        for _ in range(args.repeat):
            for name, (cmd, env, out) in cases.items():
                wall, cpu = timed(cmd, tmp, env)
                times[name].append((wall, cpu, own_time(Path(out)) if out else 0.0))
    med = {k: tuple(statistics.median(x[i] for x in v) for i in range(3))
           for k, v in times.items()}
    bare_wall, bare_cpu, _ = med["bare import torch, sympy, hypothesis"]
    print(f"load average before/after: {load0} / {os.getloadavg()}")
    print(f"building the index (verify list, empty index): {build_wall:.2f} s wall, "
          f"{build_cpu:.2f} s CPU")
    head = (f"{'command':<58}{'wall':>7}{'x bare':>7}{'CPU':>7}{'x bare':>7}{'own':>7}"
            f"{'start':>7}{'x bare':>7}")
    print(head)
    rows = []
    for name, (wall, cpu, own) in med.items():
        start = wall - own
        rows.append({"command": name, "wall_s": wall, "cpu_s": cpu, "own_s": own,
                     "startup_s": start, "wall_vs_bare": wall / bare_wall,
                     "cpu_vs_bare": cpu / bare_cpu, "startup_vs_bare": start / bare_wall})
        print(f"{name:<58}{wall:6.2f}s{wall / bare_wall:7.2f}{cpu:6.2f}s{cpu / bare_cpu:7.2f}"
              f"{own:6.2f}s{start:6.2f}s{start / bare_wall:7.2f}")
    lst = med["verify list"][0]
    runs = [r for r in rows if r["command"].startswith("run ") and "no index" not in r["command"]]
    worst = max(r["startup_vs_bare"] for r in runs)
    print(f"verify list: {lst:.2f} s ({'meets' if lst <= LIST_TARGET_S else 'MISSES'} the "
          f"{LIST_TARGET_S:g} s target); worst single-claim start-up: {worst:.2f}x bare "
          f"({'meets' if worst <= RUN_TARGET else 'MISSES'} the {RUN_TARGET}x target)")
    path = save("startup", {"rows": rows, "repeat": args.repeat, "claims": claims,
                            "index_build": {"wall_s": build_wall, "cpu_s": build_cpu},
                            "load_average": [load0, os.getloadavg()]})
    print(f"saved {path}")


if __name__ == "__main__":
    main()

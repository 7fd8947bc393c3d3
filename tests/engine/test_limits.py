"""What bounds a claim, and what a claim may do within its bounds.

- PYTHONHASHSEED is fixed in every claim process, so a check that iterates a set of strings
  gives the same evidence in every run of the same seed;
- a claim may start processes (``multiprocessing``, a torch ``DataLoader`` with workers):
  they work, and they are killed when the claim ends;
- the memory limit bounds the claim's whole process tree, not each process alone; the text a
  record keeps is capped, so a huge summary cannot make a huge results line.
"""

from __future__ import annotations

import json
import sys
import textwrap
import time
from pathlib import Path

import pytest

import verify
from verify import Verdict

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs /proc")

CLAIMS = '''
import multiprocessing as mp
import os
import time

import verify
from verify import Evidence, Verdict


@verify.claim("lim.hash", paper="lim", where="l. 1", statement="x", kind="property")
def set_order(ctx):
    names = {f"symbol_{i}" for i in range(40)}
    return Evidence(Verdict.SUPPORTED, "order " + ",".join(names), numbers={"n": len(names)})


def _square(x):
    return x * x


@verify.claim("lim.pool", paper="lim", where="l. 2", statement="x", kind="property")
def uses_a_pool(ctx):
    with mp.get_context("fork").Pool(2) as pool:
        squares = pool.map(_square, range(6))
    return Evidence(Verdict.SUPPORTED, f"squares {squares}", numbers={"sum": sum(squares)})


@verify.claim("lim.spawn", paper="lim", where="l. 3", statement="x", kind="property")
def uses_spawn(ctx):
    proc = mp.get_context("spawn").Process(target=time.sleep, args=(0.1,))
    proc.start()
    proc.join()
    return Evidence(Verdict.SUPPORTED, f"exit {proc.exitcode}", numbers={"exit": proc.exitcode})


@verify.claim("lim.leaves", paper="lim", where="l. 4", statement="x", kind="property")
def leaves_a_child(ctx):
    proc = mp.get_context("fork").Process(target=time.sleep, args=(600,))
    proc.start()
    with open(os.environ["VERIFY_TEST_PIDFILE"], "w") as f:
        f.write(str(proc.pid))
    return Evidence(Verdict.SUPPORTED, "left a child", numbers={"pid": proc.pid})


def _hold(mib):
    block = b"x" * (mib << 20)  # touched: resident
    time.sleep(120)
    return len(block)


@verify.claim("lim.hog", paper="lim", where="l. 5", statement="x", kind="property",
              timeout=60)
def hogs_with_children(ctx):
    procs = [mp.get_context("fork").Process(target=_hold, args=(400,)) for _ in range(4)]
    for p in procs:
        p.start()
    for p in procs:
        p.join()
    return Evidence(Verdict.SUPPORTED, "held 1.6 GiB", numbers={"n": 4})


@verify.claim("lim.many", paper="lim", where="l. 7", statement="x", kind="property",
              timeout=60)
def many_children(ctx):
    procs = [mp.get_context("fork").Process(target=time.sleep, args=(30,)) for _ in range(6)]
    for p in procs:
        p.start()
    for p in procs:
        p.join()
    return Evidence(Verdict.SUPPORTED, "six children", numbers={"n": 6})


@verify.claim("lim.writes", paper="lim", where="l. 8", statement="x", kind="property")
def writes_a_big_file(ctx):
    with open(os.environ["VERIFY_TEST_BIGFILE"], "wb") as f:
        for _ in range(8):
            f.write(b"x" * (1 << 20))
    return Evidence(Verdict.SUPPORTED, "wrote 8 MiB", numbers={"n": 8})


@verify.claim("lim.loud", paper="lim", where="l. 6", statement="x", kind="property")
def huge_summary(ctx):
    return Evidence(Verdict.SUPPORTED, "y" * (5 << 20), numbers={"n": 1},
                    steps=["z" * (5 << 20)] * 3)
'''

TORCH_CLAIMS = '''
import torch
import verify
from verify import Evidence, Verdict


@verify.claim("limt.loader", paper="limt", where="l. 1", statement="x", kind="property")
def data_loader(ctx):
    data = torch.arange(8.0)
    loader = torch.utils.data.DataLoader(data, batch_size=2, num_workers=2)
    total = float(sum(batch.sum() for batch in loader))
    return Evidence(Verdict.SUPPORTED, f"sum {total}", numbers={"sum": total})
'''


@pytest.fixture(scope="module")
def claims(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("claims") / "lim_claims.py"
    path.write_text(textwrap.dedent(CLAIMS))
    return f"file:{path}"


def _run(claims: str, tmp_path: Path, select, name: str = "r.jsonl", **kw):
    return verify.run(select, modules=[claims], jobs=1, results_path=tmp_path / name, **kw)


def test_the_same_seed_iterates_a_set_in_the_same_order(claims, tmp_path):
    first = _run(claims, tmp_path, ["lim.hash"], "a.jsonl")["lim.hash"]
    second = _run(claims, tmp_path, ["lim.hash"], "b.jsonl")["lim.hash"]
    assert first.verdict is Verdict.SUPPORTED
    assert first.summary == second.summary  # a fresh template each run: same hash seed


def test_a_claim_may_use_multiprocessing(claims, tmp_path):
    results = _run(claims, tmp_path, ["lim.pool", "lim.spawn"])
    pool, spawn = results["lim.pool"], results["lim.spawn"]
    assert pool.verdict is Verdict.SUPPORTED, pool.summary
    assert "squares [0, 1, 4, 9, 16, 25]" in pool.summary
    assert spawn.verdict is Verdict.SUPPORTED and "exit 0" in spawn.summary, spawn.summary


@pytest.mark.slow
def test_a_torch_data_loader_with_workers_works(tmp_path_factory, tmp_path):
    pytest.importorskip("torch")
    path = tmp_path_factory.mktemp("tclaims") / "limt_claims.py"
    path.write_text(textwrap.dedent(TORCH_CLAIMS))
    r = verify.run(["limt.loader"], modules=[f"file:{path}"], jobs=1,
                   results_path=tmp_path / "r.jsonl")["limt.loader"]
    assert r.verdict is Verdict.SUPPORTED, r.summary
    assert "sum 28.0" in r.summary


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def test_the_processes_a_claim_starts_are_killed_when_it_ends(claims, tmp_path, monkeypatch):
    pidfile = tmp_path / "pid"
    monkeypatch.setenv("VERIFY_TEST_PIDFILE", str(pidfile))
    r = _run(claims, tmp_path, ["lim.leaves"])["lim.leaves"]
    assert r.verdict is Verdict.SUPPORTED, r.summary
    pid = int(pidfile.read_text())
    deadline = time.monotonic() + 10
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _alive(pid)


def test_the_memory_limit_bounds_the_claims_whole_process_tree(claims, tmp_path):
    t0 = time.monotonic()
    r = _run(claims, tmp_path, ["lim.hog"], memory_gib=1.0)["lim.hog"]
    took = time.monotonic() - t0
    assert r.verdict is Verdict.UNDECIDED
    assert "memory" in r.summary and "1 GiB" in r.summary, r.summary
    assert took < 40, took  # killed when the tree passed the limit, not at its 60 s budget


def test_a_huge_summary_makes_a_small_record(claims, tmp_path):
    out = tmp_path / "r.jsonl"
    r = _run(claims, tmp_path, ["lim.loud"], name="r.jsonl")["lim.loud"]
    assert r.verdict is Verdict.SUPPORTED
    line = out.read_text().splitlines()[0]
    assert len(line) < 1_000_000, len(line)
    record = json.loads(line)
    assert "characters cut" in record["evidence"][0]["summary"]


def test_memory_limit_is_a_documented_flag(tmp_path):
    import os
    import subprocess

    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path), COLUMNS="200")
    help_text = subprocess.run([sys.executable, "-m", "verify", "run", "--help"], env=env,
                               capture_output=True, text=True, timeout=120).stdout
    assert "--memory-gib" in help_text and "all its processes together" in " ".join(
        help_text.split())
    bad = subprocess.run([sys.executable, "-m", "verify", "run", "--memory-gib", "0", "--json",
                          str(tmp_path / "r.jsonl")], env=env, capture_output=True, text=True,
                         timeout=120)
    assert bad.returncode == 2 and "positive number of GiB" in bad.stderr
    assert not (tmp_path / "r.jsonl").exists()


def _cli(tmp_path: Path, claims: str, *args: str):
    import os
    import subprocess

    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path), COLUMNS="200",
               VERIFY_TEST_BIGFILE=str(tmp_path / "big.bin"))
    out = tmp_path / "r.jsonl"
    p = subprocess.run([sys.executable, "-m", "verify", "run", claims.removeprefix("file:"),
                        *args, "--json", str(out), "--quiet"], env=env, capture_output=True,
                       text=True, timeout=300)
    records = {d["id"]: d for d in map(json.loads, out.read_text().splitlines())} \
        if out.exists() else {}
    return p, records


def test_process_count_and_file_size_limits_have_flags(claims, tmp_path):
    p, records = _cli(tmp_path, claims, "--claim", "lim.many", "--claim", "lim.writes",
                      "--max-processes", "3", "--max-file-gib", "0.002")
    assert p.returncode == 0, p.stdout + p.stderr
    many, writes = records["lim.many"], records["lim.writes"]
    assert many["verdict"] == "UNDECIDED" and "more than 3 processes" in many["summary"]
    assert writes["verdict"] == "UNDECIDED" and "size limit" in writes["summary"]
    assert (tmp_path / "big.bin").stat().st_size <= 0.002 * 2**30
    bad, _ = _cli(tmp_path, claims, "--claim", "lim.many", "--max-processes", "0")
    assert bad.returncode == 2 and "--max-processes" in bad.stderr

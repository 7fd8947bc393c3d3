"""The Dask runner on a real two-worker LocalCluster: the same verdicts as the local runner,
a hung claim stopped at its budget, no finished result lost when a worker is killed, claims
that need a resource run only where it is, and a fuzz search split into merged shards."""

from __future__ import annotations

import json
import os
import signal
import threading

import pytest

import verify
from verify import Verdict

distributed = pytest.importorskip("distributed")

FIXTURES = ["verify_fixture_claims"]
DASK = ["verify_fixture_dask"]
SLOW = ["verify_fixture_slow"]


async def _give_gpu(dask_worker):
    await dask_worker.set_resources(GPU=1)


@pytest.fixture(scope="module")
def cluster():
    """Two single-threaded worker processes; the first declares a (fake) GPU."""
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as lc, distributed.Client(lc) as c:
        workers = sorted(c.scheduler_info()["workers"])
        c.run(_give_gpu, workers=[workers[0]])
        yield {"address": lc.scheduler_address, "client": c, "gpu": workers[0],
               "cpu": workers[1]}


def _strip(path) -> list[dict]:
    def strip(obj):
        if isinstance(obj, dict):
            return {k: strip(v) for k, v in obj.items() if k not in ("elapsed_s", "output")}
        if isinstance(obj, list):
            return [strip(v) for v in obj]
        return obj

    return [strip(json.loads(line)) for line in path.read_text().splitlines()]


@pytest.mark.slow
def test_same_verdicts_and_file_as_the_local_runner(cluster, tmp_path):
    sel = ["fx.good_first", "fx.raises", "fx.nan", "fx.segfaults", "fx.good_last"]
    local = verify.run(sel, modules=FIXTURES, jobs=1, seed=7, results_path=tmp_path / "a.jsonl")
    dask = verify.run([*sel, "fx.hangs"], modules=FIXTURES, seed=7,
                      results_path=tmp_path / "b.jsonl", scheduler=cluster["address"])
    assert {k: v for k, v in dask.verdicts().items() if k != "fx.hangs"} == local.verdicts()
    on_cluster = [r for r in _strip(tmp_path / "b.jsonl") if r["id"] != "fx.hangs"]
    assert on_cluster == _strip(tmp_path / "a.jsonl")
    hung = dask["fx.hangs"]  # stopped at its own budget of 3 s, on its worker
    assert hung.verdict is Verdict.UNDECIDED
    assert "timeout: still running after its budget of 3 s; killed" in hung.summary
    assert "SIGSEGV" in dask["fx.segfaults"].summary  # the crash is the claim's alone


def test_a_killed_worker_loses_no_finished_result(cluster, tmp_path):
    path = tmp_path / "r.jsonl"
    pids = cluster["client"].run(os.getpid)
    seen: list[str] = []
    killed = threading.Event()

    def on_result(r) -> None:
        seen.append(path.read_text())
        if not killed.is_set():  # a worker dies while the other claims run
            killed.set()
            os.kill(pids[cluster["cpu"]], signal.SIGKILL)

    results = verify.run("slow.*", modules=SLOW, results_path=path, on_result=on_result,
                         scheduler=cluster["address"])
    assert killed.is_set()
    assert sorted(r.id for r in results) == [f"slow.c{i}" for i in range(6)]
    assert all(r.verdict is Verdict.SUPPORTED for r in results)
    final = path.read_text().splitlines()
    for line in seen[0].splitlines():  # what was written before the kill is kept as it was
        assert line in final


@pytest.mark.slow
def test_claims_that_need_a_resource_run_only_where_it_is(cluster, tmp_path):
    sel = ["dk.anywhere", "dk.gpu", "dk.gpu_deep", "dk.tpu"]
    results = verify.run(sel, modules=DASK, results_path=tmp_path / "r.jsonl",
                         scheduler=cluster["address"])
    for _ in range(2):  # several GPU claims: every one lands on the GPU worker
        again = verify.run(["dk.gpu"], modules=DASK, results_path=tmp_path / "g.jsonl",
                           scheduler=cluster["address"])
        assert again["dk.gpu"].evidence[0].numbers["worker"] == cluster["gpu"]
    assert results["dk.gpu"].evidence[0].numbers["worker"] == cluster["gpu"]
    assert results["dk.anywhere"].verdict is Verdict.SUPPORTED
    assert results["dk.gpu_deep"].verdict is Verdict.SUPPORTED  # needs a GPU in deep only
    tpu = results["dk.tpu"]  # no worker offers it: said at once, not waited for
    assert tpu.verdict is Verdict.UNDECIDED and "TPU=1" in tpu.summary
    cpu = verify.run(["dk.gpu"], modules=DASK, results_path=tmp_path / "c.jsonl",
                     scheduler=cluster["address"], device="cpu")
    assert cpu["dk.gpu"].verdict is Verdict.SUPPORTED  # --device cpu: no GPU asked for


def test_a_fuzz_search_is_split_into_merged_shards(cluster, tmp_path):
    results = verify.run(["dk.search", "dk.bug"], modules=DASK, profile="fuzz", shards=2,
                         examples=10, results_path=tmp_path / "r.jsonl",
                         scheduler=cluster["address"])
    ok = results["dk.search"].evidence[0]
    assert ok.verdict is Verdict.SUPPORTED
    assert ok.numbers["examples"] == 10 and ok.numbers["shards"] == 2
    assert ok.numbers["inputs_tried"] == 10 * 32
    assert len(set(ok.numbers["shard_seeds"])) == 2
    bug = results["dk.bug"]
    assert bug.verdict is Verdict.REFUTED and bug.evidence[0].counterexample
    assert "--examples 10 --shards 2" in bug.rerun
    alone = verify.run(["dk.search"], modules=DASK, profile="fuzz", examples=10, jobs=0,
                       results_path=tmp_path / "alone.jsonl")
    assert alone["dk.search"].evidence[0].numbers["examples"] == 10


def test_verify_run_scheduler_local_starts_a_cluster_for_the_run(tmp_path, capsys):
    from verify.cli import main

    path = tmp_path / "r.jsonl"
    status = main(["run", "--module", "verify_fixture_claims", "--claim", "fx.good_first",
                   "--claim", "fx.raises", "--scheduler", "local", "--jobs", "1", "--quiet",
                   "--json", str(path)])
    assert status == 3  # fx.raises: its code crashed (ERROR)
    verdicts = {json.loads(line)["id"]: json.loads(line)["verdict"]
                for line in path.read_text().splitlines()}
    assert verdicts == {"fx.good_first": "SUPPORTED", "fx.raises": "ERROR"}
    meta = json.loads(path.with_name("r.meta.json").read_text())
    assert meta["device"] == "each Dask worker's"


def test_resume_on_the_cluster_runs_only_the_missing_claims(cluster, tmp_path):
    path = tmp_path / "r.jsonl"
    verify.run(["fx.good_first"], modules=FIXTURES, jobs=0, seed=3, results_path=path)
    before = path.read_text().splitlines()
    ran: list[str] = []
    verify.run(["fx.good_first", "fx.raises"], modules=FIXTURES, seed=3, results_path=path,
               resume=True, scheduler=cluster["address"], on_result=lambda r: ran.append(r.id))
    assert ran == ["fx.raises"]
    assert before[0] in path.read_text().splitlines()


def test_search_share_splits_the_examples_and_derives_the_seeds():
    from verify import Context

    plain = Context("x.y")
    assert plain.search_share(100, 5) == (100, 5)
    assert Context("x.y", examples=40).search_share(100, 5) == (40, 5)
    shares = [Context("x.y", examples=10, shards=3, shard=i).search_share(100, 5)
              for i in range(3)]
    assert [b for b, _ in shares] == [4, 3, 3]
    assert len({s for _, s in shares}) == 3 and 5 not in {s for _, s in shares}
    assert Context("x.y", shards=3).search_share(0, 5) == (0, 5)  # no search asked for


@pytest.mark.parametrize("bad", [{"GPU": 0}, {"GPU": "one"}, {"deep": {"GPU": -1}}, ["GPU"]])
def test_malformed_resources_are_a_definition_error(bad):
    from verify.errors import ClaimDefinitionError
    from verify.registry import Registry

    with pytest.raises(ClaimDefinitionError, match="resources must be"):
        verify.claim("rr.x", paper="rr", where="l. 1", statement="x", kind="property",
                     resources=bad, registry=Registry())(lambda ctx: None)


CHANGING = """
import os
import verify
from verify import Evidence, Verdict


@verify.claim("dkf.a", paper="dkf", where="l. 1", statement="x", kind="property")
def version(ctx):
    return Evidence(Verdict.SUPPORTED, "code VERSION", numbers={"n": 1})


@verify.claim("dkf.cache", paper="dkf", where="l. 2", statement="x", kind="property")
def cache(ctx):
    return Evidence(Verdict.SUPPORTED, "cache " + os.environ.get("VERIFY_CACHE_DIR", "-"),
                    numbers={"n": 1})
"""

NEW_CLAIM = """

@verify.claim("dkf.b", paper="dkf", where="l. 3", statement="x", kind="property")
def added(ctx):
    return Evidence(Verdict.SUPPORTED, "new claim", numbers={"n": 1})
"""


def _cli(*args: str, cwd) -> dict:
    """``verify run ARGS`` in a fresh process (as a user re-runs it); its records by id."""
    import subprocess
    import sys

    out = cwd / "r.jsonl"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    p = subprocess.run([sys.executable, "-m", "verify", "run", *args, "--json", str(out),
                        "--quiet"], cwd=cwd, env=env, capture_output=True, text=True,
                       timeout=600)
    assert p.returncode == 0, p.stdout + p.stderr
    return {d["id"]: d for d in map(json.loads, out.read_text().splitlines())}


def test_a_changed_claims_file_runs_its_new_code_on_a_persistent_cluster(cluster, tmp_path):
    path = tmp_path / "dkf_claims.py"
    path.write_text(CHANGING.replace("VERSION", "one"))
    # two claims: both workers (likely) keep a template of the first version
    first = _cli(str(path), "--claim", "dkf.a", "--claim", "dkf.cache", "--scheduler",
                 cluster["address"], cwd=tmp_path)
    assert first["dkf.a"]["summary"] == "code one"
    path.write_text(CHANGING.replace("VERSION", "two") + NEW_CLAIM)
    again = _cli(str(path), "--claim", "dkf.a", "--claim", "dkf.b", "--scheduler",
                 cluster["address"], cwd=tmp_path)
    assert again["dkf.a"]["summary"] == "code two"  # not the template of the old file
    assert again["dkf.b"]["verdict"] == "SUPPORTED", again["dkf.b"]["summary"]


def test_no_cache_and_cache_dir_reach_the_workers(cluster, tmp_path):
    path = tmp_path / "dkf_claims.py"
    path.write_text(CHANGING.replace("VERSION", "c"))
    off = _cli(str(path), "--claim", "dkf.cache", "--no-cache", "--scheduler",
               cluster["address"], cwd=tmp_path)
    assert off["dkf.cache"]["summary"] == "cache off"
    mine = tmp_path / "my-cache"
    chosen = _cli(str(path), "--claim", "dkf.cache", "--cache-dir", str(mine), "--scheduler",
                  cluster["address"], cwd=tmp_path)
    assert chosen["dkf.cache"]["summary"] == f"cache {mine}"

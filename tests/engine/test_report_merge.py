"""Several results files merged into one report: per claim the strongest profile, every
claim labelled with its run, every run in the provenance."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from verify import Evidence, ResultsFileError
from verify.report import build
from verify.report.sources import merge
from verify.results import ClaimResult
from verify.verdict import Verdict


def _r(cid: str, profile: str, summary: str) -> ClaimResult:
    """A record whose verdict its evidence gives (loading re-checks it)."""
    return ClaimResult(id=cid, paper=cid.split(".")[0], verdict=Verdict.SUPPORTED,
                       summary=summary, profile=profile, kind="property", statement="x = x",
                       evidence=[Evidence(Verdict.SUPPORTED, summary)])


def _file(path: Path, profile: str, ids: list[str], date: str, seed: int = 0) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(_r(i, profile, f"{i} from {path.name}").to_dict()) + "\n"
                            for i in ids), encoding="utf-8")
    meta = {"profile": profile, "seed": seed, "date": date, "git_revision": f"rev-{path.stem}"}
    path.with_name(path.stem + ".meta.json").write_text(json.dumps(meta), encoding="utf-8")
    return path


def test_deep_wins_over_quick_whatever_the_order(tmp_path):
    quick = _file(tmp_path / "quick.jsonl", "quick", ["p.a", "p.b"], "2026-01-01")
    deep = _file(tmp_path / "deep.jsonl", "deep", ["p.a"], "2026-02-01")
    for order in ([quick, deep], [deep, quick]):
        results, sources, origin = merge(order)
        by_id = {r.id: r for r in results}
        assert by_id["p.a"].summary == "p.a from deep.jsonl"
        assert by_id["p.b"].summary == "p.b from quick.jsonl"  # only in one file: kept
        assert sources[origin["p.a"]].path == deep
        assert sources[origin["p.a"]].label() == "deep run of 2026-02-01, deep.jsonl"


def test_between_equal_profiles_the_later_file_wins(tmp_path):
    first = _file(tmp_path / "first.jsonl", "quick", ["p.a"], "2026-01-01")
    second = _file(tmp_path / "second.jsonl", "quick", ["p.a"], "2026-01-02")
    results, _, _ = merge([first, second])
    assert results[0].summary == "p.a from second.jsonl"
    results, _, _ = merge([second, first])
    assert results[0].summary == "p.a from first.jsonl"


def test_a_folder_stands_for_its_jsonl_files_in_name_order(tmp_path):
    _file(tmp_path / "runs" / "a.jsonl", "quick", ["p.a", "p.b"], "2026-01-01")
    _file(tmp_path / "runs" / "b.jsonl", "quick", ["p.b"], "2026-01-02")
    results, sources, _ = merge([tmp_path / "runs"])
    assert [s.path.name for s in sources] == ["a.jsonl", "b.jsonl"]
    assert {r.id: r.summary for r in results} == {"p.a": "p.a from a.jsonl",
                                                  "p.b": "p.b from b.jsonl"}
    (tmp_path / "empty").mkdir()
    with pytest.raises(ResultsFileError, match="folder holds no"):
        merge([tmp_path / "empty"])


def test_merged_report_labels_each_claim_and_lists_every_run(tmp_path):
    quick = _file(tmp_path / "quick.jsonl", "quick", ["p.a", "p.b"], "2026-01-01")
    deep = _file(tmp_path / "deep" / "gda_deep.jsonl", "deep", ["p.a"], "2026-02-01")
    out = build([quick, tmp_path / "deep"], tmp_path / "rep", compile=False)
    tex = (tmp_path / "rep" / "p.tex").read_text(encoding="utf-8")
    assert "Evidence from the deep run of 2026-02-01, gda\\_deep.jsonl." in tex
    assert "Evidence from the quick run of 2026-01-01, quick.jsonl." in tex
    assert tex.count("Evidence from the") == 2
    assert "rev-\\allowbreak{}quick" in tex and "rev-\\allowbreak{}gda\\_\\allowbreak{}deep" in tex
    assert "merged from 2 runs" in tex
    plain = re.sub(r"\\mbox\{([^{}]*)\}", r"\1", tex.replace("-{}", "-"))
    assert "verify report --from quick.jsonl --from deep --out DIR" in plain
    assert out.warnings == [] and deep.exists()


def test_a_single_file_report_names_no_origin(tmp_path):
    quick = _file(tmp_path / "quick.jsonl", "quick", ["p.a"], "2026-01-01")
    build(quick, tmp_path / "rep", compile=False)
    assert "Evidence from the" not in (tmp_path / "rep" / "p.tex").read_text(encoding="utf-8")


def test_each_sources_sidecar_is_cross_checked(tmp_path):
    quick = _file(tmp_path / "quick.jsonl", "quick", ["p.a"], "2026-01-01")
    deep = _file(tmp_path / "deep.jsonl", "deep", ["p.b"], "2026-02-01", seed=0)
    meta = json.loads(deep.with_name("deep.meta.json").read_text())
    deep.with_name("deep.meta.json").write_text(json.dumps(dict(meta, seed=7)))
    out = build([quick, deep], tmp_path / "rep", compile=False)
    assert [w.document for w in out.warnings] == ["deep.meta.json"]
    assert "it states seed 7" in out.warnings[0].message


def test_report_command_takes_repeated_from(tmp_path):
    _file(tmp_path / "quick.jsonl", "quick", ["p.a", "p.b"], "2026-01-01")
    _file(tmp_path / "deep" / "d.jsonl", "deep", ["p.b"], "2026-02-01")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    p = subprocess.run([sys.executable, "-m", "verify", "report", "--from", "quick.jsonl",
                        "--from", "deep", "--out", "rep", "--no-pdf"], cwd=tmp_path, env=env,
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    tex = (tmp_path / "rep" / "p.tex").read_text(encoding="utf-8")
    assert "Evidence from the deep run of 2026-02-01, d.jsonl." in tex


def test_a_deep_experiment_verdict_replaces_the_quick_smoke_one(tmp_path):
    """A quick run's UNDECIDED at smoke scale and a deep run's NOT_REPRODUCED of the same
    experiment: the report shows the deep verdict, labelled with the run it came from."""
    cid = "p.exp.table"
    smoke = ("[NOT_REPRODUCED rejected: smoke scale (T=100 vs the paper's 2000): the deep "
             "profile judges it] loss 2.1 vs 1.97")
    runs = {"quick": (Verdict.UNDECIDED, smoke, "2026-01-01", tmp_path / "results.jsonl"),
            "deep": (Verdict.NOT_REPRODUCED, "loss 2.09 +- 0.01 vs 1.970 +- 0.034 (T=2000)",
                     "2026-02-01", tmp_path / "deep" / "p.jsonl")}
    for profile, (verdict, summary, date, path) in runs.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        numbers = {"paper_value": 1.97, "measured": 2.09, "scale": "paper"}
        ev = Evidence(verdict, summary, method="experiment", numbers=numbers)
        r = ClaimResult(id=cid, paper="p", verdict=verdict, summary=summary, profile=profile,
                        kind="experiment", statement="x = x", evidence=[ev])
        lines = [r] + ([_r("p.other", "quick", "a claim only the quick run has")]
                       if profile == "quick" else [])
        path.write_text("".join(json.dumps(x.to_dict()) + "\n" for x in lines),
                        encoding="utf-8")
        meta = {"profile": profile, "seed": 0, "date": date, "git_revision": f"rev-{profile}"}
        path.with_name(path.stem + ".meta.json").write_text(json.dumps(meta), encoding="utf-8")
    results, _, _ = merge([tmp_path / "results.jsonl", tmp_path / "deep"])
    assert [(r.id, r.verdict, r.profile) for r in results if r.id == cid] == [
        (cid, Verdict.NOT_REPRODUCED, "deep")]
    build([tmp_path / "results.jsonl", tmp_path / "deep"], tmp_path / "rep", compile=False)
    tex = (tmp_path / "rep" / "p.tex").read_text(encoding="utf-8").replace("\\allowbreak{}", "")
    assert "Evidence from the deep run of 2026-02-01, p.jsonl." in tex
    assert "\\vfbadge{vfNOTREPRODUCED}{NOT REPRODUCED}\\quad loss 2.09" in tex
    assert "smoke scale" not in tex

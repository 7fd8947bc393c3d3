"""Results as data: the ``Results`` mapping, the versioned JSONL schema, ``verify diff``,
``verify show --from`` saying when it runs a claim, ``verify report --out``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from verify import Evidence, ResultsFileError, UnknownClaimError, provenance
from verify.diff import Change, diff
from verify.results import SCHEMA_VERSION, ClaimResult, Results, load
from verify.verdict import Verdict

FIX = Path(__file__).parent.parent / "fixtures"


def _piece(verdict: str, summary: str, reading: str = "A", scope: str | None = None):
    """A piece of evidence that gives ``verdict`` by verify/combine.py's rule (a loaded record
    is re-checked against it)."""
    v = Verdict.parse(verdict)
    method = {Verdict.PROVED: "symbolic", Verdict.CERTIFIED: "certificate"}.get(v, "numeric")
    return Evidence(v, summary, method=method, reading=reading, scope=scope,
                    counterexample={"x": 1} if v is Verdict.REFUTED else None)


def _r(cid: str, verdict: str, **kw) -> ClaimResult:
    summary = f"{cid} is {verdict}"
    evidence = [_piece(verdict, summary, scope=kw.get("scope"))]
    evidence += [_piece(info["verdict"], "reading", label)
                 for label, info in kw.get("readings", {}).items()]
    return ClaimResult(id=cid, paper=cid.split(".")[0], verdict=Verdict.parse(verdict),
                       summary=summary, evidence=evidence, **kw)


def _write(path: Path, results: list[ClaimResult]) -> Path:
    path.write_text("".join(json.dumps(r.to_dict()) + "\n" for r in results), encoding="utf-8")
    return path


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, COLUMNS="200", PYTHONPATH=os.pathsep.join([str(FIX), *sys.path]))
    code = ("import sys, verify.discovery as r; r.DEFAULT_PACKAGES=('verify_fixture_claims',); "
            "from verify.cli import main; sys.exit(main(sys.argv[1:]))")
    return subprocess.run([sys.executable, "-c", code, *args], env=env, cwd=cwd,
                          capture_output=True, text=True, timeout=300)


# -- Results -----------------------------------------------------------------------------------
def test_results_is_a_mapping_by_id_that_iterates_results_in_order():
    a, b = _r("p.a", "PROVED", expect=Verdict.PROVED), _r("p.b", "REFUTED", expect=Verdict.PROVED)
    res = Results([a, b])
    assert res["p.a"] is a and res.get("p.b") is b and res.get("p.zz") is None
    assert list(res) == [a, b] and len(res) == 2
    assert res.ids() == ["p.a", "p.b"] and res.items() == [("p.a", a), ("p.b", b)]
    assert "p.a" in res and "p.zz" not in res and 3 not in res
    with pytest.raises(UnknownClaimError, match="no result for claim 'p.zz'"):
        res["p.zz"]
    assert res.drifted == [b] and res.exit_code == 1
    assert Results([a]).exit_code == 0 and Results([]).exit_code == 0
    assert res.counts()[Verdict.REFUTED] == 1 and res.verdicts() == {"p.a": Verdict.PROVED,
                                                                     "p.b": Verdict.REFUTED}
    assert repr(res) == "<Results: 2 claims: 1 PROVED, 1 REFUTED>"


# -- schema version ----------------------------------------------------------------------------
def test_every_record_and_the_sidecar_carry_the_schema_version(tmp_path):
    assert _r("p.a", "PROVED").to_dict()["schema_version"] == SCHEMA_VERSION
    assert provenance.collect(seed=0)["schema_version"] == SCHEMA_VERSION


def test_a_record_without_schema_version_is_read_as_version_1(tmp_path):
    record = _r("p.a", "PROVED").to_dict()
    del record["schema_version"]
    path = tmp_path / "old.jsonl"
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    assert load(path)["p.a"].verdict is Verdict.PROVED


def test_a_newer_schema_is_refused_naming_file_and_line(tmp_path):
    good = _r("p.a", "PROVED").to_dict()
    newer = dict(_r("p.b", "PROVED").to_dict(), schema_version=SCHEMA_VERSION + 1)
    path = tmp_path / "new.jsonl"
    path.write_text(json.dumps(good) + "\n" + json.dumps(newer) + "\n", encoding="utf-8")
    with pytest.raises(ResultsFileError) as e:
        load(path)
    assert str(e.value).startswith(f"{path}:2: ")
    assert f"schema_version {SCHEMA_VERSION + 1} is newer than this verify reads" in str(e.value)
    bad = dict(good, schema_version="2")
    path.write_text(json.dumps(bad) + "\n", encoding="utf-8")
    with pytest.raises(ResultsFileError, match=r":1: .*schema_version must be an integer"):
        load(path)


# -- diff --------------------------------------------------------------------------------------
def test_diff_lists_changed_added_and_removed_claims_with_qualifiers():
    old = Results([
        _r("p.same", "PROVED", scope="general"),
        _r("p.scope", "PROVED", scope="general"),
        _r("p.flip", "SUPPORTED"),
        _r("p.gone", "UNDECIDED"),
        _r("p.reading", "PROVED", scope="general", readings={"B": {"verdict": "SUPPORTED"}}),
    ])
    new = Results([
        _r("p.same", "PROVED", scope="general"),
        _r("p.scope", "PROVED", scope="bounded"),
        _r("p.flip", "REFUTED", severity="false"),
        _r("p.new", "CERTIFIED"),
        _r("p.reading", "PROVED", scope="general", readings={"B": {"verdict": "REFUTED"}}),
    ])
    changes = diff(old, new)
    assert [str(c) for c in changes] == [
        "p.scope: PROVED -> PROVED (bounded)",
        "p.flip: SUPPORTED -> REFUTED (false)",
        "p.new: added, CERTIFIED",
        "p.reading: PROVED, readings changed [A PROVED · B SUPPORTED -> A PROVED · B REFUTED]",
        "p.gone: removed (was UNDECIDED)",
    ]
    assert [c.kind for c in changes] == ["changed", "changed", "added", "changed", "removed"]
    assert diff(old, old) == []
    assert Change("p.x", None, "PROVED").to_dict()["change"] == "added"


def test_diff_command_exit_codes(tmp_path):
    old = _write(tmp_path / "old.jsonl", [_r("p.a", "PROVED", scope="general"),
                                          _r("p.b", "SUPPORTED")])
    new = _write(tmp_path / "new.jsonl", [_r("p.a", "PROVED", scope="general"),
                                          _r("p.b", "REFUTED", severity="erratum")])
    p = _cli("diff", str(old), str(old), cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("0 changes; 2 claims in both runs")
    p = _cli("diff", str(old), str(new), cwd=tmp_path)
    assert p.returncode == 1, p.stderr
    assert "p.b: SUPPORTED -> REFUTED (erratum)" in p.stdout and "p.a" not in p.stdout
    p = _cli("diff", str(old), str(new), "--json", cwd=tmp_path)
    assert p.returncode == 1
    assert json.loads(p.stdout) == [{"id": "p.b", "change": "changed", "old": "SUPPORTED",
                                     "new": "REFUTED (erratum)", "old_readings": None,
                                     "new_readings": None}]
    p = _cli("diff", str(old), str(tmp_path / "none.jsonl"), cwd=tmp_path)
    assert p.returncode == 2 and "does not exist" in p.stderr
    (tmp_path / "bad.jsonl").write_text("garbage\n", encoding="utf-8")
    p = _cli("diff", str(old), str(tmp_path / "bad.jsonl"), cwd=tmp_path)
    assert p.returncode == 2
    assert p.stderr.strip().startswith(f"verify: error: {tmp_path / 'bad.jsonl'}:1: not a JSON")


# -- show --from -------------------------------------------------------------------------------
def test_show_says_when_it_runs_the_claim_instead_of_reading_it(tmp_path):
    saved = _write(tmp_path / "r.jsonl", [_r("fx.good_first", "SUPPORTED")])
    p = _cli("show", "fx.good_first", "--from", str(saved), cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert p.stderr == "" and "fx.good_first is SUPPORTED" in p.stdout  # read, not run
    p = _cli("show", "fx.raises", "--from", str(saved), cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert p.stderr.startswith(f"verify: fx.raises is not in {saved}: running fx.raises now "
                               "(seed 0, profile quick)")
    p = _cli("show", "fx.good_first", "--from", "none.jsonl", cwd=tmp_path)
    assert p.stderr.startswith("verify: none.jsonl does not exist: running fx.good_first now")
    p = _cli("show", "fx.good_first", "--from", str(saved), "--rerun", cwd=tmp_path)
    assert p.stderr.startswith("verify: --rerun given: running fx.good_first now")
    assert "drew four numbers" in p.stdout


# -- report --out ------------------------------------------------------------------------------
def test_report_requires_out_and_writes_nothing_by_default(tmp_path):
    fixture = FIX / "report_results.jsonl"
    p = _cli("report", "--from", str(fixture), cwd=tmp_path)
    assert p.returncode == 2
    assert "the following arguments are required: --out" in p.stderr
    assert list(tmp_path.iterdir()) == []  # no docs/report appeared in the user's folder
    p = _cli("report", "--from", str(fixture), "--out", "rep", "--no-pdf", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert (tmp_path / "rep" / "summary.tex").exists()

"""The results file: reading back, truncated last lines, malformed lines."""

from __future__ import annotations

import pytest

from verify import Evidence, Verdict
from verify.errors import ResultsFileError
from verify.results import ClaimResult, append, load


def _result(cid: str, verdict=Verdict.SUPPORTED, expect=None) -> ClaimResult:
    return ClaimResult(id=cid, paper="p", verdict=verdict, summary="s", expect=expect,
                       evidence=[Evidence(verdict, "s")])


def test_append_and_load(tmp_path):
    path = tmp_path / "r.jsonl"
    append(path, _result("p.a"))
    append(path, _result("p.b", expect=Verdict.PROVED))
    results = load(path)
    assert [r.id for r in results] == ["p.a", "p.b"]
    assert results["p.b"].drift and results.exit_code == 1
    assert results.counts()[Verdict.SUPPORTED] == 2


def test_truncated_last_line_is_skipped_but_not_in_strict_mode(tmp_path):
    path = tmp_path / "r.jsonl"
    append(path, _result("p.a"))
    with open(path, "a") as f:
        f.write('{"id": "p.b", "ver')
    assert [r.id for r in load(path)] == ["p.a"]
    with pytest.raises(ResultsFileError, match=r"r.jsonl:2: not a JSON line"):
        load(path, strict=True)


def test_malformed_middle_line_is_an_error(tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_text('garbage\n{"id": "p.a"}\n')
    with pytest.raises(ResultsFileError, match=r"r.jsonl:1: not a JSON line"):
        load(path)


def test_missing_file(tmp_path):
    with pytest.raises(ResultsFileError, match="does not exist"):
        load(tmp_path / "nope.jsonl")


def test_the_headline_fields_survive_the_file(tmp_path):
    path = tmp_path / "r.jsonl"
    r = _result("p.h")
    r.headline_reading, r.headline_reason = "B", "the standing condition of Sec. 3, L448"
    r.errata = [{"reading": "A", "what": "sign of beta^4"}]
    u = _result("p.u", verdict=Verdict.UNDECIDED)
    u.undecided_reason, u.undecided_detail = "needs_compute", "run: verify run --profile deep"
    append(path, r)
    append(path, u)
    back = load(path)
    assert (back["p.h"].headline_reading, back["p.h"].errata) == ("B", r.errata)
    assert back["p.h"].headline_reason == r.headline_reason
    assert back["p.u"].undecided_reason == "needs_compute"


def test_malformed_errata_are_named(tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_text('{"id": "p.a", "paper": "p", "verdict": "PROVED", "errata": [1]}\n')
    with pytest.raises(ResultsFileError, match="errata must be a list of objects"):
        load(path)

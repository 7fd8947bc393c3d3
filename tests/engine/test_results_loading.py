"""What is read from a results file is checked before it is believed or printed: only a
regular file of bounded size is read (a FIFO or ``/dev/zero`` neither hangs nor eats memory),
each record is re-checked against the schema and the combining rule, and every printed
field has its control characters escaped."""

from __future__ import annotations

import io
import json
import logging
import os
import signal
from pathlib import Path

import pytest

import verify
import verify.discovery
import verify.results
from verify import Evidence, Verdict
from verify.cli import main, results_table
from verify.errors import ResultsFileError
from verify.results import ClaimResult, Results, load


def _record(cid: str = "p.a", **changes) -> dict:
    d = ClaimResult(id=cid, paper="p", verdict=Verdict.SUPPORTED, summary="s", statement="x",
                    evidence=[Evidence(Verdict.SUPPORTED, "s")]).to_dict()
    d.update(changes)
    return d


def _write(path: Path, *records: dict) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


@pytest.fixture
def no_hang():
    """Fail, instead of hanging the suite, when a read blocks."""

    def hung(signum, frame):
        raise TimeoutError("the command hung reading a special file")

    old = signal.signal(signal.SIGALRM, hung)
    signal.alarm(30)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, old)


def _one_line(capsys) -> str:
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1, err
    assert err.startswith("verify: error: ") and "Traceback" not in err
    return err


# -- regular files only, with a size check ---------------------------------------------------
def _special(tmp_path: Path, kind: str) -> Path:
    path = tmp_path / "odd.jsonl"
    if kind == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to("/dev/zero")
    return path


def _commands(tmp_path: Path, path: Path) -> dict[str, list[str]]:
    good = _write(tmp_path / "good.jsonl", _record())
    return {
        "report": ["report", "--from", str(path), "--out", str(tmp_path / "out"), "--no-pdf"],
        "diff": ["diff", str(good), str(path)],
        "show": ["show", "p.a", "--from", str(path)],
        "resume": ["run", "--claim", "fx.good_first", "--json", str(path), "--resume"],
        "run": ["run", "--claim", "fx.good_first", "--json", str(path)],
    }


@pytest.mark.parametrize("kind, command", [
    *((k, c) for k in ("fifo", "dev_zero") for c in ("report", "diff", "show", "resume")),
    ("fifo", "run"),  # (a symbolic link is replaced by a run without --resume, never followed)
])
def test_a_special_results_file_is_refused_at_once(tmp_path, capsys, monkeypatch, no_hang,
                                                   kind, command):
    monkeypatch.setattr(verify.discovery, "DEFAULT_PACKAGES", ("verify_fixture_claims",))
    path = _special(tmp_path, kind)
    assert main(_commands(tmp_path, path)[command]) == 2
    err = _one_line(capsys)
    assert str(path) in err and "not a regular file" in err


@pytest.mark.parametrize("kind", ["fifo", "dev_zero"])
def test_a_special_sidecar_is_refused_at_once(tmp_path, no_hang, kind):
    from verify import provenance

    results = _write(tmp_path / "r.jsonl", _record())
    meta = provenance.meta_path(results)
    if kind == "fifo":
        os.mkfifo(meta)
    else:
        meta.symlink_to("/dev/zero")
    with pytest.raises(ResultsFileError, match="not a regular file"):
        provenance.read(results)
    assert main(["report", "--from", str(results), "--out", str(tmp_path / "out"),
                 "--no-pdf"]) == 0


def test_a_results_file_over_the_size_limit_is_refused(tmp_path, monkeypatch):
    path = _write(tmp_path / "r.jsonl", _record(), _record("p.b"))
    monkeypatch.setattr(verify.results, "MAX_RESULTS_BYTES", 100)
    with pytest.raises(ResultsFileError, match=r"larger than .* limit"):
        load(path)


def test_a_symlink_to_a_regular_results_file_is_read(tmp_path):
    real = _write(tmp_path / "real.jsonl", _record())
    link = tmp_path / "link.jsonl"
    link.symlink_to(real)
    assert load(link).ids() == ["p.a"]


# -- loaded records are re-checked ------------------------------------------------------------
def test_a_lowercase_verdict_is_rejected(tmp_path):
    path = _write(tmp_path / "r.jsonl", _record(verdict="supported"))
    with pytest.raises(ResultsFileError, match=r"r.jsonl:1: .*'supported'"):
        load(path)


def test_a_lowercase_evidence_verdict_is_rejected(tmp_path):
    ev = {"verdict": "supported", "summary": "s"}
    path = _write(tmp_path / "r.jsonl", _record(evidence=[ev]))
    with pytest.raises(ResultsFileError, match=r"r.jsonl:1: .*evidence 1: .*'supported'"):
        load(path)


def test_a_bogus_reading_verdict_is_rejected(tmp_path):
    path = _write(tmp_path / "r.jsonl",
                  _record(readings={"B": {"verdict": "BOGUS", "summary": "s"}}))
    with pytest.raises(ResultsFileError, match=r"r.jsonl:1: .*readings\['B'\].*'BOGUS'"):
        load(path)


def _refuted_without_counterexample() -> dict:
    return _record("p.r", verdict="REFUTED", severity="false", summary="false!",
                   evidence=[{"verdict": "REFUTED", "summary": "false!", "method": "numeric"}])


def test_a_refuted_record_without_a_counterexample_is_demoted_with_a_line(tmp_path, caplog):
    path = _write(tmp_path / "r.jsonl", _record(), _refuted_without_counterexample())
    with caplog.at_level(logging.WARNING):
        results = load(path)
    r = results["p.r"]
    assert r.verdict is Verdict.UNDECIDED and r.severity is None
    assert "REFUTED needs a counterexample" in r.summary and r.crashed
    warned = [m for m in caplog.messages if "p.r" in m]
    assert len(warned) == 1 and f"{path}:2" in warned[0] and "REFUTED" in warned[0]
    assert results["p.a"].verdict is Verdict.SUPPORTED


def test_a_verdict_its_evidence_does_not_give_is_demoted(tmp_path, caplog):
    path = _write(tmp_path / "r.jsonl", _record(verdict="PROVED", scope="general"))
    with caplog.at_level(logging.WARNING):
        r = load(path)["p.a"]
    assert r.verdict is Verdict.UNDECIDED and "SUPPORTED" in r.summary
    assert len(caplog.messages) == 1


def test_a_reading_verdict_its_evidence_does_not_give_is_demoted(tmp_path, caplog):
    rec = _record(readings={"B": {"verdict": "PROVED", "summary": "s"}},
                  evidence=[{"verdict": "SUPPORTED", "summary": "s"},
                            {"verdict": "SUPPORTED", "summary": "s", "reading": "B"}])
    path = _write(tmp_path / "r.jsonl", rec)
    with caplog.at_level(logging.WARNING):
        r = load(path)["p.a"]
    assert r.verdict is Verdict.UNDECIDED and "reading B" in r.summary


def test_report_and_diff_see_the_demoted_verdict(tmp_path, capsys, caplog):
    old = _write(tmp_path / "old.jsonl", _record("p.r", verdict="UNDECIDED",
                                                 evidence=[{"verdict": "UNDECIDED",
                                                            "summary": "?"}]))
    new = _write(tmp_path / "new.jsonl", _refuted_without_counterexample())
    assert main(["diff", str(old), str(new), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == [] and "p.r" in caplog.text
    out = tmp_path / "out"
    assert main(["report", "--from", str(new), "--out", str(out), "--no-pdf"]) == 0
    tex = "".join(p.read_text(encoding="utf-8") for p in out.glob("*.tex"))
    assert "REFUTED needs a counterexample" in tex


def test_resume_runs_a_demoted_record_again(tmp_path, monkeypatch):
    path = tmp_path / "r.jsonl"
    verify.run("fx.good_first", modules=["verify_fixture_claims"], jobs=0, results_path=path)
    d = json.loads(path.read_text())
    d["evidence"][0]["verdict"] = d["verdict"] = "REFUTED"
    d["summary"] = "tampered"
    path.write_text(json.dumps(d) + "\n")
    res = verify.run("fx.good_first", modules=["verify_fixture_claims"], jobs=0,
                     results_path=path, resume=True)
    assert res["fx.good_first"].verdict is Verdict.SUPPORTED
    assert "tampered" not in path.read_text()


@pytest.mark.slow
def test_records_verify_writes_are_never_demoted(tmp_path, caplog):
    path = tmp_path / "r.jsonl"
    verify.run("fx.*", modules=["verify_fixture_claims"], jobs=2, results_path=path,
               timeout=5)
    with caplog.at_level(logging.WARNING):
        results = load(path)
    assert not [m for m in caplog.messages if "demoted" in m], caplog.messages
    assert len(results) > 3


def test_the_shipped_report_fixture_reads_without_demotion(caplog):
    fixture = Path(__file__).parent.parent / "fixtures" / "report_results.jsonl"
    with caplog.at_level(logging.WARNING):
        load(fixture)
    assert not [m for m in caplog.messages if "demoted" in m], caplog.messages


# -- control characters never reach the terminal ----------------------------------------------
EVIL = "\x1b]0;pwned\x07\x1b[2J\x9b31m\u202e"


def _evil_file(tmp_path: Path, name: str = "r.jsonl") -> tuple[Path, str]:
    cid = "p.e" + EVIL
    rec = _record(cid, summary="sum" + EVIL, where="w" + EVIL, statement="st" + EVIL,
                  error="boom" + EVIL, rerun="verify run" + EVIL,
                  evidence=[{"verdict": "SUPPORTED", "summary": "ev" + EVIL,
                             "steps": ["step" + EVIL], "numbers": {"k" + EVIL: "v" + EVIL}}],
                  readings={"B": {"verdict": "UNDECIDED", "summary": "rd" + EVIL}},
                  reading_statements={"B": "rs" + EVIL})
    rec["evidence"].append({"verdict": "UNDECIDED", "summary": "r" + EVIL, "reading": "B"})
    return _write(tmp_path / name, rec), cid


def _clean(text: str) -> bool:
    return not any(ch in text for ch in "\x1b\x07\x9b\u202e")


def test_show_escapes_control_characters(tmp_path, capsys):
    path, cid = _evil_file(tmp_path)
    assert main(["show", cid, "--from", str(path)]) == 0
    out = capsys.readouterr()
    assert _clean(out.out) and _clean(out.err)
    assert "\\x1b]0;pwned" in out.out  # shown, escaped, not dropped


def test_diff_escapes_control_characters(tmp_path, capsys):
    old = _write(tmp_path / "old.jsonl", _record("p.x"))
    new, _ = _evil_file(tmp_path, "new.jsonl")
    assert main(["diff", str(old), str(new)]) == 1
    out = capsys.readouterr()
    assert _clean(out.out) and _clean(out.err) and "\\x1b" in out.out
    assert main(["diff", str(old), str(new), "--json"]) == 1
    out = capsys.readouterr().out
    assert _clean(out)
    assert any(c["id"].startswith("p.e\x1b") for c in json.loads(out))  # the data, intact


def test_the_run_table_escapes_control_characters(tmp_path):
    path, _ = _evil_file(tmp_path)
    from rich.console import Console

    buf = io.StringIO()
    Console(file=buf, width=200).print(results_table(Results(load(path))))
    assert _clean(buf.getvalue()) and "\\x1b" in buf.getvalue()


def test_the_table_does_not_read_markup_in_an_id(tmp_path):
    path = _write(tmp_path / "r.jsonl", _record("p.[red]x[/red]"))
    from rich.console import Console

    buf = io.StringIO()
    Console(file=buf, width=200).print(results_table(Results(load(path))))
    assert "p.[red]x[/red]" in buf.getvalue()


def test_list_escapes_control_characters(tmp_path, capsys):
    claims = tmp_path / "evil_claims.py"
    claims.write_text(
        "import verify\nfrom verify import Evidence, Verdict\n\n"
        f"@verify.claim('ev.c', paper='ev', where={('l. 1' + EVIL)!r}, statement='x',"
        " kind='property')\ndef c(ctx):\n    return Evidence(Verdict.SUPPORTED, 'ok')\n",
        encoding="utf-8")
    assert main(["list", str(claims)]) == 0
    out = capsys.readouterr().out
    assert _clean(out) and "\\x1b" in out
    assert main(["list", str(claims), "--json"]) == 0
    out = capsys.readouterr().out
    assert _clean(out) and json.loads(out)[0]["where"] == "l. 1" + EVIL


def test_an_error_message_escapes_control_characters(tmp_path, capsys):
    path = tmp_path / ("r" + EVIL + ".jsonl")
    path.write_text("garbage\n", encoding="utf-8")  # the error names the file and line
    assert main(["diff", str(path), str(path)]) == 2
    assert _clean(_one_line(capsys))


def test_a_record_headed_by_its_repair_or_existential_reads_without_demotion(tmp_path, caplog):
    """The re-check judges the reading that heads (rule 8) under the quantifier it states
    (rule 7): a printed reading REFUTED beside its erratum repair B that heads PROVED, and an
    existential refuted only by a nonexistence proof, are what the rule gives."""
    repaired = _record(
        "p.repaired", verdict="PROVED", scope="general", headline_reading="B",
        readings={"A": {"verdict": "REFUTED", "summary": "typo"},
                  "B": {"verdict": "PROVED", "summary": "fixed", "scope": "general"}},
        evidence=[Evidence(Verdict.REFUTED, "typo", method="symbolic",
                           counterexample={"x": 1}).to_dict(),
                  Evidence(Verdict.PROVED, "fixed", method="symbolic", reading="B",
                           scope="general").to_dict()])
    none_exists = _record(
        "p.exists", verdict="REFUTED", quantifier="exists",
        evidence=[Evidence(Verdict.REFUTED, "no witness", method="symbolic", nonexistence=True,
                           counterexample={"obstruction": "w = 0"}).to_dict()])
    one_instance = _record(  # one failing instance does not refute an existential
        "p.instance", verdict="REFUTED", quantifier="exists",
        evidence=[Evidence(Verdict.REFUTED, "fails at w=1", method="symbolic",
                           counterexample={"w": 1}).to_dict()])
    path = _write(tmp_path / "r.jsonl", repaired, none_exists, one_instance)
    with caplog.at_level(logging.WARNING):
        results = load(path)
    demoted = [m for m in caplog.messages if "demoted" in m]
    assert len(demoted) == 1 and "p.instance" in demoted[0], caplog.messages
    assert results["p.repaired"].verdict is Verdict.PROVED
    assert results["p.exists"].verdict is Verdict.REFUTED
    assert results["p.instance"].verdict is Verdict.UNDECIDED

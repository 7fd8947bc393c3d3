"""Usage errors cost nothing: every argument, the claims and the scheduler are checked before
the results file is touched, a path that is not a results file is refused, and each mistake
is one line naming what is wrong, with exit status 2."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import verify
import verify.discovery
from verify import Evidence, Verdict
from verify.cli import main
from verify.errors import ClaimDefinitionError, ResultsFileError
from verify.registry import Registry
from verify.results import ClaimResult, write_atomic

FIX = Path(__file__).parent.parent / "fixtures"
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def fixture_claims(monkeypatch):
    monkeypatch.setattr(verify.discovery, "DEFAULT_PACKAGES", ("verify_fixture_claims",))


def _one_line(capsys) -> str:
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1, err
    assert err.startswith("verify: error: ") and "Traceback" not in err
    return err


def _results_file(tmp_path: Path) -> Path:
    """A results file of an earlier run, which a usage error must leave exactly as it is."""
    path = tmp_path / "r.jsonl"
    r = ClaimResult(id="fx.good_first", paper="fx", verdict=Verdict.SUPPORTED, summary="s",
                    evidence=[Evidence(Verdict.SUPPORTED, "s")])
    path.write_text(json.dumps(r.to_dict()) + "\n", encoding="utf-8")
    return path


def _claims_file(tmp_path: Path, name: str, body: str) -> Path:
    path = tmp_path / f"{name}.py"
    path.write_text(textwrap.dedent(body), encoding="utf-8")
    return path


# -- a path that is not a results file ----------------------------------------------------
@pytest.mark.parametrize("content", ["import verify\n\nprint('my claims')\n", "plain notes\n",
                                     '{"a": 1}\n', "[1, 2]\n"])
def test_run_refuses_a_json_path_that_is_not_a_results_file(tmp_path, capsys, fixture_claims,
                                                              content):
    """``verify run --json mypaper.py`` must not replace the user's claims source."""
    src = tmp_path / "mypaper.py"
    src.write_text(content, encoding="utf-8")
    assert main(["run", "--claim", "fx.good_first", "--json", str(src)]) == 2
    err = _one_line(capsys)
    assert str(src) in err and "not a results file" in err
    assert src.read_text(encoding="utf-8") == content
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mypaper.py"]


def test_run_still_rewrites_an_empty_or_earlier_results_file(tmp_path, fixture_claims):
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    verify.run("fx.good_first", modules=["verify_fixture_claims"], jobs=0, results_path=empty)
    assert json.loads(empty.read_text())["id"] == "fx.good_first"
    earlier = _results_file(tmp_path)
    verify.run("fx.good_first", modules=["verify_fixture_claims"], jobs=0, results_path=earlier)
    assert json.loads(earlier.read_text())["summary"] == "drew four numbers"
    cut = tmp_path / "cut.jsonl"  # a run killed while writing its first record
    cut.write_text('{"schema_version": 2, "id": "fx.good_first", "ver')
    verify.run("fx.good_first", modules=["verify_fixture_claims"], jobs=0, results_path=cut)
    assert json.loads(cut.read_text())["id"] == "fx.good_first"


# -- late usage errors are found before the file is touched ----------------------------
def _closed_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


@pytest.mark.parametrize(
    "args, problem",
    [
        (["--scheduler", "locl"], "--scheduler 'locl'"),
        (["--scheduler", "tcp://127.0.0.1:{port}"], "cannot reach"),
        (["--scheduler", "tcp://host:notaport"], "--scheduler"),
        (["--timeout", "3e6", "--jobs", "1"], "timeout must be at most"),
        (["--jobs", "-3"], "--jobs"),
    ],
)
def test_late_usage_errors_leave_the_results_file_alone(tmp_path, capsys, fixture_claims, args,
                                                         problem):
    path = _results_file(tmp_path)
    before = path.read_bytes()
    args = [a.replace("{port}", str(_closed_port())) for a in args]
    assert main(["run", "--claim", "fx.good_first", "--json", str(path), *args]) == 2
    err = _one_line(capsys)
    assert problem in err, err
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.jsonl"]


@pytest.mark.parametrize("value", ['"10"', "float('inf')", "float('nan')", "0", "-1",
                                   "{'quick': '10'}", "True"])
def test_a_claims_own_bad_timeout_leaves_the_results_file_alone(tmp_path, capsys, value):
    path = _results_file(tmp_path)
    before = path.read_bytes()
    tag = abs(hash(value)) % 10**6
    claims = _claims_file(tmp_path, f"bad_timeout_{tag}", f"""
        import verify
        from verify import Evidence, Verdict

        @verify.claim("bt{tag}.c", paper="bt{tag}", where="l. 1", statement="x",
                      kind="property", timeout={value})
        def c(ctx):
            return Evidence(Verdict.SUPPORTED, "ok")
    """)
    assert main(["run", str(claims), "--json", str(path), "--jobs", "1"]) == 2
    err = _one_line(capsys)
    assert f"bt{tag}.c" in err and "timeout" in err and claims.name in err
    assert path.read_bytes() == before


# -- a read-only results file ----------------------------------------------------------
def test_a_read_only_results_file_is_refused_before_writing(tmp_path, capsys, fixture_claims):
    path = _results_file(tmp_path)
    before = path.read_bytes()
    path.chmod(0o444)
    try:
        assert main(["run", "--claim", "fx.good_first", "--json", str(path), "--jobs", "1"]) == 2
        err = _one_line(capsys)
        assert str(path) in err and "read-only" in err
        assert path.read_bytes() == before
        assert (path.stat().st_mode & 0o777) == 0o444
        assert sorted(p.name for p in tmp_path.iterdir()) == ["r.jsonl"]
    finally:
        path.chmod(0o644)


# -- --jobs 0, a documented debugging mode with the same budget and clean-up -----------
def test_jobs_0_is_documented_in_help_and_guide(capsys):
    with pytest.raises(SystemExit):
        main(["run", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "0 runs the claims in this process" in out and "debugging" in out
    guide = (REPO / "docs" / "guide.md").read_text(encoding="utf-8")
    assert "--jobs 0" in guide


def test_jobs_0_stops_a_claim_at_its_budget_and_sweeps_its_processes(tmp_path):
    pidfile = tmp_path / "pid"
    claims = _claims_file(tmp_path, "jobs0_claims", f"""
        import pathlib, subprocess, time
        import verify
        from verify import Evidence, Verdict

        CHILDREN = []  # kept referenced: the sweep, not the garbage collector, ends the child

        @verify.claim("jz.spawn", paper="jz", where="l. 1", statement="x", kind="property")
        def spawn(ctx):
            p = subprocess.Popen(["sleep", "300"])
            CHILDREN.append(p)
            pathlib.Path({str(pidfile)!r}).write_text(str(p.pid))
            return Evidence(Verdict.SUPPORTED, "started a child")

        @verify.claim("jz.hang", paper="jz", where="l. 2", statement="x", kind="property",
                      timeout=2)
        def hang(ctx):
            while True:
                time.sleep(0.05)
    """)
    from verify.discovery import file_entry

    t0 = time.monotonic()
    res = verify.run(["jz.spawn", "jz.hang"], modules=[file_entry(claims)], jobs=0,
                     results_path=tmp_path / "r.jsonl")
    assert time.monotonic() - t0 < 60
    hung = res["jz.hang"]
    assert hung.verdict is Verdict.UNDECIDED and "timeout" in (hung.error or "")
    pid = int(pidfile.read_text())
    assert not Path(f"/proc/{pid}").exists() or "Z" in Path(f"/proc/{pid}/stat").read_text()


# -- --jobs capped; a claim's timeout= checked at registration -----------------------
def test_jobs_beyond_what_the_machine_holds_are_capped_with_one_line(tmp_path, capsys,
                                                                     fixture_claims):
    path = tmp_path / "r.jsonl"
    assert main(["run", "--claim", "fx.good_first", "--json", str(path), "--jobs", "100000",
                 "--quiet"]) == 0
    err = capsys.readouterr().err
    lines = [x for x in err.splitlines() if "--jobs 100000" in x]
    assert len(lines) == 1 and "capped" in lines[0], err
    from verify.runner import max_jobs

    assert 1 <= max_jobs() < 100000


@pytest.mark.parametrize("value", [float("nan"), 0, -1, "10", float("inf"), True, 1e9,
                                   {"quick": 0}, {"slow": 5}])
def test_a_claim_timeout_is_checked_at_registration(value):
    with pytest.raises(ClaimDefinitionError) as info:
        verify.claim("tt.c", paper="tt", where="l. 1", statement="x", kind="property",
                     timeout=value, registry=Registry())(lambda ctx: None)
    msg = str(info.value)
    assert "test_usage_errors.py" in msg and "'tt.c'" in msg and "timeout" in msg
    assert repr(value) in msg or str(value) in msg


@pytest.mark.parametrize("value", [3, 2.5, {"quick": 5, "deep": 600}])
def test_a_good_claim_timeout_registers(value):
    reg = Registry()
    verify.claim("tt.c", paper="tt", where="l. 1", statement="x", kind="property",
                 timeout=value, registry=reg)(lambda ctx: None)
    assert "tt.c" in reg


# -- messages ---------------------------------------------------------------------------
def test_a_full_disk_names_the_path(tmp_path, monkeypatch):
    path = tmp_path / "r.jsonl"

    def full(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(ResultsFileError) as info:
        write_atomic(path, "x\n")
    assert str(path) in str(info.value) and "No space left" in str(info.value)
    assert list(tmp_path.iterdir()) == []  # no temporary file left behind


def test_a_module_that_calls_sys_exit_on_import_says_so(tmp_path, capsys, monkeypatch):
    (tmp_path / "exits_on_import.py").write_text("import sys\nsys.exit(3)\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert main(["list", "--module", "exits_on_import"]) == 2
    err = _one_line(capsys)
    assert "exits_on_import" in err and "sys.exit(3)" in err


def test_report_no_pdf_does_not_speak_of_a_tex_engine(tmp_path, capsys):
    path = _results_file(tmp_path)
    assert main(["report", "--from", str(path), "--out", str(tmp_path / "out"), "--no-pdf"]) == 0
    assert "TeX engine" not in capsys.readouterr().out


@pytest.mark.parametrize("argv", [["list"], ["list", "--json"]])
def test_list_into_a_closed_pipe_is_quiet(tmp_path, argv):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO), str(FIX), *sys.path]))
    code = ("import sys, verify.discovery as r; r.DEFAULT_PACKAGES=('verify_fixture_claims',); "
            "from verify.cli import main; sys.exit(main(sys.argv[1:]))")
    p = subprocess.Popen([sys.executable, "-c", code, *argv], env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    p.stdout.close()  # `verify list | head` once head has exited
    err = p.stderr.read().decode()
    assert p.wait(timeout=120) == 141  # as a shell reports a writer its reader left
    p.stderr.close()
    assert "Traceback" not in err and "BrokenPipe" not in err and "Broken pipe" not in err, err


@pytest.mark.parametrize(
    "argv, problem",
    [
        (["list", "--paper", ""], "--paper is empty"),
        (["run", "--paper", "", "--json", "r.jsonl"], "--paper is empty"),
        (["run", "--claim", "", "--json", "r.jsonl"], "--claim is empty"),
        (["fuzz", "fx.good_first", "--shards", "0", "--json", "r.jsonl"],
         "--shards must be an integer >= 1"),
        (["fuzz", "fx.good_first", "--examples", "0", "--json", "r.jsonl"],
         "--examples must be an integer >= 1"),
        (["report", "--from", "r.jsonl", "--out", ""], "--out is empty"),
        (["report", "--from", "", "--out", "out"], "--from is empty"),
        (["show", "fx.good_first", "--from", ""], "--from is empty"),
    ],
)
def test_empty_and_zero_arguments_are_one_line_errors(tmp_path, capsys, fixture_claims, argv,
                                                      problem):
    _results_file(tmp_path)
    before = (tmp_path / "r.jsonl").read_bytes()
    assert main(argv) == 2
    assert problem in _one_line(capsys)
    assert (tmp_path / "r.jsonl").read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.jsonl"]

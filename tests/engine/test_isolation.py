"""Each claim runs in a fresh fork of a clean template: no global state crosses from one claim
to the next, nothing a claim starts outlives it or the run, and what it prints is kept in its
record instead of reaching the run's output."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import verify
from verify import Verdict
from verify.results import load

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs /proc")

FIXTURES = Path(__file__).parent.parent / "fixtures"
POISON = ["verify_fixture_poison"]
ISOLATION = ["verify_fixture_isolation"]
MARK = "VERIFY-FIXTURE-LOUD"


# -- helpers ---------------------------------------------------------------------------------


def _alive(pid: int) -> bool:
    """True while ``pid`` exists and is not a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")


def _survivors(pids, within_s: float) -> list[int]:
    """The pids still alive after waiting up to ``within_s`` seconds for all to end."""
    deadline = time.monotonic() + within_s
    while True:
        left = [p for p in pids if _alive(p)]
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.1)


def _descendants(root: int) -> set[int]:
    """Every live process below ``root`` in the process tree (from /proc)."""
    parent: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            parent[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
    found, frontier = set(), {root}
    while frontier:
        frontier = {p for p, pp in parent.items() if pp in frontier} - found
        found |= frontier
    return found


def _noted(folder: Path) -> dict[str, list[int]]:
    """The pids the ``orphan.*`` claims noted, by label."""
    out: dict[str, list[int]] = {}
    for f in folder.iterdir():
        label, pid = f.name.split(".")
        out.setdefault(label, []).append(int(pid))
    return out


def _kill(pids) -> None:
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


def _script(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "parent.py"
    path.write_text(f"import sys\nsys.path.insert(0, {str(FIXTURES)!r})\nimport verify\n"
                    + textwrap.dedent(body))
    return path


@pytest.fixture
def pid_dir(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "pids"
    folder.mkdir()
    monkeypatch.setenv("VERIFY_FIXTURE_PIDS", str(folder))
    return folder


# -- no state crosses claims -----------------------------------------------------------------


def _detectors(results) -> dict[str, Verdict]:
    return {r.id: r.verdict for r in results if ".p" not in r.id}


def test_poison_does_not_reach_later_claims_in_one_worker(tmp_path):
    results = verify.run(["poison.p0", "poison.a.*"], modules=POISON, jobs=1,
                         results_path=tmp_path / "r.jsonl")
    assert results["poison.p0"].verdict is Verdict.SUPPORTED  # it did poison its process
    detectors = _detectors(results)
    assert len(detectors) == 10
    assert set(detectors.values()) == {Verdict.SUPPORTED}, detectors


@pytest.mark.parametrize("select", [
    ["poison.*"],  # both workers poisoned first, poisoned again half-way
    ["poison.p0", "poison.b.*"],  # one poisoner, then the detectors in reverse order
    ["poison.a.*", "poison.p2", "poison.b.*"],  # the poisoner in the middle
])
@pytest.mark.slow
def test_poison_does_not_reach_later_claims_with_two_workers(tmp_path, select):
    results = verify.run(select, modules=POISON, jobs=2, results_path=tmp_path / "r.jsonl")
    detectors = _detectors(results)
    assert detectors and set(detectors.values()) == {Verdict.SUPPORTED}, detectors


@pytest.mark.slow
def test_detectors_refute_a_poisoned_process(tmp_path):
    """In one process (``jobs=0``, no isolation) every detector sees the poison: the
    detectors can fail, so their passing above means something."""
    out = tmp_path / "r.jsonl"
    script = _script(tmp_path, f"""
        verify.run(["poison.p0", "poison.a.*"], modules={POISON!r}, jobs=0,
                   results_path={str(out)!r})
    """)
    subprocess.run([sys.executable, str(script)], cwd=tmp_path, check=True, timeout=300,
                   capture_output=True)
    results = load(out)
    detectors = {r.id: r for r in results if ".p" not in r.id}
    assert len(detectors) == 10
    for r in detectors.values():
        assert r.verdict is Verdict.REFUTED, (r.id, r.summary)
        assert r.evidence[0].counterexample["found"] != r.evidence[0].counterexample["expected"]


# -- nothing outlives its claim or the run ---------------------------------------------------


def test_processes_a_claim_starts_do_not_outlive_it(tmp_path, pid_dir):
    select = ["orphan.popen", "orphan.fork", "orphan.setsid"]
    results = verify.run(select, modules=ISOLATION, jobs=1, results_path=tmp_path / "r.jsonl")
    assert {r.verdict for r in results} == {Verdict.SUPPORTED}
    noted = _noted(pid_dir)
    assert sorted(noted) == ["fork", "popen", "setsid"]
    pids = [p for ps in noted.values() for p in ps]
    try:
        assert _survivors(pids, within_s=5) == []
    finally:
        _kill(pids)


def _default_signals() -> None:
    for sig in (signal.SIGHUP, signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, signal.SIG_DFL)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP, signal.SIGKILL, signal.SIGINT],
                         ids=lambda s: s.name)
def test_no_process_survives_a_killed_parent(tmp_path, pid_dir, sig):
    script = _script(tmp_path, f"""
        if __name__ == "__main__":
            verify.run(["orphan.hangs"], modules={ISOLATION!r}, jobs=1,
                       results_path={str(tmp_path / "r.jsonl")!r})
    """)
    # default dispositions in the parent, even when the suite itself runs under nohup (which
    # ignores SIGHUP, and the runner rightly keeps an ignored signal ignored)
    parent = subprocess.Popen([sys.executable, str(script)], cwd=tmp_path,
                              preexec_fn=_default_signals,
                              start_new_session=True, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    tree: set[int] = set()
    try:
        deadline = time.monotonic() + 180
        while len(_noted(pid_dir)) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        noted = _noted(pid_dir)
        assert sorted(noted) == ["claim", "sleeper"], "the claim did not start"
        tree = _descendants(parent.pid)
        assert noted["claim"][0] in tree and noted["sleeper"][0] in tree
        os.kill(parent.pid, sig)
        assert parent.wait(timeout=30) == -sig
        assert _survivors(tree, within_s=30) == []
    finally:
        _kill([parent.pid, *tree])
        parent.wait(timeout=30)


# -- output is kept per claim ----------------------------------------------------------------


def test_output_is_kept_in_the_record_not_the_run(tmp_path, capfd):
    path = tmp_path / "r.jsonl"
    results = verify.run(["out.loud", "out.quiet"], modules=ISOLATION, jobs=1,
                         results_path=path)
    out, err = capfd.readouterr()
    assert MARK not in out and MARK not in err
    loud = results["out.loud"]
    assert loud.verdict is Verdict.SUPPORTED
    for stream in ("stdout", "stderr"):
        text = loud.output[stream]
        assert text.startswith("[... first ") and " bytes cut ...]\n" in text
        assert text.endswith(f"{MARK} last {stream} line\n")
        assert len(text.encode()) <= 8192 + 100
    assert results["out.quiet"].output == {"stdout": "hello\n"}
    assert f"{MARK} last stdout line" in path.read_text()  # the record keeps the tail


def test_a_closed_stdout_does_not_fail_a_claim(tmp_path):
    """``verify run | head``: the reader of the run's stdout is gone; the claim's prints go to
    its own file, so it does not die of a broken pipe."""
    out = tmp_path / "r.jsonl"
    script = _script(tmp_path, f"""
        if __name__ == "__main__":
            import time
            time.sleep(1)  # the reader has closed its end by now
            verify.run(["out.loud"], modules={ISOLATION!r}, jobs=1, results_path={str(out)!r})
    """)
    proc = subprocess.Popen([sys.executable, str(script)], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err.decode()
    assert load(out)["out.loud"].verdict is Verdict.SUPPORTED


# -- the template survives what its claims do ------------------------------------------------


def test_template_serves_the_next_claim_after_a_crash_or_timeout(tmp_path):
    """The template outlives its claims' crashes and timeouts, and a process a claim forks
    that returns through the claim process's code sends no second record."""
    results = verify.run("tpl.*", modules=ISOLATION, jobs=1, results_path=tmp_path / "r.jsonl")
    assert "claim process killed by SIGSEGV" in results["tpl.segfaults"].summary
    assert "claim process exited with status 3" in results["tpl.exits"].summary
    assert "timeout: still running after its budget of 1 s" in results["tpl.hangs"].summary
    assert results["tpl.forks_and_returns"].summary == "parent"  # the copy sent nothing
    assert [r.id for r in results] == [c.id for c in verify.REGISTRY.select("tpl.*")]
    first, last = results["tpl.first"], results["tpl.last"]
    assert first.verdict is last.verdict is Verdict.SUPPORTED
    template = first.evidence[0].numbers["template"]
    assert last.evidence[0].numbers["template"] == template  # not replaced

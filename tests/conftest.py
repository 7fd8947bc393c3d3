"""Shared pytest set-up for the suite's folders (``engine/`` for verify's own machinery, one
folder per built-in paper): fixture claim modules importable by the runner's worker processes,
and every test confined to its own ``tmp_path``."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"
sys.path.insert(0, str(FIXTURES))  # spawned workers inherit sys.path
# the suite's shared modules (soundness_corpus, device_trace) import from every test folder
sys.path.insert(0, str(Path(__file__).parent))
os.environ.setdefault("OMP_NUM_THREADS", "1")


@pytest.fixture(autouse=True, scope="session")
def _cache_in_tmp(tmp_path_factory):
    """Trained models memoised by ``verify.memo`` go to the session's temporary folder, never
    to the user's ``~/.cache/verify``."""
    os.environ["VERIFY_CACHE_DIR"] = str(tmp_path_factory.mktemp("verify-cache"))
    yield


@pytest.fixture(autouse=True)
def _run_in_tmp_path(tmp_path, monkeypatch):
    """Every test runs with its own ``tmp_path`` as the working directory, so a default
    output path (``results.jsonl``, ``docs/report``) can never touch the checkout or a
    user's results (tests/engine/test_data_safety.py checks it)."""
    monkeypatch.chdir(tmp_path)


#: Files of the checkout that a run or a report writes by default: no test may touch them.
REPO = Path(__file__).resolve().parent.parent
GUARDED = ("results.jsonl", "results.meta.json", "results.jsonl.lock",
           "docs/report/results.jsonl", "docs/report/results.meta.json", "docs/report/summary.tex")


def _snapshot() -> dict[str, tuple[int, int] | None]:
    out: dict[str, tuple[int, int] | None] = {}
    for rel in GUARDED:
        try:
            st = (REPO / rel).stat()
            out[rel] = (st.st_mtime_ns, st.st_size)
        except FileNotFoundError:
            out[rel] = None
    return out


def pytest_sessionstart(session):
    session.config._verify_checkout = _snapshot()


def pytest_sessionfinish(session, exitstatus):
    """Fail the session when a test wrote a user's results or report in the checkout."""
    before = getattr(session.config, "_verify_checkout", None)
    if before is None:
        return
    changed = [rel for rel, state in _snapshot().items() if state != before[rel]]
    if changed:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.write_line(f"\ntests wrote into the checkout: {', '.join(changed)}", red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED

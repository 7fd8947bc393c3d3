"""Shared pytest set-up: fixture claim modules importable by the runner's worker processes,
and every test confined to its own ``tmp_path``."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"
sys.path.insert(0, str(FIXTURES))  # spawned workers inherit sys.path
os.environ.setdefault("OMP_NUM_THREADS", "1")


@pytest.fixture(autouse=True)
def _run_in_tmp_path(tmp_path, monkeypatch):
    """Every test runs with its own ``tmp_path`` as the working directory, so a default
    output path (``results.jsonl``, ``docs/report``) can never touch the checkout or a
    user's results (tests/test_data_safety.py checks it)."""
    monkeypatch.chdir(tmp_path)

"""Shared pytest set-up: fixture claim modules importable by the runner's worker processes."""

from __future__ import annotations

import os
import sys
from pathlib import Path

FIXTURES = Path(__file__).parent / "fixtures"
sys.path.insert(0, str(FIXTURES))  # spawned workers inherit sys.path
os.environ.setdefault("OMP_NUM_THREADS", "1")

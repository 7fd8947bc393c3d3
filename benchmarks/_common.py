"""Helpers shared by the benchmark scripts: timing, and saving a JSON record."""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).parent / "results"


def timeit(fn: Callable[[], Any], repeat: int = 3) -> dict[str, float]:
    """Median and min wall time of ``fn`` over ``repeat`` runs (seconds)."""
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return {"median_s": statistics.median(times), "min_s": min(times)}


def save(name: str, record: dict[str, Any]) -> Path:
    from verify import provenance

    RESULTS.mkdir(exist_ok=True)
    path = RESULTS / f"{name}.json"
    record = {"provenance": provenance.collect(), **record}
    path.write_text(json.dumps(record, indent=2, default=str))
    return path

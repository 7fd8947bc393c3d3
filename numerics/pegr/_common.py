"""Private helpers of the pegr claim modules: paper key, thresholds, evidence builders."""

from __future__ import annotations

from typing import Any

import torch

from verify import Evidence, Verdict

PAPER = "pegr"
#: float64 identity threshold (claims/pegr.md, Conventions: 1e-12 * D)
PASS = 1e-12
#: a counterexample needs a relative error at least this large (claims/pegr.md, Conventions)
FAIL = 1e-6


def judge(err: float, summary: str, *, tol: float = PASS, fail: float = FAIL, counterexample: dict | None = None,
          **kw: Any) -> Evidence:
    """SUPPORTED when ``err <= tol``, REFUTED (with ``counterexample``) when ``err >= fail``, else UNDECIDED."""
    kw.setdefault("method", "numeric")
    kw.setdefault("dtype", "float64")
    numbers = dict(kw.pop("numbers", {}))
    numbers.update({"rel_error": float(err), "tol": tol, "fail_threshold": fail})
    if err <= tol:
        return Evidence(Verdict.SUPPORTED, f"{summary}: rel. error {err:.2e} <= {tol:g}", numbers=numbers, **kw)
    if err >= fail and counterexample is not None:
        ce = dict(counterexample)
        ce.setdefault("rel_error", float(err))
        return Evidence(Verdict.REFUTED, f"{summary}: rel. error {err:.3g} >= {fail:g}", numbers=numbers,
                        counterexample=ce, **kw)
    return Evidence(Verdict.UNDECIDED, f"{summary}: rel. error {err:.2e} (not within tol; no counterexample kept)",
                    numbers=numbers, **kw)


def refuted(summary: str, counterexample: dict, **kw: Any) -> Evidence:
    """A REFUTED piece with its counterexample (re-checked by the caller, exactly or in float64)."""
    kw.setdefault("method", "numeric")
    return Evidence(Verdict.REFUTED, summary, counterexample=counterexample, **kw)


def gen(seed: int) -> torch.Generator:
    g = torch.Generator()
    g.manual_seed(int(seed))
    return g


def relabel(e: Evidence, *, part: str | None = None, reading: str | None = None, summary: str | None = None,
            generality: str | None = None) -> Evidence:
    """Set part / reading / generality / a summary prefix on an engine Evidence."""
    return e.relabel(part=part, reading=reading, generality=generality, prefix=summary)

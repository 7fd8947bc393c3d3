"""Judging a measured error, or a checked condition, into numeric evidence.

Many numeric claims end in one number: the worst relative error of an identity evaluated in
float64 over the inputs drawn, or a yes/no over an exhaustively checked finite set. The rule
that turns it into a verdict is stated once, here, so that every paper uses the same one:

- :func:`judge_error`: SUPPORTED when ``err <= tol`` (the identity holds to round-off);
  REFUTED when ``err >= fail`` *and* a counterexample reproducing it is given; UNDECIDED
  in between (too large for round-off, too small to call a violation) or when no
  counterexample was kept. ``tol`` and ``fail`` are relative errors, chosen per paper from
  its conventions (for float64 identities typically ``1e-12 * size`` and ``1e-6``).
- :func:`judge_check`: SUPPORTED when the condition held on every case; REFUTED with the
  failing case as counterexample otherwise. A failing check without a counterexample is a
  bug of the claim, so it is UNDECIDED with that reason, never a bare REFUTED.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from ..evidence import Evidence
from ..verdict import Verdict


def judge_error(
    err: float,
    summary: str,
    *,
    tol: float,
    fail: float,
    counterexample: Mapping[str, Any] | None = None,
    **evidence_kw: Any,
) -> Evidence:
    """The verdict of a relative error ``err`` against the thresholds ``tol < fail``.

    ``numbers`` records ``rel_error``, ``tol`` and ``fail_threshold`` beside whatever the
    caller passes; extra keywords go to :class:`~verify.Evidence` (``reading``, ``part``,
    ``generality``...). The method defaults to ``numeric`` and the dtype to ``float64``.
    """
    if not tol < fail:
        raise ValueError(f"judge_error needs tol < fail, got tol={tol!r}, fail={fail!r}")
    err = float(err)
    evidence_kw.setdefault("method", "numeric")
    evidence_kw.setdefault("dtype", "float64")
    numbers = dict(evidence_kw.pop("numbers", {}))
    numbers.update({"rel_error": err, "tol": tol, "fail_threshold": fail})
    if math.isnan(err):
        return Evidence(Verdict.UNDECIDED, f"{summary}: the error is NaN", numbers=numbers,
                        **evidence_kw)
    if err <= tol:
        return Evidence(Verdict.SUPPORTED, f"{summary}: rel. error {err:.2e} <= {tol:g}",
                        numbers=numbers, **evidence_kw)
    if err >= fail and counterexample:
        ce = dict(counterexample)
        ce.setdefault("rel_error", err)
        return Evidence(Verdict.REFUTED, f"{summary}: rel. error {err:.3g} >= {fail:g}",
                        numbers=numbers, counterexample=ce, **evidence_kw)
    why = "between the thresholds" if err < fail else "above the threshold, no counterexample kept"
    return Evidence(Verdict.UNDECIDED, f"{summary}: rel. error {err:.2e} {why}",
                    numbers=numbers, **evidence_kw)


def judge_check(
    ok: bool,
    summary: str,
    *,
    counterexample: Mapping[str, Any] | None = None,
    **evidence_kw: Any,
) -> Evidence:
    """SUPPORTED when ``ok``; otherwise REFUTED with ``counterexample`` (the failing case).

    Extra keywords go to :class:`~verify.Evidence`; the method defaults to ``numeric``.
    """
    evidence_kw.setdefault("method", "numeric")
    if ok:
        return Evidence(Verdict.SUPPORTED, summary, **evidence_kw)
    if not counterexample:
        return Evidence(Verdict.UNDECIDED,
                        f"{summary}: the check failed but kept no counterexample", **evidence_kw)
    return Evidence(Verdict.REFUTED, summary, counterexample=dict(counterexample), **evidence_kw)

"""Judging a measured number into numeric evidence: one rule, three outcomes.

Every numeric check ends in a number compared with a tolerance: the worst relative error of
an identity, the worst violation a falsifier found, the shortfall of a margin, the output gap
of two inputs. The rule that turns it into a verdict is stated once, here:

1. **Three zones.** A value at most ``tol`` is *clear* of the tolerance (SUPPORTED: the
   property holds to round-off). A value at least ``fail`` (``fail > tol``) is *beyond* it.
   In between it is *inside the band*: too large for round-off, too small to call a
   violation, so UNDECIDED "within tolerance" -- a value in the band is evidence of nothing.
   (:func:`zone`.)
2. **A refutation must stand.** A value beyond ``fail`` refutes only when (a) it was
   confirmed exactly (an exact or interval re-evaluation on the same inputs), or (b) it
   exceeds ``fail`` by :data:`REFUTE_FACTOR` (10x), or (c) the same check under a *fresh*
   seed, an independent search or evaluation derived from the claim's seed, is beyond
   ``fail`` too. Otherwise the evidence is UNDECIDED with both numbers: a refutation that
   one seed gives and another does not is seed-fragile. (:func:`refutation_stands`.)
3. A refutation also needs a counterexample (a reader must be able to re-run it); a NaN is
   never a pass nor a counterexample.

The engines apply it: :func:`judge_error` (one relative error, ``tol < fail`` chosen per
paper, e.g. ``1e-10`` and ``1e-3``), :func:`verify.numeric.falsify` (``fail = tol``: a
float64-confirmed violation above ``tol`` must stand by (b) or (c)), ``check_margin`` (the
slack of a margin against ``tol`` on both sides, exact comparison on exact data) and
``check_injective`` (a near-collision chased to a confirmed collision, or UNDECIDED).
:func:`judge_check` is the yes/no case: SUPPORTED when the condition held on every case;
REFUTED with the failing case otherwise (UNDECIDED when no counterexample was kept).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from ..evidence import Evidence
from ..verdict import Verdict

#: A numeric refutation that is neither exact nor re-found under a fresh seed must exceed its
#: threshold by this factor: rounding and the luck of one draw rarely reach 10x a threshold
#: chosen well above round-off, and a true violation found near its threshold is re-found.
REFUTE_FACTOR = 10.0

Zone = Literal["clear", "band", "beyond"]


def zone(value: float, *, tol: float, fail: float) -> Zone:
    """``clear`` (``value <= tol``), ``beyond`` (``value >= fail``) or ``band`` (between, or
    NaN: a NaN is no evidence either way)."""
    if not tol <= fail:
        raise ValueError(f"zone needs tol <= fail, got tol={tol!r}, fail={fail!r}")
    value = float(value)
    if math.isnan(value):
        return "band"
    if value <= tol:
        return "clear"
    return "beyond" if value >= fail else "band"


@dataclass(frozen=True)
class Standing:
    """Whether a value beyond its threshold refutes (rule 2), and why, in words."""

    holds: bool
    reason: str


def refutation_stands(
    value: float,
    fail: float,
    *,
    exact: bool = False,
    fresh: float | None = None,
) -> Standing:
    """Rule 2 for a ``value >= fail``: it refutes when ``exact`` (confirmed exactly), when
    ``value >= REFUTE_FACTOR * fail``, or when ``fresh`` (the same check under a fresh seed)
    is ``>= fail`` too. ``fresh=None`` means no fresh-seed check was made."""
    value = float(value)
    if exact:
        return Standing(True, "confirmed exactly")
    if fail <= 0:
        return Standing(value > 0, "above a zero threshold" if value > 0 else "not above zero")
    if value >= REFUTE_FACTOR * fail:
        return Standing(True, f"{value / fail:.3g}x the threshold (>= {REFUTE_FACTOR:g}x)")
    if fresh is None:
        return Standing(False, f"only {value / fail:.3g}x the threshold (< {REFUTE_FACTOR:g}x), "
                               "neither confirmed exactly nor re-checked under a fresh seed")
    fresh = float(fresh)
    if fresh >= fail:
        return Standing(True, f"holds under a fresh seed too ({fresh:.3g} >= {fail:g})")
    return Standing(False, f"seed-fragile: {value:.3g} at this seed but {fresh:.3g} under a "
                           f"fresh seed (threshold {fail:g}, needs {REFUTE_FACTOR:g}x or both)")


def judge_error(
    err: float,
    summary: str,
    *,
    tol: float,
    fail: float,
    counterexample: Mapping[str, Any] | None = None,
    exact_error: float | None = None,
    fresh: float | Callable[[], float] | None = None,
    **evidence_kw: Any,
) -> Evidence:
    """The verdict of a relative error ``err`` against the thresholds ``tol < fail``.

    ``exact_error``: the same error recomputed in exact arithmetic on the same (float64)
    inputs. Evaluation round-off is then excluded, so the band closes: the exact error
    decides, SUPPORTED at most ``tol`` and REFUTED (confirmed exactly) above it.
    ``fresh``: the error of the same check under a fresh seed (a number, or a function
    called only when rule 2 needs it, so that the cost is paid only near the threshold).

    ``numbers`` records ``rel_error``, ``tol`` and ``fail_threshold`` (and ``exact_error``,
    ``fresh_seed_error`` when known) beside whatever the caller passes; extra keywords go to
    :class:`~verify.Evidence` (``reading``, ``part``, ``generality``...). The method defaults
    to ``numeric`` and the dtype to ``float64``.
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
    if exact_error is not None:
        return _judge_exact(err, float(exact_error), summary, tol, counterexample, numbers,
                            evidence_kw)
    where = zone(err, tol=tol, fail=fail)
    if where == "clear":
        return Evidence(Verdict.SUPPORTED, f"{summary}: rel. error {err:.2e} <= {tol:g}",
                        numbers=numbers, **evidence_kw)
    if where == "band":
        return Evidence(Verdict.UNDECIDED, f"{summary}: rel. error {err:.2e} within tolerance "
                        f"(between the thresholds {tol:g} and {fail:g})",
                        numbers=numbers, **evidence_kw)
    if not counterexample:
        return Evidence(Verdict.UNDECIDED, f"{summary}: rel. error {err:.2e} above the "
                        "threshold, no counterexample kept", numbers=numbers, **evidence_kw)
    second = None
    if err < REFUTE_FACTOR * fail and fresh is not None:
        second = float(fresh() if callable(fresh) else fresh)
        numbers["fresh_seed_error"] = second
    standing = refutation_stands(err, fail, fresh=second)
    if not standing.holds:
        return Evidence(Verdict.UNDECIDED, f"{summary}: rel. error {err:.3g} >= {fail:g} but "
                        f"not a standing refutation: {standing.reason}",
                        numbers=numbers, **evidence_kw)
    ce = dict(counterexample)
    ce.setdefault("rel_error", err)
    return Evidence(Verdict.REFUTED, f"{summary}: rel. error {err:.3g} >= {fail:g} "
                    f"({standing.reason})", numbers=numbers, counterexample=ce, **evidence_kw)


def _judge_exact(err, exact, summary, tol, counterexample, numbers, evidence_kw) -> Evidence:
    """``judge_error`` when the error was recomputed exactly: no band is left."""
    numbers["exact_error"] = exact
    if math.isnan(exact):
        return Evidence(Verdict.UNDECIDED, f"{summary}: the exact error is NaN",
                        numbers=numbers, **evidence_kw)
    if exact <= tol:
        return Evidence(Verdict.SUPPORTED, f"{summary}: exact rel. error {exact:.2e} <= {tol:g}"
                        f" (float64 {err:.2e})", numbers=numbers, **evidence_kw)
    if not counterexample:
        return Evidence(Verdict.UNDECIDED, f"{summary}: exact rel. error {exact:.2e} above "
                        f"{tol:g}, no counterexample kept", numbers=numbers, **evidence_kw)
    ce = dict(counterexample)
    ce.setdefault("rel_error", err)
    ce.setdefault("exact_rel_error", exact)
    return Evidence(Verdict.REFUTED, f"{summary}: rel. error {exact:.3g} > {tol:g} (confirmed "
                    f"exactly; float64 gave {err:.3g})", numbers=numbers, counterexample=ce,
                    **evidence_kw)


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

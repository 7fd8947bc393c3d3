"""Judging a re-run experiment against the paper: one rule, three outcomes.

A paper's experiment prints a number (an error level, a mean with its spread, an exponent, a
percentage, a threshold it stays below) or a ranking of methods. Re-measured here, it is
REPRODUCED, NOT_REPRODUCED or UNDECIDED by one rule, stated once:

1. **Compare as the paper prints.** A comparison (:class:`Finding`, built by one of the
   functions below) says whether the measurement agrees with the printed value, at the
   precision the paper prints it:

   - :func:`same_order`: an error level, ``|log10(measured / paper)| <= 1``;
   - :func:`within_factor`: a value printed without spread, ``paper / f <= measured <= paper f``;
   - :func:`within_spread`: a mean with a printed spread, ``|measured - paper| <= 2 sqrt(sd_p^2
     + sd_m^2)`` (two standard deviations of a difference);
   - :func:`within_tolerance` / :func:`exponent_within`: a value or exponent printed to a
     known precision, ``|measured - paper| <= tol``;
   - :func:`below` / :func:`above`: a printed threshold ("below 1e-5", "exceeds 0.999");
   - :func:`percent_within`: a printed percentage: the interval ``paper +- half a unit of its
     last printed digit`` meets the measured rate's Wilson 95% interval (or, where trials are
     not independent, contains the rate itself);
   - :func:`ranking`: a claimed strict order of methods, decided pair by pair by a two-sided
     Welch t-test over seeds at :data:`ALPHA` = 0.05, or a paired t-test where the methods ran
     on the same seeds (the test, alpha and the number of seeds are in the evidence). A
     significant difference in the claimed direction holds; one in the opposite direction is
     a reversal; a non-significant difference is a **tie**, not a reversal. A tie can
     neither reproduce nor refute a strict ranking: UNDECIDED, saying so.

   A non-finite measurement, or fewer than two seeds per method in a ranking, decides
   nothing (UNDECIDED).
2. **Better than the paper is not a failure.** Where the claim says which way is better
   (``better="lower"`` for an error), a measurement beyond the paper's on the good side, e.g.
   exact equivariance where the paper reports 1e-2, is REPRODUCED, "exceeds the paper".
3. **A reduced hyperparameter grid decides no ranking.** A ranking measured over a grid
   smaller than the paper's (``grid="reduced"``) is UNDECIDED whatever it found: the paper's
   grid may hold the setting that reverses it. The evidence carries ``needs_compute`` (the
   estimate and the command that runs the paper's grid).
4. **A shortfall at a reduced scale** is UNDECIDED when the caller says so
   (``shortfall="undecided"``: a model trained at a smaller scale falling short of the paper's
   accuracy is no evidence against the paper's; reaching or exceeding it is).
5. **Otherwise** the measurement agrees (REPRODUCED) or does not (NOT_REPRODUCED). A
   NOT_REPRODUCED says the number was not reproduced, never that the paper is false, unless a
   *controlled* comparison contradicts the paper's conclusion (``controlled=True``: the same
   seeds, one factor changed), and then it says that.

Whether the scale of the run can judge the paper at all is the audit's job
(:func:`verify.combine.audit`: a piece at ``scale="smoke"`` is UNDECIDED); every piece built
here carries the scale and setting it is given. :func:`experiment_evidence` is the one place an
experiment's :class:`~verify.Evidence` is assembled (``method="experiment"`` and the numbers
schema: ``paper_value``, ``measured``, ``spread``, ``n_seeds``, ``tolerance``, ``metric``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from ..evidence import Evidence
from ..verdict import Verdict

#: Significance level of every test a ranking is decided by.
ALPHA = 0.05

#: The test a ranking is decided by, as the evidence names it.
RANKING_TEST = "two-sided Welch t-test"

#: The test of a ranking whose methods ran on the same seeds (paired by seed).
PAIRED_TEST = "two-sided paired t-test"

Better = Literal["lower", "higher"]


@dataclass(frozen=True)
class Finding:
    """What one comparison with the paper found.

    ``agrees``: True (consistent with the printed value), False (not), None (decides nothing:
    a non-finite value, too few seeds, a tie in a ranking). ``side``: where a disagreeing
    value lies, ``"lower"`` or ``"higher"`` than the paper's (None when it agrees or for a
    ranking). ``detail``: the comparison in words; ``numbers``: what it computed, with
    ``paper_value`` and ``measured``; ``tolerance``: the rule in words. ``reversed`` marks a
    ranking with a significant reversal; ``is_ranking`` a ranking at all.
    """

    agrees: bool | None
    detail: str
    numbers: dict[str, Any] = field(default_factory=dict)
    tolerance: str = ""
    side: str | None = None
    is_ranking: bool = False
    reversed: bool = False


def _finite(*xs: float | None) -> bool:
    return all(x is not None and math.isfinite(float(x)) for x in xs)


def _nonfinite(paper: Any, measured: Any, tolerance: str) -> Finding:
    return Finding(None, "the measurement is not finite", {"paper_value": paper,
                                                           "measured": measured}, tolerance)


def _side(measured: float, paper: float) -> str:
    return "lower" if measured < paper else "higher"


def same_order(measured: float, paper: float) -> Finding:
    """An error level: agrees when ``|log10(measured / paper)| <= 1`` (a measured 0 is not of a
    positive paper value's order: it lies below it)."""
    tol = "same order of magnitude: |log10(measured / paper)| <= 1"
    if not _finite(measured, paper):
        return _nonfinite(paper, measured, tol)
    ok = measured > 0 and paper > 0 and abs(math.log10(measured / paper)) <= 1.0
    ratio = math.log10(measured / paper) if measured > 0 and paper > 0 else float("-inf")
    text = (f"log10(measured / paper) = {ratio:+.2f}" if math.isfinite(ratio)
            else "measured exactly 0")
    return Finding(ok, text, {"paper_value": paper, "measured": measured}, tol,
                   None if ok else _side(measured, paper))


def within_factor(measured: float, paper: float, factor: float = 2.0) -> Finding:
    """A value printed without spread: agrees when ``paper / factor <= measured <= paper *
    factor``."""
    tol = f"within a factor {factor:g} of the paper"
    if not _finite(measured, paper):
        return _nonfinite(paper, measured, tol)
    ok = measured > 0 and paper / factor <= measured <= paper * factor
    return Finding(ok, f"ratio measured / paper = {measured / paper:.3g}",
                   {"paper_value": paper, "measured": measured}, tol,
                   None if ok else _side(measured, paper))


def within_spread(measured: float, measured_sd: float, paper: float, paper_sd: float) -> Finding:
    """A mean with a printed spread: agrees when ``|measured - paper| <= 2 sqrt(paper_sd^2 +
    measured_sd^2)``."""
    if not _finite(measured, measured_sd, paper, paper_sd):
        return _nonfinite(paper, measured, "within two sd of a difference")
    bound = 2.0 * math.hypot(paper_sd, measured_sd)
    ok = abs(measured - paper) <= bound
    return Finding(ok, f"|measured - paper| = {abs(measured - paper):.3g} vs 2 sd = {bound:.3g}",
                   {"paper_value": paper, "paper_spread": paper_sd, "measured": measured,
                    "spread": measured_sd, "bound": bound},
                   "|measured - paper| <= 2 sqrt(sd_paper^2 + sd_measured^2)",
                   None if ok else _side(measured, paper))


def within_tolerance(measured: float, paper: float, tol: float, what: str = "value") -> Finding:
    """A value printed to a known precision: agrees when ``|measured - paper| <= tol``."""
    rule = f"|measured - paper| <= {tol:g} (the printed precision)"
    if not _finite(measured, paper):
        return _nonfinite(paper, measured, rule)
    ok = abs(measured - paper) <= tol
    return Finding(ok, f"{what} {measured:.4g} vs the paper's {paper:g}",
                   {"paper_value": paper, "measured": measured}, rule,
                   None if ok else _side(measured, paper))


def exponent_within(measured: float, paper: float, tol: float = 0.1) -> Finding:
    """A printed exponent: agrees when ``|measured - paper| <= tol`` (the printed precision)."""
    return within_tolerance(measured, paper, tol, "exponent")


def below(measured: float, threshold: float) -> Finding:
    """A printed "below ``threshold``": agrees when ``measured < threshold``."""
    rule = f"measured < {threshold:g}"
    if not _finite(measured, threshold):
        return _nonfinite(threshold, measured, rule)
    ok = measured < threshold
    return Finding(ok, f"{measured:.3g} {'<' if ok else '>='} {threshold:g}",
                   {"paper_value": threshold, "measured": measured}, rule,
                   None if ok else "higher")


def above(measured: float, threshold: float) -> Finding:
    """A printed "exceeds ``threshold``": agrees when ``measured > threshold``."""
    rule = f"measured > {threshold:g}"
    if not _finite(measured, threshold):
        return _nonfinite(threshold, measured, rule)
    ok = measured > threshold
    return Finding(ok, f"{measured:.3g} {'>' if ok else '<='} {threshold:g}",
                   {"paper_value": threshold, "measured": measured}, rule,
                   None if ok else "lower")


def wilson(p: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval of a rate ``p`` over ``n`` independent trials (95% by default)."""
    if n <= 0:
        return 0.0, 1.0
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return max(0.0, mid - half), min(1.0, mid + half)


def percent_within(paper: float, hits: int, n: int, *, decimals: int = 1,
                   independent: bool = True) -> Finding:
    """A printed percentage (``decimals`` digits): agrees when ``paper +- half a unit of the last
    digit`` meets the measured rate's Wilson 95% interval over ``n`` trials; where the trials
    are not independent (``independent=False``: cells of one sequence) the interval is the
    rate itself."""
    if n <= 0:
        return _nonfinite(paper, float("nan"), "no trials")
    rate = hits / n
    lo, hi = wilson(rate, n) if independent else (rate, rate)
    half = 0.5 * 10.0 ** (-decimals)
    p_lo, p_hi = (paper - half) / 100, (paper + half) / 100
    ok = lo <= p_hi and p_lo <= hi
    rule = ("Wilson 95% interval meets paper +- half its last digit" if independent
            else "rounds to the printed value")
    side = None if ok else ("lower" if hi < p_lo else "higher")
    ci = f"Wilson 95% [{100 * lo:.2f}, {100 * hi:.2f}], " if independent else ""
    return Finding(ok, f"{ci}n={n}", {"paper_value": paper, "measured": 100 * rate, "n": n,
                                      "interval": [100 * lo, 100 * hi]}, rule, side)


def ranking(
    runs: Mapping[str, Sequence[float]],
    claimed_best: str,
    *,
    better: Better = "lower",
    alpha: float = ALPHA,
    paired: bool = False,
) -> Finding:
    """A claimed strict ranking "``claimed_best`` beats every other method" from per-seed
    values ``runs[method]``, pair by pair by a two-sided Welch t-test at ``alpha`` (or, with
    ``paired=True``, a paired t-test: the methods ran on the same seeds, in the same order).

    Agrees when every difference is significant in the claimed direction; disagrees (a
    reversal) when some other method is significantly better; otherwise None: a tie, which
    neither reproduces nor refutes a strict ranking. ``numbers`` holds, per pair, the means,
    ``t``, ``p`` and the outcome; ``measured`` is the claimed best's mean, ``paper_value`` the
    claimed order in words."""

    values = {k: np.asarray(v, dtype=np.float64).reshape(-1) for k, v in runs.items()}
    seeds = min(v.size for v in values.values())
    means = {k: float(v.mean()) for k, v in values.items()}
    sign = 1.0 if better == "lower" else -1.0
    order = f"{claimed_best} {'lowest' if better == 'lower' else 'highest'}"
    name = PAIRED_TEST if paired else RANKING_TEST
    test = f"{name}, alpha={alpha:g}, {seeds} seeds per method"
    numbers: dict[str, Any] = {"paper_value": order, "measured": means[claimed_best],
                               "means": means, "n_seeds": seeds, "test": name,
                               "alpha": alpha}
    if seeds < 2 or not all(np.isfinite(v).all() for v in values.values()):
        return Finding(None, f"too few seeds ({seeds}) or a non-finite value: no test",
                       numbers, test, is_ranking=True)
    pairs = {}
    for other in values:
        if other != claimed_best:
            pair = _pair_test(values[claimed_best], values[other], paired)
            gain = sign * (means[other] - means[claimed_best])  # > 0: the claimed order
            pair["outcome"] = ("tie" if not pair["p"] < alpha  # a NaN p is a tie too
                               else "claimed" if gain > 0 else "reversed")
            pairs[other] = pair
    ties = [k for k, v in pairs.items() if v["outcome"] == "tie"]
    reversals = [k for k, v in pairs.items() if v["outcome"] == "reversed"]
    pairs = {f"{claimed_best} vs {k}": v for k, v in pairs.items()}
    numbers["pairs"] = pairs
    listed = "; ".join(f"{k}: p={v['p']:.3g} ({v['outcome']})" for k, v in pairs.items())
    if reversals:
        return Finding(False, f"reversed: {reversals} significantly "
                       f"{'lower' if better == 'lower' else 'higher'} ({listed})", numbers, test,
                       is_ranking=True, reversed=True)
    if ties:
        return Finding(None, f"tie with {ties}: a non-significant difference, which neither "
                       f"reproduces nor refutes the claimed strict ranking ({listed})", numbers,
                       test, is_ranking=True)
    return Finding(True, f"every difference significant in the claimed direction ({listed})",
                   numbers, test, is_ranking=True)


def _pair_test(a: np.ndarray, b: np.ndarray, paired: bool) -> dict[str, Any]:
    """``t`` and two-sided ``p`` of ``a`` against ``b``: paired, or Welch's unequal variances."""
    from scipy import stats

    t, p = stats.ttest_rel(a, b) if paired else stats.ttest_ind(a, b, equal_var=False)
    return {"t": float(t), "p": float(p)}


def t_ci95(values: Sequence[float] | np.ndarray) -> tuple[float, float]:
    """Mean of ``values`` and the half-width of its 95% t-interval (infinite below two
    values)."""
    from scipy import stats

    v = np.asarray(values, dtype=np.float64).reshape(-1)
    m = float(v.mean())
    if v.size < 2:
        return m, float("inf")
    return m, float(stats.t.ppf(0.975, v.size - 1) * v.std(ddof=1) / math.sqrt(v.size))


def experiment_evidence(verdict: Verdict, summary: str, *,
                        numbers: Mapping[str, Any] | None = None,
                        **evidence_kw: Any) -> Evidence:
    """The one builder of experiment evidence: ``method="experiment"``, the ``numbers`` given
    (which must carry the scale the run judges at, for the audit), other keywords to
    :class:`~verify.Evidence` (``part``, ``reading``, ``seed``, ``counterexample``...)."""
    evidence_kw.setdefault("method", "experiment")
    return Evidence(verdict, summary, numbers=dict(numbers or {}), **evidence_kw)


def judge_reproduction(
    finding: Finding,
    summary: str,
    *,
    numbers: Mapping[str, Any] | None = None,
    better: Better | None = None,
    grid: Literal["paper", "reduced"] = "paper",
    needs_compute: Mapping[str, Any] | None = None,
    shortfall: Literal["undecided"] | None = None,
    controlled: bool = False,
    **evidence_kw: Any,
) -> Evidence:
    """The verdict of ``finding`` by the module's rule; ``summary`` is the measurement in words.

    ``numbers``: the scale, setting and whatever else the caller records (the finding's own
    numbers are added, the caller's win on a clash). ``better``: which side of the paper's
    value is the better one (rule 2). ``grid``: ``"reduced"`` when a ranking's hyperparameters
    were selected over a grid smaller than the paper's (rule 3), with ``needs_compute``
    (``{"estimate": ..., "command": ...}``). ``shortfall="undecided"``: rule 4.
    ``controlled``: the comparison is a controlled one, so a failure contradicts the paper's
    conclusion (rule 5). Other keywords go to :func:`experiment_evidence`.
    """
    if shortfall is not None and better is None:
        raise ValueError("shortfall= needs better=: which side of the paper's value falls short")
    nums = {**finding.numbers, **dict(numbers or {})}
    nums.setdefault("tolerance", finding.tolerance)
    text = f"{summary}: {finding.detail}"
    if finding.is_ranking and grid == "reduced":
        return _reduced_grid(finding, text, nums, needs_compute, evidence_kw)
    if finding.agrees is None:
        return experiment_evidence(Verdict.UNDECIDED, text, numbers=nums, **evidence_kw)
    if finding.agrees:
        return experiment_evidence(Verdict.REPRODUCED, text, numbers=nums, **evidence_kw)
    if better is not None and finding.side == better:
        nums["exceeds_paper"] = True
        return experiment_evidence(Verdict.REPRODUCED, f"{text}: exceeds the paper (the "
                                   f"measurement is {better} than the paper's, the better side)",
                                   numbers=nums, **evidence_kw)
    if shortfall == "undecided" and finding.side not in (None, better):
        return experiment_evidence(Verdict.UNDECIDED, f"{text}: short of the paper's value at "
                                   "this reduced scale (no evidence against it)", numbers=nums,
                                   **evidence_kw)
    if controlled:
        return experiment_evidence(Verdict.NOT_REPRODUCED, f"{text}: a controlled comparison "
                                   "contradicts the paper's conclusion", numbers=nums,
                                   **evidence_kw)
    return experiment_evidence(Verdict.NOT_REPRODUCED, f"{text}: not reproduced", numbers=nums,
                               **evidence_kw)


def _reduced_grid(finding, text, nums, needs_compute, evidence_kw) -> Evidence:
    """Rule 3: a ranking over a reduced grid is UNDECIDED, with what would decide it."""
    need = dict(needs_compute or {})
    nums["grid"] = "reduced"
    nums["undecided_reason"] = "needs_compute"
    nums["needs_compute"] = need
    found = ("a reversal" if finding.reversed else "the claimed order" if finding.agrees
             else "a tie" if finding.agrees is None else "no decision")
    how = f"; run the paper's grid: {need['command']}" if need.get("command") else ""
    cost = f" ({need['estimate']})" if need.get("estimate") else ""
    return experiment_evidence(
        Verdict.UNDECIDED, f"{text}: found {found} over a REDUCED hyperparameter grid, which "
        f"cannot decide a ranking the paper's full grid might reverse{cost}{how}",
        numbers=nums, **evidence_kw)

"""Convergence rates: a log-log least-squares slope with its confidence interval.

A claim like "the error is O(tau^-2)" is checked by measuring the error over a sweep of tau
and fitting ``log y = intercept + slope * log x``. The slope's interval
is the Student-t interval of ordinary least squares (``n - 2`` degrees of freedom), so a
short or noisy sweep gives a wide interval and an honest verdict.

The verdict rule of :meth:`RateFit.evidence` (``sense="equal"``, the default), with the
claimed slope c and the interval [lo, hi]:

- the whole interval lies within ``margin`` of c                -> SUPPORTED: the sweep excludes
  every slope more than ``margin`` away, so a wrong rate would have shown (a deterministic
  sweep's narrow interval may miss c by pre-asymptotic curvature smaller than the margin);
- the claimed slope lies outside the interval by more than ``margin`` -> REFUTED, the sweep is
  the counterexample;
- otherwise                                                   -> UNDECIDED: the interval is too
  wide to tell c from a wrong rate, or c sits just outside it (pre-asymptotic curvature).

For one-sided claims, ``sense="at_most"`` reads the claim as ``y = O(x^c)`` as x grows (the
true slope may be *below* c: decaying faster is fine) and ``sense="at_least"`` as
``y = O(x^c)`` as x -> 0 (the slope may be above c); only the side that contradicts the claim
counts: ``at_most`` is SUPPORTED when hi <= c + margin and REFUTED when lo > c + margin.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from ..evidence import Evidence
from ..verdict import Verdict

Sense = Literal["equal", "at_most", "at_least"]

#: Default distance (in slope units) outside the interval that makes a rate REFUTED.
DEFAULT_MARGIN = 0.1


@dataclass
class RateFit:
    """A fitted power law ``y ~ exp(intercept) * x**slope`` over ``x_range``.

    Attributes:
        slope: least-squares slope of log y on log x.
        ci: ``(lo, hi)`` Student-t confidence interval of the slope at ``confidence``.
        intercept: the fitted log-prefactor (natural log).
        r2: coefficient of determination of the log-log fit.
        n: number of points fitted.
        x_range: ``(min x, max x)`` of the fitted regime.
        stderr: standard error of the slope.
        confidence: the interval's level (0.95 by default).
        x, y: the points fitted (for the figure and the counterexample).
        dropped: points left out of the regime (outside ``x_min``/``x_max``).
    """

    slope: float
    ci: tuple[float, float]
    intercept: float
    r2: float
    n: int
    x_range: tuple[float, float]
    stderr: float
    confidence: float
    x: list[float] = field(repr=False, default_factory=list)
    y: list[float] = field(repr=False, default_factory=list)
    dropped: int = 0

    def contains(self, slope: float) -> bool:
        """Whether ``slope`` lies inside the confidence interval."""
        return self.ci[0] <= slope <= self.ci[1]

    def figure(self, claimed_slope: float | None = None, **labels: Any) -> dict[str, Any]:
        """The report's ``{"kind": "rate", ...}`` figure for this fit."""
        fig: dict[str, Any] = {
            "kind": "rate",
            "x": list(self.x),
            "y": list(self.y),
            "slope": self.slope,
            "ci": [self.ci[0], self.ci[1]],
            "intercept": self.intercept,
            "r2": self.r2,
        }
        if claimed_slope is not None:
            fig["claimed_slope"] = float(claimed_slope)
        fig.update({k: v for k, v in labels.items() if v is not None})
        return fig

    def numbers(self) -> dict[str, Any]:
        """The fit as Evidence numbers."""
        return {
            "slope": self.slope,
            "ci": [self.ci[0], self.ci[1]],
            "confidence": self.confidence,
            "stderr": self.stderr,
            "intercept": self.intercept,
            "r2": self.r2,
            "n": self.n,
            "x_range": [self.x_range[0], self.x_range[1]],
        }

    def evidence(
        self,
        claimed_slope: float,
        *,
        sense: Sense = "equal",
        margin: float = DEFAULT_MARGIN,
        xlabel: str | None = None,
        ylabel: str | None = None,
        title: str | None = None,
        **evidence_kw: Any,
    ) -> Evidence:
        """Judge the claim "the slope is ``claimed_slope``" (see the module docstring).

        ``margin`` (slope units, default 0.1) is how far outside the interval the claimed
        slope must be for REFUTED. Extra keywords go to :class:`~verify.Evidence` (``part``,
        ``reading``, ``seed``, ``dtype``, ``device``...).
        """
        c = float(claimed_slope)
        lo, hi = self.ci
        # gap: how far the interval lies on the contradicting side of c;
        # reach: how far it extends from c on that side (<= margin means a wrong rate is excluded)
        if sense == "equal":
            gap, reach = max(lo - c, c - hi, 0.0), max(hi - c, c - lo, 0.0)
        elif sense == "at_most":  # slope <= c claimed: contradicted when the interval is above c
            gap, reach = max(lo - c, 0.0), max(hi - c, 0.0)
        elif sense == "at_least":  # slope >= c claimed: contradicted when the interval is below c
            gap, reach = max(c - hi, 0.0), max(c - lo, 0.0)
        else:
            raise ValueError(f"sense must be 'equal', 'at_most' or 'at_least', got {sense!r}")
        rel = {"equal": "=", "at_most": "<=", "at_least": ">="}[sense]
        fit = (
            f"fitted slope {self.slope:.3f}, {self.confidence:.0%} CI [{lo:.3f}, {hi:.3f}], "
            f"R^2 {self.r2:.3f}, n={self.n}, x in [{self.x_range[0]:.3g}, {self.x_range[1]:.3g}]"
        )
        numbers = self.numbers() | {
            "claimed_slope": c, "sense": sense, "margin": margin, "gap": gap, "reach": reach,
        }
        kw: dict[str, Any] = {"method": "numeric", "numbers": numbers}
        kw["figures"] = [self.figure(c, xlabel=xlabel, ylabel=ylabel, title=title)]
        kw["generality"] = (
            f"sweep of {self.n} points, x in [{self.x_range[0]:.3g}, {self.x_range[1]:.3g}]"
        )
        kw.update(evidence_kw)
        if reach <= margin:
            return Evidence(
                Verdict.SUPPORTED,
                f"claimed slope {rel} {c:g}: the whole interval lies within {margin:g} of it: "
                f"{fit}",
                **kw,
            )
        if gap > margin:
            ce = {"x": list(self.x), "y": list(self.y), "slope": self.slope, "ci": [lo, hi],
                  "claimed_slope": c}
            return Evidence(
                Verdict.REFUTED,
                f"claimed slope {rel} {c:g} lies {gap:.3f} outside the interval "
                f"(margin {margin:g}): {fit}",
                counterexample=ce,
                **kw,
            )
        if gap == 0.0:
            why = (f"interval too wide: it reaches {reach:.3f} from the claimed slope {rel} {c:g}, "
                   f"more than the margin {margin:g}, so a wrong rate is not excluded")
        else:
            why = (f"claimed slope {rel} {c:g} lies {gap:.3f} outside the interval, within the "
                   f"margin {margin:g} (pre-asymptotic curvature or a wrong rate)")
        return Evidence(Verdict.UNDECIDED, f"{why}: {fit}", **kw)


def fit_rate(
    x: Sequence[float] | np.ndarray,
    y: Sequence[float] | np.ndarray,
    *,
    confidence: float = 0.95,
    x_min: float | None = None,
    x_max: float | None = None,
) -> RateFit:
    """Fit ``log y = a + slope * log x`` by least squares; slope with a t-interval.

    Args:
        x, y: the sweep (e.g. ``tau`` and the measured error); all must be positive and finite
            inside the fitted regime.
        confidence: level of the slope's interval (Student t, ``n - 2`` degrees of freedom).
        x_min, x_max: restrict the fit to this regime (the asymptotic one); points outside are
            counted in ``RateFit.dropped``.

    Raises:
        ValueError: fewer than 3 points in the regime, a non-positive / non-finite value
            (a zero error has no logarithm: say what it means in the check, not here), or x
            values that differ only at rounding level (relative span of log x below 1e-6).
    """
    xs = np.asarray(x, dtype=np.float64).reshape(-1)
    ys = np.asarray(y, dtype=np.float64).reshape(-1)
    if xs.shape != ys.shape:
        raise ValueError(f"fit_rate: x and y differ in length ({xs.size} vs {ys.size})")
    keep = np.ones(xs.shape, dtype=bool)
    if x_min is not None:
        keep &= xs >= x_min
    if x_max is not None:
        keep &= xs <= x_max
    dropped = int((~keep).sum())
    xs, ys = xs[keep], ys[keep]
    bad = ~(np.isfinite(xs) & np.isfinite(ys) & (xs > 0) & (ys > 0))
    if bad.any():
        pts = [(float(a), float(b)) for a, b in zip(xs[bad], ys[bad], strict=True)][:5]
        raise ValueError(f"fit_rate: points must be positive and finite, got {pts}")
    n = xs.size
    if n < 3:
        raise ValueError(f"fit_rate: need at least 3 points in the regime, got {n}")
    if np.unique(xs).size < 2:
        raise ValueError("fit_rate: all x are equal; no slope to fit")
    lx, ly = np.log(xs), np.log(ys)
    span = float(lx.max() - lx.min())
    if span <= 1e-6 * max(1.0, float(np.abs(lx).max())):
        # log x differs only at rounding level: any slope fitted there is noise over noise
        raise ValueError(f"fit_rate: x spans a relative range of {span:.3g} only; no slope to fit")
    from scipy import stats  # here, not at import: scipy.stats costs ~0.5 s per process

    res = stats.linregress(lx, ly)
    slope, intercept, stderr = float(res.slope), float(res.intercept), float(res.stderr)
    if not math.isfinite(stderr):
        # linregress derives stderr from r, which is 0/0 for a constant y; use the residuals
        resid = ly - (intercept + slope * lx)
        sxx = float(((lx - lx.mean()) ** 2).sum())
        stderr = math.sqrt(float((resid**2).sum()) / (n - 2) / sxx)
    tq = float(stats.t.ppf(0.5 + confidence / 2.0, n - 2))
    # floor: an exact power law has stderr ~ 0; its slope is still only known to rounding
    half = max(tq * stderr, 1e3 * np.finfo(np.float64).eps * max(1.0, abs(slope)))
    r2 = float(res.rvalue**2) if math.isfinite(res.rvalue) else 1.0
    return RateFit(
        slope=slope,
        ci=(slope - half, slope + half),
        intercept=intercept,
        r2=r2,
        n=int(n),
        x_range=(float(xs.min()), float(xs.max())),
        stderr=stderr,
        confidence=float(confidence),
        x=[float(v) for v in xs],
        y=[float(v) for v in ys],
        dropped=dropped,
    )


def rate_evidence(
    x: Sequence[float] | np.ndarray,
    y: Sequence[float] | np.ndarray,
    claimed_slope: float,
    *,
    confidence: float = 0.95,
    x_min: float | None = None,
    x_max: float | None = None,
    **kw: Any,
) -> Evidence:
    """``fit_rate(x, y, ...).evidence(claimed_slope, **kw)`` in one call."""
    fit = fit_rate(x, y, confidence=confidence, x_min=x_min, x_max=x_max)
    return fit.evidence(claimed_slope, **kw)

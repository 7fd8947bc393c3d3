"""verify.numeric.fit_rate / rate_evidence: slopes, intervals, and the verdict rule."""

from __future__ import annotations

import math

import numpy as np
import pytest

from verify import Verdict
from verify.combine import audit
from verify.numeric import RateFit, fit_rate, rate_evidence


def test_recovers_minus_two_within_interval():
    """y = C x^-2 (1 + noise): the 95% interval covers -2 in about 95% of sweeps."""
    x = np.logspace(0, 3, 15)
    covered = 0
    for seed in range(200):
        rng = np.random.default_rng(seed)
        y = 7.0 * x**-2 * (1 + 0.05 * rng.standard_normal(x.size))
        fit = fit_rate(x, y)
        covered += fit.contains(-2.0)
        assert fit.ci[1] - fit.ci[0] < 0.1
        assert fit.r2 > 0.99 and fit.n == 15 and fit.x_range == (1.0, 1000.0)
        assert abs(np.exp(fit.intercept) - 7.0) < 1.0
    assert isinstance(fit, RateFit)
    assert 0.90 <= covered / 200 <= 0.99


def test_exact_power_law_has_tight_but_nonzero_interval():
    x = np.array([1.0, 2.0, 4.0, 8.0])
    fit = fit_rate(x, 3 * x**-1.5)
    assert fit.contains(-1.5)
    assert fit.evidence(-1.5).verdict is Verdict.SUPPORTED


def test_verdict_rule_and_figure():
    rng = np.random.default_rng(0)
    x = np.logspace(1, 4, 12)
    y = x**-1 * (1 + 0.02 * rng.standard_normal(x.size))
    ok = rate_evidence(x, y, -1, xlabel="T", ylabel="error", title="O(1/T)")
    assert ok.verdict is Verdict.SUPPORTED
    fig = ok.figures[0]
    assert fig["kind"] == "rate" and fig["claimed_slope"] == -1 and fig["xlabel"] == "T"
    assert len(fig["x"]) == 12 and fig["ci"][0] < fig["slope"] < fig["ci"][1]
    bad = rate_evidence(x, y, -2)
    assert bad.verdict is Verdict.REFUTED
    assert bad.counterexample["x"] == list(x)
    assert audit(bad) is bad
    # just outside a narrow interval, which lies within the margin: supported
    fit = fit_rate(x, y)
    near = fit.evidence(fit.ci[1] + 0.05, margin=0.1)
    assert near.verdict is Verdict.SUPPORTED
    # outside the interval by less than the margin, the interval reaching past it: undecided
    edge = fit.evidence(fit.ci[1] + 0.05, margin=0.05 + (fit.ci[1] - fit.ci[0]) / 2)
    assert edge.verdict is Verdict.UNDECIDED


def test_one_sided_senses():
    x = np.logspace(0, 3, 10)
    y = x**-2.0
    # O(x^-1) as x grows: decaying faster (slope -2) is consistent
    assert rate_evidence(x, y, -1, sense="at_most").verdict is Verdict.SUPPORTED
    # O(x^-3) as x grows is contradicted by slope -2
    assert rate_evidence(x, y, -3, sense="at_most").verdict is Verdict.REFUTED
    # O(h^3) as h -> 0 (slope >= 3) is contradicted by slope -2; O(h^-3) is not
    assert rate_evidence(x, y, 3, sense="at_least").verdict is Verdict.REFUTED
    assert rate_evidence(x, y, -3, sense="at_least").verdict is Verdict.SUPPORTED


def test_regime_and_errors():
    x = np.logspace(0, 3, 10)
    y = np.where(x < 10, 1.0, x**-2.0)
    fit = fit_rate(x, y, x_min=10)
    assert fit.dropped == 3 and fit.contains(-2)
    with pytest.raises(ValueError, match="positive"):
        fit_rate([1, 2, 3], [1, 0, 1])
    with pytest.raises(ValueError, match="at least 3"):
        fit_rate([1, 2], [1, 2])


def test_degenerate_sweeps():
    # constant y: linregress's stderr is 0/0; the slope is exactly 0, not "nan outside the CI"
    ev = rate_evidence([1, 2, 4, 8], [3, 3, 3, 3], -1.0)
    assert ev.verdict is Verdict.REFUTED and math.isfinite(ev.numbers["gap"])
    assert rate_evidence([1, 2, 4, 8], [3, 3, 3, 3], 0.0).verdict is Verdict.SUPPORTED
    # x equal up to rounding: a fitted slope would be rounding noise (about 5e14 here)
    with pytest.raises(ValueError, match="relative range"):
        fit_rate([1, 1 + 1e-15, 1 + 2e-15], [1, 2, 3])
    for bad_y in ([0, 1, 2], [-1, -2, -4], [1, math.nan, 2], [1, math.inf, 2]):
        with pytest.raises(ValueError, match="positive and finite"):
            fit_rate([1, 2, 4], bad_y)
    with pytest.raises(ValueError, match="all x are equal"):
        fit_rate([2, 2, 2], [1, 2, 3])

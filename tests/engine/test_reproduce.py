"""The one reproduction rule (verify.numeric.reproduce): each comparison reaches every verdict
it can, rankings are decided by a Welch test with ties kept apart from reversals, a reduced grid
decides no ranking, and doing better than the paper is not a failure."""

from __future__ import annotations

import numpy as np
import pytest

from verify import Verdict
from verify.combine import audit
from verify.numeric import judge_reproduction
from verify.numeric import reproduce as rp

R, N, U = Verdict.REPRODUCED, Verdict.NOT_REPRODUCED, Verdict.UNDECIDED
PAPER = {"scale": "paper", "setting": "planted"}


def judged(finding: rp.Finding, **kw):
    return judge_reproduction(finding, "planted", numbers=PAPER, **kw)


def test_value_comparisons_reach_both_verdicts_and_undecided_on_nan():
    cases = [
        (rp.same_order(2e-6, 3.6e-6), rp.same_order(5.0, 3.6e-6)),
        (rp.within_factor(1.5, 1.0), rp.within_factor(3.0, 1.0)),
        (rp.within_spread(0.992, 0.001, 0.995, 0.002), rp.within_spread(0.9, 0.001, 0.995, 0.002)),
        (rp.exponent_within(-1.85, -1.8), rp.exponent_within(-1.5, -1.8)),
        (rp.below(5e-7, 1e-6), rp.below(2e-6, 1e-6)),
        (rp.above(0.9996, 0.999), rp.above(0.99, 0.999)),
        (rp.percent_within(97.3, 973, 1000), rp.percent_within(97.3, 500, 1000)),
    ]
    for agree, disagree in cases:
        assert judged(agree).verdict is R
        assert judged(disagree).verdict is N
        assert "false" not in judged(disagree).summary.lower()
    assert judged(rp.same_order(float("nan"), 1.0)).verdict is U
    assert judged(rp.within_spread(1.0, float("inf"), 1.0, 0.1)).verdict is U


def test_better_than_the_paper_is_reproduced_and_says_it_exceeds_the_paper():
    ev = judged(rp.same_order(1e-14, 0.013), better="lower")
    assert ev.verdict is R and "exceeds the paper" in ev.summary
    assert ev.numbers["exceeds_paper"] is True
    # the worse side still fails
    assert judged(rp.same_order(5.0, 0.013), better="lower").verdict is N
    # without a stated better side a value far below is not the paper's order
    assert judged(rp.same_order(1e-14, 0.013)).verdict is N


def test_a_shortfall_at_a_reduced_scale_is_undecided_only_when_asked():
    short = rp.percent_within(100.0, 163, 1000)
    assert judged(short, better="higher", shortfall="undecided").verdict is U
    assert judged(short, better="higher").verdict is N
    with pytest.raises(ValueError, match="better="):
        judged(short, shortfall="undecided")


def test_a_controlled_comparison_may_say_it_contradicts_the_paper():
    ev = judged(rp.below(2.0, 1.0), controlled=True)
    assert ev.verdict is N and "contradicts the paper's conclusion" in ev.summary


def _runs(means: dict[str, float], sd: float, seeds: int, seed: int = 0) -> dict:
    rng = np.random.default_rng(seed)
    return {k: m + sd * rng.standard_normal(seeds) for k, m in means.items()}


def test_ranking_significant_in_the_claimed_direction_reproduces():
    f = rp.ranking(_runs({"SO2": 1.0, "TxT": 2.0, "None": 5.0}, 0.1, 10), "SO2")
    ev = judged(f)
    assert ev.verdict is R
    assert ev.numbers["n_seeds"] == 10 and ev.numbers["alpha"] == 0.05
    assert ev.numbers["test"] == rp.RANKING_TEST
    assert all(p["outcome"] == "claimed" for p in ev.numbers["pairs"].values())


def test_ranking_with_a_significant_reversal_is_not_reproduced():
    ev = judged(rp.ranking(_runs({"SO2": 2.0, "TxT": 1.0}, 0.1, 10), "SO2"))
    assert ev.verdict is N
    assert ev.numbers["pairs"]["SO2 vs TxT"]["outcome"] == "reversed"


def test_a_tie_neither_reproduces_nor_refutes_a_strict_ranking():
    # the claimed best has the higher mean, but not significantly: a tie, not a reversal
    runs = {"SO2": [1.0, 3.0, 2.0, 2.2], "TxT": [1.9, 2.0, 2.1, 1.8]}
    ev = judged(rp.ranking(runs, "SO2"))
    assert ev.verdict is U and "tie" in ev.summary
    # and the other way round: lowest mean, not significant, still a tie
    ev2 = judged(rp.ranking({"SO2": [1.8, 1.9, 2.0, 2.1], "TxT": [1.0, 3.0, 2.0, 2.4]}, "SO2"))
    assert ev2.verdict is U


def test_ranking_higher_is_better():
    f = rp.ranking(_runs({"A": 0.9, "B": 0.5}, 0.01, 5), "A", better="higher")
    assert judged(f).verdict is R


def test_ranking_needs_two_seeds():
    assert judged(rp.ranking({"A": [1.0], "B": [2.0]}, "A")).verdict is U


def test_a_reduced_grid_decides_no_ranking_whatever_it_found():
    need = {"estimate": "about 3 CPU-hours", "command": "verify run --profile deep"}
    for means in ({"SO2": 1.0, "TxT": 2.0}, {"SO2": 2.0, "TxT": 1.0}):
        ev = judged(rp.ranking(_runs(means, 0.1, 10), "SO2"), grid="reduced",
                    needs_compute=need)
        assert ev.verdict is U and "REDUCED" in ev.summary
        assert ev.numbers["undecided_reason"] == "needs_compute"
        assert ev.numbers["needs_compute"] == need
    # a reduced grid does not touch a value comparison
    assert judged(rp.below(0.5, 1.0), grid="reduced").verdict is R


def test_the_evidence_passes_the_audit_with_its_scale_and_fails_it_at_smoke_scale():
    ev = judged(rp.below(0.5, 1.0))
    assert ev.method == "experiment"
    assert audit(ev).verdict is R
    smoke = judge_reproduction(rp.below(0.5, 1.0), "planted", numbers={"scale": "smoke"})
    assert audit(smoke).verdict is U


def test_wilson_interval_contains_the_rate_and_narrows_with_n():
    lo, hi = rp.wilson(0.3, 100)
    lo2, hi2 = rp.wilson(0.3, 10000)
    assert lo < 0.3 < hi and lo < lo2 < 0.3 < hi2 < hi


def test_t_ci95_is_the_mean_and_the_95_percent_t_half_width():
    m, half = rp.t_ci95([1.0, 2.0, 3.0])
    assert m == 2.0 and abs(half - 4.302652729696 / 3 ** 0.5) < 1e-9  # t_{0.975, 2}, sd 1
    assert rp.t_ci95([5.0]) == (5.0, float("inf"))

"""Negative controls for the gda decision rules of their own: each rule fed a planted pass and a
planted violation reaches both verdicts (and the in-between one where it has one)."""

from __future__ import annotations

import math

import pytest
import torch

from numerics.gda.dyn import weighted_dominance_search
from numerics.gda.exp_sticky import (
    FAMILY_RANGE,
    LN2,
    MIN_ENTROPY,
    PAPER_GAP,
    capacity_evidence,
    family_roots,
)
from numerics.gda.sticky import entropy_rate, transition_matrix
from verify import Verdict


# ---- gda.exp.sticky.capacity_gap ---------------------------------------------------------------
def test_capacity_rule_refutes_a_single_head_at_the_minimum():
    ev = capacity_evidence([0.001, -0.002, 0.0015], paper_gap=0.141, paper_sd=0.034)
    assert ev.verdict is Verdict.REFUTED and ev.counterexample["construction_gap"] < 0.01


def test_capacity_rule_supports_a_gap_as_large_as_the_papers():
    ev = capacity_evidence([0.14, 0.15, 0.13], paper_gap=0.141, paper_sd=0.034)
    assert ev.verdict is Verdict.SUPPORTED and ev.counterexample is None


def test_capacity_rule_is_undecided_in_between():
    # a tight paper spread leaves room between "reaches the minimum" and "as large as the paper's"
    ev = capacity_evidence([0.07, 0.071, 0.069], paper_gap=0.141, paper_sd=0.005)
    assert ev.verdict is Verdict.UNDECIDED


def test_capacity_rule_without_a_measurement_is_undecided():
    assert capacity_evidence([float("nan")]).verdict is Verdict.UNDECIDED
    assert capacity_evidence([]).verdict is Verdict.UNDECIDED


def test_capacity_rule_uses_the_tables_gap():
    assert math.isclose(PAPER_GAP, 1.970 - 1.829)


# ---- gda.exp.sticky.min_entropy ----------------------------------------------------------------
def test_roots_are_found_when_both_ends_have_the_same_sign():
    roots = family_roots(lambda x: 1.0 - x * x, -5.0, 5.0)
    assert roots == pytest.approx([-1.0, 1.0], abs=1e-10)


def test_no_sign_change_gives_no_root():
    assert family_roots(lambda x: x * x + 1.0, -5.0, 5.0) == []


def test_a_grid_point_on_a_root_is_kept_once():
    assert family_roots(lambda x: x, -1.0, 1.0, n=3) == [0.0]


def test_the_power_family_reaches_1829_nats_on_both_sides():
    # propto d^-a: uniform at a = 0 (1.973 nats, above 1.829); both tails fall below 1.829, so
    # 1.829 nats is reached once for a < 0 and once for a > 0 although both ends of the range
    # lie below it
    def f(a):
        return entropy_rate(transition_matrix("pow", param=a)) - MIN_ENTROPY

    lo, hi = FAMILY_RANGE
    assert f(lo) < 0 and f(hi) < 0
    roots = family_roots(f, lo, hi)
    assert len(roots) == 2 and roots[0] < 0 < roots[1]
    for r in roots:
        assert abs(f(r)) < 1e-9


def test_the_power_family_in_bits():
    def f(a):
        return entropy_rate(transition_matrix("pow", param=a)) / LN2 - MIN_ENTROPY

    roots = family_roots(f, *FAMILY_RANGE)
    assert any(abs(r - 4.3228) < 1e-3 for r in roots)


# ---- gda.dyn.dominant_query, reading C (weighted dominance) -------------------------------
def test_weighted_dominance_holds_at_its_boundary():
    ev = weighted_dominance_search(torch.Generator().manual_seed(1), slack=1.0, batch=512)
    assert ev.verdict is Verdict.SUPPORTED


def test_weighted_dominance_search_finds_a_planted_violation():
    # 20% more weighted error than the hypothesis allows: anti-aligned users make L_i rise
    ev = weighted_dominance_search(torch.Generator().manual_seed(1), slack=1.2, batch=512)
    assert ev.verdict is Verdict.REFUTED and ev.counterexample["Delta_L_i_over_eta"] > 0

"""Negative controls for the nfa decision rules of its own: each rule is fed a planted pass and a
planted violation and must reach both verdicts (and the in-between UNDECIDED where it has one).

The rules are the pure functions the claims of ``numerics/nfa`` decide through (numbers in,
verdict or Evidence out); the shared engine rules of ``verify`` are tested in their own files.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from numerics.nfa.ag import (
    VANISHING_SLOPE,
    centred_bound_evidence,
    descent_evidence,
    n_trend,
    two_level_sup,
    weakest,
    weight_constant_evidence,
)
from numerics.nfa.anis import covariance_evidence
from numerics.nfa.appd import projection_evidence, sqrt_h_evidence
from numerics.nfa.basis import (
    IN_SPAN,
    OUT_SPAN,
    discrete_scales_evidence,
    jacobian_evidence,
    l568_necessity_evidence,
    nondegenerate_evidence,
    sin_member,
    span_agreement_evidence,
    span_witness_evidence,
)
from numerics.nfa.eq import (
    CONTROL_FLAG,
    FAIL,
    TOL,
    control_evidence,
    field_failure_evidence,
    fixed_basis_evidence,
    only_if_evidence,
    operator_evidence,
)
from numerics.nfa.exp_appendix import (
    REPORTED_TAUS,
    encoding_evidence,
    pixel_mapping_evidence,
    stated_evidence,
    table6_grids,
    temperature_evidence,
)
from numerics.nfa.exp_table1 import NORMALISED_ROWS, PAPER_TABLE1
from numerics.nfa.exp_table2 import (
    PAPER_CORR,
    PAPER_CORR_STD,
    PAPER_MSE,
    PAPER_SCALING,
    corr_limit_evidence,
)
from numerics.nfa.model.metrics import (
    caption_ratio,
    combine_growth,
    growth_evidence,
)
from verify import Evidence, Verdict
from verify.numeric import fit_rate, judge_reproduction
from verify.numeric import reproduce as rp

R, N, U, S = Verdict.REPRODUCED, Verdict.NOT_REPRODUCED, Verdict.UNDECIDED, Verdict.SUPPORTED
REF = Verdict.REFUTED
TAUS = [float(t) for t in np.logspace(1, 4, 7)]


# ---- side-by-side rules of the experiments (metrics.py) ---------------------------------------
def _verdict(finding: rp.Finding, **kw) -> Verdict:
    """The verdict the engine's reproduction rule gives ``finding`` at the paper's scale."""
    return judge_reproduction(finding, "planted", numbers={"scale": "paper"}, **kw).verdict


def order_verdict(measured: float, paper: float, **kw) -> Verdict:
    return _verdict(rp.same_order(measured, paper), **kw)


def below_verdict(measured: float, threshold: float) -> Verdict:
    return _verdict(rp.below(measured, threshold))


def above_verdict(measured: float, threshold: float) -> Verdict:
    return _verdict(rp.above(measured, threshold))


def spread_verdict(m: float, ms: float, p: float, ps: float) -> Verdict:
    return _verdict(rp.within_spread(m, ms, p, ps))


def factor_verdict(m: float, p: float, factor: float = 2.0) -> Verdict:
    return _verdict(rp.within_factor(m, p, factor))


def exponent_verdict(m: float, p: float, tol: float = 0.1) -> Verdict:
    return _verdict(rp.exponent_within(m, p, tol))


def test_order_rule_reproduces_the_papers_order_and_rejects_three_orders_off():
    assert order_verdict(4.0e-6, 3.6e-6) is R  # Table 1 linear row at its own order
    assert order_verdict(5.04, 3.6e-6) is N  # the SO(2) error of the operator (~field size)
    assert order_verdict(0.0, 3.6e-6) is N  # exactly 0 is not of the paper's order
    assert order_verdict(float("nan"), 3.6e-6) is U


def test_an_equivariance_error_far_below_the_papers_exceeds_it():
    """App. F/G: exact equivariance (round-off, or 0) where the paper reports 1e-2 is better than
    the paper, REPRODUCED; far above it is still NOT_REPRODUCED."""
    assert order_verdict(1e-13, 0.013, better="lower") is R
    assert order_verdict(0.0, 0.013, better="lower") is R
    assert order_verdict(0.5, 0.013, better="lower") is N


def test_threshold_rules_reach_both_verdicts():
    assert below_verdict(5e-7, 1e-6) is R and below_verdict(2.5, 1e-6) is N  # Fig. 1 "< 1e-6"
    assert below_verdict(float("inf"), 1e-6) is U
    assert above_verdict(0.9996, 0.999) is R and above_verdict(0.99, 0.999) is N  # abstract (b)
    assert above_verdict(float("nan"), 0.999) is U


def test_table2_cell_rules_on_the_papers_own_row_and_on_a_planted_miss():
    # the paper's tau = 100 row against itself reproduces, a value far off does not
    assert spread_verdict(PAPER_CORR[2], 0.0, PAPER_CORR[2], PAPER_CORR_STD[2]) is R
    assert spread_verdict(0.996839, 1.7e-3, PAPER_CORR[0], PAPER_CORR_STD[0]) is N  # as measured
    assert factor_verdict(PAPER_MSE[1] * 1.5, PAPER_MSE[1]) is R
    assert factor_verdict(PAPER_MSE[1] * 3.0, PAPER_MSE[1]) is N
    assert exponent_verdict(-1.85, PAPER_SCALING[1]) is R
    assert exponent_verdict(+2.0, PAPER_SCALING[1]) is N
    assert exponent_verdict(float("nan"), PAPER_SCALING[1]) is U


def test_caption_ratio_of_the_papers_own_table_is_about_1000():
    noisy = [PAPER_TABLE1[r][0] for r in ("no_normalization", "absolute_pe")]
    normalised = [PAPER_TABLE1[r][0] for r in NORMALISED_ROWS]
    assert order_verdict(caption_ratio(noisy, normalised), 1000.0) is R
    assert order_verdict(caption_ratio([1.0, 1.0], [1.0, 1.0]), 1000.0) is N  # no gap at all
    assert caption_ratio([1.0], [0.0]) == math.inf
    assert order_verdict(caption_ratio([1.0], [0.0]), 1000.0) is U


# ---- growth_evidence: "tau^2 x remainder stays bounded" --------------------------------------
def test_growth_rule_supports_a_ratio_that_levels_off():
    y = [0.1677, 0.2071, 0.2177, 0.2208, 0.2218, 0.2221, 0.2222]  # the centred A.4.1 tail
    assert growth_evidence(TAUS, y, "tail", counterexample={"s": 1}).verdict is S


def test_growth_rule_refutes_a_ratio_growing_like_a_power_of_tau():
    y = [t**0.5 for t in TAUS]  # remainder O(tau^-1.5), not O(tau^-2)
    e = growth_evidence(TAUS, y, "tail", counterexample={"s": 1})
    assert e.verdict is REF and e.counterexample["slope"] == pytest.approx(0.5)


def test_growth_rule_is_undecided_between():
    bump = [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.2]  # only the last point rises: no power law
    assert growth_evidence(TAUS, bump, "tail", counterexample={"s": 1}).verdict is U
    grows = [t**0.5 for t in TAUS]
    assert growth_evidence(TAUS, grows, "tail").verdict is U  # no counterexample kept
    assert growth_evidence(TAUS, [1.0] * 6 + [math.nan], "tail").verdict is U


def test_growth_rule_toward_small_x():
    ts = [float(t) for t in np.logspace(-4, 0, 5)]
    assert growth_evidence(ts, [0.19] * 5, "t -> 0", toward="small").verdict is S
    e = growth_evidence(ts, [1 / t for t in ts], "t -> 0", toward="small", counterexample={"u": 1})
    assert e.verdict is REF


def test_combined_growth_takes_the_weakest_piece():
    ok = growth_evidence(TAUS, [1.0] * 7, "a", counterexample={"s": 1})
    bad = growth_evidence(TAUS, [t for t in TAUS], "b", counterexample={"s": 2})
    open_ = growth_evidence(TAUS, [1.0] * 6 + [1.2], "c", counterexample={"s": 3})
    assert combine_growth([ok, ok], "all").verdict is S
    assert combine_growth([ok, open_], "all").verdict is U
    both = combine_growth([ok, open_, bad], "all")
    assert both.verdict is REF and both.counterexample["s"] == 2
    assert combine_growth([], "none").verdict is U


# ---- nfa.ag ----------------------------------------------------------------------------------
def test_descent_rule():
    case = {"problem": 0}
    assert descent_evidence(0.0, 0.17, case).verdict is S
    assert descent_evidence(1e-3, 1.2, case).verdict is REF  # L rises: O is not -grad L
    assert descent_evidence(1e-9, 0.2, case).verdict is U


def test_weight_constant_rule():
    sups = {"2": 0.132, "3": 0.179, "5": 0.192}
    ts = [float(t) for t in np.logspace(-4, 4, 9)]
    real = [0.19200, 0.19201, 0.19208, 0.19223, 0.12879, 0.024, 0.00312, 0.00032, 0.000032]
    assert weight_constant_evidence(sups, [1.0, -1.0], ts, real).verdict is S
    first_order_wrong = [1 / t for t in ts]  # |E| ~ t, not t^2: unbounded as t -> 0
    e = weight_constant_evidence(sups, [1.0, -1.0], ts, first_order_wrong)
    assert e.verdict is REF and e.counterexample["direction_u_over_t"] == [1.0, -1.0]
    assert weight_constant_evidence({"2": math.inf}, [1.0], ts, real).verdict is U


def test_centred_bound_rule():
    sups = {"2": 0.265, "3": 0.268}
    case = {"s": [3.0, -3.0, -3.0], "r": [0.5, -0.25, -0.25]}
    flat = [0.1677, 0.2071, 0.2177, 0.2208, 0.2218, 0.2221, 0.2222]
    assert centred_bound_evidence(sups, TAUS, flat, case).verdict is S
    assert centred_bound_evidence(sups, TAUS, TAUS, case).verdict is REF  # tau^2 err ~ tau
    assert centred_bound_evidence({"2": math.nan}, TAUS, flat, case).verdict is U


def test_weakest_sweep_decides_a_reading():
    sup = Evidence(S, "k=1", numbers={"gap": 0.0})
    und = Evidence(U, "k=30", numbers={"gap": 0.0})
    ref = Evidence(REF, "k=30", numbers={"gap": 1.5}, counterexample={"x": 1})
    assert weakest({"kappa=1": sup, "kappa=30": und}) == "kappa=30"
    assert weakest({"kappa=1": und, "kappa=30": ref}) == "kappa=30"
    assert weakest({"kappa=1": sup, "kappa=30": sup}) == "kappa=1"


def test_vanishing_slope_refutes_a_flat_series_and_supports_a_decaying_one():
    taus = np.logspace(1, 5, 9)
    decay = fit_rate(taus, 1 / taus).evidence(VANISHING_SLOPE, sense="at_most")
    flat = fit_rate(taus, 0.5 + 0 * taus).evidence(VANISHING_SLOPE, sense="at_most")
    # a decay buried in a factor-3 oscillation: the interval straddles -0.1
    noisy = taus**-0.15 * np.array([1, 3, 1, 3, 1, 3, 1, 3, 1.0])
    unclear = fit_rate(taus, noisy).evidence(VANISHING_SLOPE, sense="at_most")
    assert decay.verdict is S and flat.verdict is REF and unclear.verdict is U


# ---- nfa.appd --------------------------------------------------------------------------------
def test_projection_rule():
    case = {"K": 4, "H": 2, "Q": [[1.0, 0.0]] * 4}
    assert projection_evidence(2.7e-15, case).verdict is S
    assert projection_evidence(0.3, case).verdict is REF
    assert projection_evidence(1e-8, case).verdict is U


def _sqrt_h_inputs(f):
    keys = [(n, h) for n in (3, 16) for h in (1, 4, 16, 64)]
    return ({k: [f(k, t) for t in TAUS] for k in keys}, {k: TAUS for k in keys},
            {1: 0.0555, 4: 0.0555}, {"run_seed": 0})


def test_sqrt_h_rule_supports_bounded_ratios():
    ratios, taus, dup, case = _sqrt_h_inputs(lambda k, t: 0.05 * (1 - 1 / t))
    assert sqrt_h_evidence(ratios, taus, dup, case).verdict is S


def test_sqrt_h_rule_refutes_growth_in_tau_and_in_h():
    ratios, taus, dup, case = _sqrt_h_inputs(lambda k, t: 0.05 * t**0.5)
    e = sqrt_h_evidence(ratios, taus, dup, case)
    assert e.verdict is REF and e.counterexample["variable"] == "tau"
    ratios, taus, dup, case = _sqrt_h_inputs(lambda k, t: 0.05 * k[1] ** 0.5)  # ~ H, not sqrt H
    e = sqrt_h_evidence(ratios, taus, dup, case)
    assert e.verdict is REF and e.counterexample["variable"] == "H"


def test_sqrt_h_rule_is_undecided_for_a_last_point_jump():
    ratios, taus, dup, case = _sqrt_h_inputs(lambda k, t: 0.05 * (1.2 if t == TAUS[-1] else 1))
    assert sqrt_h_evidence(ratios, taus, dup, case).verdict is U


# ---- nfa.anis --------------------------------------------------------------------------------
def test_cholesky_covariance_rule():
    case = {"x": [[0.0, 1.0]], "A": [[2.0, 0.0], [0.7, 0.5]]}
    assert covariance_evidence(4e-16, case, {}).verdict is S
    assert covariance_evidence(0.2, case, {}).verdict is REF
    assert covariance_evidence(1e-9, case, {}).verdict is U


# ---- nfa.basis -------------------------------------------------------------------------------
def test_span_agreement_rule():
    rows = [{"member": True, "residual": 1e-14}, {"member": False, "residual": 0.9}]
    assert span_agreement_evidence(rows, "certificate").verdict is S
    missed_member = [{"member": True, "residual": 1e-3}, rows[1]]
    assert span_agreement_evidence(missed_member, "certificate").verdict is U
    small_nonmember = [rows[0], {"member": False, "residual": 10 * IN_SPAN}]
    e = span_agreement_evidence(small_nonmember, "certificate")
    assert e.verdict is U and e.counterexample is None  # sampled: never a refutation
    assert span_agreement_evidence([], "certificate").verdict is U


def test_span_witness_rule():
    assert span_witness_evidence(1.0, "w", {"a": 2}).verdict is REF
    assert span_witness_evidence(OUT_SPAN / 10, "w", {"a": 2}).verdict is U


def test_discrete_scales_rule():
    assert discrete_scales_evidence({"{1,2}": ["1"], "{0}": None}).verdict is S
    assert discrete_scales_evidence({"{1,2}": None}).verdict is U
    assert discrete_scales_evidence({"{0}": None}).verdict is U  # nothing nonzero checked


def test_admissible_scales_covers_every_positive_scale():
    """The candidate ratios of norms find every admissible a, irrational ones included."""
    import sympy as sp

    from numerics.nfa.basis import _admissible, admissible_scales

    r2 = sp.sqrt(2)
    assert admissible_scales([sp.Matrix([1]), sp.Matrix([2])]) == [1]
    assert admissible_scales([sp.Matrix([0])]) is None
    ws = [sp.Matrix([1]), sp.Matrix([r2]), sp.Matrix([2])]
    assert admissible_scales(ws) == [1]
    assert _admissible(ws[:2], r2) is False  # sqrt2 * sqrt2 = 2 is not in {+-1, +-sqrt2}
    assert _admissible([sp.Matrix([r2]), sp.Matrix([2])], 1) is True


def test_nondegenerate_sets_rule():
    assert nondegenerate_evidence(20, 20).verdict is S
    assert nondegenerate_evidence(19, 20).verdict is U
    assert nondegenerate_evidence(0, 0).verdict is U


def test_jacobian_rule():
    assert jacobian_evidence(1.77, 2.2e-12).verdict is S
    assert jacobian_evidence(1e-6, 2.2e-12).verdict is U  # pullback alone would work: quadrature
    assert jacobian_evidence(1.77, 1e-3).verdict is U


def test_thm11_pullback_instances_are_exact():
    """Haar measure: the pure pullback is exact (SUPPORTED on the instance); Lebesgue measure:
    a bijection without the measure condition misses by the factor 2 (reading B, REFUTED)."""
    from numerics.nfa.basis import _pullback_instances_exact

    haar, parenthesis = _pullback_instances_exact()
    assert haar.verdict is S and haar.part == "measure-preserving instance"
    assert parenthesis.verdict is REF and parenthesis.reading == "B"
    assert parenthesis.counterexample["lhs"] == "2*sqrt(pi)"  # twice f(0) = sqrt(pi)


# ---- nfa.eq ----------------------------------------------------------------------------------
def test_operator_rule():
    cases = {"linear": {"cfg": "linear"}, "tau1": {"cfg": "tau1"}}
    assert operator_evidence({"linear": 1e-15, "tau1": 3e-16}, cases, "w ").verdict is S
    e = operator_evidence({"linear": 1e-15, "tau1": 10 * FAIL}, cases, "w ")
    assert e.verdict is REF and e.counterexample["cfg"] == "tau1"
    assert operator_evidence({"linear": 10 * TOL}, cases, "w ").verdict is U


def test_negative_control_rule():
    assert control_evidence(1.29, "control").verdict is S
    assert control_evidence(CONTROL_FLAG / 10, "control").verdict is U  # harness blind: no verdict
    assert control_evidence(math.nan, "control").verdict is U


def test_only_if_rule():
    equivariant = Evidence(S, "no violation", numbers={"worst_violation": 1e-15,
                                                        "inputs_tried": 15})
    not_equivariant = Evidence(REF, "violation", counterexample={"x": 1})
    e = only_if_evidence(0.133, equivariant, {"operator": "first-token pooling"})
    assert e.verdict is REF and e.counterexample["A1_violation"] == 0.133
    assert only_if_evidence(1e-9, equivariant, {}).verdict is U  # A1 not violated
    assert only_if_evidence(0.133, not_equivariant, {}).verdict is U


def test_lemma5_membership_counts_a_half_under_a_shared_phase():
    """sin(0.5 * 2x + b) = sin(x + b) is a basis element when b_1 = b_2 (mod pi), and is not
    with distinct phases (the cosine is missing); other scalings stay outside."""
    om = np.array([1.0, 2.0, np.sqrt(2)])
    shared, distinct = np.full(3, 0.7), np.array([0.3, 1.9, 4.1])
    assert sin_member(om, shared, 0.5 * 2.0, 0.7)
    assert sin_member(om, shared, -1.0, -0.7 + np.pi)
    assert not sin_member(om, distinct, 0.5 * 2.0, 1.9)
    assert not sin_member(om, shared, 2.0 * 2.0, 0.7)
    assert sin_member(om, distinct, 2.0, 1.9)


def test_thm11_l568_is_a_necessary_condition_and_holds():
    ev = l568_necessity_evidence()
    assert ev.verdict is Verdict.PROVED and ev.reading == "A"
    assert ev.numbers["image_off_ray_exact"] is True  # the converse fails: a note only


def test_softmax_weight_constant_depends_on_n():
    """The remainder constant of (L442) is searched up to N = 1000, and the summary's words
    come from the numbers: it falls from ~0.19 (N = 5) to ~0.046 (N = 1000)."""
    small, large = two_level_sup(5), two_level_sup(1000)
    assert 0.18 < small < 0.2 and 0.04 < large < 0.05
    assert "N-dependent" in n_trend({"5": small, "1000": large})
    assert "roughly N-independent" in n_trend({"2": 0.13, "3": 0.18})


def test_fixed_basis_rule():
    assert fixed_basis_evidence([0.3, 0.9, 1.0, 1.0]).verdict is S
    assert fixed_basis_evidence([1e-9, 0.9]).verdict is U


def test_field_failure_rule():
    assert field_failure_evidence(0.061, 0.2).verdict is S
    assert field_failure_evidence(1e-12, 0.2).verdict is U


# ---- nfa.exp.fig3 (b) ------------------------------------------------------------------------
def test_correlation_limit_rule():
    ce = {"tau": [1e3, 1e4]}
    assert corr_limit_evidence(3e-11, -2.0, (-2.01, -1.99), ce).verdict is S
    assert corr_limit_evidence(1e-9, 0.0, (-0.01, 0.01), ce).verdict is S  # already at 1
    e = corr_limit_evidence(1.95e-4, 0.0, (-0.001, 0.001), ce)
    assert e.verdict is REF and e.counterexample == ce
    assert corr_limit_evidence(1e-4, -0.2, (-0.5, 0.1), ce).verdict is U
    assert corr_limit_evidence(math.nan, 0.0, (0.0, 0.0), ce).verdict is U


# ---- nfa.exp.hyperparams_consistency ---------------------------------------------------------
def test_encoding_self_check():
    assert encoding_evidence([], 12).verdict is S
    assert encoding_evidence([{"quantity": "heads", "line": 188}], 12).verdict is U


def test_stated_constant_rule():
    same = [(188, "4 layers", 4), (839, "num_layers 4", 4)]
    assert stated_evidence("layers", same, None).verdict is S
    heads = [(188, "4 heads", 4), (839, "num_heads 8", 8)]
    e = stated_evidence("heads", heads, None)
    assert e.verdict is REF and (e.counterexample["value_1"], e.counterexample["value_2"]) == (4, 8)


def test_quoted_substrings_show_no_stray_math_delimiter():
    from numerics.nfa.exp_appendix import quote_shown

    assert quote_shown("\\omega_0 = 30") == "$\\omega_0 = 30$"
    assert quote_shown("3$ layers") == "3 layers"
    assert quote_shown("4 layers, 4 heads") == "4 layers, 4 heads"
    shown = stated_evidence("SIREN layers", [(188, "3$ layers", 3), (869, "layers=3", 3)], None)
    assert [e[1] for e in shown.numbers["entries"]] == ["3 layers", "layers=3"]


def test_pixel_mapping_rule():
    printed = pixel_mapping_evidence(28, 27.0)
    assert printed.verdict is REF and printed.counterexample["x_max"] > 1
    assert pixel_mapping_evidence(28, 28.0).verdict is S


def test_temperature_grid_rule():
    assert temperature_evidence(REPORTED_TAUS, table6_grids()).verdict is S
    e = temperature_evidence({"planted": [3.0]}, table6_grids())
    assert e.verdict is REF and e.counterexample["not_on_any_grid"] == ["planted: 3"]


# ---- exact witnesses re-check before they refute ---------------------------------------------
def test_uncentred_and_duplicated_head_witnesses_recheck():
    from numerics.nfa.ag import _uncentred_witness
    from numerics.nfa.appd import _duplicated_heads_witness

    e = _uncentred_witness("A")  # O(tau) - 0 = 1 for symbolic tau: the bound fails
    assert e.verdict is REF and e.counterexample["s"] == [1, -1]
    d = _duplicated_heads_witness("A")  # tau^2 ||R||_2 = sqrt(H)/9
    assert d.verdict is REF and abs(d.counterexample["tau2_norm_R_at_tau_1e3_float64"][4]
                                    / d.counterexample["tau2_norm_R_at_tau_1e3_float64"][1]
                                    - 2.0) < 1e-8

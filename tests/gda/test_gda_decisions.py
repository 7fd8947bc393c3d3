"""Negative controls for the gda decision rules of their own: each rule fed a planted pass and a
planted violation reaches both verdicts (and the in-between one where it has one)."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
import sympy as sp
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
from numerics.gda.model.sticky import entropy_rate, transition_matrix
from verify import Verdict


# ---- gda.exp.sticky.capacity_gap ---------------------------------------------------------------
def test_capacity_rule_refutes_a_single_head_at_the_minimum():
    ev = capacity_evidence([0.001, -0.002, 0.0015], paper_gap=0.141, paper_sd=0.034)
    assert ev.verdict is Verdict.REFUTED and ev.counterexample["construction_gap"] < 0.01
    assert ev.summary.startswith("construction test")


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


# ---- shared one-step harness (numerics/gda/model/onestep.py) -------------------------------------
def _step_data(first: list[float], finite: list[float], adv: list[float]):
    from numerics.gda.model.onestep import StepData

    t = torch.tensor
    adv_t = t([[adv]], dtype=torch.float64)
    alpha = torch.full_like(adv_t, 1.0 / len(adv))
    return StepData(
        adv=adv_t,
        alpha=alpha,
        b=-adv_t,
        Eb=torch.zeros_like(adv_t),
        U=torch.zeros(1, 1, 1, dtype=torch.float64),
        valid=torch.ones_like(adv_t, dtype=torch.bool),
        first={"S": t([[first]], dtype=torch.float64)},
        finite={"S": t([[finite]], dtype=torch.float64)},
        instance=lambda n: {"n": n},
    )


def test_sign_disagreement_flags_a_pair_only_when_both_changes_are_wrong():
    from numerics.gda.model.onestep import sign_disagreement

    adv = [1.0, -1.0, 2.0]
    sd = _step_data(first=[0.5, -0.5, -1.0], finite=[0.4, -0.4, 0.3], adv=adv)
    bad = sign_disagreement(sd, "S", torch.sign(sd.adv))
    # pair 2: first-order wrong, finite right -> not counted; pairs 0, 1 right
    assert not bad.any()
    sd = _step_data(first=[0.5, -0.5, -1.0], finite=[0.4, -0.4, -0.3], adv=adv)
    assert sign_disagreement(sd, "S", torch.sign(sd.adv)).tolist() == [[[False, False, True]]]


def test_tally_rule_reaches_both_verdicts():
    from numerics.gda.model.onestep import Tally, tally_evidence

    ok = tally_evidence(Tally(pairs=10, instances=2), "law", part="p")
    assert ok.verdict is Verdict.SUPPORTED
    bad = Tally(pairs=10, bad_pairs=1, instances=2, bad_instances=1, example={"T": 3})
    ev = tally_evidence(bad, "law", part="p")
    assert ev.verdict is Verdict.REFUTED and ev.counterexample == {"T": 3}


# ---- exact rows (proofs/gda/model/first_order.py): dyn.alpha_reallocation, em.e_step, diag -------
def test_exact_alpha_row_violates_for_t3_but_not_for_t2():
    from proofs.gda.model.first_order import exact_alpha_counterexample

    R = sp.Rational
    assert exact_alpha_counterexample()["violates"]
    assert exact_alpha_counterexample(mirror=True)["violates"]
    ex = exact_alpha_counterexample(argmax=True)
    assert ex["violates"] and ex["A_j_is_row_argmax"]
    # T = 2: Delta alpha_1 = 2 eta alpha_1^2 alpha_2 A_1 always has the sign of A_1
    assert not exact_alpha_counterexample(alpha=[R(1, 4), R(3, 4)], A=[3, -1])["violates"]


def test_score_magnitude_row_is_flagged_only_when_the_order_flips():
    from proofs.gda.model.first_order import score_magnitude_counterexample

    R = sp.Rational
    assert score_magnitude_counterexample()["violates"]
    # uniform alpha: |Delta s| = alpha |A^adv| keeps the order of |A^adv|
    uniform = score_magnitude_counterexample(alpha=[R(1, 3)] * 3, adv=[1, R(-3, 2), R(1, 2)])
    assert not uniform["violates"]


# ---- gda.dyn.* ---------------------------------------------------------------------------------
def test_per_query_rule_reaches_both_verdicts():
    from numerics.gda.dyn import _per_query_instance

    refuted = _per_query_instance()
    assert [e.verdict for e in refuted] == [Verdict.REFUTED, Verdict.REFUTED]
    assert all(e.counterexample for e in refuted)
    aligned = _per_query_instance(u=(sp.Integer(1), sp.Integer(1)))  # both users agree
    assert [e.verdict for e in aligned] == [Verdict.SUPPORTED, Verdict.SUPPORTED]


def test_isolated_link_rule_reaches_both_verdicts():
    from numerics.gda.dyn import _isolated_link_instance

    ev = _isolated_link_instance()  # u_r = -3 outweighs u_i = 1 in ubar_j: premise broken
    assert ev.verdict is Verdict.UNDECIDED and "premise of link (2) not met" in ev.summary
    assert _isolated_link_instance(u=(1, 1)).verdict is Verdict.SUPPORTED
    assert _isolated_link_instance(u=(2, -1)).verdict is Verdict.SUPPORTED


def test_feedback_links_2_and_3_are_exact_identities():
    from proofs.gda.model.first_order import link2_weight_proof, link3_conditional_proof

    for ev in (link2_weight_proof(), link3_conditional_proof()):
        assert ev.verdict is Verdict.PROVED and ev.scope == "general" and ev.reading == "B"


def test_dominance_rule_refutes_only_a_rising_loss():
    from numerics.gda.dyn import dominant_evidence

    ev = dominant_evidence(-2.3, 3.0)
    assert ev.verdict is Verdict.REFUTED and ev.counterexample["kappa"] >= 10
    # v = 0: both queries are equally wrong, u_0 and u_1 = -u_0, so Delta L_0 < 0
    ev = dominant_evidence(-2.3, 0.0)
    assert ev.verdict is Verdict.UNDECIDED and ev.numbers["kappa"] >= 10


def test_confirmed_rise_keeps_only_a_rise_the_finite_step_confirms():
    from numerics.gda.dyn import _confirmed_rise, dominant_instance
    from numerics.gda.model.attention_head import closed_form_grads
    from numerics.gda.model.instances import Sizes

    sizes = Sizes(T=2, d_x=1, d_k=1, d_v=1, C=2, scale=1.0, x_scale=1.0, causal=False)
    for v, rises in ((3.0, True), (0.0, False)):
        st, _ = dominant_instance(-2.3, v)
        tr = st.trace()
        cf = closed_form_grads(tr)
        dL = tr.A[:, :, 0] * (cf.U @ (-cf.dV[:, 0]).unsqueeze(-1)).squeeze(-1)
        b = torch.tensor([[True, False]])  # claim a rise of L_0 under a v_0 step
        ce = _confirmed_rise(st, sizes, cf, dL, b, 0)
        assert (ce is not None) is rises
        if rises:
            assert ce["finite_dLi_over_eta(1e-6)"] > 0


def test_feedback_shares_rule_reaches_three_verdicts():
    from numerics.gda.dyn import feedback_shares_evidence

    ok = {"alpha_up": [5, 5], "A_up": [5, 5]}
    assert feedback_shares_evidence(ok, ok, None).verdict is Verdict.SUPPORTED
    fail = {"alpha_up": [4, 5], "A_up": [5, 5]}
    ev = feedback_shares_evidence(fail, ok, {"T": 3})
    assert ev.verdict is Verdict.REFUTED and ev.counterexample == {"T": 3}
    assert feedback_shares_evidence(fail, ok, None).verdict is Verdict.UNDECIDED


def test_kappa_sweep_rule_reaches_both_verdicts():
    from numerics.gda.dyn import KAPPAS, kappa_sweep_evidence

    kap = list(KAPPAS)
    assert kappa_sweep_evidence(kap, [34.0 / k for k in kap]).verdict is Verdict.SUPPORTED
    # an error that does not shrink with kappa: (43) is not the leading term
    flat = kappa_sweep_evidence(kap, [0.5] * len(kap))
    assert flat.verdict is Verdict.REFUTED and flat.reading == "kappa sweep"
    flip = kappa_sweep_evidence(kap, [34.0 / k for k in kap], {"kappa": 1000.0})
    assert flip.verdict is Verdict.REFUTED and flip.counterexample == {"kappa": 1000.0}


# ---- gda.em.* ----------------------------------------------------------------------------------
def _settling(T: int, fast: int, slow: int, steps: int = 20):
    """Attention that reaches its final value at step ``fast``, values at step ``slow``."""
    t = np.arange(steps + 1)[:, None, None]
    A0, A1 = np.full((T, T), 1.0 / T), np.eye(T)
    lam_a = np.clip(t / fast, 0, 1)
    A = (1 - lam_a) * A0 + lam_a * A1
    lam_v = np.clip(t / slow, 0, 1)
    V = (1 - lam_v) * np.zeros((T, 2)) + lam_v * np.ones((T, 2))
    return A, V


def test_timescale_order_and_outcome():
    from numerics.gda.em import timescale_order, timescale_outcome

    assert timescale_order(*_settling(3, fast=4, slow=16)) == 1
    A, _ = _settling(3, fast=16, slow=4)
    _, V = _settling(3, fast=16, slow=4)
    assert timescale_order(A, V) == -1
    assert timescale_order(*_settling(3, fast=8, slow=8)) == 0
    assert timescale_outcome(np.array([1, 1, -1, 0])) is True
    assert timescale_outcome(np.array([-1, -1, 1])) is False
    assert timescale_outcome(np.array([1, -1, 0])) is None
    assert timescale_outcome(np.array([], dtype=int)) is None


def test_em_global_rule_reaches_both_verdicts():
    from numerics.gda.em import em_global_evidence, gmm_em

    x = np.concatenate([np.full(50, -3.0), np.full(50, 3.0)])
    m_sym, ll_sym = gmm_em(x, np.array([0.0, 0.0]), iters=50)
    m_sep, ll_sep = gmm_em(x, np.array([-1.0, 1.0]), iters=50)
    assert np.allclose(m_sym[0], m_sym[1]) and m_sep[0] < -2.9
    ev = em_global_evidence(m_sym, ll_sym[-1], ll_sep[-1], {"x": "planted"})
    assert ev.verdict is Verdict.REFUTED and ev.counterexample
    assert em_global_evidence(m_sep, ll_sep[-1], ll_sep[-1], {}).verdict is Verdict.UNDECIDED


def test_em_monotone_rule_reaches_both_verdicts():
    from numerics.gda.em import em_monotone_evidence

    assert em_monotone_evidence([[-5.0, -4.0, -4.0], [-3.0, -2.0]]).verdict is Verdict.SUPPORTED
    ev = em_monotone_evidence([[-5.0, -4.0], [-3.0, -2.0, -2.5]])
    assert ev.verdict is Verdict.REFUTED and ev.counterexample["iteration"] == 2


# ---- gda.exp.toy.* ------------------------------------------------------------------------------
def _grid(outcomes):
    from numerics.gda.model.toy import ToySetting

    return [(ToySetting(init_std=0.1 * (k + 1), lr=0.5), o) for k, o in enumerate(outcomes)]


def test_grid_rule_reaches_three_verdicts():
    from numerics.gda.exp_toy import grid_evidence

    assert grid_evidence(_grid([True, True]), "obs").verdict is Verdict.SUPPORTED
    ev = grid_evidence(_grid([False, False]), "obs", counterexample={"seed": 0})
    assert ev.verdict is Verdict.REFUTED and ev.counterexample["seed"] == 0
    mixed = grid_evidence(_grid([True, False]), "obs")
    assert mixed.verdict is Verdict.UNDECIDED and "depends on the settings" in mixed.summary
    # a setting without a decision blocks unanimity
    assert grid_evidence(_grid([True, None]), "obs").verdict is Verdict.UNDECIDED


def test_sharpening_rule():
    from numerics.gda.exp_toy import sharpened
    from numerics.gda.model.toy import LN5

    ok = np.array([True, True, True])
    H = np.array([[LN5, 0.5 * LN5], [LN5, 0.6 * LN5], [LN5, LN5]])
    assert sharpened(H, ok) == (pytest.approx(2 / 3), True)
    flat = np.array([[LN5, 0.95 * LN5]] * 3)
    assert sharpened(flat, ok)[1] is False
    assert sharpened(H, np.zeros(3, dtype=bool))[1] is None


def test_smooth_decay_rule():
    from numerics.gda.exp_toy import smooth_decay

    ok = np.ones(2, dtype=bool)
    assert smooth_decay(np.array([[3.0, 2.0, 1.0], [3.0, 3.0, 2.0]]), ok) == (2, True)
    # oscillating curves, and a flat one that does not decay
    wavy = np.array([[3.0, 1.0, 2.0], [3.0, 3.0, 3.0]])
    assert smooth_decay(wavy, ok) == (0, False)


def test_coherence_rule_against_random_directions():
    from numerics.gda.exp_toy import coherent, mean_abs_cos, random_direction_null

    rng = np.random.default_rng(0)
    null = random_direction_null(rng, 10, 5, 2, 2000)
    aligned = np.outer(np.arange(1, 6), [1.0, 0.5])  # all displacements on one line
    assert mean_abs_cos(aligned) == pytest.approx(1.0)
    assert coherent([mean_abs_cos(aligned)] * 10, null) is True
    spread = [mean_abs_cos(rng.standard_normal((5, 2))) for _ in range(10)]
    assert coherent(spread, null) in (False, None)
    # orthogonal pairs: less aligned than random directions
    assert coherent([mean_abs_cos(np.array([[1.0, 0], [0, 1.0]] * 2 + [[1.0, 0]]))] * 10, null) is (
        False
    )
    assert coherent([], null) is None


# ---- gda.exp.sticky.* ---------------------------------------------------------------------------
def test_gradient_ratio_rule_reaches_three_verdicts():
    from numerics.gda.exp_sticky import gradient_ratio_evidence

    assert gradient_ratio_evidence({"0.1": 0.5, "1.0": 0.4}, "g").verdict is Verdict.SUPPORTED
    ev = gradient_ratio_evidence({"0.1": 2.0, "1.0": 1.5}, "g", counterexample={"rerun": "x"})
    assert ev.verdict is Verdict.REFUTED and ev.counterexample["by_init_std"]["0.1"] == 2.0
    mixed = gradient_ratio_evidence({"0.1": 2.0, "1.0": 0.5}, "g")
    assert mixed.verdict is Verdict.UNDECIDED and "depends on the init scale" in mixed.summary


def test_focused_attention_rule_reaches_both_verdicts():
    from numerics.gda.exp_sticky import FOCUS_DROP, focused_attention_evidence

    ref = 6.6
    near_uniform = {"EM": [6.4, 6.45], "SGD": [6.5, 6.5]}
    ev = focused_attention_evidence(near_uniform, ref)
    assert ev.verdict is Verdict.NOT_REPRODUCED and ev.numbers["EM_entropies"] == [6.4, 6.45]
    focused = {"EM": [(1 - 2 * FOCUS_DROP) * ref, 6.4], "SGD": [6.5, 6.5]}
    assert focused_attention_evidence(focused, ref).verdict is Verdict.UNDECIDED


def test_nearby_rule_in_exact_arithmetic():
    from numerics.gda.exp_sticky import nearby_evidence

    d = [1, 2, 3, 4, 3, 2, 1]
    assert nearby_evidence([Fraction(1, x) for x in d], "B", "1/d").verdict is Verdict.SUPPORTED
    ev = nearby_evidence([Fraction(x) for x in d], "A", "d")
    assert ev.verdict is Verdict.REFUTED and ev.counterexample["P(0->1)"] == "7/160"


def test_generator_rule():
    from numerics.gda.exp_sticky import generator_evidence

    assert generator_evidence(0.01, 40000, {}).verdict is Verdict.SUPPORTED
    assert generator_evidence(0.05, 40000, {}).verdict is Verdict.UNDECIDED


def test_table_row_rule_reaches_both_verdicts():
    from numerics.gda.exp_sticky import _row

    scale = {"scale": "paper", "setting": "planted"}
    hit = _row("final loss", "EM", (1.97, 0.034), np.array([1.95, 1.98, 1.97]), "", scale=scale)
    assert hit.verdict is Verdict.REPRODUCED
    miss = _row("final loss", "EM", (1.97, 0.034), np.array([2.3, 2.31, 2.29]), "", scale=scale)
    assert miss.verdict is Verdict.NOT_REPRODUCED


def test_paired_test_and_speedup_rules():
    from numerics.gda.exp_sticky import paired_test_evidence, speedup_consistent, speedup_evidence

    sc = {"scale": "paper", "setting": "planted"}
    sgd = np.array([2.06, 2.05, 2.07, 2.06, 2.05])
    em = sgd - np.array([0.09, 0.08, 0.1, 0.085, 0.095])
    assert paired_test_evidence(sgd, em, "", sc).verdict is Verdict.REPRODUCED
    assert paired_test_evidence(em, sgd, "", sc).verdict is Verdict.NOT_REPRODUCED
    assert speedup_evidence(np.array([420.0, 440.0, 430.0]), 1000, "", sc).verdict is (
        Verdict.REPRODUCED
    )
    # a 10x speedup lies outside even the paper's wide spread (1000 / (430 +- 143))
    assert speedup_evidence(np.array([100.0, 99.0, 101.0]), 1000, "", sc).verdict is (
        Verdict.NOT_REPRODUCED
    )
    assert speedup_consistent(1000, 430, 2.3) and not speedup_consistent(1000, 500, 2.3)


def test_entropy_rate_and_noise_floor_rules():
    from numerics.gda.exp_sticky import entropy_rate_evidence, noise_floor_evidence

    assert entropy_rate_evidence(1.8292, "bits").verdict is Verdict.REPRODUCED
    assert entropy_rate_evidence(2.7402, "bits").verdict is Verdict.NOT_REPRODUCED
    assert noise_floor_evidence(1.90, 1.8994, 0.3).verdict is Verdict.SUPPORTED
    assert noise_floor_evidence(1.80, 1.8994, 0.3).verdict is Verdict.UNDECIDED
    assert noise_floor_evidence(1.8994 + 0.2, 1.8994, 0.3).verdict is Verdict.REFUTED


def test_min_entropy_headline_is_the_halving_chain_in_nats():
    """Table 1's 1.829 is the entropy rate, in nats, of the chain whose off-diagonal weights
    halve per step of circular distance (exact: 1.83025...); the printed rule (propto d), the
    1/d rule and the bits unit all miss it."""
    from fractions import Fraction

    import mpmath

    from numerics.gda.exp_sticky import LN2, entropy_rate_evidence
    from numerics.gda.model.sticky import INTENDED_CHAIN, entropy_rate, transition_matrix

    w = [Fraction(1, 2 ** d) for d in (1, 2, 3, 4, 3, 2, 1)]
    p = [Fraction(3, 10)] + [Fraction(7, 10) * x / sum(w) for x in w]
    exact = -sum(mpmath.mpf(x.numerator) / x.denominator
                 * mpmath.log(mpmath.mpf(x.numerator) / x.denominator) for x in p)
    H = entropy_rate(transition_matrix(INTENDED_CHAIN))
    assert np.allclose(transition_matrix(INTENDED_CHAIN),
                       transition_matrix("exp", param=math.log(2)), rtol=0, atol=1e-15)
    assert abs(H - float(exact)) < 1e-12 and abs(H - 1.8303) < 1e-4
    assert entropy_rate_evidence(H, "nats").verdict is Verdict.REPRODUCED
    assert entropy_rate_evidence(H / LN2, "bits").verdict is Verdict.NOT_REPRODUCED
    for rd in ("A", "B"):
        Hr = entropy_rate(transition_matrix(rd))
        assert entropy_rate_evidence(Hr, "nats").verdict is Verdict.NOT_REPRODUCED


def test_table1_entropy_rows_in_nats_reproduce_and_in_bits_do_not():
    """SGD entropies at the uniform predictor (nats) meet Table 1's 2.077 +- 0.001 read in nats, and
    miss it converted to bits (L434's word)."""
    from numerics.gda.exp_sticky import LN2, TABLE1, _row

    sgd = np.array([2.074, 2.077, 2.080, 2.076, 2.078])
    paper = TABLE1["final entropy"]["SGD"]
    sc = {"scale": "paper", "setting": "test"}
    nats = _row("final entropy", "SGD", paper, sgd, "nats", scale=sc)
    assert nats.verdict is Verdict.REPRODUCED and nats.reading == "B"  # the nats reading heads
    assert _row("final entropy", "SGD", paper, sgd / LN2, "bits", reading="A",
                scale=sc).verdict is Verdict.NOT_REPRODUCED


def _attribution_rows(**steps):
    """Planted per-seed steps to the SGD level (5 paired seeds) for the attribution rule."""
    return {nm: {"steps_per_seed": list(s), "final_loss": 2.0,
                 "steps_to_SGD_level": float(np.mean([x for x in s if x is not None] or [np.nan]))}
            for nm, s in steps.items()}


SGD_STEPS = [1000.0, 990.0, 1000.0, 980.0, 1000.0]
EM_STEPS = [520.0, 560.0, 500.0, 540.0, 550.0]
SLOW_UNIFORM = [[900.0, 950.0, 920.0, 940.0, 910.0]] * 3
UNIFORM = ("SGD0.03", "SGD0.1", "SGD0.3")


def test_attribution_refuted_by_the_wo_only_control_leads_the_summary():
    """The W_O-only control (values at SGD's rate) significantly faster than SGD and within a
    few steps of EM: most of the acceleration occurs without the larger value rate."""
    from numerics.gda.exp_sticky import attribution_evidence

    rows = _attribution_rows(SGD=SGD_STEPS, EM=EM_STEPS, **{"WO0.1": [530.0, 565.0, 505.0,
                                                                      545.0, 552.0]},
                             **dict(zip(UNIFORM, SLOW_UNIFORM, strict=True)))
    ev = attribution_evidence(rows, "", {"scale": "paper", "setting": "planted"}, {}, 1000)
    assert ev.verdict is Verdict.REFUTED and ev.counterexample["protocol"] == "WO0.1"
    assert ev.summary.startswith("W_O-only control") and "contradicts" in ev.summary
    assert ev.numbers["paired_tests"]["WO0.1 vs SGD"]["outcome"] == "faster"
    assert ev.numbers["value_rate_share"]["ci95"][1] < 0.5


def test_attribution_supported_when_em_beats_the_control_and_every_uniform_rate():
    from numerics.gda.exp_sticky import attribution_evidence

    rows = _attribution_rows(SGD=SGD_STEPS, EM=EM_STEPS, **{"WO0.1": [950.0, 960.0, 940.0,
                                                                      975.0, 955.0]},
                             **dict(zip(UNIFORM, SLOW_UNIFORM, strict=True)))
    ev = attribution_evidence(rows, "", {"scale": "paper", "setting": "planted"}, {}, 1000)
    assert ev.verdict is Verdict.SUPPORTED
    assert ev.numbers["value_rate_share"]["ci95"][0] > 0.5


def test_attribution_refuted_by_a_significantly_faster_uniform_rate():
    from numerics.gda.exp_sticky import attribution_evidence

    fast = [100.0, 120.0, 90.0, 110.0, 105.0]
    rows = _attribution_rows(SGD=SGD_STEPS, EM=EM_STEPS, **{"WO0.1": [950.0, 960.0, 940.0,
                                                                      975.0, 955.0]},
                             **dict(zip(UNIFORM, [SLOW_UNIFORM[0], fast, SLOW_UNIFORM[0]],
                                        strict=True)))
    ev = attribution_evidence(rows, "", {"scale": "paper", "setting": "planted"}, {}, 1000)
    assert ev.verdict is Verdict.REFUTED and ev.counterexample["protocol"] == "SGD0.1"


def test_attribution_undecided_on_ties_and_on_a_control_that_never_reaches_the_level():
    """A tie (noise as large as the differences) decides nothing; nor does a control whose
    runs never reach the SGD level, counted at the horizon (that would flatter it)."""
    from numerics.gda.exp_sticky import attribution_evidence

    noisy = [300.0, 900.0, 550.0, 700.0, 200.0]
    rows = _attribution_rows(SGD=SGD_STEPS, EM=EM_STEPS, **{"WO0.1": noisy},
                             **dict(zip(UNIFORM, [noisy] * 3, strict=True)))
    ev = attribution_evidence(rows, "", {"scale": "paper", "setting": "planted"}, {}, 1000)
    assert ev.verdict is Verdict.UNDECIDED
    never = [None, 530.0, None, 540.0, None]
    rows["WO0.1"] = _attribution_rows(x=never)["x"]
    ev = attribution_evidence(rows, "", {"scale": "paper", "setting": "planted"}, {}, 1000)
    assert ev.numbers["paired_tests"]["WO0.1 vs SGD"]["outcome"] != "faster"
    assert ev.verdict is not Verdict.REFUTED or ev.counterexample["protocol"] != "WO0.1"


def test_attribution_has_nothing_to_attribute_without_em_acceleration():
    from numerics.gda.exp_sticky import attribution_evidence

    rows = _attribution_rows(SGD=SGD_STEPS, EM=[1000.0, 995.0, 990.0, 1000.0, 985.0],
                             **{"WO0.1": EM_STEPS},
                             **dict(zip(UNIFORM, SLOW_UNIFORM, strict=True)))
    ev = attribution_evidence(rows, "", {"scale": "paper", "setting": "planted"}, {}, 1000)
    assert ev.verdict is Verdict.UNDECIDED and "no acceleration to attribute" in ev.summary


def test_trajectory_alignment_scores_a_rank_one_field_one_and_the_signed_cosine_does_not():
    """The signed mean cosine compresses alignment (a rank-one field with both signs scores
    near 0); the alignment statistic that judges "more coherent" scores it 1."""
    from numerics.gda.exp_sticky import _coherence, alignment

    rng = np.random.default_rng(0)
    D = np.outer(rng.standard_normal(200), rng.standard_normal(15))  # rank one, both signs
    assert alignment(D) > 0.999
    assert _coherence(D) < 0.2
    assert alignment(rng.standard_normal((200, 15))) < 0.3


def test_trajectory_rule_reaches_every_verdict():
    from numerics.gda.exp_sticky import trajectory_evidence

    sc = {"scale": "paper", "setting": "planted"}

    def judged(em, sgd):
        per_seed = {"EM": {"length": em}, "SGD": {"length": sgd}}
        return trajectory_evidence(per_seed, "length", "longer", "A", "", sc).verdict

    long, short = [2.4, 2.5, 2.3, 2.6, 2.45], [0.3, 0.35, 0.34, 0.33, 0.36]
    assert judged(long, short) is Verdict.REPRODUCED
    assert judged(short, long) is Verdict.NOT_REPRODUCED
    assert judged([1.0, 2.0, 0.5, 1.5, 1.1], [1.2, 1.1, 1.3, 0.9, 1.0]) is Verdict.UNDECIDED


def test_readout_rule_reaches_both_verdicts():
    from numerics.gda.manifold import readout_u_evidence

    ev = readout_u_evidence((1, 1, 1))
    assert ev.verdict is Verdict.REFUTED and ev.counterexample["u_i"] == "0"
    assert readout_u_evidence((1, 0, -1)).verdict is Verdict.UNDECIDED


def test_stalled_value_rules_reach_both_verdicts():
    from numerics.gda.manifold import stalled_values_evidence
    from proofs.gda.manifold import full_stationary_point, values_continue_counterexample

    assert stalled_values_evidence((0.7, -0.7), (1.0, -1.0), (0, 1)).verdict is Verdict.REFUTED
    # the same labels for both queries: their errors add up, ubar != 0
    assert stalled_values_evidence((0.7, -0.7), (1.0, -1.0), (0, 0)).verdict is Verdict.UNDECIDED
    assert values_continue_counterexample()["_ok"]
    assert not values_continue_counterexample((0, 0))["_ok"]
    assert full_stationary_point()["_ok"]
    assert not full_stationary_point((0, 0))["_ok"]


def test_low_dim_rule():
    from numerics.gda.manifold import low_dim_evidence

    paper1 = {"EM": [(0.88, 0.95), (0.86, -0.93)], "SGD": [(0.9, 0.92)]}
    assert low_dim_evidence(paper1).verdict is Verdict.SUPPORTED
    weak = {"EM": [(0.52, 0.11), (0.86, -0.93)], "SGD": [(0.3, 0.05)]}
    ev = low_dim_evidence(weak)
    assert ev.verdict is Verdict.UNDECIDED and "linear structure" in ev.summary


def test_key_spread_rule_reaches_three_verdicts():
    from numerics.gda.manifold import key_spread_evidence

    init = [0.30, 0.28, 0.31]
    apart = {"EM": [0.2, 0.25, 0.3], "SGD": [0.29, 0.27, 0.30]}
    assert key_spread_evidence(init, apart).verdict is Verdict.SUPPORTED
    closer = {"EM": [0.35, 0.3, 0.33], "SGD": [0.31, 0.29, 0.32]}
    ev = key_spread_evidence(init, closer, counterexample={"seed": 0})
    assert ev.verdict is Verdict.REFUTED and ev.counterexample["abs_cos_init"] == init
    mixed = {"EM": [0.35, 0.2, 0.33], "SGD": [0.31, 0.29, 0.32]}
    assert key_spread_evidence(init, mixed).verdict is Verdict.UNDECIDED


def test_key_spread_counts_only_runs_that_meet_the_premise():
    """(b) is a conditional: keys that drift together in runs whose attention stays near
    uniform refute nothing; the same drift in focused runs does."""
    from numerics.gda.manifold import key_spread_evidence

    init = [0.30, 0.28, 0.31]
    closer = {"EM": [0.35, 0.3, 0.33], "SGD": [0.31, 0.29, 0.32]}
    none = {"EM": [False] * 3, "SGD": [False] * 3}
    ev = key_spread_evidence(init, closer, none, counterexample={"seed": 0})
    assert ev.verdict is Verdict.UNDECIDED and "premise not met" in ev.summary
    some = {"EM": [True, False, False], "SGD": [False] * 3}
    assert key_spread_evidence(init, closer, some, counterexample={"seed": 0}).verdict is (
        Verdict.REFUTED)
    apart_where_focused = {"EM": [0.2, 0.3, 0.33], "SGD": [0.31, 0.29, 0.32]}
    assert key_spread_evidence(init, apart_where_focused, some).verdict is Verdict.SUPPORTED


# ---- Sec. 3 identities (numerics/gda/identities.py) ---------------------------------------------
def test_logit_gloss_rule_reaches_both_verdicts():
    from numerics.gda.identities import logit_gloss_evidence

    g = torch.Generator().manual_seed(0)
    ell = torch.randn(64, 3, generator=g, dtype=torch.float64)
    y = torch.randint(0, 3, (64,), generator=g)
    eye = torch.eye(3, dtype=torch.float64).expand(64, 3, 3)
    # W_O = I: (W_O u)_y = p_y - 1 < 0, the correct logit always rises
    assert logit_gloss_evidence({"identity": (eye, ell, y)}).verdict is Verdict.SUPPORTED
    # C=2, d_v=1, W_O = (1, 3)^T, label 0: (W_O u)_0 = 2 p_1 > 0, the correct logit falls
    W = torch.tensor([[1.0], [3.0]], dtype=torch.float64).expand(8, 2, 1)
    ev = logit_gloss_evidence(
        {"planted": (W, torch.zeros(8, 2, dtype=torch.float64), torch.zeros(8, dtype=torch.long))}
    )
    assert ev.verdict is Verdict.REFUTED and ev.counterexample["first_order_dlogit_y_over_eps"] < 0


def test_finite_difference_sign_rule():
    from numerics.gda.identities import fd_sign_counts, fd_sign_evidence

    A = torch.full((1, 2, 2), 0.5, dtype=torch.float64)
    adv = torch.tensor([[[1.0, -1.0], [-2.0, 2.0]]], dtype=torch.float64)
    loss = torch.ones(1, dtype=torch.float64)
    dalpha = torch.full_like(A, 1e-7)
    agree, incr, tot = fd_sign_counts(-adv, adv, dalpha, A, loss)
    assert (agree, incr, tot) == (4, 4, 4)
    assert fd_sign_evidence(agree, incr, tot).verdict is Verdict.SUPPORTED
    agree, incr, tot = fd_sign_counts(adv, adv, dalpha, A, loss)  # every sign wrong
    assert agree == 0 and fd_sign_evidence(agree, incr, tot).verdict is Verdict.UNDECIDED


def test_cosine_rules_reach_both_verdicts():
    from numerics.gda.identities import reading_c_evidence, view_p_evidence

    fam = {"orthonormal": {k: {"min_cos": 1.0} for k in ("v", "s", "q", "k")}}
    assert view_p_evidence(fam, None).verdict is Verdict.SUPPORTED
    worst = {"quantity": "s", "cosine": 0.5, "family": "gaussian", "T": 2}
    assert view_p_evidence(fam, worst).verdict is Verdict.REFUTED
    ones = torch.ones(4, dtype=torch.float64)
    assert reading_c_evidence(ones, None).verdict is Verdict.SUPPORTED
    low = torch.tensor([1.0, 0.5], dtype=torch.float64)
    assert reading_c_evidence(low, {"T": 2, "cosine": 0.5}).verdict is Verdict.REFUTED


# ---- gda.reg.* ---------------------------------------------------------------------------------
def test_layernorm_rules_reach_both_verdicts():
    from numerics.gda.reg import (
        layernorm_direction_counterexample,
        scale_only_evidence,
        update_direction_evidence,
    )

    assert layernorm_direction_counterexample()["_ok"]
    # u with zero mean and orthogonal to v: LN's Jacobian maps it to u / sigma, same direction
    assert not layernorm_direction_counterexample(u=(1, 1, -1, -1))["_ok"]
    cos = torch.tensor([1.0, 0.9999], dtype=torch.float64)
    assert update_direction_evidence(cos, {"d": 4}).verdict is Verdict.SUPPORTED
    cos = torch.tensor([1.0, 0.7], dtype=torch.float64)
    ev = update_direction_evidence(cos, {"d": 4})
    assert ev.verdict is Verdict.REFUTED and ev.counterexample == {"d": 4}
    assert scale_only_evidence(torch.ones(3, dtype=torch.float64)).verdict is Verdict.SUPPORTED
    assert scale_only_evidence(torch.tensor([1.0, 0.9])).verdict is Verdict.UNDECIDED


def test_first_order_trend_rule_reaches_both_verdicts():
    from numerics.gda.reg import first_order_trend_evidence

    etas = [1e-6, 1e-4, 0.01, 0.1]
    good = ({"instance": 0}, [1.0, 0.999, 0.95, 0.5])
    bad = ({"instance": 1}, [1.0, 0.999, 0.5, 0.95])
    assert first_order_trend_evidence(etas, [good, good]).verdict is Verdict.SUPPORTED
    ev = first_order_trend_evidence(etas, [good, bad])
    assert ev.verdict is Verdict.REFUTED and ev.counterexample["r"][2] == 0.5
    assert ev.counterexample["instance"] == {"instance": 1}


# ---- gda.crr.* ---------------------------------------------------------------------------------
def test_def91_membership_rule_reaches_both_verdicts():
    from numerics.gda.crr import def91_member_evidence, ssm_weights_evidence, unrolled_evidence

    good = {"entries_in_01": True, "rows_sum_to_1": True, "depends_on_xi_and_xj": True}
    assert def91_member_evidence([({"x": 1}, good)]).verdict is Verdict.SUPPORTED
    ev = def91_member_evidence([({"x": 1}, good), ({"x": 2}, {**good, "rows_sum_to_1": False})])
    assert ev.verdict is Verdict.REFUTED and ev.counterexample["x"] == 2
    assert ssm_weights_evidence(True, True, (0, 1), (1, 1), {}).verdict is Verdict.SUPPORTED
    ev = ssm_weights_evidence(False, False, (-0.3, 1.2), (0.4, 1.7), {"x": [1]})
    assert ev.verdict is Verdict.REFUTED and ev.counterexample == {"x": [1]}
    assert unrolled_evidence(1e-14, 20).verdict is Verdict.SUPPORTED
    assert unrolled_evidence(1e-3, 20).verdict is Verdict.REFUTED


def test_proportionality_rule_reaches_three_verdicts():
    from numerics.gda.crr import proportionality_evidence

    assert proportionality_evidence([1.0, -1.0], "f").verdict is Verdict.SUPPORTED
    ev = proportionality_evidence([1.0, 0.97], "f", instance={"x": 1})
    assert ev.verdict is Verdict.REFUTED and ev.counterexample == {"x": 1}
    # proportional, but the factor is not 1 where exactness is asked
    assert (
        proportionality_evidence([1.0], "f", ratios=[1.5], instance={"x": 1}).verdict
        is Verdict.REFUTED
    )
    assert proportionality_evidence([1 - 1e-8], "f", instance={"x": 1}).verdict is (
        Verdict.UNDECIDED
    )


# ---- severity by the written rule: a repair by an unstated hypothesis is no erratum ---------
@pytest.mark.parametrize("cid", ["gda.dyn.feedback_loop", "gda.dyn.alpha_reallocation",
                                 "gda.em.e_step", "gda.diag.advantage_predicts_attention"])
def test_a_repair_by_an_unstated_hypothesis_is_overstated(cid):
    """The mass / responsibility / loop statements hold only with the row's other scores (or
    the other links) held fixed: reading B is declared overstated, so a holding B leaves the
    headline REFUTED (overstated), never 'with erratum'."""
    from verify.combine import Combined, headline_of
    from verify.registry import REGISTRY, discover

    discover(["proofs.gda", "numerics.gda"])
    c = REGISTRY[cid]
    (label,) = c.repairs
    assert c.repairs == {label: "overstated"} and c.repair_notes[label]
    head = headline_of({"A": Combined(Verdict.REFUTED, "x"),
                        label: Combined(Verdict.SUPPORTED, "y")},
                       repairs=c.repairs, notes=c.repair_notes)
    assert (head.verdict, head.severity, head.errata) == (Verdict.REFUTED, "overstated", ())


def test_value_update_heads_with_the_aggregate_the_text_says():
    from verify.registry import REGISTRY, discover

    discover(["proofs.gda", "numerics.gda"])
    c = REGISTRY["gda.dyn.value_update_prototype"]
    assert c.headline[0] == "B" and "jointly" in c.headline[1] and not c.repairs


# ---- gda.exp.sticky.task / min_entropy: one repaired chain -------------------------------------
def test_the_2_pow_minus_d_rule_puts_the_nearby_symbol_first_and_gives_1829_nats():
    from fractions import Fraction

    from numerics.gda.exp_sticky import nearby_evidence
    from numerics.gda.model.sticky import INTENDED_CHAIN

    d = [1, 2, 3, 4, 3, 2, 1]
    assert nearby_evidence([Fraction(1, 2**x) for x in d], "B", "2^-d").verdict \
        is Verdict.SUPPORTED
    assert nearby_evidence([Fraction(x) for x in d], "A", "d").verdict is Verdict.REFUTED
    assert entropy_rate(transition_matrix(INTENDED_CHAIN)) == pytest.approx(1.8303, abs=1e-4)
    assert entropy_rate(transition_matrix("B")) == pytest.approx(1.883, abs=1e-3)


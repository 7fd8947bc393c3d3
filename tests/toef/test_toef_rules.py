"""Negative controls for the toef claims' own decision rules: each reaches more than one
verdict from planted data."""

import pytest

from numerics.toef.splitting import decay_evidence
from numerics.toef.variational import first_variation
from verify import Verdict

X = [16.0, 32.0, 64.0, 128.0, 256.0]


def test_decay_supported_for_a_decaying_sweep():
    assert decay_evidence(X, [x**-0.5 for x in X], "planted").verdict is Verdict.SUPPORTED


def test_decay_refuted_for_a_flat_or_growing_sweep():
    ev = decay_evidence(X, [1e-3 * x**0.2 for x in X], "planted")
    assert ev.verdict is Verdict.REFUTED and ev.counterexample["y"]


def test_decay_undecided_when_the_interval_straddles_zero():
    noisy = [1.0, 0.5, 1.5, 0.6, 1.2]
    assert decay_evidence(X, noisy, "planted").verdict is Verdict.UNDECIDED


def test_first_variation_separates_real_and_imaginary_potentials():
    assert first_variation(1j, 1.0, 1.0 + 0.5j, kappa=0.3j) < 1e-8
    assert first_variation(1.0, 1.0, 1.0 + 0.5j) > 1e-2
    with pytest.raises(ValueError):
        first_variation(1.0, 1.0, 1.0, kappa=0.5)  # no closed-form flow


# ---- the rules pulled out of the claim functions ---------------------------------------------
def test_unpaired_heads_rule():
    from numerics.toef.linearized import unpaired_evidence

    assert unpaired_evidence(0.5, {"untied": 0.5}).verdict is Verdict.SUPPORTED
    assert unpaired_evidence(1e-15, {"untied": 1e-15}).verdict is Verdict.UNDECIDED


def test_tied_head_rule():
    from numerics.toef.linearized import tied_evidence

    ev = tied_evidence(1e-15, 1e-15)
    assert ev.verdict is Verdict.REFUTED and ev.counterexample["n"] == 1
    assert tied_evidence(0.3, 1e-15).verdict is Verdict.UNDECIDED
    assert tied_evidence(1e-15, 0.3).verdict is Verdict.UNDECIDED


def test_holomorphic_ambiguity_rule():
    from numerics.toef.linearized import invariance_change_evidence

    assert invariance_change_evidence(0.7, "changes").verdict is Verdict.SUPPORTED
    assert invariance_change_evidence(0.0, "unchanged").verdict is Verdict.UNDECIDED


def test_fixed_h_rule():
    from numerics.toef.splitting import fixed_h_evidence

    assert fixed_h_evidence(1e-15, 6.28).verdict is Verdict.REFUTED
    assert fixed_h_evidence(0.2, 6.28).verdict is Verdict.UNDECIDED  # the pair does not commute
    assert fixed_h_evidence(1e-15, 0.0).verdict is Verdict.UNDECIDED  # commuting: no witness


def test_fusion_width_rule():
    import torch

    from numerics.toef.theorem5 import fusion_width_evidence

    one = torch.ones(1, 1, dtype=torch.complex128)
    ev = fusion_width_evidence([one, 2 * one], C_A=1)
    assert ev.verdict is Verdict.REFUTED and ev.counterexample["rank"] == 1
    eye = torch.eye(2, dtype=torch.complex128)
    e1, e2 = eye[:, :1], eye[:, 1:]
    independent = [e1 @ e1.T, e2 @ e2.T]  # rank 2 = n C_A: the width is needed
    assert fusion_width_evidence(independent, C_A=1).verdict is Verdict.UNDECIDED


def test_kkt_rule():
    from fractions import Fraction as F

    from numerics.toef.engineering import kkt_holds

    X = [[F(1), F(-2)], [F(1, 2), F(-1, 4)]]
    assert kkt_holds(X, [[max(x, F(0)) for x in row] for row in X])
    assert not kkt_holds(X, X)  # infeasible: negative entries
    assert not kkt_holds(X, [[abs(x) for x in row] for row in X])  # slackness fails at -2


def test_polar_typing_rule():
    from numerics.toef.axioms import polar_evidence

    ev = polar_evidence(1, 2)
    assert ev.verdict is Verdict.REFUTED and ev.counterexample["error"]
    assert polar_evidence(2, 2).verdict is Verdict.SUPPORTED


def test_commutant_span_rule():
    from numerics.toef.axioms import span_mismatch

    assert span_mismatch(3, 3, 3) == 0.0
    assert span_mismatch(3, 3, 4) == 1.0 and span_mismatch(2, 3, 3) == 1.0


def test_lemma7_refutation_is_false_not_an_erratum():
    """Softmax^T is another operator, so reading S3 repairs nothing: even with S3 PROVED the
    severity of a refuted Lemma 7 is 'false': the repair changes the operator."""
    from verify.combine import severity_of
    from verify.registry import REGISTRY, discover

    discover(["proofs.toef", "numerics.toef"])
    repairs = REGISTRY["toef.lemma7_softmax_free_energy"].repairs
    held = {"S3": Verdict.PROVED, "C": Verdict.PROVED, "D": Verdict.PROVED}
    assert severity_of(Verdict.REFUTED, held, repairs) == ("false", None)


def test_readings_carry_the_claim_lists_labels():
    """Where shared/claims/toef.md names a reading, its JSONL key is that label."""
    from verify.registry import REGISTRY, discover

    discover(["proofs.toef", "numerics.toef"])
    labels = {
        "toef.lemma7_softmax_free_energy": {"S3", "T1"},
        "toef.relu_projection": {"P1", "P2"},
        "toef.gated_mlp_minimal_under_SN": {"R1", "R2"},
        "toef.softmax_in_canonical_form": {"M"},
        "toef.rope_fourier_pe": {"B", "B2"},
        "toef.lemma4_canonical_form": {"w2-f1", "w2-f2"},
        "toef.lemma3_wirtinger_linear_attention": {"A1", "A2", "B2"},
        "toef.def3_structural_optimality": {"i"},
    }
    for cid, want in labels.items():
        assert want <= set(REGISTRY[cid].readings), (cid, REGISTRY[cid].readings)
    assert REGISTRY["toef.lemma3_wirtinger_linear_attention"].proof.keys() == {"A2"}


def test_rope_part_a_is_judged_against_the_cited_definition():
    """(a) of l. 140: RoPE's rotations are U(1) characters (PROVED exactly), while the printed
    frequency law sigma/T_PE is not RoPE's b^{-2 sigma/C} (REFUTED exactly, reading a-freq)."""
    from numerics.toef.engineering import rope_frequencies_differ, rope_is_u1_character

    u1 = rope_is_u1_character()
    assert u1.verdict is Verdict.PROVED and u1.part == "(a) Fourier basis"
    freq = rope_frequencies_differ()
    assert freq.verdict is Verdict.REFUTED and freq.reading == "a-freq"
    assert freq.counterexample["difference"] != "0"

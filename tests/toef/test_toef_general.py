"""proofs.toef.model.anysize: the toef statements proved in their own generality (symbolic N, C,
every degree, every matrix size), and for each proof routine a wrong formula fed to the same
routine that must not come out PROVED."""

import pytest
import sympy as sp

import verify
from proofs.toef.engineering import gate
from proofs.toef.model import anysize as A
from verify import Verdict

#: Discovery limited to this paper's packages.
TOEF = ["proofs.toef", "numerics.toef"]

LIFTED = ["toef.def2_dissipative_conservative", "toef.un_equivariant_flow_form",
          "toef.lemma4_canonical_form", "toef.thm5_minimal_interaction", "toef.lemma8_bch_gate"]


def _general(ev):
    return ev.verdict is Verdict.PROVED and ev.scope == "general"


@pytest.mark.parametrize("claim_id", LIFTED)
def test_claim_is_proved_in_general(claim_id, tmp_path):
    (res,) = verify.run([claim_id], jobs=0, results_path=tmp_path / "r.jsonl", modules=TOEF)
    assert str(res.verdict) == "PROVED"
    assert res.scope == "general"
    general = [e for e in res.evidence if e.reading == "A" and _general(e)]
    assert general and all(e.generality for e in general)


def test_prove_steps_refuses_a_step_proved_only_at_concrete_sizes():
    a = sp.Symbol("a", integer=True)
    C = sp.Symbol("C", integer=True, positive=True)
    K = sp.IndexedBase("K")
    # zero at the concrete sizes C = 1, 2 the chain falls back to, false at C = 3
    step = A.Step("vanishes for C <= 2 only", (C - 1) * (C - 2) * sp.Sum(K[a, a], (a, 1, C)), 0)
    ev = A.prove_steps([step], summary="s", generality="g")
    assert ev.verdict is Verdict.UNDECIDED and "only at concrete sizes" in ev.summary


@pytest.mark.parametrize("imaginary", [False, True])
def test_flow_rate_any_size(imaginary):
    assert _general(A.flow_rate_any_size(imaginary))
    wrong = A.flow_rate_any_size(imaginary, lambda g: g * sp.conjugate(g))  # |g|^2, not 2|g|^2
    assert wrong.verdict is Verdict.UNDECIDED


def test_gram_chain_rule_any_size():
    assert _general(A.gram_chain_rule_any_size())

    def x_g(S, G):  # X G instead of X G^T
        b = S["idx"][1]
        return sp.Sum(S["X"][S["q"], b] * G[b, S["n"]], (b, 1, S["C"]))

    assert A.gram_chain_rule_any_size(x_g).verdict is Verdict.UNDECIDED


def test_gram_gradient_any_size():
    for name in A.GRAM_POTENTIALS:
        assert _general(A.gram_gradient_any_size(name)), name

    def transposed(S):  # D_ab = delta_bn X_qa: the transposed layout
        return lambda i, j: sp.KroneckerDelta(j, S["n"]) * S["X"][S["q"], i]

    assert A.gram_gradient_any_size("Tr(AK)", transposed).verdict is Verdict.UNDECIDED


def test_gram_invariance_any_size():
    assert _general(A.gram_invariance_any_size())
    wrong = A.gram_invariance_any_size(lambda P, X: sp.adjoint(X) * P * sp.adjoint(P) * X)
    assert wrong.verdict is Verdict.UNDECIDED


def test_matrix_unit_rule_and_its_consequences():
    lemma = A.unit_trace_induction()
    assert _general(lemma)
    for ev in (A.trace_square_any_size(lemma), A.quartic_invariant_any_size(lemma),
               A.quartic_heads_any_size(lemma)):
        assert _general(ev), ev.summary
    wrong = A.unit_trace_induction(lambda b, a: (a, b))  # K_{a' b} at the junction
    assert wrong.verdict is Verdict.UNDECIDED and "(S)" in wrong.summary
    for ev in (A.trace_square_any_size(wrong), A.quartic_invariant_any_size(wrong),
               A.quartic_heads_any_size(wrong)):
        assert ev.verdict is Verdict.UNDECIDED


def test_quartic_heads_reject_untied_weights():
    wrong = A.quartic_heads_any_size(A.unit_trace_induction(), lambda T, ix: 2 * T[ix])
    assert wrong.verdict is Verdict.UNDECIDED and "(3)" in wrong.summary


def test_bch_gate_any_size():
    assert _general(A.bch_gate_any_size(gate))
    wrong = A.bch_gate_any_size(lambda b: b / (sp.exp(b) - 1))  # G(-beta)
    assert wrong.verdict is Verdict.UNDECIDED and "(4)" in wrong.summary


def test_bch_gate_every_degree():
    assert _general(A.bch_gate_every_degree(gate))
    wrong = A.bch_gate_every_degree(lambda b: b / (sp.exp(b) - 1))
    assert wrong.verdict is Verdict.UNDECIDED

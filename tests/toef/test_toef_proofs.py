"""proofs.toef: the symbolic-size Wirtinger trace rule, the closedness criterion in symbolic
size, the exact enumeration of the ReLU axioms, and the readings the claims split off."""

import sympy as sp

import verify
from proofs.toef.engineering import homogeneous_idempotent_solutions
from proofs.toef.linearized import KEY_WORD, layout_check, matrix_letters, trace_grad_conj
from proofs.toef.model import token_matrix
from proofs.toef.variational import closedness_any_size
from verify import Verdict
from verify.symbolic import prove_equal

#: Discovery limited to this paper's packages.
TOEF = ["proofs.toef", "numerics.toef"]


def test_trace_grad_conj_key_identity_symbolic_size():
    m = matrix_letters()
    X, Xs, A, B = m["X"], m["Xs"], m["A"], m["B"]
    G = trace_grad_conj(KEY_WORD, m)
    assert prove_equal(G, X * B * Xs * X * A + X * A * Xs * X * B).verdict == Verdict.PROVED
    # a wrong formula (the paper's first term doubled) is refuted with a concrete-size witness
    bad = prove_equal(G, 2 * X * A * Xs * X * B)
    assert bad.verdict == Verdict.REFUTED and bad.counterexample


def test_trace_rule_matches_entrywise_wirtinger():
    assert layout_check(KEY_WORD, 1, 2, part="key identity").verdict == Verdict.PROVED
    terms = [(sp.Integer(1), ["X", "W", "Xs"]), (sp.Integer(2), ["X", "A", "Xs", "X", "B", "Xs"])]
    assert layout_check(terms, 2, 1, part="main").verdict == Verdict.PROVED


def test_homogeneous_idempotent_solutions_include_negative_slope_families():
    sols = {(sa, sb) for sa, sb, _ in homogeneous_idempotent_solutions()}
    assert sols == {("+", "+"), ("+", "0"), ("+", "-"), ("0", "+"), ("0", "0"), ("-", "+")}


def _by_reading(res):
    out = {}
    for e in res.evidence:
        out.setdefault(e.reading, []).append(e.verdict)
    return out


def _run(claim_id, tmp_path):
    (res,) = verify.run([claim_id], jobs=0, results_path=tmp_path / "r.jsonl", modules=TOEF)
    return res


def test_relu_reading_c_refuted_by_abs_and_e_proved(tmp_path):
    res = _run("toef.relu_axioms_characterization", tmp_path)
    r = _by_reading(res)
    assert Verdict.REFUTED in r["C"] and Verdict.PROVED not in r["C"]
    assert r["E"] == [Verdict.PROVED]
    assert str(res.verdict) == "REFUTED"


def test_lemma3_existence_proved_by_witness_proofs_substitution_refuted_beside_it(tmp_path):
    # in a claim process of its own, as `verify run` runs it: in the test process (jobs=0)
    # the state earlier tests leave behind once stretched its symbolic proofs past the budget
    (res,) = verify.run(["toef.lemma3_wirtinger_linear_attention"], jobs=1,
                        results_path=tmp_path / "r.jsonl", modules=TOEF)
    # reading A, the lemma's "there exists parameters", holds by a witness proved in symbolic size
    assert str(res.verdict) == "PROVED" and res.scope == "general" and res.quantifier == "exists"
    assert res.summary.startswith("witness: ")
    r = _by_reading(res)
    assert Verdict.REFUTED not in r["A"]
    assert any(e.witness for e in res.evidence if e.reading == "A" and e.verdict == Verdict.PROVED)
    # the proof's W_B = V O^* (l. 210), for every paired set: an erratum of the proof, REFUTED
    assert res.readings["A2"]["verdict"] == "REFUTED"
    assert any(e.counterexample for e in res.evidence if e.reading == "A2")
    assert Verdict.PROVED in r["B2"] and Verdict.PROVED in r["A1"]
    key = [e for e in res.evidence if e.part == "key identity" and e.verdict == Verdict.PROVED]
    assert any("all N, C" in (e.generality or "") for e in key)
    assert all(e.scope == "general" for e in res.evidence
               if e.reading == "B2" and e.verdict == Verdict.PROVED)


def test_closedness_criterion_is_proved_for_symbolic_sizes():
    ev = closedness_any_size()
    assert ev.verdict == Verdict.PROVED
    assert ev.generality.startswith("symbolic N, C")
    assert len(ev.steps) == 5
    assert all("PROVED" in s or s.endswith("target: True)") for s in ev.steps)


def test_closedness_criterion_rejects_a_wrong_conjugate_jacobian():
    def transposed_heads(X, Tt, j, k, q, n, C, a, b):  # A and B exchanged: not the Jacobian
        return sp.Sum(X[j, a] * X[q, b] * Tt[b, k, a, n], (a, 1, C), (b, 1, C))

    ev = closedness_any_size(transposed_heads)
    assert ev.verdict != Verdict.PROVED
    assert ev.summary.startswith("step 1")


def test_lemma7_existential_refuted_by_a_proof_that_no_nonvacuous_witness_exists(tmp_path):
    res = _run("toef.lemma7_softmax_free_energy", tmp_path)
    r = _by_reading(res)
    assert r["C"] == [Verdict.PROVED] and r["D"] == [Verdict.PROVED]  # vacuous witnesses
    assert str(res.verdict) == "REFUTED" and res.quantifier == "exists"
    (none,) = [e for e in res.evidence if e.reading == "A"]
    assert none.nonexistence and none.method == "symbolic" and none.verdict == Verdict.REFUTED
    assert res.readings["T1"]["verdict"] == "REFUTED"  # the proof's tying: a failing instance


def test_lemma7_nonexistence_argument_does_not_close_with_a_wrong_derivative(monkeypatch):
    from proofs.toef import engineering

    assert engineering.no_nonvacuous_witness().verdict == Verdict.REFUTED
    # a wrong Wirtinger derivative (X itself): steps (1) and (5) fail, so nothing is concluded
    monkeypatch.setattr(engineering, "wirtinger_conj", lambda V, X: sp.zeros(2, 1) + X)
    assert engineering.no_nonvacuous_witness().verdict == Verdict.UNDECIDED


def test_lemma7_heads_that_do_not_cancel_leave_a_nonzero_field():
    X = token_matrix(2, 1)
    S = X * X.H
    P = sp.Matrix(2, 2, lambda j, k: sp.exp(S[j, k]) / sum(sp.exp(S[j, m]) for m in range(2)))
    assert prove_equal(P * X - P * X, sp.zeros(2, 1)).verdict == Verdict.PROVED
    assert prove_equal(P * X + P * X, sp.zeros(2, 1)).verdict == Verdict.REFUTED

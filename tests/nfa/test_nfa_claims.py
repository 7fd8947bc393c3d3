"""Whole-claim checks of nfa: the shape of their evidence and the verdict of each reading."""

from __future__ import annotations

import verify
from verify import Verdict


def _run(claim_id: str, tmp_path):
    (res,) = verify.run(
        claim_id,
        jobs=0,
        results_path=tmp_path / "results.jsonl",
        modules=["proofs.nfa", "numerics.nfa"],
    )
    return res


def test_rate_headline_reading_a_is_the_printed_gap_with_and_without_centring(tmp_path):
    res = _run("nfa.ag.softmax_rate_headline", tmp_path)
    pieces = {(e.reading, e.part): e.verdict for e in res.evidence}
    assert pieces[("A", "raw gap, centred residuals")] is Verdict.SUPPORTED  # slope -2
    assert pieces[("A", "raw gap, uncentred residuals")] is Verdict.REFUTED  # slope 0
    assert res.verdict is Verdict.REFUTED
    assert {e.reading for e in res.evidence} == {"A", "B", "C", "F"}
    assert all(v is Verdict.REFUTED for (rd, _), v in pieces.items() if rd in "BC")
    assert res.readings["F"]["verdict"] == "SUPPORTED"  # the centred repair
    assert res.severity == "overstated"
    fig = next(e for e in res.evidence if e.reading == "F").figures[0]
    assert fig["kind"] == "curve" and fig["logx"] and fig["logy"] and len(fig["series"]) == 3


def test_remainder_bound_printed_hypotheses_refuted_centring_supported(tmp_path):
    """Centring is the paper's standing condition (L448): reading B heads, SUPPORTED; the
    bound without it (reading A) stays REFUTED beside it."""
    res = _run("nfa.ag.softmax_remainder_bound", tmp_path)
    assert res.headline_reading == "B" and res.verdict is Verdict.SUPPORTED
    assert res.readings["A"]["verdict"] == "REFUTED"


def test_thm16_constant_witness_is_taken_at_large_tau(tmp_path):
    res = _run("nfa.appd.thm16_multihead_softmax", tmp_path)
    ce = next(e for e in res.evidence if e.part == "constant" and e.reading == "A").counterexample
    vals = ce["tau2_norm_R_at_tau_1e3_float64"]
    assert abs(vals[4] / vals[1] - 2.0) < 1e-8  # sqrt(H) growth at tau = 1e3
    assert abs(vals[1] - 1 / 9) < 1e-3
    assert res.readings["C"]["verdict"] == "SUPPORTED"  # the constant with sqrt(H)


def test_thm14_literal_q_refuted_q_as_g_proved_in_general(tmp_path):
    res = _run("nfa.appd.thm14_multihead_identity", tmp_path)
    first = next(e for e in res.evidence if e.part.startswith("first equality"))
    assert first.verdict is Verdict.PROVED and first.scope == "general"
    # the literal Q is an erratum: the repaired reading B heads, A stays REFUTED beside it
    assert res.headline_reading == "B" and res.verdict is Verdict.PROVED
    assert res.readings["A"]["verdict"] == "REFUTED"
    assert [e["reading"] for e in res.errata] == ["A"]


def test_thm9_hedge_refuted_by_a_plane_in_three_dimensions(tmp_path):
    res = _run("nfa.basis.thm9_continuum_subgroup", tmp_path)
    b = next(e for e in res.evidence if e.reading == "B")
    assert b.verdict is Verdict.REFUTED
    assert len(b.counterexample["frequency_set"][0]) == 3
    assert b.counterexample["shape"] == "other"
    assert res.readings["C"]["verdict"] == "SUPPORTED"

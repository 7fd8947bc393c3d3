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


def test_rate_headline_one_piece_per_reading_with_centring_in_reading_a(tmp_path):
    res = _run("nfa.ag.softmax_rate_headline", tmp_path)
    by_reading = {e.reading: e for e in res.evidence}
    assert sorted(by_reading) == ["A", "B", "C", "D", "E"]
    assert len(res.evidence) == 5
    assert by_reading["A"].verdict == verify.Verdict.SUPPORTED  # raw gap, centred: slope -2
    for rd in "BCDE":
        assert by_reading[rd].verdict == verify.Verdict.REFUTED
    fig = by_reading["A"].figures[0]
    assert fig["kind"] == "curve" and fig["logx"] and fig["logy"] and len(fig["series"]) == 3


def test_thm16_constant_witness_is_taken_at_large_tau(tmp_path):
    res = _run("nfa.appd.thm16_multihead_softmax", tmp_path)
    ce = next(e for e in res.evidence if e.part == "constant").counterexample
    vals = ce["tau2_norm_R_at_tau_1e3_float64"]
    assert abs(vals[4] / vals[1] - 2.0) < 1e-8  # sqrt(H) growth at tau = 1e3
    assert abs(vals[1] - 1 / 9) < 1e-3


def test_thm9_hedge_refuted_by_a_plane_in_three_dimensions(tmp_path):
    res = _run("nfa.basis.thm9_continuum_subgroup", tmp_path)
    b = next(e for e in res.evidence if e.reading == "B")
    assert b.verdict is Verdict.REFUTED
    assert len(b.counterexample["frequency_set"][0]) == 3
    assert b.counterexample["shape"] == "other"
    assert res.readings["C"]["verdict"] == "SUPPORTED"

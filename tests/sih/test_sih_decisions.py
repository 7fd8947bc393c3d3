"""Negative controls for the sih claims' own decision rules: each rule, fed a planted pass and a
planted violation, reaches both verdicts (and the in-between UNDECIDED where it has one)."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import sympy as sp
import torch

from numerics.sih import retrieve as sih_retrieve
from numerics.sih.coverage import lookup_exact, notion_ii_evidence, unobservable_flip
from numerics.sih.decode import (
    decoder_failure,
    least_interpolating_width,
    suppression_evidence,
    tightness_evidence,
)
from numerics.sih.embed import (
    affine_in_time_obstruction,
    bound23_evidence,
    existence_evidence,
    lemma_d2_1d_judgement,
    lemma_d2_judgement,
    margin_evidence,
    omega_rows_evidence,
    pair_count_evidence,
    remark_d7_exact_witness,
    thm42_judgement,
)
from numerics.sih.exp import compute_evidence, incompatible_rows, relation_evidence
from numerics.sih.main import (
    dims_constant_evidence,
    evaluable_evidence,
    every_cell_evidence,
    layernorm_evidence,
    ln_layer1_leakage,
    ln_leakage_evidence,
    ln_std_spread,
    threshold_iff_evidence,
    tradeoff_evidence,
)
from numerics.sih.model.ca import CellularAutomaton, sample_stream, token_stream
from numerics.sih.model.checks import def_d1_margins
from numerics.sih.model.construction import SpatialInductionHead, evaluate
from numerics.sih.model.embedding import SpatialAwareEmbedding, case1_coefficients
from numerics.sih.model.lemma_d2 import (
    certify_instance,
    farkas_certificate,
    float_feasible,
    recheck_farkas,
    search_tori,
    uniform_form_1d,
)
from numerics.sih.naive import NaiveRPE, scaling_evidence, spatial_widths
from numerics.sih.retrieve import (
    admissible,
    block_score,
    block_vertices,
    distributed_evidence,
    distributed_recheck,
    distributed_worst,
    iff_evidence,
    k_reading_evidence,
    match_bound_evidence,
    nonmatch_bound_evidence,
)
from numerics.sih.setup import (
    partition_counts,
    torus_counterexample,
    transitions_evidence,
    union_sets_evidence,
)
from numerics.sih.text import (
    causal_evidence,
    row0_key_evidence,
    same_row_match,
    sinks_evidence,
)
from proofs.sih import text as sih_text
from proofs.sih.coverage import coverage_probability, mmin_evidence, mmin_formula
from proofs.sih.embed import premise_evidence
from proofs.sih.main import alignment_evidence, mlp_width_evidence
from proofs.sih.model import ECA, VN, partitions, wolfram_table
from proofs.sih.retrieve import block_gap_counts, layout_evidence
from proofs.sih.setup import (
    big_o_holds,
    flatten_meanings,
    game_of_life,
    meanings_evidence,
    non_centre_evidence,
)
from verify import Verdict

F = Fraction


def eca(rule: int, row: list[int], T: int) -> tuple[CellularAutomaton, torch.Tensor]:
    ca = CellularAutomaton(ECA, 2, wolfram_table(rule))
    return ca, ca.trajectory(torch.tensor(row), T)


# ---- proofs/sih/setup.py: rule_space (GoL), flatten_distance -------------------------------------
def test_game_of_life_is_not_a_function_of_eight_offsets():
    ev = non_centre_evidence(game_of_life, "B3/S23")
    assert ev.verdict is Verdict.REFUTED and ev.counterexample["next_1"] != ev.counterexample[
        "next_2"]


def test_a_centre_free_rule_is_a_function_of_eight_offsets():
    def parity(cfg):
        return (sum(cfg) - cfg[4]) % 2

    assert non_centre_evidence(parity, "parity").verdict is Verdict.PROVED


def test_big_o_compares_growth_exactly():
    W = sp.Symbol("W", positive=True)
    assert big_o_holds(W, W, W) and big_o_holds(1, W, W)
    assert not big_o_holds(W ** 2, W, W)


def test_meanings_rule_reaches_all_three_verdicts():
    assert meanings_evidence({"a": None, "b": None}, "s").verdict is Verdict.PROVED
    assert meanings_evidence({"a": {"x": 1}, "b": {"y": 2}}, "s").verdict is Verdict.REFUTED
    assert meanings_evidence({"a": None, "b": {"y": 2}}, "s").verdict is Verdict.UNDECIDED


def test_both_meanings_of_m_fail_at_the_row_neighbour_of_a_2d_grid():
    W = sp.Symbol("W", positive=True, integer=True)
    out = flatten_meanings(W)
    assert out["axis index"]["d"] == 2 and out["axis index"]["axis m"] == 1
    assert out["partition size"]["m"] == 1
    assert flatten_meanings(W, dims=(1,))["axis index"] is None  # 1D: W^0 = O(W^0)


# ---- proofs/sih/text.py: naive_rpe_cost, checklist -----------------------------------------------
def test_rpe_table_counts_t_times_l_entries():
    assert sih_text.rpe_table_entries(3, (4,)) == 12
    assert sih_text.rpe_table_entries(2, (3, 3)) == 18


def test_rpe_cost_rule_proves_exact_counts_and_abstains_otherwise():
    good = [{"T": 2, "widths": [4], "entries": 8}, {"T": 3, "widths": [2, 2], "entries": 12}]
    assert sih_text.rpe_cost_evidence(good).verdict is Verdict.PROVED
    off = [{"T": 2, "widths": [4], "entries": 15}]
    assert sih_text.rpe_cost_evidence(off).verdict is Verdict.UNDECIDED


def test_citation_rule():
    q8 = next(c for c in sih_text.CITATIONS if c["question"] == "Q8")
    ev = sih_text.citation_evidence(q8, sih_text.LOCATIONS)
    assert ev.verdict is Verdict.REFUTED and "appendix G" in ev.counterexample["holds_the_content"]
    right = q8 | {"cites": "appendix G"}
    assert sih_text.citation_evidence(right, sih_text.LOCATIONS).verdict is Verdict.SUPPORTED
    nowhere = q8 | {"keywords": ["Bibliography"]}
    assert sih_text.citation_evidence(nowhere, sih_text.LOCATIONS).verdict is Verdict.UNDECIDED


def test_formal_proofs_rule():
    ev = sih_text.formal_proofs_evidence(sih_text.Q3_CITED, sih_text.Q3_MARKERS,
                                         sih_text.Q3_PROOFS)
    assert ev.verdict is Verdict.REFUTED
    clean = sih_text.formal_proofs_evidence(["appendix D", "appendix F"], sih_text.Q3_MARKERS,
                                            sih_text.Q3_PROOFS)
    assert clean.verdict is Verdict.UNDECIDED


def test_error_bar_rule():
    entries, none = sih_text.RESULT_ENTRIES, {"std": 0}
    assert sih_text.error_bar_evidence(entries, 1, none).verdict is Verdict.REFUTED
    assert sih_text.error_bar_evidence(entries, 1, None).verdict is Verdict.REFUTED
    assert sih_text.error_bar_evidence(["98.1 ± 0.3"], 1, none).verdict is Verdict.UNDECIDED
    assert sih_text.error_bar_evidence(entries, 3, none).verdict is Verdict.UNDECIDED
    assert sih_text.error_bar_evidence(entries, 1, {"std": 2}).verdict is Verdict.UNDECIDED


def test_theoretical_rule():
    assert sih_text.theoretical_evidence(7, 207.0).verdict is Verdict.REFUTED
    assert sih_text.theoretical_evidence(0, 0.0).verdict is Verdict.UNDECIDED


def _paper_lines(extra: dict[int, str]) -> list[str]:
    """A stand-in paper text with every quoted passage on its line, plus ``extra`` lines."""
    lines = [""] * 2400
    quotes = [q for entries in sih_text.LOCATIONS.values() for q in entries]
    quotes += [(c["line"], c["quote"]) for c in sih_text.CITATIONS]
    quotes += [(ln, t) for ln, t, _ in sih_text.Q3_MARKERS] + [sih_text.SEEDS_QUOTE]
    quotes += sih_text.THEORY_QUOTES + sih_text.EXPERIMENT_QUOTES
    for ln, text in quotes:
        lines[ln - 1] += " " + text
    for ln, text in extra.items():
        lines[ln - 1] += " " + text
    return lines


def test_quotes_are_checked_against_the_text():
    lines = _paper_lines({})
    assert sih_text.missing_quotes(lines) == []
    lines[2158] = "Justification: Detailed in appendix G"
    assert [m["line"] for m in sih_text.missing_quotes(lines)] == [2159]


def test_checklist_claim_from_a_paper_text(tmp_path, monkeypatch):
    parts = {}
    for name, extra in (("plain", {}), ("with spread", {500: "accuracy 97.1 $\\pm$ 0.4"})):
        path = tmp_path / f"{name}.txt"
        path.write_text("\n".join(_paper_lines(extra)))
        monkeypatch.setattr(sih_text, "SEED_TEXT", path)
        parts[name] = {e.part: e.verdict for e in sih_text.checklist(None)}
    assert parts["plain"]["Q7 error bars"] is Verdict.REFUTED
    assert parts["with spread"]["Q7 error bars"] is Verdict.UNDECIDED
    broken = tmp_path / "broken.txt"
    broken.write_text("\n".join([""] * 2400))
    monkeypatch.setattr(sih_text, "SEED_TEXT", broken)
    ev = sih_text.checklist(None)
    assert ev.verdict is Verdict.UNDECIDED and "not found" in ev.summary
    monkeypatch.setattr(sih_text, "SEED_TEXT", tmp_path / "absent.txt")
    without = {e.part: e.verdict for e in sih_text.checklist(None)}
    assert without["Q7 error bars"] is Verdict.REFUTED


# ---- proofs/sih/retrieve.py, main.py, coverage.py, embed.py --------------------------------------
def test_one_hot_blocks_count_agreements():
    assert block_gap_counts(3, 3) == {"equal pairs scoring != h": 0,
                                      "unequal pairs scoring > h-1": 0}


def test_layout_rule():
    ev = layout_evidence(ECA, 2, part="p", reading="B")
    assert ev.verdict is Verdict.REFUTED
    assert ev.counterexample["dim_B3K_block"] != ev.counterexample["dim_B3Q_block"]
    assert layout_evidence(ECA, 2, shift=(0,)).verdict is Verdict.UNDECIDED


def test_alignment_rule():
    assert alignment_evidence(ECA).verdict is Verdict.REFUTED
    assert alignment_evidence(ECA, (0,)).verdict is Verdict.PROVED


def test_mlp_width_rule():
    U = [(-1,), (0,), (1,), (2,)]
    a, b = mlp_width_evidence(U, 2)
    assert a.verdict is Verdict.REFUTED and b.verdict is Verdict.PROVED
    a1, _ = mlp_width_evidence([(0,)], 2)
    assert a1.verdict is Verdict.PROVED

    def oversized(items, h):  # blocks larger than ceil(|U|/h): outside Def. 4.1
        return partitions(items, h) if h == 1 else iter([[list(items[:-1]), [items[-1]]]])

    _, b_bad = mlp_width_evidence(U, 2, partitions_of=oversized)
    assert b_bad.verdict is Verdict.REFUTED


def test_mmin_rule():
    settings, Ps = [(2, 3, 10)], (0.5, 0.9)
    a, b = mmin_evidence(settings, Ps)
    assert a.verdict is Verdict.REFUTED and b.verdict is Verdict.PROVED

    def least(V, k, L, P):
        target = F(P).limit_denominator(10 ** 6)
        return next(M for M in range(1, 200) if coverage_probability(L * M, V ** k) >= target)

    a2, _ = mmin_evidence(settings, Ps, formula=least)
    assert a2.verdict is Verdict.PROVED
    _, b2 = mmin_evidence(settings, Ps, formula=lambda *_: 1)
    assert b2.verdict is Verdict.REFUTED
    assert mmin_formula(2, 3, 10, 0.5) == 3


def test_premise_rule():
    W = sp.Symbol("W_T", real=True)
    Q = sp.Matrix([[-W, 0], [0, 1]])
    assert premise_evidence(Q, sp.Matrix([[0, 1], [W, W]]), W).verdict is Verdict.REFUTED
    assert premise_evidence(Q, sp.Matrix([[0, 1], [W, 0]]), W).verdict is Verdict.UNDECIDED


# ---- numerics/sih/setup.py, coverage.py ----------------------------------------------------------
def test_transitions_rule():
    grids2 = [(W, W) for W in range(2, 5)]
    assert transitions_evidence(grids2, "T1", "s", generality="g").verdict is Verdict.REFUTED
    assert transitions_evidence(grids2, "T2", "s", generality="g").verdict is Verdict.PROVED


def test_union_rule():
    sets = [list(c) for r in (1, 2, 3) for c in itertools.combinations([(-1,), (0,), (1,)], r)]
    assert union_sets_evidence(sets).verdict is Verdict.SUPPORTED
    assert union_sets_evidence([[(0,), (1,)]], widths=(2,)).verdict is Verdict.REFUTED
    assert torus_counterexample(range(2, 5))["W"] == 2
    assert torus_counterexample([]) is None


def test_partition_rule():
    counts, missing = partition_counts([("ECA", [(-1,), (0,), (1,), (2,)])])
    assert missing is None and counts["ECA h=2"] > 0
    _, missing = partition_counts([("X", [(0,), (1,)])], hs={"X": [3]})
    assert missing == {"setting": "X", "h": 3, "m": 1}


def test_lookup_rule():
    ca, tr = eca(110, [0, 0, 0, 0, 0, 1, 0, 1], 5)  # rows 0..1 expose all 8 configurations
    conf = ca.configurations(tr)
    tampered = tr.clone()
    tampered[3, 0] = 1 - tampered[3, 0]
    assert lookup_exact(conf, tr, 3) is True
    assert lookup_exact(conf, tampered, 3) is False


def test_unobservable_flip():
    ca, tr = eca(225, [0, 1, 0, 0, 1, 0, 1, 0], 4)
    cex = unobservable_flip(ca, tr, 3)
    assert cex is not None and cex["row_M"] != cex["row_M_flipped_rule"]
    ca0, tr0 = eca(0, [0] * 8, 4)
    assert unobservable_flip(ca0, tr0, 3) is None


def test_notion_ii_rule():
    assert notion_ii_evidence(5, None).verdict is Verdict.SUPPORTED
    assert notion_ii_evidence(5, {"rule": 1}).verdict is Verdict.REFUTED
    assert notion_ii_evidence(0, None).verdict is Verdict.UNDECIDED


# ---- numerics/sih/decode.py ----------------------------------------------------------------------
def test_suppression_rule():
    v = [F(0), F(1)]
    assert suppression_evidence(v, F(3, 8)).verdict is Verdict.REFUTED
    assert suppression_evidence(v, F(2)).verdict is Verdict.UNDECIDED  # phi vanishes there
    assert suppression_evidence(v, F(1, 8)).verdict is Verdict.UNDECIDED  # within delta/4


def test_tightness_rule():
    rng = __import__("numpy").random.default_rng(0)
    rows = [least_interpolating_width([F(j) for j in range(n)], rng) for n in (4, 5)]
    assert [r["least_width_found"] for r in rows] == [3, 4]
    assert tightness_evidence(rows, None).verdict is Verdict.SUPPORTED
    narrow = rows + [{"n": 6, "max_rank_at_width": {}, "least_width_found": 2}]
    assert tightness_evidence(narrow, None).verdict is Verdict.REFUTED
    assert tightness_evidence(rows, {"n": 4}).verdict is Verdict.REFUTED
    assert tightness_evidence([], None).verdict is Verdict.UNDECIDED
    assert decoder_failure(range(4, 8), plateau=True) is None


# ---- numerics/sih/retrieve.py --------------------------------------------------------------------
def test_match_bound_rule():
    q = [[F(1), F(0)]]
    assert match_bound_evidence(q, [[F(-1), F(0)]], F(0)).verdict is Verdict.REFUTED
    assert match_bound_evidence(q, [[F(0), F(0)]], F(0)).verdict is Verdict.UNDECIDED
    # off-target mass 1/2 > eps_bar = 0: not an admissible perturbation
    assert match_bound_evidence(q, [[F(-1), F(1, 2)]], F(0)).verdict is Verdict.UNDECIDED


def test_iff_rule():
    assert iff_evidence(1, F(3, 10)).verdict is Verdict.REFUTED
    assert iff_evidence(1, F(1, 10)).verdict is Verdict.UNDECIDED
    assert iff_evidence(1, F(3, 4)).verdict is Verdict.UNDECIDED


def test_nonmatch_bound_rule():
    e = F(1, 10)
    q, qp = [[1 + e, F(0)], [F(1), e]], [[1 + e, F(0)], [e, F(1)]]
    assert nonmatch_bound_evidence(q, qp, e).verdict is Verdict.REFUTED
    exact = [[F(1), F(0)], [F(1), F(0)]], [[F(1), F(0)], [F(0), F(1)]]
    assert nonmatch_bound_evidence(*exact, e).verdict is Verdict.UNDECIDED


def test_noise_sets_membership():
    e = F(1, 10)
    assert admissible("printed", 0, [F(0), e], e)  # target dropped to 0: allowed as printed
    assert not admissible("attention", 0, [F(0), e], e)
    assert admissible("attention", 0, [1 - e, e], e)
    assert not admissible("attention", 0, [1 - e, e], F(1, 20))
    assert admissible("l1", 0, [1 + e, F(0)], e)
    assert not admissible("l1", 0, [1 + e, e], e)
    for noise in ("printed", "attention", "l1"):
        verts, _ = block_vertices(noise, 1, 3, e)
        assert all(admissible(noise, 1, v, e) for v in verts)


def test_distributed_worst_is_the_worst_over_the_set():
    """The vertex extremes bound every point of the set: exact random convex combinations of
    the vertices never score beyond them (Remark E.7 at k = 2, V = 3)."""
    rng = torch.Generator().manual_seed(0)
    e, k, V = F(1, 10), 2, 3
    for noise in ("attention", "l1"):
        w = distributed_worst(noise, k, V, e)
        P = {y: block_vertices(noise, y, V, e)[0] for y in range(V)}

        def point(y, P=P):
            lam = [F(int(t)) for t in torch.randint(1, 9, (len(P[y]),), generator=rng)]
            return [sum(li * v[j] for li, v in zip(lam, P[y], strict=True)) / sum(lam)
                    for j in range(V)]

        for _ in range(40):
            q = [point(0) for _ in range(k)]
            assert block_score(q, [point(0) for _ in range(k)]) >= w["match_min"]
            assert block_score(q, [point(1), point(0)]) <= w["nonmatch_max"]
    # the closed forms under the attention-output model, eps < 1/2, V >= 3
    w = distributed_worst("attention", 3, 3, e)
    assert w["match_min"] == 3 * (1 - e) ** 2 and w["nonmatch_max"] == 2 + 2 * e * (1 - e)
    w = distributed_worst("l1", 3, 3, e)  # agreeing blocks score (1 + e)^2 > 1
    assert w["nonmatch_max"] == 2 * (1 + e) ** 2 + 2 * e


def test_distributed_rule_planted_pass_and_violation():
    inst = [(k, V, e) for k in (1, 2, 3) for V in (2, 3) for e in (F(0), F(1, 20), F(1, 12))]
    passed = {ev.part: ev for ev in distributed_evidence("attention", inst, reading="C")}
    assert {p: ev.verdict for p, ev in passed.items()} == {
        "distributed bounds": Verdict.PROVED, "distributed gap": Verdict.PROVED}
    assert passed["distributed gap"].scope == "bounded"
    bad = {ev.part: ev for ev in distributed_evidence("printed", inst, reading="A")}
    assert {p: ev.verdict for p, ev in bad.items()} == {
        "distributed bounds": Verdict.REFUTED, "distributed gap": Verdict.REFUTED}
    ce = bad["distributed gap"].counterexample
    assert F(ce["match_score"]) - F(ce["nonmatch_score"]) < F(ce["c(1-4k eps_bar)"])
    mixed = {ev.part: ev.verdict for ev in distributed_evidence("l1", inst, reading="D")}
    assert mixed == {"distributed bounds": Verdict.REFUTED, "distributed gap": Verdict.PROVED}
    # no violation at k = 1 under l1 (the non-matching bound fails only from k = 2)
    one = [(1, V, e) for V, e in [(2, F(1, 20)), (3, F(1, 12))]]
    assert {ev.verdict for ev in distributed_evidence("l1", one, reading="D")} == {Verdict.PROVED}


def test_distributed_rule_subset_is_no_proof(monkeypatch):
    """A search over part of a noise set that finds nothing is UNDECIDED, never PROVED."""
    real = sih_retrieve.block_vertices
    monkeypatch.setattr(sih_retrieve, "block_vertices",
                        lambda noise, x, V, e: (real(noise, x, V, e)[0], False))
    sih_retrieve._block_worst.cache_clear()
    try:
        evs = distributed_evidence("attention", [(2, 3, F(1, 20))], reading="C")
    finally:
        sih_retrieve._block_worst.cache_clear()
    assert {ev.verdict for ev in evs} == {Verdict.UNDECIDED}


def test_distributed_recheck_rule():
    e = F(1, 10)
    q = ([0, 0], [[F(1), F(0)], [F(1), F(0)]])
    assert distributed_recheck("attention", e, {"query": q, "match_key": q}) is None
    assert "matches" in distributed_recheck("attention", e, {"query": q, "nonmatch_key": q})
    off = ([0, 1], [[F(1), F(0)], [F(1), F(0)]])  # block 1 is e_0, not near e_1
    assert "not in" in distributed_recheck("attention", e, {"query": q, "nonmatch_key": off})


def test_attention_noise_property_holds_and_flags_a_planted_violation():
    """Lemma E.6's reading-B property (reused by Remark E.7 at m = k): zero inside the noise
    set; with eps_bar = -0.4 the matching bound m - 2m eps_bar = 1.8 m exceeds what the
    blocks score, a planted violation it must report."""
    g = torch.Generator().manual_seed(0)
    kw = {"generator": g, "batch": 64, "dtype": torch.float64, "device": None}
    for diff in (0, 1, 3):
        v = sih_retrieve.attention_noise_violation(**kw, m=3, V=3, ebar_pct=20, diff=diff)
        assert v.shape == (64,) and float(v.max()) == 0.0
    v = sih_retrieve.attention_noise_violation(**kw, m=2, V=2, ebar_pct=-40, diff=0)
    assert float(v.max()) > 0


def test_k_reading_rule():
    assert k_reading_evidence(4, 1, 3).verdict is Verdict.REFUTED
    assert k_reading_evidence(4, 1, 1).verdict is Verdict.SUPPORTED


# ---- numerics/sih/embed.py -----------------------------------------------------------------------
def _grid(rep_margin: float, printed_margin: float, d_p: int = 4) -> dict:
    worst = {"min_margin": printed_margin, "tol": 1e-9, "class": "same_row", "head": [[1]],
             "W_T": 3.0, "Delta": 1.0, "at": {}, "eval": {}}
    return {"offsets": ECA, "V": 2, "widths": (5,), "T": 3, "bound": 4,
            "periodic": {"min_margin": rep_margin, "tol": 1e-9, "d_p": d_p}, "printed": worst}


def test_thm42_rule():
    assert [e.verdict for e in thm42_judgement([_grid(0.5, 0.5)], 0)] == [Verdict.SUPPORTED] * 2
    a, c = thm42_judgement([_grid(0.5, -2.0)], 0)
    assert a.verdict is Verdict.SUPPORTED and c.verdict is Verdict.REFUTED
    assert thm42_judgement([_grid(-1.0, 0.5)], 0)[0].verdict is Verdict.REFUTED
    assert thm42_judgement([_grid(0.5, 0.5, d_p=6)], 0)[0].verdict is Verdict.REFUTED
    assert {e.verdict for e in thm42_judgement([], 0)} == {Verdict.UNDECIDED}


def test_lemma_d2_rule():
    row = {"widths": [4, 4], "tried": 5, "candidates": 0, "counterexample_N": None}
    assert lemma_d2_judgement([], [row]).verdict is Verdict.SUPPORTED
    assert lemma_d2_judgement([], [row | {"candidates": 1}]).verdict is Verdict.UNDECIDED
    assert lemma_d2_judgement([], []).verdict is Verdict.UNDECIDED
    ce = {"G": "Z4xZ4", "N": [[0, 0]], "m": 3, "d": 2, "Omegas_certified": 252}
    assert lemma_d2_judgement([ce], [row]).verdict is Verdict.REFUTED
    assert lemma_d2_1d_judgement([(True, {"L": 3, "sigma_m": 1.0})]).verdict is Verdict.SUPPORTED
    assert lemma_d2_1d_judgement([(False, {"L": 3, "sigma_m": 0.0})]).verdict is Verdict.REFUTED
    assert lemma_d2_1d_judgement([]).verdict is Verdict.UNDECIDED


def test_lemma_d2_counterexample_z4xz4_certified_exactly():
    """The referee's instance: every Omega of 5 classes on Z4 x Z4 fails, with certificates
    that re-check in Fractions; a tampered certificate does not re-check, and one class more
    (6 = m + d + 1) is feasible, so the certificates are not vacuous."""
    N, w = [(0, 0), (0, 2), (2, 0)], (4, 4)
    certs = certify_instance(N, w, [0, 0, 0], 1)
    assert certs is not None and len(certs) == 252
    om = ((0, 0), (0, 1), (1, 0), (0, 2), (2, 0))
    c = farkas_certificate(N, om, w, [0, 0, 0], 1)
    assert recheck_farkas(N, om, w, [0, 0, 0], 1, c)
    bad = {"lam": [x + 1 for x in c["lam"]], "nu": c["nu"]}
    assert not recheck_farkas(N, om, w, [0, 0, 0], 1, bad)
    six = ((0, 0), (0, 1), (1, 0), (1, 1), (0, 2), (2, 0))
    assert float_feasible(N, six, w, [0, 0, 0], 1)
    assert farkas_certificate(N, six, w, [0, 0, 0], 1) is None
    found, rows = search_tori([(3, 3), (4, 4)], max_m=3)
    assert rows[0]["counterexample_N"] is None
    assert [tuple(map(tuple, f["N"])) for f in found] == [tuple(N)]


def test_lemma_d2_1d_construction():
    assert uniform_form_1d(7, [0, 2, 3])[0]
    assert uniform_form_1d(8, [1, 5])[0]


def test_bound23_rule():
    assert bound23_evidence(4, (1, 0, 1), 1).verdict is Verdict.REFUTED
    assert bound23_evidence(4, (0, 0, 0), 1).verdict is Verdict.UNDECIDED


def test_existence_and_margin_rules():
    assert existence_evidence(0.0, 5, 1, 0).verdict is Verdict.SUPPORTED
    assert existence_evidence(0.5, 5, 1, 0).verdict is Verdict.REFUTED
    ok = {"min_margin": 0.0, "worst_class": "older_row"}
    bad = {"min_margin": -1.0, "worst_class": "same_row"}
    assert margin_evidence(ok, 1.0, {"x": 1}, "w").verdict is Verdict.SUPPORTED
    assert margin_evidence(bad, 1.0, {"x": 1}, "w").verdict is Verdict.REFUTED


def test_def_d1_checker_passes_a_correct_embedding_and_flags_a_moved_target():
    ca = CellularAutomaton(ECA, 2, wolfram_table(30))
    st = token_stream(ca.trajectory(torch.tensor([0, 1, 1, 0, 1, 0]), 3), ca)
    emb = SpatialAwareEmbedding((6,), 3, [(1,)])
    Delta = 1.0
    W_S = Delta / (1 - math.cos(2 * math.pi / 6))
    coef = case1_coefficients((1,), (6,), W_S, sign="A")
    W_T = max((W_S + Delta) / math.cos(math.pi / emb.P),
              2 * W_S / (1 - math.cos(2 * math.pi / emb.P)))
    good = def_d1_margins(emb, st, coef, [(1,)], W_T, Delta)
    moved = def_d1_margins(emb, st, coef, [(2,)], W_T, Delta)
    assert good["min_margin"] >= -1e-9 * (1 + W_T)
    assert moved["min_margin"] < -1.0


def test_affine_in_time_rule():
    assert affine_in_time_obstruction().verdict is Verdict.REFUTED
    assert affine_in_time_obstruction(degree=2).verdict is Verdict.UNDECIDED


def test_omega_rows_rule():
    def rows(size):
        return [{"L": 8, "min_Omega": list(range(size))}]

    assert [e.verdict for e in omega_rows_evidence(rows(5))] == [Verdict.SUPPORTED] * 2
    assert [e.verdict for e in omega_rows_evidence(rows(3))] == [Verdict.REFUTED,
                                                                 Verdict.SUPPORTED]
    assert [e.verdict for e in omega_rows_evidence(rows(6))] == [Verdict.REFUTED] * 2


def test_remark_d7_witness_rule():
    assert remark_d7_exact_witness([5, 8]).verdict is Verdict.REFUTED
    assert remark_d7_exact_witness([8], centre=F(0)).verdict is Verdict.UNDECIDED


def test_pair_count_rule():
    assert pair_count_evidence([(2, 1), (3, 1)])[0].verdict is Verdict.PROVED
    ev, counts = pair_count_evidence([(2, 2)])
    assert ev.verdict is Verdict.REFUTED and counts == [("V=2, m=2", 6, 6)]


# ---- numerics/sih/main.py ------------------------------------------------------------------------
def test_threshold_iff_rule():
    one = sp.Integer(1)
    assert threshold_iff_evidence(2, 1, one, sp.log(sp.Rational(7, 2))).verdict is \
        Verdict.REFUTED
    assert threshold_iff_evidence(2, 1, one, sp.log(5)).verdict is Verdict.UNDECIDED


def test_evaluable_rule():
    good = {"from_cell/evaluable": [10, 10]}
    assert evaluable_evidence(good, None, "w").verdict is Verdict.SUPPORTED
    bad = {"from_cell/evaluable": [10, 9]}
    assert evaluable_evidence(bad, {"counts": bad}, "w").verdict is Verdict.REFUTED
    assert evaluable_evidence({"from_cell/row0": [4, 2]}, None, "w").verdict is \
        Verdict.UNDECIDED


def test_every_cell_rule():
    witness = {"rule_1": 30, "rule_2": 62, "query_position": 9, "next_cell": [0, 1]}
    assert every_cell_evidence({"from_cell/row0": [4, 2]}, witness).verdict is Verdict.REFUTED
    assert every_cell_evidence({"from_cell/row0": [4, 2]}, None).verdict is Verdict.UNDECIDED
    same = dict(witness, next_cell=[1, 1])  # not a witness: the next cells agree
    assert every_cell_evidence({}, same).verdict is Verdict.UNDECIDED


def test_dims_constant_rule():
    const = [(8, True, 24, 4, 0), (16, True, 24, 4, 0), (8, False, 40, 8, 64),
             (16, False, 40, 8, 64)]
    assert dims_constant_evidence(const, [8, 16]).verdict is Verdict.SUPPORTED
    grows = const + [(32, True, 26, 4, 0)]
    assert dims_constant_evidence(grows, [8, 16, 32]).verdict is Verdict.REFUTED


def test_tradeoff_rule():
    good = [{"V": 2, "h": 4, "m": 1, "mlp": 0, "D": 24},
            {"V": 2, "h": 1, "m": 4, "mlp": 64, "D": 48}]
    assert tradeoff_evidence(good).verdict is Verdict.SUPPORTED
    bad = [dict(good[1], mlp=8)]
    assert tradeoff_evidence(bad).verdict is Verdict.REFUTED


def test_layernorm_rule_and_spread():
    X = torch.eye(2, dtype=torch.float64)[[0, 1, 0, 1]]
    flat = torch.ones(4, 3, dtype=torch.float64) * torch.tensor([1.0, -1.0, 0.5],
                                                                dtype=torch.float64)
    ramp = torch.stack([torch.tensor([t, 1.0, 0.0], dtype=torch.float64) for t in range(4)])
    assert ln_std_spread(X, flat, 1e4) < 1e-3 < ln_std_spread(X, ramp, 1e4)
    setting = {"setting": "test"}
    assert layernorm_evidence({"printed": [0.5, 0.01]}, [1, 1e4], setting).verdict is \
        Verdict.SUPPORTED
    assert layernorm_evidence({"printed": [0.5, 0.4]}, [1, 1e4], setting).verdict is \
        Verdict.REFUTED


def test_layernorm_leakage_mean_zero_code_recovers_the_construction():
    """Pre-LN leaves the construction's routing alone only with a mean-zero code: [p; -p]
    returns to the LN-free leakage at large gamma, the periodic p as is does not."""
    g = torch.Generator().manual_seed(0)
    _, _, st = sample_stream(g, ECA, 2, (8,), 6)
    m = SpatialInductionHead(ECA, 2, (8,), 6, len(st) + 1, None, temporal="periodic")
    free = ln_layer1_leakage(m, st, None, mirror=False)
    mirror = ln_layer1_leakage(m, st, 1e4, mirror=True)
    plain = ln_layer1_leakage(m, st, 1e4, mirror=False)
    assert abs(mirror - free) <= 0.1 * free and plain > 10 * free
    setting = {"setting": "test"}
    assert ln_leakage_evidence([0.5, mirror], free, [1, 1e4], setting, "t").verdict is \
        Verdict.SUPPORTED
    assert ln_leakage_evidence([0.5, plain], free, [1, 1e4], setting, "t").verdict is \
        Verdict.REFUTED
    assert ln_leakage_evidence([0.5, 1.5 * free], free, [1, 1e4], setting, "t").verdict is \
        Verdict.UNDECIDED


# ---- numerics/sih/naive.py, text.py, exp.py ------------------------------------------------------
def test_naive_construction_predicts_evaluable_cells():
    ca = CellularAutomaton(ECA, 2, wolfram_table(110))
    stream = token_stream(ca.trajectory(torch.tensor([0, 1, 1, 0, 1, 0, 0, 1]), 5), ca)
    res = evaluate(NaiveRPE(ECA, 2, (8,)), stream)
    n, correct = res["from_cell/evaluable"]
    assert n > 0 and correct == n
    assert NaiveRPE(VN, 3, (4, 4)).D == (2 * 5 + 2) * 3


def test_scaling_rule():
    rows = [{"setting": "ECA", "k": 3, "V": 2, "D_naive": 16, "D_spatial": spatial_widths(ECA, 2)}]
    assert spatial_widths(ECA, 2)[4] == 24 and spatial_widths(ECA, 2)[1] == 48
    assert scaling_evidence(rows).verdict is Verdict.REFUTED
    wide = [dict(rows[0], D_naive=30)]
    assert scaling_evidence(wide).verdict is Verdict.UNDECIDED


def test_same_row_rule():
    ca = CellularAutomaton(ECA, 2, wolfram_table(30))
    zeros = token_stream(ca.trajectory(torch.zeros(8, dtype=torch.long), 2), ca)
    distinct = token_stream(ca.trajectory(torch.tensor([0, 0, 1]), 2), ca)
    cex = same_row_match(zeros)
    assert cex is not None and same_row_match(distinct) is None
    assert causal_evidence(cex, 1).verdict is Verdict.REFUTED
    assert causal_evidence(None, 1).verdict is Verdict.UNDECIDED


def test_causal_completed_heads_with_the_row0_key():
    """The first token's self-copied key carries ((0,0,0), 0): an invalid pair under ECA 1
    (f(000) = 1), a valid one by accident under ECA 0; the same-row reading is 'literal'."""
    ev = row0_key_evidence(1)
    assert ev.verdict is Verdict.REFUTED and ev.reading == "A"
    assert ev.counterexample["f(0,0,0)"] == 1
    assert row0_key_evidence(0).verdict is Verdict.UNDECIDED
    assert row0_key_evidence(254).verdict is Verdict.UNDECIDED
    assert causal_evidence({"matching_key": [1, [0]]}, 1).reading == "literal"
    assert sinks_evidence([1e-3, 0.02], 3).verdict is Verdict.SUPPORTED
    assert sinks_evidence([0.02, 0.9], 3).verdict is Verdict.REFUTED
    assert sinks_evidence([0.2], 3).verdict is Verdict.UNDECIDED


def test_compute_rule():
    kw = {"n_1d": 4, "n_2d": 3, "max_1d": 10, "range_2d": (55, 75)}
    assert compute_evidence(207, **kw).verdict is Verdict.PROVED
    assert compute_evidence(300, **kw).verdict is Verdict.REFUTED
    assert compute_evidence(100, **kw).verdict is Verdict.REFUTED


def test_auto_seq_rows_rule():
    assert [r["row"] for r in incompatible_rows([("2D 4L", 85.7, 1.0), ("ECA", 100.0, 100.0)])] \
        == ["2D 4L"]
    assert incompatible_rows([("V3 2L", 87.5, 85.0)]) == []


def test_relation_rule():
    assert relation_evidence(3, [], {}, "w", None).verdict is Verdict.SUPPORTED
    assert relation_evidence(3, [1], {}, "w", {"sample": 1}).verdict is Verdict.REFUTED
    assert relation_evidence(0, [], {}, "w", None).verdict is Verdict.UNDECIDED


def test_lemma_e4_witness_decoder_meets_def_e3_and_a_wrong_one_fails(monkeypatch):
    import numpy as np

    import numerics.sih.decode as dec

    ev = dec.witness_decoder_evidence(np.random.default_rng(0), 20)
    assert ev.verdict is Verdict.SUPPORTED and ev.witness
    # the proof's own trapezoids (zero only beyond 2 eta = delta/2) fail Def E.3 (2)
    monkeypatch.setattr(dec, "trapezoid", lambda z, v, inner, outer:
                        dec.bump(z, v, outer))
    bad = dec.witness_decoder_evidence(np.random.default_rng(0), 20)
    assert bad.verdict is Verdict.REFUTED and not bad.witness


def test_lemma_d2_is_existential_refuted_only_by_its_nonexistence_certificates():
    """Lemma D.2 says an Omega exists: its REFUTED is a proof that none does (every Omega
    certified infeasible), and its SUPPORTED names the witnesses the LPs found."""
    row = {"widths": [4, 4], "tried": 5, "candidates": 0, "counterexample_N": None}
    ce = {"G": "Z4xZ4", "N": [[0, 0]], "m": 3, "d": 2, "Omegas_certified": 252}
    refuted = lemma_d2_judgement([ce], [row])
    assert refuted.nonexistence and refuted.method == "certificate"
    assert lemma_d2_judgement([], [row]).witness


def test_remark_e5_splits_over_which_width_and_refutes_the_widest_layer(tmp_path):
    """'Exponentially smaller width' is UNDECIDED as open_setting; its widest-layer
    reading C is refuted by a proof that no witness exists (exact affine rank n - 1)."""
    import verify

    (r,) = verify.run(["sih.decode.remark_e5"], jobs=0, results_path=tmp_path / "r.jsonl",
                      modules=["proofs.sih", "numerics.sih"])
    assert str(r.verdict) == "UNDECIDED" and r.undecided_reason == "open_setting"
    assert r.readings["C"]["verdict"] == "REFUTED"
    (c,) = [e for e in r.evidence if e.reading == "C"]
    assert c.nonexistence and c.method == "symbolic"

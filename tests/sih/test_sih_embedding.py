"""Tests of numerics/sih/model/embedding.py and the Def. D.1 checker."""

import math

import torch

from numerics.sih.model.ca import CellularAutomaton, token_stream
from numerics.sih.model.checks import def_d1_margins
from numerics.sih.model.embedding import (
    SpatialAwareEmbedding,
    case1_coefficients,
    lemma_d4_coefficients,
    lp_polynomial,
    poly_eval,
    temporal_scores_printed,
)
from proofs.sih.model import ECA, wolfram_table


def test_printed_temporal_rewards_same_row():
    t = torch.tensor([3])
    assert float(temporal_scores_printed(t, torch.tensor([2]), 5.0)) == 0.0
    assert float(temporal_scores_printed(t, torch.tensor([3]), 5.0)) == 5.0  # +W_T on same-row keys


def test_case1_score_is_shifted_cosine():
    L, W_S = 7, 2.0
    coef = case1_coefficients((2,), (L,), W_S, sign="B")
    for D in range(L):
        assert math.isclose(
            poly_eval(coef, (D,), (L,)), W_S * math.cos(2 * math.pi * (D - 2) / L), abs_tol=1e-12
        )


def test_lemma_d4_interpolates_and_fails_at_L4():
    coef, lam = lemma_d4_coefficients(16, (1.0, 0.5, -2.0), 1.0)
    assert math.isclose(poly_eval(coef, (0,), (16,)), 0.5, abs_tol=1e-9)
    assert math.isclose(poly_eval(coef, (1,), (16,)), -2.0, abs_tol=1e-9)
    assert math.isclose(poly_eval(coef, (15,), (16,)), 1.0, abs_tol=1e-9)
    coef4, _ = lemma_d4_coefficients(4, (1.0, 0.0, 1.0), 1.0)
    assert poly_eval(coef4, (2,), (4,)) > -1.0 + 0.5  # (23) is not sufficient at L = 4


def test_lp_polynomial_meets_constraints():
    pts, vals = [(0,), (1,), (7,)], [0.0, 1.0, 0.5]
    coef = lp_polynomial([(0,), (1,), (2,)], (8,), pts, vals, -3.0)
    assert coef is not None
    for D in range(8):
        v = poly_eval(coef, (D,), (8,))
        if (D,) in pts:
            assert math.isclose(v, vals[pts.index((D,))], abs_tol=1e-7)
        else:
            assert v <= -3.0 + 1e-7


def test_def_d1_checker_flags_printed_temporal():
    ca = CellularAutomaton(ECA, 2, wolfram_table(30))
    tr = ca.trajectory(torch.tensor([0, 1, 1, 0, 1, 0]), 3)
    st = token_stream(tr, ca)
    coef = case1_coefficients((1,), (6,), 2.0 / (1 - math.cos(2 * math.pi / 6)), sign="A")
    for temporal, bad in (("printed", True), ("periodic", False)):
        emb = SpatialAwareEmbedding((6,), 3, [(1,)], temporal=temporal)
        W_T = 200.0
        r = def_d1_margins(emb, st, coef, [(1,)], W_T, 2.0)
        assert (r["min_margin"] < -1e-6) == bad

"""Tests of numerics/sih/ca.py: the CA update, Wolfram numbering, token streams, union sets, partitions."""

import torch

from numerics.sih.ca import (
    ECA,
    VN,
    CellularAutomaton,
    partitions,
    stream_length,
    token_stream,
    union_set,
    wolfram_table,
)


def test_rule_90_is_xor_of_neighbours():
    ca = CellularAutomaton(ECA, 2, wolfram_table(90))
    x = torch.tensor([0, 0, 1, 0, 0, 0])
    assert ca(x).tolist() == [0, 1, 0, 1, 0, 0]


def test_configurations_use_wolfram_index():
    ca = CellularAutomaton(ECA, 2, wolfram_table(0))
    x = torch.tensor([1, 0, 1])
    # cell 1 sees (a, b, c) = (1, 0, 1) -> 4 + 0 + 1 = 5
    assert int(ca.configurations(x)[1]) == 5


def test_stream_lengths_match_closed_forms():
    for grid, tok in [((16,), "T1"), ((6, 6), "T2"), ((3, 4), "T1")]:
        tr = torch.zeros((5, *grid), dtype=torch.long)
        assert len(token_stream(tr, None, tok)) == stream_length(5, grid, tok)
    assert stream_length(12, (6, 6), "T2") == 503


def test_union_sets():
    assert union_set(ECA)[2] == {(-1,), (0,), (1,), (2,)}
    assert len(union_set(VN)[2]) == 8
    assert len(union_set([(0,), (1,)], widths=(2,))[2]) == 2  # torus reading collapses N_Q onto N_K


def test_partitions_count_is_stirling():
    assert sum(1 for _ in partitions(list(range(4)), 2)) == 7
    assert sum(1 for _ in partitions(list(range(5)), 3)) == 25

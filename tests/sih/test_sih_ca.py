"""Tests of numerics/sih/model/ca.py (the CA update, token streams) and proofs/sih/model.py (Wolfram
numbering, stream lengths, union sets, partitions)."""

import sys

import torch

from numerics.sih.model.ca import CellularAutomaton, token_stream
from proofs.sih.model import ECA, VN, partitions, stream_length, union_set, wolfram_table


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


def test_proofs_tree_imports_no_torch_and_no_numerics():
    """proofs/sih is SymPy only: importing every module of it pulls in neither torch nor
    numerics (checked in a fresh interpreter)."""
    import subprocess

    code = (
        "import importlib, pkgutil, sys, proofs.sih as p\n"
        "for m in pkgutil.iter_modules(p.__path__):\n"
        "    importlib.import_module('proofs.sih.' + m.name)\n"
        "print('torch' in sys.modules, any(k.startswith('numerics') for k in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]

"""Tests of numerics/sih/model/construction.py and decoder.py: end-to-end exactness on evaluable
predictions."""

import torch

from numerics.sih.model.ca import CellularAutomaton, token_stream
from numerics.sih.model.construction import SpatialInductionHead, algorithm1_errors, evaluate
from numerics.sih.model.decoder import BumpDecoder
from proofs.sih.model import ECA, VN, union_set


def _run(offsets, V, widths, T, part=None, seed=0, temporal="periodic"):
    g = torch.Generator().manual_seed(seed)
    ca = CellularAutomaton.random(offsets, V, g)
    tr = ca.trajectory(torch.randint(0, V, widths, generator=g), T)
    st = token_stream(tr, ca, "T2" if len(widths) == 2 else "T1")
    return evaluate(
        SpatialInductionHead(offsets, V, widths, T, len(st) + 1, part, temporal=temporal), st
    )


def test_distributed_regime_exact_on_evaluable():
    for seed in range(3):
        r = _run(ECA, 2, (8,), 5, seed=seed)
        a, b = r["from_cell/evaluable"]
        assert a > 0 and a == b


def test_h1_and_2d_exact_on_evaluable():
    U = sorted(union_set(ECA)[2])
    r = _run(ECA, 2, (8,), 5, [U])
    assert r["from_cell/evaluable"][0] == r["from_cell/evaluable"][1]
    r = _run(VN, 2, (4, 4), 3)
    assert r["from_cell/evaluable"][0] == r["from_cell/evaluable"][1]


def test_printed_temporal_mispredicts():
    r = _run(ECA, 2, (8,), 5, temporal="printed")
    a, b = r["from_cell/evaluable"]
    assert b < a


def test_bump_decoder_plateaus():
    dec = BumpDecoder(torch.tensor([0.0, 1.0, 2.0]))
    out = dec(torch.tensor([0.1, 1.0, 2.2, 2.6]))
    assert torch.allclose(out[:3], torch.eye(3, dtype=torch.float64))
    assert torch.allclose(out[3], torch.zeros(3, dtype=torch.float64), atol=1e-12)
    assert dec.width == 12


def test_algorithm1_no_errors_on_seen_configurations():
    g = torch.Generator().manual_seed(1)
    ca = CellularAutomaton.random(ECA, 2, g)
    tr = ca.trajectory(torch.randint(0, 2, (10,), generator=g), 6)
    seen, errs = algorithm1_errors(ca, tr)
    assert seen > 0 and errs == 0

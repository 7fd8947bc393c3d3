"""verify.numeric.check_margin: exhaustive margins on given scores, falsified margins on sampled
inputs, with the smallest margin reported."""

from __future__ import annotations

import torch
from hypothesis import strategies as st

from verify import Verdict
from verify.combine import audit
from verify.numeric import check_margin, randn
from verify.numeric.margin import margins


def test_margins_definition():
    S = torch.tensor([[3.0, 1.0, 2.0], [0.0, 5.0, 4.5]])
    assert margins(S, torch.tensor([0, 1])).tolist() == [1.0, 0.5]
    assert margins(torch.tensor([2.0, -3.0]), torch.tensor([1, -1])).tolist() == [2.0, 3.0]


def test_exhaustive_supported_and_refuted():
    g = torch.Generator().manual_seed(0)
    S = torch.randn(500, 4, generator=g)
    t = torch.randint(0, 4, (500,), generator=g)
    S[torch.arange(500), t] = S.max(dim=1).values + 0.75  # every margin >= 0.75
    ok = check_margin(S, t, 0.5, device="cpu")
    assert ok.verdict is Verdict.SUPPORTED and ok.numbers["min_margin"] >= 0.75 - 1e-6
    S[123, t[123]] -= 0.5  # plant one violation: margin 0.25 < 0.5
    bad = check_margin(S, t, 0.5, device="cpu")
    assert bad.verdict is Verdict.REFUTED
    assert bad.counterexample["index"] == 123
    assert abs(bad.counterexample["margin_found"] - 0.25) < 1e-6
    assert audit(bad) is bad


def slab(generator, batch, dtype, device, s):
    """Points with |x0| >= 1: a linearly separable set of margin 1 for w = e0."""
    x = s * randn(batch, 2, generator=generator, dtype=dtype, device=device)
    x[:, 0] = torch.sign(x[:, 0]) * (1 + x[:, 0].abs())
    return x


def score(x):
    return x[:, 0]


def label(x):
    return torch.where(x[:, 0] >= 0, 1, -1)


def label_corner_bug(x):
    """Labels flipped on the corner x1 > 3."""
    y = label(x)
    return torch.where(x[:, 1] > 3.0, -y, y)


def test_sampled_margin_holds():
    ev = check_margin(score, label, 1.0, sample_input=slab, params={"s": st.floats(0.1, 2.0)},
                      budget=15, batch=512, dtype=torch.float32, device="cpu")  # fmt: skip
    assert ev.verdict is Verdict.SUPPORTED, ev.summary
    assert ev.numbers["min_margin"] >= 1.0


def test_sampled_margin_violated_in_a_corner():
    ev = check_margin(score, label_corner_bug, 1.0, sample_input=slab,
                      params={"s": st.floats(0.1, 2.0)}, budget=40, batch=512, device="cpu")
    assert ev.verdict is Verdict.REFUTED, ev.summary
    assert ev.counterexample["inputs"]["x"][1] > 3.0
    assert ev.numbers["min_margin"] < 0

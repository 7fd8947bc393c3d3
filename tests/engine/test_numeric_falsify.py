"""verify.numeric.falsify: finds planted bugs, shrinks, confirms in float64, is deterministic."""

from __future__ import annotations

import json
import math

import pytest
import torch
from hypothesis import strategies as st

from verify import Verdict
from verify.combine import audit
from verify.numeric import default_device, default_tol, falsify, randn


def _no_time(ev) -> str:
    d = ev.to_dict()
    d.pop("elapsed_s")
    return json.dumps(d, sort_keys=True)


def sum_order(generator, batch, dtype, device, n):
    """Summation is order-independent (up to rounding): relative error of sum vs reversed sum."""
    x = randn(batch, n, generator=generator, dtype=dtype, device=device)
    return (x.sum(1) - x.flip(1).sum(1)).abs() / x.abs().sum(1)


def corner_bug(generator, batch, dtype, device, n, s):
    """Holds except when n == 5, s > 0.8 and the first coordinate exceeds 2 (a corner)."""
    x = randn(batch, n, generator=generator, dtype=dtype, device=device)
    bad = (n == 5) & (s > 0.8) & (x[:, 0] > 2.0)
    return bad.to(dtype) * 0.25


def test_supported_on_true_property_reports_numbers():
    ev = falsify(sum_order, {"n": st.integers(1, 30)}, budget=20, batch=256, device="cpu")
    assert ev.verdict is Verdict.SUPPORTED
    assert ev.method == "numeric"
    n = ev.numbers
    assert n["inputs_tried"] == n["examples"] * 256 > 0
    assert 0 <= n["worst_violation"] <= n["tol"]
    assert n["worst_in_eps"] == pytest.approx(n["worst_violation"] / torch.finfo(torch.float64).eps)
    assert n["tol"] == default_tol(torch.float64)
    assert ev.dtype == "float64" and ev.device == "cpu"
    assert audit(ev) is ev
    fig = ev.figures[0]
    assert fig["kind"] == "histogram" and len(fig["values"]) == n["examples"]
    assert max(fig["values"]) == pytest.approx(n["worst_in_eps"])
    assert fig["threshold"] == pytest.approx(n["tol_in_eps"])


def test_planted_corner_bug_is_found_shrunk_and_confirmed():
    # each example hits the corner with probability ~2% (n == 5 and s > 0.8): budget 400
    # misses it with probability ~3e-4 whatever the hypothesis version generates
    ev = falsify(corner_bug, {"n": st.integers(1, 10), "s": st.floats(0, 1)}, budget=400,
                 batch=256, device="cpu")
    assert ev.verdict is Verdict.REFUTED
    ce = ev.counterexample
    assert ce["params"]["n"] == 5 and ce["params"]["s"] > 0.8
    assert ce["violation_float64"] == pytest.approx(0.25)
    # the counterexample re-runs: same params, seed and index give the same violation
    g = torch.Generator().manual_seed(ce["torch_seed"])
    v = corner_bug(generator=g, batch=ce["batch"], dtype=torch.float64, device="cpu",
                   **ce["params"])
    assert float(v[ce["batch_index"]]) == ce["violation_float64"]
    assert "manual_seed" in ce["rerun"]
    assert audit(ev) is ev


def test_same_seed_same_evidence_and_seed_matters():
    params = {"n": st.integers(1, 10), "s": st.floats(0, 1)}
    a = falsify(corner_bug, params, budget=40, batch=64, device="cpu", seed=3)
    b = falsify(corner_bug, params, budget=40, batch=64, device="cpu", seed=3)
    assert _no_time(a) == _no_time(b)
    c = falsify(sum_order, {"n": st.integers(1, 30)}, budget=15, batch=64, device="cpu", seed=1)
    d = falsify(sum_order, {"n": st.integers(1, 30)}, budget=15, batch=64, device="cpu", seed=2)
    assert c.numbers["worst_example"] != d.numbers["worst_example"]


def float32_only(generator, batch, dtype, device):
    """(1 + x) - 1 == x: exact in float64 for |x| ~ 1e-4 up to 1e-12 relative, not in float32."""
    x = 1e-4 * randn(batch, generator=generator, dtype=torch.float64, device=device).abs() + 1e-5
    xd = x.to(dtype)
    got = (1 + xd) - 1
    return ((got - xd).abs() / xd).to(torch.float64)


def test_float32_only_violation_is_not_a_refutation():
    ev = falsify(float32_only, {}, budget=5, batch=128, dtype=torch.float32, device="cpu", tol=1e-6)
    assert ev.verdict is Verdict.SUPPORTED
    assert ev.numbers["worst_violation"] > 1e-6  # float32 saw it...
    assert ev.numbers["cleared_by_float64"] >= 1  # ...float64 cleared it


def nan_prop(generator, batch, dtype, device, k):
    randn(batch, generator=generator, dtype=dtype, device=device)
    v = torch.zeros(batch, dtype=dtype)
    if k >= 3:
        v[0] = math.nan
    return v


def test_nan_is_never_silently_zero():
    ev = falsify(nan_prop, {"k": st.integers(0, 5)}, budget=30, batch=16, device="cpu")
    assert ev.verdict is Verdict.UNDECIDED
    assert "NaN" in ev.summary
    assert ev.numbers["nan_example"]["params"] == {"k": 3}  # shrunk


def test_violation_wins_over_nan():
    def both(generator, batch, dtype, device, k):
        v = torch.zeros(batch, dtype=dtype)
        v[1] = math.nan
        if k > 2:
            v[2] = 1.0
        return v

    ev = falsify(both, {"k": st.integers(0, 5)}, budget=30, batch=8, device="cpu")
    assert ev.verdict is Verdict.REFUTED
    assert ev.counterexample["batch_index"] == 2


def test_contract_errors():
    with pytest.raises(ValueError, match="non-negative"):
        falsify(lambda **kw: -torch.ones(kw["batch"]), {}, budget=2, batch=4, device="cpu")
    with pytest.raises(ValueError, match="violations for batch"):
        falsify(lambda **kw: torch.zeros(3), {}, budget=2, batch=4, device="cpu")


def test_inputs_appear_in_counterexample():
    def with_inputs(generator, batch, dtype, device):
        x = randn(batch, 2, generator=generator, dtype=dtype, device=device)
        return (x[:, 0] > 1.5).to(dtype), {"x": x}

    ev = falsify(with_inputs, {}, budget=5, batch=64, device="cpu")
    assert ev.verdict is Verdict.REFUTED
    assert ev.counterexample["inputs"]["x"][0] > 1.5


def test_default_device_and_tf32_off():
    dev = default_device()
    assert dev == ("cuda" if torch.cuda.is_available() else "cpu")
    assert torch.backends.cuda.matmul.allow_tf32 is False
    assert torch.backends.cudnn.allow_tf32 is False


def test_default_tol_values():
    assert default_tol(torch.float32) == 64 * torch.finfo(torch.float32).eps
    assert default_tol(torch.float64) == pytest.approx(math.sqrt(torch.finfo(torch.float64).eps))
    assert default_tol(torch.complex64) == default_tol(torch.float32)


def test_float32_nan_resolved_by_float64_is_judged_by_float64():
    def overflow(generator, batch, dtype, device):
        x = 1 + randn(batch, generator=generator, dtype=dtype, device=device).abs()
        big = torch.exp(100 * x)  # inf in float32, finite in float64
        return (big / big - 1).abs().to(torch.float64)

    ev = falsify(overflow, {}, budget=3, batch=32, dtype=torch.float32, device="cpu")
    assert ev.verdict is Verdict.SUPPORTED
    assert ev.numbers["nan_batches_in_dtype"] >= 1 and ev.numbers["cleared_by_float64"] >= 1


def test_non_reproducible_failure_is_undecided():
    calls = {"n": 0}

    def flaky(generator, batch, dtype, device):
        calls["n"] += 1
        v = torch.zeros(batch, dtype=dtype)
        if calls["n"] == 2:
            v[0] = 1.0
        return v

    ev = falsify(flaky, {}, budget=10, batch=4, device="cpu")
    assert ev.verdict is Verdict.UNDECIDED
    assert "did not reproduce" in ev.summary


def test_time_budget_stops_search_and_keeps_a_replayable_failure():
    import time

    def slow_bug(generator, batch, dtype, device, n):
        time.sleep(0.02)
        x = randn(batch, generator=generator, dtype=dtype, device=device)
        return ((n > 50) & (x > 0)).to(dtype)

    ev = falsify(slow_bug, {"n": st.integers(0, 1000)}, budget=1000, batch=8, device="cpu",
                 max_seconds=0.5)
    assert ev.numbers["examples"] < 100 and ev.numbers["out_of_time"]
    assert ev.verdict is Verdict.REFUTED  # n > 50 is most of the space: found, partially shrunk
    assert ev.counterexample["params"]["n"] > 50
    ok = falsify(sum_order, {"n": st.integers(1, 5)}, budget=10_000, batch=8, device="cpu",
                 max_seconds=0.3)
    assert ok.verdict is Verdict.SUPPORTED and ok.numbers["out_of_time"]
    assert "time budget" in ok.summary


def test_refutation_survives_a_float32_nan_at_its_index():
    def nan32_bug(generator, batch, dtype, device):
        v = torch.zeros(batch, dtype=torch.float64)
        v[3] = math.nan if dtype == torch.float32 else 0.5
        return v

    ev = falsify(nan32_bug, {}, budget=3, batch=8, dtype=torch.float32, device="cpu")
    assert ev.verdict is Verdict.REFUTED
    assert ev.counterexample["violation_searched_dtype"] is None
    assert audit(ev) is ev  # no NaN anywhere in the evidence


# -- inputs that must not give a verdict they do not support --------------------------------


def test_all_nan_property_is_never_supported():
    def nan(generator, batch, dtype, device):
        return torch.full((batch,), math.nan, dtype=dtype)

    for dtype in (torch.float64, torch.float32):
        ev = falsify(nan, {}, budget=5, batch=8, dtype=dtype, device="cpu")
        assert ev.verdict is Verdict.UNDECIDED, ev.summary


def test_float32_violation_confirmed_by_float64_is_refuted():
    def half_bad(generator, batch, dtype, device):
        x = torch.rand(batch, generator=generator, dtype=torch.float64).to(dtype)
        return (x > 0.5).to(dtype)

    ev = falsify(half_bad, {}, budget=5, batch=32, dtype=torch.float32, device="cpu")
    assert ev.verdict is Verdict.REFUTED and ev.counterexample["violation_float64"] == 1.0
    assert audit(ev).verdict is Verdict.REFUTED


def test_budget_batch_and_shape_edge_cases():
    zero = lambda generator, batch, dtype, device: torch.zeros(batch, dtype=dtype)  # noqa: E731
    # budget=0 runs no example, so it has nothing to base a verdict on
    ev = falsify(lambda generator, batch, dtype, device: torch.ones(batch, dtype=dtype), {},
                 budget=0, batch=4, device="cpu")
    assert ev.verdict is Verdict.UNDECIDED and ev.numbers["examples"] == 0
    with pytest.raises(ValueError, match="budget"):
        falsify(zero, {}, budget=-1, batch=4, device="cpu")
    # an empty batch is refused up front, before any reduction over it
    with pytest.raises(ValueError, match="batch must be >= 1"):
        falsify(zero, {}, budget=2, batch=0, device="cpu")
    # a (2, batch/2) tensor has batch elements but is not batch violations: refused
    with pytest.raises(ValueError, match="violations for batch"):
        falsify(lambda generator, batch, dtype, device: torch.zeros(2, batch // 2), {}, budget=2,
                batch=4, device="cpu")
    with pytest.raises(ValueError, match="violations for batch"):
        falsify(lambda generator, batch, dtype, device: torch.zeros(batch, 2), {}, budget=2,
                batch=4, device="cpu")
    # (batch, 1) and, for batch=1, a 0-d tensor are accepted
    assert falsify(lambda generator, batch, dtype, device: torch.zeros(batch, 1), {}, budget=2,
                   batch=4, device="cpu").verdict is Verdict.SUPPORTED
    assert falsify(lambda generator, batch, dtype, device: torch.tensor(0.0), {}, budget=2,
                   batch=1, device="cpu").verdict is Verdict.SUPPORTED


def test_tol_zero_counts_any_positive_violation():
    tiny = lambda generator, batch, dtype, device: torch.full((batch,), 1e-300, dtype=dtype)  # noqa: E731
    zero = lambda generator, batch, dtype, device: torch.zeros(batch, dtype=dtype)  # noqa: E731
    assert falsify(tiny, {}, budget=2, batch=2, tol=0, device="cpu").verdict is Verdict.REFUTED
    assert falsify(zero, {}, budget=2, batch=2, tol=0, device="cpu").verdict is Verdict.SUPPORTED


def test_reduce_on_the_device_matches_numpy_first_argmax_and_nan_count():
    """The worst violation is reduced where the batch lives: first index on ties (as numpy's
    argmax), NaNs skipped and counted, all-NaN -> (0.0, -1), a negative value rejected."""
    from verify.numeric.falsify import _reduce

    nan = float("nan")
    v = torch.tensor([0.5, 2.0, nan, 2.0, 1.0], dtype=torch.float64)
    assert _reduce(v) == (2.0, 1, 1)
    assert _reduce(torch.tensor([nan, nan], dtype=torch.float64)) == (0.0, -1, 2)
    with pytest.raises(ValueError, match="non-negative, got min -0.25"):
        _reduce(torch.tensor([1.0, -0.25, nan], dtype=torch.float64))

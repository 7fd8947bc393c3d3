"""check_equivariance: drawn parameters reach only the callables that name them, and with
pass_params=True the map under test gets them and a generator (a width drawn per example)."""

from __future__ import annotations

import pytest
import torch
from hypothesis import strategies as st

from verify import Verdict
from verify.numeric import check_equivariance, randn
from verify.numeric import groups as G


def rows(generator, batch, dtype, device, n, d):
    return randn(batch, n, d, generator=generator, dtype=dtype, device=device)


def row_mlp(x, *, generator, width):
    """A random two-layer MLP applied to each row: permutation-equivariant for any weights."""
    d = x.shape[-1]
    w1 = randn(d, width, generator=generator, dtype=x.dtype, device=x.device)
    w2 = randn(width, d, generator=generator, dtype=x.dtype, device=x.device)
    return torch.tanh(x @ w1) @ w2


def row_mixer(x, *, generator, width):
    """Mixes the rows with random weights: not permutation-equivariant."""
    n = x.shape[1]
    mix = randn(n, n, generator=generator, dtype=x.dtype, device=x.device)
    return row_mlp(mix @ x, generator=generator, width=width)


PERM = G.PERMUTATION.action(axis=0)
PARAMS = {"n": st.integers(2, 6), "d": st.integers(1, 4), "width": st.integers(1, 16)}


def test_width_drawn_per_example_reaches_the_map_and_weights_agree_on_both_sides():
    widths = []

    def f(x, *, generator, width):
        widths.append(width)
        return row_mlp(x, generator=generator, width=width)

    ev = check_equivariance(f, PERM, PERM, rows, G.PERMUTATION.sample, params=PARAMS,
                            pass_params=True, budget=15, batch=32, device="cpu")
    assert ev.verdict is Verdict.SUPPORTED, ev.summary
    assert ev.numbers["worst_violation"] < 1e-13  # same weights for f(g.x) and f(x)
    assert len(set(widths)) > 3  # the width varied from one example to the next


def test_a_drawn_width_shows_in_the_counterexample_of_a_non_equivariant_map():
    ev = check_equivariance(row_mixer, PERM, PERM, rows, G.PERMUTATION.sample, params=PARAMS,
                            pass_params=True, budget=15, batch=32, device="cpu")
    assert ev.verdict is Verdict.REFUTED
    assert set(ev.counterexample["params"]) == {"n", "d", "width"}


def test_float32_search_draws_the_same_weights_as_its_float64_recheck():
    ev = check_equivariance(row_mlp, PERM, PERM, rows, G.PERMUTATION.sample, params=PARAMS,
                            pass_params=True, budget=10, batch=32, dtype=torch.float32,
                            device="cpu")
    assert ev.verdict is Verdict.SUPPORTED, ev.summary


def test_default_calls_f_with_the_input_only():
    calls = []

    def f(x, **kw):
        calls.append(kw)
        return x

    ev = check_equivariance(f, PERM, PERM, rows, G.PERMUTATION.sample,
                            params={"n": st.just(3), "d": st.just(2)}, budget=3, batch=4,
                            device="cpu")
    assert ev.verdict is Verdict.SUPPORTED and calls and all(kw == {} for kw in calls)


def test_f_gets_only_what_it_names():
    seen = []

    def f(x, *, dtype, n):
        seen.append((dtype, n))
        return x

    check_equivariance(f, PERM, PERM, rows, G.PERMUTATION.sample,
                       params={"n": st.just(3), "d": st.just(2)}, pass_params=True, budget=2,
                       batch=4, device="cpu")
    assert seen and all(s == (torch.float64, 3) for s in seen)


def test_each_sampler_gets_only_its_own_keywords():
    """The group sampler takes n only, the input sampler n and d: neither raises."""
    ev = check_equivariance(lambda x: x.sum(dim=1, keepdim=True), PERM, lambda g, y: y, rows,
                            G.PERMUTATION.sample, params={"n": st.just(4), "d": st.just(3)},
                            budget=3, batch=8, device="cpu")
    assert ev.verdict is Verdict.SUPPORTED, ev.summary


def test_a_parameter_nobody_takes_is_an_error():
    with pytest.raises(ValueError, match=r"params \['width'\] are taken by none of "
                                         r"sample_input, sample_group \(pass_params=True"):
        check_equivariance(lambda x: x, PERM, PERM, rows, G.PERMUTATION.sample,
                           params={"n": st.just(3), "d": st.just(2), "width": st.just(4)},
                           budget=1, batch=2, device="cpu")

"""One rule for seeds: an engine called with ``seed=None`` follows the active claim's seed
(as ``device=None`` follows its device), and 0 outside a claim."""

from __future__ import annotations

import sympy as sp
import torch
from hypothesis import strategies as st

from verify.context import Context, activate, claim_seed, engine_seed
from verify.evidence import Evidence
from verify.execute import execute
from verify.numeric import check_equivariance, check_margin, falsify
from verify.registry import Claim
from verify.symbolic import prove_equal
from verify.verdict import Verdict


def _holds(generator, batch, dtype, device, n):
    """Holds everywhere: a violation far below tol that depends on the random inputs."""
    x = torch.randn(batch, n, generator=generator, dtype=dtype, device=device)
    return 1e-12 * x.abs().mean(1)


def _search() -> Evidence:
    return falsify(_holds, {"n": st.integers(1, 3)}, budget=10, batch=4, device="cpu")


def _claim(check) -> Claim:
    return Claim(id="t.seeded", paper="t", where="l. 1", statement="s", kind="property",
                 expect=None, checks=[check])


def test_engine_seed_follows_the_active_claim_and_is_zero_outside():
    assert engine_seed(None) == 0 and engine_seed(5) == 5
    ctx = Context("t.seeded", run_seed=7)
    with activate(ctx):
        assert engine_seed(None) == ctx.seed == claim_seed(7, "t.seeded")
        assert engine_seed(5) == 5  # a seed given is a seed used


def test_an_engine_in_a_claim_run_with_seed_7_uses_the_claims_seed():
    seen: list[Evidence] = []

    def check(ctx: Context) -> Evidence:
        ev = _search()
        seen.append(ev)
        return ev

    r = execute(_claim(check), Context("t.seeded", run_seed=7))
    assert r.verdict is Verdict.SUPPORTED
    assert seen[0].seed == claim_seed(7, "t.seeded")
    assert _search().seed == 0  # outside a claim


def test_two_claims_that_differ_only_by_seed_search_differently():
    def searched(run_seed: int) -> tuple[int, list[float]]:
        with activate(Context("t.seeded", run_seed=run_seed)):
            ev = _search()
        assert ev.verdict is Verdict.SUPPORTED
        return ev.seed, ev.figures[0]["values"]  # each example's worst violation

    (s1, w1), (s2, w2) = searched(1), searched(2)
    assert s1 != s2 and w1 != w2
    assert searched(1) == (s1, w1)  # and each is reproducible


def test_every_engine_with_a_seed_follows_the_claim():
    ctx = Context("t.seeded", run_seed=7)
    x = sp.Symbol("x")
    with activate(ctx):
        eq = check_equivariance(
            lambda v: v, lambda g, v: v.flip(1), lambda g, v: v.flip(1),
            lambda generator, batch, dtype, device: torch.randn(
                batch, 3, generator=generator, dtype=dtype, device=device),
            st.just(0), budget=2, batch=4, device="cpu")
        margin = check_margin(
            lambda v: v, lambda v: torch.zeros(v.shape[0], dtype=torch.long), 0.0,
            sample_input=lambda generator, batch, dtype, device: torch.rand(
                batch, 1, generator=generator, dtype=dtype, device=device),
            budget=2, batch=4, device="cpu")
        refuted = prove_equal(x**2, x, timeout=30)
    assert eq.seed == margin.seed == ctx.seed
    assert refuted.verdict is Verdict.REFUTED and refuted.seed == ctx.seed

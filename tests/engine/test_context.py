"""Seeds derive from the run seed and the claim id, so one claim alone reproduces its run."""

from __future__ import annotations

import torch

from verify import Context
from verify.context import derive_seed


def test_seed_depends_on_run_seed_and_claim_only():
    a = Context("nfa.x", run_seed=3, profile="quick")
    b = Context("nfa.x", run_seed=3, profile="deep", device="cpu", budget_s=1)
    assert a.seed == b.seed
    assert a.seed != Context("nfa.y", run_seed=3).seed
    assert a.seed != Context("nfa.x", run_seed=4).seed


def test_generators_are_reproducible_and_independent():
    ctx = Context("nfa.x", run_seed=0)
    x1 = torch.rand(3, generator=ctx.torch_generator("w"))
    x2 = torch.rand(3, generator=ctx.torch_generator("w"))
    y = torch.rand(3, generator=ctx.torch_generator("b"))
    assert torch.equal(x1, x2) and not torch.equal(x1, y)
    assert ctx.numpy_rng("w").random() == ctx.numpy_rng("w").random()


def test_pick_by_profile():
    assert Context("p.a", profile="quick").pick(quick=1, deep=2) == 1
    assert Context("p.a", profile="deep").pick(quick=1, deep=2) == 2
    assert Context("p.a", profile="fuzz").pick(quick=1, deep=2, fuzz=3) == 3
    assert Context("p.a", profile="fuzz").pick(quick=1, deep=2) == 2


def test_derive_seed_is_stable():
    assert derive_seed(0, "nfa.ag.linear_identity") == derive_seed(0, "nfa.ag.linear_identity")
    assert 0 <= derive_seed("x") < 2**63

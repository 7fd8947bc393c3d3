"""Device cleanliness without a GPU: the detector of tests/device_trace.py fires on unclean toy
checks and stays silent on clean ones, and the papers' checks listed in DEVICE_CLEAN run
clean under it on the claim's device (a GPU run would fail on what it finds)."""

from __future__ import annotations

import pytest
import torch
from device_trace import CLAIM_DEVICE, device_trace  # tests/ is on sys.path
from torch import nn

import verify
from verify.numeric import falsify, randn


def _findings(fn) -> list[str]:
    with device_trace() as trace:
        fn()
    return trace.findings


def _claim_generator() -> torch.Generator:
    return torch.Generator(device=CLAIM_DEVICE).manual_seed(0)


# ---- unclean checks: each is a place where a GPU run fails -------------------------------
def test_a_constant_made_without_a_device_is_found_where_it_meets_the_claims_tensors():
    def check():
        x = randn(4, 3, generator=_claim_generator())
        return x + torch.ones(3)  # on the CPU whatever the claim's device

    (finding,) = _findings(check)
    assert finding.startswith("add mixes a tensor on the claim's device with a host tensor")
    assert "tests/engine/test_device_clean.py:" in finding  # the line of the check that did it


def test_a_pinned_cpu_device_is_found():
    def check():
        g = _claim_generator()
        x = torch.randn(4, 3, generator=g, device=g.device, dtype=torch.float64)
        w = torch.zeros(3, 3, dtype=torch.float64, device="cpu")
        return x @ w

    assert any(f.startswith("matmul mixes") for f in _findings(check))


def test_numpy_of_a_tensor_on_the_claims_device_is_found():
    def check():
        return randn(5, generator=_claim_generator()).numpy()

    (finding,) = _findings(check)
    assert finding.startswith("NumPy of a tensor on the claim's device")


def test_a_draw_from_the_claims_generator_onto_the_cpu_is_found():
    def check():
        return torch.rand(3, generator=_claim_generator(), device="cpu")

    (finding,) = _findings(check)
    assert "draws from a generator on the claim device into a tensor on the host" in finding


def test_a_module_left_on_the_cpu_is_found():
    def check():
        x = randn(2, 4, generator=_claim_generator(), dtype=torch.float32)
        return nn.Linear(4, 2)(x)

    assert any(f.startswith("linear mixes") for f in _findings(check))


def test_a_falsifier_search_pinned_to_the_cpu_is_found():
    """A check that runs its search with ``device="cpu"`` but builds its constant from the
    claim's generator: the mix falsify's pinned search makes on a GPU."""

    def check():
        w = randn(3, generator=_claim_generator())

        def prop(*, generator, batch, dtype, device):
            return (randn(batch, 3, generator=generator, dtype=dtype, device=device) * w
                    ).abs().sum(-1) * 0

        falsify(prop, {}, budget=2, batch=4, device="cpu", seed=0)

    assert any("mul mixes" in f for f in _findings(check))


def test_a_host_constant_inside_a_function_transform_is_found():
    """The functorch rule keeps the claim's device through jvp and vmap, so a host constant
    met inside them is still found."""

    def check():
        x = randn(3, generator=_claim_generator())
        w = torch.ones(3, dtype=x.dtype)  # on the CPU whatever the claim's device
        torch.func.jvp(lambda t: t * w, (x,), (x,))
        torch.func.vmap(lambda t: t + w)(x.reshape(1, 3))

    found = _findings(check)
    assert any(f.startswith("mul mixes") for f in found)
    assert any(f.startswith("add mixes") for f in found)


def test_a_module_moved_to_the_cpu_is_found():
    def check():
        x = randn(2, 4, generator=_claim_generator(), dtype=torch.float32)
        return nn.Linear(4, 2).to(device="cpu")(x)

    assert any(f.startswith("linear mixes") for f in _findings(check))


def test_a_host_tensor_added_to_a_gradient_on_the_claims_device_is_found():
    """A gradient has its parameter's device: a host tensor meeting it is a mix, also after
    ``zero_grad(set_to_none=True)`` has cleared the gradients once."""

    def check():
        x = randn(3, 4, generator=_claim_generator(), dtype=torch.float32)
        model = nn.Linear(4, 2).to(device=x.device)
        for _ in range(2):
            model.zero_grad(set_to_none=True)
            model(x).sum().backward()
            model.weight.grad + torch.ones(2, 4)  # on the CPU whatever the claim's device

    found = _findings(check)
    assert len(found) == 1 and found[0].startswith("add mixes"), found


def test_a_draw_on_the_claims_generator_meeting_a_host_constant_is_found():
    """``device=generator.device`` of a generator made on the claim's device is the claim's
    device: what is drawn there meets a constant made without a device."""

    def check():
        g = _claim_generator()
        row = torch.randint(0, 2, (4, 8), generator=g, device=g.device)
        seen = torch.zeros(4, 8, dtype=torch.bool)
        return seen.scatter_(1, row, True)

    (finding,) = _findings(check)
    assert finding.startswith("scatter_ mixes")


# ---- clean checks: the detector stays silent ----------------------------------------------
def test_clean_code_on_the_claims_device_has_no_findings():
    def check():
        g = _claim_generator()
        x = randn(4, 3, generator=g)
        y = x + torch.ones(3, dtype=x.dtype, device=x.device) + torch.zeros_like(x)
        y = y * torch.tensor(2.0)  # a zero-dimensional CPU tensor is a scalar to CUDA
        model = nn.Linear(3, 2).to(dtype=x.dtype, device=g.device)
        model(y).sum().backward()
        z = y[torch.arange(2)]  # an index on the CPU is allowed
        return z.cpu().numpy(), float(y.max()), y.tolist()

    assert _findings(check) == []


def test_a_falsifier_search_on_the_claims_device_has_no_findings():
    def check():
        def prop(*, generator, batch, dtype, device):
            x = randn(batch, 3, generator=generator, dtype=dtype, device=device)
            return (x - x.clone()).abs().sum(-1)

        return falsify(prop, {}, budget=2, batch=4, device=CLAIM_DEVICE, seed=0)

    assert _findings(check) == []


def test_a_module_moved_to_a_host_generators_device_stays_on_the_host():
    """``Module.to(device=g.device)`` with a host generator ``g`` keeps the module on the host,
    beside the host tensors drawn from ``g``: no mix (``Module.to`` parses the device into a
    fresh ``torch.device``, which the trace must not take for the claim's)."""

    def check():
        g = torch.Generator().manual_seed(0)
        x = torch.randn(2, 4, generator=g, device=g.device)
        return nn.Linear(4, 2).to(dtype=x.dtype, device=g.device)(x)

    assert _findings(check) == []


def test_function_transforms_keep_the_claims_device():
    """torch.func's outputs (jvp, jacfwd, jacrev, grad, vmap) are on their inputs' device:
    meeting the claim's tensors is no mix."""

    def check():
        x = randn(3, generator=_claim_generator())
        y, tangent = torch.func.jvp(torch.sin, (x,), (x,))
        jf, jr = torch.func.jacfwd(torch.sin)(x), torch.func.jacrev(torch.sin)(x)
        grad = torch.func.grad(lambda t: t.sin().sum())(x)
        mapped = torch.func.vmap(torch.sin)(x.reshape(3, 1))
        return y + x, tangent + x, jf @ x, jr @ x, grad + x, mapped.reshape(3) + x

    assert _findings(check) == []


def test_training_with_adamw_and_clipping_on_the_claims_device_has_no_findings():
    """Gradients filled in by autograd (C++) have their parameters' device, and
    ``zero_grad(set_to_none=True)`` leaves the parameters where they are: AdamW's
    ``lerp_``/``addcmul_``/``addcdiv_`` and ``clip_grad_norm_`` see no mix, step after step."""

    def check():
        x = randn(3, 4, generator=_claim_generator(), dtype=torch.float32)
        _train(nn.Linear(4, 2).to(device=x.device), x, steps=3)
        w = torch.zeros(3, 4, requires_grad=True, device=x.device, dtype=x.dtype)
        lbfgs = torch.optim.LBFGS([w], max_iter=3)

        def closure():
            lbfgs.zero_grad()
            loss = ((x - w) ** 2).sum()
            loss.backward()
            return loss

        lbfgs.step(closure)

    assert _findings(check) == []


def _train(model: nn.Module, x: torch.Tensor, steps: int) -> None:
    """``steps`` AdamW steps with gradient clipping, ``zero_grad(set_to_none=True)`` first."""
    opt = torch.optim.AdamW(model.parameters())
    for _ in range(steps):
        opt.zero_grad(set_to_none=True)
        model(x).sum().backward()
        nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()


def test_training_on_the_host_has_no_findings():
    """``clip_grad_norm_`` and the optimisers group their tensors by a fresh ``torch.device``
    and move scalars ``.to`` it: for a model on the host that device is the host."""

    def check():
        x = torch.randn(3, 4, generator=torch.Generator().manual_seed(0))
        _train(nn.Linear(4, 2), x, steps=2)

    assert _findings(check) == []


def test_draws_on_a_host_generators_device_stay_on_the_host():
    """``device=generator.device`` of a generator made on the host is the host (the pattern
    of sih's ``sample_tokens``): meeting host constants is no mix."""

    def check():
        g = torch.Generator().manual_seed(0)
        row = torch.randint(0, 2, (4, 8), generator=g, device=g.device)
        seen = torch.zeros(4, 8, dtype=torch.bool)
        return seen.scatter_(1, row, True), torch.cat([row, torch.full((4, 1), 2)], 1)

    assert _findings(check) == []


def test_the_trace_leaves_torch_as_it_found_it():
    import torch._functorch.eager_transforms as eager_transforms

    generator, new = torch.Generator, nn.Parameter.__new__
    wrap, parse_to = eager_transforms._wrap_for_grad, torch._C._nn._parse_to
    group = torch._C._group_tensors_by_device_and_dtype
    with pytest.raises(RuntimeError), device_trace():
        raise RuntimeError("a check that crashes")
    assert torch.Generator is generator and nn.Parameter.__new__ is new
    assert eager_transforms._wrap_for_grad is wrap and torch._C._nn._parse_to is parse_to
    assert torch._C._group_tensors_by_device_and_dtype is group


# ---- the papers' checks ------------------------------------------------------------------
#: Papers' claims whose checks make their own tensors, where a device is easily missed (a
#: pinned ``device="cpu"``, a constant made on the host), each quick to run.
DEVICE_CLEAN = [
    "nfa.ag.linear_identity",
    "nfa.ag.softmax_denominator_remainder",
    "nfa.eq.thm1_normalization",
    "nfa.eq.iff_necessity",
    "nfa.eq.remark_no_anchor_invariance",
    "toef.rope_fourier_pe",
    "toef.lemma2_depth",
    "toef.lemma1_lie_trotter",
    # nfa and toef: checks made device-clean (Q = I on the problem's device; identities,
    # masks and block matrices on the generator's device)
    "nfa.appd.readout_update",
    "toef.axiom2_gram_dependence",
    "toef.lemma4_sufficiency",
    "toef.eq2_split_vs_parallel",
    "toef.thm5_eft_truncation_rate",
    "toef.softmax_in_canonical_form",
    "toef.lemma8_bch_gate",
    # gda (Gradient Dynamics of Attention)
    "gda.ce_logit_grad",
    "gda.value_grad",
    "gda.alpha_grad",
    "gda.WV_grad",
    "gda.upstream_u",
    "gda.exp.sticky.min_entropy",
    "gda.exp.sticky.capacity_gap",  # LBFGS: its gradients are on its parameters' device
    # pegr and sih: attention weights, the bump decoder and the retrieval targets on the
    # inputs' device
    "pegr.attention.equivariance",
    "sih.decode.lemma_e4",
    "sih.retrieve.lemma_e9_cor_e10",
    # nfa's fast experiments: drawn from their own seeded generators on the host (they run on
    # the CPU whatever the claim's device), so the guard is that nothing in them mixes devices
    "nfa.exp.table2_attention_gradient",
    "nfa.exp.fig3",
]


@pytest.mark.slow
@pytest.mark.parametrize("claim_id", DEVICE_CLEAN)
def test_the_papers_checks_are_device_clean(claim_id, tmp_path):
    with device_trace() as trace:
        (res,) = verify.run(claim_id, jobs=0, device=CLAIM_DEVICE,
                            results_path=tmp_path / "results.jsonl")
    assert trace.findings == []
    assert res.verdict.name != "ERROR" and res.error is None, res.error

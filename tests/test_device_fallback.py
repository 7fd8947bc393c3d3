"""On a GPU, a check that only fails by mixing devices runs again on the CPU, and says so."""

from __future__ import annotations

import pytest
import torch

from verify.context import Context, activate, active_device
from verify.evidence import Evidence
from verify.execute import collect_on_device
from verify.numeric.devices import prepare_device
from verify.verdict import Verdict

MIXED = ("Expected all tensors to be on the same device, but found at least two devices, "
         "cuda:0 and cpu!")


def _check(fail_on: str, message: str, calls: list[tuple[str, str | None]]):
    def check(ctx: Context) -> Evidence:
        calls.append((ctx.device, active_device()))
        if ctx.device.startswith(fail_on):
            raise RuntimeError(message)
        return Evidence(Verdict.SUPPORTED, "no counterexample", seed=ctx.seed)

    return check


def test_a_device_mismatch_on_cuda_reruns_the_check_on_the_cpu():
    calls: list[tuple[str, str | None]] = []
    ctx = Context("t.mixed", run_seed=3, device="cuda")
    errors: list[str] = []
    with activate(ctx):
        (ev,) = collect_on_device(_check("cuda", MIXED, calls), ctx, errors)
    assert calls == [("cuda", "cuda"), ("cpu", "cpu")]  # the engines follow the CPU context
    assert ev.verdict is Verdict.SUPPORTED and ev.device == "cpu"
    assert ev.summary.startswith("[on cpu: on cuda check ") and "same device" in ev.summary
    assert ev.seed == ctx.seed  # same claim seed: the CPU run's evidence
    assert errors == []


def test_another_failure_on_cuda_stays_the_checks_undecided():
    calls: list[tuple[str, str | None]] = []
    ctx = Context("t.broken", device="cuda")
    errors: list[str] = []
    (ev,) = collect_on_device(_check("cuda", "shape mismatch", calls), ctx, errors)
    assert len(calls) == 1
    assert ev.verdict is Verdict.UNDECIDED and "shape mismatch" in ev.summary
    assert errors and "shape mismatch" in errors[0]


def test_on_the_cpu_a_mismatch_is_not_retried():
    calls: list[tuple[str, str | None]] = []
    ctx = Context("t.cpu", device="cpu")
    (ev,) = collect_on_device(_check("cpu", MIXED, calls), ctx, [])
    assert len(calls) == 1 and ev.verdict is Verdict.UNDECIDED


def test_engines_run_on_the_active_claims_device(monkeypatch):
    """``--device cpu`` on a machine with a GPU: a search that names no device stays on CPU."""
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    assert prepare_device(None) == "cuda"
    with activate(Context("t.cpu", device="cpu")):
        assert prepare_device(None) == "cpu"
    assert active_device() is None


@pytest.mark.parametrize("message", [
    "Expected a 'cpu' device type for generator but found 'cuda'",
    "can't convert cuda:0 device type tensor to numpy. Use Tensor.cpu() to copy the tensor",
    "expected self and mask to be on the same device, but got mask on cpu and self on cuda:0",
    "indices should be either on cpu or on the same device as the indexed tensor (cpu)",
])
def test_torch_device_messages_seen_on_an_h200_are_recognised(message):
    calls: list[tuple[str, str | None]] = []
    ctx = Context("t.msg", device="cuda")
    (ev,) = collect_on_device(_check("cuda", message, calls), ctx, [])
    assert ev.verdict is Verdict.SUPPORTED and len(calls) == 2

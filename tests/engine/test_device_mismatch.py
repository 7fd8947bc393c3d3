"""A check that mixes devices is the claim's ERROR, with a reason that says so; it is never
re-run on another device. The engines follow the active claim's device."""

from __future__ import annotations

import pytest
import torch

from verify.context import Context, activate, active_device
from verify.evidence import Evidence
from verify.execute import execute
from verify.numeric.devices import prepare_device
from verify.registry import Claim
from verify.verdict import Verdict

MIXED = ("Expected all tensors to be on the same device, but found at least two devices, "
         "cuda:0 and cpu!")


def _claim(fail_on: str, message: str, calls: list[tuple[str, str | None]]) -> Claim:
    def check(ctx: Context) -> Evidence:
        calls.append((ctx.device, active_device()))
        if ctx.device.startswith(fail_on):
            raise RuntimeError(message)
        return Evidence(Verdict.SUPPORTED, "no counterexample", seed=ctx.seed)

    return Claim(id="t.mixed", paper="t", where="l. 1", statement="s", kind="property",
                 expect=None, checks=[check])


@pytest.mark.parametrize("device", ["cuda", "cpu"])
def test_a_device_mismatch_is_an_error_that_names_it_and_is_not_rerun(device):
    calls: list[tuple[str, str | None]] = []
    r = execute(_claim(device, MIXED, calls), Context("t.mixed", run_seed=3, device=device))
    assert calls == [(device, device)]  # run once, on the claim's device, never on another
    assert r.verdict is Verdict.ERROR and r.crashed
    assert f"mixes devices on {device}" in r.error and "same device" in r.error


def test_another_failure_is_an_error_that_does_not_blame_the_devices():
    calls: list[tuple[str, str | None]] = []
    r = execute(_claim("cuda", "shape mismatch", calls), Context("t.broken", device="cuda"))
    assert len(calls) == 1 and r.verdict is Verdict.ERROR
    assert "shape mismatch" in r.error and "mixes devices" not in r.error


def test_a_check_that_keeps_to_its_device_is_judged_by_its_evidence():
    calls: list[tuple[str, str | None]] = []
    r = execute(_claim("cuda", MIXED, calls), Context("t.fine", device="cpu"))
    assert r.verdict is Verdict.SUPPORTED and r.error is None


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
def test_torch_device_messages_are_named_as_mixed_devices(message):
    calls: list[tuple[str, str | None]] = []
    r = execute(_claim("cuda", message, calls), Context("t.msg", device="cuda"))
    assert r.verdict is Verdict.ERROR and len(calls) == 1
    assert "mixes devices on cuda" in r.error

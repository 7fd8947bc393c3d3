"""Device choice: CPU always works, CUDA only when present, anything else is a usage error."""

from __future__ import annotations

import pytest
import torch

from verify.devices import configure_torch, resolve_device, set_device
from verify.errors import UsageError


def test_default_is_cuda_when_present_else_cpu():
    assert resolve_device(None) == ("cuda" if torch.cuda.is_available() else "cpu")
    assert resolve_device("cpu") == "cpu"


def test_unknown_device_is_a_usage_error():
    with pytest.raises(UsageError, match="--device 'tpu'"):
        resolve_device("tpu")


@pytest.mark.skipif(torch.cuda.is_available(), reason="needs a machine without CUDA")
def test_cuda_without_a_gpu_is_a_usage_error():
    with pytest.raises(UsageError, match="no CUDA device"):
        resolve_device("cuda")


def test_configure_torch_switches_tf32_off():
    configure_torch()
    assert torch.backends.cuda.matmul.allow_tf32 is False
    assert torch.backends.cudnn.allow_tf32 is False


@pytest.mark.parametrize("device, index", [("cpu", None), ("cuda", None), ("cuda:1", 1)])
def test_set_device_passes_torch_an_index_or_nothing(monkeypatch, device, index):
    """``torch.cuda.set_device(torch.device("cuda"))`` raises ("Expected a torch.device with a
    specified index"): a bare "cuda" keeps the current GPU, "cuda:N" selects N."""
    calls = []
    monkeypatch.setattr(torch.cuda, "set_device", calls.append)
    set_device(device)
    assert calls == ([] if index is None else [index])

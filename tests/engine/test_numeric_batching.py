"""``InDtype`` evaluates a module in each dtype without copying one that is already in it."""

from __future__ import annotations

import torch

from verify.numeric.batching import InDtype


def test_a_module_already_in_the_dtype_and_in_eval_mode_is_used_as_it_is():
    m = torch.nn.Linear(3, 2).to(torch.float64).eval()
    assert InDtype(m)(torch.float64, "cpu") is m


def test_a_module_in_another_dtype_or_in_training_mode_is_copied_and_left_alone():
    m = torch.nn.Linear(3, 2).to(torch.float64)  # training mode
    copy64 = InDtype(m)(torch.float64, "cpu")
    assert copy64 is not m and not copy64.training and m.training
    m.eval()
    copy32 = InDtype(m)(torch.float32, "cpu")
    assert copy32 is not m and copy32.weight.dtype == torch.float32
    assert m.weight.dtype == torch.float64

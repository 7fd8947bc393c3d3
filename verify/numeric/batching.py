"""Small helpers the checks share: casting inputs and modules to a dtype, batched norms.

Inputs are drawn in float64 and *rounded* to the searched dtype (:func:`cast`), so the
float64 re-check of a float32 finding evaluates the same inputs. A ``torch.nn.Module`` is
evaluated through a copy converted to the dtype (:class:`InDtype`), so float32 and float64
runs compute the same function at two precisions.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any

import torch

from .devices import real_dtype


def cast(obj: Any, dtype: torch.dtype, device: str | None = None) -> Any:
    """``obj`` with its floating (complex) tensors cast to ``dtype`` (its complex partner).

    Integer and boolean tensors and non-tensors are left as they are; tuples, lists and dicts
    are cast elementwise.
    """
    if isinstance(obj, torch.Tensor):
        if obj.is_complex():
            target = torch.complex128 if real_dtype(dtype) == torch.float64 else torch.complex64
            return obj.to(device=device or obj.device, dtype=target)
        if obj.is_floating_point():
            return obj.to(device=device or obj.device, dtype=real_dtype(dtype))
        return obj.to(device=device or obj.device)
    if isinstance(obj, tuple):
        return tuple(cast(o, dtype, device) for o in obj)
    if isinstance(obj, list):
        return [cast(o, dtype, device) for o in obj]
    if isinstance(obj, Mapping):
        return {k: cast(v, dtype, device) for k, v in obj.items()}
    return obj


class InDtype:
    """Evaluate ``f`` in a given dtype: modules are copied and converted once per dtype.

    A module already in eval mode whose tensors all have that dtype and device is used as it
    is: the copy would compute the same function, and copying a large or code-generated
    module (an e3nn tensor product) costs more than many evaluations.
    """

    def __init__(self, f: Callable[..., Any]) -> None:
        self.f = f
        self._copies: dict[tuple[torch.dtype, str], Callable[..., Any]] = {}

    def __call__(self, dtype: torch.dtype, device: str) -> Callable[..., Any]:
        if not isinstance(self.f, torch.nn.Module):
            return self.f
        key = (real_dtype(dtype), str(device))
        if key not in self._copies and _already_in(self.f, dtype, device):
            self._copies[key] = self.f
        if key not in self._copies:
            m = copy.deepcopy(self.f).to(device)
            for t in list(m.parameters()) + list(m.buffers()):
                t.data = cast(t.data, dtype)
            m.eval()
            self._copies[key] = m
        return self._copies[key]


def _already_in(m: torch.nn.Module, dtype: torch.dtype, device: str) -> bool:
    """Whether every module of ``m`` is in eval mode and every tensor of it is on ``device``
    with the dtype :func:`cast` would give it."""
    if any(sub.training for sub in m.modules()):
        return False
    want = torch.device(device)
    for t in [*m.parameters(), *m.buffers()]:
        same_device = t.device.type == want.type and (want.index is None
                                                      or t.device.index == want.index)
        if not same_device or cast(t.new_empty(0), dtype).dtype != t.dtype:
            return False
    return True


def flat(y: Any, batch: int) -> torch.Tensor:
    """A ``(batch, D)`` view of a batched tensor (or a tuple/list of them, concatenated)."""
    if isinstance(y, (tuple, list)):
        return torch.cat([flat(t, batch) for t in y], dim=1)
    if not isinstance(y, torch.Tensor):
        raise TypeError(f"expected a batched tensor, got {type(y).__name__}")
    if y.shape[0] != batch:
        raise ValueError(
            f"expected a batch-first tensor with {batch} rows, got shape {tuple(y.shape)}"
        )
    return y.reshape(batch, -1)


def relative_gap(
    a: torch.Tensor, b: torch.Tensor, floor: torch.Tensor | float = 0.0
) -> torch.Tensor:
    """``||a_i - b_i|| / max(||a_i||, ||b_i||, floor_i)`` per row, in float64.

    Both zero gives 0; a non-zero difference over a zero magnitude gives ``inf`` (a violation,
    never hidden). NaN propagates (the falsifier reports it).
    """
    a64, b64 = a.to(torch.complex128 if a.is_complex() else torch.float64), b.to(
        torch.complex128 if b.is_complex() else torch.float64
    )
    num = torch.linalg.vector_norm(a64 - b64, dim=1)
    den = torch.maximum(torch.linalg.vector_norm(a64, dim=1), torch.linalg.vector_norm(b64, dim=1))
    den = torch.maximum(den, torch.as_tensor(floor, dtype=torch.float64, device=den.device))
    out = num / den
    out = torch.where((num == 0) & (den == 0), torch.zeros_like(out), out)
    return out

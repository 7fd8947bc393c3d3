"""Random inputs that are the *same* inputs in every dtype.

``torch.randn(..., dtype=torch.float32)`` and ``torch.randn(..., dtype=torch.float64)`` from
the same generator state give different numbers. :func:`verify.numeric.falsify` re-checks a
float32 finding in float64 before it refutes, so a property should draw its inputs with these
helpers: they draw in float64 and round to ``dtype``, so the float64 re-evaluation sees the
float32 inputs unrounded.
"""

from __future__ import annotations

import torch


def randn(
    *shape: int,
    generator: torch.Generator,
    dtype: torch.dtype = torch.float64,
    device: str | torch.device | None = None,
) -> torch.Tensor:
    """Standard normal samples of ``shape``, drawn in float64 and cast to ``dtype``."""
    dev = device if device is not None else generator.device
    x = torch.randn(*shape, generator=generator, dtype=torch.float64, device=dev)
    return x.to(dtype)


def rand(
    *shape: int,
    generator: torch.Generator,
    dtype: torch.dtype = torch.float64,
    device: str | torch.device | None = None,
    low: float = 0.0,
    high: float = 1.0,
) -> torch.Tensor:
    """Uniform samples on ``[low, high)`` of ``shape``, drawn in float64 and cast to ``dtype``."""
    dev = device if device is not None else generator.device
    x = torch.rand(*shape, generator=generator, dtype=torch.float64, device=dev)
    return (low + (high - low) * x).to(dtype)

"""The device the numeric engine runs on, with honest float arithmetic.

``device=None`` means the device of the claim being checked (``verify run --device``), and
outside a claim CUDA when a GPU is present, else CPU (verify.devices.resolve_device).
Whenever the engine touches CUDA it first switches TF32 off (matmul and cuDNN), so that
``float32`` means IEEE float32 and a tolerance scaled by float32's eps is meaningful.
"""

from __future__ import annotations

import torch

from ..context import active_device
from ..devices import configure_torch, resolve_device


def default_device() -> str:
    """``"cuda"`` when a GPU is available, else ``"cpu"``; TF32 is switched off either way."""
    return prepare_device(None)


def prepare_device(device: str | torch.device | None) -> str:
    """Resolve ``device`` (``None`` -> the active claim's, else the default) and make float
    arithmetic on it exact IEEE."""
    if device is None:
        device = active_device()
    name = resolve_device(None if device is None else str(device))
    configure_torch()  # TF32 off for matmul and cuDNN; deterministic cuDNN
    return name


def recheck_dtype(dtype: torch.dtype) -> torch.dtype:
    """The high-precision dtype a finding in ``dtype`` is re-checked in (float64/complex128)."""
    return torch.complex128 if dtype.is_complex else torch.float64


def real_dtype(dtype: torch.dtype) -> torch.dtype:
    """The real dtype of the same precision (complex64 -> float32)."""
    return {torch.complex64: torch.float32, torch.complex128: torch.float64}.get(dtype, dtype)


def eps(dtype: torch.dtype) -> float:
    """Machine epsilon of ``dtype`` (of its real part for complex dtypes)."""
    return float(torch.finfo(real_dtype(dtype)).eps)


def dtype_name(dtype: torch.dtype) -> str:
    """``torch.float32`` -> ``"float32"``."""
    return str(dtype).replace("torch.", "")

"""Turn the values checks produce (numpy, torch, sympy, Fraction) into plain JSON.

Evidence is streamed to a JSON-lines file by a worker process, so everything in it must
survive ``json.dumps``. Exact numbers keep their exactness as strings (``"3/7"``), floats
stay floats (NaN and infinities as the strings ``"nan"``, ``"inf"``, ``"-inf"``, since JSON
has no literal for them), tensors and arrays become nested lists.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction
from typing import Any


def to_jsonable(value: Any) -> Any:
    """Return a JSON-serialisable copy of ``value``."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return value
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, Mapping):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        items = sorted(value, key=repr) if isinstance(value, (set, frozenset)) else value
        return [to_jsonable(v) for v in items]
    if hasattr(value, "value") and value.__class__.__name__ == "Verdict":
        return value.value
    module = type(value).__module__.split(".")[0]
    if module == "numpy":
        import numpy as np

        if isinstance(value, np.ndarray):
            return to_jsonable(value.tolist())
        if isinstance(value, np.generic):
            return to_jsonable(value.item())
    if module == "torch":
        import torch

        if isinstance(value, torch.Tensor):
            t = value.detach().cpu()
            if t.is_complex():
                return to_jsonable(
                    {"real": t.real.tolist(), "imag": t.imag.tolist()}
                    if t.dim()
                    else complex(t.item())
                )
            return to_jsonable(t.tolist())
        if isinstance(value, (torch.dtype, torch.device)):
            return str(value)
    if isinstance(value, complex):
        return {"real": to_jsonable(value.real), "imag": to_jsonable(value.imag)}
    if module == "sympy":
        return str(value)
    return repr(value)


def has_nan(value: Any) -> bool:
    """True if a NaN hides anywhere in ``value`` (before or after :func:`to_jsonable`)."""
    if isinstance(value, float):
        return math.isnan(value)
    if isinstance(value, str):
        return value == "nan"
    if isinstance(value, Mapping):
        return any(has_nan(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return any(has_nan(v) for v in value)
    module = type(value).__module__.split(".")[0]
    if module in ("numpy", "torch"):
        try:
            return bool(value != value) if getattr(value, "ndim", 1) == 0 else has_nan(value.tolist())
        except Exception:  # noqa: BLE001 - exotic array types: not our business
            return False
    return False

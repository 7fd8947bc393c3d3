"""Turn the values checks produce (numpy, torch, sympy, Fraction) into plain JSON.

Evidence is streamed to a JSON-lines file by a worker process, so everything in it must
survive ``json.dumps``. Exact numbers keep their exactness as strings (``"3/7"``), floats
stay floats (NaN and infinities as the strings ``"nan"``, ``"inf"``, ``"-inf"``, since JSON
has no literal for them), tensors and arrays become nested lists.
"""

from __future__ import annotations

import cmath
import math
from collections.abc import Mapping
from decimal import Decimal
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
            if getattr(value, "ndim", 1) == 0:
                return bool(value != value)
            return has_nan(value.tolist())
        except Exception:
            return False
    return False


#: How non-finite numbers read once stored (to_jsonable) or printed by SymPy and mpmath.
NONFINITE_TEXT = frozenset({"nan", "inf", "-inf", "+inf", "oo", "-oo", "zoo", "infinity",
                            "-infinity", "+infinity"})


def find_nonfinite(value: Any, where: str = "") -> tuple[str, str] | None:
    """``(where, what)`` of the first NaN or infinity in ``value``, or None when there is none.

    Looks inside every container (dict keys and values, lists, tuples, sets), through
    numpy and torch arrays, SymPy numbers, matrices and expressions, mpmath and Decimal
    values, and the strings :func:`to_jsonable` stores them as (``"nan"``, ``"inf"``).
    ``where`` is a path such as ``['worst'][2]``; ``what`` is the value as text.
    """
    return _nonfinite(value, where, set())


def _nonfinite(value: Any, where: str, seen: set[int]) -> tuple[str, str] | None:
    if value is None or isinstance(value, (bool, int, Fraction)):
        return None
    if isinstance(value, float):
        return None if math.isfinite(value) else (where, repr(value))
    if isinstance(value, complex):
        return None if cmath.isfinite(value) else (where, repr(value))
    if isinstance(value, str):
        return (where, repr(value)) if value.strip().lower() in NONFINITE_TEXT else None
    if isinstance(value, Decimal):
        return None if value.is_finite() else (where, str(value))
    if id(value) in seen:
        return None
    if isinstance(value, Mapping):
        seen.add(id(value))
        for k, v in value.items():
            found = _nonfinite(k, f"{where}[{k!r}] (key)", seen) or _nonfinite(
                v, f"{where}[{k!r}]", seen
            )
            if found:
                return found
        return None
    if isinstance(value, (list, tuple, set, frozenset)):
        seen.add(id(value))
        for i, v in enumerate(value):
            found = _nonfinite(v, f"{where}[{i}]" if isinstance(value, (list, tuple)) else where,
                               seen)
            if found:
                return found
        return None
    module = type(value).__module__.split(".")[0]
    if module == "numpy":
        import numpy as np

        if isinstance(value, (np.ndarray, np.generic)):
            if value.dtype.kind in "fc":
                if bool(np.isfinite(value).all()):
                    return None
                return (where, "nan" if bool(np.isnan(value).any()) else "inf")
            if value.dtype.kind == "O":
                return _nonfinite(np.asarray(value).tolist(), where, seen)
            return None
    if module == "torch":
        import torch

        if isinstance(value, torch.Tensor):
            if value.is_floating_point() or value.is_complex():
                t = value.detach()
                if bool(torch.isfinite(t).all()):
                    return None
                return (where, "nan" if bool(torch.isnan(t).any()) else "inf")
            return None
    if module == "mpmath":
        import mpmath

        if isinstance(value, (mpmath.mpf, mpmath.mpc)):
            bad = mpmath.isnan(value) or mpmath.isinf(value)
            return (where, str(value)) if bad else None
        if isinstance(value, mpmath.matrix):
            return _nonfinite(value.tolist(), where, seen)
    if module == "sympy":
        return _sympy_nonfinite(value, where)
    return None


def _sympy_nonfinite(value: Any, where: str) -> tuple[str, str] | None:
    """A SymPy number that is NaN or infinite, or a NaN or infinite entry of a matrix or an
    expression; ``oo`` as a *bound* (a limit point, an integration range) is not a value."""
    import sympy as sp

    if isinstance(value, sp.MatrixBase):
        for i, v in enumerate(value):
            found = _sympy_nonfinite(v, f"{where}[{i}]")
            if found:
                return found
        return None
    if not isinstance(value, sp.Basic):
        return None
    if value in (sp.nan, sp.oo, -sp.oo, sp.zoo):
        return (where, str(value))
    if isinstance(value, (sp.Tuple, sp.FiniteSet)):
        for i, v in enumerate(value.args):
            found = _sympy_nonfinite(v, f"{where}[{i}]")
            if found:
                return found
        return None
    if value.has(sp.nan, sp.zoo):  # never a bound: the expression's value is undefined
        return (where, str(value))
    return None

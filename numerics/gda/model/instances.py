"""Random instances of the head of Sec. 2 for the property tests of ``numerics/gda``.

Sizes ``T in [2, 12]``, ``d_x, d_k, d_v in [1, 5]``, ``C in [2, 6]``, parameter and input
scales log-uniform in ``[0.1, 5]``, random labels, causal mask on or off. Every draw comes
from a ``numpy.random.Generator`` (sizes, scales) and a ``torch.Generator`` (entries) handed
in by the caller, so a check's instances flow from its context's seed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import torch
from torch import Tensor

from .attention_head import causal_mask
from .dynamics import FreeState


@dataclass
class Sizes:
    T: int
    d_x: int
    d_k: int
    d_v: int
    C: int
    scale: float  # parameter / score scale
    x_scale: float  # input scale
    causal: bool


def log_uniform(rng: np.random.Generator, lo: float, hi: float) -> float:
    return float(math.exp(rng.uniform(math.log(lo), math.log(hi))))


def draw_sizes(
    rng: np.random.Generator,
    *,
    T: tuple[int, int] = (2, 12),
    d: tuple[int, int] = (1, 5),
    C: tuple[int, int] = (2, 6),
    scale: tuple[float, float] = (0.1, 5.0),
    causal: bool | None = None,
) -> Sizes:
    """Random sizes: T in [2,12], d in [1,5], C in [2,6], log-uniform scales in [0.1, 5]."""
    return Sizes(
        T=int(rng.integers(T[0], T[1] + 1)),
        d_x=int(rng.integers(d[0], d[1] + 1)),
        d_k=int(rng.integers(d[0], d[1] + 1)),
        d_v=int(rng.integers(d[0], d[1] + 1)),
        C=int(rng.integers(C[0], C[1] + 1)),
        scale=log_uniform(rng, *scale),
        x_scale=log_uniform(rng, *scale),
        causal=bool(rng.integers(0, 2)) if causal is None else causal,
    )


def random_params(
    g: torch.Generator, n: int, s: Sizes, dtype=torch.float64
) -> tuple[dict[str, Tensor], Tensor, Tensor]:
    """``n`` independent (params, X, y) instances of sizes ``s`` (view P)."""

    def r(*shape: int) -> Tensor:
        return torch.randn(n, *shape, generator=g, dtype=dtype, device=g.device)

    p = {
        "W_Q": r(s.d_k, s.d_x) * s.scale,
        "W_K": r(s.d_k, s.d_x) * s.scale,
        "W_V": r(s.d_v, s.d_x) * s.scale,
        "W_O": r(s.C, s.d_v) * s.scale,
        "b_O": r(s.C) * s.scale,
    }
    X = r(s.T, s.d_x) * s.x_scale
    y = torch.randint(0, s.C, (n, s.T), generator=g, device=g.device)
    return p, X, y


def random_free(g: torch.Generator, n: int, s: Sizes, dtype=torch.float64) -> FreeState:
    """``n`` independent view-(F) states (free S, V; random W_O, b_O, y; mask per ``s``)."""

    def r(*shape: int) -> Tensor:
        return torch.randn(n, *shape, generator=g, dtype=dtype, device=g.device)

    mask = causal_mask(s.T, g.device) if s.causal else None
    return FreeState(
        S=r(s.T, s.T) * s.scale,
        V=r(s.T, s.d_v) * s.x_scale,
        W_O=r(s.C, s.d_v) * s.scale,
        b_O=r(s.C) * s.scale,
        y=torch.randint(0, s.C, (n, s.T), generator=g, device=g.device),
        mask=mask,
    )


def tolist(x) -> list:
    """A tensor as a (nested) list of Python floats, for a JSON counterexample."""
    return x.detach().cpu().tolist()

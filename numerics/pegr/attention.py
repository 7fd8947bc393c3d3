"""Self-attention on group-representation PEs (eq. (1), L61; eq. (12), A.4 L212-219).

``f(x) = W_V Gamma softmax(Gamma^T W_K^T W_Q Gamma)`` with ``Gamma = [gamma(x_1), ..., gamma(x_n)]``,
``gamma(x) = vec(rho(x))``. The paper does not fix the softmax axis; ``axis=0`` normalises each
column (the form that makes ``Gamma @ softmax`` a convex combination of the columns), ``axis=1`` rows.
"""

from __future__ import annotations

import torch
from torch import nn


class PESelfAttention(nn.Module):
    """One attention layer of eq. (1)/(12) acting on a batch of ``(B, d, n)`` PE matrices ``Gamma``."""

    def __init__(self, WV: torch.Tensor, WK: torch.Tensor, WQ: torch.Tensor, axis: int = 0) -> None:
        super().__init__()
        self.register_buffer("WV", WV)
        self.register_buffer("WK", WK)
        self.register_buffer("WQ", WQ)
        self.axis = axis

    @classmethod
    def scalar(cls, d: int, b1: float, b2: float, b3: float, axis: int = 0, dtype=torch.float64):
        """``W_V = b1 I``, ``W_K = b2 I``, ``W_Q = b3 I`` (A.4, L219)."""
        eye = torch.eye(d, dtype=dtype)
        return cls(b1 * eye, b2 * eye, b3 * eye, axis)

    def attention(self, G: torch.Tensor) -> torch.Tensor:
        S = G.transpose(-1, -2) @ self.WK.T @ self.WQ @ G
        return torch.softmax(S, dim=-2 if self.axis == 0 else -1)

    def forward(self, G: torch.Tensor) -> torch.Tensor:
        return self.WV @ G @ self.attention(G)

"""The attention-gradient construction of "Neural Fields Meet Attention" (nfa).

Setting (Thm 3, L156-174 = Thm 6, L376-412; App. D setup, L686-718). A field linear in its
coefficients over a fixed basis, ``f(x) = sum_k c_k phi_k(x)``; samples ``(x_i, y_i)``; the
design matrix ``Phi[i, k] = phi_k(x_i)``; residuals ``r = y - Phi c``; loss
``L = 1/2 ||r||^2``; negative gradient ``g = -grad_c L = Phi^T r``.

The construction feeds one attention head with

* keys    ``K_i = Phi[i, :]^T``  (basis evaluations at x_i),
* values  ``V_i = r_i``          (residuals),
* queries ``Q_k = e_k``          (one-hot; general ``q^(h)`` in App. D),

and computes, per query, ``O_k = sum_i alpha_ki V_i`` with

* linear attention   ``alpha_ki = Q_k^T K_i = s_ki``                      (Thm 3: ``O = g``),
* softmax attention  ``alpha_ki = exp(s_ki/tau) / sum_j exp(s_kj/tau)``     (A.4.1, L426-460),

where ``s_ki = Q_k^T K_i`` are the logits. Multi-head (App. D, Thm 14/16): queries stacked as
``Q = [q^(1) ... q^(H)] in R^{K x H}``, linear output ``Q^T Phi^T r``. Residual-keyed heads
(App. C, Thm 12/13): per basis index k, logits ``s_i = <Phi_k(x_i), r_i>`` and values
``v_i = Phi_k(x_i)`` with vector-valued ``Phi_k``.

Everything is batched over leading dimensions and differentiable (autograd cross-checks).

Public API (stable; imported by the experiments module):
:func:`residual`, :func:`squared_loss`, :func:`negative_gradient`,
:func:`attention_inputs`, :class:`AttentionGradientHead` (``mode="linear" | "softmax"``,
``tau``), :class:`MultiHeadAttentionGradient`, :class:`ResidualKeyedHead`,
:func:`softmax_first_order`, :func:`softmax_weights`, :func:`random_sinusoid_problem`.
"""

from __future__ import annotations

import torch
from torch import Tensor, nn

__all__ = [
    "residual",
    "squared_loss",
    "negative_gradient",
    "attention_inputs",
    "softmax_weights",
    "AttentionGradientHead",
    "MultiHeadAttentionGradient",
    "ResidualKeyedHead",
    "softmax_first_order",
    "random_sinusoid_problem",
]


def residual(Phi: Tensor, y: Tensor, c: Tensor) -> Tensor:
    """``r = y - Phi c`` (values of Thm 3, L164), shapes (..., N, K), (..., N), (..., K)."""
    return y - (Phi @ c.unsqueeze(-1)).squeeze(-1)


def squared_loss(Phi: Tensor, y: Tensor, c: Tensor) -> Tensor:
    """``L = 1/2 sum_i (y_i - f(x_i))^2`` (Thm 3, L162)."""
    return 0.5 * residual(Phi, y, c).pow(2).sum(-1)


def negative_gradient(Phi: Tensor, y: Tensor, c: Tensor) -> Tensor:
    """``g = -grad_c L = Phi^T r`` in closed form (App. D, L700)."""
    return (Phi.transpose(-1, -2) @ residual(Phi, y, c).unsqueeze(-1)).squeeze(-1)


def attention_inputs(Phi: Tensor, y: Tensor, c: Tensor) -> tuple[Tensor, Tensor, Tensor]:
    """Keys, values and one-hot queries of Thm 3 (L164-166).

    Returns ``keys`` (..., N, K) with ``keys[i] = Phi[i, :]``, ``values`` (..., N) the residuals,
    and ``queries`` (K, K) = ``I_K`` (row k is ``e_k``).
    """
    K = Phi.shape[-1]
    return Phi, residual(Phi, y, c), torch.eye(K, dtype=Phi.dtype, device=Phi.device)


def softmax_weights(logits: Tensor, tau: float | Tensor) -> Tensor:
    """``alpha_ki(tau) = exp(s_ki/tau) / sum_j exp(s_kj/tau)`` over the last axis (L178, L426)."""
    return torch.softmax(logits / tau, dim=-1)


class AttentionGradientHead(nn.Module):
    """One attention layer with queries ``Q`` (H, K), keys ``K_i`` and values ``V_i``.

    ``mode="linear"``: ``O_h = sum_i (q_h^T K_i) V_i`` (unnormalised, Thm 3/14).
    ``mode="softmax"``: ``O_h = sum_i softmax_i(q_h^T K_i / tau) V_i`` (A.4.1, Thm 16).

    ``forward(keys (..., N, K), values (..., N) or (..., N, m), queries (H, K) or (..., H, K))``
    returns (..., H) or (..., H, m). With ``queries = I_K``, keys = basis evaluations and values
    = residuals, the linear output is ``-grad_c L`` (Thm 3).
    """

    def __init__(self, mode: str = "linear", tau: float = 1.0) -> None:
        super().__init__()
        if mode not in ("linear", "softmax"):
            raise ValueError(f"mode must be 'linear' or 'softmax', got {mode!r}")
        self.mode = mode
        self.tau = tau

    def logits(self, keys: Tensor, queries: Tensor) -> Tensor:
        """``s[..., h, i] = q_h^T K_i``."""
        return queries @ keys.transpose(-1, -2)

    def weights(self, keys: Tensor, queries: Tensor) -> Tensor:
        s = self.logits(keys, queries)
        return s if self.mode == "linear" else softmax_weights(s, self.tau)

    def forward(self, keys: Tensor, values: Tensor, queries: Tensor) -> Tensor:
        w = self.weights(keys, queries)
        if values.dim() == keys.dim() - 1:
            return (w @ values.unsqueeze(-1)).squeeze(-1)
        return w @ values


class MultiHeadAttentionGradient(nn.Module):
    """App. D (L686-718): H heads with queries the columns of ``Q in R^{K x H}``.

    ``forward(Phi, r)`` returns the head outputs (..., H): ``Q^T Phi^T r`` for linear heads
    (Thm 14), softmax outputs at temperature ``tau`` otherwise (Thm 16). ``readout`` applies
    ``R = (Q^T)^+`` (L730, L790-797).
    """

    def __init__(self, Q: Tensor, mode: str = "linear", tau: float = 1.0) -> None:
        super().__init__()
        self.register_buffer("Q", torch.as_tensor(Q))
        self.head = AttentionGradientHead(mode, tau)

    def forward(self, Phi: Tensor, r: Tensor) -> Tensor:
        return self.head(Phi, r, self.Q.transpose(0, 1))

    def readout_matrix(self) -> Tensor:
        """``R = (Q^T)^+`` (K x H)."""
        return torch.linalg.pinv(self.Q.transpose(0, 1))

    def readout(self, O: Tensor) -> Tensor:
        """``R O`` (the reconstructed preconditioned gradient, L730)."""
        return O @ self.readout_matrix().transpose(0, 1)


class ResidualKeyedHead(nn.Module):
    """App. C head for basis index k (L618-680), vector-valued ``Phi_k(x_i) in R^m``.

    Logits ``s_i = <Phi_k(x_i), r_i>``, values ``v_i = Phi_k(x_i)``.
    ``mode="linear"``: ``O~_k = sum_i s_i v_i`` (Thm 12 as *defined*, L622).
    ``mode="softmax"``: ``O_k(beta) = sum_i softmax_i(beta s_i) v_i`` (Thm 13, L648).

    ``forward(Phi_k (..., N, m), r (..., N, m))`` -> (..., m).
    """

    def __init__(self, mode: str = "linear", beta: float = 1.0) -> None:
        super().__init__()
        self.mode = mode
        self.beta = beta

    def forward(self, Phi_k: Tensor, r: Tensor) -> Tensor:
        s = (Phi_k * r).sum(-1)
        w = s if self.mode == "linear" else torch.softmax(self.beta * s, dim=-1)
        return (w.unsqueeze(-1) * Phi_k).sum(-2)


def softmax_first_order(logits: Tensor, values: Tensor, tau: float | Tensor) -> Tensor:
    """The first-order expansion of A.4.1 (L444-446):

    ``(1/N) sum_i V_i + (1/(N tau)) sum_i (s_i - s_bar) V_i`` for logits (..., H, N) and
    values (..., N).
    """
    N = logits.shape[-1]
    sc = logits - logits.mean(-1, keepdim=True)
    v = values.unsqueeze(-2)
    return v.sum(-1) / N + (sc * v).sum(-1) / (N * tau)


def random_sinusoid_problem(
    batch: int,
    N: int = 100,
    K: int = 50,
    d: int = 2,
    *,
    generator: torch.Generator,
    omega_scale: float = 3.0,
    noise: float = 0.1,
    centred: bool = False,
    dtype: torch.dtype = torch.float64,
) -> tuple[Tensor, Tensor, Tensor]:
    """A batch of Exp.-2-style problems (L209): ``f = sum_k c_k sin(omega_k^T x)``, no phases.

    ``x ~ U[-1, 1]^d``, ``omega_k ~ N(0, omega_scale^2 I)``, current coefficients
    ``c ~ N(0, 1/K)``, target ``y`` = a different random sinusoid field (20 terms) plus
    ``noise`` Gaussian noise. Returns ``Phi`` (batch, N, K), residuals ``r`` (batch, N)
    (mean-removed if ``centred``) and ``g = Phi^T r`` (batch, K). The paper leaves these
    distributions open; this is our stated setup.
    """
    x = 2 * torch.rand(batch, N, d, generator=generator, dtype=dtype, device=generator.device) - 1
    om = omega_scale * torch.randn(batch, K, d, generator=generator, dtype=dtype,
        device=generator.device)
    Phi = torch.sin(x @ om.transpose(-1, -2))
    c = torch.randn(batch, K, generator=generator, dtype=dtype, device=generator.device) / K**0.5
    om_t = omega_scale * torch.randn(batch, 20, d, generator=generator, dtype=dtype,
        device=generator.device)
    a_t = torch.randn(batch, 20, generator=generator, dtype=dtype,
        device=generator.device) / 20**0.5
    y = (torch.sin(x @ om_t.transpose(-1, -2)) * a_t.unsqueeze(-2)).sum(-1)
    y = y + noise * torch.randn(batch, N, generator=generator, dtype=dtype, device=generator.device)
    r = residual(Phi, y, c)
    if centred:
        r = r - r.mean(-1, keepdim=True)
    g = (Phi.transpose(-1, -2) @ r.unsqueeze(-1)).squeeze(-1)
    return Phi, r, g

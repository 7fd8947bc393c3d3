"""Content-based value routing (Sec. 9, Definition 9.1) and its instances.

Each mechanism maps inputs ``x (T, d)`` to routing weights ``w (T, T)`` and values ``v (T, d_v)``
with output ``o_i = sum_j w_ij v_j``:

* :class:`SoftmaxRouting` -- eqs. (45)-(47);
* :class:`SelectiveSSM` -- a Mamba-style selective state space, eqs. (48)-(50), scalar input
  channel, diagonal ``A < 0`` with an ``N``-dimensional state, ``Delta = softplus(linear(x))``,
  ``B, C`` linear in ``x``; its effective weight (L517) is
  ``w_ij = C_i (prod_{k=j+1}^i exp(A Delta_k)) Delta_j B_j`` (values ``v_j = x_j``);
* :class:`LSTMRouting` -- the cell state of an LSTM (eqs. (51)-(52)) unrolled as
  ``c_i = sum_{j<=i} (prod_{k=j+1}^i f_k) i_j c~_j`` (per channel).

:func:`def91_predicate` evaluates Def. 9.1 under the candidate formalisations of "depends on
the content of positions i and j" (Def. 9.1, L481-493; gda.crr.definition).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch
from torch import Tensor, nn


class SoftmaxRouting(nn.Module):
    """Softmax attention as a routing mechanism, eqs. (45)-(47) (d read as d_k)."""

    def __init__(
        self,
        d: int,
        d_k: int,
        d_v: int,
        *,
        causal: bool = False,
        generator=None,
        dtype=torch.float64,
    ):
        super().__init__()
        self.W_Q = nn.Parameter(torch.randn(d_k, d, generator=generator, dtype=dtype,
            device=None if generator is None else generator.device))
        self.W_K = nn.Parameter(torch.randn(d_k, d, generator=generator, dtype=dtype,
            device=None if generator is None else generator.device))
        self.W_V = nn.Parameter(torch.randn(d_v, d, generator=generator, dtype=dtype,
            device=None if generator is None else generator.device))
        self.causal = causal

    def weights(self, x: Tensor) -> Tensor:
        s = (x @ self.W_Q.T) @ (x @ self.W_K.T).T / math.sqrt(self.W_Q.shape[0])
        if self.causal:
            s = s.masked_fill(~torch.ones_like(s, dtype=torch.bool).tril(), float("-inf"))
        return torch.softmax(s, -1)  # (45)

    def values(self, x: Tensor) -> Tensor:
        return x @ self.W_V.T  # (46)

    def forward(self, x: Tensor) -> Tensor:
        return self.weights(x) @ self.values(x)  # (47)


class SelectiveSSM(nn.Module):
    """Mamba-style selective SSM on a scalar channel, eqs. (48)-(50).

    ``x (T, 1)``; ``Delta_t = softplus(a x_t + c)``, ``B_t = W_B x_t``, ``C_t = W_C x_t``
    (``N``-dim); ``h_t = exp(A Delta_t) h_{t-1} + Delta_t B_t x_t`` (49), ``o_t = C_t . h_t``
    (50), ``h_0 = 0``.
    """

    def __init__(self, N: int = 2, *, generator=None, dtype=torch.float64):
        super().__init__()
        self.A = nn.Parameter(-torch.rand(N, generator=generator, dtype=dtype,
            device=None if generator is None else generator.device) - 0.1)
        self.a = nn.Parameter(torch.randn(1, generator=generator, dtype=dtype,
            device=None if generator is None else generator.device))
        self.c = nn.Parameter(torch.randn(1, generator=generator, dtype=dtype,
            device=None if generator is None else generator.device))
        self.W_B = nn.Parameter(torch.randn(N, generator=generator, dtype=dtype,
            device=None if generator is None else generator.device))
        self.W_C = nn.Parameter(torch.randn(N, generator=generator, dtype=dtype,
            device=None if generator is None else generator.device))

    def params(self, x: Tensor):
        delta = nn.functional.softplus(self.a * x[:, 0] + self.c)  # (48)
        B = x[:, :1] * self.W_B
        C = x[:, :1] * self.W_C
        return delta, B, C

    def forward(self, x: Tensor) -> Tensor:
        delta, B, C = self.params(x)
        h = torch.zeros_like(self.A)
        out = []
        for t in range(x.shape[0]):
            h = torch.exp(self.A * delta[t]) * h + delta[t] * B[t] * x[t, 0]  # (49)
            out.append((C[t] * h).sum())  # (50)
        return torch.stack(out).unsqueeze(-1)

    def weights(self, x: Tensor) -> Tensor:
        """Effective routing weights of L517 (values v_j = x_j); zero for j > i."""
        delta, B, C = self.params(x)
        T = x.shape[0]
        logdecay = torch.cumsum(self.A[None, :] * delta[:, None], 0)  # sum_{k<=t} A Delta_k
        w = torch.zeros(T, T, dtype=x.dtype, device=x.device)
        for i in range(T):
            for j in range(i + 1):
                prod = torch.exp(logdecay[i] - logdecay[j])  # prod_{k=j+1}^i exp(A Delta_k)
                w[i, j] = (C[i] * prod * delta[j] * B[j]).sum()
        return w

    def values(self, x: Tensor) -> Tensor:
        return x


class LSTMRouting(nn.Module):
    """Cell-state routing of an LSTM (eqs. (51)-(52)) for one channel, unrolled.

    ``c_t = f_t c_{t-1} + i_t c~_t`` gives ``c_i = sum_{j<=i} (prod_{k=j+1}^i f_k) i_j c~_j``; the
    routing weight is ``w_ij = (prod f) i_j`` and the value ``c~_j = tanh(W_c [h_{j-1}, x_j])``.
    """

    def __init__(self, d: int = 1, hidden: int = 1, *, generator=None, dtype=torch.float64):
        super().__init__()
        device = None if generator is None else generator.device
        self.cell = nn.LSTMCell(d, hidden, dtype=dtype, device=device)
        with torch.no_grad():
            for p in self.cell.parameters():
                p.copy_(torch.randn(p.shape, generator=generator, dtype=dtype, device=device))

    def _run(self, x: Tensor):
        H = self.cell.hidden_size
        h = torch.zeros(1, H, dtype=x.dtype, device=x.device)
        c = torch.zeros(1, H, dtype=x.dtype, device=x.device)
        fs, is_, cts = [], [], []
        for t in range(x.shape[0]):
            gates = (
                x[t : t + 1] @ self.cell.weight_ih.T
                + self.cell.bias_ih
                + h @ self.cell.weight_hh.T
                + self.cell.bias_hh
            )
            i, f, g, o = gates.chunk(4, 1)
            i, f, g, o = torch.sigmoid(i), torch.sigmoid(f), torch.tanh(g), torch.sigmoid(o)
            c = f * c + i * g
            h = o * torch.tanh(c)
            fs.append(f[0, 0])
            is_.append(i[0, 0])
            cts.append(g[0, 0])
        return torch.stack(fs), torch.stack(is_), torch.stack(cts)

    def weights(self, x: Tensor) -> Tensor:
        f, i, _ = self._run(x)
        T = x.shape[0]
        w = torch.zeros(T, T, dtype=x.dtype, device=x.device)
        for a in range(T):
            for b in range(a + 1):
                w[a, b] = torch.prod(f[b + 1 : a + 1]) * i[b]
        return w

    def values(self, x: Tensor) -> Tensor:
        return self._run(x)[2].unsqueeze(-1)


@dataclass
class Def91Report:
    entries_in_01: bool
    rows_sum_to_1: bool
    row_sum_range: tuple[float, float]
    entry_range: tuple[float, float]
    depends_on_xj: bool  # (a)
    depends_on_xi_and_xj: bool  # (b)
    joint_nonseparable: bool  # (c): log w_ij not additively separable in (x_i, x_j)

    def as_dict(self) -> dict:
        return dict(self.__dict__)


def def91_predicate(mech, x: Tensor, *, tol: float = 1e-9) -> Def91Report:
    """Def. 9.1 on one input: ranges, row sums, and content dependence (a), (b), (c).

    (a)/(b): Jacobian of ``w_ij`` w.r.t. ``x_j`` (and ``x_i``) non-zero for some ``i > j``.
    (c): mixed second derivative ``d^2 log|w_ij| / dx_i dx_j`` non-zero for some pair, i.e. the
    weight is not a product of a function of ``x_i`` and one of ``x_j`` (given the other positions).
    """
    T = x.shape[0]
    w = mech.weights(x).detach()
    mask = torch.ones(T, T, dtype=torch.bool, device=w.device).tril()
    vis = w[mask]
    rs = w.sum(-1)
    J = torch.autograd.functional.jacobian(mech.weights, x)  # (T, T, T, d)
    dep_j = any(J[i, j, j].abs().max() > tol for i in range(T) for j in range(i))
    dep_ij = any(
        J[i, j, j].abs().max() > tol and J[i, j, i].abs().max() > tol
        for i in range(T)
        for j in range(i)
    )

    def logw(xx: Tensor, i: int, j: int) -> float:
        return float(torch.log(mech.weights(xx)[i, j].abs().clamp_min(1e-300)))

    # mixed second difference of log|w_ij| in (x_i, x_j) (first input coordinate), a few pairs
    h = 1e-3
    mixed = False
    for i, j in {(T - 1, 0), (T - 1, T - 2), (min(2, T - 1), min(1, T - 2))}:
        if j >= i:
            continue
        ei = torch.zeros_like(x)
        ej = torch.zeros_like(x)
        ei[i, 0], ej[j, 0] = h, h
        with torch.no_grad():
            m2 = (
                logw(x + ei + ej, i, j) - logw(x + ei, i, j) - logw(x + ej, i, j) + logw(x, i, j)
            ) / h**2
        mixed |= abs(m2) > 1e-4
    return Def91Report(
        bool((vis >= -tol).all() and (vis <= 1 + tol).all()),
        bool(((rs - 1).abs() < 1e-9).all()),
        (float(rs.min()), float(rs.max())),
        (float(vis.min()), float(vis.max())),
        bool(dep_j),
        bool(dep_ij),
        bool(mixed),
    )

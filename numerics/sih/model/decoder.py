"""The Layer-1 ReLU decoder of Lemma E.4 (Def. E.3 L1415-1428, Lemma E.4 L1434-1454).

``b_j(z) = (1/eta)[s(z - v_j + 2 eta) - s(z - v_j + eta) - s(z - v_j - eta) + s(z - v_j - 2 eta)]``,
``eta = delta/4``, ``s = ReLU``: hidden width ``4n``, and an output layer of ``+-1/eta`` (an ``n x
4n`` matrix, not the ``n x n`` identity the proof names).
"""

from __future__ import annotations

import torch
from torch import nn


class BumpDecoder(nn.Module):
    """Two-layer ReLU MLP ``R -> R^n`` of Lemma E.4: plateau 1 on ``|z - v_j| < eta``, 0 beyond ``2
    eta``."""

    def __init__(self, values: torch.Tensor, delta: float | None = None) -> None:
        super().__init__()
        v = torch.as_tensor(values, dtype=torch.float64).flatten()
        gaps = v.sort().values.diff()
        self.delta = float(gaps.min()) if delta is None else float(delta)
        eta = self.delta / 4
        self.eta = eta
        n = v.numel()
        on = {"dtype": torch.float64, "device": v.device}  # the device of the values it decodes
        shifts = torch.tensor([2 * eta, eta, -eta, -2 * eta], **on)
        self.hidden = nn.Linear(1, 4 * n, **on)
        self.out = nn.Linear(4 * n, n, bias=False, **on)
        with torch.no_grad():
            self.hidden.weight.fill_(1.0)
            self.hidden.bias.copy_((-v[:, None] + shifts[None, :]).flatten())
            W = torch.zeros(n, 4 * n, **on)
            for j in range(n):
                W[j, 4 * j : 4 * j + 4] = torch.tensor([1.0, -1.0, -1.0, 1.0], **on) / eta
            self.out.weight.copy_(W)

    @property
    def width(self) -> int:
        return self.hidden.out_features

    def forward(self, z: torch.Tensor) -> torch.Tensor:
        return self.out(torch.relu(self.hidden(z.reshape(-1, 1).to(torch.float64))))

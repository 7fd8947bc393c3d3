"""Neural tangent kernels for App. A.5 (L269-291, eqs. (25)-(29)).

* :func:`relu_ntk`: the infinite-width NTK of a fully connected ReLU MLP in NTK parameterisation
  (``sigma_w^2 = 2``, optional bias variance), by the arc-cosine recursion.
* :class:`MLP` and :func:`empirical_ntk`: the finite-width network of D.2 (ReLU, width ``w``) and
  its NTK ``J J^T`` (``torch.func``), under Gaussian (NTK) or PyTorch-default initialisation.
* :func:`kernel_predictor`: eq. (28), ``f_t(X_test) = Y (I - e^{-eta K t}) K^{-1} K_test``
  (reading A, as printed) and the full linearised dynamics with the initial function (reading B).
"""

from __future__ import annotations

import math

import torch
from torch import nn


def relu_ntk(U: torch.Tensor, V: torch.Tensor, depth: int = 3, sigma_b2: float = 0.0) -> torch.Tensor:
    """``Theta(u_i, v_j)`` for inputs ``U (n, d)``, ``V (m, d)`` and ``depth`` hidden ReLU layers."""
    d = U.shape[1]
    sUV = U @ V.T / d + sigma_b2
    sUU = (U * U).sum(1) / d + sigma_b2
    sVV = (V * V).sum(1) / d + sigma_b2
    theta = sUV.clone()
    for _ in range(depth):
        norm = torch.sqrt(sUU[:, None] * sVV[None, :])
        cos = torch.clamp(sUV / norm, -1.0, 1.0)
        th = torch.arccos(cos)
        new = norm / math.pi * (torch.sin(th) + (math.pi - th) * cos) + sigma_b2
        dot = (math.pi - th) / math.pi
        theta = theta * dot + new
        sUV = new
        sUU = sUU + sigma_b2  # diagonal: Sigma(u,u) stays |u|^2/d under sigma_w^2 = 2 (plus bias)
        sVV = sVV + sigma_b2
    return theta


class MLP(nn.Module):
    """The MLP of D.2 (L335): ``in -> w -> ... -> w -> out`` with ReLU, ``hidden`` hidden layers."""

    def __init__(self, d_in: int, d_out: int, width: int = 128, hidden: int = 3, init: str = "default",
                 generator: torch.Generator | None = None, dtype: torch.dtype = torch.float32) -> None:
        super().__init__()
        dims = [d_in] + [width] * hidden + [d_out]
        self.layers = nn.ModuleList(nn.Linear(a, b, dtype=dtype) for a, b in zip(dims[:-1], dims[1:], strict=False))
        with torch.no_grad():
            for lin in self.layers:
                if init == "gaussian":  # NTK-style: W ~ N(0, 2 / fan_in), b = 0
                    lin.weight.copy_(torch.randn(lin.weight.shape, generator=generator, dtype=dtype)
                                     * math.sqrt(2.0 / lin.in_features))
                    lin.bias.zero_()
                else:  # PyTorch default (Kaiming-uniform), drawn from the generator
                    bound = 1 / math.sqrt(lin.in_features)
                    lin.weight.copy_((2 * torch.rand(lin.weight.shape, generator=generator, dtype=dtype) - 1) * bound)
                    lin.bias.copy_((2 * torch.rand(lin.bias.shape, generator=generator, dtype=dtype) - 1) * bound)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for lin in self.layers[:-1]:
            x = torch.relu(lin(x))
        return self.layers[-1](x)


def empirical_ntk(model: nn.Module, X: torch.Tensor) -> torch.Tensor:
    """``K_ij = <d f(x_i)/d theta, d f(x_j)/d theta>`` for the first output of ``model``."""
    params = {k: v.detach() for k, v in model.named_parameters()}

    def f(p, x):
        return torch.func.functional_call(model, p, (x[None],))[0, 0]

    J = torch.func.vmap(torch.func.jacrev(f), (None, 0))(params, X)
    flat = torch.cat([j.reshape(X.shape[0], -1) for j in J.values()], 1)
    return flat @ flat.T


def kernel_predictor(K: torch.Tensor, Ktest: torch.Tensor, Y: torch.Tensor, eta_t: float,
                     f0_train: torch.Tensor | None = None, f0_test: torch.Tensor | None = None) -> torch.Tensor:
    """Eq. (28): ``Y (I - e^{-eta t K}) K^{-1} K_test`` (``Y`` is ``d' x n``); with ``f0_*`` given, the full
    linearised dynamics of Lee et al. (2019): ``f0_test + (Y - f0_train)(I - e^{-eta t K}) K^{-1} K_test``."""
    w, Q = torch.linalg.eigh(K)
    M = Q @ torch.diag((1 - torch.exp(-eta_t * w)) / w) @ Q.T
    if f0_train is None:
        return Y @ M @ Ktest
    return f0_test + (Y - f0_train) @ M @ Ktest

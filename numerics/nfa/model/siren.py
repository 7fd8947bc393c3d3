"""SIREN neural fields as used in the experiments of "Neural Fields Meet Attention" (nfa).

Architecture and initialisation follow the paper's Appendix H:

* Table 3 (L835-838): ``input_dim`` 2 (2-D) / 3 (3-D), ``hidden_dim`` 64 (ablation 32),
  ``output_dim`` 1, ``num_layers`` 3 (ablation 2), ``omega_0 = 30`` ("first-layer scale"),
  first-layer init ``Uniform[-1/2, 1/2]``, subsequent init
  ``Uniform[-sqrt(6/fan_in)/30, +sqrt(6/fan_in)/30]``.
* Table 4 (L845): "Multiply normalized coordinates by omega_0 = 30 before first activation".
* Table 6 (L869-870): SIREN input 2 / 3, hidden 64, layers 3, omega_0 = 30 (2-D / 3-D rotation).
* Sec. 4.1 (L188): "SIREN fields (omega_0 = 30, 3 layers, 64 units)".

Choices the paper leaves open (stated here, used everywhere in ``numerics/nfa``):

* ``num_layers`` counts every affine layer, the last (linear) output layer included:
  3 layers = ``in -> h`` (sine), ``h -> h`` (sine), ``h -> out`` (linear).
* ``omega_0`` multiplies the coordinates before the first layer, ``sin(W (omega_0 x) + b)``
  (Table 4, L845, as printed; Table 3 calls it the *first-layer* scale). Hidden sine layers
  use ``hidden_omega = 1`` by default; ``hidden_omega = 30`` gives the original SIREN
  (Sitzmann et al. 2020), whose ``sqrt(6/fan_in)/30`` init is designed for it.
* Biases are not given in Table 3: ``Uniform[-1/sqrt(fan_in), 1/sqrt(fan_in)]``
  (the ``torch.nn.Linear`` default, as in the SIREN reference code).
* Note: ``Uniform[-1/2, 1/2]`` equals SIREN's ``Uniform[-1/fan_in, 1/fan_in]`` only for
  ``fan_in = 2``; Table 3 prints the same value for the 3-D experiments (kept as printed).

The module can be evaluated with its own weights (``forward(x)``) or functionally with a
flat parameter vector per field (``forward(x, theta)``), which is how an operator
(hypernetwork) that outputs SIREN parameters ``theta`` is evaluated; ``theta`` may carry
batch dimensions matching those of ``x``.
"""

from __future__ import annotations

import math

import torch
from torch import Tensor, nn

__all__ = ["Siren", "SirenField", "siren_param_count"]


def siren_param_count(in_dim: int, hidden: int = 64, num_layers: int = 3, out_dim: int = 1) -> int:
    """Number of scalars in a SIREN with these sizes (weights and biases)."""
    dims = [in_dim] + [hidden] * (num_layers - 1) + [out_dim]
    return sum(dims[i] * dims[i + 1] + dims[i + 1] for i in range(len(dims) - 1))


class Siren(nn.Module):
    """A SIREN field ``R^d -> R^out`` with the Table 3 initialisation (see module docstring).

    Args:
        in_dim: coordinate dimension (2 or 3 in the paper).
        hidden: hidden width (64; ablation 32).
        num_layers: affine layers including the linear output layer (3; ablation 2).
        out_dim: output channels (1).
        omega_0: first-layer frequency scale (30).
        hidden_omega: frequency scale of hidden sine layers (1 as printed; 30 = original SIREN).
        generator: torch generator for the initialisation (never global RNG state).
        dtype: parameter dtype.
    """

    def __init__(
        self,
        in_dim: int = 2,
        hidden: int = 64,
        num_layers: int = 3,
        out_dim: int = 1,
        *,
        omega_0: float = 30.0,
        hidden_omega: float = 1.0,
        generator: torch.Generator | None = None,
        dtype: torch.dtype = torch.float64,
    ) -> None:
        super().__init__()
        if num_layers < 2:
            raise ValueError("num_layers must be >= 2 (one sine layer and the output layer)")
        self.in_dim, self.hidden, self.num_layers, self.out_dim = (
            in_dim,
            hidden,
            num_layers,
            out_dim,
        )
        self.omega_0, self.hidden_omega = float(omega_0), float(hidden_omega)
        self.dims = [in_dim] + [hidden] * (num_layers - 1) + [out_dim]
        self.layers = nn.ModuleList(
            nn.Linear(self.dims[i], self.dims[i + 1], dtype=dtype) for i in range(num_layers)
        )
        self.reset_parameters(generator)

    # -- initialisation (Table 3) ----------------------------------------------------------
    @torch.no_grad()
    def reset_parameters(self, generator: torch.Generator | None = None) -> None:
        """Table 3: first layer ``U[-1/2, 1/2]``, later ``U[+-sqrt(6/fan_in)/30]``; biases
        ``U[+-1/sqrt(fan_in)]`` (not in the table; torch.nn.Linear default)."""
        for i, lin in enumerate(self.layers):
            fan_in = lin.in_features
            bound = 0.5 if i == 0 else math.sqrt(6.0 / fan_in) / 30.0
            _uniform_(lin.weight, bound, generator)
            _uniform_(lin.bias, 1.0 / math.sqrt(fan_in), generator)

    # -- flat parameter vectors ------------------------------------------------------------
    @property
    def num_params(self) -> int:
        return siren_param_count(self.in_dim, self.hidden, self.num_layers, self.out_dim)

    def flat_params(self) -> Tensor:
        """This module's own parameters as one flat vector (the ``theta`` layout)."""
        return torch.cat([t.reshape(-1) for lin in self.layers for t in (lin.weight, lin.bias)])

    def unflatten(self, theta: Tensor) -> list[tuple[Tensor, Tensor]]:
        """Split ``theta`` (..., P) into per-layer ``(W (..., out, in), b (..., out))``."""
        if theta.shape[-1] != self.num_params:
            raise ValueError(f"theta has {theta.shape[-1]} entries, SIREN needs {self.num_params}")
        out, k = [], 0
        batch = theta.shape[:-1]
        for i in range(self.num_layers):
            n_in, n_out = self.dims[i], self.dims[i + 1]
            W = theta[..., k : k + n_in * n_out].reshape(*batch, n_out, n_in)
            k += n_in * n_out
            b = theta[..., k : k + n_out]
            k += n_out
            out.append((W, b))
        return out

    # -- evaluation ------------------------------------------------------------------------
    def forward(self, x: Tensor, theta: Tensor | None = None) -> Tensor:
        """Field values at points ``x`` (..., M, d) -> (..., M, out).

        With ``theta`` (..., P), the field with those parameters (batch dims broadcast with
        those of ``x``); otherwise this module's own weights.
        """
        if theta is None:
            params = [(lin.weight, lin.bias) for lin in self.layers]
        else:
            params = self.unflatten(theta)
        h = self.omega_0 * x  # Table 4 (L845): coordinates times omega_0 before the first sine
        for i, (W, b) in enumerate(params):
            z = torch.einsum("...oi,...mi->...mo", W, h) + b.unsqueeze(-2)
            if i == self.num_layers - 1:
                h = z
            elif i == 0:
                h = torch.sin(z)
            else:
                h = torch.sin(self.hidden_omega * z)
        return h


def _uniform_(t: Tensor, bound: float, generator: torch.Generator | None) -> None:
    u = torch.rand(t.shape, generator=generator, dtype=t.dtype, device=t.device)
    t.copy_((2.0 * u - 1.0) * bound)


class SirenField(nn.Module):
    """A SIREN as a *field decoder* for an operator:
    ``forward(theta (..., P), x (..., M, d)) -> (..., M)``.

    This is the decoder interface of :mod:`numerics.nfa.model.field_operator` (``num_params`` and
    ``__call__(theta, x)``). With ``residual=True`` (default) the operator's output is an offset
    to a fixed Table 3 initialisation, ``theta_full = theta_0 + theta`` (a hypernetwork that
    predicts weight *updates* from a SIREN at its Table 3 init -- our stated choice; the paper
    does not say how the operator's output parametrises the SIREN). With ``residual=False``
    ``theta`` is the SIREN's parameter vector itself.
    """

    def __init__(
        self,
        in_dim: int = 2,
        hidden: int = 64,
        num_layers: int = 3,
        *,
        omega_0: float = 30.0,
        hidden_omega: float = 1.0,
        residual: bool = True,
        generator: torch.Generator | None = None,
        dtype: torch.dtype = torch.float64,
    ) -> None:
        super().__init__()
        self.siren = Siren(
            in_dim,
            hidden,
            num_layers,
            1,
            omega_0=omega_0,
            hidden_omega=hidden_omega,
            generator=generator,
            dtype=dtype,
        )
        self.residual = residual
        self.register_buffer("theta0", self.siren.flat_params().detach().clone())

    @property
    def num_params(self) -> int:
        return self.siren.num_params

    def forward(self, theta: Tensor, x: Tensor) -> Tensor:
        full = theta + self.theta0.to(theta.dtype) if self.residual else theta
        return self.siren(x, full)[..., 0]

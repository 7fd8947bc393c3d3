"""Gradient-descent dynamics of the head, in both parameterisations (free variables, params).

* View (F), free per-position variables: ``S`` and ``V`` are the variables and gradient
  descent acts on them directly, eqs. (33)-(34): ``Delta v_j = -eta dL/dv_j``,
  ``Delta s_ik = -eta dL/ds_ik``.
* View (P), parameters: only ``W_Q, W_K, W_V, W_O, b_O`` are trainable (every experiment of
  Sec. 7); a step ``Delta W = -eta grad_W L`` induces changes of ``q, k, s, alpha, v``.

For each view this module gives the exact first-order change (a Jacobian-vector product) and
the exact finite-``eta`` change (a recomputed forward pass), so a one-step claim can be tested
both ways. All functions are batched over leading dimensions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import torch
from torch import Tensor

from .attention_head import HeadTrace, closed_form_grads, free_forward, head_forward

__all__ = [
    "PARAM_NAMES",
    "FreeState",
    "Changes",
    "free_first_order",
    "free_step",
    "param_grads",
    "param_step",
    "param_first_order",
    "param_finite",
]

PARAM_NAMES: tuple[str, ...] = ("W_Q", "W_K", "W_V", "W_O", "b_O")


@dataclass
class FreeState:
    """A view-(F) state: free scores and values, with a fixed CE head."""

    S: Tensor
    V: Tensor
    W_O: Tensor
    b_O: Tensor
    y: Tensor
    mask: Tensor | None = None
    reduction: str = "sum"

    def trace(self) -> HeadTrace:
        return free_forward(
            self.S, self.V, self.W_O, self.b_O, self.y, mask=self.mask, reduction=self.reduction
        )


@dataclass
class Changes:
    """Changes of the tracked quantities after one step (first-order rates, or finite deltas)."""

    S: Tensor
    A: Tensor
    V: Tensor
    per_position: Tensor
    Q: Tensor | None = None
    K: Tensor | None = None


def free_first_order(st: FreeState, update: Sequence[str] = ("S", "V")) -> Changes:
    """First-order rates ``d(.)/d eta`` at ``eta = 0`` of a view-(F) step (eqs. (33)-(34)).

    ``dS/deta = -dL/dS`` (34), ``dV/deta = -ubar`` (33); ``dA/deta`` composes the softmax
    Jacobian (18); the per-position loss rate is from autograd's JVP (exact).
    """
    tr = st.trace()
    g = closed_form_grads(tr)
    dS = -g.dS if "S" in update else torch.zeros_like(st.S)
    dV = -g.dV if "V" in update else torch.zeros_like(st.V)

    def f(S: Tensor, V: Tensor):
        t = free_forward(S, V, st.W_O, st.b_O, st.y, mask=st.mask, reduction=st.reduction)
        return t.A, t.per_position

    S0 = st.S if st.mask is None else st.S.masked_fill(~st.mask, 0.0)
    dS = dS if st.mask is None else dS.masked_fill(~st.mask, 0.0)
    (_, _), (dA, dper) = torch.func.jvp(f, (S0, st.V), (dS, dV))
    return Changes(S=dS, A=dA, V=dV, per_position=dper)


def free_step(st: FreeState, eta: float, update: Sequence[str] = ("S", "V")) -> FreeState:
    """One exact gradient-descent step on the free variables (eqs. (33)-(34))."""
    g = closed_form_grads(st.trace())
    S = st.S - eta * g.dS if "S" in update else st.S
    V = st.V - eta * g.dV if "V" in update else st.V
    return FreeState(S, V, st.W_O, st.b_O, st.y, st.mask, st.reduction)


def param_grads(
    params: Mapping[str, Tensor],
    X: Tensor,
    y: Tensor,
    *,
    causal: bool = False,
    reduction: str = "sum",
) -> dict[str, Tensor]:
    """``grad_W L`` for every parameter by torch autograd (summed over the batch's instances)."""
    leaves = {k: v.detach().clone().requires_grad_(True) for k, v in params.items()}
    tr = head_forward(X, *(leaves[k] for k in PARAM_NAMES), y, causal=causal, reduction=reduction)
    grads = torch.autograd.grad(tr.loss.sum(), [leaves[k] for k in PARAM_NAMES])
    return dict(zip(PARAM_NAMES, grads, strict=True))


def param_step(
    params: Mapping[str, Tensor], grads: Mapping[str, Tensor], lrs: Mapping[str, float] | float
) -> dict[str, Tensor]:
    """``W <- W - eta_W grad_W`` with one rate or one rate per parameter group (0 freezes)."""
    out = {}
    for k, v in params.items():
        lr = lrs if isinstance(lrs, (int, float)) else lrs.get(k, 0.0)
        out[k] = v - lr * grads[k]
    return out


def _fwd(
    params: Mapping[str, Tensor], X: Tensor, y: Tensor, causal: bool, reduction: str
) -> HeadTrace:
    return head_forward(X, *(params[k] for k in PARAM_NAMES), y, causal=causal, reduction=reduction)


def param_first_order(
    params: Mapping[str, Tensor],
    X: Tensor,
    y: Tensor,
    direction: Mapping[str, Tensor],
    *,
    causal: bool = False,
    reduction: str = "sum",
) -> Changes:
    """Exact first-order changes of ``S, A, V, Q, K, L_i`` along a parameter direction (JVP).

    With ``direction = -grad`` (optionally scaled per group) these are the induced rates
    ``d(.)/d eta`` of a view-(P) gradient step at ``eta = 0``.
    """
    names = list(PARAM_NAMES)

    def f(*ps: Tensor):
        t = _fwd(dict(zip(names, ps, strict=True)), X, y, causal, reduction)
        return t.S, t.A, t.V, t.Q, t.K, t.per_position

    prim = tuple(params[k] for k in names)
    tang = tuple(direction.get(k, torch.zeros_like(params[k])) for k in names)
    _, (dS, dA, dV, dQ, dK, dper) = torch.func.jvp(f, prim, tang)
    return Changes(S=dS, A=dA, V=dV, per_position=dper, Q=dQ, K=dK)


def param_finite(
    params: Mapping[str, Tensor],
    X: Tensor,
    y: Tensor,
    direction: Mapping[str, Tensor],
    eta: float,
    *,
    causal: bool = False,
    reduction: str = "sum",
) -> Changes:
    """Exact finite changes ``(.)(theta + eta d) - (.)(theta)`` (forward pass recomputed)."""
    t0 = _fwd(params, X, y, causal, reduction)
    new = {k: params[k] + eta * direction.get(k, torch.zeros_like(params[k])) for k in PARAM_NAMES}
    t1 = _fwd(new, X, y, causal, reduction)
    S0 = t0.S if t0.mask is None else t0.S.masked_fill(~t0.mask, 0.0)
    S1 = t1.S if t1.mask is None else t1.S.masked_fill(~t1.mask, 0.0)
    return Changes(
        S=S1 - S0,
        A=t1.A - t0.A,
        V=t1.V - t0.V,
        per_position=t1.per_position - t0.per_position,
        Q=t1.Q - t0.Q,
        K=t1.K - t0.K,
    )

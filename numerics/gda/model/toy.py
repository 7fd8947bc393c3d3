"""The toy attention simulation of Sec. 7.1 (T=5, d_x=3, d_k=2, d_v=2, C=3, ~100 steps).

The paper leaves open the init std, learning rate, whether the updates act on free values
(view F) or on W_V (view P), whether "EM steps" alternate (Sec. 5.3) or are simultaneous,
and the loss reduction (L374-383, L404). :func:`run_toy` runs one setting of the
:func:`grid` over those choices for many seeds at once (seeds on the leading dimension), with
the paper's closed-form gradients, and logs per step: loss, mean row entropy and max of alpha,
values.

* view F: the variables are free scores ``S``, values ``V`` (initialised from the head) and
  the head ``W_O, b_O``;
* view P: the variables are ``W_Q, W_K, W_V, W_O, b_O``;
* ``schedule="sim"``: one forward/backward, all variables updated together;
  ``schedule="alt"``: Sec. 5.3 -- (2) value step with routing frozen, fresh forward pass,
  (3) routing / head step (``S`` or ``W_Q, W_K``, and ``W_O, b_O``);
* ``freeze_attention=True``: the ablation of gda.exp.toy.loss_decays (attention kept at init).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import torch

from verify.memo import persistent

from .attention_head import closed_form_grads, free_forward, head_forward, row_entropy
from .dynamics import PARAM_NAMES


@dataclass(frozen=True)
class ToySetting:
    init_std: float = 0.1
    lr: float = 0.1
    view: str = "P"  # F | P
    schedule: str = "sim"  # sim | alt
    reduction: str = "sum"
    freeze_attention: bool = False
    T: int = 5
    d_x: int = 3
    d_k: int = 2
    d_v: int = 2
    C: int = 3
    steps: int = 100


@dataclass
class ToyLog:
    loss: np.ndarray  # (seeds, steps+1)
    entropy: np.ndarray  # mean row entropy of alpha (nats)
    maxalpha: np.ndarray
    V: np.ndarray  # (seeds, steps+1, T, d_v)
    A: np.ndarray  # (seeds, steps+1, T, T)
    diverged: np.ndarray  # (seeds,) bool


def run_toy(st: ToySetting, n_seeds: int, seed: int) -> ToyLog:
    g = torch.Generator().manual_seed(seed)
    n = n_seeds

    def r(*shape):
        return torch.randn(n, *shape, generator=g, dtype=torch.float64, device=g.device)

    p = {
        "W_Q": r(st.d_k, st.d_x) * st.init_std,
        "W_K": r(st.d_k, st.d_x) * st.init_std,
        "W_V": r(st.d_v, st.d_x) * st.init_std,
        "W_O": r(st.C, st.d_v) * st.init_std,
        "b_O": torch.zeros(n, st.C, dtype=torch.float64),
    }
    X = r(st.T, st.d_x)
    y = torch.randint(0, st.C, (n, st.T), generator=g, device=g.device)
    tr0 = head_forward(X, *(p[k] for k in PARAM_NAMES), y, reduction=st.reduction)
    S, V = tr0.S.clone(), tr0.V.clone()
    L, H, M, Vs, As = [], [], [], [], []
    lr = st.lr

    def fwd():
        if st.view == "F":
            return free_forward(S, V, p["W_O"], p["b_O"], y, reduction=st.reduction, d_k=st.d_k)
        return head_forward(X, *(p[k] for k in PARAM_NAMES), y, reduction=st.reduction)

    with torch.no_grad():
        for step in range(st.steps + 1):
            tr = fwd()
            L.append(tr.loss.clone())
            H.append(row_entropy(tr.A).mean(-1))
            M.append(tr.A.amax(-1).mean(-1))
            Vs.append(tr.V.clone())
            As.append(tr.A.clone())
            if step == st.steps:
                break
            cf = closed_form_grads(tr)
            route = not st.freeze_attention
            if st.schedule == "sim":
                if st.view == "F":
                    S = S - lr * cf.dS if route else S
                    V = V - lr * cf.dV
                else:
                    for k, gk in (("W_Q", cf.dW_Q), ("W_K", cf.dW_K), ("W_V", cf.dW_V)):
                        if k == "W_V" or route:
                            p[k] = p[k] - lr * gk
                p["W_O"] = p["W_O"] - lr * cf.dW_O
                p["b_O"] = p["b_O"] - lr * cf.db_O
            else:  # Sec. 5.3: (2) value step, (1) fresh forward, (3) routing/head step
                if st.view == "F":
                    V = V - lr * cf.dV
                else:
                    p["W_V"] = p["W_V"] - lr * cf.dW_V
                cf = closed_form_grads(fwd())
                if st.view == "F":
                    S = S - lr * cf.dS if route else S
                elif route:
                    p["W_Q"] = p["W_Q"] - lr * cf.dW_Q
                    p["W_K"] = p["W_K"] - lr * cf.dW_K
                p["W_O"] = p["W_O"] - lr * cf.dW_O
                p["b_O"] = p["b_O"] - lr * cf.db_O
    loss = torch.stack(L, 1).cpu().numpy()
    div = ~np.isfinite(loss).all(1)
    return ToyLog(
        loss,
        torch.stack(H, 1).cpu().numpy(),
        torch.stack(M, 1).cpu().numpy(),
        torch.stack(Vs, 1).cpu().numpy(),
        torch.stack(As, 1).cpu().numpy(),
        div,
    )


def grid() -> list[ToySetting]:
    """Every combination of the choices the paper leaves open (L374-383): init std, learning
    rate, view, schedule and reduction. The same 128 settings in every profile (the toy is
    small enough), so a verdict over the grid cannot change with the profile."""
    return [
        ToySetting(init_std=s, lr=lr, view=v, schedule=sc, reduction=red)
        for s in (0.01, 0.1, 0.3, 1.0)
        for lr in (0.01, 0.1, 0.5, 1.0)
        for v in ("F", "P")
        for sc in ("sim", "alt")
        for red in ("sum", "mean")
    ]


def label(st: ToySetting) -> str:
    """A setting's name in reports: ``std=..,lr=..,view,schedule,reduction``."""
    return f"std={st.init_std},lr={st.lr},{st.view},{st.schedule},{st.reduction}"


@persistent(memo=512)
def cached_toy(st: ToySetting, n_seeds: int, seed: int) -> ToyLog:
    """:func:`run_toy`, memoised on disk (:mod:`verify.memo`): shared across claims and runs."""
    return run_toy(st, n_seeds, seed)


@persistent(memo=2)
def grid_logs(seed: int, n_seeds: int = 20) -> list[tuple[ToySetting, ToyLog]]:
    """Every setting of :func:`grid` with its runs (``n_seeds`` seeds from ``seed``)."""
    return [(st, cached_toy(st, n_seeds, seed)) for st in grid()]


def diverged(lg: ToyLog) -> np.ndarray:
    """Per seed: the run diverged (non-finite) or ended at more than 10x its initial loss."""
    return lg.diverged | ~(lg.loss[:, -1] < 10 * lg.loss[:, 0])


LN5 = math.log(5)

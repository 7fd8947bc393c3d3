"""The paper's closed-form gradients of one attention head, computed in blocks of query rows.

:func:`~numerics.gda.model.attention_head.closed_form_grads` materialises every ``(T, T)`` matrix of
eqs. (5)-(32) (``S``, ``A``, ``B``, ``dS``) at once. At the sequence length of Sec. 7.2
(``T = 2000``) and ten batched runs that is 160 MB per matrix in float32, and a training step is
dominated by memory traffic and page faults. The same equations split exactly by query row:
row ``i`` of ``A``, of the loss ``L_i`` and of ``dS`` depends only on query ``i`` and on the keys
and values it can see, so the rows can be processed ``block`` at a time and the per-row
contributions summed:

* ``dQ[i] = dS[i] K / sqrt(d_k)``                                          (25)
* ``dK    = sum over blocks of dS[blk]^T Q[blk] / sqrt(d_k)``               (27)
* ``dV    = sum over blocks of A[blk]^T U[blk]``  (so ``dW_V = dV^T X = U^T A X``, (16), (32))
* ``dW_O  = sum over blocks of dlogits[blk]^T G[blk]``, ``db_O = sum_i dlogits_i``

With the causal mask a query block ``[i0, i1)`` only sees keys ``< i1``, which halves the work.
Nothing is approximated: the result equals :func:`closed_form_grads` up to floating-point
summation order (``tests/gda/test_gda_blocked.py`` checks this in float64).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch
from torch import Tensor

__all__ = ["BlockedStep", "blocked_head_step"]


@dataclass
class BlockedStep:
    """Per-run mean (or summed) loss, accuracy, predictive entropy, and the gradients.

    ``loss``, ``acc`` and ``entropy`` have the leading (run) shape; entropy is the mean over
    positions of the predictive distribution's entropy in nats. The gradients are ``None``
    when the step was computed with ``grads=False``.
    """

    loss: Tensor
    acc: Tensor
    entropy: Tensor
    dW_Q: Tensor | None = None
    dW_K: Tensor | None = None
    dW_V: Tensor | None = None
    dW_O: Tensor | None = None
    db_O: Tensor | None = None

    def grads(self) -> tuple[Tensor, Tensor, Tensor, Tensor, Tensor]:
        """``(dW_Q, dW_K, dW_V, dW_O, db_O)`` in the order of ``PARAM_NAMES``."""
        if self.dW_Q is None:
            raise ValueError("this step was computed with grads=False")
        return self.dW_Q, self.dW_K, self.dW_V, self.dW_O, self.db_O  # type: ignore[return-value]


def blocked_head_step(
    X: Tensor,
    W_Q: Tensor,
    W_K: Tensor,
    W_V: Tensor,
    W_O: Tensor,
    b_O: Tensor,
    y: Tensor,
    *,
    causal: bool = True,
    reduction: str = "mean",
    grads: bool = True,
    block: int = 128,
) -> BlockedStep:
    """Forward pass (eqs. (1)-(9)) and, with ``grads``, the closed-form gradients, by query blocks.

    Shapes as in :func:`~numerics.gda.model.attention_head.head_forward`: ``X (..., T, d_x)``,
    ``W_Q, W_K (..., d_k, d_x)``, ``W_V (..., d_v, d_x)``, ``W_O (..., C, d_v)``, ``b_O (..., C)``,
    ``y (..., T)``. ``reduction`` is ``"sum"`` (eq. (9)) or ``"mean"`` (every gradient times 1/T).
    """
    if reduction not in ("sum", "mean"):
        raise ValueError(f"reduction must be 'sum' or 'mean', got {reduction!r}")
    if block < 1:
        raise ValueError(f"block must be a positive number of query rows, got {block}")
    T = X.shape[-2]
    C = W_O.shape[-2]
    scale = 1.0 if reduction == "sum" else 1.0 / T
    r = math.sqrt(W_Q.shape[-2])
    Q = X @ W_Q.mT  # (1)
    K = X @ W_K.mT  # (2)
    V = X @ W_V.mT  # (3)
    lead = X.shape[:-2]
    loss = X.new_zeros(lead)
    correct = X.new_zeros(lead)
    ent = X.new_zeros(lead)
    if grads:
        dQ = torch.zeros_like(Q)
        dK = torch.zeros_like(K)
        dV = torch.zeros_like(V)
        dW_O = torch.zeros_like(W_O)
        db_O = torch.zeros_like(b_O)
    tri = torch.ones(block, block, dtype=torch.bool, device=X.device).tril()
    for i0 in range(0, T, block):
        i1 = min(T, i0 + block)
        n = i1 - i0
        keys = i1 if causal else T
        Kp, Vp, Qb = K[..., :keys, :], V[..., :keys, :], Q[..., i0:i1, :]
        S = Qb @ Kp.mT / r  # (4), rows i0..i1-1
        if causal:
            S[..., i0:i1] = S[..., i0:i1].masked_fill(~tri[:n, :n], float("-inf"))
        A = torch.softmax(S, dim=-1)  # (5)
        del S
        G = A @ Vp  # (6)
        logits = G @ W_O.mT + b_O.unsqueeze(-2)  # (7)
        logp = torch.log_softmax(logits, dim=-1)  # (8)
        yb = y[..., i0:i1]
        loss += -logp.gather(-1, yb.unsqueeze(-1)).squeeze(-1).sum(-1)  # (9)
        correct += (logits.argmax(-1) == yb).to(X.dtype).sum(-1)
        P = logp.exp()
        ent += -(P * logp).sum(-1).sum(-1)
        if not grads:
            continue
        dlogits = (P - torch.nn.functional.one_hot(yb, C).to(P.dtype)) * scale  # (13)
        U = dlogits @ W_O  # (10)/(14)
        dS = U @ Vp.mT  # B of (11)
        dS -= (A * dS).sum(-1, keepdim=True)  # B - E[b], (12)
        dS *= A  # (23)
        dQ[..., i0:i1, :] = dS @ Kp / r  # (25)
        dK[..., :keys, :] += dS.mT @ Qb / r  # (27)
        dV[..., :keys, :] += A.mT @ U  # (16)
        dW_O += dlogits.mT @ G
        db_O += dlogits.sum(-2)
    norm = 1.0 / T
    out = BlockedStep(loss * (scale if reduction == "mean" else 1.0), correct * norm, ent * norm)
    if grads:
        out.dW_Q = dQ.mT @ X  # (29)
        out.dW_K = dK.mT @ X  # (30)
        out.dW_V = dV.mT @ X  # (32): U^T A X = (A^T U)^T X
        out.dW_O, out.db_O = dW_O, db_O
    return out

"""A single softmax-attention head with output projection and cross-entropy loss.

The model of "Gradient Dynamics of Attention" (Sec. 2, eqs. (1)-(9)), row-major: ``X`` is
``(..., T, d_x)`` with row ``j`` equal to ``x_j^T`` (the paper stacks columns, eq. (32));
``Q, K, V, U, G`` likewise; ``A = (alpha_ij)`` is ``(..., T, T)`` with the softmax over the key
index ``j`` for a fixed query ``i`` (eq. (5)).

Every function accepts arbitrary leading batch dimensions, so a batch of independent
instances (or of independent training runs with their own parameters) is one tensor op.

Two views of the same head: free per-position variables (the derivations of Secs. 3-4) and
trainable parameters (the experiments of Sec. 7):

* :class:`AttentionHead` -- view (P): the trainable parameters ``W_Q, W_K, W_V, W_O, b_O``;
* :func:`free_forward`   -- view (F): free per-position scores ``S`` and values ``V``.

:func:`closed_form_grads` returns the paper's closed-form gradients (eqs. (13)-(32)) beside
what torch autograd computes, so the two can be compared on any instance.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import torch
from torch import Tensor, nn

__all__ = [
    "HeadTrace",
    "GradBundle",
    "AttentionHead",
    "causal_mask",
    "masked_softmax",
    "head_forward",
    "free_forward",
    "closed_form_grads",
    "ce_losses",
    "row_entropy",
]


def causal_mask(T: int, device: torch.device | str | None = None) -> Tensor:
    """Boolean ``(T, T)`` mask, True where key ``j <= i`` is visible to query ``i`` (L410)."""
    return torch.ones(T, T, dtype=torch.bool, device=device).tril()


def masked_softmax(S: Tensor, mask: Tensor | None) -> Tensor:
    """Row-wise softmax of eq. (5); masked entries get weight exactly 0."""
    if mask is not None:
        S = S.masked_fill(~mask, float("-inf"))
    return torch.softmax(S, dim=-1)


def ce_losses(logits: Tensor, y: Tensor) -> Tensor:
    """Per-position losses ``L_i = -log p_{i,y_i}`` (eq. (9), natural log)."""
    return -torch.log_softmax(logits, dim=-1).gather(-1, y.unsqueeze(-1)).squeeze(-1)


def row_entropy(A: Tensor) -> Tensor:
    """Entropy (nats) of each row of a row-stochastic matrix, ``0 log 0 = 0``."""
    return -(A * torch.log(A.clamp_min(1e-300))).sum(-1)


@dataclass
class HeadTrace:
    """All intermediate quantities of one forward pass (eqs. (1)-(9)).

    ``loss`` uses the reduction the trace was made with (``"sum"`` is eq. (9); ``"mean"`` is
    PyTorch's default); ``per_position`` holds the ``L_i``.
    """

    X: Tensor | None
    Q: Tensor | None
    K: Tensor | None
    V: Tensor
    S: Tensor
    A: Tensor
    G: Tensor
    logits: Tensor
    P: Tensor
    y: Tensor
    per_position: Tensor
    loss: Tensor
    W_O: Tensor
    b_O: Tensor
    mask: Tensor | None
    d_k: int
    reduction: str = "sum"


@dataclass
class GradBundle:
    """The closed-form quantities of Secs. 2.2 and 3, for one trace.

    ``dlogits`` (13), ``U`` (10)/(14), ``B`` (11), ``Eb`` (12), ``adv`` (L165: ``A_ij = -(b_ij -
    E[b])``), ``dS`` (23), ``dV`` (16), ``dA`` (17), ``dQ``/``dK`` (28), ``dW_Q``/``dW_K``
    (29)-(30), ``dW_V`` (32, row-major ``U^T A X``), ``dW_O``/``db_O`` (not stated in the paper;
    needed by Sec. 7). ``ubar`` is the column signal (37), equal to ``dV``.
    """

    dlogits: Tensor
    U: Tensor
    B: Tensor
    Eb: Tensor
    adv: Tensor
    dA: Tensor
    dS: Tensor
    dV: Tensor
    ubar: Tensor
    dW_O: Tensor
    db_O: Tensor
    dQ: Tensor | None = None
    dK: Tensor | None = None
    dW_Q: Tensor | None = None
    dW_K: Tensor | None = None
    dW_V: Tensor | None = None
    extra: dict[str, Tensor] = field(default_factory=dict)


def _mT(x: Tensor) -> Tensor:
    return x.transpose(-1, -2)


def _tail(
    S: Tensor, V: Tensor, W_O: Tensor, b_O: Tensor, y: Tensor, mask: Tensor | None, reduction: str
):
    A = masked_softmax(S, mask)  # (5)
    G = A @ V  # (6)
    logits = G @ _mT(W_O) + b_O.unsqueeze(-2)  # (7)
    P = torch.softmax(logits, dim=-1)  # (8)
    per = ce_losses(logits, y)  # (9) per position
    loss = per.sum(-1) if reduction == "sum" else per.mean(-1)
    return A, G, logits, P, per, loss


def head_forward(
    X: Tensor,
    W_Q: Tensor,
    W_K: Tensor,
    W_V: Tensor,
    W_O: Tensor,
    b_O: Tensor,
    y: Tensor,
    *,
    causal: bool = False,
    reduction: str = "sum",
) -> HeadTrace:
    """Forward pass of eqs. (1)-(9) from the parameters (view P), batched over leading dims.

    Shapes: ``X (..., T, d_x)``, ``W_Q, W_K (..., d_k, d_x)``, ``W_V (..., d_v, d_x)``,
    ``W_O (..., C, d_v)``, ``b_O (..., C)``, ``y (..., T)`` integer labels.
    """
    if reduction not in ("sum", "mean"):
        raise ValueError(f"reduction must be 'sum' or 'mean', got {reduction!r}")
    d_k = W_Q.shape[-2]
    Q = X @ _mT(W_Q)  # (1)
    K = X @ _mT(W_K)  # (2)
    V = X @ _mT(W_V)  # (3)
    S = Q @ _mT(K) / math.sqrt(d_k)  # (4)
    mask = causal_mask(X.shape[-2], X.device) if causal else None
    A, G, logits, P, per, loss = _tail(S, V, W_O, b_O, y, mask, reduction)
    return HeadTrace(X, Q, K, V, S, A, G, logits, P, y, per, loss, W_O, b_O, mask, d_k, reduction)


def free_forward(
    S: Tensor,
    V: Tensor,
    W_O: Tensor,
    b_O: Tensor,
    y: Tensor,
    *,
    mask: Tensor | None = None,
    reduction: str = "sum",
    d_k: int = 1,
) -> HeadTrace:
    """Forward pass of eqs. (5)-(9) from free scores ``S`` and values ``V`` (view F)."""
    A, G, logits, P, per, loss = _tail(S, V, W_O, b_O, y, mask, reduction)
    return HeadTrace(
        None, None, None, V, S, A, G, logits, P, y, per, loss, W_O, b_O, mask, d_k, reduction
    )


def closed_form_grads(tr: HeadTrace) -> GradBundle:
    """The paper's closed-form gradients for a trace, without autograd (eqs. (13)-(32)).

    The row-major forms: ``B = U V^T``; ``dS = A * (B - rowsum(A*B))``;
    ``dV = A^T U``; ``dQ = dS K / sqrt(d_k)``; ``dK = dS^T Q / sqrt(d_k)``; ``dW_Q = dQ^T X``;
    ``dW_K = dK^T X``; ``dW_V = U^T A X``; ``dW_O = dlogits^T G``; ``db_O = sum_i dlogits_i``.
    With ``reduction="mean"`` every gradient carries the factor ``1/T``.
    """
    T = tr.A.shape[-1]
    scale = 1.0 if tr.reduction == "sum" else 1.0 / T
    onehot = torch.nn.functional.one_hot(tr.y, tr.P.shape[-1]).to(tr.P.dtype)
    dlogits = (tr.P - onehot) * scale  # (13)
    U = dlogits @ tr.W_O  # (10)/(14): rows u_i^T = (p_i - e_y)^T W_O
    B = U @ _mT(tr.V)  # (11)
    Eb = (tr.A * B).sum(-1, keepdim=True)  # (12)
    dS = tr.A * (B - Eb)  # (23)
    dV = _mT(tr.A) @ U  # (16)
    out = GradBundle(
        dlogits=dlogits,
        U=U,
        B=B,
        Eb=Eb,
        adv=-(B - Eb),
        dA=B,  # (17)
        dS=dS,
        dV=dV,
        ubar=dV,  # (37)
        dW_O=_mT(dlogits) @ tr.G,
        db_O=dlogits.sum(-2),
    )
    if tr.Q is not None and tr.K is not None:
        r = math.sqrt(tr.d_k)
        out.dQ = dS @ tr.K / r  # (25)
        out.dK = _mT(dS) @ tr.Q / r  # (27)
    if tr.X is not None and out.dQ is not None and out.dK is not None:
        out.dW_Q = _mT(out.dQ) @ tr.X  # (29)
        out.dW_K = _mT(out.dK) @ tr.X  # (30)
        out.dW_V = _mT(U) @ tr.A @ tr.X  # (32), row-major
    return out


class AttentionHead(nn.Module):
    """Single softmax-attention head with output projection, eqs. (1)-(9) (view P).

    Args:
        d_x, d_k, d_v, C: sizes of Sec. 2.
        causal: apply the causal mask of Sec. 7.2 (``alpha_ij = 0`` for ``j > i``).
        init_std: standard deviation of the Gaussian init ("small Gaussian entries", L380).
        bias: include the output bias ``b_O`` of eq. (7).
        generator: torch generator for the init (every random choice from one seed).
    """

    def __init__(
        self,
        d_x: int,
        d_k: int,
        d_v: int,
        C: int,
        *,
        causal: bool = False,
        init_std: float = 0.1,
        bias: bool = True,
        generator: torch.Generator | None = None,
        dtype: torch.dtype = torch.float64,
    ) -> None:
        super().__init__()

        device = generator.device if generator is not None else None

        def g(*shape: int) -> nn.Parameter:
            return nn.Parameter(torch.randn(*shape, generator=generator, dtype=dtype,
                                            device=device) * init_std)

        self.W_Q = g(d_k, d_x)
        self.W_K = g(d_k, d_x)
        self.W_V = g(d_v, d_x)
        self.W_O = g(C, d_v)
        self.b_O = nn.Parameter(torch.zeros(C, dtype=dtype, device=device), requires_grad=bias)
        self.causal = causal

    def forward(self, X: Tensor, y: Tensor, reduction: str = "sum") -> HeadTrace:
        """Run eqs. (1)-(9) on ``X (..., T, d_x)`` with labels ``y (..., T)``."""
        return head_forward(
            X,
            self.W_Q,
            self.W_K,
            self.W_V,
            self.W_O,
            self.b_O,
            y,
            causal=self.causal,
            reduction=reduction,
        )

    def closed_form(self, X: Tensor, y: Tensor, reduction: str = "sum") -> GradBundle:
        """The paper's closed-form gradients at the current parameters."""
        with torch.no_grad():
            return closed_form_grads(self.forward(X, y, reduction))

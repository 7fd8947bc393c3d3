"""The Transformer ODEs of the paper as torch modules.

* :class:`TransformerODE` -- Definition 1, eq. (1) (l. 36) and its compact form
  ``Xdot = lambda(X W_all) W'_all`` (l. 38), real weights.  ``reading="A"`` multiplies by
  ``W_out`` as printed (``W_out`` is ``C x C_MLP``, so the product is defined only when
  ``C_MLP == C``); ``reading="B"`` multiplies by ``W_out^T``.
* :class:`LinearizedTransformer` -- Definition 4, eq. (4) (l. 80), complex:
  ``Xdot = X W_in W_out^* + sum_i C_A^{-1/2} X Q_i K_i^* X^* X V_i O_i^*``.
* :func:`random_linearized`, :func:`head_family`, :func:`attention_field` -- random instances
  of eq. (4) and the head families the closedness checks compare (paired, tied, scaled, untied:
  the pairing of l. 90 and its alternatives).
* :func:`parallel_layer`, :func:`split_layer` -- the Euler layers of eq. (2) (l. 46):
  ``X + h(l_MLP + l_A)(X)`` and the composition of ``X + h l_MLP(X)`` with ``X + h l_A(X)``.
"""

from __future__ import annotations

from collections.abc import Callable

import torch
from torch import nn

from .potentials import H
from .wirtinger import crandn

Field = Callable[[torch.Tensor], torch.Tensor]


def softmax_rows(S: torch.Tensor) -> torch.Tensor:
    """Row-wise softmax (each row normalised over the key index), complex-safe (``exp/sum``).

    ``torch.softmax`` has no complex kernel; for complex ``S`` the formula
    ``exp(S_jk - m_j) / sum_k exp(S_jk - m_j)`` is used, with ``m_j`` the largest real part of
    row j.
    """
    if not torch.is_complex(S):
        return torch.softmax(S, dim=-1)
    shift = S.real.max(dim=-1, keepdim=True).values
    E = torch.exp(S - shift)
    return E / E.sum(dim=-1, keepdim=True)


class TransformerODE(nn.Module):
    """Right-hand side of Definition 1, eq. (1): gated ReLU MLP plus ``n`` softmax heads (real).

    Args:
        W_gate, W_in, W_out: ``C x C_MLP``.  Q, K, V, O: ``n x C x C_A``.
        reading: ``"A"`` (``... W_out`` as printed) or ``"B"`` (``... W_out^T``).
    """

    def __init__(self, W_gate, W_in, W_out, Q, K, V, O, reading: str = "A") -> None:
        super().__init__()
        self.W_gate, self.W_in, self.W_out = W_gate, W_in, W_out
        self.Q, self.K, self.V, self.O = Q, K, V, O
        self.reading = reading

    @property
    def C_A(self) -> int:
        return self.Q.shape[-1]

    def out_mlp(self) -> torch.Tensor:
        return self.W_out if self.reading == "A" else self.W_out.T

    def out_head(self, i: int) -> torch.Tensor:
        return self.O[i].T

    def mlp(self, X: torch.Tensor) -> torch.Tensor:
        """``((X W_gate) * ReLU(X W_in)) W_out`` (reading A) or ``... W_out^T`` (B)."""
        return ((X @ self.W_gate) * torch.relu(X @ self.W_in)) @ self.out_mlp()

    def attention(self, X: torch.Tensor) -> torch.Tensor:
        """``sum_i Softmax(C_A^{-1/2} X Q_i K_i^T X^T) X V_i O_i^T`` (row-wise softmax)."""
        out = 0
        for i in range(self.Q.shape[0]):
            S = (X @ self.Q[i]) @ (X @ self.K[i]).transpose(-1, -2) / self.C_A**0.5
            out = out + softmax_rows(S) @ X @ self.V[i] @ self.O[i].T
        return out

    def forward(self, X: torch.Tensor) -> torch.Tensor:
        return self.mlp(X) + self.attention(X)

    # -- compact form (l. 38) -------------------------------------------------------------
    def W_all(self) -> torch.Tensor:
        """``[W_gate | W_in | Q_1 | K_1 | V_1 | ... | Q_n | K_n | V_n]``
        (``C x (2 C_MLP + 3 n C_A)``)."""
        blocks = [self.W_gate, self.W_in]
        for i in range(self.Q.shape[0]):
            blocks += [self.Q[i], self.K[i], self.V[i]]
        return torch.cat(blocks, dim=1)

    def W_prime_all(self) -> torch.Tensor:
        """``[W_out | O_1 | ... | O_n]`` as printed (``C x (C_MLP + n C_A)``)."""
        return torch.cat([self.W_out, *[self.O[i] for i in range(self.O.shape[0])]], dim=1)

    def lam(self, Y: torch.Tensor) -> torch.Tensor:
        """``lambda = lambda_MLP (+) lambda_A`` applied blockwise to ``Y = X W_all``
        (width ``C_MLP + n C_A``)."""
        m, a = self.W_gate.shape[1], self.C_A
        g, u = Y[..., :m], Y[..., m : 2 * m]
        outs = [g * torch.relu(u)]
        off = 2 * m
        for _ in range(self.Q.shape[0]):
            q, k, v = (Y[..., off + j * a : off + (j + 1) * a] for j in range(3))
            outs.append(softmax_rows(q @ k.transpose(-1, -2) / a**0.5) @ v)
            off += 3 * a
        return torch.cat(outs, dim=-1)

    def compact(self, X: torch.Tensor) -> torch.Tensor:
        """``lambda(X W_all) W'_all``: reading A multiplies by the row-stacked output blocks
        ``[W_out ; O_1^T ; ...]`` (the only arrangement for which eq. (1) and the printed product
        agree); reading B by ``W'_all^T`` (every output block transposed)."""
        Y = self.lam(X @ self.W_all())
        if self.reading == "A":
            Wp = torch.cat([self.W_out, *[self.O[i].T for i in range(self.O.shape[0])]], dim=0)
        else:
            Wp = self.W_prime_all().T
        return Y @ Wp


class LinearizedTransformer(nn.Module):
    """Definition 4, eq. (4), complex:
    ``X W_in W_out^* + sum_i C_A^{-1/2} X Q_i K_i^* X^* X V_i O_i^*``.

    ``Q, K, V, O`` have shape ``n x C x C_A``; ``W_in, W_out`` are ``C x C_MLP``.
    The attention term is ``X`` times a function of the Gram matrix ``X^* X`` (associativity).
    """

    def __init__(self, W_in, W_out, Q, K, V, O) -> None:
        super().__init__()
        self.W_in, self.W_out, self.Q, self.K, self.V, self.O = W_in, W_out, Q, K, V, O

    @property
    def C_A(self) -> int:
        return self.Q.shape[-1]

    def heads(self) -> list[tuple[torch.Tensor, torch.Tensor]]:
        """``[(Q_i K_i^*, V_i O_i^*)]``."""
        return [(self.Q[i] @ H(self.K[i]), self.V[i] @ H(self.O[i]))
                for i in range(self.Q.shape[0])]

    def forward(self, X: torch.Tensor) -> torch.Tensor:
        out = X @ self.W_in @ H(self.W_out)
        for A, B in self.heads():
            out = out + (X @ A @ H(X) @ X @ B) / self.C_A**0.5
        return out

    def forward_gram(self, X: torch.Tensor) -> torch.Tensor:
        """The same field written as ``X Phi(X^* X)`` (associativity of eq. 4)."""
        K = H(X) @ X
        Phi = self.W_in @ H(self.W_out)
        for A, B in self.heads():
            Phi = Phi + A @ K @ B / self.C_A**0.5
        return X @ Phi


def random_linearized(g: torch.Generator, C: int, C_MLP: int, C_A: int, n: int,
                      scale: float = 1.0) -> LinearizedTransformer:
    """Eq. (4) with complex Gaussian weights (entries of modulus ``scale``) drawn from ``g``."""
    def r(*shape: int) -> torch.Tensor:
        return crandn(*shape, generator=g, scale=scale)

    return LinearizedTransformer(r(C, C_MLP), r(C, C_MLP), r(n, C, C_A), r(n, C, C_A),
                                 r(n, C, C_A), r(n, C, C_A))


Heads = list[tuple[torch.Tensor, torch.Tensor]]


def head_family(g: torch.Generator, family: str, C: int, n: int) -> Heads:
    """``n`` attention heads ``(Q_i K_i^*, V_i O_i^*)`` (``C x C``) of one family:

    * ``"paired"`` -- the pairing of l. 90: heads ``(A_i, B_i)`` and ``(B_i, A_i)``
      (``n // 2`` of each);
    * ``"tied"``   -- ``V_i O_i^* = Q_i K_i^*``;
    * ``"scaled"`` -- ``V_i O_i^* = c Q_i K_i^*`` with one complex ``c``;
    * ``"untied"`` -- independent products.
    """
    def r() -> torch.Tensor:
        return crandn(C, C, generator=g)

    if family == "paired":
        As = [r() for _ in range(n // 2)]
        Bs = [r() for _ in range(n // 2)]
        return ([(A, B) for A, B in zip(As, Bs, strict=True)]
                + [(B, A) for A, B in zip(As, Bs, strict=True)])
    if family == "tied":
        return [(M, M) for M in (r() for _ in range(n))]
    if family == "scaled":
        c = complex(torch.randn(1, generator=g, device=g.device).item(), torch.randn(1, generator=g,
            device=g.device).item())
        return [(M, c * M) for M in (r() for _ in range(n))]
    if family == "untied":
        return [(r(), r()) for _ in range(n)]
    raise ValueError(f"unknown head family {family!r}: paired, tied, scaled or untied")


def attention_field(heads: Heads) -> Field:
    """The attention part of eq. (4) without the factor ``C_A^{-1/2}``:
    ``X -> sum_i X A_i X^* X B_i``."""
    def F(X: torch.Tensor) -> torch.Tensor:
        out = 0
        for A, B in heads:
            out = out + X @ A @ H(X) @ X @ B
        return out

    return F


def parallel_layer(f_mlp: Field, f_att: Field, h: float) -> Field:
    """One parallel layer of eq. (2): ``X -> X + h l_MLP(X) + h l_A(X)``."""
    return lambda X: X + h * f_mlp(X) + h * f_att(X)


def split_layer(f_mlp: Field, f_att: Field, h: float, mlp_first: bool = True) -> Field:
    """One split layer ``(1 + h l_MLP)(1 + h l_A)`` as maps; ``mlp_first`` says which acts first."""
    def step(X: torch.Tensor) -> torch.Tensor:
        if mlp_first:
            Y = X + h * f_mlp(X)
            return Y + h * f_att(Y)
        Y = X + h * f_att(X)
        return Y + h * f_mlp(Y)

    return step

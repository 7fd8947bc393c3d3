"""The paper's potentials ``V: C^{NxC} -> C`` as torch functions (their Wirtinger gradients
come from :func:`numerics.toef.model.wirtinger.dV_dXbar`).

* :func:`lemma3_potential` -- Lemma 3 (l. 86):
  ``Tr(X W X^*) + C_A^{-1/2} sum_i Tr(X A_i X^* X B_i^* X^*)``.
* :func:`lse_potential` -- Lemma 7 (l. 128):
  ``sqrt(C_A) sum_i sum_j log sum_k exp([X W_i X^* / sqrt(C_A)]_jk)`` (principal branch of
  ``log``; the row sums never vanish at the scales used).
* :func:`triple_trace_potential` -- Sec. 4 (l. 124):
  ``1/3 sum_jk ((X W_g) * (X W_i) * (X W_o))_jk``.
* :func:`trace_exp_potential` -- ``Tr exp(X W X^*)`` (a full invariant potential, for the
  effective-field truncation of l. 104, 248).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import torch

Potential = Callable[[torch.Tensor], torch.Tensor]


def H(M: torch.Tensor) -> torch.Tensor:
    """Conjugate transpose ``M^*``."""
    return M.conj().transpose(-1, -2)


def lemma3_potential(W: torch.Tensor, pairs: Sequence[tuple[torch.Tensor, torch.Tensor]],
                     C_A: int) -> Potential:
    """``V(X) = Tr(X W X^*) + C_A^{-1/2} sum_i Tr(X W_Ai X^* X W_Bi^* X^*)`` for
    ``pairs = [(W_Ai, W_Bi)]``."""
    def V(X: torch.Tensor) -> torch.Tensor:
        v = torch.trace(X @ W @ H(X))
        for A, B in pairs:
            v = v + torch.trace(X @ A @ H(X) @ X @ H(B) @ H(X)) / C_A**0.5
        return v

    return V


def lse_potential(Ws: Sequence[torch.Tensor], C_A: int) -> Potential:
    """Lemma 7's free energy ``sqrt(C_A) sum_i sum_j log sum_k exp(S_i)_jk``,
    ``S_i = X W_i X^* / sqrt(C_A)``."""
    def V(X: torch.Tensor) -> torch.Tensor:
        v = 0
        for W in Ws:
            S = X @ W @ H(X) / C_A**0.5
            v = v + torch.log(torch.exp(S).sum(dim=-1)).sum()
        return C_A**0.5 * v

    return V


def triple_trace_potential(W_g: torch.Tensor, W_i: torch.Tensor, W_o: torch.Tensor) -> Potential:
    """``V(X) = 1/3 sum_jk ((X W_g) * (X W_i) * (X W_o))_jk`` (l. 124)."""
    return lambda X: ((X @ W_g) * (X @ W_i) * (X @ W_o)).sum() / 3


def trace_exp_potential(W: torch.Tensor) -> Potential:
    """``V(X) = Tr exp(X W X^*)``; its field is ``exp(X W X^*) X W``."""
    return lambda X: torch.trace(torch.linalg.matrix_exp(X @ W @ H(X)))

"""The attention head of "Gradient Dynamics of Attention" as SymPy expressions (Sec. 2).

The model of eqs. (1)-(9), row-major and 0-based, in the forms the symbolic claims of
``proofs/gda`` and the exact cross-checks of ``numerics/gda`` both use:

* scores enter through positive symbols ``E[i, k] = exp(s_ik)``, so that a derivative in
  ``s_ik`` is the exact chain rule ``d f / d s_ik = E_ik * d f / d E_ik`` (``dE/ds = E``) and
  every expression stays a rational function, on which ``sp.cancel`` decides zero exactly;
* the causal mask of Sec. 7.2 (L410) removes the entries ``j > i`` from the row sums
  (``alpha_ij = 0`` there);
* the *surrogate* outer loss ``L = sum_i u_i^T g_i`` with free symbols ``u_i`` stands for any
  differentiable outer loss with ``u_i = dL/dg_i`` (eq. (10), chain rule), so an identity
  proved with it holds for the cross-entropy head of eqs. (7)-(9) too; that head is built in
  full (``head="ce"``) for cross-checks at the smallest sizes.

No claims here. The submodules prove in symbolic size what the claims of ``proofs/gda`` check
at instances: :mod:`.general` (the Sec. 3 identities), :mod:`.first_order` (exact first-order
changes of one step, Sec. 4) and :mod:`.context_loss` (eqs. (37)-(41)).
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

__all__ = ["SymHead", "QKHead", "visible", "sym_head", "qk_head"]


def visible(i: int, j: int, causal: bool) -> bool:
    """Whether key ``j`` is visible to query ``i`` (always, or ``j <= i`` under the mask)."""
    return (not causal) or j <= i


def _symbols(name: str, rows: int, cols: int, **assumptions: bool) -> sp.Matrix:
    """A ``rows x cols`` matrix of symbols ``{name}_{r}{c}``."""
    return sp.Matrix(rows, cols, lambda r, c: sp.Symbol(f"{name}_{r}{c}", **assumptions))


@dataclass
class SymHead:
    """Symbols and derived expressions of one symbolic head (row-major, 0-based)."""

    T: int
    d_v: int
    causal: bool
    E: sp.Matrix  # exp(s_ij), positive symbols (0 where masked)
    alpha: sp.Matrix  # eq. (5)
    V: sp.Matrix  # rows v_j^T
    G: sp.Matrix  # rows g_i^T, eq. (6)
    U: sp.Matrix | None = None  # rows u_i^T (surrogate symbols or the CE closed form (14))
    L: sp.Expr | None = None

    def d_ds(self, f: sp.Expr, i: int, k: int) -> sp.Expr:
        """``d f / d s_ik`` by the chain rule through ``E_ik = exp(s_ik)``."""
        if not visible(i, k, self.causal):
            return sp.Integer(0)
        return self.E[i, k] * sp.diff(f, self.E[i, k])

    def b(self) -> sp.Matrix:
        """``B = U V^T``, the compatibilities ``b_ij = u_i^T v_j`` of eq. (11)."""
        return self.U * self.V.T

    def Eb(self, i: int) -> sp.Expr:
        """``E_{alpha_i}[b] = sum_j alpha_ij b_ij`` (eq. (12))."""
        B = self.b()
        return sum(self.alpha[i, j] * B[i, j] for j in range(self.T))


def sym_head(
    T: int,
    d_v: int,
    *,
    causal: bool = False,
    head: str = "surrogate",
    C: int = 2,
    labels: list[int] | None = None,
) -> SymHead:
    """A symbolic head with free scores ``E`` and values ``V``.

    ``head="surrogate"`` takes the outer loss ``sum_i u_i^T g_i`` with free ``u_i``;
    ``head="ce"`` builds eqs. (7)-(9) with symbolic ``W_O``, ``b_O`` and the given labels
    (default ``i mod C``), and ``U`` from eq. (14).
    """
    E = sp.zeros(T, T)
    for i in range(T):
        for j in range(T):
            if visible(i, j, causal):
                E[i, j] = sp.Symbol(f"E_{i}{j}", positive=True)
    alpha = sp.zeros(T, T)
    for i in range(T):
        Z = sum(E[i, r] for r in range(T))
        for j in range(T):
            alpha[i, j] = E[i, j] / Z
    V = _symbols("v", T, d_v, real=True)
    G = alpha * V
    h = SymHead(T, d_v, causal, E, alpha, V, G)
    if head == "surrogate":
        h.U = _symbols("u", T, d_v, real=True)
        h.L = sum(h.U[i, a] * G[i, a] for i in range(T) for a in range(d_v))
    elif head == "ce":
        labels = labels if labels is not None else [i % C for i in range(T)]
        W = _symbols("w", C, d_v, real=True)
        bO = sp.Matrix(C, 1, [sp.Symbol(f"beta_{c}", real=True) for c in range(C)])
        L = sp.Integer(0)
        U = sp.zeros(T, d_v)
        for i in range(T):
            ell = W * G[i, :].T + bO
            ex = [sp.exp(ell[c]) for c in range(C)]
            Zc = sum(ex)
            L += -(ell[labels[i]] - sp.log(Zc))
            p = sp.Matrix([ex[c] / Zc for c in range(C)])
            e_y = sp.Matrix([1 if c == labels[i] else 0 for c in range(C)])
            U[i, :] = (p - e_y).T * W  # u_i^T = (p_i - e_y)^T W_O, eq. (14)
        h.U, h.L = U, L
    else:
        raise ValueError(f"head must be 'surrogate' or 'ce', got {head!r}")
    return h


@dataclass
class QKHead:
    """A surrogate head parameterised by free queries and keys (eqs. (4)-(6), (24)-(28)).

    ``dS`` is the closed form (23) of ``dL/dS``; ``r = sqrt(d_k)``.
    """

    q: sp.Matrix
    k: sp.Matrix
    V: sp.Matrix
    U: sp.Matrix
    L: sp.Expr
    dS: sp.Matrix
    r: sp.Expr


def qk_head(T: int, d_k: int, d_v: int, causal: bool) -> QKHead:
    """Free ``q_i, k_j, v_j, u_i`` symbols, ``s_ij = q_i^T k_j / sqrt(d_k)`` (4), softmax rows
    (5) over the visible keys, the surrogate loss, and (23) for ``dL/dS``."""
    q = _symbols("q", T, d_k, real=True)
    k = _symbols("k", T, d_k, real=True)
    V = _symbols("v", T, d_v, real=True)
    U = _symbols("u", T, d_v, real=True)
    r = sp.sqrt(d_k)
    S = q * k.T / r
    A = sp.zeros(T, T)
    for i in range(T):
        Z = sum(sp.exp(S[i, m]) for m in range(T) if visible(i, m, causal))
        for j in range(T):
            if visible(i, j, causal):
                A[i, j] = sp.exp(S[i, j]) / Z
    G = A * V
    L = sum(U[i, a] * G[i, a] for i in range(T) for a in range(d_v))
    B = U * V.T
    dS = sp.Matrix(
        T, T, lambda i, j: A[i, j] * (B[i, j] - sum(A[i, m] * B[i, m] for m in range(T)))
    )
    return QKHead(q, k, V, U, L, dS, r)

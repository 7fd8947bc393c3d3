"""Symbolic (SymPy) model of the attention head of "Gradient Dynamics of Attention".

Private helpers for the proofs in this package. Conventions (claim list section 0.4):

* scores enter through positive symbols ``E[i, k] = exp(s_ik)``; a derivative in ``s_ik`` is the
  exact chain rule ``d f / d s_ik = E_ik * d f / d E_ik`` (since ``dE/ds = E``), which keeps
  every expression a rational function (``sp.cancel`` decides zero exactly);
* the causal mask removes the entries ``j > i`` from the row sums (``alpha_ij = 0`` there);
* the *surrogate* outer loss ``L = sum_i u_i^T g_i`` with free symbols ``u_i`` stands for any
  differentiable outer loss with ``u_i = dL/dg_i`` (chain rule); the CE head of eqs. (7)-(9)
  is built in full for the cross-checks at the smallest sizes.
"""

# B023: the lambdas below are consumed immediately (sp.Matrix builders) inside their loop.
# B905: zip() over sequences of equal length by construction.
# ruff: noqa: B023, B905

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp


def visible(i: int, j: int, causal: bool) -> bool:
    return (not causal) or j <= i


@dataclass
class SymHead:
    """Symbols and derived expressions of one symbolic instance (row-major, 0-based)."""

    T: int
    d_v: int
    causal: bool
    E: sp.Matrix  # exp(s_ij), positive symbols (0 where masked)
    alpha: sp.Matrix  # eq. (5)
    V: sp.Matrix  # rows v_j^T
    G: sp.Matrix  # rows g_i^T, eq. (6)
    U: sp.Matrix | None = None  # rows u_i^T (surrogate symbols or CE closed form)
    L: sp.Expr | None = None

    def d_ds(self, f: sp.Expr, i: int, k: int) -> sp.Expr:
        """``d f / d s_ik`` by the chain rule through ``E_ik = exp(s_ik)``."""
        if not visible(i, k, self.causal):
            return sp.Integer(0)
        return self.E[i, k] * sp.diff(f, self.E[i, k])

    def b(self) -> sp.Matrix:
        """``B = U V^T`` (eq. (11))."""
        return self.U * self.V.T

    def Eb(self, i: int) -> sp.Expr:
        """``E_{alpha_i}[b] = sum_j alpha_ij b_ij`` (eq. (12))."""
        B = self.b()
        return sum(self.alpha[i, j] * B[i, j] for j in range(self.T))


def sym_head(T: int, d_v: int, *, causal: bool = False, head: str = "surrogate", C: int = 2,
             labels: list[int] | None = None) -> SymHead:
    """A symbolic head with free ``E`` (scores) and ``V``; ``head`` is ``surrogate`` or ``ce``."""
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
    V = sp.Matrix(T, d_v, lambda j, a: sp.Symbol(f"v_{j}{a}", real=True))
    G = alpha * V
    h = SymHead(T, d_v, causal, E, alpha, V, G)
    if head == "surrogate":
        h.U = sp.Matrix(T, d_v, lambda i, a: sp.Symbol(f"u_{i}{a}", real=True))
        h.L = sum(h.U[i, a] * G[i, a] for i in range(T) for a in range(d_v))
    elif head == "ce":
        labels = labels if labels is not None else [i % C for i in range(T)]
        W = sp.Matrix(C, d_v, lambda c, a: sp.Symbol(f"w_{c}{a}", real=True))
        bO = sp.Matrix(C, 1, lambda c, _: sp.Symbol(f"beta_{c}", real=True))
        L = sp.Integer(0)
        U = sp.zeros(T, d_v)
        for i in range(T):
            ell = W * G[i, :].T + bO
            ex = [sp.exp(ell[c]) for c in range(C)]
            Zc = sum(ex)
            L += -(ell[labels[i]] - sp.log(Zc))
            p = sp.Matrix([ex[c] / Zc for c in range(C)])
            e_y = sp.Matrix([1 if c == labels[i] else 0 for c in range(C)])
            U[i, :] = ((p - e_y).T * W)  # u_i^T = (p_i - e_y)^T W_O, eq. (14)
        h.U, h.L = U, L
    else:
        raise ValueError(head)
    return h


def prove_cases(cases, *, generality: str, part: str = "main", reading: str = "A",
                timeout: float = 20.0, summary: str = ""):
    """Prove every ``(label, lhs, rhs)`` case with ``verify.symbolic.prove_equal``; one Evidence.

    PROVED only if every case is PROVED (each an exact structural zero); a REFUTED case is
    returned as it is (it carries the engine's checked witness); otherwise UNDECIDED.
    ``generality`` states the concrete sizes covered.
    """
    import time
    from dataclasses import replace

    from verify import Evidence, Verdict
    from verify.symbolic import prove_equal

    t0 = time.perf_counter()
    steps: list[str] = []
    per_case = max(2.0, timeout / max(1, len(cases)))
    for label, lhs, rhs in cases:
        ev = prove_equal(lhs, rhs, assumptions="real", timeout=per_case, reading=reading, part=part)
        steps.append(f"{label}: {ev.verdict.value} ({ev.summary})")
        if ev.verdict is Verdict.REFUTED:
            return replace(ev, summary=f"{label}: {ev.summary}", steps=steps + list(ev.steps))
        if ev.verdict is not Verdict.PROVED:
            return Evidence(Verdict.UNDECIDED, f"{label}: {ev.summary}", method="symbolic",
                            reading=reading, part=part, steps=steps, generality=generality)
    return Evidence(Verdict.PROVED, f"{summary + '; ' if summary else ''}exact zero in all {len(cases)} "
                    f"cases ({generality})", method="symbolic", reading=reading, part=part, steps=steps,
                    generality=generality, elapsed_s=time.perf_counter() - t0)

"""Spatial-aware positional embeddings (App. D: Def. D.1, Lemma D.2/D.4, Thm D.5, Ex. D.6).

- :func:`temporal_scores_printed`: the shared temporal component of Thm D.5 (L1115-1120),
  ``p_t = [t, 1]``, ``Q_T = diag(-W_T, 1)``, ``K_T = [0, 1; W_T, W_T]``, so that
  ``h = -W_T (t - t' - 1)``.
- :class:`SpatialAwareEmbedding`: ``p = [p_time; (cos phi_w(i), sin phi_w(i))_{w in Omega}]``
  (eqs. (24), (28), (42)-(47)) with per-head ``Q = blkdiag(Q_T, I)``, ``K = blkdiag(K_T, M_w)``,
  ``M_w = [[a, -b], [b, a]]``, so that ``<p_i, K p_i'> = h(t, t') + g(i - i')`` (eqs.
  (45)-(46)). ``temporal="printed"`` uses Thm D.5 as printed; ``temporal="periodic"`` is our
  repair (``p_t = [cos(theta t), sin(theta t)]``, ``theta = pi (1 - 1/P)``, ``P = max(T, 3)``):
  it also penalises same-row keys (``t' = t``), which the printed component rewards with
  ``+W_T``.
- :func:`case1_coefficients`: Thm D.5 Case 1 (eq. (29)): one axial frequency per axis and
  ``K_S = W_S blkdiag(R(theta_{h,c}))``.
- :func:`lemma_d4_coefficients`: the explicit 1D construction of Lemma D.4 (eqs. (21), (23)).
- :func:`lp_polynomial`: an LP (scipy HiGHS, float64) for Lemma D.2's polynomial on a given
  Omega.

Sign convention: ``sign="A"`` targets the keys ``i' = i + delta`` (Def. D.1 eq. (8));
``sign="B"`` targets ``i' = i - delta`` (eqs. (33)-(34)). A polynomial ``g`` is evaluated at
``D = i - i'`` (mod L), so its targets are ``D = -delta`` (A) or ``D = delta`` (B).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import torch
from scipy.optimize import linprog
from torch import nn


def temporal_scores_printed(t: torch.Tensor, tp: torch.Tensor, W_T: float) -> torch.Tensor:
    """``<Q_T p_t, K_T p_t'>`` with the matrices of Thm D.5 as printed (rows read left to right)."""
    Q_T = torch.tensor([[-W_T, 0.0], [0.0, 1.0]], dtype=torch.float64)
    K_T = torch.tensor([[0.0, 1.0], [W_T, W_T]], dtype=torch.float64)
    pq = torch.stack([t.double(), torch.ones_like(t, dtype=torch.float64)], -1)
    pk = torch.stack([tp.double(), torch.ones_like(tp, dtype=torch.float64)], -1)
    return (pq @ Q_T.T) @ (pk @ K_T.T).T


def phase(omega, idx, widths) -> float:
    """``phi_w(i) = 2 pi sum_j w_j i_j / L_j`` (L1200)."""
    return 2 * math.pi * sum(w * i / L for w, i, L in zip(omega, idx, widths, strict=True))


def poly_eval(coef: dict, D, widths) -> float:
    """``g(D) = sum_w a_w cos(phi_w(D)) + b_w sin(phi_w(D))`` (eq. (11))."""
    return sum(
        a * math.cos(phase(w, D, widths)) + b * math.sin(phase(w, D, widths))
        for w, (a, b) in coef.items()
    )


def target_points(offsets, widths, sign: str = "A") -> list[tuple[int, ...]]:
    """Where ``g`` must hit its targets, as ``D = i - i'`` mod L (see the module doc)."""
    s = -1 if sign == "A" else 1
    return [tuple((s * o) % L for o, L in zip(off, widths, strict=True)) for off in offsets]


def case1_coefficients(delta, widths, W_S: float, sign: str = "B") -> dict:
    """Thm D.5 Case 1: ``K_S = W_S blkdiag(R(theta_c))``, ``theta_c = 2 pi delta_c / L_c`` (eq.
    (29)).

    As printed (sign B) the score is ``W_S sum_c cos(2 pi (i_c - i'_c - delta_c)/L_c)`` (eq. (33));
    sign A flips ``theta``. Returned as Fourier coefficients ``{axial omega: (a, b)}`` (``R(theta) =
    M_w`` with ``a = cos theta``, ``b = sin theta``).
    """
    d = len(widths)
    out = {}
    for c in range(d):
        th = (1 if sign == "B" else -1) * 2 * math.pi * delta[c] / widths[c]
        w = tuple(1 if j == c else 0 for j in range(d))
        out[w] = (W_S * math.cos(th), W_S * math.sin(th))
    return out


def lemma_d4_coefficients(
    L: int, v: tuple[float, float, float], W: float, Lam: float | None = None
):
    """Lemma D.4 (L986-1084): ``Omega = {0, 1, 2}``, ``g(0) = v_0``, ``g(+-1) = v_{+-1}``.

    ``v = (v_{-1}, v_0, v_1)``; ``Lam`` defaults to equality in (23). Returns ``(coef, Lam)`` with
    ``coef = {(0,): (a_0, 0), (1,): (a_1, b_1), (2,): (a_2, 0)}``.
    """
    vm, v0, vp = v
    c1, c2 = math.cos(2 * math.pi / L), math.cos(4 * math.pi / L)
    b1 = (vp - vm) / (2 * math.sin(2 * math.pi / L))
    M = (vp + vm) / 2
    Gam = (M - v0) / (c1 - 1)
    if Lam is None:
        Lam = (W + v0 + abs(Gam) + abs(b1)) / (2 * (1 - c2) * (c1 - c2))
    a2 = -Lam
    a1 = Gam - 2 * a2 * (c1 + 1)
    a0 = v0 - a1 - a2
    return {(0,): (a0, 0.0), (1,): (a1, b1), (2,): (a2, 0.0)}, Lam


def frequency_classes(widths) -> list[tuple[int, ...]]:
    """Representatives of ``G^ / {+-1}`` (``w`` and ``-w`` give the same pair of functions)."""
    seen, out = set(), []
    for w in itertools.product(*(range(L) for L in widths)):
        neg = tuple((-x) % L for x, L in zip(w, widths, strict=True))
        if neg in seen:
            continue
        seen.add(w)
        out.append(w)
    return out


def lp_polynomial(omega, widths, points, values, penalty: float, *, l1: bool = True):
    """Lemma D.2 LP on a fixed ``Omega``: ``g(points) = values``, ``g <= penalty`` elsewhere.

    Minimises the l1 norm of the coefficients (float64 HiGHS). Returns ``{w: (a, b)}`` or ``None``
    if the LP is infeasible.
    """
    G = list(itertools.product(*(range(L) for L in widths)))
    cols = []
    for w in omega:
        cols.append((w, "c"))
        if any((2 * x) % L for x, L in zip(w, widths, strict=True)):
            cols.append((w, "s"))

    def row(D):
        return [
            math.cos(phase(w, D, widths)) if k == "c" else math.sin(phase(w, D, widths))
            for w, k in cols
        ]

    pts = [tuple(p) for p in points]
    n = len(cols)
    A_eq = np.array([row(p) + [-x for x in row(p)] for p in pts])
    b_eq = np.array(values, dtype=float)
    off = [D for D in G if D not in pts]
    A_ub = np.array([row(D) + [-x for x in row(D)] for D in off]) if off else None
    b_ub = np.full(len(off), penalty) if off else None
    res = linprog(
        np.ones(2 * n), A_ub=A_ub, b_ub=b_ub, A_eq=A_eq, b_eq=b_eq, bounds=(0, None), method="highs"
    )
    if res.status != 0:
        return None
    x = res.x[:n] - res.x[n:]
    coef: dict = {}
    for (w, k), val in zip(cols, x, strict=True):
        a, b = coef.get(w, (0.0, 0.0))
        coef[w] = (val, b) if k == "c" else (a, val)
    return coef


class SpatialAwareEmbedding(nn.Module):
    """Positional embeddings ``p_{t,i}`` (eq. (24)) and per-head ``W_Q^pos, W_K^pos`` (eq. (25)).

    ``omega``: the shared frequency set (union over heads, Thm 4.3 uses one ``p``); each frequency
    contributes ``(cos phi_w, sin phi_w)``, so ``d_p = 2 + 2 |Omega|`` (eq. (47)). Separator and BOS
    tokens get ``p = 0`` (a choice: the paper leaves their embedding open, L1660).
    """

    def __init__(self, widths, T: int, omega, *, temporal: str = "periodic") -> None:
        super().__init__()
        self.widths = tuple(widths)
        self.T = int(T)
        self.omega = [tuple(w) for w in omega]
        self.temporal = temporal
        self.P = max(self.T, 3)
        self.theta = math.pi * (1 - 1 / self.P)

    @property
    def d_p(self) -> int:
        return 2 + 2 * len(self.omega)

    def forward(self, times: list[int], cells: list) -> torch.Tensor:
        """``(N, d_p)`` float64 embeddings; ``cells[n] is None`` marks a separator / BOS (``p =
        0``)."""
        rows = []
        for t, c in zip(times, cells, strict=True):
            if c is None:
                rows.append([0.0] * self.d_p)
                continue
            tp = (
                [float(t), 1.0]
                if self.temporal == "printed"
                else [math.cos(self.theta * t), math.sin(self.theta * t)]
            )
            sp_ = []
            for w in self.omega:
                ph = phase(w, c, self.widths)
                sp_ += [math.cos(ph), math.sin(ph)]
            rows.append(tp + sp_)
        return torch.tensor(rows, dtype=torch.float64)

    def projections(self, coef: dict, W_T: float) -> tuple[torch.Tensor, torch.Tensor]:
        """``(Q, K)`` for one head with spatial coefficients ``coef = {w: (a, b)}`` (eqs. (25),
        (45))."""
        n = self.d_p
        Q = torch.eye(n, dtype=torch.float64)
        K = torch.zeros(n, n, dtype=torch.float64)
        if self.temporal == "printed":
            Q[0, 0] = -W_T
            K[:2, :2] = torch.tensor([[0.0, 1.0], [W_T, W_T]], dtype=torch.float64)
        else:  # W_T cos(theta (t - t' - 1)) = <W_T u_t, R(theta) u_t'>, u_t = (cos, sin)(theta t)
            th = self.theta
            Q[:2, :2] = W_T * torch.eye(2, dtype=torch.float64)
            K[:2, :2] = torch.tensor(
                [[math.cos(th), -math.sin(th)], [math.sin(th), math.cos(th)]], dtype=torch.float64
            )
        for j, w in enumerate(self.omega):
            a, b = coef.get(w, (0.0, 0.0))
            r = 2 + 2 * j
            K[r : r + 2, r : r + 2] = torch.tensor([[a, -b], [b, a]], dtype=torch.float64)
        return Q, K

    def scores(self, P: torch.Tensor, Q: torch.Tensor, K: torch.Tensor) -> torch.Tensor:
        """All pairwise ``<Q p_n, K p_n'>`` (rows: queries, columns: keys)."""
        return (P @ Q.T) @ (P @ K.T).T

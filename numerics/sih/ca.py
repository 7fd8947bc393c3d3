"""Cellular automata and their token streams (Sec. 3, Def. 3.1 L138-143; eq. (2) L158-161; App. G.3.1).

- :class:`CellularAutomaton` is a deterministic local rule ``x_{t+1,i} = f(N_{t,i})`` on the periodic
  grid ``Z_{W_1} x ... x Z_{W_d}`` (Def. 3.1), as a ``torch.nn.Module`` whose forward maps a batch of
  configurations to the next one.
- :func:`token_stream` flattens a trajectory into the sequence of (T1) (one [SEP] between time steps,
  eq. (2)) or (T2) (App. G.3.1: [ROW_SEP] inside a 2D time step, [TIME_SEP] between time steps).
- :func:`union_set`, :func:`partitions`: the union routing set ``U = N_K u (N_K + e_hat)`` (L216-233)
  and the spatial partitions of Def. 4.1 (L235-238).

Conventions (claims/sih.md S.1): ``V`` states, ``d`` axes, widths ``W``, offsets in ``Z^d``, row-major
order over the axes, ``e_hat`` the last basis vector (in-row successor).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import torch
from torch import nn

ECA = ((-1,), (0,), (1,))
VN = ((0, 0), (-1, 0), (1, 0), (0, -1), (0, 1))
MOORE9 = tuple(itertools.product((-1, 0, 1), repeat=2))


def wolfram_table(rule: int) -> list[int]:
    """ECA rule number -> table indexed by ``4a + 2b + c`` for the neighbourhood ``(a, b, c)``."""
    return [(rule >> n) & 1 for n in range(8)]


class CellularAutomaton(nn.Module):
    """A deterministic local rule on a periodic grid (Def. 3.1, L138-143).

    ``table[n]`` is ``f`` at the configuration whose base-``V`` digits (first offset most significant)
    give ``n``: for ECA with offsets (-1, 0, 1) this is Wolfram's numbering ``n = 4a + 2b + c``.
    """

    def __init__(self, offsets: tuple[tuple[int, ...], ...], V: int, table: torch.Tensor | list[int]) -> None:
        super().__init__()
        self.offsets = tuple(tuple(int(c) for c in o) for o in offsets)
        self.V = int(V)
        self.k = len(self.offsets)
        self.d = len(self.offsets[0])
        tab = torch.as_tensor(table, dtype=torch.long)
        if tab.numel() != V ** self.k:
            raise ValueError(f"rule table needs V^k = {V ** self.k} entries")
        self.register_buffer("table", tab)

    @classmethod
    def random(cls, offsets, V: int, generator: torch.Generator) -> CellularAutomaton:
        """A rule drawn uniformly from the ``V^(V^k)`` rules (L150)."""
        return cls(offsets, V, torch.randint(0, V, (V ** len(offsets),), generator=generator))

    def configurations(self, x: torch.Tensor) -> torch.Tensor:
        """``N_{t,i}`` as base-``V`` codes: ``x`` is ``(..., W_1, ..., W_d)``; same shape out."""
        code = torch.zeros_like(x)
        dims = tuple(range(x.dim() - self.d, x.dim()))
        for o in self.offsets:
            code = code * self.V + torch.roll(x, shifts=tuple(-c for c in o), dims=dims)
        return code

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """One synchronous update ``x_{t+1,i} = f(x_{t,i+delta_1}, ..., x_{t,i+delta_k})`` (indices mod W)."""
        return self.table[self.configurations(x)]

    def trajectory(self, x0: torch.Tensor, T: int) -> torch.Tensor:
        """Rows ``0..T-1`` (shape ``(T, *grid)``)."""
        rows = [x0]
        for _ in range(T - 1):
            rows.append(self(rows[-1]))
        return torch.stack(rows)


@dataclass
class Stream:
    """A flattened trajectory: per token its state (-1 for separators), time, grid index, kind."""

    states: list[int]
    times: list[int]
    cells: list[tuple[int, ...] | None]
    kinds: list[str]  # "cell" | "sep" | "row_sep"
    configs: list[int | None]  # parent configuration code (t >= 1) for cells

    def __len__(self) -> int:
        return len(self.states)


def token_stream(traj: torch.Tensor, ca: CellularAutomaton | None = None, tokenisation: str = "T1") -> Stream:
    """Flatten ``traj`` (``(T, *grid)``) in row-major order: (T1) eq. (2) or (T2) App. G.3.1."""
    T = traj.shape[0]
    grid = tuple(traj.shape[1:])
    d = len(grid)
    confs = ca.configurations(traj[:-1]) if ca is not None else None
    s = Stream([], [], [], [], [])
    for t in range(T):
        if t > 0:
            s.states.append(-1), s.times.append(t), s.cells.append(None), s.kinds.append("sep"), s.configs.append(None)
        for n, idx in enumerate(itertools.product(*(range(w) for w in grid))):
            if tokenisation == "T2" and d == 2 and n > 0 and idx[1] == 0:
                s.states.append(-1), s.times.append(t), s.cells.append(None), s.kinds.append("row_sep")
                s.configs.append(None)
            s.states.append(int(traj[(t, *idx)]))
            s.times.append(t)
            s.cells.append(idx)
            s.kinds.append("cell")
            s.configs.append(int(confs[(t - 1, *idx)]) if (confs is not None and t > 0) else None)
    return s


def stream_length(T: int, grid: tuple[int, ...], tokenisation: str) -> int:
    """Closed form of the stream length: (T1) ``T L + (T-1)``; (T2, 2D) ``T(L_1 L_2 + L_1 - 1) + (T-1)``."""
    L = 1
    for w in grid:
        L *= w
    if tokenisation == "T2" and len(grid) == 2:
        return T * (L + grid[0] - 1) + (T - 1)
    return T * L + (T - 1)


def e_hat(d: int) -> tuple[int, ...]:
    """The in-row successor shift: the last basis vector (row-major order, S.1)."""
    return tuple([0] * (d - 1) + [1])


def union_set(offsets, ehat=None, widths=None) -> tuple[set, set, set]:
    """``(N_K, N_Q, U)`` with ``N_Q = N_K + e_hat`` (L216-233); reduced mod ``widths`` when given (reading B)."""
    d = len(offsets[0])
    eh = ehat or e_hat(d)

    def red(v):
        return tuple(c % w for c, w in zip(v, widths, strict=True)) if widths else tuple(v)

    NK = {red(o) for o in offsets}
    NQ = {red(tuple(a + b for a, b in zip(o, eh, strict=True))) for o in offsets}
    return NK, NQ, NK | NQ


def partitions(items: list, h: int):
    """All set partitions of ``items`` into exactly ``h`` non-empty blocks (Def. 4.1 allows unequal sizes)."""
    items = list(items)
    if h == 0:
        if not items:
            yield []
        return
    if len(items) < h:
        return
    first, rest = items[0], items[1:]
    for p in partitions(rest, h - 1):
        yield [[first], *p]
    for p in partitions(rest, h):
        for i in range(len(p)):
            yield p[:i] + [[first, *p[i]]] + p[i + 1:]

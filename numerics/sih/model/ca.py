"""Cellular automata and their token streams (Def. 3.1 L138-143; eq. (2) L158-161; App. G.3.1).

- :class:`CellularAutomaton` is a deterministic local rule ``x_{t+1,i} = f(N_{t,i})`` on the
  periodic grid ``Z_{W_1} x ... x Z_{W_d}`` (Def. 3.1), as a ``torch.nn.Module`` whose forward
  maps a batch of configurations to the next one.
- :func:`token_stream` flattens a trajectory into the sequence of (T1) (one [SEP] between time
  steps, eq. (2)) or (T2) (App. G.3.1: [ROW_SEP] inside a 2D time step, [TIME_SEP] between time
  steps).
- :func:`sample_stream`: a uniformly random rule and initial row, its trajectory and stream.

The torch-free setting (offset sets, ``e_hat``, ``U``, partitions, Wolfram numbering, stream
lengths) is :mod:`proofs.sih.model`, with its conventions.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import torch
from torch import nn


class CellularAutomaton(nn.Module):
    """A deterministic local rule on a periodic grid (Def. 3.1, L138-143).

    ``table[n]`` is ``f`` at the configuration whose base-``V`` digits (first offset most
    significant) give ``n``: for ECA with offsets (-1, 0, 1) this is Wolfram's numbering
    ``n = 4a + 2b + c``.
    """

    def __init__(self, offsets: tuple[tuple[int, ...], ...], V: int,
                 table: torch.Tensor | list[int]) -> None:
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
        return cls(offsets, V, torch.randint(0, V, (V ** len(offsets),), generator=generator,
            device=generator.device))

    def configurations(self, x: torch.Tensor) -> torch.Tensor:
        """``N_{t,i}`` as base-``V`` codes: ``x`` is ``(..., W_1, ..., W_d)``; same shape out."""
        code = torch.zeros_like(x)
        dims = tuple(range(x.dim() - self.d, x.dim()))
        for o in self.offsets:
            code = code * self.V + torch.roll(x, shifts=tuple(-c for c in o), dims=dims)
        return code

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """One synchronous update ``x_{t+1,i} = f(x_{t,i+delta_1}, ..., x_{t,i+delta_k})``
        (indices mod W)."""
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


    def append(self, state: int, time: int, cell: tuple[int, ...] | None, kind: str,
               config: int | None) -> None:
        """Add one token."""
        self.states.append(state)
        self.times.append(time)
        self.cells.append(cell)
        self.kinds.append(kind)
        self.configs.append(config)


def token_stream(traj: torch.Tensor, ca: CellularAutomaton | None = None,
                 tokenisation: str = "T1") -> Stream:
    """Flatten ``traj`` (``(T, *grid)``) in row-major order: (T1) eq. (2) or (T2) App. G.3.1."""
    T = traj.shape[0]
    grid = tuple(traj.shape[1:])
    d = len(grid)
    confs = ca.configurations(traj[:-1]) if ca is not None else None
    s = Stream([], [], [], [], [])
    for t in range(T):
        if t > 0:
            s.append(-1, t, None, "sep", None)
        for n, idx in enumerate(itertools.product(*(range(w) for w in grid))):
            if tokenisation == "T2" and d == 2 and n > 0 and idx[1] == 0:
                s.append(-1, t, None, "row_sep", None)
            config = int(confs[(t - 1, *idx)]) if (confs is not None and t > 0) else None
            s.append(int(traj[(t, *idx)]), t, idx, "cell", config)
    return s


def sample_stream(g: torch.Generator, offsets, V: int, widths, T: int,
                  tokenisation: str = "T1") -> tuple[CellularAutomaton, torch.Tensor, Stream]:
    """A rule drawn uniformly from the ``V^(V^k)`` rules, a uniform initial row, the trajectory
    and its token stream."""
    ca = CellularAutomaton.random(offsets, V, g)
    x0 = torch.randint(0, V, tuple(widths), generator=g, device=g.device)
    tr = ca.trajectory(x0, T)
    return ca, tr, token_stream(tr, ca, tokenisation)

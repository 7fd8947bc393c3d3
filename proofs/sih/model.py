"""The paper's setting without torch: neighbourhoods, the shift ``e_hat``, ``U`` and partitions.

- :data:`ECA`, :data:`VN`, :data:`MOORE9`: the offset sets of Sec. 3.1 (L146-148) and App. G.3.4
  (L1907): elementary CA ``{-1, 0, 1}``, 2D von Neumann (centre plus four cardinal neighbours),
  the Moore neighbourhood ``{-1, 0, 1}^2``.
- :func:`wolfram_table`: an ECA rule number as its table, indexed by ``4a + 2b + c``.
- :func:`e_hat`, :func:`union_set`: the in-row successor shift and the union routing set
  ``U = N_K u (N_K + e_hat)`` (L216-233).
- :func:`partitions`: the spatial partitions of Def. 4.1 (L235-238).
- :func:`stream_length`: the token count of (T1), eq. (2), and (T2), App. G.3.1 (L1912-1913).

Conventions: ``V`` states, ``d`` axes, offsets in ``Z^d``, row-major order over the axes, so
``e_hat`` is the last basis vector (L217, "a +1 sequence advancement in row-major order").
The torch modules (the rule as an ``nn.Module``, token streams) are in ``numerics/sih/model/ca.py``.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence

Offset = tuple[int, ...]

ECA: tuple[Offset, ...] = ((-1,), (0,), (1,))
VN: tuple[Offset, ...] = ((0, 0), (-1, 0), (1, 0), (0, -1), (0, 1))
MOORE9: tuple[Offset, ...] = tuple(itertools.product((-1, 0, 1), repeat=2))


def wolfram_table(rule: int) -> list[int]:
    """ECA rule number -> table indexed by ``4a + 2b + c`` for the neighbourhood ``(a, b, c)``."""
    return [(rule >> n) & 1 for n in range(8)]


def e_hat(d: int) -> Offset:
    """The in-row successor shift: the last basis vector of ``Z^d`` (row-major order)."""
    return tuple([0] * (d - 1) + [1])


def union_set(
    offsets: Sequence[Sequence[int]],
    ehat: Offset | None = None,
    widths: Sequence[int] | None = None,
) -> tuple[set[Offset], set[Offset], set[Offset]]:
    """``(N_K, N_Q, U)`` with ``N_Q = N_K + e_hat`` (L216-233).

    With ``widths`` the offsets are reduced mod the grid widths (the torus reading of
    Def. D.1's ``i + delta mod L``); without, they live in ``Z^d``.
    """
    d = len(offsets[0])
    shift = ehat or e_hat(d)

    def reduce(v: Sequence[int]) -> Offset:
        if widths:
            return tuple(c % w for c, w in zip(v, widths, strict=True))
        return tuple(v)

    NK = {reduce(o) for o in offsets}
    NQ = {reduce(tuple(a + b for a, b in zip(o, shift, strict=True))) for o in offsets}
    return NK, NQ, NK | NQ


def partitions(items: Sequence, h: int) -> Iterator[list[list]]:
    """All set partitions of ``items`` into exactly ``h`` non-empty blocks.

    Def. 4.1 allows blocks of unequal sizes; the callers filter by ``|S| <= ceil(|U|/h)``.
    """
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


def stream_length(T: int, grid: Sequence[int], tokenisation: str) -> int:
    """Token count: (T1) ``T L + (T-1)``; (T2) in 2D ``T (L_1 L_2 + L_1 - 1) + (T-1)``."""
    L = 1
    for w in grid:
        L *= w
    if tokenisation == "T2" and len(grid) == 2:
        return T * (L + grid[0] - 1) + (T - 1)
    return T * L + (T - 1)

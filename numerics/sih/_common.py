"""Small shared helpers for the sih claim modules (not scanned for claims)."""

from __future__ import annotations

import torch

from verify import Evidence, Verdict

from .ca import CellularAutomaton, token_stream

PAPER = "sih"


def sample_stream(g: torch.Generator, offsets, V: int, widths, T: int, tokenisation: str = "T1"):
    """A uniform random rule and initial row, its trajectory and token stream."""
    ca = CellularAutomaton.random(offsets, V, g)
    x0 = torch.randint(0, V, tuple(widths), generator=g)
    tr = ca.trajectory(x0, T)
    return ca, tr, token_stream(tr, ca, tokenisation)


def judge(ok: bool, summary: str, *, cex=None, method: str = "numeric", **kw) -> Evidence:
    """SUPPORTED if ``ok`` else REFUTED with ``cex`` (must be given when not ok)."""
    if ok:
        return Evidence(Verdict.SUPPORTED, summary, method=method, **kw)
    return Evidence(Verdict.REFUTED, summary, method=method, counterexample=cex or {"note": summary}, **kw)

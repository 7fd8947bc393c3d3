"""App. B / Sec. 3: whether covering every configuration in the context makes exact
prediction achievable, checked on ECA trajectories.

The coverage probability of Proposition B.2 is checked exactly in ``proofs/sih/coverage.py``.
"""

from __future__ import annotations

import sympy as sp
import torch

import verify
from proofs.sih import PAPER
from proofs.sih.model import ECA, wolfram_table
from verify import Evidence
from verify.numeric import judge_check
from verify.symbolic import refute_exactly

from .model.ca import CellularAutomaton


@verify.claim(
    "sih.coverage.necessary", paper=PAPER,
    where="L169-171; L717-723; Sec. 5.1 L401-403; App. G L1892-1901", kind="property",
    expect="REFUTED",
    statement=r"\text{all }V^k\text{ configurations appear in the context}\Rightarrow100\%"
              r"\text{ accuracy achievable; missing ones}\Rightarrow\text{errors unavoidable}",
    readings={"B": "coverage notion (ii): the first M-1 rows expose all configurations"},
    repairs={"B": "overstated"},
)
def coverage_necessary(ctx):
    """Notion (i) REFUTED: an ECA trajectory whose rows 0..M-1 contain all 8 configurations,
    one of them only in row M-1, so its output is never observed; flipping f there leaves the
    context unchanged and changes row M, so no algorithm is exact for both rules (the two rows
    M are compared exactly). Notion (ii): Algorithm 1 is exact on rows >= M whenever rows
    0..M-2 expose all configurations (random rules): SUPPORTED."""
    g = ctx.torch_generator("cov")
    L, M, T = 8, 3, 4
    cex, bad_b, n_b = None, None, 0
    for _trial in range(ctx.pick(quick=400, deep=4000)):
        rule = int(torch.randint(0, 256, (1,), generator=g, device=g.device))
        ca = CellularAutomaton(ECA, 2, wolfram_table(rule))
        tr = ca.trajectory(torch.randint(0, 2, (L,), generator=g, device=g.device), T)
        conf = ca.configurations(tr)
        early = set(conf[: M - 1].flatten().tolist())
        covered = set(conf[:M].flatten().tolist())
        if len(early) == 8:  # notion (ii): Algorithm 1 exact on rows >= M
            n_b += 1
            if not lookup_exact(conf, tr, M) and bad_b is None:
                bad_b = {"rule": rule, "initial_row": tr[0].tolist(), "M": M}
        if cex is None and len(covered) == 8 and len(early) < 8:
            cex = unobservable_flip(ca, tr, M)
            if cex is not None:
                cex = {"rule": rule, "L": L, "M": M, **cex}
    summary = "notion (i): covered context where two rules agree on it but not on row M"
    if cex is None:
        ev_a = Evidence.undecided(f"{summary}: none found", method="numeric",
                                  generality="random ECA")
    else:
        ev_a = refute_exactly(summary, cex, lhs=sp.Matrix(cex["row_M"]),
                              rhs=sp.Matrix(cex["row_M_flipped_rule"]), generality="random ECA")
    ev_b = notion_ii_evidence(n_b, bad_b)
    return [ev_a, ev_b]


def lookup_exact(conf: torch.Tensor, tr: torch.Tensor, M: int) -> bool:
    """Algorithm 1's table read off rows ``0..M-2`` (configuration -> next state) predicts every
    cell of rows ``M..T-1`` exactly; ``conf`` holds the configurations of (at least) rows
    ``0..T-2``."""
    table: dict[int, int] = {}
    for c, x in zip(conf[: M - 1].flatten(), tr[1:M].flatten(), strict=True):
        table.setdefault(int(c), int(x))
    T = tr.shape[0]
    return all(table.get(int(c)) == int(x)
               for c, x in zip(conf[M - 1:T - 1].flatten(), tr[M:].flatten(), strict=True))


def unobservable_flip(ca: CellularAutomaton, tr: torch.Tensor, M: int) -> dict | None:
    """The smallest configuration present in rows ``0..M-1`` only in row ``M-1`` (its output is
    never observed): flipping ``f`` there leaves rows ``0..M-1`` unchanged; when it changes row
    ``M``, the two rows ``M`` and the flipped rule are returned, else ``None``."""
    T = tr.shape[0]
    conf = ca.configurations(tr[:-1])
    early, covered = set(conf[: M - 1].flatten().tolist()), set(conf[:M].flatten().tolist())
    for missing in sorted(covered - early)[:1]:
        flipped = ca.table.clone()
        flipped[missing] = 1 - flipped[missing]
        tr2 = CellularAutomaton(ca.offsets, ca.V, flipped).trajectory(tr[0], T)
        if torch.equal(tr2[:M], tr[:M]) and not torch.equal(tr2[M], tr[M]):
            return {"initial_row": tr[0].tolist(), "config_only_in_row_M-1": missing,
                    "rule_flipped_at_config": int(sum(int(b) << i
                                                      for i, b in enumerate(flipped.tolist()))),
                    "context_rows_equal": True, "row_M_differs": True,
                    "row_M": tr[M].tolist(), "row_M_flipped_rule": tr2[M].tolist()}
    return None


def notion_ii_evidence(n_covered: int, bad: dict | None) -> Evidence:
    """Reading B (rows ``0..M-2`` expose every configuration): SUPPORTED when Algorithm 1 was
    exact on rows ``>= M`` of all ``n_covered`` trajectories, REFUTED by the first where it was
    not, UNDECIDED when none was covered."""
    summary = f"notion (ii): Alg. 1 exact on rows >= M in {n_covered} covered trajectories"
    if n_covered == 0:
        return Evidence.undecided(f"{summary}: none covered", method="numeric", reading="B")
    return judge_check(bad is None, summary, counterexample=bad, reading="B")

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

from .ca import CellularAutomaton


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
        rule = int(torch.randint(0, 256, (1,), generator=g))
        ca = CellularAutomaton(ECA, 2, wolfram_table(rule))
        tr = ca.trajectory(torch.randint(0, 2, (L,), generator=g), T)
        conf = ca.configurations(tr)
        early = set(conf[: M - 1].flatten().tolist())
        covered = set(conf[:M].flatten().tolist())
        if len(early) == 8:  # notion (ii): Algorithm 1 exact on rows >= M
            table = {int(c): int(x) for c, x in zip(conf[: M - 1].flatten(), tr[1:M].flatten(),
                                                    strict=True)}
            exact = all(table[int(c)] == int(x) for c, x in
                        zip(conf[M - 1:T - 1].flatten(), tr[M:].flatten(), strict=True))
            n_b += 1
            if not exact and bad_b is None:
                bad_b = {"rule": rule, "initial_row": tr[0].tolist(), "M": M}
        if cex is None and len(covered) == 8 and len(early) < 8:
            missing = sorted(covered - early)[0]
            flipped = ca.table.clone()
            flipped[missing] = 1 - flipped[missing]
            tr2 = CellularAutomaton(ECA, 2, flipped).trajectory(tr[0], T)
            if torch.equal(tr2[:M], tr[:M]) and not torch.equal(tr2[M], tr[M]):
                cex = {"rule": rule, "L": L, "M": M, "initial_row": tr[0].tolist(),
                       "config_only_in_row_M-1": missing,
                       "rule_flipped_at_config": int(sum(int(b) << i
                                                         for i, b in enumerate(flipped.tolist()))),
                       "context_rows_equal": True, "row_M_differs": True,
                       "row_M": tr[M].tolist(), "row_M_flipped_rule": tr2[M].tolist()}
    summary = "notion (i): covered context where two rules agree on it but not on row M"
    if cex is None:
        ev_a = Evidence.undecided(f"{summary}: none found", method="numeric",
                                  generality="random ECA")
    else:
        ev_a = refute_exactly(summary, cex, lhs=sp.Matrix(cex["row_M"]),
                              rhs=sp.Matrix(cex["row_M_flipped_rule"]), generality="random ECA")
    ev_b = judge_check(n_b > 0 and bad_b is None,
                       f"notion (ii): Alg. 1 exact on rows >= M in {n_b} covered trajectories",
                       counterexample=bad_b, reading="B")
    return [ev_a, ev_b]

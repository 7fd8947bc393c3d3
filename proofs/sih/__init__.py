"""Exact claims of "Spatial Induction Heads: In-Context Learning of Multidimensional Cellular
Automata" (key ``sih``): SymPy proofs and exact enumerations, never torch.

The paper's torch-free setting (neighbourhoods, ``U``, partitions) is :mod:`proofs.sih.model`;
the torch constructions and the numeric claims are in ``numerics/sih``.
"""

import verify

from .statements import STATEMENTS

PAPER = "sih"

verify.paper(
    PAPER,
    title="Spatial Induction Heads: In-Context Learning of Multidimensional Cellular Automata",
    authors="Anonymous Author(s)",
    statements=STATEMENTS,
)

__claims__ = ("setup", "optimal", "coverage", "depth", "embed", "retrieve", "main", "text")

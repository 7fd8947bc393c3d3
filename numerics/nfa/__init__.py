"""Numeric claims of "Neural Fields Meet Attention" (paper key ``nfa``).

Every module here holds claims (``__claims__``), one per id segment: :mod:`.ag`, :mod:`.eq`,
:mod:`.appd`, :mod:`.basis`, :mod:`.anis`, :mod:`.info`, and the experiments ``nfa.exp.*`` in
:mod:`.exp_table1` (Table 1, Figs 1-2, abstract), :mod:`.exp_table2` (Table 2, Fig. 3) and
:mod:`.exp_appendix` (App. E-G, Tables 3-6).

The constructions, data, trainings and measurements they build on are in :mod:`.model`, which
holds no claims.
"""

__claims__ = (
    "ag",
    "eq",
    "appd",
    "basis",
    "anis",
    "info",
    "exp_table1",
    "exp_table2",
    "exp_appendix",
)

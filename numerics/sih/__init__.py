"""Numeric claims of "Spatial Induction Heads" (key ``sih``).

Every module here holds claims (``__claims__``), one per id segment, as in ``proofs/sih``. The
paper's torch constructions, the Lemma D.2 search and the trainings of Sec. 5 are in
:mod:`.model`, which holds no claims.
"""

__claims__ = ("setup", "coverage", "naive", "embed", "decode", "retrieve", "main", "exp", "text")

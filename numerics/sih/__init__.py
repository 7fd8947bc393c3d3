"""Numeric claims of "Spatial Induction Heads" (key ``sih``) and the paper's constructions.

Constructions: :mod:`.ca` (rules and token streams), :mod:`.embedding` (App. D),
:mod:`.decoder` (Lemma E.4), :mod:`.construction` (Thm 4.3 / F.1), :mod:`.checks`
(Def. D.1 on a stream), :mod:`.training` (the experiments of Sec. 5 / App. G).
"""

__claims__ = ("setup", "coverage", "naive", "embed", "decode", "retrieve", "main", "exp", "text")

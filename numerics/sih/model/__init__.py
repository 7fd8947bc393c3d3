"""The constructions of "Spatial Induction Heads" (key ``sih``): no claims here.

:mod:`.ca` (rules and token streams), :mod:`.embedding` (App. D), :mod:`.decoder` (Lemma E.4),
:mod:`.construction` (Thm 4.3 / F.1), :mod:`.checks` (Def. D.1 on a stream), :mod:`.lemma_d2`
(the exhaustive search of Lemma D.2 with exact infeasibility certificates) and
:mod:`.training` (the experiments of Sec. 5 / App. G).
"""

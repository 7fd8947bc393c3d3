"""Numeric claims of "Gradient Dynamics of Attention" (key ``gda``).

Every module here holds claims (``__claims__``), one per id segment (the paper's metadata is
registered in ``proofs/gda``): :mod:`.identities` (float64 cross-checks of the Sec. 3 identities
proved in ``proofs/gda/identities.py``, and ``gda.routing_sign_semantics``,
``gda.update_equations``), :mod:`.dyn` (``gda.dyn.*``, Sec. 4), :mod:`.em` (``gda.em.*``, Sec.
5), :mod:`.manifold` (``gda.manifold.*``, Sec. 6), :mod:`.cite` (``gda.cite.*``),
:mod:`.exp_toy` (``gda.exp.toy.*``, Sec. 7.1), :mod:`.exp_sticky` (``gda.exp.sticky.*``, Sec.
7.2), :mod:`.diag` (``gda.diag.*``, Sec. 8.1), :mod:`.reg` (``gda.reg.*``, ``gda.arch``, Sec.
8.2-8.3), :mod:`.crr` (``gda.crr.*``, Sec. 9, and ``gda.lim``, Sec. 11) and :mod:`.interp`
(``gda.interp.*``).

The torch constructions they build on (the head, its dynamics, the trainings) are in
:mod:`.model`, which holds no claims.
"""

__claims__ = (
    "identities",
    "dyn",
    "em",
    "manifold",
    "cite",
    "exp_toy",
    "exp_sticky",
    "diag",
    "reg",
    "crr",
    "interp",
)

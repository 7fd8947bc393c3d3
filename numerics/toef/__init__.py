"""Numeric claims of "Transformers Are Optimal Effective Fields" (key ``toef``).

Every module here holds claims (``__claims__``), one per group of the paper's sections (the
same names as in ``proofs/toef/``, where the symbolic claims of each group live):
``splitting`` (Sec. 2), ``variational`` (Sec. 2.3), ``linearized`` (Sec. 3.1), ``axioms``
(Sec. 3.2), ``theorem5`` (Sec. 3.3), ``engineering`` (Sec. 4). The torch constructions they
build on are in :mod:`.model`, which holds no claims.
"""

__claims__ = ("splitting", "variational", "linearized", "axioms", "theorem5", "engineering")

"""Constructions and numeric claims of "Transformers Are Optimal Effective Fields" (key ``toef``).

Constructions (public, each citing the paper's equations; they import no claim module):

- :mod:`.wirtinger`   torch Wirtinger calculus: ``dV_dXbar``, full Wirtinger Jacobians and the
  closedness (potential-existence) defect;
- :mod:`.transformer` the Transformer ODE of Definition 1 (eq. 1, expanded and compact form),
  the linearised complex Transformer of Definition 4 (eq. 4) and its head families, the
  parallel / split Euler layers of eq. (2);
- :mod:`.potentials`  the potentials: quadratic + quartic trace (Lemma 3), log-sum-exp free
  energy (Lemma 7), cubic triple trace (Sec. 4), ``Tr exp(XWX^*)`` (EFT truncation);
- :mod:`.lie`         Lie-series tools: the BCH gate ``G(beta)`` of Lemma 8, vector-field
  brackets, Lie-Trotter products, flows of vector fields.

Claim modules, one per group of the paper's sections (the same names as in ``proofs/toef/``,
where the symbolic claims of each group live): ``splitting`` (Sec. 2), ``variational``
(Sec. 2.3), ``linearized`` (Sec. 3.1), ``axioms`` (Sec. 3.2), ``theorem5`` (Sec. 3.3),
``engineering`` (Sec. 4).
"""

__claims__ = ("splitting", "variational", "linearized", "axioms", "theorem5", "engineering")

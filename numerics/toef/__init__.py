"""Constructions and numeric claims of "Transformers Are Optimal Effective Fields" (key ``toef``).

Public modules (each a reusable construction, citing the paper's equations):

- :mod:`.wirtinger`   torch Wirtinger calculus: ``dV_dXbar``, full Wirtinger Jacobians and the
  closedness (potential-existence) defect.
- :mod:`.transformer` the Transformer ODE of Definition 1 (eq. 1, expanded and compact form),
  the linearised complex Transformer of Definition 4 (eq. 4), parallel / split Euler layers.
- :mod:`.potentials`  the potentials: quadratic + quartic trace (Lemma 3), log-sum-exp free
  energy (Lemma 7), cubic triple-trace (Sec. 4), ``Tr exp(XWX^*)`` (EFT truncation).
- :mod:`.lie`         Lie-series tools: the BCH gate ``G(beta)`` of Lemma 8, vector-field
  brackets, Lie-Trotter products, flows of vector fields.

Claim modules: ``claims_a_splitting`` (Sec. 2), ``claims_b_variational`` (Defs 2-3),
``claims_c_fields`` (Def 4, Lemma 3), ``claims_d_axioms`` (Axioms, Lemma 4), ``claims_e_width``
(Theorem 5, Lemma 6), ``claims_f_engineering`` (Sec. 4).
"""

"""The torch constructions of "Transformers Are Optimal Effective Fields" (key ``toef``): no claims
here.

Each cites the paper's equations; none imports a claim module:

- :mod:`.wirtinger`   torch Wirtinger calculus: ``dV_dXbar``, full Wirtinger Jacobians and the
  closedness (potential-existence) defect;
- :mod:`.transformer` the Transformer ODE of Definition 1 (eq. 1, expanded and compact form),
  the linearised complex Transformer of Definition 4 (eq. 4) and its head families, the
  parallel / split Euler layers of eq. (2);
- :mod:`.potentials`  the potentials: quadratic + quartic trace (Lemma 3), log-sum-exp free
  energy (Lemma 7), cubic triple trace (Sec. 4), ``Tr exp(XWX^*)`` (EFT truncation);
- :mod:`.lie`         Lie-series tools: the BCH gate ``G(beta)`` of Lemma 8, vector-field
  brackets, Lie-Trotter products, flows of vector fields;
- :mod:`.exact`       exact re-evaluation of a float64 potential on Gaussian-rational matrices
  (:class:`fractions.Fraction`, no round-off).
"""

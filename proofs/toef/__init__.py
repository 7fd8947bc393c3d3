"""Symbolic claims of "Transformers Are Optimal Effective Fields" (C. Fu; key ``toef``).

SymPy only, never torch: the torch constructions and the numeric claims are in
``numerics/toef/``, which may import from here. One module per group of claims, following the
paper's sections:

- :mod:`.model`        no claims: the paper key and the symbol matrices every module builds on,
  and :mod:`.model.anysize`, the proofs in the statements' own generality (symbolic N, C,
  every degree, every matrix size) that the modules below use beside their instances;
- :mod:`.splitting`    Sec. 2 (eq. 2, Lemma 1): BCH to second order, the "iff" of eq. (2);
- :mod:`.variational`  Sec. 2.3 (Defs 2-3): Euler-Lagrange equations, dissipative and
  conservative parts, the symplectic form, when a field has a potential;
- :mod:`.linearized`   Sec. 3.1 (Def. 4, Lemma 3): Wirtinger derivatives of the trace
  potentials in symbolic size, uniqueness of the potential;
- :mod:`.axioms`       Sec. 3.2 (Axioms 1-3, Lemma 4): the canonical form, the form of a
  U(N)-invariant flow;
- :mod:`.theorem5`     Sec. 3.3 (Theorem 5, Lemma 6): quartic invariants as Def-4 heads, widths;
- :mod:`.engineering`  Sec. 4: gated MLP, the ReLU axioms, Lemma 7 (softmax), Lemma 8 (BCH gate).
"""

import verify

from .statements import STATEMENTS

verify.paper("toef", title="Transformers Are Optimal Effective Fields", authors="Changqing Fu",
             statements=STATEMENTS)

__claims__ = ("splitting", "variational", "linearized", "axioms", "theorem5", "engineering")

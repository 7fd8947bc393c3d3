"""SymPy evidence engine: exact proofs, checked refutations, Wirtinger calculus, BCH, trig
interpolation.

Public names::

    prove_equal(lhs, rhs, *, assumptions=None, timeout=None, seed=0) -> Evidence
    prove_for_sizes(builder, sizes, ...) -> Evidence       # identities at concrete N, K
    prove_by_induction(lhs, rhs, n=None) -> InductionProof # all n >= n0, or NotApplicable
    prove_cases(cases, *, generality, scope="bounded")    # every (label, lhs, rhs) exact zero
    refute_exactly(summary, counterexample, *, lhs, rhs)   # REFUTED after an exact re-check
    wirtinger(expr, z), wirtinger_conj(expr, z), torch_grad(loss, z)
    bch(order), bch_words(order), to_commutators(poly), expand_commutator(expr)
    trig_interpolate(L, points, values, freqs), check_trig_interpolation(...)
    bound_variables_renamed(expr)                         # alpha-equivalence of flat sums
    Derivation(), prove_steps([Step(label, lhs, rhs), ...], *, summary, generality)
    requires(lemma, what, *, part), proved_in_general(ev)  # proof chains (general only if
                                                           # every link holds), see .chain

Every PROVED and REFUTED of ``prove_equal`` is re-checked by explicit evaluation
(:mod:`.confirm`), and SymPy's known-wrong automatic rewrites are neutralised
(:mod:`.unsound`).

See ``docs/engines/symbolic.md`` for worked examples.
"""

from __future__ import annotations

from .bch import X, Y, bch, bch_words, expand_commutator, lyndon_coordinates, to_commutators
from .cases import prove_cases, refute_exactly
from .chain import Derivation, Step, prove_steps, proved_in_general, requires
from .induction import InductionProof, prove_by_induction
from .prove import prove_equal, prove_for_sizes
from .sums import bound_variables_renamed
from .trig import TrigInterpolation, check_trig_interpolation, trig_interpolate
from .wirtinger import torch_grad, wirtinger, wirtinger_conj

__all__ = [
    "prove_equal",
    "prove_for_sizes",
    "prove_by_induction",
    "InductionProof",
    "prove_cases",
    "refute_exactly",
    "wirtinger",
    "wirtinger_conj",
    "torch_grad",
    "bch",
    "bch_words",
    "to_commutators",
    "expand_commutator",
    "lyndon_coordinates",
    "X",
    "Y",
    "trig_interpolate",
    "check_trig_interpolation",
    "TrigInterpolation",
    "bound_variables_renamed",
    "Derivation",
    "Step",
    "prove_steps",
    "requires",
    "proved_in_general",
]

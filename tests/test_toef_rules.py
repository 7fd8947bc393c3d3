"""Negative controls for the toef claims' own decision rules: each reaches more than one
verdict from planted data."""

import pytest

from numerics.toef.splitting import decay_evidence
from numerics.toef.variational import first_variation
from verify import Verdict

X = [16.0, 32.0, 64.0, 128.0, 256.0]


def test_decay_supported_for_a_decaying_sweep():
    assert decay_evidence(X, [x**-0.5 for x in X], "planted").verdict is Verdict.SUPPORTED


def test_decay_refuted_for_a_flat_or_growing_sweep():
    ev = decay_evidence(X, [1e-3 * x**0.2 for x in X], "planted")
    assert ev.verdict is Verdict.REFUTED and ev.counterexample["y"]


def test_decay_undecided_when_the_interval_straddles_zero():
    noisy = [1.0, 0.5, 1.5, 0.6, 1.2]
    assert decay_evidence(X, noisy, "planted").verdict is Verdict.UNDECIDED


def test_first_variation_separates_real_and_imaginary_potentials():
    assert first_variation(1j, 1.0, 1.0 + 0.5j, kappa=0.3j) < 1e-8
    assert first_variation(1.0, 1.0, 1.0 + 0.5j) > 1e-2
    with pytest.raises(ValueError):
        first_variation(1.0, 1.0, 1.0, kappa=0.5)  # no closed-form flow

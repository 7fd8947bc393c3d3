"""The numeric engine: torch + hypothesis falsification, equivariance, injectivity, margins, rates.

Public names (docs/api.md, "Numeric")::

    from verify.numeric import falsify, check_equivariance, check_injective, check_margin
    from verify.numeric import fit_rate, RateFit, rate_evidence, default_device
    from verify.numeric import judge_error, judge_check    # one rule for an error / a check
    from verify.numeric import judge_reproduction, reproduce  # one rule for an experiment
    from verify.numeric import groups                      # samplers, strategies, actions

Every function returns a :class:`verify.Evidence` (``fit_rate`` returns a :class:`RateFit`
whose ``.evidence(claimed_slope)`` does). A float32 finding is a refutation only after a
float64 re-check confirms it; tolerances are relative and scaled by the dtype's eps. Every
check has three outcomes, by the one rule of :mod:`verify.numeric.judge`: clear of its
tolerance (SUPPORTED), inside the band (UNDECIDED), beyond it (REFUTED only when the
refutation stands: exact, 10x the threshold, or again under a fresh seed). A re-run experiment
is REPRODUCED / NOT_REPRODUCED / UNDECIDED by the one rule of :mod:`verify.numeric.reproduce`.
See ``docs/engines/numeric.md`` for worked examples.
"""

from __future__ import annotations

from . import groups, reproduce
from .devices import default_device
from .equivariance import check_equivariance
from .falsify import default_tol, falsify
from .injective import check_injective
from .judge import judge_check, judge_error
from .margin import check_margin
from .rates import RateFit, fit_rate, rate_evidence
from .reproduce import experiment_evidence, judge_reproduction
from .sampling import rand, randn

__all__ = [
    "falsify",
    "check_equivariance",
    "check_injective",
    "check_margin",
    "judge_error",
    "judge_check",
    "judge_reproduction",
    "experiment_evidence",
    "reproduce",
    "default_tol",
    "fit_rate",
    "RateFit",
    "rate_evidence",
    "default_device",
    "randn",
    "rand",
    "groups",
]

"""verify: a symbolic-plus-numeric verifier for the theorems of ML-theory papers.

The public API is a few names (docs/api.md lists them all)::

    import verify

    @verify.claim("nfa.ag.linear_identity", paper="nfa", where="Theorem 3, l. 156",
                  statement=r"O = \\Phi^\\top r = -\\nabla_c \\mathcal L", kind="identity")
    def linear_identity(ctx):
        return verify.symbolic.prove_equal(lhs, rhs)

    results = verify.run("nfa.*", profile="quick", seed=0)

The engines live in subpackages loaded on first use: ``verify.symbolic`` (SymPy),
``verify.numeric`` (torch + hypothesis), ``verify.certify`` (cvxpy, exact re-check) and
``verify.report`` (LaTeX). ``verify.testing`` holds asserts for test suites
(``assert_proved``, ``assert_refuted``, ``assert_equivariant``...).
"""

from __future__ import annotations

import importlib
from typing import Any

from .combine import combine
from .context import Context
from .errors import (
    ClaimDefinitionError,
    DiscoveryError,
    DuplicateClaimError,
    EvidenceError,
    ReportError,
    ResultsFileError,
    UnknownClaimError,
    UsageError,
    VerifyError,
)
from .evidence import Evidence
from .registry import KINDS, REGISTRY, Paper, claim, evidence_for, paper
from .results import ClaimResult, Results
from .results import load as load_results
from .runner import run
from .verdict import Verdict

__version__ = "0.1.0"

__all__ = [
    "Verdict",
    "Evidence",
    "Context",
    "claim",
    "evidence_for",
    "paper",
    "Paper",
    "run",
    "Results",
    "ClaimResult",
    "load_results",
    "combine",
    "KINDS",
    "REGISTRY",
    "VerifyError",
    "ClaimDefinitionError",
    "DuplicateClaimError",
    "UnknownClaimError",
    "DiscoveryError",
    "UsageError",
    "EvidenceError",
    "ResultsFileError",
    "ReportError",
    "symbolic",
    "numeric",
    "certify",
    "report",
    "testing",
]

_ENGINES = ("symbolic", "numeric", "certify", "report", "testing")


def __getattr__(name: str) -> Any:
    # The engines import sympy / torch / cvxpy; load them only when used.
    if name in _ENGINES:
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'verify' has no attribute {name!r}")

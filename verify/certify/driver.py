"""The one certification driver LP, SOCP and SDP share: solve in floats, round to rationals,
keep what passes the exact check, re-check every kept certificate, then decide.

Each engine supplies its own solve-and-round step (``certify_lp``, ``certify_socp``,
``certify_sdp``: an :class:`~verify.certify.certificate.Outcome` holding the certificates
that passed its exact check) and its own exact check (``check_*_certificate``);
:func:`certify` runs them in that order and turns the outcome into evidence with
:func:`~verify.certify.certificate.decide`. The helpers the engines share (the cvxpy solver
order, a guarded solve, the float views of exact data, the margin ladder) live here too, so
no engine reaches into another's private names.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any, TypeVar

import numpy as np

from ..evidence import Evidence
from .certificate import Certificate, ClaimSpec, Outcome, decide
from .exact import Matrix

log = logging.getLogger(__name__)

#: Margins (times the data scale) tried when plain rounding breaks a cone's membership
#: (PSD-ness, a second-order cone): the rounded point is then solved for strictly inside.
MARGINS: tuple[float, ...] = (0.0, 1e-9, 1e-8, 1e-7, 1e-6)

P = TypeVar("P")


def certify(
    problem: P,
    *,
    solve_and_round: Callable[[P], Outcome],
    check: Callable[[P, Certificate], tuple[bool, str]],
    claim: ClaimSpec,
    gap_tol: float,
    what: str,
) -> Evidence:
    """Solve and round ``problem``, re-check every certificate kept against ``check`` (a
    kept certificate that fails it is an internal error, never evidence), and decide the
    ``claim`` from what passed (:func:`~verify.certify.certificate.decide`)."""
    out = solve_and_round(problem)
    for cert in out.certificates.values():  # belt and braces: every kept certificate re-checked
        ok, why = check(problem, cert)
        if not ok:
            raise AssertionError(f"internal error: kept a certificate that fails its check: {why}")
    return decide(out, claim, gap_tol=gap_tol, what=what)


def conic_solver(preferred: str | None) -> str | None:
    """The cvxpy solver for a conic (SOCP, SDP) problem: ``preferred`` if installed, else
    CLARABEL, then SCS; ``None`` when none is installed."""
    import cvxpy as cp

    have = cp.installed_solvers()
    for s in ([preferred] if preferred else ["CLARABEL", "SCS"]):
        if s in have:
            return s
    return None


def solve_status(prob: Any, solver: str) -> str:
    """Solve the cvxpy problem ``prob``; its status, or ``"error: ..."`` when the solver
    failed (solver trouble means UNDECIDED, not a crash)."""
    try:
        prob.solve(solver=solver)
    except Exception as e:
        log.info("cvxpy %s failed: %s", solver, e)
        return f"error: {type(e).__name__}"
    return str(prob.status)


def float_matrix(A: Matrix, n: int) -> np.ndarray:
    """The exact ``len(A) x n`` matrix ``A`` in float64 (for the solver only)."""
    return np.array([[float(v) for v in r] for r in A], dtype=float).reshape(len(A), n)


def float_vector(v: Sequence[Fraction]) -> np.ndarray:
    """The exact vector ``v`` in float64 (for the solver only)."""
    return np.array([float(x) for x in v], dtype=float)

"""Certificates from cvxpy, re-checked in exact rational arithmetic.

The solver's answer is never trusted alone. Each engine solves with cvxpy, rounds the
primal point and the dual multipliers to rationals, and re-checks them with Fractions:
primal feasibility, the dual bound (weak duality), a Farkas certificate of infeasibility,
a second-order cone by squares (``u^T u <= t^2``, ``t >= 0``), a PSD matrix by exact LDL^T.
Only what passes is CERTIFIED (``method="certificate"``, which verify/combine.py's audit
requires of a CERTIFIED piece);
a claim contradicted by an exactly checked certificate is REFUTED, with that certificate
as counterexample; anything else is UNDECIDED with the reason.

Public names::

    lp(c, A_ub, b_ub, A_eq, b_eq, bounds, *, sense, claim_bound, claim_value, tol,
       claim_feasible) -> Evidence
    socp(c, cones, A_ub, b_ub, A_eq, b_eq, bounds, *, sense, claim_bound, claim_value, tol,
         claim_feasible) -> Evidence     # cones: [(F, g, h, d)], ||F x + g|| <= h^T x + d
    sdp(C, A, b, *, sense, claim_bound, claim_value, tol, claim_feasible) -> Evidence
    lmi(F0, F, *, strict) -> Evidence        # find y with F0 + sum y_i F_i PSD
    check_certificate(problem, certificate) -> (ok, reason)
    is_psd_exact(M, strict=False), psd_witness(M), min_eig_lower_bound_holds(M, t)

See docs/engines/certify.md for a worked example.
"""

from __future__ import annotations

from .certificate import Certificate, ClaimSpec, Outcome
from .check import check_certificate
from .exact import is_psd_exact, min_eig_lower_bound_holds, psd_witness, to_fraction, to_matrix
from .lp import LPProblem, certify_lp, check_lp_certificate, lp
from .sdp import (
    LMIProblem,
    SDPProblem,
    certify_sdp,
    check_lmi_certificate,
    check_sdp_certificate,
    lmi,
    sdp,
)
from .socp import SOCCone, SOCPProblem, certify_socp, check_socp_certificate, socp

__all__ = [
    "lp",
    "socp",
    "SOCPProblem",
    "SOCCone",
    "certify_socp",
    "check_socp_certificate",
    "sdp",
    "lmi",
    "SDPProblem",
    "LMIProblem",
    "certify_sdp",
    "check_sdp_certificate",
    "check_lmi_certificate",
    "check_certificate",
    "Certificate",
    "ClaimSpec",
    "Outcome",
    "LPProblem",
    "certify_lp",
    "check_lp_certificate",
    "is_psd_exact",
    "psd_witness",
    "min_eig_lower_bound_holds",
    "to_fraction",
    "to_matrix",
]

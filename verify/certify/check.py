"""``check_certificate``: re-check a given certificate against a given problem, exactly."""

from __future__ import annotations

from typing import Any

from .certificate import Certificate


def check_certificate(problem: Any, certificate: Certificate) -> tuple[bool, str]:
    """``(ok, reason)``: does ``certificate`` prove what it says about ``problem``?

    Works on an :class:`~verify.certify.lp.LPProblem`, an
    :class:`~verify.certify.socp.SOCPProblem` or an
    :class:`~verify.certify.sdp.SDPProblem` (or :class:`~verify.certify.sdp.LMIProblem`).
    Everything is recomputed from the rational data; the certificate's own claims (its
    ``value``) are only compared against. A tampered certificate fails with the reason.
    """
    from .lp import LPProblem, check_lp_certificate

    if isinstance(problem, LPProblem):
        return check_lp_certificate(problem, certificate)
    from .socp import SOCPProblem, check_socp_certificate

    if isinstance(problem, SOCPProblem):
        return check_socp_certificate(problem, certificate)
    try:
        from .sdp import LMIProblem, SDPProblem, check_lmi_certificate, check_sdp_certificate
    except ImportError:  # pragma: no cover - sdp module missing
        SDPProblem = LMIProblem = None  # type: ignore[assignment,misc]
    if SDPProblem is not None and isinstance(problem, SDPProblem):
        return check_sdp_certificate(problem, certificate)
    if LMIProblem is not None and isinstance(problem, LMIProblem):
        return check_lmi_certificate(problem, certificate)
    raise TypeError(f"no certificate checker for {type(problem).__name__}")

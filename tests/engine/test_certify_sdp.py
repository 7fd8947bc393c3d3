"""verify.certify.sdp / lmi: PSD-ness re-checked by exact LDL^T, tampering caught."""

from fractions import Fraction as F

import numpy as np

from verify import Verdict
from verify.certify import (
    Certificate,
    LMIProblem,
    SDPProblem,
    certify_sdp,
    check_certificate,
    lmi,
    sdp,
)

M = np.array([[2, 1, 0], [1, 2, 1], [0, 1, 2]], dtype=float)  # lambda_min = 2 - sqrt(2)
LMIN = 2 - 2**0.5


def _E(i: int, j: int, n: int = 3) -> np.ndarray:
    """Symmetric selector: <E_ij, X> = X_ij."""
    E = np.zeros((n, n))
    E[i, j] += 0.5
    E[j, i] += 0.5
    return E


def test_min_eigenvalue_sdp_interval_certified() -> None:
    ev = sdp(M, [np.eye(3)], [1])  # min <M, X>, tr X = 1, X PSD  = lambda_min(M)
    assert ev.verdict is Verdict.CERTIFIED
    lo, hi = F(ev.numbers["lower_bound"]), F(ev.numbers["upper_bound"])
    assert lo <= F(LMIN) <= hi and hi - lo < F(1, 10**6)


def test_claimed_too_good_eigen_bound_refuted() -> None:
    assert sdp(M, [np.eye(3)], [1], claim_bound=F(1, 2)).verdict is Verdict.CERTIFIED
    ev = sdp(M, [np.eye(3)], [1], claim_bound=F(3, 5))  # claims lambda_min >= 0.6
    assert ev.verdict is Verdict.REFUTED and ev.counterexample["kind"] == "primal"


def test_psd_completion_certified_and_impossible_one_refuted() -> None:
    A = [_E(0, 0), _E(1, 1), _E(2, 2), _E(0, 1), _E(1, 2)]
    ev = sdp(np.zeros((3, 3)), A, [1, 1, 1, F(9, 10), F(9, 10)], claim_feasible=True)
    assert ev.verdict is Verdict.CERTIFIED
    ev = sdp(np.zeros((3, 3)), [*A, _E(0, 2)], [1, 1, 1, F(9, 10), F(9, 10), F(-9, 10)],
             claim_feasible=True)
    assert ev.verdict is Verdict.REFUTED and ev.counterexample["kind"] == "farkas"


def test_sdp_certificates_and_tampering() -> None:
    p = SDPProblem.make(M, [np.eye(3)], [1])
    certs = certify_sdp(p).certificates
    assert check_certificate(p, certs["primal"])[0] and check_certificate(p, certs["dual"])[0]
    y = certs["dual"].values["y"]
    nudged = Certificate("dual", {"y": [y[0] + F(1, 10**4)]}, certs["dual"].value)
    ok, why = check_certificate(p, nudged)
    assert not ok and "not PSD" in why  # slack M - y I loses PSD-ness
    X = [[list(r) for r in B] for B in certs["primal"].values["X"]]
    X[0][0][0] += F(1, 10**9)
    ok, why = check_certificate(p, Certificate("primal", {"X": X}, certs["primal"].value))
    assert not ok and "equation" in why


def test_non_psd_rounded_matrix_rejected() -> None:
    p = SDPProblem.make(np.zeros((2, 2)), [np.eye(2)], [2])
    bad = [[[F(2), F(1)], [F(1), F(0)]]]  # trace 2 but det -1
    ok, why = check_certificate(p, Certificate("primal", {"X": bad}))
    assert not ok and "not PSD" in why
    good = [[[F(1), F(1)], [F(1), F(1)]]]  # singular PSD, accepted exactly
    assert check_certificate(p, Certificate("primal", {"X": good}))[0]


def _lyapunov(Am: np.ndarray) -> list[np.ndarray]:
    """F_k = blockdiag(P_k, -(A^T P_k + P_k A)) for the basis P_k of symmetric 2x2 matrices."""
    Fs = []
    for i, j in [(0, 0), (0, 1), (1, 1)]:
        P = np.zeros((2, 2))
        P[i, j] = P[j, i] = 1
        Z = np.zeros((2, 2))
        Fs.append(np.block([[P, Z], [Z, -(Am.T @ P + P @ Am)]]))
    return Fs


def test_lyapunov_lmi_certified_strictly() -> None:
    Fs = _lyapunov(np.array([[-1.0, 2.0], [0.0, -3.0]]))
    ev = lmi(np.zeros((4, 4)), Fs, strict=True)
    assert ev.verdict is Verdict.CERTIFIED
    y = ev.numbers["certificates"]["primal"]["y"]
    assert check_certificate(LMIProblem.make(np.zeros((4, 4)), Fs, strict=True),
                             Certificate("primal", {"y": y}))[0]


def test_unstable_lyapunov_lmi_refuted_with_alternative() -> None:
    Fs = _lyapunov(np.array([[1.0, 2.0], [0.0, -3.0]]))  # eigenvalue +1: no Lyapunov P
    ev = lmi(np.zeros((4, 4)), Fs, strict=True)
    assert ev.verdict is Verdict.REFUTED
    p = LMIProblem.make(np.zeros((4, 4)), Fs, strict=True)
    Z = ev.counterexample["Z"]
    assert check_certificate(p, Certificate("farkas", {"Z": Z}))[0]
    Z_bad = [list(r) for r in Z]
    Z_bad[0] = ["-1"] + list(Z_bad[0][1:])
    assert not check_certificate(p, Certificate("farkas", {"Z": Z_bad}))[0]

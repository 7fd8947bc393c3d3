"""verify.certify.lp: certificates are rounded, then re-checked exactly; tampering is caught."""

from fractions import Fraction as F

import numpy as np

from verify import Verdict
from verify.certify import Certificate, LPProblem, certify_lp, check_certificate, lp
from verify.combine import audit

# max x + 2y  s.t.  x + y <= 4,  x - y <= 1,  x, y >= 0: optimum 8 at (0, 4)
C, A, B = [1, 2], [[1, 1], [1, -1]], [4, 1]


def test_lp_optimum_certified_exactly() -> None:
    ev = lp(C, A, B, sense="max")
    assert ev.verdict is Verdict.CERTIFIED and ev.method == "certificate"
    assert ev.numbers["lower_bound"] == "8" and ev.numbers["upper_bound"] == "8"
    assert audit(ev).verdict is Verdict.CERTIFIED


def test_lp_rational_data_rational_optimum() -> None:
    ev = lp([F(1, 3), F(2, 7)], A, B, bounds=(None, None), sense="max")
    assert ev.verdict is Verdict.CERTIFIED
    assert ev.numbers["upper_bound"] == ev.numbers["lower_bound"] == "53/42"


def test_lp_float_data_random_instances() -> None:
    rng = np.random.default_rng(1)
    for _ in range(3):
        A_ub = rng.normal(size=(15, 8))
        ev = lp(rng.normal(size=8), A_ub, rng.uniform(1, 2, size=15), bounds=(-1, 1))
        assert ev.verdict is Verdict.CERTIFIED, ev.summary
        assert F(ev.numbers["lower_bound"]) <= F(ev.numbers["upper_bound"])


def test_infeasible_lp_farkas_certified() -> None:
    # x + y >= 3 with x, y in [0, 1]
    ev = lp([1, 1], [[-1, -1]], [-3], bounds=[(0, 1), (0, 1)])
    assert ev.verdict is Verdict.CERTIFIED and ev.numbers["status"] == "infeasible"
    ev = lp([1, 1], [[-1, -1]], [-3], bounds=(0, 1), claim_feasible=True)
    assert ev.verdict is Verdict.REFUTED


def test_unbounded_lp_ray() -> None:
    ev = lp([-1, 0], [[0, 1]], [1], bounds=(None, None))
    assert ev.verdict is Verdict.CERTIFIED and ev.numbers["status"] == "unbounded"
    ev = lp([-1, 0], [[0, 1]], [1], bounds=(None, None), claim_bound=-100)
    assert ev.verdict is Verdict.REFUTED


def test_claimed_too_good_bound_refuted_with_exact_point() -> None:
    ev = lp(C, A, B, sense="max", claim_bound=7)  # claims max <= 7; (0, 4) gives 8
    assert ev.verdict is Verdict.REFUTED
    assert ev.counterexample["x"] == ["0", "4"] and ev.counterexample["value"] == "8"
    p = LPProblem.make(C, A, B, sense="max")
    ok, _ = check_certificate(p, Certificate("primal", {"x": [F(0), F(4)]}, F(8)))
    assert ok and audit(ev).verdict is Verdict.REFUTED


def test_claims_certified_or_undecided() -> None:
    assert lp(C, A, B, sense="max", claim_bound=8).verdict is Verdict.CERTIFIED
    assert lp(C, A, B, sense="max", claim_value=8).verdict is Verdict.CERTIFIED
    assert lp(C, A, B, sense="max", claim_value=9).verdict is Verdict.REFUTED  # dual proves <= 8
    ev = lp(C, A, B, sense="max", claim_value=F(8001, 1000), tol=F(1, 100))
    assert ev.verdict is Verdict.CERTIFIED


def _certs() -> tuple[LPProblem, dict]:
    p = LPProblem.make(C, A, B, sense="max")
    out = certify_lp(p)
    assert set(out.certificates) >= {"primal", "dual"}
    return p, out.certificates


def test_genuine_certificates_pass_check() -> None:
    p, certs = _certs()
    for cert in certs.values():
        ok, why = check_certificate(p, cert)
        assert ok, why


def test_tampered_primal_rejected() -> None:
    p, certs = _certs()
    x = list(certs["primal"].values["x"])
    x[1] += F(1, 10**9)  # one entry nudged: breaks x + y <= 4
    ok, why = check_certificate(p, Certificate("primal", {"x": x}, certs["primal"].value))
    assert not ok and "infeasible" in why
    x = list(certs["primal"].values["x"])
    x[1] -= 1  # still feasible, but no longer the claimed objective
    ok, why = check_certificate(p, Certificate("primal", {"x": x}, certs["primal"].value))
    assert not ok and "objective" in why


def test_tampered_dual_rejected() -> None:
    p, certs = _certs()
    d = certs["dual"]
    lam = list(d.values["lam"])
    lam[0] -= F(1, 10**6)  # weaker multiplier: bound no longer proves <= 8
    ok, why = check_certificate(p, Certificate("dual", {"lam": lam, "nu": d.values["nu"]}, d.value))
    assert not ok, why
    ok, _ = check_certificate(p, Certificate("dual", {"lam": [F(-1), F(0)], "nu": []}, d.value))
    assert not ok  # negative multiplier
    ok, _ = check_certificate(p, Certificate("dual", dict(d.values), F(79, 10)))
    assert not ok  # genuine multipliers, but a claimed bound they do not prove


def test_tampered_farkas_rejected() -> None:
    p = LPProblem.make([1, 1], [[-1, -1]], [-3], bounds=(0, 1))
    fk = certify_lp(p).certificates["farkas"]
    assert check_certificate(p, fk)[0]
    ok, why = check_certificate(p, Certificate("farkas", {"lam": [F(0)], "nu": []}))
    assert not ok and "no contradiction" in why

"""verify.certify.socp: cones re-checked by squares, dual bounds exact, tampering caught."""

from fractions import Fraction as F

import numpy as np

from verify import Verdict
from verify.certify import Certificate, SOCPProblem, certify_socp, check_certificate, socp
from verify.combine import audit

# distance from a = (4, 5) to the box [0, 1]^2: variables (x1, x2, t), min t s.t.
# ||x - a|| <= t; the nearest point is (1, 1) at distance sqrt(9 + 16) = 5
BOX_C = [0, 0, 1]
BOX_CONE = ([[1, 0, 0], [0, 1, 0]], [-4, -5], [0, 0, 1], 0)
BOX_BOUNDS = [(0, 1), (0, 1), (None, None)]


def _box() -> SOCPProblem:
    return SOCPProblem.make(BOX_C, [BOX_CONE], bounds=BOX_BOUNDS)


def test_box_distance_certified_exactly() -> None:
    ev = socp(BOX_C, [BOX_CONE], bounds=BOX_BOUNDS)
    assert ev.verdict is Verdict.CERTIFIED and ev.method == "certificate", ev.summary
    assert ev.numbers["lower_bound"] == ev.numbers["upper_bound"] == "5"
    certs = ev.numbers["certificates"]
    assert certs["primal"]["x"] == ["1", "1", "5"]
    assert certs["dual"]["cone_lam"] == [["3/5", "4/5"]] and certs["dual"]["cone_mu"] == ["1"]
    assert audit(ev).verdict is Verdict.CERTIFIED
    assert socp(BOX_C, [BOX_CONE], bounds=BOX_BOUNDS, claim_value=5).verdict is Verdict.CERTIFIED


def test_irrational_optimum_bracketed_through_margins() -> None:
    # distance from (2, 2) to the unit box is sqrt(2): only an interval can be certified
    cone = ([[1, 0, 0], [0, 1, 0]], [-2, -2], [0, 0, 1], 0)
    ev = socp(BOX_C, [cone], bounds=BOX_BOUNDS)
    assert ev.verdict is Verdict.CERTIFIED, ev.summary
    lo, hi = F(ev.numbers["lower_bound"]), F(ev.numbers["upper_bound"])
    assert lo * lo <= 2 <= hi * hi and hi - lo < F(1, 10**6)
    ev = socp(BOX_C, [cone], bounds=BOX_BOUNDS, claim_bound=F(141, 100))
    assert ev.verdict is Verdict.CERTIFIED  # the dual proves opt >= 1.41
    ev = socp(BOX_C, [cone], bounds=BOX_BOUNDS, claim_value=F(3, 2), tol=F(1, 100))
    assert ev.verdict is Verdict.REFUTED and ev.counterexample["kind"] == "primal"


def test_claimed_too_good_bound_refuted_with_exact_point() -> None:
    ev = socp(BOX_C, [BOX_CONE], bounds=BOX_BOUNDS, claim_bound=6)  # claims distance >= 6
    assert ev.verdict is Verdict.REFUTED and audit(ev).verdict is Verdict.REFUTED
    cex = ev.counterexample
    assert cex["kind"] == "primal" and cex["value"] == "5" and cex["claim"] == "opt >= 6"
    point = Certificate("primal", {"x": [F(v) for v in cex["x"]]}, F(cex["value"]))
    ok, why = check_certificate(_box(), point)
    assert ok, why


def test_tampered_primal_outside_cone_rejected() -> None:
    p = _box()
    out = certify_socp(p)
    assert set(out.certificates) == {"primal", "dual"}
    for cert in out.certificates.values():
        assert check_certificate(p, cert)[0]
    x = list(out.certificates["primal"].values["x"])
    x[2] -= F(1, 10**12)  # t just below ||x - a|| = 5
    ok, why = check_certificate(p, Certificate("primal", {"x": x}, x[2]))
    assert not ok and "cone 0" in why and "||u||^2" in why
    ok, why = check_certificate(p, Certificate("primal", {"x": [F(1), F(1), F(-5)]}, F(-5)))
    assert not ok and "t = " in why  # ||u||^2 <= t^2 holds, t >= 0 does not
    ok, why = check_certificate(p, Certificate("primal", {"x": [F(1), F(1), F(6)]}, F(5)))
    assert not ok and "objective" in why  # feasible, but not the claimed value


def test_tampered_dual_rejected() -> None:
    p = _box()
    d = certify_socp(p).certificates["dual"]
    bad = dict(d.values, cone_lam=[[F(3, 5), F(4, 5) + F(1, 10**9)]])  # ||lambda|| > mu
    ok, why = check_certificate(p, Certificate("dual", bad, d.value))
    assert not ok and "outside the cone" in why
    ok, why = check_certificate(p, Certificate("dual", dict(d.values, cone_mu=[F(11, 10)]),
                                               d.value))
    assert not ok and "r[2]" in why  # stationarity in the free variable t broken
    ok, why = check_certificate(p, Certificate("dual", dict(d.values), F(51, 10)))
    assert not ok and "proves only" in why


def test_least_norm_point_on_plane_certified_exactly() -> None:
    # Euclidean projection of 0 onto x + 2y + 2z = 9: foot (1, 2, 2), distance 3
    ev = socp([0, 0, 0, 1], [([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0]], None, [0, 0, 0, 1], 0)],
              A_eq=[[1, 2, 2, 0]], b_eq=[9])
    assert ev.verdict is Verdict.CERTIFIED, ev.summary
    assert ev.numbers["lower_bound"] == ev.numbers["upper_bound"] == "3"
    assert ev.numbers["certificates"]["primal"]["x"] == ["1", "2", "2", "3"]
    assert ev.numbers["certificates"]["dual"]["nu"] == ["-1/3"]


def test_max_sense_and_feasibility_claims() -> None:
    unit = ([[1, 0], [0, 1]], None, None, 1)  # ||x|| <= 1
    ev = socp([3, 4], [unit], sense="max")  # max 3x + 4y on the unit disc = 5 at (3/5, 4/5)
    assert ev.verdict is Verdict.CERTIFIED
    assert ev.numbers["upper_bound"] == ev.numbers["lower_bound"] == "5"
    assert socp([3, 4], [unit], sense="max", claim_bound=F(49, 10)).verdict is Verdict.REFUTED
    assert socp([3, 4], [unit], sense="max", claim_feasible=True).verdict is Verdict.CERTIFIED


def test_infeasible_socp_farkas_certified_and_checked() -> None:
    unit = ([[1, 0], [0, 1]], None, None, 1)
    p = SOCPProblem.make([0, 0], [unit], A_ub=[[-1, 0]], b_ub=[-2])  # ||x|| <= 1 and x1 >= 2
    ev = socp([0, 0], [unit], A_ub=[[-1, 0]], b_ub=[-2], claim_feasible=True)
    assert ev.verdict is Verdict.REFUTED and ev.counterexample["kind"] == "farkas"
    fk = certify_socp(p).certificates["farkas"]
    assert check_certificate(p, fk)[0]
    zero = dict(fk.values, lam=[F(0)], cone_lam=[[F(0), F(0)]], cone_mu=[F(0)])
    ok, why = check_certificate(p, Certificate("farkas", zero))
    assert not ok and "no contradiction" in why


def test_float_data_free_variables_interval_certified() -> None:
    # float data taken exactly; free variables force the exact repair of stationarity
    rng = np.random.default_rng(3)
    n, x0 = 5, rng.normal(size=5)
    cones = []
    for _ in range(3):
        Fm, g, h = rng.normal(size=(3, n)), rng.normal(size=3), rng.normal(size=n)
        cones.append((Fm, g, h, float(np.linalg.norm(Fm @ x0 + g) - h @ x0 + 1.0)))
    A_eq = rng.normal(size=(1, n))
    p = SOCPProblem.make(rng.normal(size=n), cones, A_eq=A_eq, b_eq=A_eq @ x0)
    out = certify_socp(p)
    assert set(out.certificates) == {"primal", "dual"}, out.failures
    for cert in out.certificates.values():
        assert check_certificate(p, cert)[0]
    lo, hi = out.certificates["dual"].value, out.certificates["primal"].value
    assert lo <= hi and hi - lo <= F(1, 10**6) * (1 + abs(hi))


def test_unbounded_socp_is_undecided_not_certified() -> None:
    ev = socp([1, 0], [([[0, 1]], None, None, 1)])  # min x1 with only |x2| <= 1: unbounded
    assert ev.verdict is Verdict.UNDECIDED and "ray" in ev.summary

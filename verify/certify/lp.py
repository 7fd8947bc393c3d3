"""Linear programs: solve with cvxpy, round, re-check the certificates exactly.

The problem, in scipy ``linprog`` form::

    min (or max)  c^T x   s.t.  A_ub x <= b_ub,   A_eq x = b_eq,   l <= x <= u

The data is converted to Fractions once (floats exactly, as their binary value), so every
certificate is about *this* rational problem. The solver (cvxpy: HiGHS, then Clarabel) is
only a hint; what it returns is rounded (:mod:`verify.certify.rounding`) and then checked
exactly (:func:`check_lp_certificate`):

* **primal** ``x``: every constraint holds exactly; its objective is an exact bound on opt.
* **dual** ``(lam, nu)``, ``lam >= 0``, in the min-form Lagrangian
  ``L = c^T x + lam^T (A_ub x - b_ub) + nu^T (A_eq x - b_eq)``. With the reduced cost
  ``r = c + A_ub^T lam + A_eq^T nu``, every feasible ``x`` has
  ``c^T x >= -lam^T b_ub - nu^T b_eq + sum_j min(r_j l_j, r_j u_j)``, a finite bound
  whenever ``r_j`` vanishes where the bound it would need is infinite. No equation has to
  hold exactly: a rounding residual in ``r`` is paid for with the finite bounds.
* **farkas**: the same with ``c = 0`` and a bound ``> 0``: no ``x`` is feasible.
* **ray**: a feasible ``x`` and a direction ``d`` with ``A_ub d <= 0``, ``A_eq d = 0``,
  ``d`` pointing inside the bounds and ``c^T d < 0`` (min): the LP is unbounded.

For ``sense="max"`` the problem is handled as ``min (-c)^T x``; certificate values are
reported in the user's sense (a dual of a max problem proves an *upper* bound).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from ..evidence import Evidence
from .certificate import Certificate, ClaimSpec, Outcome
from .driver import certify, float_matrix, float_vector
from .exact import Matrix, Vector, dot, matvec, rmatvec, to_fraction, to_matrix, to_vector
from .rounding import DENOMINATORS, candidates, project_affine, round_vector, scale_of

log = logging.getLogger(__name__)

Bound = Fraction | None


@dataclass
class LPProblem:
    """An LP with exact rational data (``None`` in ``lower``/``upper``: no bound)."""

    c: Vector
    A_ub: Matrix
    b_ub: Vector
    A_eq: Matrix
    b_eq: Vector
    lower: list[Bound]
    upper: list[Bound]
    sense: str = "min"

    @property
    def n(self) -> int:
        return len(self.c)

    @property
    def c_min(self) -> Vector:
        """The objective of the equivalent minimisation."""
        return list(self.c) if self.sense == "min" else [-v for v in self.c]

    @classmethod
    def make(
        cls,
        c: Any,
        A_ub: Any = None,
        b_ub: Any = None,
        A_eq: Any = None,
        b_eq: Any = None,
        bounds: Any = (0, None),
        sense: str = "min",
    ) -> LPProblem:
        """Exact problem from array-likes (``bounds`` as in ``scipy.optimize.linprog``)."""
        if sense not in ("min", "max"):
            raise ValueError(f"sense must be 'min' or 'max', got {sense!r}")
        cv = to_vector(c)
        n = len(cv)
        Aub, Aeq = to_matrix(A_ub), to_matrix(A_eq)
        bub = to_vector(b_ub) if b_ub is not None else []
        beq = to_vector(b_eq) if b_eq is not None else []
        for name, A, b in (("ub", Aub, bub), ("eq", Aeq, beq)):
            if len(A) != len(b) or any(len(r) != n for r in A):
                raise ValueError(f"A_{name} / b_{name} shapes do not match c (n={n})")
        lower, upper = _parse_bounds(bounds, n)
        return cls(cv, Aub, bub, Aeq, beq, lower, upper, sense)


def _opt(v: Any) -> Bound:
    if v is None:
        return None
    if isinstance(v, float) and np.isinf(v):
        return None
    return to_fraction(v)


def _parse_bounds(bounds: Any, n: int) -> tuple[list[Bound], list[Bound]]:
    if bounds is None:
        bounds = (0, None)
    if isinstance(bounds, tuple) and len(bounds) == 2 and not isinstance(bounds[0], (tuple, list)):
        pairs = [bounds] * n
    else:
        pairs = list(bounds)
        if len(pairs) != n:
            raise ValueError(f"bounds: expected {n} (lo, hi) pairs, got {len(pairs)}")
    lower = [_opt(lo) for lo, _ in pairs]
    upper = [_opt(hi) for _, hi in pairs]
    for j, (lo, hi) in enumerate(zip(lower, upper, strict=True)):
        if lo is not None and hi is not None and lo > hi:
            raise ValueError(f"bounds of x[{j}]: lower {lo} > upper {hi}")
    return lower, upper


# -- exact checks ----------------------------------------------------------------------------
def point_violation(p: LPProblem, x: Vector, *, homogeneous: bool = False) -> str | None:
    """Why ``x`` is not feasible (``homogeneous``: as a recession direction), or None."""
    if len(x) != p.n:
        return f"point has {len(x)} entries, expected {p.n}"
    for j, xj in enumerate(x):
        lo, hi = p.lower[j], p.upper[j]
        if lo is not None and xj < (0 if homogeneous else lo):
            return f"x[{j}] = {xj} below its lower bound"
        if hi is not None and xj > (0 if homogeneous else hi):
            return f"x[{j}] = {xj} above its upper bound"
    for i, (ax, b) in enumerate(zip(matvec(p.A_ub, x), p.b_ub, strict=True)):
        if ax > (0 if homogeneous else b):
            return f"inequality row {i} violated by {ax - (0 if homogeneous else b)}"
    for i, (ax, b) in enumerate(zip(matvec(p.A_eq, x), p.b_eq, strict=True)):
        if ax != (0 if homogeneous else b):
            return f"equality row {i} off by {ax - (0 if homogeneous else b)}"
    return None


def dual_bound(
    p: LPProblem, lam: Vector, nu: Vector, *, objective: bool = True
) -> tuple[Fraction | None, str]:
    """The exact min-form lower bound proved by ``(lam, nu)`` (None, reason if invalid).

    ``objective=False`` uses ``c = 0`` (the Farkas case: a bound > 0 proves infeasibility).
    """
    if len(lam) != len(p.A_ub) or len(nu) != len(p.A_eq):
        return None, "multiplier lengths do not match the constraints"
    neg = next((i for i, v in enumerate(lam) if v < 0), None)
    if neg is not None:
        return None, f"inequality multiplier lam[{neg}] = {lam[neg]} is negative"
    base = p.c_min if objective else [Fraction(0)] * p.n
    r = [a + b + e for a, b, e in zip(base, rmatvec(p.A_ub, lam, p.n),
                                       rmatvec(p.A_eq, nu, p.n), strict=True)]
    bound = -dot(lam, p.b_ub) - dot(nu, p.b_eq)
    for j, rj in enumerate(r):
        lo, hi = p.lower[j], p.upper[j]
        if rj > 0:
            if lo is None:
                return None, f"reduced cost r[{j}] = {rj} > 0 but x[{j}] has no lower bound"
            bound += rj * lo
        elif rj < 0:
            if hi is None:
                return None, f"reduced cost r[{j}] = {rj} < 0 but x[{j}] has no upper bound"
            bound += rj * hi
    return bound, "ok"


def check_lp_certificate(p: LPProblem, cert: Certificate) -> tuple[bool, str]:
    """Re-check ``cert`` against ``p`` in exact arithmetic: ``(ok, reason)``."""
    sign = 1 if p.sense == "min" else -1
    try:
        if cert.kind in ("primal", "ray"):
            x = [to_fraction(v) for v in cert.values["x"]]
            why = point_violation(p, x)
            if why:
                return False, f"primal point infeasible: {why}"
            obj = dot(p.c, x)
            if cert.kind == "primal":
                if cert.value is not None and obj != cert.value:
                    return False, f"objective of the point is {obj}, certificate says {cert.value}"
                return True, f"feasible point, objective {obj}"
            d = [to_fraction(v) for v in cert.values["d"]]
            why = point_violation(p, d, homogeneous=True)
            if why:
                return False, f"not a recession direction: {why}"
            slope = dot(p.c_min, d)
            if slope >= 0:
                return False, f"direction does not improve the objective (min-form slope {slope})"
            return True, f"feasible point and improving ray (min-form slope {slope})"
        lam = [to_fraction(v) for v in cert.values["lam"]]
        nu = [to_fraction(v) for v in cert.values["nu"]]
        if cert.kind == "farkas":
            b, why = dual_bound(p, lam, nu, objective=False)
            if b is None:
                return False, f"Farkas certificate invalid: {why}"
            if b <= 0:
                return False, f"Farkas certificate proves only 0 >= {b}, no contradiction"
            return True, f"Farkas certificate: 0 >= {b} > 0 for every feasible point"
        b, why = dual_bound(p, lam, nu)
        if b is None:
            return False, f"dual certificate invalid: {why}"
        bound = sign * b
        if cert.value is not None and sign * cert.value > b:
            rel = ">=" if p.sense == "min" else "<="
            return False, f"dual proves only opt {rel} {bound}, certificate claims {cert.value}"
        return True, f"dual certificate proves opt {'>=' if p.sense == 'min' else '<='} {bound}"
    except (KeyError, TypeError, ValueError) as e:
        return False, f"malformed certificate: {e}"


# -- solving and rounding --------------------------------------------------------------------
def _solvers(preferred: str | None) -> list[str]:
    import cvxpy as cp

    have = cp.installed_solvers()
    order = [preferred] if preferred else ["HIGHS", "CLARABEL", "ECOS", "SCS"]
    return [s for s in order if s in have]


def _cvx_solve(
    p: LPProblem, c_min: np.ndarray, solver: str, extra_box: float | None = None,
    homogeneous: bool = False,
) -> tuple[str, np.ndarray | None, np.ndarray | None, np.ndarray | None]:
    """Solve min c_min^T x over p (or its recession cone); (status, x, lam, nu)."""
    import cvxpy as cp

    n = p.n
    x = cp.Variable(n)
    cons = []
    Aub, Aeq = float_matrix(p.A_ub, n), float_matrix(p.A_eq, n)
    zub = 0.0 if homogeneous else float_vector(p.b_ub)
    zeq = 0.0 if homogeneous else float_vector(p.b_eq)
    ub_con = Aub @ x <= zub if len(p.A_ub) else None
    eq_con = Aeq @ x == zeq if len(p.A_eq) else None
    cons += [con for con in (ub_con, eq_con) if con is not None]
    lo = [j for j in range(n) if p.lower[j] is not None]
    hi = [j for j in range(n) if p.upper[j] is not None]
    if lo:
        lows = [b for b in p.lower if b is not None]  # in the order of ``lo``
        cons.append(x[lo] >= (0.0 if homogeneous else float_vector(lows)))
    if hi:
        highs = [b for b in p.upper if b is not None]
        cons.append(x[hi] <= (0.0 if homogeneous else float_vector(highs)))
    if extra_box is not None:
        cons.append(cp.abs(x) <= extra_box)
    prob = cp.Problem(cp.Minimize(c_min @ x), cons)
    try:
        prob.solve(solver=solver)
    except Exception as e:
        log.info("cvxpy %s failed: %s", solver, e)
        return f"error: {e}", None, None, None
    lam = ub_con.dual_value if ub_con is not None else np.zeros(0)
    nu = eq_con.dual_value if eq_con is not None else np.zeros(0)
    xv = None if x.value is None else np.asarray(x.value, dtype=float)
    lam = None if lam is None else np.atleast_1d(np.asarray(lam, dtype=float))
    nu = None if nu is None else np.atleast_1d(np.asarray(nu, dtype=float))
    return prob.status, xv, lam, nu


def _round_point(p: LPProblem, xf: np.ndarray, lam_f: np.ndarray | None, *,
                 homogeneous: bool = False, objective: Vector | None = None,
                 target: Fraction | None = None, goal: float | None = None) -> Vector | None:
    """An exactly feasible rational point near ``xf`` (best ``objective`` among candidates;
    the search stops early once the objective reaches ``target``, e.g. a certified dual bound,
    or comes within round-off of ``goal``, the solver's optimal value).

    Each rounding is tried as is, and repaired by the least-norm exact move onto the
    constraints active at ``xf`` (and onto the equalities alone).
    """
    scale = scale_of([*xf.tolist(), *(float(b) for b in p.b_ub), *(float(b) for b in p.b_eq)])
    tol = 1e-7 * scale
    zero = Fraction(0)
    rows: Matrix = list(p.A_eq)
    rhs: Vector = [zero] * len(p.b_eq) if homogeneous else list(p.b_eq)
    Aub_f = float_matrix(p.A_ub, p.n)
    bub_f = np.zeros(len(p.b_ub)) if homogeneous else float_vector(p.b_ub)
    slack = bub_f - Aub_f @ xf if len(p.A_ub) else np.zeros(0)
    for i, s in enumerate(slack):
        if s <= tol or (lam_f is not None and i < len(lam_f) and lam_f[i] > tol):
            rows.append(p.A_ub[i])
            rhs.append(zero if homogeneous else p.b_ub[i])
    for j in range(p.n):
        for bnd in (p.lower[j], p.upper[j]):
            if bnd is None:
                continue
            at = zero if homogeneous else bnd  # an active bound (never ``target``, the goal)
            if abs(xf[j] - float(at)) <= tol:
                e = [zero] * p.n
                e[j] = Fraction(1)
                rows.append(e)
                rhs.append(at)
                break
    best: Vector | None = None
    best_val: Fraction | None = None
    extra = 2  # after the first feasible candidate, try this many finer ones
    for x in candidates(xf.tolist()):
        tries = [x, project_affine(x, rows, rhs)]
        if rows[len(p.A_eq):]:
            tries.append(project_affine(x, p.A_eq, rhs[: len(p.A_eq)]))
        for z in tries:
            if z is None or point_violation(p, z, homogeneous=homogeneous):
                continue
            val = dot(objective, z) if objective is not None else zero
            if best_val is None or val < best_val:
                best, best_val = z, val
        if best is not None and best_val is not None:
            if objective is None or (target is not None and best_val <= target):
                return best
            if goal is not None and float(best_val) <= goal + 1e-12 * (1.0 + abs(goal)):
                return best
            if goal is None:
                if extra == 0:
                    return best
                extra -= 1
    return best


def _round_dual(p: LPProblem, lam_f: np.ndarray, nu_f: np.ndarray, *, objective: bool = True,
                goal: float | None = None) -> tuple[Vector, Vector, Fraction] | None:
    """Rational ``(lam, nu)`` with the best exact min-form bound, or None.

    Roundings are tried from small denominators up; the search stops once the bound comes
    within round-off of ``goal`` (the solver's optimal value), else two steps after the first
    valid one (with finite bounds every ``lam >= 0`` is valid, so validity alone is no goal).
    """
    n = p.n
    scale = scale_of([*lam_f.tolist(), *nu_f.tolist(), *(float(v) for v in p.c)])
    tol = 1e-7 * scale
    abs_scale = 1.0 + abs(goal) if goal is not None else 1.0
    base = float_vector(p.c_min) if objective else np.zeros(n)
    best: tuple[Vector, Vector, Fraction] | None = None
    extra = 2
    for q in [*DENOMINATORS, None]:
        if best is not None and goal is not None and float(best[2]) >= goal - 1e-12 * abs_scale:
            break
        lam = round_vector(np.maximum(lam_f, 0.0).tolist(), q)
        nu = round_vector(nu_f.tolist(), q)
        tries = [(lam, nu)]
        fixed = _repair_dual(p, lam, nu, lam_f, base, tol)
        if fixed is not None:
            tries.append(fixed)
        for lam_t, nu_t in tries:
            b, _ = dual_bound(p, lam_t, nu_t, objective=objective)
            if b is not None and (best is None or b > best[2]):
                best = (lam_t, nu_t, b)
        if best is not None and goal is None:
            if extra == 0:
                break
            extra -= 1
    return best


def _repair_dual(p: LPProblem, lam: Vector, nu: Vector, lam_f: np.ndarray, base: np.ndarray,
                 tol: float) -> tuple[Vector, Vector] | None:
    """Adjust ``nu`` and the clearly positive ``lam`` so that ``r_j = 0`` exactly wherever a
    missing bound needs it (or ``r_j`` is near zero with a one-sided bound)."""
    n = p.n
    zero = Fraction(0)
    base_q = [Fraction(float(v)) for v in base]
    r = [a + b + e for a, b, e in zip(base_q, rmatvec(p.A_ub, lam, n),
                                       rmatvec(p.A_eq, nu, n), strict=True)]
    F = [j for j in range(n)
         if (p.lower[j] is None and (p.upper[j] is None or r[j] > -tol))
         or (p.upper[j] is None and r[j] < tol)]
    if not F:
        return None
    adj_l = [i for i, v in enumerate(lam_f) if v > tol]
    m_eq = len(p.A_eq)
    B = [[p.A_ub[i][j] for i in adj_l] + [p.A_eq[i][j] for i in range(m_eq)] for j in F]
    if not B or not B[0]:
        return None
    full = project_affine([zero] * len(B[0]), B, [-r[j] for j in F])
    if full is None:
        return None
    lam2 = list(lam)
    for t, i in enumerate(adj_l):
        lam2[i] += full[t]
    nu2 = [v + full[len(adj_l) + t] for t, v in enumerate(nu)]
    return lam2, nu2


def _farkas_lp(p: LPProblem, solver: str) -> tuple[np.ndarray, np.ndarray] | None:
    """Multipliers of the alternative system, normalised: max of the c=0 dual bound."""
    import cvxpy as cp

    n, m_ub, m_eq = p.n, len(p.A_ub), len(p.A_eq)
    lam, nu = cp.Variable(m_ub, nonneg=True), cp.Variable(m_eq)
    zl, zu = cp.Variable(n, nonneg=True), cp.Variable(n, nonneg=True)
    lo_f = np.array([0.0 if v is None else float(v) for v in p.lower])
    hi_f = np.array([0.0 if v is None else float(v) for v in p.upper])
    cons = [
        float_matrix(p.A_ub, n).T @ lam + float_matrix(p.A_eq, n).T @ nu == zl - zu,
        cp.sum(lam) + cp.sum(zl) + cp.sum(zu) + cp.norm1(nu) <= 1,
    ]
    no_lo = [j for j in range(n) if p.lower[j] is None]
    no_hi = [j for j in range(n) if p.upper[j] is None]
    if no_lo:
        cons.append(zl[no_lo] == 0)
    if no_hi:
        cons.append(zu[no_hi] == 0)
    obj = (-(float_vector(p.b_ub) @ lam if m_ub else 0) - (float_vector(p.b_eq) @ nu if m_eq else 0)
           + lo_f @ zl - hi_f @ zu)
    prob = cp.Problem(cp.Maximize(obj), cons)
    try:
        prob.solve(solver=solver)
    except Exception as e:
        log.info("Farkas LP with %s failed: %s", solver, e)
        return None
    if lam.value is None or nu.value is None or prob.value is None or prob.value <= 0:
        return None
    return np.atleast_1d(lam.value), np.atleast_1d(nu.value)


def certify_lp(p: LPProblem, *, solver: str | None = None) -> Outcome:
    """Solve ``p`` with cvxpy and keep the rounded certificates that pass the exact check."""
    out = Outcome(sense=p.sense)
    sign = 1 if p.sense == "min" else -1
    c_min = float_vector(p.c_min)
    for s in _solvers(solver):
        status, xf, lam_f, nu_f = _cvx_solve(p, c_min, s)
        out.steps.append(f"cvxpy/{s}: status {status}")
        out.solver = s
        if status in ("optimal", "optimal_inaccurate") and xf is not None:
            target = None
            goal = float(c_min @ xf)
            if lam_f is not None and nu_f is not None:
                d = _round_dual(p, lam_f, nu_f, goal=goal)
                if d is not None:
                    target = d[2]
                    out.certificates["dual"] = Certificate("dual", {"lam": d[0], "nu": d[1]},
                                                           sign * d[2])
                    rel = ">=" if p.sense == "min" else "<="
                    out.steps.append(
                        f"rounded dual multipliers checked exactly: opt {rel} {sign * d[2]}"
                    )
                else:
                    out.failures.append(
                        f"{s}: no rounding of the dual multipliers gave a valid bound"
                    )
            x = _round_point(p, xf, lam_f, objective=p.c_min, target=target, goal=goal)
            if x is not None:
                val = dot(p.c, x)
                out.certificates["primal"] = Certificate("primal", {"x": x}, val)
                out.steps.append(f"rounded primal point is exactly feasible; objective {val}")
            else:
                out.failures.append(f"{s}: no rounding of the primal point was exactly feasible")
            if "primal" in out.certificates and "dual" in out.certificates:
                break
        elif status in ("infeasible", "infeasible_inaccurate"):
            fk = _farkas_lp(p, s)
            got = _round_dual(p, *fk, objective=False) if fk is not None else None
            if got is not None and got[2] > 0:
                out.certificates["farkas"] = Certificate("farkas", {"lam": got[0], "nu": got[1]})
                out.steps.append(f"Farkas multipliers checked exactly: 0 >= {got[2]} > 0 "
                                 "on the feasible set")
                break
            out.failures.append(f"{s}: infeasible, but no Farkas certificate survived rounding")
        elif status in ("unbounded", "unbounded_inaccurate"):
            ray = _certify_ray(p, s)
            if ray is not None:
                out.certificates["ray"] = ray
                out.steps.append("feasible point and improving recession direction checked exactly")
                break
            out.failures.append(f"{s}: unbounded, but no exact ray certificate")
        else:
            out.failures.append(f"{s}: status {status}")
    return out


def _certify_ray(p: LPProblem, solver: str) -> Certificate | None:
    status, xf, lam_f, _ = _cvx_solve(p, np.zeros(p.n), solver)
    if xf is None:
        return None
    x = _round_point(p, xf, lam_f)
    st, df, lam_d, _ = _cvx_solve(p, float_vector(p.c_min), solver, extra_box=1.0,
                                  homogeneous=True)
    if x is None or df is None:
        return None
    d = _round_point(p, df, lam_d, homogeneous=True, objective=p.c_min)
    if d is None or dot(p.c_min, d) >= 0:
        return None
    return Certificate("ray", {"x": x, "d": d})


def lp(
    c: Any,
    A_ub: Any = None,
    b_ub: Any = None,
    A_eq: Any = None,
    b_eq: Any = None,
    bounds: Any = (0, None),
    *,
    sense: str = "min",
    claim_bound: Any = None,
    claim_value: Any = None,
    tol: Any = 0,
    claim_feasible: bool | None = None,
    gap_tol: float = 1e-6,
    solver: str | None = None,
) -> Evidence:
    """Certify an LP (``linprog`` form) and, optionally, a claim about its optimum ``opt``.

    Args:
        c, A_ub, b_ub, A_eq, b_eq, bounds: the problem, as in ``scipy.optimize.linprog``
            (``bounds`` defaults to ``x >= 0``; ``(None, None)`` frees every variable). Exact
            inputs (ints, Fractions, sympy Rationals) stay exact; floats are taken exactly.
        sense: ``"min"`` or ``"max"``.
        claim_bound: the claim ``opt >= claim_bound`` (min) / ``opt <= claim_bound`` (max).
        claim_value, tol: the claim ``|opt - claim_value| <= tol`` (``tol=0``: exactly).
        claim_feasible: the claim that the LP is feasible (True) or infeasible (False).
        gap_tol: without a claim, CERTIFIED needs a certified interval of relative width
            ``<= gap_tol`` (0 asks for the exact optimum).
        solver: a cvxpy solver name; default HiGHS, then Clarabel, ECOS, SCS.

    Returns:
        Evidence with ``method="certificate"``: CERTIFIED when exactly checked certificates
        prove the claim (or pin the optimum, or prove infeasibility/unboundedness), REFUTED
        with the disproving certificate as counterexample (a feasible point better than the
        claimed bound, a dual bound, a Farkas ray), else UNDECIDED with the reason. The
        certificates themselves, as exact strings, are in ``numbers["certificates"]``.
    """
    p = LPProblem.make(c, A_ub, b_ub, A_eq, b_eq, bounds, sense)
    claim = ClaimSpec.make(claim_bound, claim_value, tol, claim_feasible)
    return certify(p, solve_and_round=lambda q: certify_lp(q, solver=solver),
                   check=check_lp_certificate, claim=claim, gap_tol=gap_tol, what="LP")

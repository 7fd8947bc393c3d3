"""Second-order cone programs: cvxpy, then an exact rational re-check without square roots.

The problem::

    min (or max)  c^T x   s.t.  A_ub x <= b_ub,   A_eq x = b_eq,   l <= x <= u,
                                ||F_i x + g_i||_2 <= h_i^T x + d_i   (i = 1..K)

(``bounds`` as in :func:`verify.certify.lp`, but every variable is *free* by default). The
linear part is an :class:`~verify.certify.lp.LPProblem`, so the linear checks and the dual
bound are the LP's own. Certificates (checked by :func:`check_socp_certificate`):

* **primal** ``x``: the linear constraints exactly, and for every cone, with
  ``u = F_i x + g_i`` and ``t = h_i^T x + d_i``, ``t >= 0`` and ``u^T u <= t^2`` in Fractions
  (no square root is ever taken). Its objective bounds opt.
* **dual** ``(lam, nu, cone_lam, cone_mu)``: ``lam >= 0`` for the inequalities, ``nu`` for
  the equalities, and per cone a pair ``(lambda_i, mu_i)`` in the (self-dual) second-order
  cone, ``mu_i >= 0`` and ``lambda_i^T lambda_i <= mu_i^2``. For ``(u, t)`` in the cone,
  Cauchy-Schwarz gives ``lambda^T u + mu t >= -||lambda|| ||u|| + mu t >= 0``; so for every
  feasible ``x`` (min form)::

      c^T x >= c^T x + lam^T (A_ub x - b_ub) + nu^T (A_eq x - b_eq)
                     - sum_i (lambda_i^T (F_i x + g_i) + mu_i (h_i^T x + d_i))
            =  r^T x - lam^T b_ub - nu^T b_eq - sum_i (lambda_i^T g_i + mu_i d_i),

  ``r = c + A_ub^T lam + A_eq^T nu - sum_i (F_i^T lambda_i + mu_i h_i)``. The ``r^T x`` term is
  bounded over the box exactly as in the LP (a residual in ``r`` is paid for by finite
  bounds; where a variable is free, ``r_j`` must vanish, and the rounding repairs it exactly
  by a least-norm correction of the multipliers). So the LP's ``dual_bound`` applied to the
  shifted objective ``c - sum_i (F_i^T lambda_i + mu_i h_i)``, minus the cone constants, is
  the certified lower bound.
* **farkas**: the same multipliers with ``c = 0`` and a bound ``> 0``: ``0 >= bound > 0`` for
  every feasible ``x``, so there is none (strong infeasibility; a weakly infeasible SOCP has
  no such certificate and stays UNDECIDED).

Optimal primal and dual points sit on the cone boundaries, where rounding breaks
``u^T u <= t^2`` half of the time; so each side is also re-solved with a *margin* (primal:
``||u|| <= t - eps`` and the inequalities and bounds tightened by ``eps``; dual:
``||lambda_i|| <= mu_i - eps``), ``eps`` in :data:`verify.certify.driver.MARGINS` times the data
scale. The bound is then ``O(eps)`` weaker, which the reported interval shows. Optima that
are rational (a Pythagorean distance, a projection with a rational foot point) are found
exactly by the small-denominator roundings before any margin is needed.

Not supported: unboundedness (ray) certificates, weak infeasibility, rotated cones as such
(``x^T x <= y z`` with ``y, z >= 0`` is the cone ``||(2x, y - z)|| <= y + z``).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

import numpy as np

from ..evidence import Evidence
from .certificate import Certificate, ClaimSpec, Outcome, short
from .driver import MARGINS, certify, conic_solver, float_matrix, float_vector, solve_status
from .exact import Matrix, Vector, dot, matvec, rmatvec, solve, to_fraction, to_matrix, to_vector
from .lp import LPProblem, dual_bound, point_violation
from .rounding import DENOMINATORS, candidates, project_affine, round_vector, scale_of

log = logging.getLogger(__name__)


@dataclass
class SOCCone:
    """One constraint ``||F x + g||_2 <= h^T x + d`` with exact data (``F`` is ``k x n``)."""

    F: Matrix
    g: Vector
    h: Vector
    d: Fraction

    @classmethod
    def make(cls, F: Any, g: Any, h: Any, d: Any, n: int) -> SOCCone:
        Fm = to_matrix(F)
        gv = to_vector(g) if g is not None else [Fraction(0)] * len(Fm)
        hv = to_vector(h) if h is not None else [Fraction(0)] * n
        if len(gv) != len(Fm) or any(len(r) != n for r in Fm) or len(hv) != n:
            raise ValueError(f"cone data shapes do not match: F {len(Fm)}x?, g {len(gv)}, "
                             f"h {len(hv)}, n={n}")
        return cls(Fm, gv, hv, to_fraction(0 if d is None else d))

    def u(self, x: Sequence[Fraction]) -> Vector:
        return [a + b for a, b in zip(matvec(self.F, x), self.g, strict=True)]

    def t(self, x: Sequence[Fraction]) -> Fraction:
        return dot(self.h, x) + self.d

    def violation(self, x: Sequence[Fraction]) -> str | None:
        """Why ``x`` is outside the cone, or None; exact, squares only (no square roots)."""
        t, u = self.t(x), self.u(x)
        if t < 0:
            return f"t = h^T x + d = {short(t)} < 0"
        uu = dot(u, u)
        if uu > t * t:
            return f"||u||^2 = {short(uu)} > t^2 = {short(t * t)}"
        return None


@dataclass
class SOCPProblem:
    """An SOCP with exact rational data: the linear part as an LP, plus the cones."""

    lin: LPProblem
    cones: list[SOCCone]

    @property
    def n(self) -> int:
        return self.lin.n

    @property
    def sense(self) -> str:
        return self.lin.sense

    @classmethod
    def make(
        cls,
        c: Any,
        cones: Any = (),
        A_ub: Any = None,
        b_ub: Any = None,
        A_eq: Any = None,
        b_eq: Any = None,
        bounds: Any = (None, None),
        sense: str = "min",
    ) -> SOCPProblem:
        """Exact problem from array-likes; ``cones`` is a list of ``(F, g, h, d)``."""
        lin = LPProblem.make(c, A_ub, b_ub, A_eq, b_eq,
                             (None, None) if bounds is None else bounds, sense)
        parsed = []
        for i, cone in enumerate(cones):
            if len(cone) != 4:
                raise ValueError(f"cone {i}: expected (F, g, h, d), got {len(cone)} items")
            F, g, h, d = cone
            parsed.append(SOCCone.make(F, g, h, d, n=lin.n))
        return cls(lin, parsed)

    def violation(self, x: Sequence[Fraction]) -> str | None:
        """Why ``x`` is infeasible (linear part or a cone), or None; all exact."""
        why = point_violation(self.lin, list(x))
        if why:
            return why
        for i, cone in enumerate(self.cones):
            why = cone.violation(x)
            if why:
                return f"cone {i}: {why}"
        return None


# -- the exact dual bound --------------------------------------------------------------------
@dataclass
class Multipliers:
    """Rational multipliers: ``lam >= 0`` (inequalities), ``nu`` (equalities), and per cone
    ``(cone_lam[i], cone_mu[i])`` in the second-order cone."""

    lam: Vector
    nu: Vector
    cone_lam: list[Vector]
    cone_mu: Vector

    def values(self) -> dict[str, Any]:
        return {"lam": self.lam, "nu": self.nu, "cone_lam": self.cone_lam, "cone_mu": self.cone_mu}

    @classmethod
    def from_values(cls, v: dict[str, Any]) -> Multipliers:
        return cls(to_vector(v["lam"]), to_vector(v["nu"]), [to_vector(w) for w in v["cone_lam"]],
                   to_vector(v["cone_mu"]))


def _shifted(p: SOCPProblem, m: Multipliers, objective: bool) -> Vector:
    """``c_min - sum_i (F_i^T lambda_i + mu_i h_i)`` (``c = 0`` when not ``objective``)."""
    out = list(p.lin.c_min) if objective else [Fraction(0)] * p.n
    for cone, lv, mu in zip(p.cones, m.cone_lam, m.cone_mu, strict=True):
        for j, v in enumerate(rmatvec(cone.F, lv, p.n)):
            out[j] -= v + mu * cone.h[j]
    return out


def socp_dual_bound(
    p: SOCPProblem, m: Multipliers, *, objective: bool = True
) -> tuple[Fraction | None, str]:
    """The exact min-form lower bound proved by ``m`` (None, reason if invalid).

    Cone membership is checked with squares; the rest is the LP's
    :func:`~verify.certify.lp.dual_bound` on the shifted objective, minus the cone constants
    ``sum_i (lambda_i^T g_i + mu_i d_i)``. ``objective=False``: ``c = 0`` (Farkas).
    """
    if len(m.cone_lam) != len(p.cones) or len(m.cone_mu) != len(p.cones):
        return None, f"expected multipliers for {len(p.cones)} cones"
    for i, (cone, lv, mu) in enumerate(zip(p.cones, m.cone_lam, m.cone_mu, strict=True)):
        if len(lv) != len(cone.g):
            return None, f"cone {i}: lambda has {len(lv)} entries, expected {len(cone.g)}"
        if mu < 0 or dot(lv, lv) > mu * mu:
            return None, (f"cone {i}: (lambda, mu) outside the cone: "
                          f"||lambda||^2 = {short(dot(lv, lv))}, mu = {short(mu)}")
    shifted = replace(p.lin, c=_shifted(p, m, objective), sense="min")
    b, why = dual_bound(shifted, m.lam, m.nu)
    if b is None:
        return None, why
    const = sum((dot(lv, cone.g) + mu * cone.d
                 for cone, lv, mu in zip(p.cones, m.cone_lam, m.cone_mu, strict=True)),
                Fraction(0))
    return b - const, "ok"


def check_socp_certificate(p: SOCPProblem, cert: Certificate) -> tuple[bool, str]:
    """Re-check ``cert`` against ``p`` in exact arithmetic: ``(ok, reason)``."""
    sign = 1 if p.sense == "min" else -1
    rel = ">=" if p.sense == "min" else "<="
    try:
        if cert.kind == "primal":
            x = to_vector(cert.values["x"])
            if len(x) != p.n:
                return False, f"primal point infeasible: {len(x)} entries, expected {p.n}"
            why = p.violation(x)
            if why:
                return False, f"primal point infeasible: {why}"
            obj = dot(p.lin.c, x)
            if cert.value is not None and obj != cert.value:
                return False, f"objective of the point is {obj}, certificate says {cert.value}"
            return True, f"feasible point (cones checked by squares), objective {obj}"
        if cert.kind in ("dual", "farkas"):
            m = Multipliers.from_values(cert.values)
            farkas = cert.kind == "farkas"
            b, why = socp_dual_bound(p, m, objective=not farkas)
            if b is None:
                return False, f"{cert.kind} certificate invalid: {why}"
            if farkas:
                if b <= 0:
                    return False, f"Farkas certificate proves only 0 >= {b}, no contradiction"
                return True, f"Farkas certificate: 0 >= {b} > 0 for every feasible point"
            if cert.value is not None and sign * cert.value > b:
                return False, (f"dual proves only opt {rel} {sign * b}, "
                               f"certificate claims {cert.value}")
            return True, f"dual certificate proves opt {rel} {sign * b}"
        return False, f"no {cert.kind!r} certificates for SOCPs"
    except (KeyError, TypeError, ValueError) as e:
        return False, f"malformed certificate: {e}"


# -- solving ---------------------------------------------------------------------------------
def _scale(p: SOCPProblem) -> float:
    lin = p.lin
    vals = [*lin.c, *lin.b_ub, *lin.b_eq, *(v for r in [*lin.A_ub, *lin.A_eq] for v in r)]
    for cone in p.cones:
        vals += [*cone.g, *cone.h, cone.d, *(v for r in cone.F for v in r)]
    return scale_of(float(v) for v in vals)


def _primal_float(p: SOCPProblem, eps: float, solver: str) -> tuple[str, np.ndarray | None]:
    """min c_min^T x with every inequality, bound and cone tightened by ``eps``."""
    import cvxpy as cp

    lin, n = p.lin, p.n
    x = cp.Variable(n)
    cons = []
    if lin.A_eq:
        cons.append(float_matrix(lin.A_eq, n) @ x == float_vector(lin.b_eq))
    if lin.A_ub:
        cons.append(float_matrix(lin.A_ub, n) @ x <= float_vector(lin.b_ub) - eps)
    for j in range(n):
        lo, hi = lin.lower[j], lin.upper[j]
        room = eps if lo is None or hi is None else min(eps, float(hi - lo) / 4)
        if lo is not None:
            cons.append(x[j] >= float(lo) + room)
        if hi is not None:
            cons.append(x[j] <= float(hi) - room)
    for cone in p.cones:
        t = float_vector(cone.h) @ x + float(cone.d) - eps
        if cone.F:
            cons.append(cp.SOC(t, float_matrix(cone.F, n) @ x + float_vector(cone.g)))
        else:
            cons.append(t >= 0)
    prob = cp.Problem(cp.Minimize(float_vector(lin.c_min) @ x), cons)
    status = solve_status(prob, solver)
    return status, None if x.value is None else np.asarray(x.value, dtype=float)


@dataclass
class _FloatDual:
    lam: np.ndarray
    nu: np.ndarray
    cone_lam: list[np.ndarray]
    cone_mu: np.ndarray


def _dual_float(
    p: SOCPProblem, eps: float, solver: str, *, farkas: bool = False
) -> tuple[str, _FloatDual | None]:
    """The explicit dual: max of the bound in the module docstring,
    ``||lambda_i|| <= mu_i - eps``.

    ``farkas``: ``c = 0`` and the multipliers normalised (total mass <= 1)."""
    import cvxpy as cp

    lin, n = p.lin, p.n
    m_ub, m_eq = len(lin.A_ub), len(lin.A_eq)
    lam, nu = cp.Variable(m_ub, nonneg=True), cp.Variable(m_eq)
    zl, zu = cp.Variable(n, nonneg=True), cp.Variable(n, nonneg=True)
    Ls = [cp.Variable(len(cone.g)) if cone.g else None for cone in p.cones]
    mus: Any = cp.Variable(len(p.cones)) if p.cones else None  # indexed only when cones exist
    r = ((np.zeros(n) if farkas else float_vector(lin.c_min))
         + float_matrix(lin.A_ub, n).T @ lam + float_matrix(lin.A_eq, n).T @ nu)
    obj = -(float_vector(lin.b_ub) @ lam) - (float_vector(lin.b_eq) @ nu)
    cons = []
    for k, (cone, L) in enumerate(zip(p.cones, Ls, strict=True)):
        r = r - mus[k] * float_vector(cone.h)
        obj = obj - mus[k] * float(cone.d)
        if L is not None:
            r = r - float_matrix(cone.F, n).T @ L
            obj = obj - float_vector(cone.g) @ L
            cons.append(cp.SOC(mus[k] - eps, L))
        else:
            cons.append(mus[k] >= eps)
    cons.append(r == zl - zu)
    no_lo = [j for j in range(n) if lin.lower[j] is None]
    no_hi = [j for j in range(n) if lin.upper[j] is None]
    if no_lo:
        cons.append(zl[no_lo] == 0)
    if no_hi:
        cons.append(zu[no_hi] == 0)
    lo_f = np.array([0.0 if v is None else float(v) for v in lin.lower])
    hi_f = np.array([0.0 if v is None else float(v) for v in lin.upper])
    obj = obj + lo_f @ zl - hi_f @ zu
    if farkas:
        mass = (cp.sum(lam) + cp.norm1(nu) + cp.sum(zl) + cp.sum(zu)
                + (cp.sum(mus) if mus is not None else 0))
        cons.append(mass <= 1)
    prob = cp.Problem(cp.Maximize(obj), cons)
    status = solve_status(prob, solver)
    if lam.value is None or nu.value is None or (mus is not None and mus.value is None):
        return status, None
    if farkas and (prob.value is None or prob.value <= 0):
        return status, None
    mu_v = np.atleast_1d(np.asarray(mus.value, dtype=float)) if mus is not None else np.zeros(0)
    Lv = [np.zeros(0) if L is None else np.atleast_1d(np.asarray(L.value, dtype=float)) for L in Ls]
    return status, _FloatDual(np.atleast_1d(lam.value), np.atleast_1d(nu.value), Lv, mu_v)


# -- rounding --------------------------------------------------------------------------------
def _round_primal(
    p: SOCPProblem, xf: np.ndarray, *, target: Fraction | None, goal: float
) -> Vector | None:
    """The best exactly feasible rational point among the roundings of ``xf`` (small
    denominators first, up to the exact doubles), each tried as is, moved exactly onto the
    equalities, and onto the equalities plus the linear constraints active at ``xf``. Stops
    early at the certified dual ``target`` or at round-off distance from ``goal``."""
    lin, zero = p.lin, Fraction(0)
    tol = 1e-7 * scale_of([*xf.tolist(), *(float(b) for b in lin.b_ub)])
    rows, rhs = list(lin.A_eq), list(lin.b_eq)
    if lin.A_ub:
        for i, s in enumerate(float_vector(lin.b_ub) - float_matrix(lin.A_ub, p.n) @ xf):
            if s <= tol:
                rows.append(lin.A_ub[i])
                rhs.append(lin.b_ub[i])
    for j in range(p.n):
        for bnd in (lin.lower[j], lin.upper[j]):
            if bnd is not None and abs(xf[j] - float(bnd)) <= tol:
                rows.append([Fraction(int(k == j)) for k in range(p.n)])
                rhs.append(bnd)
                break
    best: Vector | None = None
    best_val = zero
    for x in candidates(xf.tolist()):
        tries = [x, project_affine(x, lin.A_eq, lin.b_eq)]
        if len(rows) > len(lin.A_eq):
            tries.append(project_affine(x, rows, rhs))
        for z in tries:
            if z is None or p.violation(z):
                continue
            val = dot(lin.c_min, z)
            if best is None or val < best_val:
                best, best_val = z, val
        if best is not None and ((target is not None and best_val <= target)
                                 or float(best_val) <= goal + 1e-12 * (1 + abs(goal))):
            return best
    return best


def _round_multipliers(f: _FloatDual, q: int | None) -> Multipliers:
    return Multipliers(
        round_vector(np.maximum(f.lam, 0.0).tolist(), q),
        round_vector(f.nu.tolist(), q),
        [round_vector(v.tolist(), q) for v in f.cone_lam],
        round_vector(np.maximum(f.cone_mu, 0.0).tolist(), q),
    )


def _repair(p: SOCPProblem, m: Multipliers, f: _FloatDual, objective: bool, tol: float,
            cache: dict[tuple[int, ...], tuple[Matrix, Matrix]]) -> Multipliers | None:
    """Least-norm exact correction of ``nu``, the clearly positive ``lam`` and the multipliers
    of the cones in use, so that ``r_j = 0`` wherever a missing bound needs it.

    The correction is ``B^T w`` with ``(B B^T) w = -r``; ``cache`` keeps ``B`` and its Gram
    matrix per set of repaired coordinates (they do not change with the rounding)."""
    lin, n = p.lin, p.n
    base = _shifted(p, m, objective)
    r = [a + b + e for a, b, e in zip(base, rmatvec(lin.A_ub, m.lam, n),
                                       rmatvec(lin.A_eq, m.nu, n), strict=True)]
    need = [j for j in range(n)
            if (lin.lower[j] is None and (lin.upper[j] is None or r[j] > -tol))
            or (lin.upper[j] is None and r[j] < tol)]
    if not need:
        return None
    # columns: the change of r per unit change of each adjustable multiplier
    cols: list[tuple[str, int, int, list[Fraction]]] = []
    cols += [("lam", i, 0, lin.A_ub[i]) for i, v in enumerate(f.lam) if v > tol]
    cols += [("nu", i, 0, lin.A_eq[i]) for i in range(len(lin.A_eq))]
    for k, cone in enumerate(p.cones):
        if f.cone_mu[k] > tol:
            cols += [("L", k, a, [-v for v in cone.F[a]]) for a in range(len(cone.F))]
            cols.append(("mu", k, 0, [-v for v in cone.h]))
    if not cols:
        return None
    key = tuple(need)
    if key not in cache:
        B = [[col[3][j] for col in cols] for j in need]
        cache[key] = (B, [[dot(bi, bj) for bj in B] for bi in B])
    B, gram = cache[key]
    w = solve(gram, [-r[j] for j in need])
    if w is None:
        return None
    delta = rmatvec(B, w, len(cols))
    out = Multipliers(list(m.lam), list(m.nu), [list(v) for v in m.cone_lam], list(m.cone_mu))
    for (kind, i, a, _), dv in zip(cols, delta, strict=True):
        if kind == "lam":
            out.lam[i] += dv
        elif kind == "nu":
            out.nu[i] += dv
        elif kind == "L":
            out.cone_lam[i][a] += dv
        else:
            out.cone_mu[i] += dv
    return out


def _round_dual(p: SOCPProblem, f: _FloatDual, *, objective: bool = True,
                goal: float | None = None) -> tuple[Multipliers, Fraction] | None:
    """Rational multipliers with the best exact bound among the roundings of ``f`` (plain and
    repaired); stops early at round-off distance from ``goal``. Every rounding is scanned
    otherwise: near a cone boundary only the fine ones stay inside the cone."""
    vals = [*f.lam.tolist(), *f.nu.tolist(), *f.cone_mu.tolist(),
            *(v for w in f.cone_lam for v in w.tolist())]
    tol = 1e-7 * scale_of([*vals, *(float(v) for v in p.lin.c)])
    best: tuple[Multipliers, Fraction] | None = None
    cache: dict[tuple[int, ...], tuple[Matrix, Matrix]] = {}
    for q in [*DENOMINATORS, None]:
        near_goal = goal is not None and best is not None and (
            float(best[1]) >= goal - 1e-12 * (1 + abs(goal))
        )
        if near_goal:
            break
        m = _round_multipliers(f, q)
        for cand in (m, _repair(p, m, f, objective, tol, cache)):
            if cand is None:
                continue
            b, _ = socp_dual_bound(p, cand, objective=objective)
            if b is not None and (best is None or b > best[1]):
                best = (cand, b)
    return best


def certify_socp(
    p: SOCPProblem, *, solver: str | None = None, margins: tuple[float, ...] = MARGINS
) -> Outcome:
    """Solve ``p`` with cvxpy, round with growing margins, keep what passes the exact check."""
    out = Outcome(sense=p.sense)
    s = conic_solver(solver)
    if s is None:
        out.failures.append("no SOCP solver installed with cvxpy (CLARABEL or SCS)")
        return out
    out.solver = s
    sign = 1 if p.sense == "min" else -1
    rel = ">=" if p.sense == "min" else "<="
    scale = _scale(p)
    status, xf = _primal_float(p, 0.0, s)
    out.steps.append(f"cvxpy/{s}: status {status}")
    if status.startswith("infeasible"):
        for eps in margins:
            _, fd = _dual_float(p, eps * scale, s, farkas=True)
            got = _round_dual(p, fd, objective=False) if fd is not None else None
            if got is not None and got[1] > 0:
                out.certificates["farkas"] = Certificate("farkas", got[0].values())
                out.steps.append(f"Farkas multipliers (margin {eps:g}) checked exactly: "
                                 f"0 >= {short(got[1])} > 0 on the feasible set")
                return out
        out.failures.append("infeasible, but no Farkas certificate survived the exact check")
        return out
    if status.startswith("unbounded"):
        out.failures.append("solver says unbounded; SOCP ray certificates are not supported")
        return out
    if not status.startswith("optimal") or xf is None:
        out.failures.append(f"solver status {status}")
        return out
    goal = float(float_vector(p.lin.c_min) @ xf)
    near = 1e-9 * (1 + abs(goal))
    best_d: tuple[Multipliers, Fraction, float] | None = None
    for eps in margins:
        _, fd = _dual_float(p, eps * scale, s)
        got = _round_dual(p, fd, goal=goal) if fd is not None else None
        if got is not None and (best_d is None or got[1] > best_d[1]):
            best_d = (got[0], got[1], eps)
        if best_d is not None and ((eps > 0 and best_d[2] == eps)
                                   or float(best_d[1]) >= goal - near):
            break  # this margin improved the bound; a larger one would weaken it
    if best_d is not None:
        out.certificates["dual"] = Certificate("dual", best_d[0].values(), sign * best_d[1])
        out.steps.append(f"dual multipliers (margin {best_d[2]:g}) rounded; cone membership by "
                         f"squares and the bound checked exactly: "
                         f"opt {rel} {short(sign * best_d[1])}")
    else:
        out.failures.append("no rounding of the dual multipliers passed the exact check "
                            f"(margins up to {margins[-1]:g})")
    target = best_d[1] if best_d is not None else None
    best_x: tuple[Vector, Fraction, float] | None = None
    for eps in margins:
        xe = xf if eps == 0 else _primal_float(p, eps * scale, s)[1]
        x = _round_primal(p, xe, target=target, goal=goal) if xe is not None else None
        if x is not None:
            val = dot(p.lin.c_min, x)
            if best_x is None or val < best_x[1]:
                best_x = (x, val, eps)
        if best_x is not None and ((eps > 0 and best_x[2] == eps)
                                   or (target is not None and best_x[1] <= target)
                                   or float(best_x[1]) <= goal + near):
            break  # this margin improved the bound; a larger one would weaken it
    if best_x is not None:
        val = dot(p.lin.c, best_x[0])
        out.certificates["primal"] = Certificate("primal", {"x": best_x[0]}, val)
        out.steps.append(f"primal point (margin {best_x[2]:g}) rounded, exactly feasible "
                         f"(cones by squares); objective {short(val)}")
    else:
        out.failures.append("no rounding of the primal point was exactly feasible "
                            f"(margins up to {margins[-1]:g})")
    return out


def socp(
    c: Any,
    cones: Any,
    A_ub: Any = None,
    b_ub: Any = None,
    A_eq: Any = None,
    b_eq: Any = None,
    bounds: Any = (None, None),
    *,
    sense: str = "min",
    claim_bound: Any = None,
    claim_value: Any = None,
    tol: Any = 0,
    claim_feasible: bool | None = None,
    gap_tol: float = 1e-6,
    solver: str | None = None,
) -> Evidence:
    """Certify an SOCP and, optionally, a claim about its optimum ``opt``.

    Args:
        c: the objective.
        cones: a list of ``(F, g, h, d)``, each the constraint ``||F x + g||_2 <= h^T x + d``
            (``g``/``h`` may be None for zero; ``F`` may have no rows: then ``h^T x + d >= 0``).
        A_ub, b_ub, A_eq, b_eq: linear constraints ``A_ub x <= b_ub``, ``A_eq x = b_eq``.
        bounds: as in :func:`verify.certify.lp`, but the default is *free* variables.
        sense, claim_bound, claim_value, tol, claim_feasible, gap_tol: as in
            :func:`verify.certify.lp`.
        solver: a cvxpy conic solver (default CLARABEL, then SCS).

    Returns Evidence (``method="certificate"``) decided by :func:`verify.certify.certificate.decide`
    from certificates that passed :func:`check_socp_certificate`; they are in
    ``numbers["certificates"]`` as exact strings.
    """
    p = SOCPProblem.make(c, cones, A_ub, b_ub, A_eq, b_eq, bounds, sense)
    return certify(p, solve_and_round=lambda q: certify_socp(q, solver=solver),
                   check=check_socp_certificate,
                   claim=ClaimSpec.make(claim_bound, claim_value, tol, claim_feasible),
                   gap_tol=gap_tol, what="SOCP")

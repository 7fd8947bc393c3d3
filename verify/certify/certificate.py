"""Certificates, and the rule that turns exactly re-checked certificates into a verdict.

A :class:`Certificate` is plain rational data (vectors and matrices of Fractions) plus the
number it claims to prove. Its meaning, for a problem in the user's sense (min or max):

``primal``  a feasible point; ``value`` is its exact objective, so opt <= value (min) or
            opt >= value (max).
``dual``    multipliers proving a bound; ``value`` is that bound, opt >= value (min) or
            opt <= value (max).
``farkas``  multipliers proving the problem infeasible (a Farkas / alternative system).
``ray``     a feasible point and a recession direction improving the objective without
            limit: the problem is unbounded.

:func:`decide` is the only place a verdict is made, and only from certificates that the
problem's exact checker accepted.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ..evidence import Evidence
from ..jsonable import to_jsonable
from ..verdict import Verdict
from .exact import to_fraction

KINDS = ("primal", "dual", "farkas", "ray")


@dataclass
class Certificate:
    """Rational certificate data (see the module docstring for each ``kind``)."""

    kind: str
    values: dict[str, Any]
    value: Fraction | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"certificate kind must be one of {KINDS}, got {self.kind!r}")
        if self.value is not None:
            self.value = to_fraction(self.value)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: every Fraction as an exact ``"p/q"`` string."""
        return to_jsonable({"kind": self.kind, "value": self.value, **self.values})


@dataclass
class ClaimSpec:
    """What the caller asserts about the optimum ``opt`` (user's sense).

    ``bound``     min: ``opt >= bound``; max: ``opt <= bound`` (the direction a dual proves).
    ``value``     ``|opt - value| <= tol``.
    ``feasible``  True/False: the problem is (in)feasible.
    """

    bound: Fraction | None = None
    value: Fraction | None = None
    tol: Fraction = Fraction(0)
    feasible: bool | None = None

    @classmethod
    def make(cls, bound: Any = None, value: Any = None, tol: Any = 0,
             feasible: bool | None = None) -> ClaimSpec:
        return cls(
            None if bound is None else to_fraction(bound),
            None if value is None else to_fraction(value),
            to_fraction(tol),
            feasible,
        )

    def describe(self, sense: str) -> str:
        parts = []
        if self.bound is not None:
            parts.append(f"opt {'>=' if sense == 'min' else '<='} {short(self.bound)}")
        if self.value is not None:
            pm = f" +- {short(self.tol)}" if self.tol else ""
            parts.append(f"opt = {short(self.value)}{pm}")
        if self.feasible is not None:
            parts.append("feasible" if self.feasible else "infeasible")
        return " and ".join(parts) or "optimum pinned down"


@dataclass
class Outcome:
    """The certificates that passed the exact re-check, with the steps that led to them."""

    sense: str
    certificates: dict[str, Certificate] = field(default_factory=dict)
    steps: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    solver: str | None = None

    def get(self, kind: str) -> Certificate | None:
        return self.certificates.get(kind)


def short(x: Fraction | None) -> str:
    """An exact number for a summary line: ``p/q`` when short, else ``~float`` (the exact
    value stays in ``numbers``)."""
    if x is None:
        return "?"
    text = str(x)
    return text if len(text) <= 24 else f"~{float(x):.12g}"


def _interval(out: Outcome) -> tuple[Fraction | None, Fraction | None]:
    """Certified ``lo <= opt <= hi`` from the primal and dual certificates (None: unknown)."""
    p, d = out.get("primal"), out.get("dual")
    pv = p.value if p else None
    dv = d.value if d else None
    return (dv, pv) if out.sense == "min" else (pv, dv)


def _numbers(out: Outcome) -> dict[str, Any]:
    lo, hi = _interval(out)
    nums: dict[str, Any] = {}
    if lo is not None:
        nums["lower_bound"] = str(lo)
        nums["lower_bound_float"] = float(lo)
    if hi is not None:
        nums["upper_bound"] = str(hi)
        nums["upper_bound_float"] = float(hi)
    if lo is not None and hi is not None:
        nums["gap"] = str(hi - lo)
        nums["gap_float"] = float(hi - lo)
    if out.get("farkas"):
        nums["status"] = "infeasible"
    elif out.get("ray"):
        nums["status"] = "unbounded"
    elif out.get("primal"):
        nums["status"] = "feasible"
    nums["certificates"] = {k: c.to_dict() for k, c in out.certificates.items()}
    if out.solver:
        nums["solver"] = out.solver
    return nums


def decide(out: Outcome, claim: ClaimSpec, *, gap_tol: float, what: str) -> Evidence:
    """The verdict that the exactly checked certificates in ``out`` support for ``claim``.

    CERTIFIED when the certificates prove the claim; REFUTED when they prove its negation
    (the disproving certificate is the counterexample); UNDECIDED otherwise, with the
    reasons the rounding or the solver failed. ``what`` names the problem ("LP", "SDP").
    """
    lo, hi = _interval(out)
    sense = out.sense
    infeasible = out.get("farkas") is not None
    unbounded = out.get("ray") is not None
    nums = _numbers(out)
    steps = list(out.steps)
    stmt = claim.describe(sense)

    def ev(verdict: Verdict, summary: str, cex: Certificate | None = None) -> Evidence:
        return Evidence(
            verdict,
            summary,
            method="certificate",
            steps=steps,
            numbers=nums,
            counterexample=None if cex is None else {"claim": stmt, **cex.to_dict()},
            generality="exact rational re-check of the rounded certificate",
        )

    def undecided(reason: str) -> Evidence:
        fails = "; ".join(out.failures[-3:])
        return ev(Verdict.UNDECIDED, f"{what}: {reason}" + (f" ({fails})" if fails else ""))

    # opt in the "bad" direction for the claim: min -> smaller is better
    better = (lambda a, b: a < b) if sense == "min" else (lambda a, b: a > b)
    primal, dual = out.get("primal"), out.get("dual")

    if claim.feasible is not None:
        if infeasible:
            if claim.feasible:
                return ev(Verdict.REFUTED,
                          f"{what} is infeasible: Farkas certificate checked exactly",
                          out.get("farkas"))
            return ev(Verdict.CERTIFIED, f"{what} infeasible: Farkas certificate checked exactly")
        if primal or unbounded:
            point = primal or out.get("ray")
            if claim.feasible:
                return ev(Verdict.CERTIFIED, f"{what} feasible: rational point checked exactly")
            return ev(Verdict.REFUTED, f"{what} is feasible: rational point checked exactly",
                      point)
        return undecided("no certificate of feasibility or infeasibility survived the exact check")

    if claim.bound is not None:
        v = claim.bound
        vs = short(v)
        rel = ">=" if sense == "min" else "<="
        if infeasible:
            return ev(Verdict.CERTIFIED,
                      f"{what} infeasible (Farkas, exact), so opt {rel} {vs} holds vacuously")
        if unbounded:
            return ev(Verdict.REFUTED,
                      f"{what} unbounded: exact improving ray contradicts opt {rel} {vs}",
                      out.get("ray"))
        if primal is not None and better(primal.value, v):
            return ev(Verdict.REFUTED,
                      f"feasible rational point with objective {short(primal.value)} "
                      f"contradicts opt {rel} {vs}", primal)
        if dual is not None and not better(dual.value, v):
            return ev(Verdict.CERTIFIED, f"dual certificate proves opt {rel} {short(dual.value)}, "
                      f"which implies opt {rel} {vs}")
        return undecided(f"neither a dual bound {rel} {vs} nor a better point was certified")

    if claim.value is not None:
        v, t = claim.value, claim.tol
        vs, ts = short(v), short(t)
        if infeasible:
            return ev(Verdict.REFUTED, f"{what} infeasible (Farkas, exact): no optimum {vs}",
                      out.get("farkas"))
        if unbounded:
            return ev(Verdict.REFUTED, f"{what} unbounded (exact ray): no optimum {vs}",
                      out.get("ray"))
        if hi is not None and hi < v - t:
            cex = primal if sense == "min" else dual
            return ev(Verdict.REFUTED, f"certified opt <= {short(hi)} < {vs} - {ts}", cex)
        if lo is not None and lo > v + t:
            cex = dual if sense == "min" else primal
            return ev(Verdict.REFUTED, f"certified opt >= {short(lo)} > {vs} + {ts}", cex)
        if lo is not None and hi is not None and lo >= v - t and hi <= v + t:
            return ev(Verdict.CERTIFIED,
                      f"opt in [{short(lo)}, {short(hi)}] within {vs} +- {ts} "
                      "(exact certificates)")
        if lo is not None and hi is not None:
            return undecided(f"certified opt in [{float(lo):.9g}, {float(hi):.9g}], "
                             f"not inside {vs} +- {ts}")
        return undecided("no two-sided bound on the optimum survived the exact check")

    # no claim: pin the optimum down
    if infeasible:
        return ev(Verdict.CERTIFIED, f"{what} infeasible: Farkas certificate checked exactly")
    if unbounded:
        return ev(Verdict.CERTIFIED,
                  f"{what} unbounded: feasible point and improving ray checked exactly")
    if lo is not None and hi is not None:
        gap = hi - lo
        if gap <= Fraction(gap_tol) * (1 + abs(hi)):
            exact = "exact optimum" if gap == 0 else f"gap {float(gap):.3g}"
            return ev(Verdict.CERTIFIED,
                      f"opt in [{short(lo)}, {short(hi)}] ({exact}), both sides checked exactly")
        return undecided(f"certified interval [{float(lo):.9g}, {float(hi):.9g}] "
                         f"wider than gap_tol={gap_tol}")
    return undecided("no certificate survived the exact re-check")

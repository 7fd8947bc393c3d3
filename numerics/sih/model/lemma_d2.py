"""Lemma D.2 (L862-880) decided by exhaustive search with exact infeasibility certificates.

The lemma: for every torus ``G = Z_{L_1} x ... x Z_{L_d}``, offsets ``N`` (``m`` of them),
targets ``s`` and ``W > 0``, some ``Omega`` with ``|Omega| <= m + d`` carries a trigonometric
polynomial (11) with ``g = s`` on ``N`` and ``g <= -W`` off ``N``.

A counterexample is an instance ``(G, N, s, W)`` for which *every* ``Omega`` of ``m + d``
frequency classes is infeasible (a smaller ``Omega`` is a subset of one of them, and a
subset's polynomials are the superset's with zero weights). Each infeasibility is certified
by a Farkas vector: ``lam >= 0`` on the rows off ``N`` and ``nu`` on the rows of ``N`` with
``V_off^T lam + E^T nu = 0`` and ``W sum(lam) - s . nu > 0`` (then ``0 = (V_off^T lam +
E^T nu) . c <= -W sum(lam) + s . nu < 0`` for any feasible coefficients ``c``).

Exactness: on tori whose side lengths all divide 4, or all divide 6, every character value
``cos``/``sin`` of (11) is rational after scaling the sine columns by ``2/sqrt 3`` (when 3
divides a side), which leaves feasibility unchanged (the weights are free). The LP data are
then exact rationals and the certificates are re-checked in Fractions by
:func:`verify.certify.check_lp_certificate`; the float64 LP only proposes them.

The 1D reading: with ``Omega = {0, 1, ..., m}`` (every class when there are fewer), the
uniform form holds for every ``N`` of ``Z_L``: ``h = -prod_{delta in N}(1 - cos(2 pi
(x - delta)/L))`` has degree ``m``, vanishes exactly on ``N``, and the degree-``m`` evaluation
matrix on ``m`` distinct points has rank ``m`` (Vandermonde), so ``c_base + t h`` meets any
``(s, W)``. :func:`uniform_form_1d` checks both facts in float64 for every ``N``.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
from scipy.optimize import linprog

from verify.certify import Certificate, LPProblem, check_lp_certificate

from .embedding import frequency_classes

Point = tuple[int, ...]


def exact_family(widths: tuple[int, ...]) -> int | None:
    """The ``n`` in {4, 6} with every side dividing it (character values exact), else None."""
    for n in (4, 6):
        if all(n % L == 0 for L in widths):
            return n
    return None


def columns(omega: tuple[int, ...], widths: tuple[int, ...]) -> list[str]:
    """The real basis functions a class contributes: ``cos``, and ``sin`` unless ``2w = 0``."""
    selfconj = all((2 * w) % L == 0 for w, L in zip(omega, widths, strict=True))
    return ["c"] if selfconj else ["c", "s"]


def char_row(point: Point, Omega, widths, exact: bool) -> list:
    """The row ``v_delta`` of (13) at ``point``: floats, or exact Fractions (sine columns
    scaled by ``2/sqrt 3`` when 3 divides the family)."""
    n = exact_family(widths) if exact else None
    if exact and n is None:
        raise ValueError(f"character values on Z_{widths} are not rational")
    scale = 2 / math.sqrt(3) if n == 6 else 1.0
    row = []
    for w in Omega:
        ph = 2 * math.pi * sum(o * x / L for o, x, L in zip(w, point, widths, strict=True))
        for kind in columns(w, widths):
            v = math.cos(ph) if kind == "c" else math.sin(ph) * scale
            row.append(Fraction(round(2 * v), 2) if exact else v)
    return row


def _system(N, Omega, widths, exact: bool):
    G = list(itertools.product(*(range(L) for L in widths)))
    on = [tuple(p) for p in N]
    off = [p for p in G if p not in on]
    E = [char_row(p, Omega, widths, exact) for p in on]
    V = [char_row(p, Omega, widths, exact) for p in off]
    return E, V


def float_feasible(N, Omega, widths, s, W: float) -> bool:
    """Float64 HiGHS: some weights on ``Omega`` give ``g = s`` on ``N``, ``g <= -W`` off it."""
    E, V = _system(N, Omega, widths, exact=False)
    k = len(E[0])
    res = linprog(np.zeros(k), A_ub=np.array(V) if V else None,
                  b_ub=np.full(len(V), -W) if V else None, A_eq=np.array(E),
                  b_eq=np.array(s, dtype=float), bounds=(None, None), method="highs")
    return res.status == 0


def farkas_certificate(N, Omega, widths, s, W) -> dict | None:
    """An exact Farkas certificate that ``Omega`` admits no valid polynomial, or None.

    The float64 LP ``min s.nu  s.t.  V^T lam + E^T nu = 0, sum lam = 1, lam >= 0`` proposes
    multipliers; they are rounded to small-denominator rationals and accepted only if
    :func:`verify.certify.check_lp_certificate` verifies them exactly against the rational
    LP (``widths`` must be an :func:`exact_family` torus)."""
    E, V = _system(N, Omega, widths, exact=True)
    k, nv, ne = len(E[0]), len(V), len(E)
    s_f = [Fraction(x) for x in s]
    W_f = Fraction(W)
    A = np.array([[float(V[i][j]) for i in range(nv)] + [float(E[i][j]) for i in range(ne)]
                  for j in range(k)])
    A = np.vstack([A, [1.0] * nv + [0.0] * ne])
    b = np.zeros(k + 1)
    b[-1] = 1.0
    res = linprog(np.array([0.0] * nv + [float(x) for x in s_f]), A_eq=A, b_eq=b,
                  bounds=[(0, None)] * nv + [(None, None)] * ne, method="highs")
    if res.status != 0:
        return None
    problem = LPProblem.make([0] * k, A_ub=V, b_ub=[-W_f] * nv, A_eq=E, b_eq=s_f,
                             bounds=(None, None))
    for q in (1, 2, 6, 12, 60, 840, 10 ** 6):
        lam = [max(Fraction(x).limit_denominator(q), Fraction(0)) for x in res.x[:nv]]
        nu = [Fraction(x).limit_denominator(q) for x in res.x[nv:]]
        cert = Certificate("farkas", {"lam": lam, "nu": nu})
        ok, _ = check_lp_certificate(problem, cert)
        if ok:
            scale = math.lcm(*(v.denominator for v in lam + nu))
            return {"lam": [int(v * scale) for v in lam], "nu": [int(v * scale) for v in nu]}
    return None


def recheck_farkas(N, Omega, widths, s, W, cert: dict) -> bool:
    """Re-check one stored certificate with Fractions, independently of the solver: the
    combination vanishes column by column and ``W sum(lam) - s.nu > 0``."""
    E, V = _system(N, Omega, widths, exact=True)
    lam, nu = cert["lam"], cert["nu"]
    if any(x < 0 for x in lam):
        return False
    for j in range(len(E[0])):
        if sum(l_ * V[i][j] for i, l_ in enumerate(lam)) + sum(
                n_ * E[i][j] for i, n_ in enumerate(nu)) != 0:
            return False
    return Fraction(W) * sum(lam) - sum(Fraction(a) * b for a, b in zip(s, nu, strict=True)) > 0


def instance_fails(N, widths, s, W) -> bool:
    """True when no ``Omega`` of ``m + d`` classes is float-feasible (a candidate)."""
    classes = frequency_classes(widths)
    r = len(N) + len(widths)
    if r >= len(classes):
        return False
    return not any(float_feasible(N, om, widths, s, W)
                   for om in itertools.combinations(classes, r))


def certify_instance(N, widths, s, W) -> dict | None:
    """Exact certificates for every ``Omega`` of ``m + d`` classes, or None when one is
    missing (a float-feasible ``Omega``, or a certificate that did not survive rounding)."""
    classes = frequency_classes(widths)
    r = len(N) + len(widths)
    certs = {}
    for om in itertools.combinations(classes, r):
        c = farkas_certificate(N, om, widths, s, W)
        if c is None or not recheck_farkas(N, om, widths, s, W, c):
            return None
        certs[" ".join("".join(map(str, w)) for w in om)] = c
    return certs


def search_tori(tori: list[tuple[int, ...]], max_m: int) -> tuple[list[dict], list[dict]]:
    """Exhaustive search over the ``tori``: every ``N`` containing 0 (translates of ``N``
    need the same classes) with ``1 <= m <= max_m``, targets 0 and ``W = 1``. Returns, per
    torus, the first instance whose every ``Omega`` of size ``m + d`` is exactly certified
    infeasible (with its certificates), and one row per torus (instances tried, candidates,
    the counterexample's ``N`` if any)."""
    found, rows = [], []
    for widths in tori:
        G = [p for p in itertools.product(*(range(L) for L in widths)) if any(p)]
        zero = tuple(0 for _ in widths)
        row = {"widths": list(widths), "tried": 0, "candidates": 0, "counterexample_N": None}
        rows.append(row)
        for N in (
            [zero, *rest] for m in range(1, max_m + 1)
            for rest in itertools.combinations(G, m - 1)
        ):
            row["tried"] += 1
            m = len(N)
            if not instance_fails(N, widths, [0] * m, 1):
                continue
            row["candidates"] += 1
            certs = certify_instance(N, widths, [0] * m, 1)
            if certs is not None:
                row["counterexample_N"] = [list(p) for p in N]
                found.append({"G": "x".join(f"Z{L}" for L in widths), "widths": list(widths),
                              "N": [list(p) for p in N], "s": [0] * m, "W": 1, "m": m,
                              "d": len(widths), "classes": len(frequency_classes(widths)),
                              "Omegas_certified": len(certs), "certificates": certs})
                break
    return found, rows


def uniform_form_1d(L: int, N: list[int]) -> tuple[bool, dict]:
    """The 1D construction (module doc) at one ``(L, N)`` in float64: ``Omega`` is the first
    ``min(m + 1, #classes)`` classes; checks that ``h`` lies in span(Omega) (least-squares
    residual), is 0 on ``N`` and ``< 0`` off it, and that ``E`` has rank ``m`` (smallest
    singular value). Returns (holds, numbers)."""
    classes = frequency_classes((L,))[: len(N) + 1]
    x = np.arange(L)
    h = -np.prod([1 - np.cos(2 * np.pi * (x - d) / L) for d in N], axis=0)
    B = np.array([char_row((p,), classes, (L,), exact=False) for p in range(L)])
    coef, *_ = np.linalg.lstsq(B, h, rcond=None)
    resid = float(np.max(np.abs(B @ coef - h)))
    off = [p for p in range(L) if p not in N]
    gap = float(-max(h[off])) if off else 1.0
    sv = float(np.linalg.svd(B[N], compute_uv=False)[len(N) - 1])
    holds = resid < 1e-9 * (1 + float(np.max(np.abs(h)))) and gap > 1e-9 and sv > 1e-9
    return holds, {"L": L, "N": N, "Omega": [c[0] for c in classes], "span_residual": resid,
                   "min_gap_off_N": gap, "sigma_m": sv}

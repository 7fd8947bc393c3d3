"""Exact trigonometric interpolation on the cyclic group Z_L.

Given points ``k`` in ``{0, ..., L-1}`` (angle ``theta_k = 2 pi k / L``), values ``v_k`` and
frequencies ``m``, find coefficients of

    f(theta) = a_0 + sum_m ( a_m cos(m theta) + b_m sin(m theta) )

(``a_0`` only when 0 is among the frequencies) with ``f(theta_k) = v_k``. The linear system is
solved exactly in the cyclotomic field ``Q(zeta_M)``, ``M = lcm(L, 4)`` (it contains ``i``,
every ``cos(2 pi j / L)`` and ``sin(2 pi j / L)``): ``cos(m theta_k) = (zeta^e + zeta^-e)/2``,
``sin(m theta_k) = (zeta^e - zeta^-e)/(2i)``. Arithmetic is SymPy's ``DomainMatrix`` over
``QQ<zeta_M>``, so zero tests are exact (no ``nsimplify``, no floating point).

The answer says whether the system is consistent (if not, a certificate ``y`` with ``y A = 0``
and ``y v != 0``), the particular solution, and a basis of the kernel when it is not unique.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import sympy as sp
from sympy.polys.matrices import DomainMatrix

from ..evidence import Evidence
from ..verdict import Verdict


@lru_cache(maxsize=64)
def _field(M: int) -> tuple[Any, Any]:
    K = sp.QQ.algebraic_field(sp.exp(2 * sp.pi * sp.I / M))
    return K, K.from_sympy(sp.exp(2 * sp.pi * sp.I / M))


@dataclass
class TrigInterpolation:
    """Exact solution set of a trigonometric interpolation problem on Z_L."""

    L: int
    points: list[int]
    values: list[sp.Expr]
    basis: list[str]                       # "1", "cos(2 theta)", "sin(2 theta)", ...
    consistent: bool
    solution: list[sp.Expr] | None = None  # a particular solution, coefficients in basis order
    kernel: list[list[sp.Expr]] = field(default_factory=list)
    certificate: list[sp.Expr] | None = None  # y with y A = 0, y v != 0, when inconsistent

    @property
    def unique(self) -> bool:
        return self.consistent and not self.kernel

    def as_function(self, theta: sp.Symbol) -> sp.Expr | None:
        """The particular interpolant as an expression in ``theta``."""
        if self.solution is None:
            return None
        return sp.Add(*[c * _basis_fn(b, theta)
                        for c, b in zip(self.solution, self.basis, strict=True)])

    def describe(self) -> str:
        if not self.consistent:
            return "no solution: the values are inconsistent with the basis"
        coeffs = ", ".join(f"{b}: {sp.sstr(c)}"
                           for b, c in zip(self.basis, self.solution or [], strict=True))
        if self.unique:
            return f"unique solution {coeffs}"
        return f"solution {coeffs}; kernel of dimension {len(self.kernel)}"


def _basis_fn(label: str, theta: sp.Symbol) -> sp.Expr:
    if label == "1":
        return sp.Integer(1)
    fn, rest = label.split("(", 1)
    m = sp.Integer(rest.split(" ")[0]) if " " in rest else sp.Integer(1)
    return (sp.cos if fn == "cos" else sp.sin)(m * theta)


def _labels(freqs: Sequence[int]) -> list[tuple[str, int, str]]:
    out: list[tuple[str, int, str]] = []
    for m in freqs:
        m = int(m)
        if m == 0:
            out.append(("1", 0, "1"))
        else:
            out.append(("cos", m, f"cos({m} theta)"))
            out.append(("sin", m, f"sin({m} theta)"))
    return out


def _to_sympy(K: Any, x: Any, M: int) -> sp.Expr:
    """Field element sum_j a_j zeta^j as a readable exact expression (cos form when real)."""
    coeffs = list(reversed(x.to_list()))  # a_0, a_1, ...
    zeta_pow = [sp.Rational(c.numerator, c.denominator) if hasattr(c, "numerator")
                else sp.sympify(c) for c in coeffs]
    conj = _conj(K, x, M)
    if conj == x:
        return sp.Add(*[a * sp.cos(2 * sp.pi * j / M) for j, a in enumerate(zeta_pow)])
    return sp.Add(*[a * (sp.cos(2 * sp.pi * j / M) + sp.I * sp.sin(2 * sp.pi * j / M))
                    for j, a in enumerate(zeta_pow)])


def _conj(K: Any, x: Any, M: int) -> Any:
    _, g = _field(M)
    coeffs = list(reversed(x.to_list()))
    out = K.zero
    for j, a in enumerate(coeffs):
        if a:
            out += K.convert(a) * g ** ((-j) % M)
    return out


def trig_interpolate(
    L: int, points: Sequence[int], values: Sequence[Any], freqs: Sequence[int]
) -> TrigInterpolation:
    """Solve the interpolation problem exactly (see the module doc).

    Args:
        L: the order of the cyclic group (angles ``2 pi k / L``).
        points: the ``k`` where values are given (integers, taken mod ``L``).
        values: exact values (rationals, or algebraic numbers in ``Q(zeta_lcm(L,4))``).
        freqs: frequencies; 0 means the constant, ``m > 0`` adds ``cos(m theta)``, ``sin(m theta)``.
    """
    if len(points) != len(values):
        raise ValueError("points and values differ in length")
    M = int(sp.ilcm(L, 4))
    K, g = _field(M)
    step = M // L
    i_el = g ** (M // 4)
    two_i = K.convert(2) * i_el
    half = K.convert(sp.Rational(1, 2))
    labels = _labels(freqs)
    rows = []
    for k in points:
        row = []
        for kind, m, _ in labels:
            e = (m * int(k) * step) % M
            if kind == "1":
                row.append(K.one)
            elif kind == "cos":
                row.append((g ** e + g ** ((-e) % M)) * half)
            else:
                row.append((g ** e - g ** ((-e) % M)) / two_i)
        rows.append(row)
    try:
        v = [K.from_sympy(sp.sympify(x)) for x in values]
    except Exception as exc:
        raise ValueError(f"values must lie in Q(zeta_{M}): {exc}") from None
    n = len(labels)
    A = DomainMatrix(rows, (len(points), n), K)
    aug = DomainMatrix([r + [vk] for r, vk in zip(rows, v, strict=True)], (len(points), n + 1), K)
    R, pivots = aug.rref()
    basis = [lab for _, _, lab in labels]
    vals = [sp.sympify(x) for x in values]
    if n in pivots:
        y = _certificate(A, v, K)
        return TrigInterpolation(L, list(points), vals, basis, consistent=False,
                                 certificate=[_to_sympy(K, c, M) for c in y])
    Rl = R.to_list()
    sol = [K.zero] * n
    for r, p in enumerate(pivots):
        sol[p] = Rl[r][n]
    # exact re-check of the particular solution
    for row, vk in zip(rows, v, strict=True):
        if sum((a * s for a, s in zip(row, sol, strict=True)), K.zero) != vk:
            raise AssertionError("particular solution failed its exact re-check")
    kernel = [_normalise(vec, K) for vec in A.nullspace().to_list()] if len(pivots) < n else []
    return TrigInterpolation(
        L, list(points), vals, basis, consistent=True,
        solution=[_to_sympy(K, s, M) for s in sol],
        kernel=[[_to_sympy(K, c, M) for c in vec] for vec in kernel],
    )


def _normalise(vec: list[Any], K: Any) -> list[Any]:
    """Scale a kernel vector so that its first nonzero entry is 1."""
    lead = next((c for c in vec if c != K.zero), K.one)
    return [c / lead for c in vec]


def _certificate(A: DomainMatrix, v: list[Any], K: Any) -> list[Any]:
    """A left null vector ``y`` of ``A`` with ``y . v != 0`` (proof of inconsistency)."""
    left = A.transpose().nullspace().to_list()
    for y in left:
        if sum((a * b for a, b in zip(y, v, strict=True)), K.zero) != K.zero:
            return y
    raise AssertionError("inconsistent system without a certificate")


def check_trig_interpolation(
    L: int,
    points: Sequence[int],
    values: Sequence[Any],
    freqs: Sequence[int],
    expected: Sequence[Any] | None = None,
    *,
    reading: str = "A",
    part: str = "main",
) -> Evidence:
    """Evidence for an interpolation claim.

    ``expected=None``: the claim "some trigonometric polynomial with these frequencies
    interpolates the values": PROVED with the exact solution (and kernel), or REFUTED with
    the inconsistency certificate ``y`` (``y A = 0``, ``y v != 0``).
    ``expected`` (coefficients in basis order, as :attr:`TrigInterpolation.basis`): PROVED
    when it interpolates exactly (the steps say whether it is the unique interpolant),
    REFUTED with the first point where it misses.
    """
    res = trig_interpolate(L, points, values, freqs)
    steps = [f"Z_{L}, points {list(points)}, basis {res.basis}", res.describe()]
    gen = f"exact in Q(zeta_{int(sp.ilcm(L, 4))})"
    if expected is None:
        if res.consistent:
            return Evidence(Verdict.PROVED, res.describe(), method="symbolic", reading=reading,
                            part=part, steps=steps, generality=gen)
        certificate = [sp.sstr(c) for c in res.certificate or []]
        return Evidence(Verdict.REFUTED,
                        "no trigonometric polynomial with these frequencies interpolates the "
                        "values",
                        method="symbolic", reading=reading, part=part, steps=steps, generality=gen,
                        counterexample={"certificate_y": certificate,
                                        "meaning": "y A = 0 but y . values != 0"})
    from .prove import prove_equal

    theta = sp.Dummy("theta")
    f = sp.Add(*[sp.sympify(c) * _basis_fn(b, theta)
                 for c, b in zip(expected, res.basis, strict=True)])
    for k, vk in zip(points, values, strict=True):
        e = prove_equal(f.subs(theta, 2 * sp.pi * sp.Integer(k) / L), sp.sympify(vk), timeout=20)
        steps.append(f"point k={k}: {e.verdict.value} ({e.summary})")
        if e.verdict is Verdict.REFUTED:
            return Evidence(Verdict.REFUTED, f"the expected coefficients miss the value at k={k}",
                            method="symbolic", reading=reading, part=part, steps=steps,
                            counterexample={"k": int(k), "value": str(vk),
                                            **(e.counterexample or {})})
        if e.verdict is not Verdict.PROVED:
            return Evidence(Verdict.UNDECIDED, f"could not decide the value at k={k}",
                            method="symbolic", reading=reading, part=part, steps=steps)
    uniq = ("the unique interpolant" if res.unique
            else f"one of a {len(res.kernel)}-dimensional family")
    return Evidence(Verdict.PROVED, f"the expected coefficients interpolate exactly ({uniq})",
                    method="symbolic", reading=reading, part=part, steps=steps, generality=gen)

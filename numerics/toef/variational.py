"""Sec. 2.3 of the paper (Defs 2-3), numerically: the first variation of the action (eq. 3)
along the flow of a potential, structural optimality (Def. 3), and the closedness test of the
potential-existence criterion on random head sets. The Euler-Lagrange equations and the
criterion itself are proved in ``proofs/toef/variational.py``.
"""

from __future__ import annotations

import math

import numpy as np
import torch
from scipy.integrate import quad

import verify
from proofs.toef.model import COUNTEREXAMPLE_TOL, PAPER
from verify import Evidence
from verify.numeric import judge_error

from .model.transformer import attention_field, head_family
from .model.wirtinger import closedness_defect, crandn

#: |dS| at most this is stationary; at least ``NOT_STATIONARY`` is a counterexample.
STATIONARY = 1e-6
NOT_STATIONARY = 1e-2


def first_variation(w: complex, x0: complex, e: complex, kappa: complex = 0.0,
                    eps: float = 1e-4) -> float:
    """|dS/ds| by a central difference of S (eq. 3, N = C = 1, V = w |x|^2 + kappa |x|^4) along
    the flow ``xdot = dV/dxb = (w + 2 kappa |x|^2) x`` from ``x0``, in the direction
    ``delta(t) = sin(pi t) e`` (vanishing at both ends); adaptive quadrature, epsrel 1e-13.

    The flow is ``x0 e^{(w + 2 kappa |x0|^2) t}``: exact when ``kappa = 0`` (any ``w``) and when
    ``w`` and ``kappa`` are purely imaginary (then ``|x|`` is conserved).
    """
    if kappa != 0 and (complex(w).real != 0 or complex(kappa).real != 0):
        raise ValueError("the closed-form flow needs kappa = 0 or purely imaginary w, kappa")
    rate = w + 2 * kappa * abs(x0) ** 2

    def S(s: float) -> complex:
        def integrand(t: float) -> complex:
            xt = x0 * np.exp(rate * t) + s * math.sin(math.pi * t) * e
            xd = x0 * rate * np.exp(rate * t) + s * math.pi * math.cos(math.pi * t) * e
            r2 = xt * np.conj(xt)
            return 0.5 * (xd * np.conj(xt) - xt * np.conj(xd)) - w * r2 - kappa * r2**2
        re = quad(lambda t: integrand(t).real, 0, 1, epsabs=1e-14, epsrel=1e-13)[0]
        im = quad(lambda t: integrand(t).imag, 0, 1, epsabs=1e-14, epsrel=1e-13)[0]
        return re + 1j * im
    return abs((S(eps) - S(-eps)) / (2 * eps))


#: Purely imaginary potentials V = w|x|^2 + kappa|x|^4 with their start points and directions.
IMAGINARY_CASES = [
    {"w": 1j, "kappa": 0.0, "x0": 1.0, "e": 1.0},
    {"w": 1j, "kappa": 0.0, "x0": 1.0, "e": 1.0 + 0.5j},
    {"w": 0.7j, "kappa": 0.4j, "x0": 0.6 + 0.3j, "e": 1.0 - 0.2j},
    {"w": -1.3j, "kappa": -0.2j, "x0": 1.1 - 0.4j, "e": 0.3 + 1.0j},
]


def _imaginary_stationarity(summary: str, **kw) -> Evidence:
    """The largest |dS| over :data:`IMAGINARY_CASES`, judged as stationary or not."""
    dS = [first_variation(c["w"], c["x0"], c["e"], kappa=c["kappa"]) for c in IMAGINARY_CASES]
    worst = max(range(len(dS)), key=dS.__getitem__)
    case = {k: str(v) for k, v in IMAGINARY_CASES[worst].items()}
    return judge_error(dS[worst], summary, tol=STATIONARY, fail=NOT_STATIONARY,
                       counterexample={"N": 1, "C": 1, **case, "dS": dS[worst]},
                       numbers={"dS": dS}, **kw)


@verify.evidence_for("toef.def2_euler_lagrange")
def def2_first_variation(ctx):
    """(iii) numerically: along xdot = w x (V = w|x|^2), |dS| ~ 1 for real w (REFUTED: the flow
    does not extremize S); reading B: dS = 0 along the flows of purely imaginary
    V = w|x|^2 + kappa|x|^4 (stationary)."""
    dS_re = first_variation(1.0, 1.0, 1.0)
    return [
        judge_error(dS_re, r"$V=|x|^2$ (real): $|\delta S|$ along the flow $x=e^t$ for "
                    r"$\delta=\sin(\pi t)$",
                    tol=STATIONARY, fail=NOT_STATIONARY, part="(iii) stationarity",
                    counterexample={"N": 1, "C": 1, "V": "$|x|^2$", "x0": 1,
                                    "delta": r"$\sin(\pi t)$",
                                    "eps": 1e-4, "dS": dS_re}),
        _imaginary_stationarity("purely imaginary V = w|x|^2 + kappa|x|^4 (4 cases): largest "
                                "|dS| along the flow", reading="B", part="(iii) stationarity"),
    ]


@verify.claim(
    "toef.def3_structural_optimality", paper=PAPER, where="Definition 3, L70; Contribution, L17",
    statement=r"\text{An architecture }X\text{ is structurally optimal w.r.t. }V\text{ if it "
              r"extremizes the action of the path }X(t)\text{; Transformers of Definition 4 "
              r"with a potential are structurally optimal}",
    kind="property", expect="REFUTED",
    readings={"i": "(i) with the hypothesis, not in the paper, that the potential is purely "
                   "imaginary (W anti-Hermitian, imaginary quartic coefficients): Transformers "
                   "of Definition 4 with that potential are structurally optimal"},
    repairs={"i": "overstated"},
)
def def3_structural_optimality(ctx):
    """First variation of S (central differences, adaptive quadrature, variations vanishing at
    both ends) along Def-4 flows with N = C = 1, V = w|x|^2 + kappa|x|^4. Real V (w = 1):
    |dS| ~ 1: REFUTED. Purely imaginary V (four cases of w, kappa, start and direction):
    dS = 0 (reading i, the list's input class (i), SUPPORTED; reading A's real V and generic w
    are its classes (ii) and (iii)). With both endpoints prescribed the first-order flow
    generally cannot reach them (X(1) = e^w X(0) is forced)."""
    direction = 1.0 + 0.5j
    dS_re = first_variation(1.0, 1.0, direction)
    dS_gen = first_variation(0.3 + 0.7j, 1.0, direction)
    return [
        judge_error(dS_re, r"real $V=|x|^2$ (W = 1): $|\delta S|$ along the flow of Definition 4, "
                    r"$x=e^t$ "
                    rf"(generic $w=0.3+0.7i$: $|\delta S|$ = {dS_gen:.4f})", tol=STATIONARY,
                    fail=NOT_STATIONARY,
                    counterexample={"N": 1, "C": 1, "W": 1, "x0": 1,
                                    "delta": r"$\sin(\pi t)(1+0.5i)$", "dS": dS_re,
                                    "recheck": "scipy quad, epsrel 1e-13"}),
        _imaginary_stationarity("purely imaginary V = w|x|^2 + kappa|x|^4 (4 cases): largest "
                                r"$|\delta S|$ along the flow of Definition 4", reading="i"),
    ]


@verify.evidence_for("toef.potential_existence_criterion")
def criterion_numeric(ctx):
    """torch: the closedness defect agrees with the tensor condition sum A(x)B = sum B(x)A on
    random head sets of every family (N = 3, C = 2)."""
    g = ctx.torch_generator("crit")
    disagreements = 0
    for family, n in (("paired", 2), ("tied", 1), ("tied", 3), ("untied", 2), ("scaled", 2),
                      ("untied", 1)):
        for _ in range(ctx.pick(1, 20)):
            heads = head_family(g, family, 2, n)
            T = sum(torch.kron(A, B) for A, B in heads)
            Ts = sum(torch.kron(B, A) for A, B in heads)
            asymmetry = float(torch.linalg.norm(T - Ts) / torch.linalg.norm(T))
            d = closedness_defect(attention_field(heads), crandn(3, 2, generator=g))
            disagreements += (asymmetry < 1e-10) != (d < 1e-10)
    return judge_error(float(disagreements > 0), "closedness <=> tensor symmetry on "
                       "paired/tied/scaled/untied heads (N=3, C=2)", tol=0.0,
                       fail=COUNTEREXAMPLE_TOL, part="(b) N >= 2",
                       counterexample={"N": 3, "C": 2, "disagreements": disagreements})

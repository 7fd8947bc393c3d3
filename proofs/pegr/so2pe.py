"""``pegr.so2pe.*``: equivariance of the proposed SO(2) encoding ``J(c r) e^{i k theta}`` (L79;
D.2 L333; footnote 2, L99).

Its injectivity ("losslessly multiply", footnote 2) is a numeric search and lives in
``numerics/pegr/so2pe.py``, beside the Cartesian float64 check of :func:`so2pe_equivariance`.
"""

from __future__ import annotations

import sympy as sp

import verify
from verify.symbolic import prove_cases

from .model import PAPER, R, step_timeout


@verify.claim(
    "pegr.so2pe.equivariance", paper=PAPER, where="L79; D.2 L333; footnote 2 L99",
    statement=r"\gamma(R_\phi p)=\rho(\phi)\gamma(p),\ \rho(\phi)=\bigoplus_iR(k_i\phi),\ "
              r"\gamma(p)=(J_0(c_ir)\cos k_i\theta,J_0(c_ir)\sin k_i\theta)_i",
    kind="identity", expect="PROVED",
    timeout={"quick": 300.0},  # three symbolic steps, one a sum: room on a loaded machine
)
def so2pe_equivariance(ctx):
    """In polar form, for any number of features: ``rho(phi) = (+)_i R(k_i phi)`` is block
    diagonal and gamma featurewise, so ``gamma(r, theta + phi) = rho(phi) gamma(r, theta)``,
    ``rho`` a homomorphism and orthogonal hold iff they hold on feature i, proved with a
    symbolic index i (``c``, ``k`` IndexedBases, k integer) and ``J`` an opaque function (so
    J_0 and every J_m); the Gram invariance that follows is proved as a sum over the features
    i = 1..n with symbolic n. Cartesian float64 check with atan2 (points near the negative x
    axis included), the paper's (C, K) grid and m in {0, 1, 2}: ``numerics/pegr/so2pe.py``."""
    r, r2, th, th2, ph, s, t = sp.symbols("r r2 theta theta2 phi s t", real=True)
    i = sp.Symbol("i", integer=True, positive=True)
    n = sp.Symbol("n", integer=True, positive=True)
    c = sp.IndexedBase("c", positive=True)[i]
    k = sp.IndexedBase("k", integer=True)[i]
    J = sp.Function("J")

    def feature(rr, tt):
        return sp.Matrix([J(c * rr) * sp.cos(k * tt), J(c * rr) * sp.sin(k * tt)])

    featurewise = ("any number of features: rho is block diagonal and gamma featurewise, so the "
                   "identity holds iff it holds on feature i, proved for a symbolic index i "
                   "(c_i > 0, integer k_i), real r, theta, phi and J opaque (any J_m)")
    return [
        prove_cases([("feature i: gamma_i(r, theta + phi) = R(k_i phi) gamma_i(r, theta)",
                      feature(r, th + ph), R(k * ph) * feature(r, th))],
                    generality=featurewise, scope="general",
                    summary=r"$\gamma(R_\phi p) = \rho(\phi)\gamma(p)$",
                    timeout=step_timeout(ctx, 3)),
        prove_cases([("block i: R(k(s+t)) = R(k s) R(k t)", R(k * (s + t)), R(k * s) * R(k * t)),
                     ("block i: R(k phi)^T R(k phi) = I", R(k * ph).T * R(k * ph), sp.eye(2))],
                    generality=featurewise, scope="general", part="rho",
                    summary=r"$\rho$ homomorphism, orthogonal", timeout=step_timeout(ctx, 2)),
        prove_cases([("sum over the features of gamma(R p)^T gamma(R q) - gamma(p)^T gamma(q)",
                      sp.Sum((feature(r, th + ph).T * feature(r2, th2 + ph))[0], (i, 1, n)),
                      sp.Sum((feature(r, th).T * feature(r2, th2))[0], (i, 1, n)))],
                    generality="symbolic n (sum over the features i = 1..n), c_i, k_i, r, theta, "
                               "phi; J opaque", scope="general", part="consequence",
                    summary="Gram invariance", timeout=step_timeout(ctx, 1)),
    ]

"""``pegr.so2pe.*``: equivariance of the proposed SO(2) encoding ``J(c r) e^{i k theta}`` (L79;
D.2 L333; footnote 2, L99).

Its injectivity ("losslessly multiply", footnote 2) is a numeric search and lives in
``numerics/pegr/so2pe.py``, beside the Cartesian float64 check of :func:`so2pe_equivariance`.
"""

from __future__ import annotations

import sympy as sp

import verify
from verify.symbolic import prove_cases, prove_equal

from .model import PAPER, R


@verify.claim(
    "pegr.so2pe.equivariance", paper=PAPER, where="L79; D.2 L333; footnote 2 L99",
    statement=r"\gamma(R_\phi p)=\rho(\phi)\gamma(p),\ \rho(\phi)=\bigoplus_iR(k_i\phi),\ "
              r"\gamma(p)=(J_0(c_ir)\cos k_i\theta,J_0(c_ir)\sin k_i\theta)_i",
    kind="identity", expect="PROVED",
)
def so2pe_equivariance(ctx):
    """In polar form, with ``J`` an opaque function (so J_0 and every J_m): ``gamma_i(r, theta +
    phi) = R(k_i phi) gamma_i(r, theta)`` for integer k_i (PROVED, symbolic), ``rho`` a
    homomorphism and orthogonal, and the Gram invariance that follows. Cartesian float64 check
    with atan2 (points near the negative x axis included), the paper's (C, K) grid and m in
    {0, 1, 2}: ``numerics/pegr/so2pe.py``."""
    r, th, ph, s, t = sp.symbols("r theta phi s t", real=True)
    k1, k2 = sp.symbols("k1 k2", integer=True)
    c1, c2 = sp.symbols("c1 c2", positive=True)
    J = sp.Function("J")

    def gamma(rr, tt):
        return sp.Matrix([J(c1 * rr) * sp.cos(k1 * tt), J(c1 * rr) * sp.sin(k1 * tt),
                          J(c2 * rr) * sp.cos(k2 * tt), J(c2 * rr) * sp.sin(k2 * tt)])

    def rho(u):
        return sp.diag(R(k1 * u), R(k2 * u))

    gen = "two features, symbolic c_i, integer k_i, r, theta, phi; J opaque (any J_m)"
    r2, th2 = sp.symbols("r2 theta2", real=True)
    equivariance = prove_equal(gamma(r, th + ph), rho(ph) * gamma(r, th),
                               assumptions={"r": "real", "theta": "real", "phi": "real"}
                               ).relabel(generality=gen,
                                         prefix="gamma(R_phi p) = rho(phi) gamma(p)")
    return [
        equivariance,
        prove_cases([("rho homomorphism", rho(s + t), rho(s) * rho(t)),
                     ("rho orthogonal", rho(ph).T * rho(ph), sp.eye(4))],
                    generality=gen, part="rho", summary="rho homomorphism, orthogonal"),
        prove_cases([("Gram invariance gamma(R p)^T gamma(R q) = gamma(p)^T gamma(q)",
                      (gamma(r, th + ph).T * gamma(r2, th2 + ph))[0],
                      (gamma(r, th).T * gamma(r2, th2))[0])],
                    generality=gen, part="consequence",
                    summary="Gram invariance"),
    ]

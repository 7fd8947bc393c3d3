"""``pegr.so2.*``: the orbits of SO(2) on R^2 (L79; footnote 2, L99)."""

from __future__ import annotations

import sympy as sp

import verify
from verify.symbolic import prove_equal

from .model import PAPER, R


@verify.claim(
    "pegr.so2.orbit_decomposition", paper=PAPER, where="L79; footnote 2 L99",
    statement=r"\mathbb R^2\text{ is not a homogeneous space of SO(2); orbits }\{\|p\|=r\};\ "
              r"\theta(R_\phi p)=\theta(p)+\phi\bmod 2\pi",
    kind="identity", expect="PROVED",
)
def so2_orbit_decomposition(ctx):
    """``||R_phi p|| = ||p||`` (PROVED, symbolic), so points of different radii are never
    related by a rotation (the action is not transitive: R^2 is not a homogeneous space, L79) and
    any function of r is invariant; on a circle r > 0, ``R_phi (r cos theta, r sin theta) = (r
    cos(theta+phi), r sin(theta+phi))`` (PROVED): the action is free and transitive with theta
    an equivariant coordinate. atan2 mod 2 pi, near the branch cut included (``atan2(0, 0) = 0``
    at the origin): ``numerics/pegr/so2.py``."""
    th, ph = sp.symbols("theta phi", real=True)
    p = sp.Matrix(sp.symbols("p1:3", real=True))
    rp = sp.Symbol("rp", positive=True)
    radius = prove_equal(((R(ph) * p).T * (R(ph) * p))[0], (p.T * p)[0], assumptions="real",
                         part="orbits").relabel(
        generality="symbolic p, phi", prefix="||R_phi p||^2 = ||p||^2")
    angle = prove_equal(R(ph) * sp.Matrix([rp * sp.cos(th), rp * sp.sin(th)]),
                        sp.Matrix([rp * sp.cos(th + ph), rp * sp.sin(th + ph)]),
                        assumptions={"theta": "real", "phi": "real"},
                        part="equivariant coordinate").relabel(
        generality="symbolic r > 0, theta, phi", scope="general",
        prefix="theta -> theta + phi on each circle")
    return [radius, angle]

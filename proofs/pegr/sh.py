"""``pegr.sh.*``: the degree of spherical harmonics (§3.2, L71)."""

from __future__ import annotations

import numpy as np
import sympy as sp
from scipy import special

import verify
from verify import Evidence, Verdict
from verify.symbolic import prove_cases

from .model import PAPER


def solid_harmonic(ell: int, m: int, X: sp.Symbol, Y: sp.Symbol, Z: sp.Symbol) -> sp.Expr:
    """``r^ell Y_ell^m`` up to its normalisation constant, as a polynomial:
    ``(x + i y)^m r^{ell-m} P_ell^{(m)}(z/r)`` (m >= 0; ``P^{(m)}`` the m-th derivative of the
    Legendre polynomial, of parity ell - m, so only even powers of r remain); m < 0 uses
    ``x - i y``."""
    tt = sp.Symbol("t")
    am = abs(m)
    Pm = sp.Poly(sp.diff(sp.legendre(ell, tt), tt, am), tt)
    Q = sum(cf * Z**c_ * (X**2 + Y**2 + Z**2) ** sp.Rational(ell - am - c_, 2)
            for (c_,), cf in Pm.terms())
    return sp.expand((X + sp.sign(m if m else 1) * sp.I * Y) ** am * Q)


@verify.claim(
    "pegr.sh.degree", paper=PAPER, where="L71",
    statement=r"\text{the }\ell^{th}\text{ spherical harmonic is a polynomial of degree at most "
              r"}\ell\text{ in }x,y,z",
    kind="identity", expect="SUPPORTED",
    readings={"B": "derived: r^ell Y_ell^m is a homogeneous harmonic polynomial of degree "
                   "exactly ell"},
)
def sh_degree(ctx):
    """SUPPORTED (not PROVED): the polynomial side is exact, its identification with scipy's
    ``Y_l^m`` is float64. For ell <= 2 (quick) / 4 (deep) and every m, the solid harmonic
    ``(x +- iy)^|m| r^{ell-|m|} P^{(|m|)}(z/r)`` is a polynomial (SymPy ``Poly``), homogeneous
    of total degree ell and harmonic (Laplacian = 0, PROVED, reading B); its Re / Im (the real
    basis) are real polynomials of the same kind. A float64 comparison with
    ``scipy.special.sph_harm_y`` shows that on S^2 it is a constant multiple of ``Y_ell^m``."""
    X, Y, Z = sp.symbols("x y z", real=True)
    L = ctx.pick(quick=2, deep=4)
    rng = np.random.default_rng(ctx.subseed("sh"))
    worst = 0.0
    polys_ok = True
    laplacians = []
    for ell in range(L + 1):
        for m in range(-ell, ell + 1):
            h = solid_harmonic(ell, m, X, Y, Z)
            P = sp.Poly(h, X, Y, Z)
            polys_ok &= P.is_homogeneous and P.total_degree() == ell
            lap = sp.diff(h, X, 2) + sp.diff(h, Y, 2) + sp.diff(h, Z, 2)
            laplacians.append((f"ell={ell}, m={m}: Laplacian of r^l Y_l^m = 0", lap, 0))
            pts = rng.standard_normal((12, 3))
            pts /= np.linalg.norm(pts, axis=1, keepdims=True)
            f = sp.lambdify((X, Y, Z), h, "numpy")
            hv = np.asarray(f(pts[:, 0], pts[:, 1], pts[:, 2]), dtype=complex) * np.ones(12)
            theta, phi = np.arccos(pts[:, 2]), np.arctan2(pts[:, 1], pts[:, 0])
            ratio = special.sph_harm_y(ell, m, theta, phi) / hv
            worst = max(worst, float(np.abs(ratio - ratio[0]).max() / abs(ratio[0])))
    bounded = (f"exact, ell <= {L}, all m; a symbolic ell needs the |m|-th derivative of the "
               "Legendre polynomial in closed form, which SymPy does not give")
    harmonic = prove_cases(laplacians, generality=bounded, reading="B",
                           part="harmonic", summary="B: r^l Y_l^m is harmonic",
                           timeout=2.0 * len(laplacians))
    degree = Evidence(
        Verdict.PROVED if polys_ok else Verdict.REFUTED,
        f"r^l Y_l^m is a polynomial, homogeneous of degree exactly l, for all l <= {L}, all m "
        "(so Y_l^m on S^2 is a polynomial of degree <= l)", method="symbolic",
        generality=bounded, scope="bounded",
        counterexample=None if polys_ok else {"ell_max": L})
    matches = Evidence(
        Verdict.SUPPORTED if worst < 1e-10 else Verdict.UNDECIDED,
        f"float64: Y_l^m (scipy) / polynomial is constant on S^2, rel. spread {worst:.1e}",
        method="numeric", dtype="float64", numbers={"rel_spread": worst}, part="matches Y_l^m")
    return [harmonic, degree, matches]

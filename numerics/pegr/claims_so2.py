"""Numeric claims of group E: the homogeneous-space lift (§4, L77) and the proposed SO(2) encodings (L79, fn. 2,
D.2), with float64 cross-checks of the symbolic SO(2) claims in proofs/pegr.py."""

from __future__ import annotations

import math

import numpy as np
import sympy as sp
import torch
from hypothesis import strategies as st
from scipy import special
from scipy.spatial import cKDTree

import verify
from verify import Evidence, Verdict
from verify.numeric import check_equivariance, falsify

from ._common import PAPER, judge, refuted, relabel
from .encodings import SO2BesselPE, sphere_points, wigner_real
from .groups import haar_so3, rot2, rot_z
from .inr import grid


@verify.claim(
    "pegr.homogeneous.lift_pe", paper=PAPER, where="L21 (lift); Table 1 last row L37; L77; footnote 2 L99",
    statement=r"\mathcal X\text{ homogeneous: positional encodings }\mathrm{vec}(\rho_\lambda(x^G)),\ "
              r"x^G=\{g:gx_0=x\}",
    kind="property", expect="REFUTED",
    readings={"B": "fixed vector: gamma(x) = rho_lambda(g_x) v with v fixed by rho_lambda(H)",
              "C": "set-valued: gamma(x) = {vec rho_lambda(g) : g in x^G}"},
)
def homogeneous_lift_pe(ctx):
    """Reading A (any representative g_x): the encoding depends on the representative whenever the stabiliser H
    acts non-trivially: SO(3) on S^2, x_0 = e_z, H = {R_z(psi)}: g = I and g R_z(pi/2) both lift e_z, but
    vec(I) != vec(R_z(pi/2)) (exact, l = 1 defining rep; l = 2 Wigner D^2 numerically). REFUTED (not
    well defined). Reading B (v = e_z for l = 1, the m = 0 column for l = 2): lift-independent and
    equivariant, ``gamma(g x) = rho(g) gamma(x)`` (float64 fuzz). For T acting on itself and SO(2) on a circle
    H is trivial and reading A is well defined. Reading C is well defined by construction (informal)."""
    out = []
    Rz = sp.Matrix([[0, -1, 0], [1, 0, 0], [0, 0, 1]])
    ez = sp.Matrix([0, 0, 1])
    if Rz * ez == ez and (sp.eye(3) - Rz) != sp.zeros(3, 3):
        out.append(refuted("SO(3) on S^2, x0 = e_z: g = I and g' = R_z(pi/2) are both in x^G for x = e_z, but "
                           "vec(rho(g)) != vec(rho(g')) (l = 1, exact)",
                           {"space": "S^2", "x0": "e_z", "x": "e_z", "g": "I", "g'": "R_z(pi/2) = [[0,-1,0],[1,0,0],[0,0,1]]",
                            "rho": "defining rep (l = 1)"}, method="symbolic", generality="exact"))
    g = torch.Generator().manual_seed(ctx.subseed("lift"))
    Rs = haar_so3(8, g).numpy()
    pts = sphere_points(60, np.random.default_rng(ctx.subseed("liftpts")))
    diffA, errB = 0.0, 0.0
    for R_ in Rs[:4]:
        psi = float(torch.rand(1, generator=g)) * 2 * math.pi
        D, D2 = wigner_real(2, R_, pts), wigner_real(2, R_ @ rot_z(psi), pts)
        diffA = max(diffA, float(np.abs(D - D2).max()))
        errB = max(errB, float(np.abs(D[:, 2] - D2[:, 2]).max()))
    out[0].numbers = {"l2_two_lifts_max_diff": diffA}

    def prop(generator, batch, dtype, device, ell):
        Rg = haar_so3(2 * batch, generator).numpy()
        v = []
        for b in range(batch):
            gx, gg = Rg[2 * b], Rg[2 * b + 1]
            if ell == 1:
                lhs, rhs = (gg @ gx)[:, 2], gg @ gx[:, 2]
            else:
                lhs = wigner_real(2, gg @ gx, pts)[:, 2]
                rhs = wigner_real(2, gg, pts) @ wigner_real(2, gx, pts)[:, 2]
            v.append(float(np.abs(lhs - rhs).max()) / 1e-12)
        return torch.tensor(v, dtype=torch.float64)
    evB = falsify(prop, {"ell": st.sampled_from([1, 2])}, budget=ctx.pick(quick=4, deep=30), batch=4, tol=1.0,
                  seed=ctx.subseed("liftB"))
    out.append(judge(errB, "B: the m = 0 column of D^2 is the same for two lifts", tol=1e-11, reading="B",
                     part="well defined"))
    out.append(relabel(evB, reading="B", part="equivariance", summary="B: gamma(gx) = rho(g) gamma(x) (units of 1e-12)"))
    out.append(Evidence.informal("C: the set-valued encoding is well defined by construction; no metric on sets given",
                                 reading="C", numbers={"stabilisers": {"T on T": "trivial", "SO(2) on a circle": "trivial",
                                                                       "SO(3) on S^2": "SO(2) = {R_z}"}}))
    return out


@verify.claim(
    "pegr.so2pe.lossless_and_continuity", paper=PAPER, where="footnote 2 L99; L79 ('we set m = 0')",
    statement=r"\text{the invariant orbit embedding is a real scalar and the equivariant embedding is a complex unit "
              r"vector, so it is natural to losslessly multiply the two}",
    kind="property", expect="REFUTED",
    readings={"B": "the product map (s, u) -> s u, s real, |u| = 1, is injective",
              "C": "the full 16-feature encoding of D.2 is injective on the 256^2 experiment grid",
              "D": "related, not claimed: continuity of gamma at the origin, per m"},
)
def so2pe_lossless(ctx):
    """Reading A (one feature ``J_m(c r) e^{i k theta}`` injective): REFUTED, with a witness that is about the
    multiplication the footnote calls lossless (k = 1, m = 0 as in the experiments): every point of the circle
    r0 = j_{0,1}/c maps to 0 (mpmath, 50 digits). Separately (own part) with k = 2: p = (1/2, 0) and -p give
    ``J_0(c/2) e^{0} = J_0(c/2) e^{2 pi i}`` exactly; that one is a property of ``e^{2 i theta}``, not of the product. Reading B (``(s, u) -> s u``): REFUTED, (1, 1) and (-1, -1) both give 1. Reading C: the 32-dim
    encoding separates all grid pixels (cKDTree nearest-neighbour distance per (C, K), quick: 128^2 grid,
    C = 25; deep: 256^2, full grid): SUPPORTED with the smallest distance and the local inverse-Lipschitz ratio.
    Continuity at the origin (not claimed): ``|gamma(eps e1) - gamma(eps e2)|_inf`` stays O(1) for m = 0 and
    -> 0 for m >= 1 (numbers)."""
    out = []
    import mpmath
    with mpmath.workdps(50):
        j01 = mpmath.besseljzero(0, 1)
        diff50 = abs(mpmath.besselj(0, j01) * (mpmath.expj(0) - mpmath.expj(mpmath.pi / 2)))
    if diff50 < mpmath.mpf(10) ** -40:
        out.append(refuted("k = 1, m = 0, c = 5 (the experiment's m): on the circle r0 = j_{0,1}/5 = 0.481 the invariant "
                           "factor J_0(5 r0) vanishes, so p = (r0, 0) and q = (0, r0) both give 0: multiplying by the "
                           "real scalar erases the angle (mpmath, 50 digits)",
                           {"m": 0, "c": 5, "k": 1, "r0": mpmath.nstr(j01 / 5, 20), "p": "(r0, 0)", "q": "(0, r0)",
                            "|difference|_50digits": mpmath.nstr(diff50, 3)}, method="numeric", dtype="mpmath-50",
                           generality="exact up to 50 digits"))
    c = sp.Integer(5)
    f = lambda r, th: sp.besselj(0, c * r) * sp.exp(sp.I * 2 * th)  # noqa: E731
    d = sp.simplify(f(sp.Rational(1, 2), 0) - f(sp.Rational(1, 2), sp.pi))
    if d == 0:
        out.append(refuted("k = 2, c = 5: p = (1/2, 0) and -p = (1/2, pi) (polar) have the same feature "
                           "J_0(5/2) e^{2i theta} (exact: e^{2 pi i} = 1)",
                           {"m": 0, "c": 5, "k": 2, "p": [0.5, 0], "q": [-0.5, 0], "difference": str(d)},
                           method="symbolic", generality="exact"))
        out[-1].part = "k >= 2: e^{ik theta} itself is not injective"
    z = float(special.jn_zeros(0, 1)[0])
    out[0].numbers = {"zero_circle_radius_c5": z / 5, "feature_on_zero_circle": float(special.j0(z))}
    s_, u_ = sp.Integer(1), sp.Integer(1)
    if s_ * u_ == (-s_) * (-u_):
        out.append(refuted("B: (s, u) = (1, 1) and (-1, -1) have the same product 1", {"s,u": [1, 1], "s',u'": [-1, -1]},
                           reading="B", method="symbolic", generality="exact"))
    n = ctx.pick(quick=128, deep=256)
    P = grid(n)
    configs = ctx.pick(quick=[(25.0, 2), (25.0, 8)], deep=[(C, K) for C in (5.0, 25.0, 50.0) for K in (2, 4, 8)])
    mins, lips = {}, {}
    for C, K in configs:
        pe = SO2BesselPE.sample(C, K, 16, torch.Generator().manual_seed(ctx.subseed(f"inj{C}{K}")))
        E = pe(P).numpy()
        dist, _ = cKDTree(E).query(E, k=2)
        mins[f"C={C},K={K}"] = float(dist[:, 1].min())
        Eg = E.reshape(n, n, -1)
        h = 2 / (n - 1)
        lips[f"C={C},K={K}"] = float(min(np.linalg.norm(Eg[:, 1:] - Eg[:, :-1], axis=-1).min(),
                                         np.linalg.norm(Eg[1:] - Eg[:-1], axis=-1).min()) / h)
    m = min(mins.values())
    out.append(Evidence(Verdict.SUPPORTED if m > 1e-12 else Verdict.REFUTED,
                        f"C: {n}^2 grid, smallest nearest-neighbour distance in encoding space {m:.3g} over {list(mins)}",
                        reading="C", numbers={"nn_min": mins, "inverse_lipschitz_min": lips},
                        counterexample=None if m > 1e-12 else {"nn_min": mins}))
    cont = {}
    for mm in (0, 1, 2):
        pe = SO2BesselPE(torch.tensor([5.0]), torch.tensor([1.0]), m=mm)
        cont[f"m={mm}"] = {f"{e:.0e}": float((pe(torch.tensor([[e, 0.0]], dtype=torch.float64))
                                             - pe(torch.tensor([[0.0, e]], dtype=torch.float64))).abs().max())
                           for e in (1e-3, 1e-6, 1e-9)}
    out.append(Evidence.informal("continuity at the origin is not claimed; m = 0 is discontinuous there, m >= 1 continuous",
                                 reading="D", numbers=cont))
    return out


@verify.evidence_for("pegr.so2pe.equivariance")
def so2pe_fuzz(ctx):
    """Cartesian float64 check with ``check_equivariance``: ``gamma(R_phi p) = rho(phi) gamma(p)``, p in
    [-1, 1]^2 (a quarter of the batch within 1e-9 of the negative x axis, where atan2 jumps), phi uniform,
    (C, K) from the paper's grid, m in {0, 1, 2}."""
    def sample_input(generator, batch, dtype, device, C, K, m):
        p = torch.rand(batch, 2, generator=generator, dtype=torch.float64) * 2 - 1
        q = batch // 4
        p[:q, 0] = -p[:q, 0].abs() - 1e-3
        p[:q, 1] = (torch.rand(q, generator=generator, dtype=torch.float64) * 2 - 1) * 1e-9
        return p.to(dtype)

    def sample_group(generator, batch, dtype, device, **_):
        return (torch.rand(batch, generator=generator, dtype=torch.float64) * 2 * math.pi).to(dtype)
    pes = {}

    def get(C, K, m):
        key = (C, K, m)
        if key not in pes:
            pes[key] = SO2BesselPE.sample(C, K, 16, torch.Generator().manual_seed(int(C * 100 + K * 10 + m)), m=m)
        return pes[key]
    state = {}

    def f(p):
        return get(*state["cfg"])(p)

    def act_in(phi, p):
        return torch.einsum("bij,bj->bi", rot2(phi), p)

    def act_out(phi, y):
        return torch.einsum("bij,bj->bi", get(*state["cfg"]).rho(phi), y)

    def si(generator, batch, dtype, device, C, K, m):
        state["cfg"] = (C, K, m)
        return sample_input(generator, batch, dtype, device, C, K, m)
    ev = check_equivariance(f, act_in, act_out, si, sample_group,
                            params={"C": st.sampled_from([5.0, 25.0, 50.0]), "K": st.sampled_from([2, 4, 8]),
                                    "m": st.sampled_from([0, 1, 2])}, budget=ctx.pick(quick=10, deep=80), batch=256,
                            tol=1e-12, seed=ctx.subseed("so2fuzz"), scale=1.0)
    return relabel(ev, summary="float64 Cartesian check incl. the atan2 branch cut")


@verify.evidence_for("pegr.so2.orbit_decomposition")
def so2_orbit_fuzz(ctx):
    """``atan2(R_phi p) = atan2(p) + phi mod 2 pi`` (distance on the circle) for p != 0, incl. points near the
    branch cut; the radius is invariant (float64)."""
    def prop(generator, batch, dtype, device):
        p = torch.rand(batch, 2, generator=generator, dtype=torch.float64) * 2 - 1
        p[: batch // 4, 1] *= 1e-9
        p[: batch // 4, 0] = -p[: batch // 4, 0].abs() - 1e-3
        phi = torch.rand(batch, generator=generator, dtype=torch.float64) * 4 * math.pi - 2 * math.pi
        q = torch.einsum("bij,bj->bi", rot2(phi), p)
        d = torch.atan2(q[:, 1], q[:, 0]) - torch.atan2(p[:, 1], p[:, 0]) - phi
        ang = torch.atan2(torch.sin(d), torch.cos(d)).abs()
        rad = (q.norm(dim=1) - p.norm(dim=1)).abs() / p.norm(dim=1)
        return torch.maximum(ang, rad) / 1e-13
    ev = falsify(prop, {}, budget=ctx.pick(quick=5, deep=50), batch=1024, tol=1.0, seed=ctx.subseed("orbit"))
    return relabel(ev, part="equivariant coordinate", summary="float64: theta(R p) = theta(p) + phi mod 2 pi, |R p| = |p|")

"""``pegr.so2pe.*`` (numeric): is the proposed SO(2) encoding lossless (footnote 2, L99; "we set
m = 0", L79), and the Cartesian float64 check of ``pegr.so2pe.equivariance`` (proved in
``proofs/pegr/so2pe.py``)."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import sympy as sp
import torch
from hypothesis import strategies as st
from scipy import special
from scipy.spatial import cKDTree

import verify
from proofs.pegr.model import PAPER
from verify import Evidence, Verdict
from verify.numeric import check_equivariance

from .model.encodings import SO2BesselPE
from .model.groups import rot2
from .model.inr import grid


def grid_separation(
    n: int, configs: list[tuple[float, int]], ctx
) -> tuple[dict, dict, dict]:
    """For each (C, K): the smallest nearest-neighbour distance between the encodings of the
    ``n x n`` grid pixels (cKDTree), the local inverse-Lipschitz ratio over neighbours, and the
    closest pair of pixels (the points and their encodings)."""
    P = grid(n)
    mins, lips, pairs = {}, {}, {}
    for C, K in configs:
        seed = ctx.subseed(f"inj{C}{K}")
        pe = SO2BesselPE.sample(C, K, 16, torch.Generator().manual_seed(seed))
        E = pe(P).cpu().numpy()
        dist, idx = cKDTree(E).query(E, k=2)
        i = int(np.argmin(dist[:, 1]))
        j = int(idx[i, 1])
        mins[f"C={C},K={K}"] = float(dist[i, 1])
        pairs[f"C={C},K={K}"] = {"C": C, "K": K, "pe_seed": seed, "grid": f"linspace(-1,1,{n})^2",
                                 "p": P[i].tolist(), "q": P[j].tolist(),
                                 "gamma(p)": E[i].tolist(), "gamma(q)": E[j].tolist()}
        Eg = E.reshape(n, n, -1)
        h = 2 / (n - 1)
        lips[f"C={C},K={K}"] = float(min(np.linalg.norm(Eg[:, 1:] - Eg[:, :-1], axis=-1).min(),
                                         np.linalg.norm(Eg[1:] - Eg[:-1], axis=-1).min()) / h)
    return mins, lips, pairs


def separation_evidence(n: int, mins: dict[str, float], lips: dict[str, float],
                        pairs: dict[str, dict]) -> Evidence:
    """Reading C: the 16-feature encoding is injective on the ``n^2`` grid. ``mins[cfg]`` is the
    smallest distance between two pixels' encodings, ``pairs[cfg]`` that pair. SUPPORTED when
    every distance is above 1e-12 (float64 round-off of O(1) features: the pixels are
    separated); REFUTED when two distinct pixels have identical float64 encodings (distance 0)
    with that pair as counterexample; UNDECIDED in between (too close to call in float64)."""
    cfg = min(mins, key=mins.get)
    m = mins[cfg]
    kw = {"reading": "C", "numbers": {"nn_min": mins, "inverse_lipschitz_min": lips},
          "dtype": "float64"}
    head = f"C: {n}^2 grid, smallest nearest-neighbour distance in encoding space {m:.3g} over "
    if m > 1e-12:
        return Evidence(Verdict.SUPPORTED, head + f"{list(mins)}", **kw)
    if m == 0.0 and pairs.get(cfg, {}).get("p") != pairs.get(cfg, {}).get("q"):
        return Evidence(Verdict.REFUTED, head + f"{list(mins)}: pixels {pairs[cfg]['p']} and "
                        f"{pairs[cfg]['q']} have the same encoding ({cfg})",
                        counterexample=pairs[cfg], **kw)
    return Evidence(Verdict.UNDECIDED, head + f"{list(mins)}: closer than float64 can separate "
                    f"({cfg})", **kw)


@verify.claim(
    "pegr.so2pe.lossless_and_continuity", paper=PAPER,
    where="footnote 2 L99; L79 ('we set m = 0')",
    statement=r"\text{the invariant orbit embedding is a real scalar and the equivariant embedding "
              r"is a complex unit vector, so it is natural to losslessly multiply the two}",
    kind="property", expect="REFUTED",
    readings={"B": "the product map (s, u) -> s u, s real, |u| = 1, is injective",
              "C": "the full 16-feature encoding of D.2 is injective on the 256^2 experiment grid",
              "D": "related, not claimed: continuity of gamma at the origin, per m"},
)
def so2pe_lossless(ctx):
    """Reading A (one feature ``J_m(c r) e^{i k theta}`` is injective): REFUTED by a witness of the
    multiplication the footnote calls lossless, with k = 1 and m = 0 as in the experiments: every
    point of the circle r0 = j_{0,1}/c maps to 0 (mpmath, 50 digits). Separately (its own part),
    with k = 2: p = (1/2, 0) and -p give ``J_0(c/2) e^{0} = J_0(c/2) e^{2 pi i}`` exactly, a
    property of ``e^{2 i theta}``, not of the product. Reading B (``(s, u) -> s u``): REFUTED, (1,
    1) and (-1, -1) both give 1. Reading C: the 32-dim encoding separates all grid pixels (cKDTree
    nearest-neighbour distance per (C, K); quick: 128^2 grid, C = 25; deep: 256^2, the full (C, K)
    grid): SUPPORTED with the smallest distance and the local inverse-Lipschitz ratio. Continuity at
    the origin (not claimed): ``|gamma(eps e1) - gamma(eps e2)|_inf`` stays O(1) for m = 0 and tends
    to 0 for m >= 1 (numbers). No reading repairs A: the product map itself (B) is not injective,
    and the 16-feature encoding (C) is a different map from the one footnote 2 calls lossless."""
    out = []
    j01_float = float(special.jn_zeros(0, 1)[0])
    zero_circle = {"zero_circle_radius_c5": j01_float / 5,
                   "feature_on_zero_circle": float(special.j0(j01_float))}
    with mpmath.workdps(50):
        j01 = mpmath.besseljzero(0, 1)
        diff50 = abs(mpmath.besselj(0, j01) * (mpmath.expj(0) - mpmath.expj(mpmath.pi / 2)))
        collides = diff50 < mpmath.mpf(10) ** -40
        r0, diff_str = mpmath.nstr(j01 / 5, 20), mpmath.nstr(diff50, 3)
    if collides:
        out.append(Evidence(
            Verdict.REFUTED,
            "k = 1, m = 0, c = 5 (the experiment's m): on the circle r0 = j_{0,1}/5 = 0.481 the "
            "invariant factor J_0(5 r0) vanishes, so p = (r0, 0) and q = (0, r0) both give 0: "
            "multiplying by the real scalar erases the angle (mpmath, 50 digits)",
            counterexample={"m": 0, "c": 5, "k": 1, "r0": r0, "p": "(r0, 0)", "q": "(0, r0)",
                            "|difference|_50digits": diff_str},
            dtype="mpmath-50", generality="exact up to 50 digits", numbers=zero_circle))
    else:
        out.append(Evidence.undecided(f"J_0 at its first zero is not 0 to 50 digits ({diff_str})",
                                      method="numeric", numbers=zero_circle))
    c = sp.Integer(5)

    def feature(r, th):
        return sp.besselj(0, c * r) * sp.exp(sp.I * 2 * th)

    d = sp.simplify(feature(sp.Rational(1, 2), 0) - feature(sp.Rational(1, 2), sp.pi))
    part2 = "k >= 2: e^{ik theta} itself is not injective"
    if d == 0:
        out.append(Evidence(
            Verdict.REFUTED, "k = 2, c = 5: p = (1/2, 0) and -p = (1/2, pi) (polar) have the same "
            "feature J_0(5/2) e^{2i theta} (exact: e^{2 pi i} = 1)", method="symbolic", part=part2,
            counterexample={"m": 0, "c": 5, "k": 2, "p": [0.5, 0], "q": [-0.5, 0],
                            "difference": str(d)}, generality="exact"))
    else:
        out.append(Evidence.undecided(f"k = 2: p and -p differ by {d}", method="symbolic",
                                      part=part2))
    s, u = sp.Integer(1), sp.Integer(1)
    if s * u == (-s) * (-u):
        out.append(Evidence(Verdict.REFUTED,
                            "B: (s, u) = (1, 1) and (-1, -1) have the same product 1",
                            method="symbolic", reading="B", generality="exact",
                            counterexample={"s,u": [1, 1], "s',u'": [-1, -1]}))
    else:
        out.append(Evidence.undecided("B: (1, 1) and (-1, -1) give different products",
                                      method="symbolic", reading="B"))
    n = ctx.pick(quick=128, deep=256)
    configs = ctx.pick(quick=[(25.0, 2), (25.0, 8)],
                       deep=[(C, K) for C in (5.0, 25.0, 50.0) for K in (2, 4, 8)])
    mins, lips, pairs = grid_separation(n, configs, ctx)
    out.append(separation_evidence(n, mins, lips, pairs))
    continuity = {}
    for mm in (0, 1, 2):
        pe = SO2BesselPE(torch.tensor([5.0]), torch.tensor([1.0]), m=mm)
        continuity[f"m={mm}"] = {
            f"{e:.0e}": float((pe(torch.tensor([[e, 0.0]], dtype=torch.float64))
                               - pe(torch.tensor([[0.0, e]], dtype=torch.float64))).abs().max())
            for e in (1e-3, 1e-6, 1e-9)}
    out.append(Evidence.informal("continuity at the origin is not claimed; m = 0 is discontinuous "
                                 "there, m >= 1 continuous", reading="D", numbers=continuity))
    return out


@verify.evidence_for("pegr.so2pe.equivariance")
def so2pe_fuzz(ctx):
    """Cartesian float64 check with ``check_equivariance``: ``gamma(R_phi p) = rho(phi) gamma(p)``
    for p in [-1, 1]^2 (a quarter of the batch within 1e-9 of the negative x axis, where atan2
    jumps), phi uniform, (C, K) from the paper's grid (D.2 L333), m in {0, 1, 2}."""
    encodings: dict[tuple, SO2BesselPE] = {}
    state = {}

    def encoding(C, K, m):
        if (C, K, m) not in encodings:
            seed = int(C * 100 + K * 10 + m)
            encodings[(C, K, m)] = SO2BesselPE.sample(C, K, 16, torch.Generator().manual_seed(seed),
                                                      m=m)
        return encodings[(C, K, m)]

    def sample_input(generator, batch, dtype, device, C, K, m):
        state["cfg"] = (C, K, m)
        p = torch.rand(batch, 2, generator=generator, dtype=torch.float64,
            device=generator.device) * 2 - 1
        q = batch // 4
        p[:q, 0] = -p[:q, 0].abs() - 1e-3
        p[:q, 1] = (torch.rand(q, generator=generator, dtype=torch.float64,
            device=generator.device) * 2 - 1) * 1e-9
        return p.to(dtype)

    def sample_group(generator, batch, dtype, device, **_):
        return (torch.rand(batch, generator=generator, dtype=torch.float64,
            device=generator.device) * 2 * math.pi).to(dtype)

    def f(p):
        return encoding(*state["cfg"])(p)

    def act_in(phi, p):
        return torch.einsum("bij,bj->bi", rot2(phi), p)

    def act_out(phi, y):
        return torch.einsum("bij,bj->bi", encoding(*state["cfg"]).rho(phi), y)

    ev = check_equivariance(
        f, act_in, act_out, sample_input, sample_group,
        params={"C": st.sampled_from([5.0, 25.0, 50.0]), "K": st.sampled_from([2, 4, 8]),
                "m": st.sampled_from([0, 1, 2])},
        budget=ctx.pick(quick=10, deep=80), batch=256, tol=1e-12, seed=ctx.subseed("so2fuzz"),
        scale=1.0)
    return ev.relabel(prefix="float64 Cartesian check incl. the atan2 branch cut")

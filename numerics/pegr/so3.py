"""``pegr.so3.*``: spherical harmonics and Wigner D matrices, Table 1 row "Molecule / SO(3)"
(L33; A.2 L162; footnote 2, L99)."""

from __future__ import annotations

import math

import numpy as np
import torch
from hypothesis import strategies as st
from scipy import special

import verify
from proofs.pegr.model import PAPER
from verify import Evidence, Verdict
from verify.numeric import falsify

from .model.encodings import real_sh, sphere_points, wigner_real
from .model.groups import haar_rotations, haar_so3


def complex_sh(ell: int, P: np.ndarray) -> np.ndarray:
    """Complex spherical harmonics ``Y_ell^m(p)``, columns m = -ell..ell (scipy's convention)."""
    th = np.arccos(np.clip(P[:, 2], -1, 1))
    ph = np.arctan2(P[:, 1], P[:, 0])
    return np.stack([special.sph_harm_y(ell, m, th, ph) for m in range(-ell, ell + 1)], 1)


def complex_basis_variants(ell: int, Rm: np.ndarray, fit: np.ndarray) -> dict[str, float]:
    """Residuals of the convention variants of ``D_{m0} = sqrt(4 pi/(2l+1)) Y(R e_z)`` in the
    complex basis (D vs conj D, Y vs conj Y, R vs R^-1, column m0 vs row 0m), with ``D`` defined
    by ``Y(R p) = D(R) Y(p)`` (least squares on ``fit``)."""
    Dt, *_ = np.linalg.lstsq(complex_sh(ell, fit), complex_sh(ell, fit @ Rm.T), rcond=None)
    D = Dt.T
    Dinv = np.linalg.inv(D)
    ez = np.array([[0.0, 0.0, 1.0]])
    c = math.sqrt(4 * math.pi / (2 * ell + 1))
    Y_Rez = complex_sh(ell, ez @ Rm.T)[0]
    Y_Rinv_ez = complex_sh(ell, ez @ Rm)[0]
    return {
        "D[:,0] = c Y(R e_z)": float(np.abs(D[:, ell] - c * Y_Rez).max()),
        "D[:,0] = c conj Y(R e_z)": float(np.abs(D[:, ell] - c * np.conj(Y_Rez)).max()),
        "D[0,:] = c Y(R e_z)": float(np.abs(D[ell, :] - c * Y_Rez).max()),
        "D[0,:] = c conj Y(R^-1 e_z)": float(np.abs(D[ell, :] - c * np.conj(Y_Rinv_ez)).max()),
        "Dinv[0,:] = c conj Y(R e_z)": float(np.abs(Dinv[ell, :] - c * np.conj(Y_Rez)).max()),
    }


@verify.claim(
    "pegr.so3.sh_wigner", paper=PAPER,
    where="Table 1 row 'Molecule / SO(3)' (L33); A.2 L162; footnote 2 L99",
    statement=r"Y_\ell(Rp)=D^\ell(R)Y_\ell(p),\ D^\ell\text{ orthogonal rep.};\quad "
              r"D^\ell_{m0}(R)=\sqrt{4\pi/(2\ell+1)}\,Y_\ell^m(Re_z)",
    kind="property", expect="SUPPORTED",
    readings={"B": "complex basis: the convention variants of (ii) (D vs conj D, Y vs conj Y, R "
                   "vs R^-1, column vs row)"},
)
def so3_sh_wigner(ctx):
    """Real spherical harmonics from ``scipy.special.sph_harm_y``; ``D^l(R)`` by least squares
    on 8(2l+1) points; fuzzed with ``falsify`` over l in 0..4 and Haar rotations: equivariance
    on fresh points, homomorphism, orthogonality, and (ii) of L162 in the real basis (reading
    A). Reading B: the complex-basis variants of (ii) are evaluated (l = 2) and those that hold
    are named (numbers)."""
    def prop(generator, batch, dtype, device, ell):
        rng = np.random.default_rng(int(torch.randint(0, 2**31, (1,), generator=generator,
            device=generator.device)))
        fit = sphere_points(8 * (2 * ell + 1), rng)
        fresh = sphere_points(20, rng)
        Rs = haar_so3(2 * batch, generator).cpu().numpy()
        ez = np.array([[0.0, 0.0, 1.0]])
        c = math.sqrt(4 * math.pi / (2 * ell + 1))
        v = []
        for b in range(batch):
            R1, R2 = Rs[2 * b], Rs[2 * b + 1]
            D1, D2, D12 = (wigner_real(ell, M, fit) for M in (R1, R2, R1 @ R2))
            eq = np.abs(real_sh(ell, fresh @ R1.T) - real_sh(ell, fresh) @ D1.T).max()
            hom = np.abs(D12 - D1 @ D2).max()
            orth = np.abs(D1.T @ D1 - np.eye(2 * ell + 1)).max()
            col = np.abs(D1[:, ell] - c * real_sh(ell, ez @ R1.T)[0]).max()
            v.append(max(eq, hom, orth, col) / 1e-12)
        return torch.tensor(v, dtype=torch.float64)

    real = falsify(prop, {"ell": st.integers(0, 4)}, budget=ctx.pick(quick=6, deep=40), batch=4,
                   tol=1.0, seed=ctx.subseed("sh_wigner")).relabel(
        prefix="(i) equivariance, homomorphism, orthogonality, (ii) real basis (violation in "
               "units of 1e-12)")
    fit = sphere_points(40, np.random.default_rng(ctx.subseed("complexD")))
    variants = complex_basis_variants(2, haar_rotations(ctx.subseed("Rc"), 1)[0], fit)
    return [real, complex_variants_evidence(variants)]


def complex_variants_evidence(variants: dict[str, float]) -> Evidence:
    """Reading B of (ii), L162, in the complex basis: ``variants`` maps each convention (D or
    conj D, Y or conj Y, R or R^-1, column m0 or row 0m) to its float64 residual. SUPPORTED
    when some convention holds (residual < 1e-10), naming those that do; UNDECIDED when none
    does -- the conventions are the reader's choice, and a residual for each listed one does
    not exclude another convention, so it refutes nothing."""
    holds = [k for k, v in variants.items() if v < 1e-10]
    return Evidence(
        Verdict.SUPPORTED if holds else Verdict.UNDECIDED,
        f"complex basis (l = 2, D defined by Y(Rp) = D(R) Y(p)): variants that hold: {holds}"
        + ("" if holds else f" (none; residuals {variants})"),
        reading="B", numbers=variants)

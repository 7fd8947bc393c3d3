"""``pegr.rep.*`` (numeric): the homomorphism / irreducibility oracle of the definitions at L23
and the equivariance metrics of L43.

``pegr.rep.complete_reducibility`` is symbolic: ``proofs/pegr/rep.py``.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import torch

import verify
from proofs.pegr.model import COUNTEREXAMPLE_ERROR, PAPER
from verify import Evidence, Verdict
from verify.numeric import judge_error

from .model.encodings import sphere_points, wigner_real
from .model.groups import commutant_dim, haar_rotations, perm_matrix, rep_defect, rot2
from .model.inr import radial_vf, spiral_vf


@verify.claim(
    "pegr.rep.homomorphism_oracle", paper=PAPER,
    where="definition of representation and irrep, L23 (used L57, L178, L195-206)",
    statement=r"\rho(gh)=\rho(g)\rho(h);\ \rho\text{ irreducible iff no proper nontrivial }"
              r"W\subset\mathbb R^n\text{ with }\rho(g)W\subseteq W",
    kind="property", expect="SUPPORTED",
    readings={"B": "invariant subspaces W of V (complex V: irreducibility over C)"},
)
def homomorphism_oracle(ctx):
    """The oracle (``groups.rep_defect``, ``groups.commutant_dim``) on known answers: the
    homomorphism defects of SO(2) ``R(3 theta)``, SO(3), Wigner D^2 and the S_4 permutation
    matrices are at rounding level; the SO(3) defining representation is irreducible over R
    (symmetric commutant dim 1), ``SO(3) (+) SO(3)`` is reducible (dim 3), the trivial
    representation on R^4 has dim 10 = D(D+1)/2. Reading B (over C): ``R(theta)`` is
    irreducible over R (dim 1) but reducible over C (complex commutant dim 2), so the two
    readings of the ambient space at L23 differ. Every piece tests the oracle on a case whose
    answer is known, so a failure is a fault of the oracle, not of the definition (L23): it is
    UNDECIDED, never REFUTED (the homomorphism pieces keep no counterexample)."""
    rng = np.random.default_rng(ctx.subseed("oracle"))
    angs = list(rng.uniform(-1e3, 1e3, 6))
    d2 = rep_defect(lambda a: rot2(torch.tensor(3 * a)).numpy(), angs, lambda p, q: p + q, 0.0)
    Rs = list(haar_rotations(ctx.subseed("so3"), 5))
    idx = list(range(5))
    d3 = max(float(np.linalg.norm(Rs[i] @ Rs[j] - Rs[i] @ Rs[j])) for i in idx for j in idx)
    pts = sphere_points(40, rng)
    D2 = [wigner_real(2, Rm, pts) for Rm in Rs]
    dD = max(float(np.linalg.norm(wigner_real(2, Rs[i] @ Rs[j], pts) - D2[i] @ D2[j]))
             for i in idx for j in idx)
    perms = list(itertools.permutations(range(4)))
    dp = rep_defect(perm_matrix, perms, lambda p, q: tuple(p[q[i]] for i in range(4)),
                    tuple(range(4)))
    so3_dim = commutant_dim(Rs[:4])
    sum_dim = commutant_dim([np.kron(np.eye(2), Rm) for Rm in Rs[:4]])
    trivial_dim = commutant_dim([np.eye(4)] * 3)
    Rt = [rot2(torch.tensor(float(a))).numpy() for a in angs[:4]]
    real_dim, complex_dim = commutant_dim(Rt), commutant_dim(Rt, "complex")
    return [
        judge_error(max(d2.values()), r"SO(2) $R(3\theta)$: homomorphism, identity, "
                    "orthogonality",
                    tol=1e-12 * 1e3 * 3, fail=COUNTEREXAMPLE_ERROR, part="homomorphism"),
        judge_error(max(d3, dD) / 5, "SO(3) defining and Wigner D^2: rho(gh) - rho(g)rho(h)",
                    tol=1e-12 * 25, fail=COUNTEREXAMPLE_ERROR, part="homomorphism"),
        judge_error(max(dp.values()), "S_4 permutation matrices (exact integers)", tol=0.0,
                    fail=COUNTEREXAMPLE_ERROR, part="homomorphism"),
        oracle_evidence(so3_dim, sum_dim, trivial_dim),
        real_complex_evidence(real_dim, complex_dim),
    ]


def oracle_evidence(so3_dim: int, sum_dim: int, trivial_dim: int) -> Evidence:
    """Self-test of the irreducibility oracle (symmetric commutant dimension) on known answers:
    SO(3) defining 1, SO(3) (+) SO(3) 3, trivial on R^4 10 = D(D+1)/2. SUPPORTED when all
    match; UNDECIDED otherwise -- a wrong answer on a known case is a fault of the oracle, not
    of the paper's definition, so it cannot refute."""
    ok = (so3_dim, sum_dim, trivial_dim) == (1, 3, 10)
    return Evidence(Verdict.SUPPORTED if ok else Verdict.UNDECIDED,
                    f"irreducibility oracle self-tests: SO(3) defining dim {so3_dim} (expect 1), "
                    f"SO(3)(+)SO(3) dim {sum_dim} (expect 3), trivial on R^4 dim {trivial_dim} "
                    f"(expect 10){'' if ok else ': ORACLE FAILS a known case'}",
                    part="irreducibility oracle",
                    numbers={"so3": so3_dim, "so3+so3": sum_dim, "trivial4": trivial_dim})


def real_complex_evidence(real_dim: int, complex_dim: int) -> Evidence:
    """Reading B (over C) against A (over R) on ``R(theta)``: irreducible over R (symmetric
    commutant dim 1) but reducible over C (complex commutant dim 2), as Schur's lemma for SO(2)
    requires. SUPPORTED when the oracle finds (1, 2); UNDECIDED otherwise (a known fact
    missed is an oracle fault)."""
    ok = (real_dim, complex_dim) == (1, 2)
    return Evidence(Verdict.SUPPORTED if ok else Verdict.UNDECIDED,
                    f"R(theta): symmetric commutant dim {real_dim} (expect 1: irreducible over R), "
                    f"complex commutant dim {complex_dim} (expect 2: reducible over C)"
                    + (": reading B differs from A for complex V" if ok else
                       ": the oracle does not reproduce the known dimensions"),
                    reading="B", part="irreducibility oracle",
                    numbers={"real": real_dim, "complex": complex_dim})


@verify.claim(
    "pegr.rep.equivariance_def", paper=PAPER,
    where="L43 (exact and approximate equivariance); L176",
    statement=r"f(gx)=gf(x)\ \forall g,x;\quad f(gx)\approx gf(x)\ \text{(approximately "
              r"equivariant)}",
    kind="informal", expect="UNDECIDED",
)
def equivariance_def(ctx):
    """A definition, with no truth value: the paper gives '≈' (L43) no metric. The relative sup
    and L2 errors (``eps_inf``, ``eps_2``) that ``pegr.data.spiral_approx``,
    ``pegr.ntk.predictor_equivariance`` and ``pegr.exp.fig2_bias_at_init`` use are computed here
    on the Radial VF (exactly equivariant: 0) and the Spiral VF (closed form ``eps_2 =
    2|sin(phi/2)|``) on a polar grid, as a self-test reported in the numbers."""
    th = torch.linspace(0, 2 * math.pi, 257, dtype=torch.float64)[:-1]
    rr = torch.linspace(0.05, 1, 40, dtype=torch.float64)
    Rg, Tg = torch.meshgrid(rr, th, indexing="ij")
    P = torch.stack([Rg * torch.cos(Tg), Rg * torch.sin(Tg)], -1).reshape(-1, 2)
    nums = {}
    for name, f in (("radial_vf", radial_vf), ("spiral_vf", spiral_vf)):
        for phi in (0.1, math.pi / 4, math.pi / 2, math.pi):
            Rm = rot2(torch.tensor(phi, dtype=torch.float64))
            res = f(P @ Rm.T) - f(P) @ Rm.T
            e2 = float((res.pow(2).sum(1).mean() / f(P).pow(2).sum(1).mean()).sqrt())
            einf = float(res.norm(dim=1).max() / f(P).norm(dim=1).max())
            nums[f"{name}@{phi:.3f}"] = {"eps_2": e2, "eps_inf": einf}
    sp_pi, rad_pi = nums["spiral_vf@3.142"]["eps_2"], nums["radial_vf@3.142"]["eps_2"]
    ok = abs(sp_pi - 2) <= 1e-2 and rad_pi <= 1e-12
    return Evidence.informal(
        "not a checkable statement: a definition has no truth value, and the paper gives '≈' "
        "(L43) no metric; the verifier's metrics eps_inf / eps_2 "
        + ("pass their self-test" if ok else "FAIL their self-test")
        + f": spiral VF eps_2(pi) = {sp_pi:.3f} (closed form 2), radial VF eps_2(pi) = "
        f"{rad_pi:.1e} (exactly equivariant: 0)", numbers=nums)

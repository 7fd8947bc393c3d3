"""``pegr.framework.*``: are the Table 1 encodings irreducible representations? (abstract L7;
L13; L47; §2.2 title L45; A.2 L162; conclusion L118)

Each encoding's transformation matrices at 3-4 random group elements go through the commutant
test of ``pegr.rep.homomorphism_oracle`` (:func:`~.model.groups.commutant_dim`): for an orthogonal
representation the symmetric commutant is 1-dimensional iff it is irreducible over R.
"""

from __future__ import annotations

import numpy as np
import torch

import verify
from proofs.pegr.model import PAPER
from verify import Evidence
from verify.numeric import judge_check

from .model import graphs as gr
from .model.encodings import (
    FourierFeaturePE,
    RoPE,
    SinusoidalPE,
    SO2BesselPE,
    sphere_points,
    vaswani_freqs,
    wigner_real,
)
from .model.groups import commutant_dim, haar_rotations, kron_I, perm_matrix, rot2

#: One block of the PE of every Table 1 row (reading C of pegr.framework.irreducibility): text
#: (sinusoid, RoPE under both frequency formulas), image (T x T), molecule (one SH degree),
#: permutation (the one-hot's standard block), graph (one Laplacian eigenspace) and the SO(2)
#: PE of Sec. 3 (one feature).
BUILDING_BLOCKS = ["sinusoid T, 1 freq (form A)", "RoPE d=2 (printed freqs)",
                   "RoPE d=2 (RoFormer freqs)", "T x T, 1 freq", "SH l = 2 (Wigner D^2)",
                   "one-hot S_5, standard block", "Laplacian C_7, one 2-dim eigenspace (D_7)",
                   "SO(2) PE, 1 feature"]


def transformation_matrices(ctx) -> dict[str, list[np.ndarray]]:
    """For every Table 1 encoding (and two controls), the matrices under which it transforms at
    a few random group elements."""
    rng = np.random.default_rng(ctx.subseed("irr"))
    angs = rng.uniform(-3, 3, 4)
    Rs = list(haar_rotations(ctx.subseed("irr3"), 4))
    cases: dict[str, list[np.ndarray]] = {
        "control R(theta)": [rot2(torch.tensor(a)).numpy() for a in angs],
        "control SO(3) defining": Rs,
        "vec PE SO(3): pi = I (x) g (column-major)":
            [kron_I(torch.tensor(R_), "I(x)A").numpy() for R_ in Rs],
        "vec PE SO(3): pi = g (x) I (row-major)":
            [kron_I(torch.tensor(R_), "A(x)I").numpy() for R_ in Rs],
    }
    for d in (2, 8):
        for sign in (1.0, -1.0):
            rp = RoPE(d, sign)
            name = f"RoPE d={d} ({'printed' if sign > 0 else 'RoFormer'} freqs)"
            cases[name] = [rp.R(torch.tensor(float(m))).numpy() for m in (1, 2, 5, 11)]
    for F in (1, 3):
        pe = SinusoidalPE(vaswani_freqs(F, 8) if F > 1 else torch.tensor([1.0]))
        cases[f"sinusoid T, {F} freq (form A)"] = [pe.rho(torch.tensor(a)).numpy() for a in angs]
        cases[f"sinusoid T, {F} freq (form B, I (x) rho)"] = (
            [kron_I(pe.rho(torch.tensor(a)), "I(x)A").numpy() for a in angs] if F == 1
            else [np.kron(np.eye(2), pe.rho(torch.tensor(a)).numpy()) for a in angs])
    nf = ctx.pick(quick=4, deep=16)  # quick: 4 of the 16 frequencies (a 32-dim commutant ~30 s)
    ff = FourierFeaturePE.sample(5.0, nf, torch.Generator().manual_seed(ctx.subseed("ff")))
    cases[f"T x T, {nf} freqs"] = [ff.rho(torch.tensor(rng.uniform(-1, 1, 2))).numpy()
                                   for _ in range(4)]
    one = FourierFeaturePE.sample(5.0, 1, torch.Generator().manual_seed(ctx.subseed("ff1")))
    cases["T x T, 1 freq"] = [one.rho(torch.tensor(rng.uniform(-1, 1, 2))).numpy()
                              for _ in range(4)]
    pts = sphere_points(60, rng)
    cases["SH l = 2 (Wigner D^2)"] = [wigner_real(2, R_, pts) for R_ in Rs]
    cases["SH l <= 2 concatenated"] = [
        np.block([[wigner_real(0, R_, pts), np.zeros((1, 3)), np.zeros((1, 5))],
                  [np.zeros((3, 1)), wigner_real(1, R_, pts), np.zeros((3, 5))],
                  [np.zeros((5, 1)), np.zeros((5, 3)), wigner_real(2, R_, pts)]]) for R_ in Rs]
    cases["one-hot S_5"] = [perm_matrix(rng.permutation(5)).astype(float) for _ in range(4)]
    standard = np.linalg.svd(np.eye(5) - 1 / 5)[0][:, :4]  # orthonormal basis of 1-perp
    cases["one-hot S_5, standard block"] = [standard.T @ P @ standard
                                            for P in cases["one-hot S_5"]]
    es = gr.eigenspaces(gr.laplacian(gr.cycle(7)))
    D7 = gr.dihedral(7)
    cases["Laplacian C_7, one 2-dim eigenspace (D_7)"] = [gr.rho_cols(s, es[1][1])
                                                          for s in D7[1:4] + D7[8:9]]
    both = np.concatenate([es[1][1], es[2][1]], 0)
    cases["Laplacian C_7, two eigenspaces"] = [gr.rho_cols(s, both) for s in D7[1:4] + D7[8:9]]
    feature = SO2BesselPE.sample(25.0, 2, 1, torch.Generator().manual_seed(ctx.subseed("so2f")))
    cases["SO(2) PE, 1 feature"] = [feature.rho(torch.tensor(a)).numpy() for a in angs]
    for K in (2, 4, 8):
        gen = torch.Generator().manual_seed(ctx.subseed(f"so2K{K}"))
        so2 = SO2BesselPE.sample(25.0, K, nf, gen)
        cases[f"SO(2) PE K={K}, {nf} features"] = [so2.rho(torch.tensor(a)).numpy() for a in angs]
    return cases


def irreducibility_table(ctx) -> dict[str, dict]:
    """Dimension, symmetric and complex commutant dimensions of every case of
    :func:`transformation_matrices`, and whether it is irreducible over R."""
    out = {}
    for name, mats in transformation_matrices(ctx).items():
        sym = commutant_dim(mats)
        out[name] = {"dim": int(mats[0].shape[0]), "sym_commutant": sym,
                     "complex_commutant": commutant_dim(mats, "complex"),
                     "irreducible_over_R": sym == 1}
    return out


@verify.claim(
    "pegr.framework.irreducibility", paper=PAPER,
    where="abstract L7; L13; L47; §2.2 title L45; A.2 L162; conclusion L118",
    statement=r"\text{the PEs of Table 1 are (or transform under) irreducible representations: }"
              r"\gamma(gx)=\pi(g)\gamma(x),\ \pi\text{ irreducible}",
    kind="property", expect="SUPPORTED",
    readings={"B": "hedged (L47, L162): each PE is vec(rho) or equivariant into the space of "
                   "some rep rho, 'often' irreducible",
              "C": "restricted to one block of the PE of every Table 1 row (one sinusoid "
                   "frequency, RoPE $d = 2$, one $\\mathbb{T}\\times\\mathbb{T}$ frequency, one "
                   "spherical-harmonic degree, the one-hot's standard block, one Laplacian "
                   "eigenspace, one SO(2) feature; the equivariant-vector form of Table 1): "
                   "that block transforms under an irreducible representation over "
                   "$\\mathbb{R}$"},
    headline=("C", "the paper hedges the strong reading itself: PEs are vec(rho) 'for some "
              "(often irreducible)' rho (L47, L162), it 'focuses on PEs as irreps for ease of "
              "exposition' (L47), Table 1 writes each PE as a family {rho_lambda}_lambda of "
              "irreps, and L118 calls irreps 'a particularly useful building block': the claim "
              "is that each PE is built from irreducible blocks, not that the whole PE is one"),
)
def framework_irreducibility(ctx):
    """Symmetric (real) and complex commutant dimensions of the transformation matrices of each
    Table 1 PE. Reading A (as printed: §2.2 title "Positional Encodings as Irreps", L45; L118
    "several popular positional encodings as irreducible group representations"; every Table 1
    PE transforms under an irreducible pi): REFUTED when some PE is reducible, with the exact
    witness of the SO(2) vec PE, ``I_2 (x) R(theta) = R (+) R`` (the projector diag(1,1,0,0)
    commutes); sinusoids with 3 frequencies, T x T, RoPE d = 8 and the SO(3) vec PE are
    reducible too, and no 2-dim SO(2)/T block is irreducible over C. Reading B ('often', L47 and
    L162): not checkable as a frequency claim; the table is reported (UNDECIDED). Reading C (one
    block of each popular PE; Table 1 writes each PE as a family ``{.}_alpha`` /
    ``{rho_lambda}_lambda`` of irreps): SUPPORTED when one block of every Table 1 row is
    irreducible over R: the one-frequency sinusoid, RoPE d = 2, one T x T frequency, one SH
    degree, the standard block of the one-hot's permutation representation, one 2-dim
    Laplacian eigenspace of C_7 under D_7 and one SO(2)-PE feature. Reading C heads: the
    paper's own hedges (L47, L162) and Table 1's families of irreps exclude reading A, kept
    beside it REFUTED."""
    tab = irreducibility_table(ctx)
    irreducible = [k for k, v in tab.items() if v["irreducible_over_R"]]
    reducible = [k for k, v in tab.items()
                 if not v["irreducible_over_R"] and not k.startswith("control")]
    a = 0.7
    pi = kron_I(rot2(torch.tensor(a, dtype=torch.float64)), "I(x)A")
    projector = torch.diag(torch.tensor([1.0, 1.0, 0.0, 0.0], dtype=torch.float64))
    commutator = float((projector @ pi - pi @ projector).abs().max())
    witness = None
    if commutator == 0.0:
        witness = {"PE": "gamma(x) = vec(R(x)) (SO(2) / T, one frequency)",
                   "pi(theta)": "I_2 (x) R(theta)", "invariant subspace": "span(e1, e2)",
                   "theta": a, "commutator_max": commutator}
    printed = judge_check(
        not reducible,
        f"reducible Table 1 PEs: {reducible}; smallest: vec PE of SO(2) (Table 1 text row, "
        "vec form), pi = I_2 (x) R(theta) = R (+) R, projector diag(1,1,0,0) commutes exactly"
        if reducible else "every Table 1 PE tested is irreducible over R",
        counterexample=witness, numbers={"table": tab})
    hedged = Evidence.informal(f"reading B is hedged ('often irreducible'); irreducible over R: "
                               f"{irreducible}", reading="B", numbers={"table": tab})
    reducible_blocks = {k: tab[k] for k in BUILDING_BLOCKS if not tab[k]["irreducible_over_R"]}
    blocks = judge_check(
        not reducible_blocks,
        f"C: one block of the PE of every Table 1 row ({len(BUILDING_BLOCKS)} blocks) is "
        r"irreducible over $\mathbb{R}$ (symmetric commutant of dimension 1): "
        + ", ".join(f"{k}: {tab[k]['sym_commutant']}" for k in BUILDING_BLOCKS),
        counterexample=reducible_blocks or None, dtype="float64", reading="C",
        numbers={"blocks": {k: tab[k] for k in BUILDING_BLOCKS}})
    return [printed, hedged, blocks]

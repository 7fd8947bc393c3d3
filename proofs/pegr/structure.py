"""§3.2 "Useful Structure in Group Representations": the Peter-Weyl remark of L69
(``pegr.peter_weyl``, a two-segment id of this section).

The degree of spherical harmonics (L71) is ``pegr.sh.degree`` (:mod:`.sh`); the Monte-Carlo
Haar check on SO(3) is in ``numerics/pegr/structure.py``.
"""

from __future__ import annotations

import sympy as sp

import verify
from verify.symbolic import prove_cases, refute_exactly

from .model import PAPER, R

#: Why the scaled reading is proved on instances only.
NOT_GENERAL = ("the Peter-Weyl theorem for a general compact group (Haar integrals of matrix "
               "coefficients) is not formalised in SymPy")
#: Which of the paper's groups are compact (Peter-Weyl assumes it; L71 uses T).
COMPACT = {"T=Z": False, "T=R": False, "TxT": False, "SO(2)": True, "SO(3)": True, "S_n": True}


def s3_irreps() -> tuple[list[tuple[int, int]], list[sp.Matrix]]:
    """S_3 as the dihedral group of the triangle: its elements ``(k, f)`` (rotation by
    ``2 pi k / 3``, then a reflection when ``f = 1``) and the standard irrep in an orthonormal
    basis; the trivial and sign irreps are 1 and ``(-1)^f``."""
    rot = R(2 * sp.pi / 3).applyfunc(sp.nsimplify)
    reflection = sp.diag(1, -1)
    elems = [(k, f) for f in (0, 1) for k in range(3)]
    standard = [rot**k * (reflection if f else sp.eye(2)) for k, f in elems]
    return elems, standard


@verify.claim(
    "pegr.peter_weyl", paper=PAPER, where="L69",
    statement=r"\text{the matrix entries of irreducible representations form an orthonormal "
              r"basis for }L^2(G)",
    kind="identity", expect="SUPPORTED",
    readings={"B": r"the scaled entries $\sqrt{d_\lambda}\,\rho_{ij}$ form an orthonormal basis "
                   "(Peter-Weyl, compact G)"},
    repairs={"B": ("erratum", r"the entries need the factor $\sqrt{d_\lambda}$ to be "
                              "orthonormal")},
)
def peter_weyl(ctx):
    """Exact Schur orthogonality on S_3 (trivial, sign, standard in an orthonormal basis) with
    the normalised counting measure: the Gram matrix of the 6 unscaled entry functions is
    ``diag(1, 1, 1/2, 1/2, 1/2, 1/2)``, not I (reading A, as printed at L69, REFUTED: the
    standard irrep's entries have norm^2 1/d = 1/2, whatever the normalisation of the measure);
    with the ``sqrt(d_lambda)`` scaling it is I (reading B PROVED), and ``1 + 1 + 2^2 = |S_3|``
    (completeness count). SO(2) characters are orthonormal (exact integrals, |k|, |l| <= 2).
    Scope: T = Z, R and T x T are not compact (L71 uses them; ``numbers``). Monte-Carlo Haar
    check on SO(3): ``numerics/pegr/structure.py``. Reading B, the
    sqrt(d_lambda) scaling, is the corrected formula."""
    elems, standard = s3_irreps()
    sign = [sp.Integer(-1) ** f for _, f in elems]
    funcs = [[sp.Integer(1)] * 6, sign] + [[M[i, j] for M in standard]
                                           for i in range(2) for j in range(2)]
    dims = [1, 1, 2, 2, 2, 2]
    gram = sp.Matrix(6, 6, lambda p, q: sp.nsimplify(
        sum(fp * fq for fp, fq in zip(funcs[p], funcs[q], strict=True)) / 6))
    scaled = sp.Matrix(6, 6, lambda p, q: sp.sqrt(dims[p] * dims[q]) * gram[p, q])
    unscaled = refute_exactly(
        r"$S_3$: the Gram matrix of the unscaled irrep entries is "
        r"$\mathrm{diag}(1,1,\tfrac12,\tfrac12,\tfrac12,\tfrac12) \ne I$ (the standard irrep's "
        r"entries have squared norm 1/2)",
        {"group": "S_3", "irreps": "trivial, sign, standard (orthonormal basis)",
         "Gram": str(gram.tolist())},
        lhs=gram, rhs=sp.eye(6), generality="exact, S_3", numbers={"compact": COMPACT})
    u = sp.Symbol("u", real=True)
    ks = range(-2, 3)
    characters = sp.Matrix(5, 5, lambda p, q: sp.integrate(
        sp.exp(sp.I * (ks[p] - ks[q]) * u), (u, 0, 2 * sp.pi)) / (2 * sp.pi))
    return [
        unscaled,
        prove_cases([("sqrt(d) scaled entries are orthonormal on S_3", scaled, sp.eye(6))],
                    generality=f"exact, S_3; {NOT_GENERAL}", reading="B",
                    summary="B: scaled S_3 entries orthonormal"),
        prove_cases([("sum d_lambda^2 = |S_3|", sum(d_**2 for d_ in (1, 1, 2)), 6)],
                    generality=f"exact, S_3; {NOT_GENERAL}", reading="B", part="completeness",
                    summary="B: completeness count"),
        prove_cases([("SO(2) characters e^{ik theta}, |k| <= 2, orthonormal (d = 1)", characters,
                      sp.eye(5))],
                    generality=f"exact integrals, |k| <= 2; {NOT_GENERAL}", reading="B",
                    part="SO(2)",
                    summary="B: SO(2) characters orthonormal"),
    ]

"""``pegr.rope.*``: RoPE as a representation, Table 1 row "Text (spherical embedding) /
SO(2)^{n/2}" (L36; A.2 L164-170), and its printed frequency formula (L170).

The injectivity assumption of L164 (a numeric search) is in ``numerics/pegr/rope.py``, beside
the float64 fuzzing of :func:`rope_representation`.
"""

from __future__ import annotations

import math

import sympy as sp

import verify
from verify.symbolic import prove_cases, refute_exactly

from .model import PAPER, R, step_timeout


@verify.claim(
    "pegr.rope.representation", paper=PAPER,
    where="Table 1 row 'Text (spherical embedding) / SO(2)^{n/2}' (L36); A.2 L164-170",
    statement=r"R_\Theta(m+n)=R_\Theta(m)R_\Theta(n),\ R_\Theta(m)^\top R_\Theta(m)=I,\ "
              r"\det R_\Theta(m)=1,\ R_\Theta(m+t)v=R_\Theta(t)(R_\Theta(m)v)",
    kind="identity", expect="PROVED",
    # seven symbolic steps: seconds on an idle machine, minutes on a loaded one
    timeout={"quick": 300.0},
    readings={"B": r"the group is $\mathrm{SO}(2)^{d/2}$ (Table 1): "
                   r"$(\phi_i) \mapsto \bigoplus_i R(\phi_i)$ is a homomorphism",
              "C": r"a representation of the position group $(\mathbb{Z},+)$ with image in "
                   r"$\mathrm{SO}(2)^{d/2} \subset \mathrm{SO}(d)$",
              "iv": r"(iv) RoFormer relative property $\langle R(m)q, R(n)k\rangle = "
                    r"q^\top R(n-m) k$ (Su et al., not in this paper)"},
)
def rope_representation(ctx):
    """SymPy, for every even d: ``R_Theta(m) = (+)_i R(m alpha_i)`` is block diagonal, so each
    identity holds iff it holds on block i, proved with a symbolic index i (``alpha``, the pairs
    of v, q, k IndexedBases) and integer m, n, t: (i) homomorphism, (ii) orthogonality and det =
    1 (a block-diagonal determinant is the product of the blocks'; the image lies in SO(d):
    reading A, "a particular group representation of SO(d)" applied to v, L164), (iii) the
    equivariance of L170, each coordinate pair rotated by ``R(t alpha_i)``; reading B
    (``SO(2)^{d/2}`` homomorphism), C (a representation of (Z, +)), iv (the RoFormer relative
    property, a sum over the d/2 blocks with symbolic d/2). Float64 fuzzing up to d = 128:
    ``numerics/pegr/rope.py``.

    Reading A's "a particular group representation of SO(d)" (L164), compared with the cited
    definition (Su et al. 2021: R_Theta(m) block-diagonal rotations indexed by the position):
    v -> R_Theta(m) v is the defining representation of SO(d) evaluated at R_Theta(m), an
    element of SO(d) by (ii); and the R_Theta(m) commute pairwise (proved blockwise), so the
    positions act through the abelian torus SO(2)^{d/2} of Table 1 (reading B), not through
    all of SO(d), which is non-abelian for d >= 3 (two exact rotations of R^3 that do not
    commute). Part "(A) group" records both: A holds as "applying elements of SO(d)"."""
    i = sp.Symbol("i", integer=True, positive=True)
    h = sp.Symbol("h", integer=True, positive=True)  # d = 2h
    m, n, t = sp.symbols("m n t", integer=True)
    alpha = sp.IndexedBase("alpha", real=True)
    phi, psi = sp.IndexedBase("phi", real=True), sp.IndexedBase("psi", real=True)
    a = alpha[i]

    def pair(name):
        return sp.Matrix([sp.IndexedBase(f"{name}1", real=True)[i],
                          sp.IndexedBase(f"{name}2", real=True)[i]])

    v, q, k = pair("v"), pair("q"), pair("k")
    blockwise = (r"every even $d = 2h$: $R_\Theta$ is block diagonal, so the identity holds iff "
                 r"it holds on block $i$, proved for a symbolic index $i$ ($\alpha_i$ and the "
                 r"coordinate pairs of $v$ indexed symbols) and integer $m, n, t$")
    return [
        prove_cases([("block i: R(m+n) = R(m) R(n)", R((m + n) * a), R(m * a) * R(n * a))],
                    generality=blockwise, scope="general", part="(i)",
                    summary="(i) homomorphism",
                    timeout=step_timeout(ctx, 7)),
        prove_cases([("block i: orthogonal", R(m * a).T * R(m * a), sp.eye(2)),
                     ("block i: det = 1", sp.simplify(R(m * a).det()), 1)],
                    generality=blockwise, scope="general", part="(ii)", summary="(ii) in SO(d)",
                    timeout=step_timeout(ctx, 6)),
        prove_cases([("block i: R(m+t) v = R(t) R(m) v", R((m + t) * a) * v,
                      R(t * a) * (R(m * a) * v)),
                     ("block i: the pair is rotated by R(t alpha_i)", R(m * a) * v,
                      R(t * a).T * (R((m + t) * a) * v))],
                    generality=blockwise, scope="general", part="(iii)",
                    summary="(iii) equivariance (L170)",
                    timeout=step_timeout(ctx, 5)),
        prove_cases([("block i: R_Theta(m) R_Theta(n) = R_Theta(n) R_Theta(m)",
                      R(m * a) * R(n * a), R(n * a) * R(m * a))],
                    generality=blockwise, scope="general", part="(A) group",
                    summary="(A) v -> R_Theta(m) v applies the element R_Theta(m) of SO(d) "
                            "(defining representation, by (ii)); the R_Theta(m) commute, so "
                            "positions act through the torus SO(2)^{d/2}, not all of SO(d) "
                            f"(non-abelian for d >= 3: {so3_noncommuting()})",
                    timeout=step_timeout(ctx, 4)),
        prove_cases([("block i: R(phi_i + psi_i) = R(phi_i) R(psi_i)", R(phi[i] + psi[i]),
                      R(phi[i]) * R(psi[i]))],
                    generality="every d/2: (phi_i) -> (+) R(phi_i) acts block by block; block i "
                               "with a symbolic index i", scope="general", reading="B",
                    summary="B: SO(2)^{d/2} -> SO(d) is a homomorphism",
                    timeout=step_timeout(ctx, 3)),
        prove_cases([("block i: R(m+n) = R(m) R(n)", R((m + n) * a), R(m * a) * R(n * a))],
                    generality=blockwise, scope="general", reading="C",
                    summary="C: m -> R_Theta(m) is a representation of (Z,+)",
                    timeout=step_timeout(ctx, 2)),
        prove_cases([("sum over the d/2 blocks: <R(m)q, R(n)k> = q^T R(n-m) k",
                      sp.Sum(((R(m * a) * q).T * (R(n * a) * k))[0], (i, 1, h)),
                      sp.Sum((q.T * R((n - m) * a) * k)[0], (i, 1, h)))],
                    generality="symbolic d = 2h (sum over the blocks i = 1..h), alpha_i, q, k",
                    scope="general", reading="iv", summary="iv: RoFormer relative property",
                    timeout=step_timeout(ctx, 1)),
    ]


def so3_noncommuting() -> str:
    """Two rotations of R^3 by pi/2 about the x and z axes, whose commutator is exactly
    nonzero: SO(d) is non-abelian for d >= 3 (SO(3) sits in SO(d) as a corner block)."""
    rx = sp.Matrix([[1, 0, 0], [0, 0, -1], [0, 1, 0]])
    rz = sp.Matrix([[0, -1, 0], [1, 0, 0], [0, 0, 1]])
    nonzero = not (rx * rz - rz * rx).is_zero_matrix
    return ("R_x(pi/2) R_z(pi/2) != R_z(pi/2) R_x(pi/2), exactly" if nonzero
            else "the two rotations commute")


def decay_and_ranges() -> dict:
    """Both frequency readings for d in {8, 64, 128} (ranges, ``alpha_i mod 2 pi``) and the
    RoFormer long-term decay ``q^T R_Theta(Delta) k / d`` (q = k = 1, d = 64) under each."""
    numbers = {}
    for dd in (8, 64, 128):
        printed = [10000 ** (2 * i / dd) for i in range(dd // 2)]
        roformer = [10000 ** (-2 * i / dd) for i in range(dd // 2)]
        numbers[f"d={dd}"] = {"printed_range": [printed[0], printed[-1]],
                              "roformer_range": [roformer[0], roformer[-1]],
                              "printed_mod_2pi_first4": [v % (2 * math.pi) for v in printed[:4]]}
    for name, sign in (("printed", 1), ("roformer", -1)):
        al = [10000 ** (sign * 2 * i / 64) for i in range(32)]
        numbers[f"decay_{name}"] = {str(D): 2 * sum(math.cos(D * ai) for ai in al) / 64
                                    for D in (1, 10, 100, 1000)}
    return numbers


def roformer_theta(i: sp.Expr, d: sp.Expr) -> sp.Expr:
    """RoFormer's frequencies, Su et al. (2021) eq. (15): ``theta_i = 10000^{-2(i-1)/d}``."""
    return sp.Integer(10000) ** (-2 * (i - 1) / d)


def printed_alpha(i: sp.Expr, d: sp.Expr) -> sp.Expr:
    """The frequencies as printed at A.2 L170: ``alpha_i = 10000^{2(i-1)/d}``."""
    return sp.Integer(10000) ** (2 * (i - 1) / d)


@verify.claim(
    "pegr.rope.frequency_formula", paper=PAPER, where="A.2 L170",
    statement=r"\alpha_i=10000^{\frac{2(i-1)}{d}}\ \text{(RoPE, Su et al. 2021)}",
    kind="identity", expect="PROVED",
    readings={"B": r"the frequencies of the cited RoPE (Su et al. 2021, eq. (15)): $\alpha_i = "
                   r"10000^{-2(i-1)/d}$, the printed formula with the sign of the exponent fixed",
              "C": r"only 'the frequencies ... exponentially vary' (L170): "
                   r"$\alpha_{i+1}/\alpha_i$ constant"},
    repairs={"B": ("erratum", r"sign of the exponent: the cited RoPE has $10000^{-2(i-1)/d}$")},
)
def rope_frequency_formula(ctx):
    """Specification check: the printed ``alpha_i = 10000^{+2(i-1)/d}`` (L170, reading A)
    against the cited RoFormer's eq. (15), ``theta_i = 10000^{-2(i-1)/d}``. They differ exactly
    at d = 4, i = 2 (100 vs 1/100): REFUTED as a description of the cited RoPE. With the printed
    signs the step angles ``alpha_i mod 2 pi`` are scrambled and the long-term decay of ``q^T
    R(Delta) k / d`` (q = k = 1, d = 64) is lost (numbers). Reading B (the sign of the exponent
    fixed): the printed ``alpha_i`` is exactly ``1 / theta_i`` and the corrected formula is
    RoFormer's, for every i and d (PROVED, symbolic). Reading C (exponential variation: the
    ratio ``10000^{+-2/d}`` is constant): PROVED for both signs."""
    d = 4
    printed = [printed_alpha(sp.Integer(i), d) for i in (1, 2)]
    roformer = [roformer_theta(sp.Integer(i), d) for i in (1, 2)]
    mismatch = refute_exactly(
        r"$d = 4$: printed $\alpha = (1, 100)$, RoFormer $\theta = (1, 1/100)$",
        {"d": 4, "i": 2, "printed": [str(v) for v in printed],
         "roformer": [str(v) for v in roformer]},
        lhs=sp.Matrix(printed), rhs=sp.Matrix(roformer), generality="exact, d = 4",
        numbers=decay_and_ranges())
    i, dd = sp.symbols("i d", positive=True)
    positive = {"i": "positive", "d": "positive"}
    corrected = prove_cases(
        [("the printed alpha_i is 1/theta_i", printed_alpha(i, dd) * roformer_theta(i, dd), 1),
         ("10000^{-2(i-1)/d} = theta_i (RoFormer eq. (15))",
          sp.Integer(10000) ** (-2 * (i - 1) / dd), roformer_theta(i, dd))],
        generality="symbolic i, d", scope="general", reading="B", assumptions=positive,
        summary="B: the sign of the exponent fixed gives RoFormer's frequencies")

    def alpha(j, sign):
        return sp.Integer(10000) ** (sign * 2 * (j - 1) / dd)

    ratio = prove_cases(
        [(f"alpha_(i+1)/alpha_i = 10000^({'+' if sign > 0 else '-'}2/d)",
          sp.powsimp(alpha(i + 1, sign) / alpha(i, sign)), sp.Integer(10000) ** (sign * 2 / dd))
         for sign in (1, -1)],
        generality="symbolic i, d", scope="general", reading="C", assumptions=positive,
        summary="C: exponential variation, both signs")
    return [mismatch, corrected, ratio]

"""Section A's two-segment claims (§2.2, L49; App. A.2, L162 and L172-178): the irreps of the
abelian groups T and T x T, and representations as equivariant maps.

``pegr.framework.irreducibility`` (a numeric commutant test) is in
``numerics/pegr/framework.py``.
"""

from __future__ import annotations

import dataclasses

import sympy as sp

import verify
from verify.symbolic import prove_cases, prove_equal, refute_exactly

from .model import PAPER, R


@verify.claim(
    "pegr.abelian_irreps_1d", paper=PAPER, where="L49; A.2 L162",
    statement=r"\text{(a) complex irreps of abelian }T, T\times T\text{ are one-dimensional; "
              r"(b) the group irreps are }e^{i\alpha x}\text{ and }e^{i(\alpha_1x+\alpha_2y)}",
    kind="identity", expect="PROVED",
    readings={"B": "(b) restricted to unitary irreps"},
    headline=("B", "the paper works under the unitary convention of harmonic analysis: its "
              "irreps are the Peter-Weyl basis of square-integrable functions on the group "
              "(L69), property (1) is stated for unitary representations (L176), and the "
              "frequencies alpha of L49 are the real frequencies of sinusoidal PEs (Table 1, "
              "D.2); a non-unitary character e^{x} is not a frequency it could mean"),
)
def abelian_irreps_1d(ctx):
    """(a) The 2-dim real representation ``R(alpha t)`` of T splits over C: ``(1, -i)`` and
    ``(1, i)`` are common eigenvectors with eigenvalues ``e^{+-i alpha t}`` (PROVED, symbolic).
    (b) ``chi_z(x) = e^{z x}`` is a continuous homomorphism of (R, +) for every complex z
    (PROVED). Reading A (every irrep is ``e^{i alpha x}`` with alpha a real frequency, as L49,
    Table 1 and D.2 use the word) is REFUTED exactly by ``z = 1``: ``|chi(1)| = e != 1 =
    |e^{i alpha}|`` (on Z: ``n -> 2^n``). Reading B (unitary): ``|e^z|^2 = e^{2 Re z}``, so
    ``|chi_z| = 1`` forces ``Re z = 0`` and the unitary ``chi_z`` are exactly the ``e^{i alpha
    x}`` (PROVED within the family chi_z; that every continuous character is some chi_z is the
    classical Cauchy-equation result, not re-proved here). With complex alpha allowed,
    ``e^{zx} = e^{i(-iz)x}`` and (b) would hold within the family. Reading B heads:
    'unitary' is the field's convention the paper works under (Peter-Weyl, L69; unitary
    reps, L176); reading A stays beside it REFUTED. expect PROVED (B's (b) form is bounded:
    within the family chi_z)."""
    a, b, t, x, y = sp.symbols("alpha beta t x y", real=True)
    z = sp.Symbol("z")
    split = prove_cases(
        [("(1,-i) is a common eigenvector of R(alpha t), eigenvalue e^{i alpha t}",
          R(a * t) * sp.Matrix([1, -sp.I]), sp.exp(sp.I * a * t) * sp.Matrix([1, -sp.I])),
         ("(1,i): eigenvalue e^{-i alpha t}",
          R(a * t) * sp.Matrix([1, sp.I]), sp.exp(-sp.I * a * t) * sp.Matrix([1, sp.I]))],
        generality="the 2-dim representation R(alpha t) of T, symbolic alpha, t; Schur's lemma "
                   "(every complex irrep of an abelian group is 1-dim) is classical and not "
                   "formalised",
        part="(a)", summary="(a) R(alpha t) splits over C")
    family = prove_equal(sp.exp(z * (x + y)), sp.exp(z * x) * sp.exp(z * y),
                         assumptions={x: "real", y: "real"}, part="(b) family").relabel(
        generality="symbolic complex z, real x, y",
        prefix="(b) e^{z x} is a homomorphism of (R,+)")
    not_unit = refute_exactly(
        "(b) chi(x) = e^x is a continuous 1-dim (so irreducible) complex rep of (R,+) not of the "
        "form e^{i alpha x}: |chi(1)| = e, while |e^{i alpha}| = 1; on Z: n -> 2^n",
        {"group": "(R,+)", "chi": "x -> e^x (z = 1)", "x": 1, "|chi(1)|": "E",
         "Z version": "n -> 2^n"},
        lhs=sp.Abs(sp.exp(sp.Integer(1))), rhs=sp.Integer(1), part="(b) form",
        generality="exact")
    re_z = sp.Symbol("a_", real=True)
    unitary = prove_equal(sp.Abs(sp.exp(re_z + sp.I * b)) ** 2, sp.exp(2 * re_z),
                          assumptions="real", reading="B", part="(b) form").relabel(
        generality=r"within the family $\chi_z = e^{zx}$, symbolic $z = a + ib$; that every "
                   r"continuous character of $(\mathbb{R},+)$ is some $\chi_z$ (Cauchy's "
                   "equation) is classical and not re-proved", scope="bounded",
        prefix=r"B: $|e^{z}|^2 = e^{2\,\mathrm{Re}\,z}$, $= 1$ iff $\mathrm{Re}\,z = 0$ "
               r"(unitary $\chi_z = e^{i\alpha x}$)")
    # the headline reading B is the whole statement: (a) and (b) with its unitary form
    same = [dataclasses.replace(e, reading="B") for e in (split, family)]
    return [split, family, not_unit, unitary, *same]


@verify.claim(
    "pegr.equivariant_maps_vs_reps", paper=PAPER, where="A.2 L172-178; L176",
    statement=r"\text{group representations are a special case of equivariant maps, because the "
              r"image of }\rho\text{ itself is a vector space; maps equivariant w.r.t. a unitary "
              r"rep. keep property (1)}",
    kind="identity", expect="PROVED",
    readings={"B": r"$\rho$ takes values in the vector space $\mathrm{End}(V)$ (not: "
                   r"$\rho(G)$ is a vector space)"},
    repairs={"B": ("erratum", r"$\rho$ takes values in the vector space $\mathrm{End}(V)$; "
                              r"$\rho(G)$ itself is no vector space")},
)
def equivariant_maps_vs_reps(ctx):
    """(a) ``rho(gh) = rho(g) rho(h)`` is equivariance of rho from left multiplication to ``A ->
    rho(g) A`` (PROVED for the SO(2) representations ``R(k theta)``, symbolic). (b) as printed at
    L178, "the image of rho itself is a vector space": REFUTED exactly, ``rho(SO(2))`` does not
    contain 0 (det 0 != 1) and ``R(0) + R(0) = 2I`` has det 4, not a rotation; reading B (``End(V)``
    is a vector space and ``A -> rho(g) A`` is linear, in symbolic size): PROVED. (c) the
    generalised Lemma A.1 of L176: for an orthogonal ``rho_V``, ``<rho u, rho v> = <u, v>`` (PROVED
    for ``R(k phi)``, symbolic u, v). (d) RoPE and the SO(2)-Bessel PE are equivariant vectors:
    ``pegr.rope.representation`` and ``pegr.so2pe.equivariance``. Reading B is the corrected reason
    of (b): rho takes values in the vector space End(V)."""
    s, t, th, ph, c = sp.symbols("s t theta phi c", real=True)
    k = sp.Symbol("k", integer=True)
    hom = prove_equal(R(k * (s + t)), R(k * s) * R(k * t), assumptions="real",
                      part="(a)").relabel(
        generality="the SO(2) representations R(k theta), symbolic; for an abstract group "
                   "(a) is the definition of a representation, so only instances carry content",
        scope="bounded",
        prefix="(a) rho(g h) = rho(g) rho(h), i.e. rho(g . h) = g . rho(h)")
    not_space = refute_exactly(
        r"$\rho(\mathrm{SO}(2))$ is not a vector space: it misses 0 ($\det 0 \ne 1$) and "
        r"$R(0)+R(0) = 2I$ has $\det = 4 \ne 1$",
        {"group": "SO(2)", "rho": "R(theta)", "zero matrix det": 0, "R(0)+R(0)": "2I",
         "det(2I)": 4},
        lhs=(R(0) + R(0)).det(), rhs=1, part="(b) reason", generality="exact",
        numbers={"det_of_zero": str(sp.zeros(2, 2).det())})
    D = sp.Symbol("D", integer=True, positive=True)
    G, A, B = (sp.MatrixSymbol(name, D, D) for name in ("G", "A", "B"))
    linear = prove_equal(G * (A + c * B), G * A + c * (G * B), reading="B",
                         part="(b) reason").relabel(
        generality="symbolic size D: rho(g) = G, A, B matrix symbols, c real",
        prefix=r"B: $A \mapsto \rho(g) A$ is linear on $\mathrm{End}(V)$")
    u = sp.Matrix(sp.symbols("u1:3", real=True))
    w = sp.Matrix(sp.symbols("w1:3", real=True))
    inner = prove_equal(((R(k * ph) * u).T * (R(k * ph) * w))[0], (u.T * w)[0],
                        assumptions="real", part="(c)").relabel(
        generality="the SO(2) representations R(k phi), symbolic u, v; for a general orthogonal "
                   "rho_V it is u^T rho^T rho v = u^T v, the hypothesis itself",
        scope="bounded",
        prefix="(c) <rho u, rho v> = <u, v>")
    return [hom, not_space, linear, inner]

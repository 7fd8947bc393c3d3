"""Relative positional encodings (App. A.1): ``pegr.relpe.*`` (L144) and Lemma A.1 (L146-158),
the paper's one labelled result (``pegr.lemma_A1``, a two-segment id of this section).

Float64 fuzzing of Lemma A.1 over SO(3), Wigner D^2, S_4 and direct sums, with its negative
controls: ``numerics/pegr/relpe.py``.
"""

from __future__ import annotations

import itertools

import sympy as sp

import verify
from verify.symbolic import prove_cases

from .model import PAPER, R, generic_matrix, perm_matrix, vec_col, vec_row
from .model.general import block_index_lemma, character_general, lemma_A1_general, vecdot_trace


def s3_inner_products() -> tuple[sp.Matrix, sp.Matrix]:
    """``vec(P(g) P(x))^T vec(P(g) P(y))`` and ``vec(P(x))^T vec(P(y))`` for all 216 triples
    ``(g, x, y)`` of S_3 (permutation matrices, column-major vec)."""
    perms = list(itertools.permutations(range(3)))
    P = perm_matrix
    triples = list(itertools.product(perms, repeat=3))
    lhs = [(vec_col(P(g) * P(x)).T * vec_col(P(g) * P(y)))[0] for g, x, y in triples]
    rhs = [(vec_col(P(x)).T * vec_col(P(y)))[0] for _, x, y in triples]
    return sp.Matrix(lhs), sp.Matrix(rhs)


@verify.claim(
    "pegr.relpe.invariance", paper=PAPER, where="A.1 L144",
    statement=r"\eta(i+t,j+t)=\eta(i,j),\quad \eta(gx,gy)=\eta(x,y)\ \text{for}\ \eta(x,y)="
              r"\mathrm{vec}(\rho(x))^\top\mathrm{vec}(\rho(y))",
    kind="identity", expect="PROVED",
    readings={"B": "row-major vec",
              "C": "derived: eta(x,y) = tr rho(x^{-1} y), the character at x^{-1} y"},
)
def relpe_invariance(ctx):
    """(i) ``(i+t) - (j+t) = i - j``; (ii) ``eta(gx, gy) = eta(x, y)`` for every orthogonal
    representation of any degree D under both vec conventions (A column-major, B row-major):
    this is Lemma A.1, proved in symbolic size by :func:`.model.general.lemma_A1_general`;
    cross-checks on ``R(theta) (+) R(3 theta)`` with symbolic angles and on the S_3 permutation
    representation exhaustively (exact integers); (iii) (reading C) ``eta(x, y) = tr
    rho(x^-1 y)``, the character, for every orthogonal representation
    (:func:`.model.general.character_general`), and ``= 2 cos(y-x) + 2 cos 3(y-x)`` for ``R (+)
    R(3 .)``."""
    i, j = sp.symbols("i j", integer=True)
    t, x, y, ph = sp.symbols("t x y phi", real=True)

    def rho(u):
        return sp.diag(R(u), R(3 * u))

    def eta(p, q, vec=vec_col):
        return (vec(rho(p)).T * vec(rho(q)))[0]

    s3_lhs, s3_rhs = s3_inner_products()
    lemma = block_index_lemma()
    col2 = vecdot_trace("col", lemma=lemma)
    row2 = vecdot_trace("row", lemma=lemma, reading="B")
    return [
        lemma_A1_general("col", step2=col2, part="(ii)"),
        lemma_A1_general("row", step2=row2, reading="B", part="(ii)"),
        character_general(step2=col2),
        prove_cases([("eta(i+t, j+t) = eta(i, j)", (i + t) - (j + t), i - j)],
                    generality="symbolic i, j, t", scope="general", part="(i)",
                    summary="(i) eta(i+t, j+t) = eta(i, j)"),
        prove_cases([("rho = R(.) (+) R(3 .), column-major", eta(ph + x, ph + y), eta(x, y)),
                     ("S_3 permutation rep, all (g, x, y)", s3_lhs, s3_rhs)],
                    generality="two representations: R(theta) (+) R(3 theta), symbolic angles, and "
                               "S_3 exhaustively (cross-checks of the general Lemma A.1)",
                    part="(ii)",
                    summary="(ii) eta(gx, gy) = eta(x, y)"),
        prove_cases([("rho = R(.) (+) R(3 .), row-major", eta(ph + x, ph + y, vec_row),
                      eta(x, y, vec_row))],
                    generality="R(theta) (+) R(3 theta), symbolic angles (a cross-check of the "
                               "general Lemma A.1)", part="(ii)", reading="B",
                    summary="(ii) B: row-major vec"),
        prove_cases([("eta = character 2 cos + 2 cos 3", eta(x, y),
                      2 * sp.cos(y - x) + 2 * sp.cos(3 * (y - x)))],
                    generality="R(theta) (+) R(3 theta), symbolic angles: the paper's example of "
                               "the general character identity",
                    reading="C",
                    summary="(iii) C: eta is the character"),
    ]


@verify.claim(
    "pegr.lemma_A1", paper=PAPER, where="Lemma A.1 (L146); proof eqs. (2)-(5), L148-158",
    statement=r"\rho\ \text{orthogonal}\Rightarrow \mathrm{vec}(\rho(gx))^\top\mathrm{vec}"
              r"(\rho(gy))=\mathrm{vec}(\rho(x))^\top\mathrm{vec}(\rho(y))",
    kind="identity", expect="PROVED",
    readings={"B": "row-major vec"},
)
def lemma_A1(ctx):
    """Each proof step as a standalone identity, in symbolic size: (2) ``vec(A)^T vec(B) =
    tr(A^T B)`` for n x m matrices, column-major (A) and row-major (B), with the vec index maps
    explicit and the block index lemma proved by induction (:func:`.model.general.vecdot_trace`);
    (3) ``tr((G X)^T (G Y)) = tr(X^T G^T G Y)`` and (4) ``tr(X^T G^T G Y) = tr(X^T Y)`` once
    the hypothesis ``G^T G = I`` is used, matrix symbols of size D; the whole lemma as the
    chain (2), (3), (4), (2) for any orthogonal representation of degree D
    (:func:`.model.general.lemma_A1_general`). Cross-checks: (2) on generic 3x3 matrices, the lemma
    for ``R(theta) (+) R(k theta)`` with symbolic angles and integer k (both vec conventions)
    and for S_3 exhaustively. Fuzzing over SO(3), Wigner D^2, S_4 and direct sums, with
    non-orthogonal negative controls: ``numerics/pegr/relpe.py``."""
    x, y, th, ph = sp.symbols("x y theta phi", real=True)
    k = sp.Symbol("k", integer=True)
    A3, B3 = generic_matrix(3, "a"), generic_matrix(3, "b")
    D = sp.Symbol("D", integer=True, positive=True)
    G, X, Y = (sp.MatrixSymbol(name, D, D) for name in ("G", "X", "Y"))

    def rho(u):
        return sp.diag(R(u), R(k * u))

    def lemma(vec):
        return (vec(rho(ph + x)).T * vec(rho(ph + y)))[0], (vec(rho(x)).T * vec(rho(y)))[0]

    vec_reason = ("generic 3x3 A, B (every entry a symbol), a cross-check of the symbolic-size "
                  "proof")
    instances = ("R(theta) (+) R(k theta), symbolic angles and integer k; S_3 exhaustively (cross-"
                 "checks of the general chain)")
    s3_lhs, s3_rhs = s3_inner_products()
    index_lemma = block_index_lemma()
    col2 = vecdot_trace("col", lemma=index_lemma)
    row2 = vecdot_trace("row", lemma=index_lemma, reading="B")
    return [
        col2,
        row2,
        lemma_A1_general("col", step2=col2),
        lemma_A1_general("row", step2=row2, reading="B"),
        prove_cases([("vec(A)^T vec(B) = tr(A^T B), col-major", (vec_col(A3).T * vec_col(B3))[0],
                      (A3.T * B3).trace())],
                    generality=vec_reason, part="(2)",
                    summary="(2) vec(A)^T vec(B) = tr(A^T B)"),
        prove_cases([("vec(A)^T vec(B) = tr(A^T B), row-major", (vec_row(A3).T * vec_row(B3))[0],
                      (A3.T * B3).trace())],
                    generality=vec_reason, part="(2)", reading="B",
                    summary="(2) B: row-major"),
        prove_cases([("tr((GX)^T GY) = tr(X^T G^T G Y)", sp.Trace((G * X).T * (G * Y)),
                      sp.Trace(X.T * G.T * G * Y))],
                    generality="symbolic size D: G = rho(g), X = rho(x), Y = rho(y) matrix symbols",
                    scope="general", part="(3)", summary="(3) tr((GX)^T GY) = tr(X^T G^T G Y)"),
        prove_cases([("with G^T G = I: tr(X^T G^T G Y) = tr(X^T Y)",
                      sp.Trace(X.T * sp.Identity(D) * Y), sp.Trace(X.T * Y))],
                    generality="symbolic size D, the hypothesis G^T G = I substituted",
                    scope="general", part="(4)", summary="(4) orthogonality removes G"),
        prove_cases([("R(k theta)^T R(k theta) = I", R(k * th).T * R(k * th), sp.eye(2))],
                    generality="the SO(2) representations R(k theta): an instance of the "
                               "hypothesis", part="(4)",
                    summary="(4) R(k theta)^T R(k theta) = I"),
        prove_cases([("SO(2), rho = R(theta) (+) R(k theta)", *lemma(vec_col)),
                     ("S_3, all 216 triples", s3_lhs, s3_rhs)],
                    generality=instances, part="lemma", summary="Lemma A.1 on SO(2) and S_3"),
        prove_cases([("SO(2), rho = R(theta) (+) R(k theta), row-major", *lemma(vec_row))],
                    generality=instances, part="lemma", reading="B",
                    summary="Lemma A.1, row-major vec"),
    ]

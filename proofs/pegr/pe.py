"""``pegr.pe.*``: the vec-of-representation encoding ``gamma(x) = vec(rho(x))`` (L47; A.4
eqs. (17)-(19), L239-249; L271)."""

from __future__ import annotations

import sympy as sp

import verify
from verify.symbolic import prove_cases, prove_equal, refute_exactly

from .model import PAPER, R, generic_matrix, kron_I, vec_col, vec_row
from .model.general import block_index_lemma, kron_vec, norm_general, vecdot_trace

#: The 3x3 proofs on explicit matrices: a cross-check of the symbolic-size ones of
#: :mod:`.model.general` on SymPy's own ``kronecker_product`` and ``Matrix.vec``.
GENERIC = ("generic 3x3 A, B (every entry an independent symbol): explicit vec and "
           "sympy.kronecker_product, a cross-check of the symbolic-size proof")


@verify.claim(
    "pegr.pe.vec_rho_properties", paper=PAPER, where="L47; A.4 eqs. (17)-(19), L239-249; L271",
    statement=r"\|\gamma(x)\|^2=D,\quad \gamma(gx)=\mathrm{vec}(\rho(g)\rho(x))"
              r"=(I\otimes\rho(g))\,\mathrm{vec}(\rho(x))",
    kind="identity", expect="PROVED",
    readings={"B": "vec is row-major (C order, torch's reshape(-1)), Kronecker order as printed "
                   "(I (x) rho(g))",
              "A'": "column-major vec with the other Kronecker order, rho(g) (x) I",
              "B'": "row-major vec with the other Kronecker order, rho(g) (x) I"},
)
def vec_rho_properties(ctx):
    """(i) ``|vec rho(x)|^2 = tr(rho(x)^T rho(x)) = D`` for every orthogonal representation of
    any degree D, both vec conventions (:func:`.model.general.norm_general`: step (2) of Lemma A.1
    for n x m matrices with explicit vec index maps, then the hypothesis); cross-checks at a
    generic 3x3 A and ``= 2`` for ``R(theta)`` (L271). (ii) eqs. (17)-(19) under the four
    combinations: column-major with ``I (x) A`` PROVED (reading A, as printed) and row-major
    with ``A (x) I`` PROVED (B'), both for A p x n and B n x m of symbolic size
    (:func:`.model.general.kron_vec`, index maps of vec and of the Kronecker product made explicit)
    and on generic 3x3 matrices; row-major with ``I (x) A`` (reading B) and column-major with
    ``A (x) I`` (A') REFUTED by exact 2x2 witnesses."""
    th = sp.Symbol("theta", real=True)
    A3, B3 = generic_matrix(3, "a"), generic_matrix(3, "b")
    lemma = block_index_lemma()
    col2, row2 = vecdot_trace("col", lemma=lemma), vecdot_trace("row", lemma=lemma)
    norm_general_col = norm_general("col", step2=col2)
    norm_general_row = norm_general("row", step2=row2)
    norm = prove_cases(
        [("|vec A|^2 = tr(A^T A), column-major", (vec_col(A3).T * vec_col(A3))[0],
          (A3.T * A3).trace()),
         ("|vec A|^2 = tr(A^T A), row-major", (vec_row(A3).T * vec_row(A3))[0],
          (A3.T * A3).trace()),
         ("|vec R(theta)|^2 = D = 2", (vec_col(R(th)).T * vec_col(R(th)))[0], 2)],
        generality="generic 3x3 A (every entry a symbol) and R(theta), a cross-check of the "
                   "symbolic-size proof", part="(i) constant norm",
        summary="constant norm")
    printed = prove_equal(vec_col(A3 * B3), kron_I(A3, "I(x)A") * vec_col(B3),
                          assumptions="real", part="(ii) Kronecker trick").relabel(
        generality=GENERIC, scope="bounded", prefix="(ii) column-major, I (x) A (as printed)")
    other = prove_equal(vec_row(A3 * B3), kron_I(A3, "A(x)I") * vec_row(B3),
                        assumptions="real", reading="B'", part="(ii) other convention pairs"
                        ).relabel(generality=GENERIC, scope="bounded",
                                  prefix="(ii') row-major, A (x) I")
    A2 = sp.Matrix([[0, 1], [0, 0]])
    B2 = sp.Matrix([[0, 0], [1, 0]])
    witness = {"A": str(A2.tolist()), "B": str(B2.tolist())}
    row_printed = refute_exactly(
        "row-major vec with I (x) A fails: A=[[0,1],[0,0]], B=[[0,0],[1,0]]",
        witness | {"vec": "row-major", "kron": "I (x) A"},
        lhs=vec_row(A2 * B2), rhs=kron_I(A2, "I(x)A") * vec_row(B2), reading="B",
        part="(ii) Kronecker trick", generality="2x2 exact")
    col_other = refute_exactly(
        "column-major vec with A (x) I fails: A=[[0,1],[0,0]], B=[[0,0],[1,0]]",
        witness | {"vec": "column-major", "kron": "A (x) I"},
        lhs=vec_col(A2 * B2), rhs=kron_I(A2, "A(x)I") * vec_col(B2), reading="A'",
        part="(ii) other convention pairs", generality="2x2 exact")
    printed_general = kron_vec("col", "I(x)A", lemma=lemma, part="(ii) Kronecker trick")
    other_general = kron_vec("row", "A(x)I", lemma=lemma, reading="B'",
                             part="(ii) other convention pairs")
    return [norm_general_col, norm_general_row, norm, printed_general, printed, other_general,
            other, row_printed, col_other]

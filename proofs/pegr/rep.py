"""``pegr.rep.*``: complete reducibility (L23 + L41; hedged restatement L69).

The other ``pegr.rep`` claims (the homomorphism / irreducibility oracle and the definition of
equivariance) are numeric and live in ``numerics/pegr/rep.py``.
"""

from __future__ import annotations

import itertools
import math

import sympy as sp

import verify
from verify import Evidence, Verdict
from verify.symbolic import prove_cases, refute_exactly

from .model import PAPER, R, perm_matrix


def unipotent(u: sp.Expr) -> sp.Matrix:
    """``rho(u) = [[1, u], [0, 1]]``: a representation of T = (R, +) with no invariant complement
    to ``span(e1)`` (also ``n -> M^n``, ``M = [[1, 1], [0, 1]]``, on (Z, +))."""
    return sp.Matrix([[1, u], [0, 1]])


@verify.claim(
    "pegr.rep.complete_reducibility", paper=PAPER, where="L23 + L41; hedged restatement L69",
    statement=r"\text{any group representation }\rho\text{ can be written as a direct product "
              r"of irreps}",
    kind="identity", expect="PROVED",
    readings={"B": r"compact (or finite) $G$, finite-dimensional continuous $\rho$: "
                   r"$\rho = \bigoplus$ irreps (Maschke / Peter-Weyl), L69",
              "ii": "(ii) connective 'direct product' read as a tensor product of irreps"},
    repairs={"B": ("erratum", "the hypothesis the paper states at L69 ('in most cases of "
                              "interest (e.g. compact groups)') is not restated at L23-24; "
                              r"a non-unitary representation of $\mathbb{T} = (\mathbb{R}, +)$ "
                              "need not split")},
    quantifier="exists",
)
def complete_reducibility(ctx):
    """Reading A (L23 + L41, every group of the paper, T included): REFUTED exactly by the unipotent
    representation ``rho(t) = [[1, t], [0, 1]]`` of T = (R, +): it is a homomorphism and
    ``span(e1)`` is invariant (PROVED, symbolic), and SymPy's exact solution of ``rho(1) v = lam v``
    shows that ``span(e1)`` is the only invariant line, so it has no invariant complement. Reading B
    (L69, compact groups): PROVED on instances: SO(2) ``R(theta) (+) R(2 theta)`` (the block
    projector commutes) and the S_3 permutation representation (trivial (+) standard: the projector
    onto (1,1,1) commutes with all six permutation matrices). Reading ii (the list's (ii),
    tensor product): the 3-dim permutation representation of S_3 is no tensor product of S_3
    irreps, whose dimensions 1, 1, 2 multiply to powers of 2. Reading B is the printed
    statement under the hypothesis the paper states only at L69 (compact G). Every reading is
    existential for each rho ("can be written": there exists a decomposition): A and ii are
    refuted by proofs that none exists for the rho named (no invariant complement; no product
    of irrep dimensions is 3), B holds on its
    instances by the decompositions exhibited (its witnesses).

    Severity (rule 6): an erratum, not an overstatement. The paper itself states the hypothesis
    (L69: "In most cases of interest (e.g. compact groups), every group representation can be
    decomposed into irreducible representations"), and the representations it builds are
    unitary; L23-24 drops the hedge. "A hypothesis stated nearby but not restated" is the
    rule's erratum clause, so the headline is reading B's verdict, with the erratum beside it
    and reading A's counterexample kept."""
    t, s, th = sp.symbols("t s theta", real=True)
    e1 = sp.Matrix([1, 0])
    is_rep = prove_cases(
        [("rho(s+t) = rho(s) rho(t)", unipotent(s + t), unipotent(s) * unipotent(t)),
         ("rho(t) e1 = e1 (span(e1) invariant)", unipotent(t) * e1, e1)],
        generality="symbolic s, t", scope="general", part="counterexample is a representation",
        summary="rho(t) = [[1,t],[0,1]] is a homomorphism of (R,+) with span(e1) invariant")
    p, q, lam = sp.symbols("p q lam")
    v = sp.Matrix([p, q])
    sols = sp.solve(list(unipotent(1) * v - lam * v), [p, q, lam], dict=True)
    lines = {sp.simplify(sol.get(q, q)) for sol in sols}
    if lines == {0}:
        no_complement = refute_exactly(
            r"$\mathbb{T} = (\mathbb{R},+)$, "
            r"$\rho(t) = \bigl(\begin{smallmatrix}1&t\\0&1\end{smallmatrix}\bigr)$: "
            r"$\mathrm{span}(e_1)$ is invariant and is the only invariant line (the eigenvectors "
            r"of $\rho(1)$ all have $q = 0$), so it has no invariant complement: $\rho$ is not a "
            "direct sum of irreps",
            {"group": "(R,+) (also (Z,+) with M=[[1,1],[0,1]])", "rho(t)": "[[1,t],[0,1]]",
             "invariant subspace": "span(e1)", "eigen-solutions of rho(1)": str(sols)},
            lhs=unipotent(1) * sp.Matrix([0, 1]), rhs=sp.Matrix([0, 1]),
            generality="exact (SymPy solve)", nonexistence=True)
    else:
        no_complement = Evidence.undecided(
            f"rho(1) has an eigen-solution off span(e1): {sols}; the witness does not apply",
            method="symbolic")

    rho2 = sp.diag(R(th), R(2 * th))
    block = sp.diag(1, 1, 0, 0)
    perms = list(itertools.permutations(range(3)))
    trivial = sp.ones(3, 3) / 3
    compact = prove_cases(
        [("SO(2): R(theta) (+) R(2 theta), block projector commutes", block * rho2,
          rho2 * block),
         ("S_3 on R^3 = trivial (+) standard: projector onto (1,1,1) commutes with all 6",
          sp.Matrix.vstack(*[trivial * perm_matrix(g) for g in perms]),
          sp.Matrix.vstack(*[perm_matrix(g) * trivial for g in perms]))],
        generality=r"two compact instances: SO(2) $R(\theta) \oplus R(2\theta)$, symbolic "
                   r"$\theta$, and the "
                   "S_3 permutation representation; the general statement (Maschke / Peter-Weyl, "
                   "averaging an inner product over the Haar measure) is not formalised",
        reading="B",
        summary="compact instances split into irreps")
    if compact.verdict is Verdict.PROVED:
        compact.witness = {"SO(2)": "R(theta) (+) R(2 theta), blocks span(e1,e2), span(e3,e4)",
                           "S_3 on R^3": "span(1,1,1) (+) its orthogonal complement"}

    irrep_dims = [1, 1, 2]
    products = sorted({math.prod(c) for k in (1, 2, 3)
                       for c in itertools.combinations_with_replacement(irrep_dims, k)})
    if 3 not in products:
        tensor = Evidence(
            Verdict.REFUTED, "reading ii (tensor product): dim 3 of the S_3 permutation rep is no "
            f"product of irrep dimensions {irrep_dims} (products: {products})",
            method="symbolic", reading="ii", nonexistence=True,
            counterexample={"group": "S_3", "rep": "permutation rep on R^3",
                            "irrep dims": irrep_dims, "products": products})
    else:
        tensor = Evidence.undecided("reading ii: the dimension count allows a tensor product",
                                    method="symbolic", reading="ii")
    return [is_rep, no_complement, compact, tensor]

"""``pegr.onehot.*``: the learned-table encoding of Table 1 row "Any (learned embedding)" (L35;
A.2 L180-182) as one-hot vectors transformed by permutation matrices."""

from __future__ import annotations

import itertools

import sympy as sp

import verify
from verify.symbolic import prove_equal, refute_exactly

from .model import PAPER, perm_matrix
from .model.general import (
    learned_table_general,
    onehot_equivariance_general,
    permutation_hom_general,
    regular_hom_general,
    regular_onehot_general,
)


@verify.claim(
    "pegr.onehot.permutation_rep", paper=PAPER,
    where="Table 1 row 'Any (learned embedding)' (L35); A.2 L180-182",
    statement=r"P(\sigma\tau)=P(\sigma)P(\tau),\ \mathbf 1_{\sigma x}=P(\sigma)\mathbf 1_x,\ "
              r"\gamma(x_i)=W\mathbf 1_{x_i}",
    kind="identity", expect="PROVED",
    readings={"B": "the acting element g ranges over S_|X| (reading A: g in X = Z_N acting by the "
                   "left-regular permutation, X = G)",
              "B'": "opposite composition convention (sigma tau)(i) = tau(sigma(i))"},
)
def onehot_permutation_rep(ctx):
    """For every N (symbolic), with ``P(sigma)[a, b] = delta(a, sigma(b))`` and the entries
    summed by SymPy over ``0..N-1`` (:mod:`.model.general`): ``P(sigma tau) = P(sigma) P(tau)`` with
    ``(sigma tau)(i) = sigma(tau(i))`` and ``1_{sigma x} = P(sigma) 1_x`` (reading B, g in
    S_|X|); reading A (L182, "g in X acts naturally", X = G): ``Z_N`` acting on itself by
    addition through its left-regular permutations ``L_g(b) = (g + b) mod N``; ``W 1_{x_i} =
    w_{x_i}`` for a table W of any size. Cross-checks: exact integer matrices, exhaustive over
    S_N and Z_N (N = 3 quick, 4 deep), each identity stacked over all elements into one SymPy
    matrix identity. The opposite composition convention gives an anti-homomorphism (reading
    B', REFUTED by a 3-cycle and a transposition)."""
    N = ctx.pick(quick=3, deep=4)
    perms = list(itertools.permutations(range(N)))

    def comp(s1, s2):
        return tuple(s1[s2[i]] for i in range(N))

    def e(i):
        return sp.Matrix(N, 1, lambda k, _: 1 if k == i else 0)

    gen = (f"exhaustive over S_{N} ({len(perms) ** 2} pairs), exact integers (a cross-check of "
           "the symbolic-N proof)")
    zn = f"exhaustive over Z_{N} (a cross-check of the symbolic-N proof)"
    hom_sn = prove_equal(
        sp.Matrix.vstack(*[perm_matrix(comp(s1, s2)) for s1 in perms for s2 in perms]),
        sp.Matrix.vstack(*[perm_matrix(s1) * perm_matrix(s2) for s1 in perms for s2 in perms]),
        assumptions="real", reading="B", part="homomorphism").relabel(
        generality=gen, scope="bounded", prefix="P(sigma tau) = P(sigma) P(tau)")
    onehot_sn = prove_equal(
        sp.Matrix.vstack(*[e(sg[i]) for sg in perms for i in range(N)]),
        sp.Matrix.vstack(*[perm_matrix(sg) * e(i) for sg in perms for i in range(N)]),
        assumptions="real", reading="B", part="one-hot equivariance").relabel(
        generality=gen, scope="bounded", prefix="1_{sigma x} = P(sigma) 1_x")
    regular = [tuple((g + i) % N for i in range(N)) for g in range(N)]
    onehot_zn = prove_equal(
        sp.Matrix.vstack(*[e((g + xx) % N) for g in range(N) for xx in range(N)]),
        sp.Matrix.vstack(*[perm_matrix(regular[g]) * e(xx) for g in range(N) for xx in range(N)]),
        assumptions="real", part="one-hot equivariance").relabel(
        generality=zn, scope="bounded",
        prefix="X = Z_N acting on itself: 1_{g+x} = P(g) 1_x")
    hom_zn = prove_equal(
        sp.Matrix.vstack(*[perm_matrix(regular[(g + h) % N]) for g in range(N) for h in range(N)]),
        sp.Matrix.vstack(*[perm_matrix(regular[g]) * perm_matrix(regular[h])
                           for g in range(N) for h in range(N)]),
        assumptions="real", part="homomorphism").relabel(
        generality=zn, scope="bounded",
        prefix="Z_N left-regular permutations are a homomorphism")
    W = sp.Matrix(2, N, lambda i, j: sp.Symbol(f"w{i}{j}"))
    table = prove_equal(sp.Matrix.hstack(*[W * e(i) for i in range(N)]), W, assumptions="real",
                        part="learned table").relabel(
        generality=f"symbolic W (2 x {N})", scope="bounded",
        prefix="W 1_{x_i} = w_i (the i-th column)")
    s1, s2 = (1, 2, 0), (1, 0, 2)
    opposite = tuple(s2[s1[i]] for i in range(3))
    anti = refute_exactly(
        "opposite convention (sigma tau)(i) = tau(sigma(i)): P(sigma tau) != P(sigma) P(tau)",
        {"sigma": s1, "tau": s2, "convention": "(sigma tau)(i) = tau(sigma(i))"},
        lhs=perm_matrix(opposite), rhs=perm_matrix(s1) * perm_matrix(s2), reading="B'",
        part="composition convention")
    hom_general = permutation_hom_general()
    general = [hom_general, onehot_equivariance_general(), regular_onehot_general(),
               regular_hom_general(hom=hom_general), learned_table_general()]
    return [*general, hom_sn, onehot_sn, onehot_zn, hom_zn, table, anti]

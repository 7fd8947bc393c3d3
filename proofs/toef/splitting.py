"""Sec. 2 of the paper, symbolically: splitting a layer (eq. 2) and BCH to second order (Lemma 1).

``X`` and ``Y`` of :mod:`verify.symbolic.bch` are noncommutative symbols, so an identity proved
for them holds in the free associative algebra: for all square matrices (and bounded operators)
of every size. The numeric side of both claims (rates in h and t, commuting pairs) is in
``numerics/toef/splitting.py``.
"""

from __future__ import annotations

import sympy as sp

import verify
from verify import Evidence, Verdict
from verify.symbolic import X as SX
from verify.symbolic import Y as SY
from verify.symbolic import bch, prove_equal, refute_exactly

from .model import PAPER

FREE_ALGEBRA = "free associative algebra (noncommutative symbols: all matrices, all sizes)"


def _commutator(a: sp.Expr, b: sp.Expr) -> sp.Expr:
    """``[a, b] = ab - ba`` (the paper's convention, l. 28)."""
    return a * b - b * a


@verify.claim(
    "toef.lemma1_bch_second_order", paper=PAPER, where="proof of Lemma 1, L178",
    statement=r"e^{tA}e^{tB}=e^{t(A+B)+\frac{t^2}{2}[A,B]+O(t^3)}",
    kind="identity", expect="PROVED",
)
def lemma1_bch_second_order(ctx):
    """``log(e^X e^Y)`` to degree 2 is ``X + Y + [X, Y]/2`` (l. 178), and its degree-3 part is
    the standard reference term ``([X,[X,Y]] + [Y,[Y,X]])/12``: both exact in the free
    algebra, where the degree-k part scales as ``t^k``. PROVED; the float64 residuals
    ``r2 / t^3`` and ``r3 / t^4`` are the numeric cross-check."""
    cm = _commutator
    second = prove_equal(bch(2), SX + SY + cm(SX, SY) / 2).relabel(
        generality=FREE_ALGEBRA, prefix="log(e^X e^Y) to degree 2")
    third_order = sp.expand((cm(SX, cm(SX, SY)) + cm(SY, cm(SY, SX))) / 12)
    third = prove_equal(sp.expand(bch(3) - bch(2)), third_order).relabel(
        part="degree-3 reference term", generality=FREE_ALGEBRA,
        prefix="degree-3 BCH term = ([X,[X,Y]]+[Y,[Y,X]])/12")
    return [second, third]


@verify.claim(
    "toef.eq2_split_vs_parallel", paper=PAPER, where="eq. (2) and text, L40, L44-50",
    statement=r"(1+h\lambda_\mathrm{MLP}+h\lambda_A)\approx e^{h\lambda_\mathrm{MLP}+h\lambda_A}"
              r"\approx e^{h\lambda_\mathrm{MLP}}e^{h\lambda_A}\approx(1+h\lambda_\mathrm{MLP})"
              r"(1+h\lambda_A);\ \text{the second equality holds iff }"
              r"[\lambda_\mathrm{MLP},\lambda_A]=0",
    kind="property", expect="SUPPORTED",
    readings={"B": r"iff at one fixed $h$ (e.g. $h=1$): $e^{A+B}=e^Ae^B\iff[A,B]=0$"},
)
def eq2_split_vs_parallel(ctx):
    """The "only if" of the iff (l. 48), reading A (equality for all h near 0): the ``h^2``
    coefficient of ``e^{h(A+B)} - e^{hA}e^{hB}`` is ``-[A,B]/2``, exactly in the free algebra,
    so equality near ``h = 0`` forces ``[A, B] = 0``. The gaps of eq. (2), the "if" direction
    and the O(h^2) rates are numeric (numerics/toef/splitting.py). The claim is SUPPORTED,
    the weakest of its parts: the three gaps fit slopes 1.999-2.001 over h = 0.1 ... 0.001
    with 95% intervals (width ~0.001) that lie within the margin 0.3 of the claimed 2
    (``RateFit.evidence``).

    Reading B (equality at one fixed ``h = 1``) is REFUTED by ``A = diag(0, 2 pi i)``,
    ``B = [[0, 1], [0, 2 pi i]]``: ``e^A = e^B = e^{A+B} = I`` exactly (SymPy ``Matrix.exp``),
    while ``[A, B] != 0``."""
    A, B = SX, SY
    gap_h2 = sp.expand((A + B) ** 2 / 2 - (A**2 / 2 + A * B + B**2 / 2))
    only_if = prove_equal(gap_h2, -_commutator(A, B) / 2).relabel(
        part="iff, 'only if' direction", generality=FREE_ALGEBRA,
        prefix="h^2 coefficient of the gap = -[A,B]/2")

    tp = 2 * sp.pi * sp.I
    Am = sp.Matrix([[0, 0], [0, tp]])
    Bm = sp.Matrix([[0, 1], [0, tp]])
    exps = {name: sp.simplify(M.exp()) for name, M in (("e^A", Am), ("e^B", Bm),
                                                       ("e^(A+B)", Am + Bm))}
    comm = _commutator(Am, Bm)
    generality = "2x2, exact (SymPy Matrix.exp)"
    if all(E == sp.eye(2) for E in exps.values()):
        fixed_h = refute_exactly(
            f"h = 1: e^A = e^B = e^(A+B) = I exactly, but [A,B] = {comm.tolist()} != 0",
            {"A": str(Am.tolist()), "B": str(Bm.tolist()), "h": 1,
             **{name: "I" for name in exps}},
            lhs=comm, rhs=sp.zeros(2, 2), reading="B", generality=generality)
    else:
        fixed_h = Evidence(Verdict.UNDECIDED,
                           f"the candidate pair does not have e^A = e^B = e^(A+B) = I: {exps}",
                           method="symbolic", reading="B", generality=generality)
    return [only_if, fixed_h]

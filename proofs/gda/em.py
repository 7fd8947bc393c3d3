"""The EM reading of Sec. 5: the attention weights as posterior responsibilities (eq. (44)).

The other ``gda.em.*`` claims (the E- and M-step analogies, the schedules and timescales of
Sec. 5.3) are numeric and live in ``numerics/gda/em.py``.
"""

from __future__ import annotations

import sympy as sp

import verify
from verify.symbolic import prove_cases

from .model import general

PAPER = "gda"


@verify.claim(
    "gda.em.responsibilities",
    paper=PAPER,
    where="eq. (44), L280-284",
    kind="identity",
    statement=(
        r"\alpha_{ij}=p(Z_i=j\mid q_i,K;\theta)=\frac{\exp(q_i^\top k_j/\sqrt{d_k})}"
        r"{\sum_k\exp(q_i^\top k_k/\sqrt{d_k})}"
    ),
    expect="PROVED",
)
def em_responsibilities(ctx):
    """PROVED: (44) equals (4)-(5), each row is a probability vector, and (44) is exactly the
    Bayes posterior of a uniform prior over j with likelihood p(q_i | Z_i=j) propto
    exp(q_i.k_j/sqrt(d_k)) (an energy model of the query given the key; the paper states no
    generative model). alpha_i depends on q_i and K only: not on y, u or v. For a row of any
    length (:func:`proofs.gda.model.general.softmax_rows_symbolic`): the row sums to 1 and is the
    Bayes posterior of the uniform prior, for any scores, so for s_ij of (4) too."""
    T, dk = 3, 2
    q = sp.Matrix(1, dk, [sp.Symbol(f"q_{a}", real=True) for a in range(dk)])
    K = sp.Matrix(T, dk, [sp.Symbol(f"k_{j}{a}", real=True) for j in range(T) for a in range(dk)])

    def score(j: int) -> sp.Expr:
        return (q * K[j, :].T)[0, 0] / sp.sqrt(dk)

    s = [score(j) for j in range(T)]
    a5 = [sp.exp(s[j]) / sum(sp.exp(s[r]) for r in range(T)) for j in range(T)]
    a44 = [
        sp.exp((q * K[j, :].T)[0, 0] / sp.sqrt(dk))
        / sum(sp.exp((q * K[r, :].T)[0, 0] / sp.sqrt(dk)) for r in range(T))
        for j in range(T)
    ]
    prior = sp.Rational(1, T)
    post = [prior * sp.exp(s[j]) / sum(prior * sp.exp(s[r]) for r in range(T)) for j in range(T)]
    cases = [
        ("(44) = (4)-(5)", sp.Matrix(a44), sp.Matrix(a5)),
        ("sum_j alpha_ij = 1", sum(a5), sp.Integer(1)),
        ("Bayes posterior, uniform prior", sp.Matrix(post), sp.Matrix(a5)),
    ]
    return [
        prove_cases(
            cases, generality="T=3, d_k=2", summary="alpha_i is a probability vector in q_i, K only"
        ),
        general.softmax_rows_symbolic(),
    ]

"""``pegr.T.*``: the sinusoidal text encoding of Table 1 row "Text / T" (L31; L49; A.2 L162)."""

from __future__ import annotations

import sympy as sp

import verify
from verify.symbolic import prove_cases

from .model import PAPER, R, kron_I, vec_col

#: Why one block with a symbolic frequency covers every F.
BLOCKWISE = (r"every $F$: $\rho_T = \bigoplus_j R(\alpha_j t)$ is block diagonal and "
             r"$\gamma_T$ blockwise, so the identity holds iff it holds on block $j$, proved for "
             r"a symbolic index $j$ ($\alpha$ an indexed symbol) and real $x, y, s, t$")


@verify.claim(
    "pegr.T.sinusoidal_rep", paper=PAPER, where="Table 1 row 'Text / T' (L31); L49; A.2 L162",
    statement=r"\rho_T(s+t)=\rho_T(s)\rho_T(t),\ \gamma_T(x+t)=\rho_T(t)\gamma_T(x),\ "
              r"\gamma_T(x)^\top\gamma_T(y)=\sum_j\cos(\alpha_j(x-y)),\ "
              r"e^{i\alpha(x+y)}=e^{i\alpha x}e^{i\alpha y}",
    kind="identity", expect="PROVED",
    readings={"B": "gamma_T(x) = vec(rho_T(x)) per frequency (L47): vec identity and inner "
                   "product 2 sum cos"},
)
def T_sinusoidal_rep(ctx):
    """SymPy, for any number F of frequencies: ``rho_T = (+)_j R(alpha_j t)`` is block diagonal,
    so (i) homomorphism and orthogonality, (ii) the equivariance of the Table 1 form
    ``gamma_T(x) = (cos alpha_j x, sin alpha_j x)_j`` (A) and of the ``vec R`` form of L47 (B)
    hold iff they hold on block j, which is proved with a symbolic index j (``alpha`` an
    IndexedBase); (iii) the inner products ``sum_j cos`` (A) and ``2 sum_j cos`` (B) are proved
    as sums over j = 1..F with symbolic F; (iv) the character identity of L49 with ``(Re, Im)
    e^{i alpha x} = (cos, sin)``. The symbols are real, so T = Z and T = R alike. Float64
    fuzzing with Vaswani's frequencies: ``numerics/pegr/T.py``."""
    s, t, x, y = sp.symbols("s t x y", real=True)
    j = sp.Symbol("j", integer=True, positive=True)
    F = sp.Symbol("F", integer=True, positive=True)
    alpha = sp.IndexedBase("alpha", real=True)
    a = alpha[j]

    def block(u):  # block j of the Table 1 form: R(alpha_j u) e_1
        return sp.Matrix([sp.cos(a * u), sp.sin(a * u)])

    chi = sp.exp(sp.I * a * x)
    sums = "symbolic F (sum over the blocks j = 1..F), alpha_j, x, y real"
    return [
        prove_cases([("block j: R(a(s+t)) = R(a s) R(a t)", R(a * (s + t)), R(a * s) * R(a * t)),
                     ("block j: R(a t)^T R(a t) = I", R(a * t).T * R(a * t), sp.eye(2))],
                    generality=BLOCKWISE, scope="general", part="(i)",
                    summary="(i) rho_T homomorphism, orthogonal"),
        prove_cases([("block j: gamma(x+t) = R(a t) gamma(x)", block(x + t), R(a * t) * block(x))],
                    generality=BLOCKWISE, scope="general", part="(ii)",
                    summary="(ii) gamma_T(x+t) = rho_T(t) gamma_T(x)"),
        prove_cases([("sum over the F blocks of gamma(x)^T gamma(y)",
                      sp.Sum((block(x).T * block(y))[0], (j, 1, F)),
                      sp.Sum(sp.cos(a * (x - y)), (j, 1, F)))],
                    generality=sums, scope="general", part="(iii)",
                    summary="(iii) inner product sum_j cos(alpha_j (x - y))"),
        prove_cases([("$e^{ia(x+y)} = e^{iax} e^{iay}$", sp.exp(sp.I * a * (x + y)),
                      sp.exp(sp.I * a * x) * sp.exp(sp.I * a * y)),
                     ("(Re, Im) e^{i a x} = (cos a x, sin a x)",
                      sp.Matrix([sp.re(chi), sp.im(chi)]),
                      sp.Matrix([sp.cos(a * x), sp.sin(a * x)]))],
                    generality="symbolic alpha, x, y (real)", scope="general", part="(iv)",
                    summary="(iv)/(v) character"),
        prove_cases([("block j: vec R(a(x+t)) = (I (x) R(a t)) vec R(a x)", vec_col(R(a * (x + t))),
                      kron_I(R(a * t), "I(x)A") * vec_col(R(a * x)))],
                    generality=BLOCKWISE, scope="general", part="(ii)", reading="B",
                    summary="(ii) B: vec form equivariant"),
        prove_cases([("sum over the F blocks of vec R(a x) . vec R(a y)",
                      sp.Sum((vec_col(R(a * x)).T * vec_col(R(a * y)))[0], (j, 1, F)),
                      2 * sp.Sum(sp.cos(a * (x - y)), (j, 1, F)))],
                    generality=sums, scope="general", part="(iii)", reading="B",
                    summary="(iii) B: inner product 2 sum_j cos(alpha_j (x - y))"),
    ]

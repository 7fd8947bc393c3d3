"""``pegr.T.*``: the sinusoidal text encoding of Table 1 row "Text / T" (L31; L49; A.2 L162)."""

from __future__ import annotations

import sympy as sp

import verify
from verify.symbolic import prove_cases

from .model import PAPER, R, kron_I, vec_col


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
    """SymPy with symbolic frequencies and positions (F = 2 quick, 3 deep): (i) homomorphism
    and orthogonality of ``rho_T = (+) R(alpha_j t)``, (ii) equivariance of the Table 1 form
    ``gamma_T(x) = (cos alpha_j x, sin alpha_j x)_j`` (A) and of the ``vec R`` form of L47 (B),
    (iii) the inner products ``sum cos`` (A) and ``2 sum cos`` (B), (iv) the character identity
    of L49 with ``(Re, Im) e^{i alpha x} = (cos, sin)``. The symbols are real, so T = Z and
    T = R alike. Float64 fuzzing with Vaswani's frequencies: ``numerics/pegr/T.py``."""
    F = ctx.pick(quick=2, deep=3)
    a, s, t, x, y = sp.symbols("alpha s t x y", real=True)
    al = sp.symbols(f"alpha1:{F + 1}", real=True)

    def rho(u):
        return sp.diag(*[R(aj * u) for aj in al])

    def gamma(u):  # Table 1 form: per frequency R(alpha u) e_1
        return sp.Matrix([v for aj in al for v in (sp.cos(aj * u), sp.sin(aj * u))])

    def gamma_vec(u):  # L47 form: per frequency vec R(alpha u), column-major
        return sp.Matrix.vstack(*[vec_col(R(aj * u)) for aj in al])

    gen = f"symbolic alpha_1..alpha_{F}, x, y, s, t (real)"
    cos_sum = sum(sp.cos(aj * (x - y)) for aj in al)
    rho_vec = sp.diag(*[kron_I(R(aj * t), "I(x)A") for aj in al])
    chi = sp.exp(sp.I * a * x)
    return [
        prove_cases([("rho_T(s+t) = rho_T(s) rho_T(t)", rho(s + t), rho(s) * rho(t)),
                     ("rho_T orthogonal", rho(t).T * rho(t), sp.eye(2 * F))],
                    generality=gen, part="(i)", summary="(i) rho_T homomorphism, orthogonal"),
        prove_cases([("gamma_T(x+t) = rho_T(t) gamma_T(x)", gamma(x + t), rho(t) * gamma(x))],
                    generality=gen, part="(ii)", summary="(ii) gamma_T(x+t) = rho_T(t) gamma_T(x)"),
        prove_cases([("inner product sum cos", (gamma(x).T * gamma(y))[0], cos_sum)],
                    generality=gen, part="(iii)", summary="(iii) inner product sum cos"),
        prove_cases([("e^{ia(x+y)} = e^{iax} e^{iay}", sp.exp(sp.I * a * (x + y)),
                      sp.exp(sp.I * a * x) * sp.exp(sp.I * a * y)),
                     ("(Re, Im) e^{i a x} = (cos a x, sin a x)",
                      sp.Matrix([sp.re(chi), sp.im(chi)]),
                      sp.Matrix([sp.cos(a * x), sp.sin(a * x)]))],
                    generality="symbolic alpha, x, y", part="(iv)", summary="(iv)/(v) character"),
        prove_cases([("vec R(a(x+t)) = (I (x) R(a t)) vec R(a x)", gamma_vec(x + t),
                      rho_vec * gamma_vec(x))],
                    generality=gen, part="(ii)", reading="B",
                    summary="(ii) B: vec R(a(x+t)) = (I (x) R(a t)) vec R(a x)"),
        prove_cases([("inner product 2 sum cos", (gamma_vec(x).T * gamma_vec(y))[0],
                      2 * cos_sum)],
                    generality=gen, part="(iii)", reading="B",
                    summary="(iii) B: inner product 2 sum cos"),
    ]

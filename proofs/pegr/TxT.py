"""``pegr.TxT.*``: the Fourier-feature image encoding of Table 1 row "Image / T x T" (L32; L49;
D.2 L329-331)."""

from __future__ import annotations

import sympy as sp

import verify
from verify.symbolic import prove_cases

from .model import PAPER, R


@verify.claim(
    "pegr.TxT.sinusoidal_rep", paper=PAPER,
    where="Table 1 row 'Image / T x T' (L32); L49; D.2 L329-331",
    statement=r"\gamma_{T\times T}(p+t)=\rho(t)\gamma_{T\times T}(p),\ \chi(p+q)=\chi(p)\chi(q),\ "
              r"\gamma(p)^\top\gamma(q)=\sum_i\cos(\alpha^{(i)}\cdot(p-q))",
    kind="identity", expect="PROVED",
    readings={"B": "frequencies with the 2 pi factor of Tancik et al. (cos(2 pi alpha . p))"},
)
def TxT_sinusoidal_rep(ctx):
    """SymPy with one (quick) / two (deep) symbolic frequency vectors ``alpha^(i)`` in R^2 and
    positions p, q, t in R^2, without (reading A, as printed at L329-331) and with (B, Tancik et
    al.) the 2 pi factor: (i) ``gamma(p+t) = rho(t) gamma(p)``, (ii) the character identity of
    L49, (iii) the inner product. The identities hold frequency block by frequency block and the
    blocks are independent, so they extend to the paper's 16 frequencies. Gram non-invariance
    under rotations (a contrast measurement): ``numerics/pegr/TxT.py``."""
    n = ctx.pick(quick=1, deep=2)
    al = [sp.symbols(f"a{i}_1:3", real=True) for i in range(n)]
    p = sp.symbols("p1:3", real=True)
    q = sp.symbols("q1:3", real=True)
    t = sp.symbols("t1:3", real=True)

    def dot(u, v):
        return u[0] * v[0] + u[1] * v[1]

    def plus(u, v):
        return [u[0] + v[0], u[1] + v[1]]

    gen = f"symbolic alpha^(1..{n}) in R^2 (per-frequency identities), p, q, t in R^2"
    out = []
    for reading, scale in (("A", 1), ("B", 2 * sp.pi)):
        def gamma(u, scale=scale):
            return sp.Matrix([w for ai in al for w in (sp.cos(scale * dot(ai, u)),
                                                       sp.sin(scale * dot(ai, u)))])

        def chi(u, scale=scale):
            return sp.exp(sp.I * scale * dot(al[0], u))

        rho = sp.diag(*[R(scale * dot(ai, t)) for ai in al])
        label = "no 2 pi" if scale == 1 else "2 pi"
        pmq = [p[0] - q[0], p[1] - q[1]]
        out += [
            prove_cases([(f"gamma(p+t) = rho(t) gamma(p) [{label}]", gamma(plus(p, t)),
                          rho * gamma(p))],
                        generality=gen, part="(i)", reading=reading,
                        summary=f"(i) gamma(p+t) = rho(t) gamma(p) [{label}]"),
            prove_cases([("inner product", (gamma(p).T * gamma(q))[0],
                          sum(sp.cos(scale * dot(ai, pmq)) for ai in al))],
                        generality=gen, part="(iii)", reading=reading,
                        summary="(iii) inner product sum cos"),
            prove_cases([("chi(p+q) = chi(p) chi(q)", chi(plus(p, q)), chi(p) * chi(q))],
                        generality="symbolic alpha, p, q", part="(ii)", reading=reading,
                        summary="(ii) chi(p+q) = chi(p) chi(q)"),
        ]
    return out

"""``pegr.TxT.*``: the Fourier-feature image encoding of Table 1 row "Image / T x T" (L32; L49;
D.2 L329-331)."""

from __future__ import annotations

import sympy as sp

import verify
from verify.symbolic import prove_cases

from .model import PAPER, R, step_timeout

#: Why one block with a symbolic frequency vector covers all 16 (or any number of) frequencies.
BLOCKWISE = (r"any number of frequencies: $\rho(t) = \bigoplus_i R(\alpha^{(i)}\cdot t)$ is "
             r"block diagonal and $\gamma$ blockwise, so the identity holds iff it holds on block "
             r"$i$, proved for a symbolic index $i$ ($\alpha^{(i)} \in \mathbb{R}^2$ an indexed "
             r"symbol) and $p, q, t \in \mathbb{R}^2$")


@verify.claim(
    "pegr.TxT.sinusoidal_rep", paper=PAPER,
    where="Table 1 row 'Image / T x T' (L32); L49; D.2 L329-331",
    statement=r"\gamma_{T\times T}(p+t)=\rho(t)\gamma_{T\times T}(p),\ \chi(p+q)=\chi(p)\chi(q),\ "
              r"\gamma(p)^\top\gamma(q)=\sum_i\cos(\alpha^{(i)}\cdot(p-q))",
    kind="identity", expect="PROVED",
    timeout={"quick": 300.0},  # six symbolic steps, two of them sums: room on a loaded machine
    readings={"B": r"frequencies with the $2\pi$ factor of Tancik et al. "
                   r"($\cos(2\pi\alpha\cdot p)$)"},
)
def TxT_sinusoidal_rep(ctx):
    """SymPy, without (reading A, as printed at L329-331) and with (B, Tancik et al.) the 2 pi
    factor: (i) ``gamma(p+t) = rho(t) gamma(p)`` on block i with a symbolic index i (the
    frequency vector ``alpha^(i)`` an IndexedBase), which is every block since ``rho`` is block
    diagonal; (ii) the character identity of L49; (iii) the inner product as a sum over the
    blocks i = 1..n with symbolic n. Gram non-invariance under rotations (a contrast
    measurement): ``numerics/pegr/TxT.py``."""
    p = sp.symbols("p1:3", real=True)
    q = sp.symbols("q1:3", real=True)
    t = sp.symbols("t1:3", real=True)
    i = sp.Symbol("i", integer=True, positive=True)
    n = sp.Symbol("n", integer=True, positive=True)
    a1, a2 = sp.IndexedBase("alpha1", real=True), sp.IndexedBase("alpha2", real=True)
    al = (a1[i], a2[i])

    def dot(u, v):
        return u[0] * v[0] + u[1] * v[1]

    def plus(u, v):
        return [u[0] + v[0], u[1] + v[1]]

    pmq = [p[0] - q[0], p[1] - q[1]]
    sums = (r"symbolic $n$ (sum over the blocks $i = 1..n$), $\alpha^{(i)} \in \mathbb{R}^2$, "
            r"$p, q \in \mathbb{R}^2$")
    out = []
    for left, (reading, scale) in ((6, ("A", 1)), (3, ("B", 2 * sp.pi))):  # left: steps to go
        def block(u, scale=scale):
            return sp.Matrix([sp.cos(scale * dot(al, u)), sp.sin(scale * dot(al, u))])

        def chi(u, scale=scale):
            return sp.exp(sp.I * scale * dot(al, u))

        label = r"without $2\pi$" if scale == 1 else r"with $2\pi$"
        out += [
            prove_cases([(rf"block $i$: $\gamma(p+t) = R(\alpha\cdot t)\gamma(p)$ ({label})",
                          block(plus(p, t)), R(scale * dot(al, t)) * block(p))],
                        generality=BLOCKWISE, scope="general", part="(i)", reading=reading,
                        summary=rf"(i) $\gamma(p+t) = \rho(t)\gamma(p)$ ({label})",
                        timeout=step_timeout(ctx, left)),
            prove_cases([(r"sum over the blocks of $\gamma(p)^\top\gamma(q)$",
                          sp.Sum((block(p).T * block(q))[0], (i, 1, n)),
                          sp.Sum(sp.cos(scale * dot(al, pmq)), (i, 1, n)))],
                        generality=sums, scope="general", part="(iii)", reading=reading,
                        summary=r"(iii) inner product $\sum_i \cos(\alpha^{(i)}\cdot(p-q))$",
                        timeout=step_timeout(ctx, left - 1)),
            prove_cases([(r"$\chi(p+q) = \chi(p)\chi(q)$", chi(plus(p, q)), chi(p) * chi(q))],
                        generality=r"symbolic $\alpha, p, q$", scope="general", part="(ii)",
                        reading=reading, summary=r"(ii) $\chi(p+q) = \chi(p)\chi(q)$",
                        timeout=step_timeout(ctx, left - 2)),
        ]
    return out

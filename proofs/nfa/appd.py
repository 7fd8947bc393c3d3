"""Symbolic claim ``nfa.appd.thm14_multihead_identity``: the multi-head identity of App. D.

Setup (L686-718): design matrix ``Phi`` (N x K), residuals ``r``, ``g := Phi^T r`` (L700),
H linear heads with queries ``q^(h)`` stacked in ``Q`` (K x H), keys ``K_i = Phi[i, :]^T``,
values ``V_i = r_i``. The numeric claims of App. D are in :mod:`numerics.nfa.appd`.
"""

from __future__ import annotations

from dataclasses import replace

import sympy as sp

import verify
from verify import Evidence, Verdict
from verify.symbolic import prove_for_sizes

from . import PAPER


def multihead_outputs(N: int, K: int, H: int) -> tuple[sp.Matrix, sp.Matrix]:
    """``O~ = [sum_i (q^(h)T K_i) V_i]_h`` from the heads' definition (L706-708) and
    ``Q^T Phi^T r``, with symbolic ``Phi``, ``r`` and ``Q``."""
    Phi = sp.Matrix(N, K, lambda i, k: sp.Symbol(f"Phi{i}_{k}", real=True))
    r = sp.Matrix(N, 1, lambda i, _: sp.Symbol(f"r{i}", real=True))
    Q = sp.Matrix(K, H, lambda k, h: sp.Symbol(f"q{k}_{h}", real=True))
    heads = sp.Matrix(
        [sum((Q[:, h].T * Phi[i, :].T)[0, 0] * r[i] for i in range(N)) for h in range(H)]
    )
    return heads, Q.T * (Phi.T * r)


@verify.claim(
    "nfa.appd.thm14_multihead_identity",
    paper=PAPER,
    where="Theorem 14, L724-732; proof L734-742; setup L686-718",
    statement=r"\widetilde O=Q^\top\Phi^\top r=Q^\top q",
    kind="identity",
    readings={
        "B": r"\widetilde O=Q^\top\Phi^\top r=Q^\top g,\ g:=\Phi^\top r",
        "C": "reconstruction (proof L742): Q full column rank => R = (Q^T)^+ gives R O~ = g "
        "for all g",
        "D": "reconstruction (Remark 15, L744): H >= K and Q full row rank => R O~ = g for all g",
    },
    expect="PROVED",
)
def thm14_multihead_identity(ctx: verify.Context) -> list[Evidence]:
    """Reading A: the printed 'Q^T q' uses an undefined q; its first equality
    O~ = Q^T Phi^T r is PROVED exactly (N, K, H <= 3), and q is read as g (L728).
    expect PROVED. Reconstruction: C (full column rank Q in R^{K x H} needs H <= K and
    rank H; then R Q^T = I only if H = K): REFUTED by K=2, H=1, Q = (1, 0)^T:
    R Q^T = diag(1, 0), g = (0, 1) reconstructs to 0. D (H >= K, full row rank K):
    R Q^T = I_K exactly on random integer instances.
    """
    sizes = {"N": [1, 2, 3], "K": [1, 2], "H": [1, 2, 3]}
    printed = prove_for_sizes(multihead_outputs, sizes, timeout=30)
    q_as_g = "the symbol q in 'Q^T q' is undefined in the setup; read as g := Phi^T r (L728)"
    eA = replace(printed, steps=[q_as_g, *printed.steps])
    eB = prove_for_sizes(multihead_outputs, sizes, timeout=30, reading="B")
    Q = sp.Matrix([[1], [0]])
    R = (Q.T).pinv()
    g = sp.Matrix([0, 1])
    recon = R * Q.T * g
    eC = Evidence(
        Verdict.REFUTED,
        f"Q = (1,0)^T has full column rank (H=1 < K=2) but R Q^T = {list(R * Q.T)}: "
        f"g = (0,1) reconstructs to {list(recon)} (exact rationals)",
        method="symbolic",
        reading="C",
        counterexample={
            "K": 2,
            "H": 1,
            "Q": [[1], [0]],
            "g": [0, 1],
            "R_Qt_g": [str(v) for v in recon],
        },
    )
    gen = ctx.numpy_rng("rank")
    ok = True
    for K in (2, 3, 5):
        for H in (K, K + 1, 2 * K):
            Qr = sp.Matrix(gen.integers(-3, 4, size=(K, H)).tolist())
            if Qr.rank() < K:
                continue
            ok &= (Qr.T.pinv() * Qr.T - sp.eye(K)).is_zero_matrix
    eD = Evidence(
        Verdict.PROVED if ok else Verdict.UNDECIDED,
        "H >= K, rank Q = K: (Q^T)^+ Q^T = I_K exactly (integer Q, exact pinv, K in {2,3,5}); "
        "generally (Q^T)^+ is then a left inverse of Q^T",
        method="symbolic",
        reading="D",
        generality="random integer Q, K in {2, 3, 5}, H in {K, K+1, 2K} "
        "(instances, plus the general fact)",
    )
    return [eA, eB, eC, eD]

"""Symbolic claim ``nfa.appd.thm14_multihead_identity``: the multi-head identity of App. D.

Setup (L686-718): design matrix ``Phi`` (N x K), residuals ``r``, ``g := Phi^T r`` (L700),
H linear heads with queries ``q^(h)`` stacked in ``Q`` (K x H), keys ``K_i = Phi[i, :]^T``,
values ``V_i = r_i``. The numeric claims of App. D are in :mod:`numerics.nfa.appd`.
"""

from __future__ import annotations

from dataclasses import replace

import sympy as sp
from sympy.simplify.simplify import factor_sum

import verify
from verify import Evidence, Verdict
from verify.symbolic import prove_equal, refute_exactly
from verify.symbolic.sums import bound_variables_renamed

from . import PAPER

_GENERAL = "symbolic N, K, H (MatrixSymbol Q, Phi, r; head index h symbolic)"


def _heads_are_q_transpose_g(reading: str, part: str = "main") -> Evidence:
    """Head h of the linear layer, ``sum_i (q^(h)T K_i) V_i`` (L706-708), against entry h of
    the matrix product ``Q^T Phi^T r``, for symbolic N, K, H.

    SymPy writes entry h of ``Q^T Phi^T r`` as the double sum
    ``sum_i sum_k q_kh Phi_ik r_i`` (its definition of the matrix product). The head's
    output ``sum_i (sum_k q_kh Phi_ik) r_i`` becomes the same double sum once the index-free
    factor ``r_i`` is moved inside the sum over k (``factor_sum``, an exact rewrite); the
    two are compared after renaming the bound variables canonically.
    """
    N, K, H = sp.symbols("N K H", integer=True, positive=True)
    h = sp.Symbol("h", integer=True)
    Q, Phi, r = sp.MatrixSymbol("q", K, H), sp.MatrixSymbol("Phi", N, K), sp.MatrixSymbol(
        "r", N, 1)
    entry = (Q.T * Phi.T * r)[h, 0]
    (k, lo_k, hi_k), (i, lo_i, hi_i) = entry.limits
    summand = entry.function
    pulled = sp.Sum(summand, (k, lo_k, hi_k))
    head = sp.Sum(factor_sum(pulled), (i, lo_i, hi_i))  # sum_i r_i sum_k q_kh Phi_ik
    nested = sp.Sum(sp.Sum(Q[k, h] * Phi[i, k], (k, lo_k, hi_k)) * r[i, 0], (i, lo_i, hi_i))
    same_head = head == nested
    same_entry = bound_variables_renamed(sp.Sum(summand, (k, lo_k, hi_k), (i, lo_i, hi_i))) \
        == bound_variables_renamed(entry)
    steps = [
        f"entry h of Q^T Phi^T r: {entry}",
        f"head h, sum_i (q^(h)T K_i) V_i: {nested}",
        f"factor_sum moves r_i into the sum over k: {'equal' if same_head else 'differs'}",
        f"the resulting double sum equals the matrix entry: {'yes' if same_entry else 'no'}",
    ]
    if same_head and same_entry:
        return Evidence(Verdict.PROVED, r"$\tilde O=Q^\top\Phi^\top r$: each head's output "
                        "is entry h of "
                        "the matrix product (exact, symbolic sizes)", method="symbolic",
                        reading=reading, part=part, steps=steps, generality=_GENERAL,
                        scope="general")
    return Evidence(Verdict.UNDECIDED, "the head's double sum did not match the matrix entry",
                    method="symbolic", reading=reading, part=part, steps=steps)


def _left_inverse() -> Evidence:
    """``(Q^T)^+ Q^T = I_K`` when Q (K x H) has full row rank K (Remark 15's condition).

    Then ``Q Q^T`` is invertible and ``(Q^T)^+ = (Q Q^T)^{-1} Q``, so
    ``(Q^T)^+ Q^T = (Q Q^T)^{-1} (Q Q^T) = I_K``: checked with symbolic K, H.
    """
    K, H = sp.symbols("K H", integer=True, positive=True)
    Q = sp.MatrixSymbol("Q", K, H)
    pinv = sp.Inverse(Q * Q.T) * Q
    ev = prove_equal(pinv * Q.T, sp.Identity(K), timeout=20, reading="D")
    steps = ["rank Q = K makes Q Q^T invertible, and then (Q^T)^+ = (Q Q^T)^{-1} Q"]
    ev = replace(ev, steps=[*steps, *ev.steps])
    if ev.verdict is Verdict.PROVED:
        ev.relabel(generality="symbolic K, H (MatrixSymbol Q of full row rank K)")
    return ev


def _left_inverse_instances(ctx: verify.Context) -> Evidence:
    """The same on random integer Q with exact pseudo-inverses: a cross-check at instances."""
    gen = ctx.numpy_rng("rank")
    ok, tried = True, 0
    for K in (2, 3, 5):
        for H in (K, K + 1, 2 * K):
            Qr = sp.Matrix(gen.integers(-3, 4, size=(K, H)).tolist())
            if Qr.rank() < K:
                continue
            tried += 1
            ok &= (Qr.T.pinv() * Qr.T - sp.eye(K)).is_zero_matrix
    return Evidence(
        Verdict.PROVED if ok else Verdict.UNDECIDED,
        f"(Q^T)^+ Q^T = I_K exactly on {tried} random integer Q of rank K (exact pinv)",
        method="symbolic", reading="D", scope="bounded",
        generality="random integer Q, K in {2, 3, 5}, H in {K, K+1, 2K}",
    )


@verify.claim(
    "nfa.appd.thm14_multihead_identity",
    paper=PAPER,
    where="Theorem 14, L724-732; proof L734-742; setup L686-718",
    statement=r"\widetilde O=Q^\top\Phi^\top r=Q^\top q",
    kind="identity",
    readings={
        "B": r"$\widetilde O=Q^\top\Phi^\top r=Q^\top g$, $g:=\Phi^\top r$ "
        r"(the undefined q of L726 read as the g defined on L728)",
        "C": r"reconstruction (proof L742): Q full column rank $\Rightarrow$ "
        r"$R=(Q^\top)^+$ gives $R\widetilde O=g$ for all g",
        "D": r"reconstruction (Remark 15, L744): $H\ge K$ and Q full row rank $\Rightarrow$ "
        r"$R\widetilde O=g$ for all g",
    },
    repairs={"B": ("erratum", "the undefined q of L726 is the g defined at L728")},
    expect="PROVED",
)
def thm14_multihead_identity(ctx: verify.Context) -> list[Evidence]:
    """Reading A, as printed: O~ = Q^T Phi^T r = Q^T q. The first equality is PROVED in
    general (symbolic N, K, H). The second compares with ``Q^T q`` for a symbol q that the
    setup (L686-718) never defines; taken literally as a free vector it is REFUTED by
    N = K = H = 1, Phi = Q = r = 1, q = 0 (1 != 0). expect PROVED (with erratum; the
    printed reading stays REFUTED beside it): the printed chain holds only with q read as
    g := Phi^T r, defined on the next line (L728) -- reading B, PROVED in general, the
    erratum.

    Reconstruction: C (full column rank Q in R^{K x H} needs H <= K and rank H; then
    R Q^T = I only if H = K): REFUTED by K=2, H=1, Q = (1, 0)^T: R Q^T = diag(1, 0), so
    g = (0, 1) reconstructs to 0. D (H >= K, full row rank K): (Q^T)^+ Q^T = I_K, PROVED for
    symbolic K, H, with exact integer instances as a cross-check.
    """
    first = _heads_are_q_transpose_g("A", part=r"first equality: $\tilde O=Q^\top\Phi^\top r$")
    one, zero = sp.Integer(1), sp.Integer(0)
    free_q = refute_exactly(
        r"$Q^\top q$ with q undefined (L726): as a free vector q, N = K = H = 1, "
        r"$\Phi=Q=r=1$, q = 0 gives $Q^\top\Phi^\top r=1$ but $Q^\top q=0$; only $q:=g$ "
        "(L728) makes it hold",
        {"N": 1, "K": 1, "H": 1, "Phi": 1, "Q": 1, "r": 1, "q": 0},
        lhs=one * one * one, rhs=one * zero, part=r"second equality: $Q^\top\Phi^\top r=Q^\top q$",
        generality="a single exact rational instance",
    )
    Q = sp.Matrix([[1], [0]])
    R = (Q.T).pinv()
    g = sp.Matrix([0, 1])
    column_rank = refute_exactly(
        f"Q = (1,0)^T has full column rank (H=1 < K=2) but R Q^T = {list(R * Q.T)}: "
        f"g = (0,1) reconstructs to {list(R * Q.T * g)} (exact rationals)",
        {"K": 2, "H": 1, "Q": [[1], [0]], "g": [0, 1]},
        lhs=R * Q.T * g, rhs=g, reading="C", generality="a single exact rational instance",
    )
    return [
        first,
        free_q,
        _heads_are_q_transpose_g("B"),
        column_rank,
        _left_inverse(),
        _left_inverse_instances(ctx),
    ]

"""Appendix D of nfa (multi-head attention, Thm 14, Remark 15, Thm 16, readout L790-799)."""

from __future__ import annotations

import mpmath
import numpy as np
import sympy as sp
import torch

import verify
from verify import Evidence, Verdict
from verify.numeric import fit_rate
from verify.symbolic import prove_for_sizes

from .attention_gradient import MultiHeadAttentionGradient, random_sinusoid_problem

PAPER = "nfa"
F64 = torch.float64


def _thm14(N: int, K: int, H: int):
    Phi = sp.Matrix(N, K, lambda i, k: sp.Symbol(f"Phi{i}_{k}", real=True))
    r = sp.Matrix(N, 1, lambda i, _: sp.Symbol(f"r{i}", real=True))
    Q = sp.Matrix(K, H, lambda k, h: sp.Symbol(f"q{k}_{h}", real=True))
    O = sp.Matrix([sum((Q[:, h].T * Phi[i, :].T)[0, 0] * r[i] for i in range(N)) for h in range(H)])
    return O, Q.T * (Phi.T * r)


@verify.claim(
    "nfa.appd.thm14_multihead_identity",
    paper=PAPER,
    where="Theorem 14, L724-732; proof L734-742; setup L686-718",
    statement=r"\widetilde O=Q^\top\Phi^\top r=Q^\top q",
    kind="identity",
    readings={
        "B": r"\widetilde O=Q^\top\Phi^\top r=Q^\top g,\ g:=\Phi^\top r",
        "C": "reconstruction (proof L742): Q full column rank => R = (Q^T)^+ gives R O~ = g for all g",
        "D": "reconstruction (Remark 15, L744): H >= K and Q full row rank => R O~ = g for all g",
    },
    expect="PROVED",
)
def thm14_multihead_identity(ctx: verify.Context) -> list[Evidence]:
    """Reading A: the printed 'Q^T q' uses an undefined q; its first equality O~ = Q^T Phi^T r is
    PROVED exactly (N, K, H <= 3), and q is read as g (L728) -- so A and B are the same identity.
    expect PROVED. Reconstruction: C (full column rank Q in R^{K x H} needs H <= K and rank H;
    then R Q^T = I only if H = K): REFUTED by K=2, H=1, Q = (1, 0)^T: R Q^T = diag(1, 0), g = (0, 1)
    reconstructs to 0. D (H >= K, full row rank K): R Q^T = I_K, SUPPORTED exactly (rank check).
    """
    sizes = {"N": [1, 2, 3], "K": [1, 2], "H": [1, 2, 3]}
    eA = prove_for_sizes(_thm14, sizes, timeout=30)
    eA.steps.insert(0, "the symbol q in 'Q^T q' is undefined in the setup; read as g := Phi^T r (L728)")
    eB = prove_for_sizes(_thm14, sizes, timeout=30, reading="B")
    Q = sp.Matrix([[1], [0]])
    R = (Q.T).pinv()
    g = sp.Matrix([0, 1])
    recon = R * Q.T * g
    eC = Evidence(Verdict.REFUTED, f"Q = (1,0)^T has full column rank (H=1 < K=2) but R Q^T = {list(R * Q.T)}: g = (0,1) "
                  f"reconstructs to {list(recon)} (exact rationals)", method="symbolic", reading="C",
                  counterexample={"K": 2, "H": 1, "Q": [[1], [0]], "g": [0, 1], "R_Qt_g": [str(v) for v in recon]})
    gen = ctx.numpy_rng("rank")
    ok = True
    for K in (2, 3, 5):
        for H in (K, K + 1, 2 * K):
            Qr = sp.Matrix(gen.integers(-3, 4, size=(K, H)).tolist())
            if Qr.rank() < K:
                continue
            ok &= (Qr.T.pinv() * Qr.T - sp.eye(K)).is_zero_matrix
    eD = Evidence(Verdict.PROVED if ok else Verdict.UNDECIDED,
                  "H >= K, rank Q = K: (Q^T)^+ Q^T = I_K exactly (integer Q, exact pinv, K in {2,3,5}); "
                  "generally (Q^T)^+ is then a left inverse of Q^T", method="symbolic", reading="D",
                  generality="random integer Q, K in {2, 3, 5}, H in {K, K+1, 2K} (instances, plus the general fact)")
    return [eA, eB, eC, eD]


@verify.claim(
    "nfa.appd.remark15_rank",
    paper=PAPER,
    where="Remark 15, L744; App. D title L682; L684; L799",
    statement=r"g\mapsto\widetilde O=Q^\top g \text{ is low-rank (rank}\le\min(H,K));\ H<K:\ "
    r"\text{heads realize a rank-}H\text{ approximation to the gradient}",
    kind="property",
    readings={"B": "'multiple gradient descent steps' (title L682, L684, L799): the H heads equal H sequential GD steps"},
    expect="SUPPORTED",
)
def remark15_rank(ctx: verify.Context) -> list[Evidence]:
    """rank(Q^T) <= min(H, K) and, for H < K, R Q^T with R = (Q^T)^+ is the orthogonal projection onto
    col(Q) (P^2 = P = P^T), so R O~ is the best rank-H approximation of g in col(Q): SUPPORTED
    (float64, random Q). Reading B REFUTED: all heads share one residual r (one c), so they are
    H linear functionals of a single gradient; two sequential GD steps differ (exact witness).
    """
    rng = ctx.numpy_rng("r15")
    worst = 0.0
    for K in (4, 16):
        for H in (1, K // 2, K, 3 * K // 2):
            Q = rng.normal(size=(K, H))
            assert np.linalg.matrix_rank(Q.T) <= min(H, K)
            P = np.linalg.pinv(Q.T) @ Q.T
            U, _, _ = np.linalg.svd(Q, full_matrices=False)
            proj = U @ U.T
            worst = max(worst, np.abs(P @ P - P).max(), np.abs(P - P.T).max(), np.abs(P - proj).max())
    eA = Evidence(Verdict.SUPPORTED if worst < 1e-10 else Verdict.UNDECIDED,
                  f"rank(Q^T) <= min(H,K); R Q^T = orthogonal projection onto col(Q) (max deviation {worst:.2g}), "
                  "K in {4, 16}, H in {1, K/2, K, 3K/2}", numbers={"worst": float(worst)}, dtype="float64")
    # Reading B: one GD step vs two sequential steps, 1-D, Phi = (1), y = 1, c0 = 0, eta = 1/2
    c0, eta = sp.Integer(0), sp.Rational(1, 2)
    g0 = 1 - c0
    c1 = c0 + eta * g0
    c2 = c1 + eta * (1 - c1)
    eB = Evidence(Verdict.REFUTED, f"heads share r(c0): K=H=1, Phi=(1), y=(1), c0=0, eta=1/2: one step -> {c1}, "
                  f"'two heads' = 2 x the same direction -> {c0 + 2 * eta * g0} but two sequential GD steps -> {c2}",
                  method="symbolic", reading="B",
                  counterexample={"Phi": [[1]], "y": [1], "c0": 0, "eta": "1/2", "sequential_two_steps": str(c2),
                                  "two_heads_same_residual": str(c0 + 2 * eta * g0)})
    return [eA, eB]


def _multihead_remainder(Phi, r, Q, tau):
    mh = MultiHeadAttentionGradient(Q, mode="softmax", tau=tau)
    O = mh(Phi, r)
    lin = (Q.transpose(0, 1) @ (Phi.transpose(-1, -2) @ r.unsqueeze(-1))).squeeze(-1) / (Phi.shape[-2] * tau)
    return (O - lin).norm(dim=-1)


@verify.claim(
    "nfa.appd.thm16_multihead_softmax",
    paper=PAPER,
    where="Theorem 16, L750-766; proof L768-788",
    statement=r"\bar V=0:\ O(\tau)=\frac1{N\tau}Q^\top\Phi^\top r+\mathcal R(\tau),\ \|\mathcal R(\tau)\|_2\le\frac{C(N,B,R)}{\tau^2}",
    kind="rate",
    readings={"B": r"\|\mathcal R(\tau)\|_2\le C(N)B^2R/\tau^2"},
    expect="REFUTED",
)
def thm16_multihead_softmax(ctx: verify.Context) -> list[Evidence]:
    """Rate part SUPPORTED (slope -2 over tau >= 10 B, centred residuals, N=64, K=16, H=8).
    Constant part REFUTED for both readings: duplicating one head H times multiplies ||R||_2 by
    sqrt(H) at fixed N, B, R. Witness (review: at large tau, since the theorem is for "tau large
    enough"; the earlier N = 2 witness at tau = 1 had an O(tau^-3) remainder, so it did not
    contradict the bound for tau >= tau_0(H)): N = 3, s = (1, 0, 0) per head, V = (2, -1, -1),
    tau^2 |R_1(tau)| -> 1/9 (mpmath, 50 digits), so tau^2 ||R||_2 -> sqrt(H)/9, unbounded in H.
    """
    gen = ctx.torch_generator("t16")
    Phi, r, _ = random_sinusoid_problem(4, 64, 16, 2, generator=gen, centred=True)
    Q = torch.randn(16, 8, generator=gen, dtype=F64) / 4
    B = float((Phi @ Q).abs().max())
    taus = np.logspace(0, 5, 11)
    vals = [float(_multihead_remainder(Phi, r, Q, t).median()) for t in taus]
    fit = fit_rate(taus, vals, x_min=10 * B)
    rate = fit.evidence(-2, sense="at_most", part="rate", xlabel="tau", ylabel="||R(tau)||_2")
    rate_b = fit.evidence(-2, sense="at_most", part="rate", reading="B", xlabel="tau", ylabel="||R(tau)||_2")
    # Constant: H identical heads, a single head whose remainder is Theta(tau^-2) (N = 3, so the
    # second-order term (beta^2/2) mean((s - s_bar)^2 V) does not vanish as it does for N = 2).
    mpmath.mp.dps = 50
    s_h, V_h = [1, 0, 0], [2, -1, -1]

    def head_rem(tau):
        t = mpmath.mpf(tau)
        w = [mpmath.exp(mpmath.mpf(si) / t) for si in s_h]
        O = sum(wi * vi for wi, vi in zip(w, V_h, strict=True)) / sum(w)
        return abs(O - mpmath.mpf(sum(si * vi for si, vi in zip(s_h, V_h, strict=True))) / (3 * t))

    taus_c = (10, 100, 1000, 10000)
    per_head = {f"1e{int(np.log10(t))}": mpmath.nstr(t**2 * head_rem(t), 12) for t in taus_c}
    lim = mpmath.mpf(1) / 9  # (1/2) mean((s - s_bar)^2 V) = (1/2)(1/3)(2/3)
    Hs = (1, 4, 16, 64, 1024)
    rows = {H: float(mpmath.sqrt(H) * 1000**2 * head_rem(1000)) for H in Hs}
    Phi2 = torch.tensor([[1.0], [0.0], [0.0]], dtype=F64)
    V = torch.tensor([2.0, -1.0, -1.0], dtype=F64)
    checks = {H: float(1000**2 * _multihead_remainder(Phi2, V, torch.ones(1, H, dtype=F64), 1000.0)) for H in (1, 4, 16, 64)}
    cex = {"N": 3, "K": 1, "s_per_head": s_h, "V": V_h, "V_bar": 0, "B": 1, "R": 2, "Q": "ones(1, H)",
           "tau2_head_remainder_mpmath": per_head, "limit_tau2_head_remainder": "1/9",
           "tau2_norm_R_at_tau_1e3_mpmath": rows, "tau2_norm_R_at_tau_1e3_float64": checks}
    out = [rate, rate_b]
    for rd in ("A", "B"):
        out.append(Evidence(Verdict.REFUTED,
                            "C cannot be independent of H: H identical heads (N=3, s=(1,0,0), V=(2,-1,-1) centred, B=1, R=2) "
                            f"have tau^2 ||R(tau)||_2 = sqrt(H) tau^2 |R_1(tau)| -> sqrt(H)/9 as tau -> inf "
                            f"(mpmath: tau^2|R_1| = {', '.join(f'{v} at tau={k}' for k, v in per_head.items())}); "
                            f"at tau=1e3: {', '.join(f'H={h}: {v:.4g}' for h, v in rows.items())} -- unbounded in H for every tau_0",
                            reading=rd, part="constant", counterexample=cex, dtype="mpmath(50 digits), float64 re-check",
                            steps=["each head sees the same logits and values, so R(tau) = R_1(tau) (1,...,1) and "
                                   "||R||_2 = sqrt(H) |R_1(tau)|",
                                   "softmax series: R_1(tau) = tau^-2 (1/2) mean((s - s_bar)^2 V) + O(tau^-3) = tau^-2/9 + ...",
                                   "so sup_{tau >= tau_0} tau^2 ||R||_2 >= sqrt(H)/9 (1 - o(1)), which exceeds any C(N, B, R) "
                                   "for H large"],
                            numbers={"limit": float(lim)}))
    return out


@verify.claim(
    "nfa.appd.readout_update",
    paper=PAPER,
    where="L790-799",
    statement=r"\Delta c=\eta R\,O(\tau)\approx\frac\eta{N\tau}RQ^\top\Phi^\top r \text{ with approximation error } O(\tau^{-2})",
    kind="rate",
    readings={"B": "relative error ||eta R O - eta/(N tau) R Q^T g|| / ||eta/(N tau) R Q^T g|| = O(tau^-2)",
              "C": "rescaled learning rate (leading term = eta g): error O(tau^-2)"},
    expect="SUPPORTED",
)
def readout_update(ctx: verify.Context) -> list[Evidence]:
    """Q = R = I_K, centred residuals: absolute error slope -2 (A, SUPPORTED); relative and
    rescaled-learning-rate errors decay only like tau^-1 (B, C: REFUTED at claimed -2).
    """
    gen = ctx.torch_generator("readout")
    Phi, r, g = random_sinusoid_problem(4, 100, 16, 2, generator=gen, centred=True)
    Q = torch.eye(16, dtype=F64)
    N = 100
    taus = np.logspace(0, 5, 11)
    a, rel, resc = [], [], []
    for t in taus:
        err = _multihead_remainder(Phi, r, Q, t)
        lead = g.norm(dim=-1) / (N * t)
        a.append(float(err.median()))
        rel.append(float((err / lead).median()))
        resc.append(float((N * t * err / g.norm(dim=-1)).median()))
    out = []
    for vals, rd, name in ((a, "A", "absolute"), (rel, "B", "relative"), (resc, "C", "rescaled eta")):
        e = fit_rate(taus, vals, x_min=10).evidence(-2, sense="at_most", reading=rd, xlabel="tau", ylabel=f"{name} error")
        e.summary = f"{name} error: " + e.summary
        out.append(e)
    return out

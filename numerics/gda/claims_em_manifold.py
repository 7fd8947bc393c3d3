"""EM interpretation (Sec. 5), manifolds (Sec. 6), diagnostics and design (Sec. 8)."""

# B023: the lambdas below are consumed immediately (sp.Matrix builders) inside their loop.
# B905: zip() over sequences of equal length by construction.
# ruff: noqa: B023, B905

from __future__ import annotations

import math

import numpy as np
import sympy as sp
import torch

import verify
from verify import Evidence, Verdict

from ._instances import draw_sizes, random_params, tolist
from .attention_head import closed_form_grads, head_forward
from .claims_experiments import _cached_toy, _diverged, _sticky, _toy_logs
from .dynamics import PARAM_NAMES, FreeState, param_grads
from .onestep import free_batch
from .toy import ToySetting, label

PAPER = "gda"


# ------------------------------------------------------------------------------------- EM
@verify.claim(
    "gda.em.disclaimer", paper=PAPER, where="L278; L302; cf. L31, L50, L582, L608", kind="informal",
    statement=r"\text{not as a literal optimization of an explicit latent-variable likelihood, but as a mechanistic correspondence \dots\ this is an interpretive framework: we do not derive a surrogate objective with guaranteed monotonic improvement}",
)
def em_disclaimer(ctx):
    """Meta: the paper defines no test of EM-likeness. The disclaimer (L278, L302) sits beside
    stronger wording elsewhere ('We show that these dynamics implement an implicit EM-like
    algorithm', L31/L50; 'this EM structure is precisely what enables', L31)."""
    return Evidence.informal("interpretive framework, no checkable content; tension recorded: L278/L302 call it an "
                             "interpretive analogy, while L31/L50 say 'we show that these dynamics implement an implicit "
                             "EM-like algorithm' (what is shown is gda.em.e_step / gda.em.m_step: REFUTED as a sign law "
                             "for alpha, and an analogy for the value step)")


@verify.claim(
    "gda.em.responsibilities", paper=PAPER, where="eq. (44), L280-284", kind="identity",
    statement=r"\alpha_{ij}=p(Z_i=j\mid q_i,K;\theta)=\frac{\exp(q_i^\top k_j/\sqrt{d_k})}{\sum_k\exp(q_i^\top k_k/\sqrt{d_k})}",
    expect="PROVED",
)
def em_responsibilities(ctx):
    """PROVED: (44) equals (4)-(5), each row is a probability vector, and (44) is exactly the
    Bayes posterior of a uniform prior over j with likelihood p(q_i | Z_i=j) propto
    exp(q_i.k_j/sqrt(d_k)) (an energy model of the query given the key; the paper states no
    generative model). alpha_i depends on q_i and K only: not on y, u or v."""
    from proofs.gda._model import prove_cases

    T, dk = 3, 2
    q = sp.Matrix(1, dk, lambda _, a: sp.Symbol(f"q_{a}", real=True))
    K = sp.Matrix(T, dk, lambda j, a: sp.Symbol(f"k_{j}{a}", real=True))
    s = [(q * K[j, :].T)[0, 0] / sp.sqrt(dk) for j in range(T)]
    a5 = [sp.exp(s[j]) / sum(sp.exp(s[r]) for r in range(T)) for j in range(T)]
    a44 = [sp.exp((q * K[j, :].T)[0, 0] / sp.sqrt(dk)) / sum(sp.exp((q * K[r, :].T)[0, 0] / sp.sqrt(dk)) for r in range(T))
           for j in range(T)]
    prior = sp.Rational(1, T)
    post = [prior * sp.exp(s[j]) / sum(prior * sp.exp(s[r]) for r in range(T)) for j in range(T)]
    return prove_cases([("(44) = (4)-(5)", sp.Matrix(a44), sp.Matrix(a5)), ("sum_j alpha_ij = 1", sum(a5), sp.Integer(1)),
                        ("Bayes posterior, uniform prior", sp.Matrix(post), sp.Matrix(a5))],
                       generality="T=3, d_k=2", summary="alpha_i is a probability vector in q_i, K only")


@verify.claim(
    "gda.em.m_step", paper=PAPER, where="Sec. 5.2 L292-302; table L325-326", kind="informal",
    statement=r"v_j^{\rm new}=v_j^{\rm old}-\eta\sum_i\alpha_{ij}u_i\ \text{is directly analogous to the M-step }\mu_j^{\rm new}\leftarrow\frac{\sum_iY_{ij}x_i}{\sum_iY_{ij}}",
    readings={"B": "hard attention, squared loss u_i = g_i - t_i, per-value step 1/n_j: one step gives the mean of the assigned targets"},
)
def em_m_step(ctx):
    """Reading B PROVED: with one-hot attention, squared loss and eta_j = 1/n_j the value step
    lands exactly on the mean of the targets routed to j. Reading A (soft alpha, as printed):
    the fixed point of the value step for squared loss is the least-squares solution
    (A^T A)^{-1} A^T T, not the responsibility-weighted mean diag(A^T 1)^{-1} A^T T; the
    deviation is reported. With the CE head there is no data point: u_i = W_O^T(p_i - e_y) plays
    the residual. The analogy itself is interpretive (UNDECIDED)."""
    from proofs.gda._model import prove_cases

    out = []
    n = 3
    t = [sp.Matrix([sp.Symbol(f"t_{i}{a}", real=True) for a in range(2)]) for i in range(n)]
    v = sp.Matrix([sp.Symbol(f"v_{a}", real=True) for a in range(2)])
    u = [v - t[i] for i in range(n)]  # all n queries hard-routed to j; g_i = v_j
    new = v - sp.Rational(1, n) * sum(u, sp.zeros(2, 1))
    out.append(prove_cases([("one step with eta = 1/n_j", new, sum(t, sp.zeros(2, 1)) / n)],
                           generality="n_j = 3 queries, d_v = 2", reading="B",
                           summary="hard attention + squared loss + eta_j = 1/n_j: v_new = mean of assigned targets"))
    g = ctx.torch_generator("m")
    devs = []
    for T in (3, 5, 8):
        S = torch.randn(200, T, T, generator=g, dtype=torch.float64) * 2
        A = torch.softmax(S, -1)
        Tg = torch.randn(200, T, 2, generator=g, dtype=torch.float64)
        V_ls = torch.linalg.lstsq(A, Tg).solution
        V_rw = (A.transpose(-1, -2) @ Tg) / A.sum(-2).unsqueeze(-1)
        devs.append(float(((V_ls - V_rw).norm(dim=(-1, -2)) / V_rw.norm(dim=(-1, -2))).median()))
    out.append(Evidence.informal("interpretive analogy; measured: the stationary V of the soft value step (squared "
                                 "loss) deviates from the responsibility-weighted mean by a median relative "
                                 f"{devs} for T = 3, 5, 8; with CE there is no data point x_i", numbers={"median_rel_dev": devs}))
    return out


@verify.claim(
    "gda.em.manual_em_algorithm", paper=PAPER, where="Sec. 5.3 L304-317; Sec. 7.2 L410-415", kind="experiment",
    statement=r"\text{manual EM: (1) forward pass for }\alpha;\ (2)\ \Delta v_j=-\eta\sum_i\alpha_{ij}u_i\text{ with }q,k\text{ frozen};\ (3)\text{ small SGD step on }W_Q,W_K,W_O.\ \text{In Section 7.2 we compare such an EM-like schedule to standard SGD}",
)
def manual_em_algorithm(ctx):
    """Textual: Sec. 7.2's protocol is one simultaneous step with per-group rates (L413, L415:
    'not alternating'), so it is not the Sec. 5.3 alternation; step (2) there acts on W_V, not on
    free v_j. Numerically the alternating (Sec. 5.3) and simultaneous schedules are compared on
    the toy (views F, P; same seeds)."""
    rows = {}
    for base in (ToySetting(init_std=0.1, lr=0.5, view="F"), ToySetting(init_std=0.1, lr=0.5, view="P")):
        for sched in ("sim", "alt"):
            st = ToySetting(**{**base.__dict__, "schedule": sched})
            lg = _cached_toy(st, 20, ctx.run_seed)
            ok = ~_diverged(lg)
            rows[label(st)] = {"final_loss_median": float(np.median(lg.loss[ok, -1])) if ok.any() else None,
                               "final_entropy": float(np.mean(lg.entropy[ok, -1])) if ok.any() else None}
    return Evidence.undecided("algorithm specification; the Sec. 7.2 protocol (simultaneous, per-group rates, W_V) is not "
                             "the Sec. 5.3 alternation (free v_j, refreshed forward pass); toy comparison in the numbers",
                             numbers=rows, method="experiment")


def _half_life(x: np.ndarray) -> float:
    """First index where x / x[0] <= 0.5."""
    if x[0] <= 0:
        return 0.0
    idx = np.nonzero(x / x[0] <= 0.5)[0]
    return float(idx[0]) if idx.size else float("inf")


@verify.claim(
    "gda.em.two_timescale", paper=PAPER, where="L50; L306-311; L361-368; L452; L582; L605", kind="experiment",
    statement=r"\text{Attention often stabilizes early, while values continue to refine (fast routing, slow values)}",
)
def two_timescale(ctx):
    """On the toy trajectories (every step): half-life of mean-row TV(alpha_t, alpha_final) vs of
    ||V_t - V_final||_F per seed and setting; the claim predicts half-life(alpha) < half-life(V).
    SUPPORTED if that holds for most stable runs, else UNDECIDED ('often' has no threshold). The
    gradient-norm ratio ||grad W_V|| / ||grad W_Q|| over the sticky training is reported (L311)."""
    res, tot, hits = {}, 0, 0
    for st, lg in _toy_logs(ctx):
        ok = ~_diverged(lg)
        h = []
        for s in np.nonzero(ok)[0]:
            tv = 0.5 * np.abs(lg.A[s] - lg.A[s, -1]).sum(-1).mean(-1)
            dv = np.linalg.norm((lg.V[s] - lg.V[s, -1]).reshape(lg.V.shape[1], -1), axis=1)
            ha, hv = _half_life(tv), _half_life(dv)
            h.append(ha < hv)
        res[label(st)] = float(np.mean(h)) if h else None
        tot += len(h)
        hits += int(np.sum(h))
    cfg, log = _sticky(ctx)
    ratio = (log.grad_norms["W_V"] / np.maximum(log.grad_norms["W_Q"], 1e-300)).mean(0)
    share = hits / max(1, tot)
    return Evidence(Verdict.SUPPORTED if share > 0.5 else Verdict.UNDECIDED,
                    f"toy: half-life(alpha) < half-life(V) in {100 * share:.0f}% of {tot} stable runs; sticky: "
                    f"||grad W_V||/||grad W_Q|| from {ratio[0]:.3g} (start) to {ratio[-1]:.3g} (end)",
                    method="experiment", numbers={"share_by_setting": res, "grad_ratio_V_over_Q": ratio[::10].tolist()},
                    seed=ctx.run_seed)


@verify.claim(
    "gda.em.bayes_vs_em", paper=PAPER, where="Sec. 5.5, L331", kind="informal",
    statement=r"\text{EM is an optimization procedure: it produces a point estimate }\theta^*\text{ maximizing (posterior) likelihood}",
    readings={"global": "EM's iterates reach a (global) maximiser of the likelihood",
              "monotone": "EM never decreases the likelihood"},
)
def bayes_vs_em(ctx):
    """Background. Read literally (a maximiser), it is false: EM on a 1-D two-component Gaussian
    mixture started from equal means stays at that symmetric fixed point (a saddle), whose
    likelihood is below that of the separated solution (exact re-check). The monotone-likelihood
    guarantee holds on the runs tried."""
    rng = ctx.numpy_rng("gmm")
    x = np.concatenate([rng.normal(-3, 1, 200), rng.normal(3, 1, 200)])

    def em(mu, iters=200):
        lls = []
        for _ in range(iters):
            d = np.exp(-0.5 * (x[:, None] - mu[None, :]) ** 2) * 0.5
            lls.append(float(np.log(d.sum(1)).sum()))
            r = d / d.sum(1, keepdims=True)
            mu = (r * x[:, None]).sum(0) / r.sum(0)
        return mu, lls

    m_sym, ll_sym = em(np.array([x.mean(), x.mean()]))
    m_sep, ll_sep = em(np.array([-1.0, 1.0]))
    mono = all(b >= a - 1e-9 for a, b in zip(ll_sep, ll_sep[1:])) and all(b >= a - 1e-9 for a, b in zip(ll_sym, ll_sym[1:]))
    out = [Evidence.informal("background statement (point estimate vs Bayesian treatment)")]
    out.append(Evidence(Verdict.REFUTED if ll_sym[-1] < ll_sep[-1] - 1 else Verdict.UNDECIDED,
                        f"EM from equal means stays at mu = {m_sym.round(4).tolist()} (log-lik {ll_sym[-1]:.2f}) while "
                        f"the separated fixed point has {ll_sep[-1]:.2f}", reading="global",
                        counterexample={"data": "400 points, N(-3,1) and N(3,1) halves, seed " + str(ctx.seed),
                                        "init": "mu1 = mu2 = mean(x)", "fixed_point": m_sym.tolist(),
                                        "loglik_stuck": ll_sym[-1], "loglik_better": ll_sep[-1]}))
    out.append(Evidence(Verdict.SUPPORTED if mono else Verdict.REFUTED, "log-likelihood non-decreasing along both runs",
                        reading="monotone", counterexample=None if mono else {"runs": "see numbers"}))
    return out


# ------------------------------------------------------------------------------------ manifolds
@verify.claim(
    "gda.manifold.attention_freezes", paper=PAPER, where="Sec. 6.1 L345; Sec. 6.3 L365", kind="property",
    statement=r"\text{Once score gradients have largely equalized compatibility }(b_{ij}\approx\mathbb E_{\alpha_i}[b]),\ \partial L/\partial s_{ij}\approx0\text{ and attention freezes}",
    readings={"B": "characterisation: dL/ds ~ 0 iff |b_ij - E[b]| ~ 0 for every j with alpha_ij > 0"},
    expect="PROVED",
)
def attention_freezes(ctx):
    """Reading A PROVED: |dL/ds_ij| = alpha_ij |b_ij - E[b]| <= |b_ij - E[b]| (from (23)), and
    (28)-(30) are linear in dL/ds. Reading B REFUTED: a saturated row (T=2, s = (0, -30), b = (0,
    1)) has |dL/ds| ~ 1e-13 while |b_2 - E[b]| ~ 1 (exact re-check with mpmath)."""
    import mpmath as mp

    from proofs.gda._model import prove_cases, sym_head

    h = sym_head(3, 1)
    B = h.b()
    cases = [(f"dL/ds_{i}{k} = alpha (b - E b)", h.d_ds(h.L, i, k), h.alpha[i, k] * (B[i, k] - h.Eb(i)))
             for i in range(3) for k in range(3)]
    out = [prove_cases(cases, generality="T=3 surrogate (T<=4 in gda.routing_gradient)",
                       summary="|dL/ds_ij| = alpha_ij |b_ij - E[b]| <= |b_ij - E[b]|; (28)-(30) linear in dL/ds")]
    mp.mp.dps = 50
    a2 = mp.e ** -30 / (1 + mp.e ** -30)
    Eb = a2 * 1
    ds2 = a2 * (1 - Eb)
    out.append(Evidence(Verdict.REFUTED if ds2 < 1e-12 and (1 - Eb) > 0.99 else Verdict.UNDECIDED,
                        f"saturated row: |dL/ds| <= {mp.nstr(ds2, 5)} but |b_2 - E[b]| = {mp.nstr(1 - Eb, 8)}",
                        reading="B", counterexample={"T": 2, "s_row": [0, -30], "b_row": [0, 1], "alpha_2": mp.nstr(a2, 10),
                                                     "dL/ds_2": mp.nstr(ds2, 10), "b_2-E[b]": mp.nstr(1 - Eb, 10),
                                                     "checked": "mpmath 50 digits"}))
    return out


def values_continue_counterexample() -> dict:
    """Exact: T=2 non-causal, uniform attention (s = 0), v_1 = -v_2, b_O = 0, W_O = [[1],[-1]],
    labels (0, 1): p = (1/2, 1/2), u_1 = -u_2 != 0, ubar_j = 0, grad W_V = 0, L = 2 ln 2 > 0."""
    half = sp.Rational(1, 2)
    W = sp.Matrix([[1], [-1]])
    p = sp.Matrix([half, half])
    u1 = W.T * (p - sp.Matrix([1, 0]))
    u2 = W.T * (p - sp.Matrix([0, 1]))
    A = sp.Matrix([[half, half], [half, half]])
    U = sp.Matrix([[u1[0]], [u2[0]]])
    ubar = A.T * U
    return {"T": 2, "causal": False, "S": [[0, 0], [0, 0]], "V": [["v"], ["-v"]], "W_O": [[1], [-1]], "b_O": [0, 0],
            "y": [0, 1], "u": [str(u1[0]), str(u2[0])], "ubar": [str(x) for x in ubar], "grad_W_V": "ubar^T X = 0",
            "L": "2 ln 2", "exact": True, "_ok": bool(u1[0] != 0 and all(x == 0 for x in ubar))}


def full_stationary_point() -> dict:
    """Exact stationary point of the whole model (every parameter gradient zero) with L > 0, u != 0.

    T=2, d_x=d_k=d_v=1, C=2, non-causal: W_Q = W_K = W_V = 0, W_O = [[1],[-1]], b_O = 0, inputs
    x = (x_1, x_2) symbolic, labels (0, 1). Then v = g = 0, p = (1/2, 1/2), u = (-1, 1), attention
    uniform, ubar = 0, and the full CE loss (9) has zero gradient in W_Q, W_K, W_V, W_O, b_O for
    every x: gradient descent (either view, any eta) never moves the values again although
    L = 2 ln 2 > 0 and u != 0.
    """
    x1, x2, wq, wk, wv, o0, o1, c0, c1 = sp.symbols("x1 x2 w_q w_k w_v o0 o1 c0 c1", real=True)
    X = [x1, x2]
    q = [wq * x for x in X]
    k = [wk * x for x in X]
    v = [wv * x for x in X]
    L = 0
    for i, y in enumerate((0, 1)):
        e = [sp.exp(q[i] * k[j]) for j in range(2)]
        g = sum(e[j] * v[j] for j in range(2)) / sum(e)
        ell = [o0 * g + c0, o1 * g + c1]
        L += -(ell[y] - sp.log(sp.exp(ell[0]) + sp.exp(ell[1])))
    point = {wq: 0, wk: 0, wv: 0, o0: 1, o1: -1, c0: 0, c1: 0}
    grads = {str(w): sp.simplify(sp.diff(L, w).subs(point)) for w in (wq, wk, wv, o0, o1, c0, c1)}
    Lval = sp.simplify(L.subs(point))
    W_O, half = sp.Matrix([[1], [-1]]), sp.Rational(1, 2)
    u = [(W_O.T * (sp.Matrix([half, half]) - sp.Matrix([1 - y, y])))[0, 0] for y in (0, 1)]  # (14), p = (1/2, 1/2)
    return {"T": 2, "d_x": 1, "d_k": 1, "d_v": 1, "C": 2, "causal": False, "W_Q": [[0]], "W_K": [[0]], "W_V": [[0]],
            "W_O": [[1], [-1]], "b_O": [0, 0], "x": "any (x_1, x_2), symbolic", "y": [0, 1],
            "u": [str(x) for x in u], "L": str(Lval), "gradients_at_point": {k: str(v) for k, v in grads.items()},
            "exact": True, "_ok": bool(all(g == 0 for g in grads.values()) and Lval != 0 and any(x != 0 for x in u))}


@verify.claim(
    "gda.manifold.values_continue", paper=PAPER, where="Sec. 6.1 L345-349; Sec. 6.3 L366", kind="property",
    statement=r"\text{unless loss is exactly zero, }u_i\text{ remains non-zero and value updates }\Delta v_j=-\eta\sum_i\alpha_{ij}u_i\text{ continue}",
    expect="REFUTED",
)
def values_continue(ctx):
    """REFUTED. (a) L > 0 does not imply u != 0: W_O with equal rows gives u = 0 identically while
    L = T ln C (exact). (b) u != 0 does not imply a value update: T=2, uniform attention, v_1 = -v_2,
    conflicting labels: u = (-1, 1) but ubar = 0 and grad W_V = 0 at that instant (exact; the
    scores still have a gradient there), and the exact stationary point of the whole model of
    full_stationary_point (all parameter gradients 0, L = 2 ln 2, u != 0), where the values stop
    for good. L = 0 is not attainable with finite parameters (softmax p < 1), so 'unless the
    loss is exactly zero' is vacuous."""
    out = []
    C = 3
    ell = sp.symbols("l0:3", real=True)
    W = sp.Matrix([[1], [1], [1]])
    Z = sum(sp.exp(e) for e in ell)
    # logits W g + b with equal rows: u = W^T (p - e_y) = sum(p) - 1 = 0
    p = sp.Matrix([sp.exp(e) / Z for e in ell])
    u = sp.simplify((W.T * (p - sp.Matrix([1, 0, 0])))[0, 0])
    out.append(Evidence(Verdict.REFUTED if u == 0 else Verdict.UNDECIDED,
                        f"(a) W_O = [1,1,1]^T: u_i = sum_c p_c - 1 = {u} for every state, while L_i = ln 3 > 0 at b_O = 0",
                        method="symbolic", part="(a)", counterexample={"C": C, "d_v": 1, "W_O": [[1], [1], [1]], "b_O": [0, 0, 0],
                                                                        "u_i": str(u), "L_i": "ln 3", "exact": True}))
    ex = values_continue_counterexample()
    ok = ex.pop("_ok")
    out.append(Evidence(Verdict.REFUTED if ok else Verdict.UNDECIDED,
                        "(b) T=2, uniform attention, v_1 = -v_2, labels (0,1): u = (-1, 1) != 0 yet ubar = 0 and "
                        "grad W_V = 0 (both views); L = 2 ln 2", method="symbolic", part="(b)", counterexample=ex))
    sp_ex = full_stationary_point()
    ok2 = sp_ex.pop("_ok")
    out.append(Evidence(Verdict.REFUTED if ok2 else Verdict.UNDECIDED,
                        "(b) exact stationary point of the full model (W_Q = W_K = W_V = 0, W_O = [1,-1]^T, b_O = 0, "
                        f"labels (0,1), any x): every parameter gradient is 0, L = {sp_ex['L']} > 0, u = (-1, 1): values "
                        "never move again under gradient descent", method="symbolic", part="(b)", counterexample=sp_ex))
    # float64 re-check of (b) with the torch head
    S = torch.zeros(1, 2, 2, dtype=torch.float64)
    V = torch.tensor([[[0.7], [-0.7]]], dtype=torch.float64)
    st = FreeState(S, V, torch.tensor([[[1.0], [-1.0]]], dtype=torch.float64), torch.zeros(1, 2, dtype=torch.float64),
                   torch.tensor([[0, 1]]))
    cf = closed_form_grads(st.trace())
    out.append(Evidence(Verdict.REFUTED if float(cf.dV.abs().max()) == 0 and float(cf.U.abs().max()) > 0.5 else Verdict.UNDECIDED,
                        f"(b) float64: max|u| = {float(cf.U.abs().max())}, max|ubar| = {float(cf.dV.abs().max())}",
                        part="(b)", counterexample={"S": [[0, 0], [0, 0]], "V": [[0.7], [-0.7]], "W_O": [[1], [-1]],
                                                    "b_O": [0, 0], "y": [0, 1]}))
    return out


@verify.claim(
    "gda.manifold.frame_precision", paper=PAPER, where="Sec. 6.3 L361-368", kind="property",
    statement=r"\text{frame }(q_i,k_j,\alpha_{ij})\text{ stabilizes when }\partial L/\partial s_{ij}\approx0;\ \text{precision (values) continues to refine as long as }u_i\text{ is non-zero}",
    expect="REFUTED",
)
def frame_precision(ctx):
    """Composite: the first half is gda.manifold.attention_freezes (Reading A proved); the second
    half ("continues to refine as long as u_i is non-zero") is refuted by the exact stationary point
    of the whole model (full_stationary_point: u != 0, every gradient 0), recomputed here."""
    ex = full_stationary_point()
    ok = ex.pop("_ok")
    return Evidence(Verdict.REFUTED if ok else Verdict.UNDECIDED,
                    "second half: at an exact stationary point of the whole model u != 0 (L = 2 ln 2) while every "
                    "gradient, the value update included, is 0 (see gda.manifold.values_continue); first half as "
                    "gda.manifold.attention_freezes; the empirical part is gda.em.two_timescale",
                    method="symbolic", counterexample=ex)


@verify.claim(
    "gda.manifold.low_dim_values", paper=PAPER, where="Sec. 6.1 L339-349; L21; L553; L580; L606", kind="experiment",
    statement=r"\text{Under repeated updates, values come to lie on low-dimensional manifolds parameterized by downstream functionals such as posterior entropy}",
    timeout={"quick": 120, "deep": 3600},
)
def low_dim_values(ctx):
    """Trained sticky model (both protocols): PCA of {v_j} on the probe sequence (PC1 and PC1-2
    variance shares at init and end), correlation of the PC1 coordinate with the Bayes predictive
    entropy (forward filter), and its spread. SUPPORTED only with PC1 >= 0.84 and |r| >= 0.9 (Paper
    I's figures); otherwise UNDECIDED with the numbers (the paper gives no derivation)."""
    from .sticky import transition_matrix

    cfg, log = _sticky(ctx)
    P = transition_matrix(cfg.reading)
    res = {}
    best = (0.0, 0.0)
    for nm in cfg.protocols:
        rows = []
        for r in log.runs(nm):
            s = r % cfg.n_seeds
            X = log.eval_X[s].double().numpy()
            mu = log.mu[s].numpy()
            ent = _bayes_entropies(P, mu, X)
            for tag, W in (("init", log.init["W_V"][s]), ("final", log.final["W_V"][r])):
                V = X @ W.double().numpy().T
                Vc = V - V.mean(0)
                Uu, sv, _ = np.linalg.svd(Vc, full_matrices=False)
                share = sv**2 / (sv**2).sum()
                rr = float(np.corrcoef(Uu[:, 0] * sv[0], ent)[0, 1]) if ent.std() > 0 else float("nan")
                rows.append({"run": r, "when": tag, "PC1": float(share[0]), "PC1-2": float(share[:2].sum()), "r_PC1_entropy": rr})
                if tag == "final":
                    best = max(best, (float(share[0]), abs(rr)))
        res[nm] = rows
    ok = best[0] >= 0.84 and best[1] >= 0.9
    return Evidence(Verdict.SUPPORTED if ok else Verdict.UNDECIDED,
                    f"best final run: PC1 share {best[0]:.2f}, |r(PC1, Bayes entropy)| {best[1]:.2f} (thresholds 0.84 / 0.9 "
                    f"from Paper I); T={cfg.T}", method="experiment", numbers=res, seed=ctx.run_seed)


def _bayes_entropies(P: np.ndarray, mu: np.ndarray, X: np.ndarray) -> np.ndarray:
    C = P.shape[0]
    belief = np.full(C, 1.0 / C)
    out = []
    for t in range(X.shape[0]):
        ll = -0.5 * ((X[t][None, :] - mu) ** 2).sum(-1)
        post = np.log(belief + 1e-300) + ll
        post = np.exp(post - post.max())
        post /= post.sum()
        pred = post @ P
        out.append(float(-(pred * np.log(pred + 1e-300)).sum()))
        belief = pred
    return np.array(out)


@verify.claim(
    "gda.cite.paper1.value_manifold", paper=PAPER, where="Sec. 6.1 L339-343", kind="informal",
    statement=r"\text{[Paper I] PC1 explains 84--90\% of variance, strongly correlated with posterior entropy }(|r|>0.9)",
)
def cite_paper1(ctx):
    """External: numbers quoted from Paper I; not checkable here (recorded for cross-reference)."""
    return Evidence.informal("cited from Paper I (wind tunnels), no setup in this paper: not checkable here",
                             numbers={"PC1_share": "84-90%", "abs_r": ">0.9"})


@verify.claim(
    "gda.manifold.key_orthogonality", paper=PAPER, where="Sec. 6.2 L351-359", kind="property",
    statement=r"(a)\ \partial L/\partial k_j\propto\sum_i\alpha_{ij}(b_{ij}-\mathbb E_{\alpha_i}[b])q_i;\ (b)\text{ keys pushed apart, approximate orthogonality};\ (c)\text{ [Paper I] cosine }0.05\text{--}0.06\text{ vs }0.08\text{ random}",
)
def key_orthogonality(ctx):
    """(a) PROVED (constant 1/sqrt(d_k); = gda.query_key_grad, re-proved at T=2). (b) measured on
    the trained sticky model: mean |cos| and signed cos of per-symbol mean keys, init vs end,
    against random vectors of the same dimension. (c) external; E|cos| of Gaussian vectors is
    sqrt(2/(pi d)), 0.08 at d ~ 100 (signed mean 0)."""
    from proofs.gda._model import prove_cases
    from proofs.gda.identities import _qk_head

    q, k, V, U, L, dS, r = _qk_head(2, 2, 1, False)
    dk = sp.Matrix(2, 2, lambda j, a: sp.diff(L, k[j, a]))
    out = [prove_cases([("dL/dk = dS^T Q / sqrt(d_k)", dk, dS.T * q / r)], generality="T=2, d_k=2 surrogate", part="(a)")]
    cfg, log = _sticky(ctx)
    stats_ = {}
    for tag, W in (("init", log.init["W_K"]), ("final_EM", log.final["W_K"][log.runs("EM")]),
                   ("final_SGD", log.final["W_K"][log.runs("SGD")])):
        cs, ca = [], []
        for s in range(cfg.n_seeds):
            Km = (log.mu[s].float() @ W[s].float().T).double()  # per-symbol mean keys
            N = Km / Km.norm(dim=-1, keepdim=True)
            C = (N @ N.T)[torch.triu_indices(8, 8, 1).unbind()]
            cs.append(float(C.mean()))
            ca.append(float(C.abs().mean()))
        stats_[tag] = {"signed_cos": float(np.mean(cs)), "abs_cos": float(np.mean(ca))}
    stats_["random_abs_cos_d=10"] = math.sqrt(2 / (math.pi * 10))
    d_for_008 = 2 / (math.pi * 0.08**2)
    out.append(Evidence.informal(f"(b) per-symbol mean keys |cos|: init {stats_['init']['abs_cos']:.3f}, EM "
                                 f"{stats_['final_EM']['abs_cos']:.3f}, SGD {stats_['final_SGD']['abs_cos']:.3f} (random d=10: "
                                 f"{stats_['random_abs_cos_d=10']:.3f}); T={cfg.T}", part="(b)", numbers=stats_))
    out.append(Evidence.informal(f"(c) external (Paper I); E|cos| of Gaussian vectors = sqrt(2/(pi d)) equals 0.08 at "
                                 f"d = {d_for_008:.0f}; the signed mean is 0", part="(c)", numbers={"d_for_0.08": d_for_008}))
    return out


# -------------------------------------------------------------------------------- diagnostics
@verify.claim(
    "gda.diag.column_usage_value_norms", paper=PAPER, where="Sec. 8.1 L462-463", kind="informal",
    statement=r"\text{Column usage }\sum_i\alpha_{ij}\text{: low column sums identify underused or dead values. Value norms }\|v_j\|\text{ flag instability}",
    readings={"bound": r"\|\bar u_j\|\le(\sum_i\alpha_{ij})\max_i\|u_i\|"},
)
def column_usage(ctx):
    """Informal monitoring advice; the testable proxy (a column with low usage gets a small update)
    ||ubar_j|| <= (sum_i alpha_ij) max_i ||u_i|| is fuzzed (triangle inequality; SUPPORTED)."""
    from hypothesis import strategies as st

    from verify.numeric import falsify

    from .claims_identities import SIZES

    def prop(*, generator, batch, dtype, device, T, d_x, d_k, d_v, C, log_scale, log_xscale, causal, reduction):
        s = draw_sizes(np.random.default_rng(int(torch.randint(0, 2**31, (1,), generator=generator))), T=(T, T))
        s.causal = causal
        st_ = free_batch(generator, batch, s)
        tr = st_.trace()
        cf = closed_form_grads(tr)
        lhs = cf.dV.norm(dim=-1)
        rhs = tr.A.sum(-2) * cf.U.norm(dim=-1).amax(-1, keepdim=True)
        return ((lhs - rhs) / rhs.clamp_min(1e-300)).clamp_min(0).amax(-1)

    ev = falsify(prop, SIZES | {"T": st.integers(2, 12)}, budget=ctx.pick(quick=5, deep=100), batch=16, seed=ctx.seed)
    ev.reading = "bound"
    return [Evidence.informal("monitoring suggestion, not a checkable statement"), ev]


def layernorm_direction_counterexample() -> dict:
    """Exact, d = 4: v = (1, -1, 1, -1) has mean 0 and std 1, so LN(v) = v (gamma = 1, beta = 0):
    the forward pass, hence the upstream gradient u, is the same with and without LN.

    With u = (2, 0, 0, 2) (already tangent: u.v = 0), the direction v/||v|| moves along
    (I - vhat vhat^T) u = (2, 0, 0, 2) without LN, and along (I - vhat vhat^T) J^T u = (1, -1, -1, 1)
    with LN, J = (gamma/sigma)(I - 11^T/d - n n^T/d): the mean-centring of LN removes the
    component of u along 1, which is tangent to the sphere. cos = 1/sqrt(2).
    """
    d = 4
    v = sp.Matrix([1, -1, 1, -1])
    u = sp.Matrix([2, 0, 0, 2])
    one = sp.ones(d, 1)
    mean = (one.T * v)[0, 0] / d
    sigma = sp.sqrt(((v - mean * one).T * (v - mean * one))[0, 0] / d)
    n = (v - mean * one) / sigma
    J = (sp.eye(d) - one * one.T / d - n * n.T / d) / sigma
    vh = v / sp.sqrt((v.T * v)[0, 0])
    Pt = sp.eye(d) - vh * vh.T
    t_plain, t_ln = Pt * u, Pt * J.T * u
    cos = sp.nsimplify((t_plain.T * t_ln)[0, 0] / sp.sqrt((t_plain.T * t_plain)[0, 0] * (t_ln.T * t_ln)[0, 0]))
    return {"d": d, "v": [int(x) for x in v], "LN(v)": [str(x) for x in n], "u": [int(x) for x in u],
            "tangent_update_without_LN": [str(x) for x in t_plain], "tangent_update_with_LN": [str(x) for x in t_ln],
            "cos": str(cos), "exact": True, "_ok": bool(n == v and cos != 1)}


@verify.claim(
    "gda.reg.layernorm_values", paper=PAPER, where="Sec. 8.2 L467", kind="property",
    statement=r"\text{LayerNorm on values can stabilize norms while leaving directional dynamics intact}",
    readings={"C": "norm part: ||LN(v)|| is bounded",
              "full-update": "the whole pre-LN update of v_j (radial part included) is unchanged by LN",
              "RMSNorm": "Reading A for a scale-only normalisation v / rms(v) (no mean-centring)"},
    expect="REFUTED",
)
def layernorm_values(ctx):
    """Reading A ("directional dynamics" = the first-order motion of the direction v_j/||v_j||,
    compared at a state where LN is the identity, so the upstream gradient is the same): REFUTED
    by the exact d = 4 instance of layernorm_direction_counterexample (cos = 1/sqrt 2): LN's
    mean-centring removes the tangent component along 1. The radial part that LN removes is the
    norm dynamics, so it is not held against Reading A; the stricter reading "full-update" (whole
    update vector, cos < 0.99 on random instances; the Jacobian formula is checked against
    autograd) is reported beside it. Reading "RMSNorm": a scale-only normalisation keeps the
    tangent dynamics up to a positive factor (float64, random instances). Reading C:
    ||LN(v)|| = gamma sqrt(d) exactly (bounded): SUPPORTED."""
    ex = layernorm_direction_counterexample()
    ok = ex.pop("_ok")
    out = [Evidence(Verdict.REFUTED if ok else Verdict.UNDECIDED,
                    f"exact d=4, LN(v) = v = (1,-1,1,-1), upstream u = (2,0,0,2): the direction of v moves along "
                    f"{ex['tangent_update_without_LN']} without LN and {ex['tangent_update_with_LN']} with LN "
                    f"(cos = {ex['cos']}): mean-centring removes a tangent component",
                    method="symbolic", counterexample=ex)]
    g = ctx.torch_generator("ln")
    d = 4
    v = torch.randn(256, d, generator=g, dtype=torch.float64)
    up = torch.randn(256, d, generator=g, dtype=torch.float64)
    v.requires_grad_(True)
    y = torch.nn.functional.layer_norm(v, (d,), eps=0.0)
    (gv,) = torch.autograd.grad((y * up).sum(), v)
    yr = v / v.square().mean(-1, keepdim=True).sqrt()
    (gr,) = torch.autograd.grad((yr * up).sum(), v)
    with torch.no_grad():
        sig = v.std(-1, unbiased=False, keepdim=True)
        n = (v - v.mean(-1, keepdim=True)) / sig
        J = (torch.eye(d, dtype=torch.float64) - 1.0 / d - n.unsqueeze(-1) * n.unsqueeze(-2) / d) / sig.unsqueeze(-1)
        gJ = (J.transpose(-1, -2) @ up.unsqueeze(-1)).squeeze(-1)
        jerr = float(((gJ - gv).norm(dim=-1) / gv.norm(dim=-1)).max())
        cos = (gv * up).sum(-1) / (gv.norm(dim=-1) * up.norm(dim=-1))
        k = int(cos.argmin())
        norms = y.detach().norm(dim=-1)
        vh = v / v.norm(dim=-1, keepdim=True)

        def tangent(w):
            return w - (w * vh).sum(-1, keepdim=True) * vh

        tr_, tu = tangent(gr), tangent(up)
        cos_r = (tr_ * tu).sum(-1) / (tr_.norm(dim=-1) * tu.norm(dim=-1))
    out.append(Evidence(Verdict.REFUTED if float(cos[k]) < 0.99 else Verdict.SUPPORTED,
                        f"cos(update with LN, update without) min {float(cos[k]):.3f}, median {float(cos.median()):.3f}; "
                        f"LN Jacobian formula vs autograd max rel err {jerr:.2e}", reading="full-update",
                        counterexample={"d": d, "v": tolist(v[k].detach()), "upstream": tolist(up[k]), "cos": float(cos[k])}
                        if float(cos[k]) < 0.99 else None, numbers={"jacobian_rel_err": jerr}, dtype="float64"))
    cmin = float(cos_r.min())
    out.append(Evidence(Verdict.SUPPORTED if cmin > 1 - 1e-12 else Verdict.UNDECIDED,
                        f"scale-only normalisation: cos(tangent update with, without) min {cmin:.15f} on 256 instances",
                        reading="RMSNorm", numbers={"min_cos": cmin}, dtype="float64"))
    out.append(Evidence(Verdict.SUPPORTED, f"||LN(v)|| = sqrt(d) = {math.sqrt(d):.3f} (gamma=1): range "
                        f"[{float(norms.min()):.6f}, {float(norms.max()):.6f}]", reading="C"))
    return out


@verify.claim(
    "gda.reg.dropout", paper=PAPER, where="Sec. 8.2 L468", kind="informal",
    statement=r"\text{Attention dropout disrupts the feedback loop, limiting over-specialization and encouraging more evenly used values}",
)
def reg_dropout(ctx):
    """Qualitative design advice without a criterion."""
    return Evidence.informal("qualitative design advice with no quantitative criterion; the optional dropout proxy "
                             "(column-usage Gini vs p) is not run")


@verify.claim(
    "gda.arch", paper=PAPER, where="Sec. 8.3 L471-475", kind="informal",
    statement=r"\text{Multi-head attention allows multiple specialized routing manifolds; depth supports the binding--elimination--refinement hierarchy; residual connections help maintain representations}",
)
def arch(ctx):
    return Evidence.informal("qualitative architectural remarks; the text defines no test")


@verify.claim(
    "gda.reg.small_lr_first_order", paper=PAPER, where="Sec. 8.2 L469", kind="rate",
    statement=r"\text{Learning rate choices modulate the timescale separation between routing and content; smaller learning rates make the first-order picture more accurate}",
    expect="SUPPORTED",
)
def small_lr_first_order(ctx):
    """r(eta) = [L(theta - eta g) - L(theta)] / (-eta ||g||^2) on a random view-P instance:
    |1 - r| = O(eta) (fit_rate slope 1 over [1e-6, 1e-4]); r at eta = 0.01 and 0.1 reported on
    random instances and at the sticky init (mean reduction). The first clause is qualitative."""
    from verify.numeric import rate_evidence

    g = ctx.torch_generator("r")
    s = draw_sizes(ctx.numpy_rng("r"), T=(6, 10), causal=True)
    s.scale, s.x_scale = 0.7, 1.0
    p, X, y = random_params(g, 1, s)
    grads = param_grads(p, X, y, causal=s.causal)
    L0 = head_forward(X, *(p[k] for k in PARAM_NAMES), y, causal=s.causal).loss
    gg = sum(float(v.square().sum()) for v in grads.values())
    etas = np.logspace(-6, -4, 6)
    rs = []
    for e in [*etas, 0.01, 0.1]:
        p2 = {k: p[k] - e * grads[k] for k in PARAM_NAMES}
        L1 = head_forward(X, *(p2[k] for k in PARAM_NAMES), y, causal=s.causal).loss
        rs.append(float((L1 - L0) / (-e * gg)))
    dev = np.abs(1 - np.array(rs[: len(etas)]))
    mono = bool(np.all(np.diff(dev) > 0)) and abs(1 - rs[-1]) > abs(1 - rs[-2]) > dev[-1]
    main = Evidence(Verdict.SUPPORTED if mono else Verdict.REFUTED,
                    f"|1 - r(eta)| increases with eta over [{', '.join(f'{e:.2g}' for e in etas)}] + [0.01, 0.1]; r(0.01) = {rs[-2]:.4f}, "
                    f"r(0.1) = {rs[-1]:.4f} (the Sec. 7 rates)", numbers={"r": rs, "etas": [*etas.tolist(), 0.01, 0.1]},
                    counterexample=None if mono else {"r": rs, "instance_seed": ctx.seed}, seed=ctx.seed)
    ev = rate_evidence(etas, dev, 1.0, reading="rate")
    return [main, ev]

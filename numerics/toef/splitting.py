"""Sec. 2 of the paper, numerically: the Transformer ODE (Def. 1, eq. 1), the MLP as a sum of
heads (Fig. 1), normalization as a linear map (l. 32), parallel vs split layers (eq. 2), the
Lie-Trotter product (Lemma 1) and depth (Lemma 2).

The symbolic halves of ``toef.lemma1_bch_second_order`` and ``toef.eq2_split_vs_parallel``
(exact in the free algebra) are registered in ``proofs/toef/splitting.py``; their numeric
cross-checks are here.
"""

from __future__ import annotations

import math

import numpy as np
import sympy as sp
import torch
from hypothesis import strategies as st
from scipy.integrate import solve_ivp
from scipy.linalg import expm, logm

import verify
from proofs.toef.model import COUNTEREXAMPLE_TOL, PAPER, RATE_MARGIN
from verify import Evidence, Verdict
from verify.numeric import falsify, fit_rate, judge_check, judge_error
from verify.symbolic import refute_exactly

from .model.lie import commutator, lie_trotter
from .model.transformer import TransformerODE
from .model.wirtinger import crandn


def _weights(g: torch.Generator, C: int, C_MLP: int, C_A: int, n: int) -> dict:
    """Real Gaussian weights of eq. (1): ``W_gate, W_in, W_out`` (C x C_MLP), ``Q, K, V, O``
    (n x C x C_A)."""
    def r(*shape: int) -> torch.Tensor:
        return torch.randn(*shape, generator=g, dtype=torch.float64, device=g.device)

    return dict(W_gate=r(C, C_MLP), W_in=r(C, C_MLP), W_out=r(C, C_MLP), Q=r(n, C, C_A),
                K=r(n, C, C_A), V=r(n, C, C_A), O=r(n, C, C_A))


_SIZES = dict(N=st.integers(1, 6), C=st.integers(1, 5), C_MLP=st.integers(1, 6),
              C_A=st.integers(1, 3), n=st.integers(1, 3))


def _smallest_ill_typed(ctx) -> dict | None:
    """The first (C, C_MLP), by increasing C + C_MLP <= 11, where eq. (1) as printed raises."""
    for total in range(3, 12):
        for C in range(1, total):
            C_MLP = total - C
            g = torch.Generator().manual_seed(ctx.subseed("shape", C, C_MLP))
            m = TransformerODE(**_weights(g, C, C_MLP, 1, 1), reading="A")
            try:
                m(torch.randn(1, C, generator=g, dtype=torch.float64, device=g.device))
            except RuntimeError as e:
                return dict(N=1, C=C, C_MLP=C_MLP, C_A=1, n=1, error=str(e).split("\n")[0])
    return None


@verify.claim(
    "toef.def1_transformer_ode", paper=PAPER,
    where="Definition 1, eq. (1) and compact form, L32-40",
    statement=r"\dot X=((XW_\mathrm{gate})\odot\mathrm{ReLU}(XW_\mathrm{in}))W_\mathrm{out}"
              r"+\sum_{i=1}^n\mathrm{Softmax}(C_A^{-1/2}XQ_iK_i^\top X^\top)XV_iO_i^\top"
              r"=\lambda(XW_\mathrm{all})"
              r"W'_\mathrm{all},\ W_\mathrm{gate},W_\mathrm{in},W_\mathrm{out}\in"
              r"\mathbb R^{C\times C_\mathrm{MLP}}",
    kind="property", expect="SUPPORTED",
    readings={"B": r"the same with $W_\mathrm{out}^\top$ (and every output block of "
                   r"$W'_\mathrm{all}$ transposed)"},
    repairs={"B": ("erratum", r"$W_\mathrm{out}^\top$: eq. (1) as printed is ill-typed for "
                          r"$C\neq C_\mathrm{MLP}$")},
)
def def1_transformer_ode(ctx):
    """Eq. (1) as printed multiplies the ``N x C_MLP`` gated activations by ``W_out``
    (``C x C_MLP``): ill-typed unless ``C_MLP == C``; the smallest sizes where it fails are
    searched and reported (REFUTED, reading A). Where defined, the compact form (l. 38) equals
    the expanded one (fuzzed); reading B (``W_out^T``) is defined for every size and
    compact == expanded (SUPPORTED)."""
    bad = _smallest_ill_typed(ctx)
    shapes = judge_check(
        bad is None,
        "eq. (1) well-typed at every size tried" if bad is None else
        r"eq. (1) as printed is ill-typed for $C\neq C_\mathrm{MLP}$: smallest failing sizes "
        rf"N=1, C={bad['C']}, $C_\mathrm{{MLP}}={bad['C_MLP']}$ (an $N\times C_\mathrm{{MLP}}$ "
        r"matrix times a $C\times C_\mathrm{MLP}$ one)",
        counterexample=bad, part="shapes",
        generality="sizes N=1, C + C_MLP <= 11 searched in increasing order")

    def prop(generator, batch, dtype, device, N, C, C_MLP, C_A, n, reading):
        if reading == "A":
            C_MLP = C  # the only shapes where reading A is defined
        m = TransformerODE(**_weights(generator, C, C_MLP, C_A, n), reading=reading)
        X = torch.randn(batch, N, C, generator=generator, dtype=torch.float64,
            device=generator.device).to(dtype)
        a, b = m(X), m.compact(X)
        den = torch.linalg.norm(a, dim=(-2, -1)).clamp_min(1e-300)
        return torch.linalg.norm(a - b, dim=(-2, -1)) / den

    compact = [
        falsify(prop, {**_SIZES, "reading": st.just(reading)}, budget=ctx.pick(15, 150), batch=8,
                tol=1e-12, seed=ctx.subseed("compact", reading))
        .relabel(reading=reading, part="compact == expanded",
                 prefix="where defined (C_MLP = C)" if reading == "A" else None)
        for reading in ("A", "B")
    ]
    return [shapes, *compact]


@verify.claim(
    "toef.fig1_mlp_heads_split", paper=PAPER, where="Figure 1 caption, L26",
    statement=r"((XW_g)\odot\mathrm{ReLU}(XW_i))\widetilde W_o=\sum_{b=1}^h((XW_g^{(b)})\odot"
              r"\mathrm{ReLU}(XW_i^{(b)}))\widetilde W_o^{(b)}",
    kind="property", expect="SUPPORTED",
    readings={"B": r"$\widetilde W_o=W_\mathrm{out}^\top$ (output matrix transposed)"},
)
def fig1_mlp_heads_split(ctx):
    """The wide MLP equals the sum of its column-block heads (the Hadamard product and ReLU act
    column-wise, the output product sums over columns): fuzzed over contiguous and
    non-contiguous partitions; reading A where defined (C_MLP = C), reading B everywhere.
    SUPPORTED."""
    def prop(generator, batch, dtype, device, N, C, C_MLP, h, contiguous, reading):
        if reading == "A":
            C_MLP = C
        h = min(h, C_MLP)

        def r(*shape: int) -> torch.Tensor:
            return torch.randn(*shape, generator=generator, dtype=torch.float64,
                device=generator.device).to(dtype)

        Wg, Wi, Wo = r(C, C_MLP), r(C, C_MLP), r(C, C_MLP)
        Wt = Wo if reading == "A" else Wo.T  # C_MLP x C  (A: C == C_MLP)
        X = r(batch, N, C)
        lhs = ((X @ Wg) * torch.relu(X @ Wi)) @ Wt
        idx = torch.arange(C_MLP) if contiguous else torch.randperm(C_MLP, generator=generator,
            device=generator.device)
        cuts = torch.linspace(0, C_MLP, h + 1).round().long()
        rhs = torch.zeros_like(lhs)
        for b in range(h):
            cols = idx[cuts[b]:cuts[b + 1]]
            rhs = rhs + ((X @ Wg[:, cols]) * torch.relu(X @ Wi[:, cols])) @ Wt[cols, :]
        den = torch.linalg.norm(lhs, dim=(-2, -1)).clamp_min(1e-300)
        return torch.linalg.norm(lhs - rhs, dim=(-2, -1)) / den

    sizes = {"N": st.integers(1, 6), "C": st.integers(1, 5), "C_MLP": st.integers(1, 8),
             "h": st.integers(1, 8), "contiguous": st.booleans()}
    return [
        falsify(prop, {**sizes, "reading": st.just(reading)}, budget=ctx.pick(20, 200), batch=16,
                tol=1e-12, seed=ctx.subseed(reading)).relabel(reading=reading)
        for reading in ("A", "B")
    ]


def _rms(x: torch.Tensor) -> torch.Tensor:
    """RMSNorm without gain or epsilon."""
    return x / torch.sqrt((x**2).mean(-1, keepdim=True))


def _layernorm(x: torch.Tensor) -> torch.Tensor:
    """LayerNorm without affine parameters or epsilon."""
    y = x - x.mean(-1, keepdim=True)
    return y / torch.sqrt((y**2).mean(-1, keepdim=True))


@verify.claim(
    "toef.norm_approx_linear", paper=PAPER, where="Sec. 2.1, L32",
    statement=r"\text{normalization is omitted as it is approximately linear in high dimension: }"
              r"\mathrm N(x+y)\approx\mathrm N(x)+\mathrm N(y),\ "
              r"\mathrm N(ax)\approx a\mathrm N(x)",
    kind="property", expect="REFUTED",
    readings={"B": "with the hypothesis, not in the paper, that N is used only near a typical "
                   "input (perturbations small against |x|): there it is approximately linear, "
                   "its Jacobian close to a multiple of the identity, relative deviation "
                   r"$\to0$ as $C\to\infty$",
              "C": "on i.i.d. Gaussian inputs N(x) is close to one fixed linear map of x"},
    repairs={"B": "overstated"},
)
def norm_approx_linear(ctx):
    """RMSNorm (no gain, no eps) is 0-homogeneous: N(2x) = N(x) != 2 N(x) at every C -- shown at
    C = 4096 (the claim is about high dimension; the error 1/2 does not depend on C), so the
    global reading A is REFUTED. Reading B: ``J = sqrt(C)/|x| (I - xx^T/|x|^2)``, whose
    deviation from ``sqrt(C)/|x| I`` is ``1/sqrt(C-1)`` -> 0 (fitted slope -1/2): SUPPORTED.
    Reading C: the best linear fit on Gaussian samples has relative residual -> 0: SUPPORTED."""
    errs = {}
    for C in (1, 4096):
        x = torch.ones(1, C, dtype=torch.float64)
        lhs, rhs = _rms(2 * x), 2 * _rms(x)
        errs[C] = float(torch.linalg.norm(lhs - rhs) / torch.linalg.norm(rhs))
    homogeneity = judge_error(
        errs[4096], f"RMSNorm homogeneity N(2x) = 2N(x) at C=4096, x = (1,...,1): N(2x) = x, "
        f"2N(x) = 2x (relative error {errs[4096]:.3g}; identical {errs[1]:.3g} at C=1)",
        tol=1e-10, fail=COUNTEREXAMPLE_TOL, part="homogeneity",
        counterexample={"norm": "RMS", "C": 4096, "x": "ones(4096)", "a": 2, "N(ax)": "ones",
                        "a N(x)": "2 ones", "rel_error_by_C": {str(k): v for k, v in errs.items()}})
    g = ctx.torch_generator("ln")
    xs = torch.randn(64, 256, generator=g, dtype=torch.float64, device=g.device)
    ys = torch.randn(64, 256, generator=g, dtype=torch.float64, device=g.device)
    gap = _layernorm(xs + ys) - _layernorm(xs) - _layernorm(ys)
    add = float((torch.linalg.norm(gap, dim=-1)
                 / torch.linalg.norm(_layernorm(xs + ys), dim=-1)).median())
    additivity = judge_error(add, "LayerNorm additivity at C=256 (median over 64 Gaussian pairs)",
                             tol=1e-10, fail=COUNTEREXAMPLE_TOL, part="additivity",
                             counterexample={"norm": "LayerNorm", "C": 256,
                                             "seed": ctx.subseed("ln")})
    Cs = ctx.pick([16, 32, 64, 128, 256], [16, 64, 256, 1024, 4096])
    dev, res = [], []
    for C in Cs:
        xv = torch.randn(C, generator=g, dtype=torch.float64, device=g.device)
        J = torch.autograd.functional.jacobian(_rms, xv, vectorize=True)
        scal = math.sqrt(C) / float(torch.linalg.norm(xv))
        eye = torch.eye(C, dtype=torch.float64, device=xv.device)
        dev.append(float(torch.linalg.norm(J - scal * eye) / torch.linalg.norm(J)))
        M = 4 * C if C <= 256 else 2 * C
        Xs = torch.randn(M, C, generator=g, dtype=torch.float64, device=g.device)
        Ys = _rms(Xs)
        L = torch.linalg.lstsq(Xs, Ys).solution
        res.append(float(torch.linalg.norm(Xs @ L - Ys) / torch.linalg.norm(Ys)))
    generality = f"C in {Cs}; Jacobian singular values: C-1 equal to sqrt(C)/|x|, one zero"
    return [homogeneity, additivity,
            decay_evidence(Cs, dev, "||J - sqrt(C)/|x| I||_F / ||J||_F", reading="B",
                           generality=generality),
            decay_evidence(Cs, res, "best linear fit residual", reading="C",
                           generality=generality)]


def decay_evidence(x: list[float], y: list[float], what: str, **evidence_kw) -> Evidence:
    """Whether ``y`` tends to 0 as ``x`` grows, from the log-log fit over the sweep: SUPPORTED
    when the slope's whole 95% interval is negative, REFUTED (the sweep as counterexample) when
    it is nowhere negative, UNDECIDED when it straddles 0. No rate is claimed, so this is not
    the engine's claimed-slope rule."""
    fit = fit_rate(x, y)
    lo, hi = fit.ci
    text = (f"{what}: slope {fit.slope:.3f} CI [{lo:.3f}, {hi:.3f}], values "
            f"{[f'{v:.3g}' for v in y]} at x = {list(x)}")
    kw = dict(method="numeric", numbers=fit.numbers(), dtype="float64",
              figures=[fit.figure(None, xlabel="C", ylabel=what)], **evidence_kw)
    if hi < 0:
        return Evidence(Verdict.SUPPORTED, f"decays: {text}", **kw)
    if lo >= 0:
        return Evidence(Verdict.REFUTED, f"does not decay: {text}",
                        counterexample={"x": list(x), "y": list(y), "ci": [lo, hi]}, **kw)
    return Evidence(Verdict.UNDECIDED, f"interval straddles 0: {text}", **kw)


def _unit(M: torch.Tensor) -> torch.Tensor:
    return M / torch.linalg.norm(M)


@verify.evidence_for("toef.eq2_split_vs_parallel")
def eq2_numeric(ctx):
    """Gaps e1, e2, e3 of eq. (2) are O(h^2) (fitted slopes ~2) and e2/h^2 -> ||[A,B]||/2: the
    approximations become equal as h -> 0. The "if" direction of the iff: commuting pairs give
    e2 at round-off for all h (polynomials in a unit-norm M: with M of norm ~4 the exponents
    reach norm ~40, where float64 exponentials lose ~1e-11 relative). Reading B (fixed h = 1):
    the exact 2x2 pair of the symbolic check, in complex128."""
    g = ctx.torch_generator("pair")
    d = 4
    A, B = _unit(crandn(d, d, generator=g)), _unit(crandn(d, d, generator=g))
    eye = torch.eye(d, dtype=torch.complex128, device=A.device)
    E = torch.linalg.matrix_exp
    hs = np.logspace(-1, -3, ctx.pick(7, 13))
    e1, e2, e3 = [], [], []
    for h in hs:
        e1.append(float(torch.linalg.norm(eye + h * (A + B) - E(h * (A + B)))))
        e2.append(float(torch.linalg.norm(E(h * (A + B)) - E(h * A) @ E(h * B))))
        e3.append(float(torch.linalg.norm(E(h * A) @ E(h * B) - (eye + h * A) @ (eye + h * B))))
    out = [fit_rate(hs, ys).evidence(2.0, margin=RATE_MARGIN, part=f"gap {name} = O(h^2)",
                                     xlabel="h", ylabel=name, dtype="complex128")
           for name, ys in (("e1", e1), ("e2", e2), ("e3", e3))]
    pred = 0.5 * float(torch.linalg.norm(commutator(A, B)))
    ratio = e2[-1] / hs[-1] ** 2
    out.append(judge_error(abs(ratio - pred) / pred,
                           f"e2/h^2 at h={hs[-1]:.0e} vs ||[A,B]||/2 = {pred:.4f}", tol=1e-2,
                           fail=0.1, part="e2/h^2 -> ||[A,B]||/2",
                           counterexample={"h": hs[-1], "ratio": ratio, "pred": pred}))
    worst = 0.0
    for _k in range(ctx.pick(20, 200)):
        M = _unit(crandn(d, d, generator=g))
        P, Qm = M @ M + 0.5 * M, 2.0 * M - M @ M @ M / 3
        for h in (1.0, 0.3, 0.01):
            L, R = E(h * (P + Qm)), E(h * P) @ E(h * Qm)
            worst = max(worst, float(torch.linalg.norm(L - R) / torch.linalg.norm(L)))
    out.append(judge_error(worst, "commuting pairs (polynomials in one matrix), h in {1, 0.3, "
                           "0.01}: $e^{h(A+B)} = e^{hA}e^{hB}$", tol=1e-11, fail=COUNTEREXAMPLE_TOL,
                           part="iff, 'if' direction"))
    tp = 2 * math.pi * 1j
    A2 = torch.tensor([[0, 0], [0, tp]], dtype=torch.complex128)
    B2 = torch.tensor([[0, 1], [0, tp]], dtype=torch.complex128)
    gap = float(torch.linalg.norm(E(A2 + B2) - E(A2) @ E(B2)))
    comm = float(torch.linalg.norm(commutator(A2, B2)))
    out.append(fixed_h_evidence(gap, comm))
    return out


def fixed_h_evidence(gap: float, comm: float) -> Evidence:
    """Reading B (fixed h = 1, "equal iff [A, B] = 0") at the 2x2 pair A = diag(0, 2 pi i),
    B = [[0, 1], [0, 2 pi i]]: REFUTED when ``||e^(A+B) - e^A e^B||`` (``gap``) is at round-off
    below 1e-12 while ``||[A, B]||`` (``comm``) exceeds 1, else UNDECIDED."""
    if gap < 1e-12 and comm > 1:
        return Evidence(
            Verdict.REFUTED, f"h=1: A=diag(0,2 pi i), B=[[0,1],[0,2 pi i]] have ||[A,B]|| = "
            f"{comm:.3f} yet ||e^(A+B) - e^A e^B|| = {gap:.1e} (all three exponentials equal I)",
            method="numeric", reading="B", dtype="complex128",
            counterexample={"A": "[[0,0],[0,2*pi*i]]", "B": "[[0,1],[0,2*pi*i]]", "h": 1,
                            "commutator_norm": comm, "gap_complex128": gap,
                            "exact": "the symbolic check re-derives e^A = e^B = e^(A+B) = I"})
    return Evidence.undecided(f"complex128: ||e^(A+B) - e^A e^B|| = {gap:.1e}, "
                              f"||[A,B]|| = {comm:.3f}", method="numeric", reading="B")


@verify.claim(
    "toef.lemma1_lie_trotter", paper=PAPER, where="Lemma 1, L52; restated L176; proof L178",
    statement=r"e^{\lambda_\mathrm{MLP}+\lambda_A}=\lim_{T\to\infty}\big(e^{\lambda_\mathrm{MLP}/T}"
              r"e^{\lambda_A/T}\big)^T",
    kind="rate", expect="SUPPORTED",
    readings={"B": r"$\lambda$'s nonlinear vector fields, $e^\lambda$ the time-1 flow (MLP flow "
                   r"first in each factor)"},
)
def lemma1_lie_trotter(ctx):
    """(A) random complex 4x4 matrices: err_T -> 0 with fitted slope -1 (the O(1/T) rate of
    l. 186/192). (B) a linear field plus the shear field (x2^2, 0), whose flows are exact,
    composed T times, against a DOP853 reference (rtol 1e-12): err_T -> 0, slope -1, both
    composition orders. The appendix proof (l. 178: BCH to second order) does not by itself
    bound the T-fold product; a complete proof also needs the telescoping/stability estimate.
    SUPPORTED: the fitted slopes (-0.999 for matrices, -0.995 and -1.005 for the flows) have
    95% intervals of width < 0.01 that lie within the margin 0.3 of -1 (``RateFit.evidence``);
    not PROVED, since the rate is measured, not derived."""
    g = ctx.torch_generator("AB")
    A, B = crandn(4, 4, generator=g), crandn(4, 4, generator=g)
    ref = torch.linalg.matrix_exp(A + B)
    Ts = ctx.pick([4, 8, 16, 32, 64, 128, 256, 512, 1024],
                  [4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096])
    errs = [float(torch.linalg.norm(lie_trotter(A, B, T) - ref) / torch.linalg.norm(ref))
            for T in Ts]
    out = [fit_rate(Ts, errs, x_min=16).evidence(
        -1.0, margin=RATE_MARGIN, part="main", xlabel="T", ylabel="rel. error",
        dtype="complex128").relabel(prefix=f"matrices: err_T {errs[0]:.2e} -> {errs[-1]:.2e}")]
    M = np.array([[-0.3, 1.0], [-1.0, -0.2]])
    s = 0.5
    x0 = np.array([0.7, -0.4])

    def rhs(_t: float, x: np.ndarray) -> np.ndarray:
        return M @ x + np.array([s * x[1] ** 2, 0.0])

    xref = solve_ivp(rhs, (0, 1), x0, method="DOP853", rtol=1e-12, atol=1e-14).y[:, -1]
    Ts2 = ctx.pick([8, 16, 32, 64, 128, 256], [8, 16, 32, 64, 128, 256, 512, 1024, 2048])
    for mlp_first in (True, False):
        errs2 = []
        for T in Ts2:
            eM = expm(M / T)
            x = x0.copy()
            for _ in range(T):
                if mlp_first:
                    x = eM @ x
                    x = np.array([x[0] + s / T * x[1] ** 2, x[1]])
                else:
                    x = np.array([x[0] + s / T * x[1] ** 2, x[1]])
                    x = eM @ x
            errs2.append(float(np.linalg.norm(x - xref) / np.linalg.norm(xref)))
        order = "MLP flow first" if mlp_first else "attention flow first"
        out.append(fit_rate(Ts2, errs2).evidence(
            -1.0, margin=RATE_MARGIN, reading="B", part=order, xlabel="T", ylabel="rel. error")
            .relabel(prefix=f"flows ({order}): err_T {errs2[0]:.2e} -> {errs2[-1]:.2e}"))
    return out


@verify.evidence_for("toef.lemma1_bch_second_order")
def lemma1_bch_numeric(ctx):
    """``||r2||/t^3 -> ||c3||`` (fitted slope 3) and ``||r3||`` of order ``t^4`` (logm of
    expm products, complex128)."""
    g = ctx.torch_generator("AB")
    A, B = crandn(3, 3, generator=g).cpu().numpy(), crandn(3, 3, generator=g).cpu().numpy()

    def cm(X: np.ndarray, Y: np.ndarray) -> np.ndarray:
        return X @ Y - Y @ X

    c3 = (cm(A, cm(A, B)) + cm(B, cm(B, A))) / 12
    ts = [0.2, 0.1, 0.05, 0.025, 0.0125]
    r2s, r3s = [], []
    for t in ts:
        Lg = logm(expm(t * A) @ expm(t * B))
        r2 = Lg - t * (A + B) - t**2 / 2 * cm(A, B)
        r2s.append(np.linalg.norm(r2))
        r3s.append(np.linalg.norm(r2 - c3 * t**3))
    ratio = r2s[-1] / ts[-1] ** 3
    c3n = float(np.linalg.norm(c3))
    second = fit_rate(ts, r2s).evidence(
        3.0, margin=RATE_MARGIN, xlabel="t", ylabel="||r2||", dtype="complex128").relabel(
        prefix=f"||r2||/t^3 = {ratio:.4f} at t={ts[-1]} vs ||c3|| = {c3n:.4f}")
    third = fit_rate(ts, r3s).evidence(4.0, margin=RATE_MARGIN, xlabel="t", ylabel="||r3||",
                                       dtype="complex128", part="degree-3 reference term")
    return [second, third]


@verify.claim(
    "toef.lemma2_depth", paper=PAPER, where="Lemma 2, L54-56; restated L180-182; proof L184-192",
    statement=r"\lim_{T\to\infty}\prod_{t=0}^{T-1}(1+\lambda_\mathrm{MLP}^{W(t/T)})(1+\lambda_A^"
              r"{W(t/T)})=\lim_{T\to\infty}\prod_{t=0}^{T-1}(1+\lambda_\mathrm{MLP}^{W(t/T)}+"
              r"\lambda_A^{W(t/T)})",
    kind="rate", expect="SUPPORTED",
    readings={"B": r"every $\lambda$ replaced by $\lambda/T$ (step $1/T$, as in the proof, "
                   r"l. 186-190); both schemes converge to the time-ordered flow with error "
                   r"$O(1/T)$"},
    repairs={"B": ("erratum", "each lambda scaled by 1/T (step 1/T), as "
                              "the proof (L186-190) does")},
)
def lemma2_depth(ctx):
    """Reading A (as printed, no 1/T): scalar generators a = -1, b = 1 (N = C = 1) give split
    ((1+a)(1+b))^T = 0 and parallel (1+a+b)^T = 1 for every T: both limits exist and differ
    (exact, SymPy limits) -> REFUTED; for generic a, b the limits do not even exist.
    Reading B: with nonlinear time-dependent fields X M(t) and s X A(t) X^T X B(t), split and
    parallel Euler both converge to the DOP853 reference with fitted slope -1. The one-step
    expansion of l. 190 is exact only for linear maps (composition of nonlinear maps adds
    O(h^2) terms DF_A . F_M, not the product lambda_MLP lambda_A)."""
    a, b = -1, 1
    T = sp.Symbol("T", positive=True, integer=True)
    split_limit = sp.limit(((1 + a) * (1 + b)) ** T, T, sp.oo)
    parallel_limit = sp.limit((1 + a + b) ** T, T, sp.oo)
    out = [refute_exactly(
        r"scalars $\lambda_\mathrm{MLP}X=-X$, $\lambda_AX=X$ (N=C=1): split product "
        r"$((1-1)(1+1))^T=0$, parallel product $(1-1+1)^T=1$ for all T; limits "
        rf"${split_limit}\neq{parallel_limit}$",
        {"N": 1, "C": 1, "a": a, "b": b, "split_T": "0 for every T", "parallel_T": "1 for every T"},
        lhs=split_limit, rhs=parallel_limit, generality="exact (SymPy limits of the products)")]
    rng = ctx.numpy_rng("W")
    C, N, s = 2, 2, 0.3
    M0, M1 = rng.standard_normal((C, C)) * 0.5, rng.standard_normal((C, C)) * 0.5
    A0, B0 = rng.standard_normal((C, C)), rng.standard_normal((C, C))

    def f_mlp(t: float, X: np.ndarray) -> np.ndarray:
        return X @ (M0 + np.sin(2 * t) * M1)

    def f_att(t: float, X: np.ndarray) -> np.ndarray:
        return s * X @ (A0 * np.cos(t)) @ X.T @ X @ B0

    X0 = rng.standard_normal((N, C)) * 0.5
    sol = solve_ivp(lambda t, y: (f_mlp(t, y.reshape(N, C)) + f_att(t, y.reshape(N, C))).ravel(),
                    (0, 1), X0.ravel(), method="DOP853", rtol=1e-12, atol=1e-14)
    Xref = sol.y[:, -1].reshape(N, C)
    Ts = ctx.pick([8, 16, 32, 64, 128, 256, 512], [8, 16, 32, 64, 128, 256, 512, 1024, 2048])
    es, ep, esp = [], [], []
    for T_ in Ts:
        Xs, Xp = X0.copy(), X0.copy()
        for k in range(T_):
            t = k / T_
            Y = Xs + f_mlp(t, Xs) / T_
            Xs = Y + f_att(t, Y) / T_
            Xp = Xp + (f_mlp(t, Xp) + f_att(t, Xp)) / T_
        nrm = np.linalg.norm(Xref)
        es.append(np.linalg.norm(Xs - Xref) / nrm)
        ep.append(np.linalg.norm(Xp - Xref) / nrm)
        esp.append(np.linalg.norm(Xs - Xp) / nrm)
    for name, ys in (("split scheme vs the time-ordered flow", es),
                     ("parallel scheme vs the time-ordered flow", ep),
                     ("split vs parallel scheme", esp)):
        out.append(fit_rate(Ts, ys, x_min=16).evidence(
            -1.0, margin=RATE_MARGIN, reading="B", part=name, xlabel="T", ylabel="relative error")
            .relabel(prefix=f"{name}: T times the error at T = {Ts[-1]}: {Ts[-1] * ys[-1]:.4f}"))
    return out

"""Claims of Sec. 2.3-3 (variational form, linearised Transformer, axioms, canonical form): groups B-D."""

from __future__ import annotations

import math

import numpy as np
import torch
from hypothesis import strategies as st
from scipy.integrate import quad

import verify
from verify import Evidence, Verdict
from verify.numeric import falsify

from ._common import PAPER, judge, refuted
from .potentials import H, lemma3_potential, lse_potential
from .transformer import LinearizedTransformer, softmax_rows
from .wirtinger import closedness_defect, crandn, dV_dXbar, random_unitary, rel_err


# ---------------------------------------------------------------------------------------- B
def first_variation(w: complex, x0: complex, e: complex, eps: float = 1e-4) -> float:
    """Central difference of S (eq. 3, N = C = 1, V = w |x|^2) along x(t) = x0 e^{wt} (the flow of
    xdot = dV/dxb = w x) in the direction delta(t) = sin(pi t) e (vanishing at both ends)."""
    def S(s: float) -> complex:
        def integrand(t: float) -> complex:
            xt = x0 * np.exp(w * t) + s * math.sin(math.pi * t) * e
            xd = x0 * w * np.exp(w * t) + s * math.pi * math.cos(math.pi * t) * e
            return 0.5 * (xd * np.conj(xt) - xt * np.conj(xd)) - w * xt * np.conj(xt)
        re = quad(lambda t: integrand(t).real, 0, 1, epsabs=1e-14, epsrel=1e-13)[0]
        im = quad(lambda t: integrand(t).imag, 0, 1, epsabs=1e-14, epsrel=1e-13)[0]
        return re + 1j * im
    return abs((S(eps) - S(-eps)) / (2 * eps))


@verify.evidence_for("toef.def2_euler_lagrange")
def def2_first_variation(ctx):
    """(iii) numerically: along xdot = w x (V = w|x|^2), delta S = 0 for imaginary w (stationary) and
    |delta S| ~ 1 for real w (REFUTED: the flow does not extremize S)."""
    dS_im = first_variation(1j, 1.0, 1.0)
    dS_re = first_variation(1.0, 1.0, 1.0)
    out = [judge(dS_im, "V = i|x|^2 (imaginary): first variation |dS| along the flow", tol=1e-6,
                 part="(iii) stationarity, imaginary V")]
    out.append(judge(-dS_re, "", tol=1e-6) if dS_re < 1e-2 else refuted(
        f"V = |x|^2 (real): |dS| = {dS_re:.4f} along the flow x = e^t for delta = sin(pi t)", part="(iii) stationarity",
        counterexample={"N": 1, "C": 1, "V": "|x|^2", "x0": 1, "delta": "sin(pi t)", "eps": 1e-4, "dS": dS_re}))
    return out


@verify.claim(
    "toef.def3_structural_optimality", paper=PAPER, where="Definition 3, L70; Contribution, L17",
    statement=r"\text{An architecture }X\text{ is structurally optimal w.r.t. }V\text{ if it extremizes the action of the path "
              r"}X(t)\text{; Def-4 Transformers with a potential are structurally optimal}",
    kind="property", expect="REFUTED",
    readings={"B": "only for purely imaginary V (W anti-Hermitian, imaginary quartic coefficients)"},
)
def def3_structural_optimality(ctx):
    """First variation of S (central differences, adaptive quadrature, variations vanishing at both
    ends) along Def-4 flows with N = C = 1: V = w|x|^2 + kappa|x|^4.  Real V (w = 1): |dS| ~ 1:
    REFUTED.  Purely imaginary V (w = i): dS = 0 (reading B, SUPPORTED).  With both endpoints
    prescribed the first-order flow generally cannot reach them (X(1) = e^w X(0) is forced)."""
    dS_re = first_variation(1.0, 1.0, 1.0 + 0.5j)
    dS_im = first_variation(1j, 1.0, 1.0 + 0.5j)
    dS_gen = first_variation(0.3 + 0.7j, 1.0, 1.0 + 0.5j)
    out = []
    if dS_re >= 1e-2:
        out.append(refuted(f"real V = |x|^2 (W = 1): |dS| = {dS_re:.4f} != 0 along the Def-4 flow x = e^t; "
                           f"generic w = 0.3+0.7i: |dS| = {dS_gen:.4f}",
                           {"N": 1, "C": 1, "W": 1, "x0": 1, "delta": "sin(pi t)*(1+0.5i)", "dS": dS_re,
                            "recheck": "scipy quad, epsrel 1e-13"}))
    out.append(judge(dS_im, "imaginary V = i|x|^2: |dS| along the flow", tol=1e-6, reading="B"))
    return out


# ---------------------------------------------------------------------------------------- C
def _def4(g: torch.Generator, N: int, C: int, C_MLP: int, C_A: int, n: int, scale: float = 1.0):
    r = lambda *s: crandn(*s, generator=g, scale=scale)  # noqa: E731
    return LinearizedTransformer(r(C, C_MLP), r(C, C_MLP), r(n, C, C_A), r(n, C, C_A), r(n, C, C_A), r(n, C, C_A))


@verify.claim(
    "toef.def4_linearized_transformer", paper=PAPER, where="Definition 4, eq. (4), L78-82",
    statement=r"\dot X=XW_{\rm in}W_{\rm out}^*+\sum_{i=1}^nC_A^{-1/2}XQ_iK_i^*X^*XV_iO_i^*",
    kind="property", expect="SUPPORTED",
)
def def4_linearized_transformer(ctx):
    """Eq. (4) as a module: shapes (N x C in, N x C out) and the associativity identity
    XQK^*X^*XVO^* = X (QK^* X^*X VO^*) (the field is X times a function of the Gram matrix), fuzzed
    in complex128: SUPPORTED."""
    def prop(generator, batch, dtype, device, N, C, C_MLP, C_A, n, scale):
        m = _def4(generator, N, C, C_MLP, C_A, n)
        X = crandn(batch, N, C, generator=generator, scale=scale)
        a, b = m(X), m.forward_gram(X)
        bad_shape = 0.0 if a.shape == X.shape else 1.0
        return torch.linalg.norm(a - b, dim=(-2, -1)) / torch.linalg.norm(a, dim=(-2, -1)).clamp_min(1e-300) + bad_shape

    return falsify(prop, {"N": st.integers(1, 6), "C": st.integers(1, 5), "C_MLP": st.integers(1, 6),
                          "C_A": st.integers(1, 3), "n": st.integers(1, 3), "scale": st.floats(0.05, 2.0)},
                   budget=ctx.pick(20, 200), batch=16, tol=1e-12, seed=ctx.subseed("def4"))


def _paired(g: torch.Generator, C: int, C_A: int, h: int, hermitian: bool = False):
    """Heads with the pairing Q_i K_i^* = V_{i+h} O_{i+h}^*, Q_{i+h} K_{i+h}^* = V_i O_i^* (rank-C_A products)."""
    Q = crandn(2 * h, C, C_A, generator=g)
    K = crandn(2 * h, C, C_A, generator=g)
    V = torch.empty_like(Q)
    O = torch.empty_like(Q)  # noqa: E741
    for i in range(h):
        if hermitian:  # Q_{i+h} K_{i+h}^* = V_i O_i^* Hermitian: take K = Q
            K[i + h] = Q[i + h]
        V[i + h], O[i + h] = Q[i], K[i]
        V[i], O[i] = Q[i + h], K[i + h]
    return Q, K, V, O


@verify.evidence_for("toef.lemma3_wirtinger_linear_attention")
def lemma3_numeric(ctx):
    """torch complex autograd: dV/dX^* of the Lemma-3 potential vs eq. (4) with paired heads, fuzzed over
    shapes, seeds and scales; reading B (W_B = O V^*) for every pairing, reading A with Hermitian V O^*."""
    def prop(generator, batch, dtype, device, N, C, C_A, h, scale, reading):
        Q, K, V, O = _paired(generator, C, C_A, h, hermitian=(reading == "A"))  # noqa: E741
        C_MLP = 2
        Win, Wout = crandn(C, C_MLP, generator=generator), crandn(C, C_MLP, generator=generator)
        m = LinearizedTransformer(Win, Wout, Q, K, V, O)
        heads = m.heads()
        pairs = []
        for i in range(h):
            A, B = heads[i]
            WB = H(B) if reading == "B" else B  # reading A: W_B = V O^* (Hermitian here)
            pairs.append((A, WB))
        pot = lemma3_potential(Win @ H(Wout), pairs, C_A)
        errs = []
        for _ in range(batch):
            X = crandn(N, C, generator=generator, scale=scale)
            errs.append(rel_err(dV_dXbar(pot, X), m(X)))
        return torch.tensor(errs, dtype=torch.float64)

    out = []
    for r in ("A", "B"):
        ev = falsify(prop, {"N": st.integers(1, 5), "C": st.integers(1, 4), "C_A": st.integers(1, 3),
                            "h": st.integers(1, 2), "scale": st.floats(0.05, 2.0), "reading": st.just(r)},
                     budget=ctx.pick(6, 100), batch=2, tol=1e-10, seed=ctx.subseed("l3", r))
        ev.reading = r
        out.append(ev)
    return out


def _head_class(g: torch.Generator, cls: str, C: int, n: int) -> list[tuple[torch.Tensor, torch.Tensor]]:
    r = lambda: crandn(C, C, generator=g)  # noqa: E731
    if cls == "paired":
        As = [r() for _ in range(n // 2)]
        Bs = [r() for _ in range(n // 2)]
        return [(A, B) for A, B in zip(As, Bs, strict=True)] + [(B, A) for A, B in zip(As, Bs, strict=True)]
    if cls == "tied":
        return [(M, M) for M in (r() for _ in range(n))]
    if cls == "scaled":
        c = complex(torch.randn(1, generator=g).item(), torch.randn(1, generator=g).item())
        return [(M, c * M) for M in (r() for _ in range(n))]
    return [(r(), r()) for _ in range(n)]


def _attn(heads):
    def F(X: torch.Tensor) -> torch.Tensor:
        out = 0
        for A, B in heads:
            out = out + X @ A @ H(X) @ X @ B
        return out
    return F


@verify.claim(
    "toef.lemma3_pairing_necessity", paper=PAPER, where="remark after Lemma 3, L90; Theorem 5 proof L256; L210",
    statement=r"\text{without }Q_iK_i^*=V_{i+n/2}O_{i+n/2}^*,\ Q_{i+n/2}K_{i+n/2}^*=V_iO_i^*\text{ the potential is not "
              r"guaranteed to exist}",
    kind="property", expect="SUPPORTED",
    readings={"B": "strong: the pairing with n even is necessary for the attention part of eq. (4) to have a potential"},
)
def lemma3_pairing_necessity(ctx):
    """Closedness defect ||J - J^T||/||J|| of the conjugate Jacobian (complex128) per class: paired,
    tied (V O^* = Q K^*, any n, also odd), scaled (V O^* = c Q K^*), untied.  Reading A (weak): paired heads
    are closed and random untied heads are not: SUPPORTED.  Reading B (strong): one tied head (n = 1,
    odd, no pairing) is closed: N = C = 1 ... and at N = 2, C = 2: REFUTED."""
    g = ctx.torch_generator("heads")
    res: dict[str, float] = {}
    for cls, n in (("paired", 2), ("tied", 1), ("tied", 3), ("untied", 2), ("scaled", 1)):
        worst_lo, worst_hi = 0.0, math.inf
        for N, C in ((2, 2), (3, 2), (2, 3)):
            heads = _head_class(g, cls, C, n)
            d = closedness_defect(_attn(heads), crandn(N, C, generator=g))
            worst_lo, worst_hi = max(worst_lo, d), min(worst_hi, d)
        res[f"{cls}, n={n}"] = worst_lo if cls != "untied" else worst_hi
    out = []
    ok_w = res["paired, n=2"] <= 1e-10 and res["untied, n=2"] >= 1e-3
    out.append(Evidence(Verdict.SUPPORTED if ok_w else Verdict.UNDECIDED,
                        f"paired heads closed (defect {res['paired, n=2']:.1e}); untied heads not closed "
                        f"(defect >= {res['untied, n=2']:.2f})", method="numeric", numbers=res, dtype="complex128"))
    d1 = closedness_defect(_attn([(torch.ones(1, 1, dtype=torch.complex128),) * 2]),
                           torch.ones(1, 1, dtype=torch.complex128))
    if res["tied, n=1"] <= 1e-10:
        out.append(refuted(f"a single tied head (n = 1 odd, V O^* = Q K^*, no pairing) is closed: defect "
                           f"{res['tied, n=1']:.1e} at N=2, C=2; at N=C=1 with Q=K=V=O=1 the field |x|^2 x is "
                           f"dV/dX^* of V = |x|^4/2 (defect {d1:.1e})", reading="B", dtype="complex128",
                           counterexample={"N": 1, "C": 1, "n": 1, "Q": 1, "K": 1, "V": 1, "O": 1,
                                           "potential": "|x|^4/2", "defect_N2_C2": res["tied, n=1"]}))
    return out


@verify.evidence_for("toef.potential_existence_criterion")
def criterion_numeric(ctx):
    """torch: closedness defect vs the tensor condition sum A(x)B = sum B(x)A on random head sets (N = 3, C = 2)."""
    g = ctx.torch_generator("crit")
    worst = 0.0
    for cls, n in (("paired", 2), ("tied", 1), ("tied", 3), ("untied", 2), ("scaled", 2), ("untied", 1)):
        for _ in range(ctx.pick(1, 20)):
            heads = _head_class(g, cls, 2, n)
            T = sum(torch.kron(A, B) for A, B in heads)
            Ts = sum(torch.kron(B, A) for A, B in heads)
            tens = float(torch.linalg.norm(T - Ts) / torch.linalg.norm(T))
            d = closedness_defect(_attn(heads), crandn(3, 2, generator=g))
            agree = (tens < 1e-10) == (d < 1e-10)
            worst = max(worst, 0.0 if agree else 1.0)
    return judge(worst, "closedness <=> tensor symmetry on paired/tied/scaled/untied heads (N=3, C=2)", tol=0.0,
                 part="(b) N >= 2", counterexample={"N": 3, "C": 2})


@verify.evidence_for("toef.uniqueness_of_potential")
def uniqueness_numeric(ctx):
    """g = sum X_jk^2 changes under a random unitary P (not U(N)-invariant), so Axiom 2 removes it."""
    g = ctx.torch_generator("u")
    X = crandn(3, 2, generator=g)
    P = random_unitary(3, g)
    gX, gPX = (X**2).sum(), ((P @ X) ** 2).sum()
    ch = float(abs(gPX - gX) / abs(gX))
    return Evidence(Verdict.SUPPORTED if ch > 1e-3 else Verdict.UNDECIDED,
                    f"holomorphic g = sum X_jk^2 is not U(N)-invariant (relative change {ch:.2f} under a random "
                    "unitary); holomorphic U(N)-invariants are constant, so under Axiom 2 V is unique up to a constant",
                    method="numeric", reading="B", part="holomorphic ambiguity", dtype="complex128")


@verify.evidence_for("toef.un_equivariant_flow_form")
def equivariance_numeric(ctx):
    """RHS(PX) = P RHS(X) for eq. (4) and a random unitary P (complex128); reading B: causally masked
    linear attention M * (X A X^*) X B violates permutation equivariance (N = 2)."""
    g = ctx.torch_generator("eq")
    worst = 0.0
    for _ in range(ctx.pick(10, 100)):
        m = _def4(g, 4, 3, 2, 1, 2)
        X = crandn(4, 3, generator=g)
        P = random_unitary(4, g)
        worst = max(worst, rel_err(m(P @ X), P @ m(X)))
    out = [judge(worst, "eq. (4) is U(N)-equivariant (random unitaries, N=4, C=3)", tol=1e-12, part="Tr(AK)")]
    A, B = crandn(1, 1, generator=g), crandn(1, 1, generator=g)
    mask = torch.tril(torch.ones(2, 2, dtype=torch.complex128))
    F = lambda X: (mask * (X @ A @ H(X))) @ X @ B  # noqa: E731
    X = torch.tensor([[1.0], [2.0]], dtype=torch.complex128)
    Pm = torch.tensor([[0.0, 1.0], [1.0, 0.0]], dtype=torch.complex128)
    err = rel_err(F(Pm @ X), Pm @ F(X))
    out.append(judge(err, "causal linear attention under the swap of N=2 tokens", reading="B",
                     counterexample={"N": 2, "C": 1, "X": [[1], [2]], "A": str(A.tolist()), "B": str(B.tolist()),
                                     "P": "swap"}))
    return out


@verify.evidence_for("toef.lemma7_softmax_free_energy")
def lemma7_numeric(ctx):
    """torch: dV/dX^* of the complex free energy (principal log) equals sum Softmax(S)^T X W (reading B) at
    random complex points; the printed softmax-attention field Softmax(XWX^*) X W is not closed (Jacobian
    asymmetry) for tied W, paired (W, W^*) heads and Hermitian W, so no potential exists at all."""
    g = ctx.torch_generator("l7")
    errB = 0.0
    for _ in range(ctx.pick(5, 50)):
        N, C, C_A = 3, 2, 2
        Ws = [crandn(C, C, generator=g, scale=0.5) for _ in range(2)]
        X = crandn(N, C, generator=g, scale=0.7)
        grad = dV_dXbar(lse_potential(Ws, C_A), X)
        fb = sum(softmax_rows(X @ W @ H(X) / C_A**0.5).transpose(-1, -2) @ X @ W for W in Ws)
        errB = max(errB, rel_err(grad, fb))
    out = [judge(errB, "dV/dX^* = sum Softmax(S)^T X W (complex, N=3, C=2, two heads)", reading="B")]
    W = crandn(2, 2, generator=g)
    Wh = W + H(W)
    defects = {}
    for name, Ws in (("tied W", [W]), ("paired W, W^*", [W, H(W)]), ("Hermitian W", [Wh])):
        F = lambda X, Ws=Ws: sum(softmax_rows(X @ Wi @ H(X)) @ X @ Wi for Wi in Ws)  # noqa: E731
        defects[name] = closedness_defect(F, crandn(3, 2, generator=g, scale=0.7))
    worst = min(defects.values())
    out.append(judge(worst, f"closedness defect of the printed softmax field (min over tyings {defects})",
                     part="closedness", counterexample={"N": 3, "C": 2, "defects": defects}, tol=1e-10))
    return out

"""The identities of Sec. 3 in float64, and the two claims that read them as dynamics.

Float64 autograd cross-checks of the identities proved in ``proofs/gda/identities.py``
(eqs. (13)-(32)): every property draws sizes and scales with hypothesis (T in [2,12], d in
[1,5], C in [2,6], log-uniform scales in [0.1,5], causal mask on/off, loss reduction sum/mean),
evaluates a batch of random heads in one tensor op, and returns the error between torch
autograd and the paper's closed form (``closed_form_grads``) relative to the size of the terms
rounding acts on (:func:`rounding_scales`): at scale 5 a saturated softmax makes ``p_y - 1``
and ``b_ij - E[b]`` differences of nearly equal numbers, and an error measured against the
(tiny) result would report float64 rounding as a counterexample.

Claims registered here: ``gda.routing_sign_semantics`` (L163-167, the sign reading of (23))
and ``gda.update_equations`` (eqs. (33)-(36), the gradient step in views F and P).
"""

from __future__ import annotations

import math

import sympy as sp
import torch
from hypothesis import strategies as st

import verify
from proofs.gda.model import general, sym_head
from verify import Evidence, Verdict
from verify.numeric import falsify, judge_check, randn
from verify.symbolic import prove_cases

from .model.attention_head import closed_form_grads, free_forward, head_forward, masked_softmax
from .model.dynamics import PARAM_NAMES, param_first_order, param_grads
from .model.instances import draw_sizes, random_params, tolist
from .model.onestep import free_batch, param_batch, sign_tallies, tally_evidence

PAPER = "gda"

SIZES = dict(
    T=st.integers(2, 12),
    d_x=st.integers(1, 5),
    d_k=st.integers(1, 5),
    d_v=st.integers(1, 5),
    C=st.integers(2, 6),
    log_scale=st.floats(math.log(0.1), math.log(5.0)),
    log_xscale=st.floats(math.log(0.1), math.log(5.0)),
    causal=st.booleans(),
    reduction=st.sampled_from(["sum", "mean"]),
)


def _rel(a: torch.Tensor, b: torch.Tensor, scale: torch.Tensor | None = None) -> torch.Tensor:
    """Per-instance ``max |a - b|`` over the size of the numbers rounding acts on.

    Without ``scale`` that size is ``max(|a|, |b|)``. With ``scale`` (the same formula
    evaluated on absolute values, see :func:`rounding_scales`) it is ``max(scale)``: a
    difference of two nearly equal terms (a saturated softmax, ``p_y`` close to 1) is then
    measured against the terms, so float64 rounding cannot pose as a counterexample, while a
    wrong formula (a missing factor, a sign) still gives an error of order 1.
    """
    n = a.shape[0]
    d = (a - b).reshape(n, -1).abs().amax(-1)
    m = torch.maximum(a.reshape(n, -1).abs().amax(-1), b.reshape(n, -1).abs().amax(-1))
    if scale is not None:
        m = torch.maximum(m, scale.reshape(n, -1).abs().amax(-1))
    return d / m.clamp_min(1e-300)


def rounding_scales(tr, y: torch.Tensor) -> dict[str, torch.Tensor]:
    """The closed forms of Sec. 3 evaluated on absolute values, differences turned into sums.

    Standard forward error analysis: a float computation of ``sum_k a_k b_k`` (or ``a - b``)
    is accurate to a small multiple of ``eps * sum_k |a_k| |b_k|`` (``eps (|a| + |b|)``).
    Autograd and the closed form share the forward pass, so these backward magnitudes bound
    how far the two may differ by rounding alone.
    """
    T = tr.A.shape[-1]
    red = 1.0 if tr.reduction == "sum" else 1.0 / T
    onehot = torch.nn.functional.one_hot(y, tr.P.shape[-1]).to(tr.P.dtype)
    dlog = (tr.P + onehot) * red
    U = dlog @ tr.W_O.abs()
    B = U @ tr.V.abs().mT
    dS = tr.A * (B + (tr.A * B).sum(-1, keepdim=True))
    r = math.sqrt(tr.d_k)
    dQ, dK = dS @ tr.K.abs() / r, dS.mT @ tr.Q.abs() / r
    X = tr.X.abs()
    return {
        "dlogits (13)": dlog,
        "u (14)": U,
        "dV (16)": tr.A.mT @ U,
        "dalpha (17)": B,
        "dS (23)": dS,
        "dQ (25)": dQ,
        "dK (27)": dK,
        "$\\partial L/\\partial W_Q$ (29)": dQ.mT @ X,
        "$\\partial L/\\partial W_K$ (30)": dK.mT @ X,
        "$\\partial L/\\partial W_V$ (32)": U.mT @ tr.A @ X,
        "dW_O": dlog.mT @ (tr.A @ tr.V.abs()),
        "db_O": dlog.sum(-2),
    }


def head_grad_errors(
    *,
    generator,
    batch,
    dtype,
    device,
    T,
    d_x,
    d_k,
    d_v,
    C,
    log_scale,
    log_xscale,
    causal,
    reduction,
    scale_dk: bool = True,
):
    """Relative errors autograd vs closed form, per instance, for every gradient of Sec. 3.

    Returns a dict name -> tensor(batch). ``scale_dk=False`` is the harness control that drops
    the factor 1/sqrt(d_k) from (25)/(27) (it must be flagged when d_k != 1).
    """
    s, xs = math.exp(log_scale), math.exp(log_xscale)

    def r(*shape):
        return randn(batch, *shape, generator=generator, dtype=dtype, device=device)

    p = {
        "W_Q": r(d_k, d_x) * s,
        "W_K": r(d_k, d_x) * s,
        "W_V": r(d_v, d_x) * s,
        "W_O": r(C, d_v) * s,
        "b_O": r(C) * s,
    }
    X = r(T, d_x) * xs
    y = torch.randint(0, C, (batch, T), generator=generator, device=device)
    with torch.enable_grad():
        leaves = {k: v.clone().requires_grad_(True) for k, v in p.items()}
        tr = head_forward(
            X, *(leaves[k] for k in PARAM_NAMES), y, causal=causal, reduction=reduction
        )
        for t in (tr.S, tr.A, tr.V, tr.Q, tr.K, tr.G, tr.logits):
            t.retain_grad()
        tr.loss.sum().backward()
    with torch.no_grad():
        cf = closed_form_grads(tr)
        dQ, dK = cf.dQ, cf.dK
        if not scale_dk:
            dQ, dK = dQ * math.sqrt(d_k), dK * math.sqrt(d_k)
        sc = rounding_scales(tr, y)
        pairs = {
            "dlogits (13)": (tr.logits.grad, cf.dlogits),
            "u (14)": (tr.G.grad, cf.U),
            "dV (16)": (tr.V.grad, cf.dV),
            "dalpha (17)": (tr.A.grad, cf.dA),
            "dS (23)": (tr.S.grad, cf.dS),
            "dQ (25)": (tr.Q.grad, dQ),
            "dK (27)": (tr.K.grad, dK),
            "$\\partial L/\\partial W_Q$ (29)": (leaves["W_Q"].grad, cf.dW_Q),
            "$\\partial L/\\partial W_K$ (30)": (leaves["W_K"].grad, cf.dW_K),
            "$\\partial L/\\partial W_V$ (32)": (leaves["W_V"].grad, cf.dW_V),
            "dW_O": (leaves["W_O"].grad, cf.dW_O),
            "db_O": (leaves["b_O"].grad, cf.db_O),
        }
        return {name: _rel(a, b, sc[name]) for name, (a, b) in pairs.items()}


def _prop_for(*names: str, **fixed):
    """The falsify property: the worst relative error of the named gradients per instance."""

    def prop(**kw):
        kw.update(fixed)
        errs = head_grad_errors(**kw)
        return torch.stack([errs[n] for n in names]).amax(0)

    prop.__qualname__ = "gda_grad_prop[" + ",".join(names) + "]"
    return prop


def _check(
    ctx, names, part="main", budget=None, dtype=torch.float64, tol=None, **fixed
) -> Evidence:
    """Autograd against the closed forms ``names`` over hypothesis-drawn heads (float64)."""
    ev = falsify(
        _prop_for(*names, **fixed),
        SIZES,
        budget=budget or ctx.pick(quick=6, deep=200),
        batch=ctx.pick(quick=16, deep=64),
        dtype=dtype,
        seed=ctx.seed,
        tol=tol,
    )
    return ev.relabel(part=part, prefix=f"autograd vs closed form [{', '.join(names)}]")


@verify.evidence_for("gda.ce_logit_grad")
def ce_logit_grad_numeric(ctx):
    """Float64 autograd of the summed CE vs softmax - one_hot, random heads."""
    return _check(ctx, ["dlogits (13)"])


@verify.evidence_for("gda.upstream_u")
def upstream_u_numeric(ctx):
    """(a) G.grad vs W_O^T (p - e_y). (b2) share of random draws whose correct logit falls
    under g <- g - eps u (isotropic, anisotropic, rank-deficient W_O, and C < d_v): reported
    beside the exact witness of reading b2, it measures how often the gloss fails."""
    out = [_check(ctx, ["u (14)"], part="(a) u_i = W_O^T (p_i - e_y)")]
    g = ctx.torch_generator("b2")
    f64 = torch.float64
    draws = {}
    for fam in ("isotropic", "anisotropic", "rank-deficient", "C<d_v"):
        C, dv = (6, 3) if fam != "C<d_v" else (2, 5)
        W = torch.randn(4096, C, dv, generator=g, dtype=f64, device=g.device)
        if fam == "anisotropic":
            rows = torch.logspace(-1, 1, C, dtype=f64, device=g.device)
            cols = torch.logspace(1, -1, dv, dtype=f64, device=g.device)
            W = W * rows[:, None] * cols
        if fam == "rank-deficient":
            W = W[..., :1] @ torch.randn(4096, 1, dv, generator=g, dtype=f64, device=g.device)
        ell = torch.randn(4096, C, generator=g, dtype=f64, device=g.device) * 2
        y = torch.randint(0, C, (4096,), generator=g, device=g.device)
        draws[fam] = (W, ell, y)
    out.append(logit_gloss_evidence(draws, seed=ctx.seed))
    return out


def logit_gloss_evidence(
    draws: dict[str, tuple[torch.Tensor, torch.Tensor, torch.Tensor]], seed=None
) -> Evidence:
    """Reading b2 of gda.upstream_u (L121: moving g_i along -u_i increases the correct logit)
    on random float64 draws ``family -> (W_O, logits, labels)``: the first-order change of the
    correct logit under g <- g - eps u_i is -eps (W_O u_i)_y. REFUTED when some draw has it
    below -1e-9 ||W_O u_i|| (the draw reproduces it), SUPPORTED when none does; the share of
    draws where the logit falls is reported per family."""
    shares, worst = {}, None
    for fam, (W, ell, y) in draws.items():
        C = W.shape[-2]
        p = torch.softmax(ell, -1)
        e = torch.nn.functional.one_hot(y, C).to(W.dtype)
        u = ((p - e).unsqueeze(-2) @ W).squeeze(-2)
        Wu = (W @ u.unsqueeze(-1)).squeeze(-1)
        dlog = -Wu.gather(-1, y[:, None]).squeeze(-1)
        falls = dlog < -1e-9 * Wu.norm(dim=-1)
        shares[fam] = float(falls.double().mean())
        if falls.any() and worst is None:
            n = int(falls.nonzero()[0, 0])
            worst = {
                "family": fam,
                "W_O": tolist(W[n]),
                "logits": tolist(ell[n]),
                "y": int(y[n]),
                "u": tolist(u[n]),
                "first_order_dlogit_y_over_eps": float(dlog[n]),
            }
    shown = ", ".join(f"{k} {v:.3f}" for k, v in shares.items())
    return judge_check(
        worst is None,
        "share of random (W_O, logits, y) where the correct logit DEcreases under "
        f"g <- g - eps u (first order): {shown}",
        counterexample=worst,
        part="(b) gloss",
        reading="b2",
        numbers={"share_logit_decreases": shares},
        dtype="float64",
        seed=seed,
    )


@verify.evidence_for("gda.value_grad")
def value_grad_numeric(ctx):
    """Float64 autograd of V vs A^T U (16), random heads."""
    return _check(ctx, ["dV (16)"])


@verify.evidence_for("gda.alpha_grad")
def alpha_grad_numeric(ctx):
    """Float64 autograd of the attention weights vs U V^T (17a), random heads."""
    return _check(ctx, ["dalpha (17)"], part="(a) dL/dalpha = b")


@verify.evidence_for("gda.softmax_jacobian")
def softmax_jacobian_numeric(ctx):
    """torch.func.jacrev of the (masked) row softmax vs alpha_ij (delta_jk - alpha_ik)."""

    def prop(*, generator, batch, dtype, device, T, log_scale, causal):
        S = randn(batch, T, T, generator=generator, dtype=dtype, device=device)
        S = S * math.exp(log_scale)
        mask = torch.ones(T, T, dtype=torch.bool, device=device).tril() if causal else None
        with torch.enable_grad():
            J = torch.func.vmap(torch.func.jacrev(lambda s: masked_softmax(s, mask)))(S)
        A = masked_softmax(S, mask)  # J is (b, i, j, i', k)
        eye = torch.eye(T, dtype=dtype, device=device)
        row = A[:, :, :, None] * (eye[None, None] - A[:, :, None, :])  # (b,i,j,k)
        ref = torch.zeros_like(J)
        idx = torch.arange(T, device=device)
        ref[:, idx, :, idx, :] = row.permute(1, 0, 2, 3)
        if mask is not None:
            ref = ref * mask[None, None, None, :, :]
        return _rel(J, ref)

    sizes = dict(
        T=st.integers(2, 12),
        log_scale=st.floats(math.log(0.1), math.log(5.0)),
        causal=st.booleans(),
    )
    ev = falsify(
        prop,
        sizes,
        budget=ctx.pick(quick=6, deep=200),
        batch=ctx.pick(quick=16, deep=64),
        seed=ctx.seed,
    )
    return ev.relabel(prefix="jacrev vs (18)")


@verify.evidence_for("gda.routing_gradient")
def routing_gradient_numeric(ctx):
    """(c) float64 at the default tol, and float32 at rtol 1e-4 (re-checked in float64)."""
    ev64 = _check(ctx, ["dS (23)"], part="true derivative = (23)")
    ev32 = _check(
        ctx,
        ["dS (23)"],
        part="true derivative = (23)",
        dtype=torch.float32,
        tol=1e-4,
        budget=ctx.pick(quick=4, deep=100),
    )
    return [ev64, ev32.relabel(prefix="float32")]


@verify.evidence_for("gda.query_key_grad")
def query_key_grad_numeric(ctx):
    """Autograd vs (25)/(27); the control without 1/sqrt(d_k) at d_k >= 2 must be flagged."""
    sizes = dict(SIZES, d_k=st.integers(2, 5))
    ctrl = falsify(
        _prop_for("dQ (25)", "dK (27)", scale_dk=False), sizes, budget=3, batch=8, seed=ctx.seed
    )
    return [
        _check(ctx, ["dQ (25)", "dK (27)"]),
        ctrl.relabel(reading="control", prefix="negative control without 1/sqrt(d_k)"),
    ]


@verify.evidence_for("gda.WQ_WK_grad")
def wq_wk_grad_numeric(ctx):
    """Float64 autograd of W_Q, W_K vs (29)-(30), random heads."""
    return _check(ctx, ["$\\partial L/\\partial W_Q$ (29)", "$\\partial L/\\partial W_K$ (30)"])


@verify.evidence_for("gda.WV_grad")
def wv_grad_numeric(ctx):
    """Also checks dW_O, db_O, which the paper does not state but the Sec. 7 training uses."""
    return [
        _check(ctx, ["$\\partial L/\\partial W_V$ (32)"]),
        _check(ctx, ["dW_O", "db_O"]).relabel(reading="unstated dW_O, db_O (used in Sec. 7)"),
    ]


# ------------------------------------------------------------------------------------------
@verify.claim(
    "gda.routing_sign_semantics",
    paper=PAPER,
    where="L163-167; L42; L223; L602",
    kind="property",
    statement=(
        r"A_{ij}:=-(b_{ij}-\mathbb E_{\alpha_i}[b]):\ (i)\ A_{ij}>0\iff\partial L/\partial "
        r"s_{ij}<0;\ (ii)\ A_{ij}>0\text{ indicates that increasing }s_{ij}\text{ (and hence }"
        r"\alpha_{ij})\text{ would reduce the loss};\ (iii)\text{ gradient descent increases "
        r"attention scores toward positions with positive advantage and decreases them "
        r"otherwise}"
    ),
    readings={
        "B": "(iii) with Delta s_ij induced by a gradient step on W_Q, W_K (or all "
        "parameters), view P"
    },
    expect="PROVED",
)
def routing_sign_semantics(ctx):
    """(i), (ii) PROVED from (18) and (23) with alpha_ij > 0 (exact, T=3 and for a row of any
    length), cross-checked by finite differences; (iii) Reading A (view F, Delta s = -eta dL/ds)
    PROVED: Delta s_ij = eta alpha_ij A_ij. Reading B (view P) REFUTED: the score change induced
    by a W_Q/W_K step is not sign-aligned."""
    h = sym_head(3, 1)
    B = h.b()
    cases = []
    for i in range(3):
        for j in range(3):
            adv = -(B[i, j] - h.Eb(i))
            cases.append((f"dL/ds_{i}{j} = -alpha A", h.d_ds(h.L, i, j), -h.alpha[i, j] * adv))
            cases.append(
                (
                    f"dalpha_{i}{j}/ds_{i}{j} = alpha(1-alpha)",
                    h.d_ds(h.alpha[i, j], i, j),
                    h.alpha[i, j] * (1 - h.alpha[i, j]),
                )
            )
    proof = prove_cases(
        cases,
        generality="T=3, d_v=1 surrogate; alpha_ij > 0 (E symbols positive)",
        part="(i)-(ii)",
        summary="dL/ds_ij = -alpha_ij A_ij with alpha_ij > 0, so the signs are opposite; "
        "d alpha_ij/d s_ij = alpha_ij(1-alpha_ij) > 0 for T >= 2",
    )
    # the same two identities for a row of any length: (23) and the diagonal of (18)
    any_length = [
        general.routing_derivative_symbolic(part="(i)-(ii)"),
        general.softmax_jacobian_symbolic().relabel(part="(i)-(ii)"),
    ]
    general_proof = all(ev.verdict is Verdict.PROVED for ev in any_length)
    out = [proof, *any_length, _finite_difference_signs(ctx)]
    # (iii) Reading A: view F. Delta s = eta alpha A exactly (first order), checked numerically.
    tall = sign_tallies(ctx, {"s": ("S", None)})
    view_f = tally_evidence(tall[("F", "s")], "(iii) view F sign(Delta s) = sign(A)", part="(iii)")
    if view_f.verdict is Verdict.SUPPORTED and proof.verdict is Verdict.PROVED:
        out.append(
            Evidence(
                Verdict.PROVED,
                "(iii) view F: Delta s_ij = -eta dL/ds_ij = eta alpha_ij A_ij (34),(23) with "
                "alpha_ij > 0, so sign(Delta s_ij) = sign(A_ij) (from the proved identity)",
                method="symbolic",
                part="(iii)",
                steps=proof.steps[:2] + [ev.summary for ev in any_length],
                generality=any_length[0].generality if general_proof else proof.generality,
                scope="general" if general_proof else "bounded",
            )
        )
    out.append(view_f)
    # (iii) Reading B: view P, W_Q/W_K step and all-parameter step
    for v in ("P[QK]", "P[all]"):
        out.append(
            tally_evidence(
                tall[(v, "s")], f"(iii) view {v} sign(Delta s) = sign(A)", part="(iii)", reading="B"
            )
        )
    return out


def _finite_difference_signs(ctx) -> Evidence:
    """(ii) by central differences: perturb s_ij alone by +-1e-6; L must decrease iff
    A_ij > 0, and alpha_ij must increase, on every pair well above float64 noise."""
    g = ctx.torch_generator("fd")
    rng = ctx.numpy_rng("fd")
    agree = tot = incr = 0
    for _ in range(ctx.pick(quick=3, deep=40)):
        s = draw_sizes(rng)
        state = free_batch(g, 8, s)
        tr = state.trace()
        cg = closed_form_grads(tr)
        n, T = state.S.shape[0], s.T
        # one perturbed entry each
        E = torch.eye(T * T, dtype=state.S.dtype, device=state.S.device).reshape(T * T, T, T) * 1e-6

        def rep(x, n=n, T=T):
            return x.unsqueeze(1).expand(n, T * T, *x.shape[1:])

        args = (rep(state.V), rep(state.W_O), rep(state.b_O), rep(state.y))
        tp = free_forward(rep(state.S) + E, *args, mask=state.mask)
        tm = free_forward(rep(state.S) - E, *args, mask=state.mask)
        dL = ((tp.loss - tm.loss) / 2e-6).reshape(n, T, T)
        # alpha_ij after perturbing s_ij (+), minus before
        after = tp.A.reshape(n, T, T, T, T).diagonal(dim1=1, dim2=3).diagonal(dim1=1, dim2=2)
        dalpha = after - tr.A
        counts = fd_sign_counts(dL, cg.adv, dalpha, tr.A, tr.loss)
        agree, incr, tot = agree + counts[0], incr + counts[1], tot + counts[2]
    return fd_sign_evidence(agree, incr, tot, seed=ctx.seed)


def fd_sign_counts(
    dL: torch.Tensor, adv: torch.Tensor, dalpha: torch.Tensor, A: torch.Tensor, loss: torch.Tensor
) -> tuple[int, int, int]:
    """Counts of (ii) over the pairs well above float64 noise: (pairs where the central
    difference dL/ds_ij < 0 exactly when A_ij > 0, pairs where alpha_ij rose under s_ij + eps,
    pairs tested). The noise of the central difference is ~ eps |L| / 1e-6 ~ 2e-10 |L|, so a
    pair is tested when alpha_ij |A_ij| > 1e-7 (1 + |L|) and alpha_ij > 1e-12."""
    w = A * adv.abs()
    ok = (w > 1e-7 * (1 + loss.abs())[:, None, None]) & (A > 1e-12)
    return int(((dL < 0) == (adv > 0))[ok].sum()), int((dalpha > 0)[ok].sum()), int(ok.sum())


def fd_sign_evidence(agree: int, incr: int, tot: int, seed=None) -> Evidence:
    """(i)-(ii) by finite differences: SUPPORTED when every tested pair has the sign of (23)
    and alpha_ij rose with s_ij; UNDECIDED otherwise (a finite difference that disagrees is
    not a counterexample without an exact re-check; the exact proof is the decisive piece)."""
    return Evidence(
        Verdict.SUPPORTED if agree == tot == incr else Verdict.UNDECIDED,
        f"central difference eps=1e-6: L decreases iff A_ij > 0 on {agree}/{tot} perturbations; "
        f"alpha_ij increased on {incr}/{tot}",
        part="(i)-(ii)",
        numbers={"perturbations": tot, "sign_agree": agree, "alpha_increased": incr},
        seed=seed,
    )


def _cos(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """Per-instance cosine of two batched tensors (flattened)."""
    n = a.shape[0]
    a, b = a.reshape(n, -1), b.reshape(n, -1)
    return (a * b).sum(-1) / (a.norm(dim=-1) * b.norm(dim=-1)).clamp_min(1e-300)


@verify.claim(
    "gda.update_equations",
    paper=PAPER,
    where="eqs. (33)-(36), L203-215",
    kind="property",
    statement=(
        r"\Delta v_j=-\eta\frac{\partial L}{\partial v_j}=-\eta\sum_i\alpha_{ij}u_i,\ "
        r"\Delta s_{ik}=-\eta\alpha_{ik}(b_{ik}-\mathbb E_{\alpha_i}[b]),\ \Delta q_i=-\eta"
        r"\frac{\partial L}{\partial q_i},\ \Delta k_j=-\eta\frac{\partial L}{\partial k_j}"
    ),
    readings={
        "B": "gradient descent on W_Q, W_K, W_V (and W_O, b_O); Delta v, s, q, k are the "
        "induced first-order changes",
        "C": "q, k free and updated by (35)-(36), s recomputed from (4): does (34) follow?",
    },
    expect="PROVED",
)
def update_equations(ctx):
    """Reading A (view F, free s, q, k, v) reduces to the proved identities (16), (23), (28):
    PROVED (re-proved here at T=2, and for symbolic sizes). Reading B (view P): the induced
    changes are -X X^T-mixed versions of the printed right sides; REFUTED (cosine < 0.99) for
    generic and clustered inputs; exact (cos = 1) for v, q, k with orthonormal inputs, but never
    for s. Reading C: REFUTED."""
    h = sym_head(2, 1)
    B = h.b()
    dV = sp.Matrix(2, 1, [sp.diff(h.L, h.V[j, 0]) for j in range(2)])
    dS = sp.Matrix(2, 2, [h.d_ds(h.L, i, k) for i in range(2) for k in range(2)])
    e34 = sp.Matrix(2, 2, [h.alpha[i, k] * (B[i, k] - h.Eb(i)) for i in range(2) for k in range(2)])
    out = [
        prove_cases(
            [("dL/dV = A^T U (33)", dV, h.alpha.T * h.U), ("dL/ds (34)", dS, e34)],
            generality="T=2 here; T<=4 in gda.value_grad / gda.routing_gradient / "
            "gda.query_key_grad",
            part="main",
            summary="view F: the printed right sides are -eta times the proved gradients",
        ),
        # (16), (23) and (28) for symbolic sizes: (33)-(36) are -eta times them
        general.value_grad_symbolic(),
        general.routing_derivative_symbolic(part="main"),
        general.query_key_grad_symbolic(),
    ]
    # readings B and C draw their instances from one stream, B first
    g, rng = ctx.torch_generator("P"), ctx.numpy_rng("P")
    out.append(_view_p_cosines(ctx, g, rng))
    out.append(_reading_c_cosines(ctx, g, rng))
    return out


def _view_p_cosines(ctx, g: torch.Generator, rng) -> Evidence:
    """Reading B of (33)-(36): the first-order changes a parameter step induces against the
    printed right sides, for Gaussian, orthonormal and clustered inputs; a cosine below 0.99
    (outside the orthonormal family, where v, q, k are exact) is a counterexample."""
    fams = {}
    worst = None
    for fam in ("gaussian", "orthonormal", "clustered"):
        stats = {k: [] for k in ("v", "s", "q", "k")}
        for _ in range(ctx.pick(quick=4, deep=40)):
            s = draw_sizes(rng, T=(2, 8))
            p, X, y = param_batch(g, 16, s, fam)
            tr = head_forward(X, *(p[k] for k in PARAM_NAMES), y, causal=s.causal)
            cf = closed_form_grads(tr)
            grads = param_grads(p, X, y, causal=s.causal)
            d = {k: -grads[k] for k in PARAM_NAMES}
            fo = param_first_order(p, X, y, d, causal=s.causal)
            pairs = {
                "v": (fo.V, -cf.dV),
                "s": (fo.S, -cf.dS),
                "q": (fo.Q, -cf.dQ),
                "k": (fo.K, -cf.dK),
            }
            for k, (a, b) in pairs.items():
                c = _cos(a, b)
                stats[k].append(c)
                bad = c < 0.99
                smaller = worst is None or s.T < worst["T"]
                if bad.any() and smaller and fam != "orthonormal":
                    n = int(bad.nonzero()[0, 0])
                    worst = {
                        "T": s.T,
                        "family": fam,
                        "quantity": k,
                        "cosine": float(c[n]),
                        **{w: tolist(p[w][n]) for w in PARAM_NAMES},
                        "X": tolist(X[n]),
                        "y": tolist(y[n]),
                        "causal": s.causal,
                        "induced": tolist(a[n]),
                        "printed_rhs": tolist(b[n]),
                    }
        fams[fam] = {
            k: {
                "min_cos": float(torch.cat(v).min()),
                "median_cos": float(torch.cat(v).median()),
                "share_cos_below_0.99": float((torch.cat(v) < 0.99).double().mean()),
            }
            for k, v in stats.items()
        }
    return view_p_evidence(fams, worst, seed=ctx.seed)


def view_p_evidence(fams: dict, worst: dict | None, seed=None) -> Evidence:
    """Reading B of (33)-(36) from the per-family cosine statistics ``fams`` and ``worst``, the
    smallest instance whose induced change has cosine < 0.99 with the printed right side
    (outside the orthonormal family): REFUTED with it, SUPPORTED when there is none."""
    nums = {"families": fams}
    if worst is None:
        return Evidence(Verdict.SUPPORTED, "view P: all cosines >= 0.99", reading="B", numbers=nums)
    orth = fams["orthonormal"]
    return Evidence(
        Verdict.REFUTED,
        f"view P: induced Delta {worst['quantity']} has cosine {worst['cosine']:.3f} < 0.99 with "
        f"the printed right side (family {worst['family']}, T={worst['T']}); orthonormal "
        f"inputs: min cos v {orth['v']['min_cos']:.6f}, s {orth['s']['min_cos']:.3f}",
        reading="B",
        numbers=nums,
        counterexample=worst,
        seed=seed,
    )


def _reading_c_cosines(ctx, g: torch.Generator, rng) -> Evidence:
    """Reading C of (33)-(36): q, k free and moved by (35)-(36); the induced first-order
    Delta s against (34). A cosine below 0.99 is a counterexample."""
    cs, ex = [], None
    for _ in range(ctx.pick(quick=4, deep=40)):
        s = draw_sizes(rng, T=(2, 8))
        p, X, y = random_params(g, 16, s)
        tr = head_forward(X, *(p[k] for k in PARAM_NAMES), y, causal=s.causal)
        cf = closed_form_grads(tr)
        dS = -(cf.dQ @ tr.K.transpose(-1, -2) + tr.Q @ cf.dK.transpose(-1, -2)) / math.sqrt(s.d_k)
        if tr.mask is not None:
            dS = dS.masked_fill(~tr.mask, 0.0)
        c = _cos(dS, -cf.dS)
        cs.append(c)
        if (c < 0.99).any() and (ex is None or s.T < ex["T"]):
            n = int((c < 0.99).nonzero()[0, 0])
            ex = {
                "T": s.T,
                "cosine": float(c[n]),
                "Q": tolist(tr.Q[n]),
                "K": tolist(tr.K[n]),
                "V": tolist(tr.V[n]),
                "W_O": tolist(p["W_O"][n]),
                "b_O": tolist(p["b_O"][n]),
                "y": tolist(y[n]),
                "causal": s.causal,
            }
    return reading_c_evidence(torch.cat(cs), ex)


def reading_c_evidence(cs: torch.Tensor, ex: dict | None) -> Evidence:
    """Reading C of (33)-(36) from the cosines ``cs`` of the induced Delta s with (34) and
    ``ex``, the smallest instance with a cosine < 0.99: REFUTED with it, else SUPPORTED."""
    nC = {
        "min_cos": float(cs.min()),
        "median_cos": float(cs.median()),
        "share_below_0.99": float((cs < 0.99).double().mean()),
    }
    return Evidence(
        Verdict.REFUTED if ex else Verdict.SUPPORTED,
        f"reading C: Delta s from (35)-(36) vs (34): median cosine {nC['median_cos']:.3f}, "
        f"{100 * nC['share_below_0.99']:.1f}% below 0.99",
        reading="C",
        numbers=nC,
        counterexample=ex,
    )

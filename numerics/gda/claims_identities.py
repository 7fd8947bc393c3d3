"""Float64 autograd cross-checks of the Sec. 3 identities (proved symbolically in proofs/gda).

Every property draws sizes and scales with hypothesis (claim list section 0.5: T in [2,12],
d in [1,5], C in [2,6], log-uniform scales in [0.1,5], causal mask on/off, loss reduction
sum/mean), evaluates a batch of random heads in one tensor op, and returns the error between
torch autograd and the paper's closed form (``closed_form_grads``) relative to the size of the
terms rounding acts on (:func:`rounding_scales`): at scale 5 a saturated softmax makes ``p_y - 1``
and ``b_ij - E[b]`` differences of nearly equal numbers, and an error measured against the
(tiny) result would report float64 rounding as a counterexample.
"""

from __future__ import annotations

import math

import torch
from hypothesis import strategies as st

import verify
from verify import Evidence
from verify.numeric import falsify, randn

from .attention_head import ce_losses, closed_form_grads, head_forward, masked_softmax
from .dynamics import PARAM_NAMES

SIZES = dict(
    T=st.integers(2, 12), d_x=st.integers(1, 5), d_k=st.integers(1, 5), d_v=st.integers(1, 5),
    C=st.integers(2, 6), log_scale=st.floats(math.log(0.1), math.log(5.0)),
    log_xscale=st.floats(math.log(0.1), math.log(5.0)), causal=st.booleans(),
    reduction=st.sampled_from(["sum", "mean"]),
)


def _rel(a: torch.Tensor, b: torch.Tensor, scale: torch.Tensor | None = None) -> torch.Tensor:
    """Per-instance ``max |a - b|`` over the size of the numbers rounding acts on.

    Without ``scale`` that size is ``max(|a|, |b|)``. With ``scale`` (the same formula evaluated
    on absolute values, see :func:`rounding_scales`) it is ``max(scale)``: a difference of two
    nearly equal terms (a saturated softmax, ``p_y`` close to 1) is then measured against the
    terms, so float64 rounding cannot pose as a counterexample, while a wrong formula (a missing
    factor, a sign) still gives an error of order 1.
    """
    n = a.shape[0]
    d = (a - b).reshape(n, -1).abs().amax(-1)
    m = torch.maximum(a.reshape(n, -1).abs().amax(-1), b.reshape(n, -1).abs().amax(-1))
    if scale is not None:
        m = torch.maximum(m, scale.reshape(n, -1).abs().amax(-1))
    return d / m.clamp_min(1e-300)


def rounding_scales(tr, y: torch.Tensor) -> dict[str, torch.Tensor]:
    """The closed forms of Sec. 3 evaluated on absolute values, differences turned into sums.

    Standard forward error analysis: a float computation of ``sum_k a_k b_k`` (or ``a - b``) is
    accurate to a small multiple of ``eps * sum_k |a_k| |b_k|`` (``eps (|a| + |b|)``). Autograd
    and the closed form share the forward pass, so these backward magnitudes bound how far the
    two may differ by rounding alone.
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
    return {"dlogits (13)": dlog, "u (14)": U, "dV (16)": tr.A.mT @ U, "dalpha (17)": B, "dS (23)": dS,
            "dQ (25)": dQ, "dK (27)": dK, "dW_Q (29)": dQ.mT @ X, "dW_K (30)": dK.mT @ X,
            "dW_V (32)": U.mT @ tr.A @ X, "dW_O": dlog.mT @ (tr.A @ tr.V.abs()), "db_O": dlog.sum(-2)}


def head_grad_errors(*, generator, batch, dtype, device, T, d_x, d_k, d_v, C, log_scale, log_xscale,
                     causal, reduction, scale_dk: bool = True):
    """Relative errors autograd vs closed form, per instance, for every gradient of Sec. 3.

    Returns a dict name -> tensor(batch). ``scale_dk=False`` is the harness control that drops
    the factor 1/sqrt(d_k) from (25)/(27) (it must be flagged when d_k != 1).
    """
    s, xs = math.exp(log_scale), math.exp(log_xscale)

    def r(*shape):
        return randn(batch, *shape, generator=generator, dtype=dtype, device=device)

    p = {"W_Q": r(d_k, d_x) * s, "W_K": r(d_k, d_x) * s, "W_V": r(d_v, d_x) * s,
         "W_O": r(C, d_v) * s, "b_O": r(C) * s}
    X = r(T, d_x) * xs
    y = torch.randint(0, C, (batch, T), generator=generator, device=device)
    with torch.enable_grad():
        leaves = {k: v.clone().requires_grad_(True) for k, v in p.items()}
        tr = head_forward(X, *(leaves[k] for k in PARAM_NAMES), y, causal=causal, reduction=reduction)
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
            "dW_Q (29)": (leaves["W_Q"].grad, cf.dW_Q),
            "dW_K (30)": (leaves["W_K"].grad, cf.dW_K),
            "dW_V (32)": (leaves["W_V"].grad, cf.dW_V),
            "dW_O": (leaves["W_O"].grad, cf.dW_O),
            "db_O": (leaves["b_O"].grad, cf.db_O),
        }
        return {name: _rel(a, b, sc[name]) for name, (a, b) in pairs.items()}


def _prop_for(*names: str, **fixed):
    def prop(**kw):
        kw.update(fixed)
        errs = head_grad_errors(**kw)
        return torch.stack([errs[n] for n in names]).amax(0)

    prop.__qualname__ = "gda_grad_prop[" + ",".join(names) + "]"
    return prop


def _check(ctx, names, part="main", budget=None, dtype=torch.float64, tol=None, **fixed) -> Evidence:
    ev = falsify(_prop_for(*names, **fixed), SIZES, budget=budget or ctx.pick(quick=6, deep=200),
                 batch=ctx.pick(quick=16, deep=64), dtype=dtype, seed=ctx.seed, tol=tol)
    ev.part = part
    ev.summary = f"autograd vs closed form [{', '.join(names)}]: {ev.summary}"
    return ev


@verify.evidence_for("gda.ce_logit_grad")
def ce_logit_grad_numeric(ctx):
    """Float64 autograd of the summed CE vs softmax - one_hot, random heads (section 0.5)."""
    return _check(ctx, ["dlogits (13)"])


@verify.evidence_for("gda.upstream_u")
def upstream_u_numeric(ctx):
    """(a) G.grad vs W_O^T (p - e_y). (b2) share of random draws whose correct logit falls."""
    out = [_check(ctx, ["u (14)"], part="(a) u_i = W_O^T (p_i - e_y)")]
    g = ctx.torch_generator("b2")
    fams = {}
    for fam in ("isotropic", "anisotropic", "rank-deficient", "C<d_v"):
        C, dv = (6, 3) if fam != "C<d_v" else (2, 5)
        W = torch.randn(4096, C, dv, generator=g, dtype=torch.float64)
        if fam == "anisotropic":
            W = W * torch.logspace(-1, 1, C, dtype=torch.float64)[:, None] * torch.logspace(1, -1, dv, dtype=torch.float64)
        if fam == "rank-deficient":
            W = W[..., :1] @ torch.randn(4096, 1, dv, generator=g, dtype=torch.float64)
        ell = torch.randn(4096, C, generator=g, dtype=torch.float64) * 2
        y = torch.randint(0, C, (4096,), generator=g)
        p = torch.softmax(ell, -1)
        e = torch.nn.functional.one_hot(y, C).double()
        u = ((p - e).unsqueeze(-2) @ W).squeeze(-2)
        dlog = -(W @ u.unsqueeze(-1)).squeeze(-1).gather(-1, y[:, None]).squeeze(-1)
        fams[fam] = float((dlog < 0).double().mean())
    out.append(Evidence(verify.Verdict.UNDECIDED,
                        "share of random (W_O, logits, y) where the correct logit DEcreases under "
                        "g <- g - eps u (first order): " + ", ".join(f"{k} {v:.3f}" for k, v in fams.items()),
                        part="(b) gloss", reading="b2", numbers={"share_logit_decreases": fams}, seed=ctx.seed))
    return out


@verify.evidence_for("gda.value_grad")
def value_grad_numeric(ctx):
    return _check(ctx, ["dV (16)"])


@verify.evidence_for("gda.alpha_grad")
def alpha_grad_numeric(ctx):
    return _check(ctx, ["dalpha (17)"], part="(a) dL/dalpha = b")


@verify.evidence_for("gda.softmax_jacobian")
def softmax_jacobian_numeric(ctx):
    """torch.func.jacrev of the (masked) row softmax vs alpha_ij (delta_jk - alpha_ik)."""

    def prop(*, generator, batch, dtype, device, T, log_scale, causal):
        S = randn(batch, T, T, generator=generator, dtype=dtype, device=device) * math.exp(log_scale)
        mask = torch.ones(T, T, dtype=torch.bool, device=device).tril() if causal else None
        with torch.enable_grad():
            J = torch.func.vmap(torch.func.jacrev(lambda s: masked_softmax(s, mask)))(S)  # (b,i,j,i',k)
        A = masked_softmax(S, mask)
        eye = torch.eye(T, dtype=dtype, device=device)
        row = A[:, :, :, None] * (eye[None, None] - A[:, :, None, :])  # (b,i,j,k)
        ref = torch.zeros_like(J)
        idx = torch.arange(T, device=device)
        ref[:, idx, :, idx, :] = row.permute(1, 0, 2, 3)
        if mask is not None:
            ref = ref * mask[None, None, None, :, :]
        return _rel(J, ref)

    ev = falsify(prop, dict(T=st.integers(2, 12), log_scale=st.floats(math.log(0.1), math.log(5.0)),
                            causal=st.booleans()),
                 budget=ctx.pick(quick=6, deep=200), batch=ctx.pick(quick=16, deep=64), seed=ctx.seed)
    ev.summary = "jacrev vs (18): " + ev.summary
    return ev


@verify.evidence_for("gda.routing_gradient")
def routing_gradient_numeric(ctx):
    """(c) float64 at the default tol, and float32 at rtol 1e-4 (re-checked in float64)."""
    ev64 = _check(ctx, ["dS (23)"], part="true derivative = (23)")
    ev32 = _check(ctx, ["dS (23)"], part="true derivative = (23)", dtype=torch.float32, tol=1e-4,
                  budget=ctx.pick(quick=4, deep=100))
    ev32.summary = "float32: " + ev32.summary
    return [ev64, ev32]


@verify.evidence_for("gda.query_key_grad")
def query_key_grad_numeric(ctx):
    """Autograd vs (25)/(27); the control without 1/sqrt(d_k) at d_k >= 2 must be flagged."""
    out = [_check(ctx, ["dQ (25)", "dK (27)"])]
    sizes = dict(SIZES, d_k=st.integers(2, 5))
    ctrl = falsify(_prop_for("dQ (25)", "dK (27)", scale_dk=False), sizes, budget=3, batch=8, seed=ctx.seed)
    ctrl.reading = "control"
    ctrl.summary = "negative control without 1/sqrt(d_k): " + ctrl.summary
    out.append(ctrl)
    return out


@verify.evidence_for("gda.WQ_WK_grad")
def wq_wk_grad_numeric(ctx):
    return _check(ctx, ["dW_Q (29)", "dW_K (30)"])


@verify.evidence_for("gda.WV_grad")
def wv_grad_numeric(ctx):
    """Also checks the unstated dW_O, db_O used by the Sec. 7 training (claim list 0.3)."""
    out = [_check(ctx, ["dW_V (32)"]), _check(ctx, ["dW_O", "db_O"], part="main")]
    out[1].reading = "unstated dW_O, db_O (used in Sec. 7)"
    return out


def ce_loss_check(logits: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """Per-position CE (for tests): equals torch's cross_entropy with reduction='none'."""
    return ce_losses(logits, y)

"""The diagnostics of Sec. 8.1 (``gda.diag.*``): what the advantage and column usage predict."""

from __future__ import annotations

import numpy as np
import torch
from hypothesis import strategies as st

import verify
from proofs.gda.model import general
from proofs.gda.model.first_order import (
    exact_alpha_counterexample,
    fraction_tex,
    score_magnitude_counterexample,
)
from verify import Evidence, Verdict
from verify.numeric import falsify

from .identities import SIZES
from .model.attention_head import closed_form_grads
from .model.instances import draw_sizes
from .model.onestep import (
    ETA,
    P_READINGS,
    VIEWS,
    free_batch,
    sign_tallies,
    tally_evidence,
    view_f,
    view_reading,
)

PAPER = "gda"


def spearman(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """Spearman rank correlation along the last dimension (no tie correction)."""
    rx = x.argsort(-1).argsort(-1).double()
    ry = y.argsort(-1).argsort(-1).double()
    rx, ry = rx - rx.mean(-1, keepdim=True), ry - ry.mean(-1, keepdim=True)
    return (rx * ry).sum(-1) / (rx.norm(dim=-1) * ry.norm(dim=-1)).clamp_min(1e-300)


@verify.claim(
    "gda.diag.advantage_predicts_attention",
    paper=PAPER,
    where="Sec. 8.1 L460-461",
    kind="property",
    statement=(
        r"A^{\rm adv}=(b_{ij}-\mathbb E_{\alpha_i}[b]).\ \text{The sign and magnitude predict "
        r"where attention will strengthen or weaken.}"
    ),
    readings={
        "B": r"scores: $\mathrm{sign}(\Delta s_{ij}) = -\mathrm{sign}(A^{\mathrm{adv}}_{ij})$, "
             r"$|\Delta s_{ij}|$ increasing in $|A^{\mathrm{adv}}_{ij}|$",
        "C": r"corrected: the sign of $A^{\mathrm{adv}}_{ij}$ predicts the sign of the score "
             r"change and "
             r"$\alpha_{ij}|A^{\mathrm{adv}}_{ij}|$ its magnitude, "
             r"$\Delta s_{ij} = -\eta\,\alpha_{ij} A^{\mathrm{adv}}_{ij}$ (view F)",
        "magnitude": "rank correlation of |A^adv| with |Delta alpha|, |Delta s| (no "
        "criterion in the text)",
        **P_READINGS,
    },
    repairs={"C": ("overstated", "the advantage predicts the *score* change, with alpha_ij "
                                 "|A^adv_ij| as its size; the attention weights follow only "
                                 "with the row's other scores held fixed")},
    expect="REFUTED",
)
def advantage_predicts_attention(ctx):
    """Reading A (attention = weights alpha, view F; sign read deterministically:
    sign(Delta alpha_ij) = -sign(A^adv_ij)): REFUTED by the exact first-order row of
    gda.dyn.alpha_reallocation and in random CE instances (about 4% of pairs in view F, so as
    a statistical predictor the sign agrees on ~96% of pairs; the text gives no accuracy
    criterion, so that reading is only reported). Reading B (scores): the sign holds in view F,
    the magnitude does not: |Delta s_ij| = eta alpha_ij |A^adv_ij| is not increasing in
    |A^adv_ij| (exact row), so B is REFUTED. The per-row Spearman correlations between |A^adv|
    (and alpha |A^adv|) and |Delta alpha| / |Delta s| are reported (view F, reading
    "magnitude"). Reading C, the corrected statement (the magnitude predictor is alpha_ij
    |A^adv_ij|): Delta s_ij = -eta alpha_ij A^adv_ij is (23), PROVED for any row length.
    View-(P) tests are separate readings.

    Severity (rule 6): overstated, as gda.dyn.alpha_reallocation, read in the same context
    (Sec. 8.1 restates Sec. 4.1's reallocation): the repair moves the prediction from the
    attention weights to the scores and changes the magnitude predictor to alpha_ij |A^adv_ij|,
    which a remark does not fix; it holds under the hypothesis that the row's other scores
    stay fixed."""
    tall = sign_tallies(ctx, {"a": ("A", None), "s": ("S", None)}, name="diag")
    ex = exact_alpha_counterexample()
    out = [
        Evidence(
            Verdict.REFUTED if ex["violates"] else Verdict.UNDECIDED,
            "exact $T=3$ row (view F): $A^{\\mathrm{adv}}_{ij} = -1 < 0$ (predicts "
            "strengthening) but "
            "first-order $\\Delta\\alpha_{ij} = "
            f"{fraction_tex(ex['first_order_dalpha_j_over_eta'])}\\,\\eta < 0$",
            method="symbolic",
            part="view F",
            counterexample=ex,
        )
    ]
    for v in VIEWS:
        out.append(
            tally_evidence(
                tall[(v, "a")],
                f"view {v}: sign(Delta alpha) = -sign(A^adv)",
                part=f"view {v}",
                reading=view_reading("A", v),
            )
        )
        out.append(
            tally_evidence(
                tall[(v, "s")],
                f"view {v}: sign(Delta s) = -sign(A^adv)",
                part=f"view {v}",
                reading=view_reading("B", v),
            )
        )
    mag = score_magnitude_counterexample()
    out.append(
        Evidence(
            Verdict.REFUTED if mag["violates"] else Verdict.UNDECIDED,
            r"magnitude, exact $T=3$ row (view F): $|A^{\mathrm{adv}}| = 3/2 > 1$ but "
            r"$|\Delta s| = \tfrac38\eta < \tfrac12\eta$, since "
            r"$\Delta s_{ij} = -\eta\,\alpha_{ij} A^{\mathrm{adv}}_{ij}$ (34),(23): the magnitude "
            r"follows "
            r"$\alpha_{ij}|A^{\mathrm{adv}}_{ij}|$, not $|A^{\mathrm{adv}}_{ij}|$",
            method="symbolic",
            part="magnitude",
            reading="B",
            counterexample=mag,
        )
    )
    # reading C: Delta s = -eta dL/ds = -eta alpha A^adv is (23) itself, for any row length
    out.append(general.routing_derivative_symbolic(part="main", reading="C"))
    out.append(
        tally_evidence(
            tall[("F", "s")], "view F: sign(Delta s) = -sign(A^adv)", part="main", reading="C"
        )
    )
    out.append(_magnitude(ctx))
    return out


def _magnitude(ctx) -> Evidence:
    """The magnitude half, view F: per-row Spearman correlations of |A^adv| and alpha |A^adv|
    with |Delta alpha| and |Delta s| (reported; the text gives no criterion)."""
    g, rng = ctx.torch_generator("mag"), ctx.numpy_rng("mag")
    rho = {"|A|~|dalpha|": [], "alpha|A|~|dalpha|": [], "|A|~|ds|": [], "alpha|A|~|ds|": []}
    for _ in range(ctx.pick(quick=3, deep=30)):
        s = draw_sizes(rng, T=(4, 12), causal=False)
        sd = view_f(free_batch(g, 16, s), ETA)
        a, w = sd.adv.abs(), sd.alpha * sd.adv.abs()
        da, ds = sd.first["A"].abs(), sd.first["S"].abs()
        pairs = {
            "|A|~|dalpha|": (a, da),
            "alpha|A|~|dalpha|": (w, da),
            "|A|~|ds|": (a, ds),
            "alpha|A|~|ds|": (w, ds),
        }
        for key, (x, yv) in pairs.items():
            rho[key].extend(spearman(x, yv).reshape(-1).tolist())
    nums = {k: {"median": float(np.median(v)), "mean": float(np.mean(v))} for k, v in rho.items()}
    medians = ", ".join(f"{k} median {v['median']:.2f}" for k, v in nums.items())
    return Evidence.undecided(
        f"magnitude (view F, per-row Spearman): {medians}",
        method="numeric",
        part="magnitude",
        reading="magnitude",
        numbers=nums,
        seed=ctx.seed,
    )


@verify.claim(
    "gda.diag.column_usage_value_norms",
    paper=PAPER,
    where="Sec. 8.1 L462-463",
    kind="informal",
    statement=(
        r"\text{Column usage }\sum_i\alpha_{ij}\text{: low column sums identify underused or "
        r"dead values. Value norms }\|v_j\|\text{ flag instability}"
    ),
    readings={"bound": r"\|\bar u_j\|\le(\sum_i\alpha_{ij})\max_i\|u_i\|"},
)
def column_usage(ctx):
    """Informal monitoring advice; the testable proxy (a column with low usage gets a small
    update) ||ubar_j|| <= (sum_i alpha_ij) max_i ||u_i|| is fuzzed (triangle inequality;
    SUPPORTED)."""

    def prop(
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
    ):
        seed = int(torch.randint(0, 2**31, (1,), generator=generator, device=generator.device))
        s = draw_sizes(np.random.default_rng(seed), T=(T, T))
        s.causal = causal
        state = free_batch(generator, batch, s)
        tr = state.trace()
        cf = closed_form_grads(tr)
        lhs = cf.dV.norm(dim=-1)
        rhs = tr.A.sum(-2) * cf.U.norm(dim=-1).amax(-1, keepdim=True)
        return ((lhs - rhs) / rhs.clamp_min(1e-300)).clamp_min(0).amax(-1)

    ev = falsify(
        prop,
        SIZES | {"T": st.integers(2, 12)},
        budget=ctx.pick(quick=5, deep=100),
        batch=16,
        seed=ctx.seed,
    )
    return [
        Evidence.informal(
            "a monitoring suggestion ('identify', 'can flag') names no outcome that could fail; "
            "its testable proxy is reading 'bound'"
        ),
        ev.relabel(reading="bound"),
    ]

"""Appendix experiments of "Neural Fields Meet Attention": App. E, F, G and the Tables 3-6 lint.

* App. E (L801-811, Fig. 6): softmax-temperature scaling (a, b: Exp. 2 harness of
  :mod:`numerics.nfa.experiments_table2`) and rotation MSE (c, d: Table 1 harness of
  :mod:`numerics.nfa.experiments_table1`).
* App. F (L813-815): affine equivariance on MNIST-as-a-field. **Stand-in data**: the 8 x 8
  digits bundled with scikit-learn (no download); MNIST itself is not available offline.
* App. G (L817-831): affine equivariance on Poisson solutions generated here
  (``data.poisson_solutions``: 5-point Laplacian, conjugate gradients).
* Tables 3-6 (L833-871) against the text: :func:`hyperparams_consistency`.

For App. F/G the operator is the A3a (normalisation) operator of Thm 1 with a SIREN decoder
(softmax tau = 1, relative PE), in two weight settings: **meta-trained** on the claim's own
field family (:func:`numerics.nfa.model.training.train_operator` with a
:class:`~numerics.nfa.model.training.GridFields` pool of held-out digits / Poisson solutions; the
paper's printed numbers are about a trained operator, App. F L815 "trained for
self-consistency", App. G L829 "meta-trained", so these are Readings A-D; the quick profile
runs a TINY smoke training, "untrained in effect") and **random seeded weights** (Readings
E-H, the operator at the Table 1 harness size). Protocols: **P1** exact group action on the
sample set (``x_i -> a x_i + b``, values kept; App. G L827 "applied ... to the input
coordinates"), **P2** the transformed image re-rasterised on the same pixel grid (cropping).
Thm 1 predicts exact equivariance (round-off) under P1 for any weights, and nothing under P2
(P2 is not a group action on sample sets). Metric: MSE between ``f_{S'}(x)`` and
``f_S((x - b)/a)`` over 50 test points ``x = a u + b``, ``u ~ U[-1,1]^2`` (Table 5: 50 test
points, a = 1.5, b = (0.3, -0.3)); trials: 5 (F) / 10 (G; 5 in quick), mean and 95%
t-interval (Table 5).
Rule: same order of magnitude as the paper's mean.
"""

from __future__ import annotations

import copy
import dataclasses
import os
from dataclasses import replace
from pathlib import Path

import numpy as np
import torch

import verify
from verify import Evidence, Verdict
from verify.context import derive_seed
from verify.numeric import fit_rate, judge_reproduction
from verify.numeric import reproduce as rp

from .exp_table1 import PAPER_SIZE, QUICK_SIZE, build_operator, equivariance_table
from .exp_table2 import READING_TEXT as AG_READING_TEXT
from .exp_table2 import READINGS as AG_READINGS
from .exp_table2 import ag_metrics, draw
from .model.data import digits_images, digits_indices, pixel_coords, poisson_solutions, rerasterise
from .model.field_operator import FieldParams
from .model.metrics import (
    equivariance_metrics,
    exp_numbers,
    fmt,
    mean_std,
    nfa_scale,
)
from .model.training import (
    DEEP_FIELD_TRAIN,
    QUICK_FIELD_TRAIN,
    TrainResult,
    meta_trained,
)

PAPER = "nfa"
A_VAL, B_VAL = 1.5, (0.3, -0.3)


# ------------------------------------------------------------------------------------------
# App. E
# ------------------------------------------------------------------------------------------
@verify.claim(
    "nfa.exp.appE_temperature",
    paper=PAPER,
    where="App. E, L801-811 (Fig. 6)",
    statement=(
        r"(a) $\|V(\mathrm{Softmax})-V(\mathrm{Linear})\|^2$: for $T\gtrsim30$ the experimental "
        r"decay matches the predicted asymptotics, transitioning from $O(T^{-1})$ to $O(T^{-2})$; "
        r"at $T\approx100$ errors reach $\sim10^{-7}$. (b) The relative error between predicted "
        r"and measured scaling factors converges for 2-D and 3-D fields, the 3-D field decaying "
        r"slightly faster at large T. (c,d) SO(2)/SO(3) MSE with linear and softmax attention, "
        r"$T\in\{1,10,100\}$: empirical errors ($\sim10^{-6}$) remain well below the "
        r"conservative theoretical bound."
    ),
    kind="experiment",
    readings={
        k: v + "; (c,d) for G_ST" if k == "B" else v for k, v in AG_READING_TEXT.items() if k != "A"
    },
    headline=("B", "centred residuals are the standing condition of the comparison Fig. 6 draws "
              "(A.4.1 L448, the section the appendix's prediction comes from), as in Fig. 3 "
              "(nfa.exp.fig3 heads with the centred setting for the same reason); and (c,d)'s "
              "operators are equivariant to G_ST, the group Thm 1 covers, not to SO(d)"),
    expect={"quick": "NOT_REPRODUCED", "deep": "NOT_REPRODUCED"},
)
def appE_temperature(ctx) -> list[Evidence]:
    """(a) squared gap ``sum_k (O_k - kappa g_k/(N T))^2`` (float64): value at T = 100 vs ~1e-7
    (same order) and the slope over the range the text names, T >~ 30 (through the sweep's
    end, T in [30, 1e4]), vs -2 (``sense=equal``; the slopes over [30, 100] and [300, 1e4] are
    reported); (b) ``|N T gamma/kappa - 1|``, ``gamma = <O,g>/||g||^2``,
    slope over T >= 100 claimed <= -1 (``at_most``, the first-order correction), d = 2 and 3;
    3-D below 2-D at T = 1000; (c,d) Table 1 harness, MSE, float32, vs ~1e-6 (same order).

    The slope of (a) is an upper bound, O(T^-2) (``sense=at_most``: decaying faster is fine,
    as in Fig. 3); an error below the paper's (a value at T = 100, the (c,d) MSE) exceeds it.
    As printed (reading A, no centring) the squared gap tends to ``K rbar^2`` (no decay) and
    ``N T gamma`` grows; with centring (B, the headline) the gap decays as T^-4, within
    O(T^-2), and the experiment stands or falls with (b)'s 3-D-below-2-D comparison.
    """
    ev: list[Evidence] = []
    seeds = 10
    Phi, r = draw(ctx.run_seed, seeds)
    taus = np.logspace(0, 4, 41)
    for rd, (kappa, cen) in AG_READINGS.items():
        m = ag_metrics(Phi, r, taus, kappa=kappa, centred=cen)
        sq = m.sq_gap.mean(0)
        j100 = int(np.argmin(abs(taus - 100)))
        settings = {
            "kappa": kappa,
            "centred": cen,
            "d": 2,
            "omega_scale": 3.0,
            "N": 100,
            "K": 50,
            "seeds": seeds,
        }
        v100, s100 = float(sq[j100]), float(m.sq_gap[:, j100].std(ddof=1))
        ev.append(
            judge_reproduction(
                rp.same_order(v100, 1e-7),
                f"[{rd}] (a) squared gap at T=100: paper ~1e-7, measured {fmt(v100)} +- "
                f"{fmt(s100)} (Table 2 prints MSE 3.7e-5 at tau=100)",
                reading=rd,
                part="(a) ~1e-7 at T=100",
                better="lower",  # a gap below the paper's exceeds it
                dtype="float64",
                seed=ctx.seed,
                numbers=nfa_scale(ctx, "closed") | exp_numbers(
                    1e-7,
                    v100,
                    s100,
                    seeds,
                    "same order of magnitude",
                    "sum_k (O_k - kappa g_k/(N T))^2",
                    settings,
                    table2_mse_at_100=3.7e-5,
                ),
            )
        )
        # judged on the range the text names, "T >~ 30" (L805), through the sweep's end 1e4:
        # the fit, its figure and its summary span the same data
        early = fit_rate(taus, sq, x_min=30, x_max=100)
        late_fit = fit_rate(taus, sq, x_min=300)
        e = fit_rate(taus, sq, x_min=30).evidence(
            -2.0,
            sense="at_most",
            reading=rd,
            part="(a) asymptotic O(T^-2)",
            xlabel="T",
            ylabel="squared gap",
            title=f"App. E (a), reading {rd}, T in [30, 1e4]",
            dtype="float64",
            seed=ctx.seed,
        )
        ev.append(
            replace(
                e,
                summary=f"[{rd}] (a) slope over T in [30, 1e4] (the text's T >~ 30) vs at most -2 "
                f"(over [30, 100]: {early.slope:+.2f}; over [300, 1e4]: {late_fit.slope:+.2f}): "
                f"{e.summary}",
                numbers={
                    **e.numbers,
                    "fit_range": [30.0, 1e4],
                    "early_slope_30_100": early.slope,
                    "early_ci": list(early.ci),
                    "late_slope_300_1e4": late_fit.slope,
                    "late_ci": list(late_fit.ci),
                    "settings": settings,
                },
            )
        )
        # (b) scaling factor, d = 2 and 3
        late = {}
        for d in (2, 3):
            Pd, rdd = draw(ctx.run_seed, seeds, d=d)
            md = ag_metrics(Pd, rdd, taus, kappa=kappa, centred=cen)
            ge = md.gamma_err.mean(0)
            late[d] = float(ge[-9])  # T = 1000
            eb = fit_rate(taus, ge, x_min=100).evidence(
                -1.0,
                sense="at_most",
                reading=rd,
                part=f"(b) convergence d={d}",
                xlabel="T",
                ylabel="|N T gamma - 1|",
                title=f"App. E (b), d={d}, reading {rd}",
                dtype="float64",
                seed=ctx.seed,
            )
            ev.append(
                replace(
                    eb,
                    summary=f"[{rd}] (b) d={d}: {eb.summary}",
                    numbers={**eb.numbers, "settings": settings | {"d": d}},
                )
            )
        ratio = late[3] / late[2]
        ev.append(
            judge_reproduction(
                rp.below(ratio, 1.0),
                f"[{rd}] (b) 3-D vs 2-D at T=1000: |NT gamma - 1| ratio 3D/2D = {ratio:.3g} "
                "(paper: 3-D decays faster, ratio < 1)",
                reading=rd,
                part="(b) 3-D faster",
                dtype="float64",
                seed=ctx.seed,
                numbers=nfa_scale(ctx, "closed") | exp_numbers(
                    "3-D below 2-D at large T (ratio < 1)",
                    ratio,
                    None,
                    seeds,
                    "ratio < 1",
                    "mean |N T gamma - 1| at T = 1000, 3-D / 2-D",
                    settings | {"d2": late[2], "d3": late[3]},
                ),
            )
        )
    # (c,d) rotation MSE
    seeds_e = ctx.pick(quick=2, deep=10)
    n_group = ctx.pick(quick=2, deep=10)
    size = ctx.pick(quick=QUICK_SIZE, deep=PAPER_SIZE)
    for rd, fam in (("A", "SO"), ("B", "GST")):
        for d in (2, 3):
            cells, cells64 = {}, {}
            for label, cfg, tau in (
                ("linear", "linear", None),
                ("T=1", "softmax_tau1", None),
                ("T=10", "softmax_tau1", 10.0),
                ("T=100", "softmax_tau100", None),
            ):
                cells[label] = equivariance_table(
                    ctx.run_seed, cfg, fam, d, "float32", seeds_e, n_group, size, "test", tau
                )["mse"]
                # float64 re-check of the same operators (a float32-only deviation is reported,
                # not counted)
                cells64[label] = equivariance_table(
                    ctx.run_seed, cfg, fam, d, "float64", seeds_e, n_group, size, "test", tau
                )["mse"]
            means = {k: float(v.mean()) for k, v in cells.items()}
            m, s = mean_std(np.concatenate(list(cells.values())))
            m64 = float(np.concatenate(list(cells64.values())).mean())
            grp = f"SO({d})" if fam == "SO" else f"G_ST(R^{d})"
            ev.append(
                judge_reproduction(
                    rp.same_order(m, 1e-6),
                    f"[{rd}] (c,d) {grp} MSE (linear, softmax T=1,10,100): paper ~1e-6, "
                    f"measured {fmt(m)} +- {fmt(s)} (float32; float64 re-check {fmt(m64)})",
                    reading=rd,
                    part=f"(c,d) MSE ~1e-6, d={d}",
                    better="lower",  # an equivariance error below the paper's exceeds it
                    dtype="float32",
                    seed=ctx.seed,
                    numbers=nfa_scale(ctx, "operator") | exp_numbers(
                        1e-6,
                        m,
                        s,
                        seeds_e,
                        "same order of magnitude",
                        "MSE over 50 test points",
                        {
                            "group": grp,
                            "dtype": "float32",
                            "operator_size": dict(size),
                            "profile": ctx.profile,
                            "weights": "random (seeded), eval mode",
                        },
                        per_config=means,
                        measured_float64=m64,
                        per_config_float64={k: float(v.mean()) for k, v in cells64.items()},
                    ),
                )
            )
    ev.append(
        Evidence.informal(
            "(c,d) 'well below the conservative theoretical bound': the paper states no bound "
            "for rotation-equivariance error (Thm 1 covers G_ST only; no SO(d) bound appears in "
            "the text or in Fig. 6's caption)",
            part="(c,d) theoretical bound",
        )
    )
    return ev


# ------------------------------------------------------------------------------------------
# App. F / G harness
# ------------------------------------------------------------------------------------------
def affine_trials(
    images: np.ndarray,
    *,
    protocol: str,
    coords: str,
    dtype: torch.dtype,
    size: tuple,
    run_seed: int,
    tag: str,
    operator: torch.nn.Module | None = None,
) -> np.ndarray:
    """MSE per trial (image) between ``f_{O(S')}(x)`` and ``f_{O(S)}((x - b)/a)`` (see the
    module docstring).

    ``operator``: a trained operator (cast to ``dtype``, eval mode) used for every trial; without
    it each trial builds a random seeded operator of ``size``."""
    side = images.shape[-1]
    x = torch.as_tensor(pixel_coords(side, coords), dtype=torch.float64)
    b = torch.tensor(B_VAL, dtype=torch.float64)
    trained = None if operator is None else copy.deepcopy(operator).to(dtype).eval()
    out = []
    for t, img in enumerate(images):
        if trained is None:
            gen = torch.Generator().manual_seed(derive_seed(run_seed, tag, "weights", t) % 2**31)
            op = build_operator("softmax_tau1", 2, size, gen, dtype)
        else:
            gen = torch.Generator().manual_seed(
                derive_seed(run_seed, tag, "trained.points", t) % 2**31
            )
            op = trained
        y = torch.as_tensor(img.reshape(-1), dtype=torch.float64)
        if protocol == "P1":
            x2, y2 = A_VAL * x + b, y
        else:
            x2 = x
            y2 = torch.as_tensor(
                rerasterise(img, A_VAL, np.asarray(B_VAL), coords).reshape(-1), dtype=torch.float64
            )
        u = 2 * torch.rand(50, 2, generator=gen, dtype=torch.float64, device=gen.device) - 1
        xq = A_VAL * u + b
        with torch.no_grad():
            p = op(torch.stack([x, x2]).to(dtype), torch.stack([y, y2]).to(dtype))
            f_new = op.field(FieldParams(p.theta[1:], p.mu[1:], p.s[1:]), xq[None].to(dtype))
            f_ref = op.field(
                FieldParams(p.theta[:1], p.mu[:1], p.s[:1]), ((xq - b) / A_VAL)[None].to(dtype)
            )
        out.append(float(equivariance_metrics(f_new, f_ref)["mse"][0]))
    return np.asarray(out)


#: reading -> (protocol, pixel mapping, dtype, weights). A-D: the meta-trained operator (the
#: paper's printed numbers are about it); E-H: the same four settings with random weights.
_AFFINE_READINGS = {
    "A": ("P1", "A", "float32", "trained"),
    "B": ("P2", "A", "float32", "trained"),
    "C": ("P1", "A", "float64", "trained"),
    "D": ("P2", "B", "float32", "trained"),
    "E": ("P1", "A", "float32", "random"),
    "F": ("P2", "A", "float32", "random"),
    "G": ("P1", "A", "float64", "random"),
    "H": ("P2", "B", "float32", "random"),
}
_AFFINE_TEXT = {
    "A": "P1 (exact action on the sample coordinates, as App. G L827 describes), Table 4 "
    "mapping /27, float32, meta-trained operator (App. F L815 / App. G L829)",
    "B": "P2 (transformed image re-rasterised on the same grid, with cropping), /27, float32, "
    "meta-trained",
    "C": "P1, float64, meta-trained (float32-trained weights cast to float64)",
    "D": "P2 with the symmetric pixel mapping /28 (Reading B of Table 4), float32, meta-trained",
    "E": "as A with random seeded weights (not trained)",
    "F": "as B with random seeded weights",
    "G": "as C with random seeded weights",
    "H": "as D with random seeded weights",
}


def _meta_train(ctx, images: np.ndarray, *, tag: str, data: str) -> TrainResult:
    """Meta-train the A3a operator (``softmax_tau1``: softmax tau = 1, relative PE, normalisation)
    for self-consistency on ``images`` (held-out from the evaluation images), read as fields on the
    Table 4 pixel centres (/27 as printed). Quick: TINY smoke run; deep: 2000 AdamW steps on
    500 fields."""
    cfg = ctx.pick(quick=QUICK_FIELD_TRAIN, deep=DEEP_FIELD_TRAIN)
    cfg = dataclasses.replace(cfg, data=data)
    return meta_trained(images, cfg, derive_seed(ctx.run_seed, tag, "meta-train") % 2**31)



def _affine_evidence(
    ctx,
    images,
    *,
    paper_mean,
    paper_ci,
    trials,
    tag,
    data_label,
    size,
    trained: TrainResult,
    extra_numbers: dict | None = None,
) -> list[Evidence]:
    ev = []
    cfg = trained.config
    for rd, (proto, coords, dtn, weights) in _AFFINE_READINGS.items():
        op = trained.operator if weights == "trained" else None
        vals = affine_trials(
            images,
            protocol=proto,
            coords=coords,
            dtype=getattr(torch, dtn),
            size=size,
            run_seed=ctx.run_seed,
            tag=tag,
            operator=op,
        )
        m, hw = rp.t_ci95(vals)
        pred = (
            "exact equivariance (round-off)"
            if proto == "P1"
            else "no prediction (not a group action on sets)"
        )
        if weights == "trained":
            wtxt = (
                f"META-TRAINED ({cfg.label}; loss {trained.first_loss:.3g} -> "
                f"{trained.last_loss:.3g} in {trained.seconds:.1f} s)"
            )
            wnum = {
                "weights": f"meta-trained: {cfg.label}",
                "training": cfg.describe(),
                "operator_size": dict(cfg.size),
            }
            extra = {
                "train_loss_first": trained.first_loss,
                "train_loss_last": trained.last_loss,
                "train_seconds": trained.seconds,
                "train_steps": cfg.steps,
            }
        else:
            wtxt, wnum, extra = (
                "random weights, NOT trained",
                {"weights": "random (seeded), NOT meta-trained", "operator_size": dict(size)},
                {},
            )
        ev.append(
            judge_reproduction(
                rp.same_order(m, paper_mean),
                f"[{rd}] {data_label}, {proto}, {wtxt}: paper {paper_mean} +- {paper_ci} "
                f"(95% CI), measured {fmt(m)} +- {fmt(hw)} ({trials} trials, {dtn}; Thm 1 "
                f"predicts {pred})",
                better="lower",  # an equivariance error below the paper's exceeds it
                reading=rd,
                part="mean equivariance error",
                dtype=dtn,
                seed=ctx.seed,
                numbers=nfa_scale(ctx, "affine") | exp_numbers(
                    paper_mean,
                    m,
                    hw,
                    trials,
                    "same order of magnitude; spread = 95% t half-width",
                    "MSE over 50 test points in g([-1,1]^2)",
                    {
                        "protocol": proto,
                        "pixel_mapping": coords,
                        "a": A_VAL,
                        "b": list(B_VAL),
                        "grid": f"{images.shape[-1]}x{images.shape[-1]}",
                        **wnum,
                        "data": data_label,
                        "profile": ctx.profile,
                    },
                    paper_spread=paper_ci,
                    per_trial=[float(v) for v in vals],
                    thm1_prediction=pred,
                    **extra,
                    **(extra_numbers or {}),
                ),
            )
        )
    return ev


@verify.claim(
    "nfa.exp.appF_mnist",
    paper=PAPER,
    where="App. F, L813-815; Fig. 7 L824; Tables 4-5",
    statement=(
        r"MNIST digits as fields (28$\times$28 pixel centres), controlled affine transforms: the "
        r"reconstructions $f_{S'}(x)$ and $f_S(\frac{x-b}{a})$ are nearly indistinguishable; "
        r"across five seeded trials the mean "
        r"equivariance error was $0.013\pm0.004$ (95\% CI)."
    ),
    kind="experiment",
    readings={k: v for k, v in _AFFINE_TEXT.items() if k != "A"},
    expect={"quick": "UNDECIDED", "deep": "REPRODUCED"},
)
def appF_mnist(ctx) -> list[Evidence]:
    """STAND-IN data: scikit-learn's bundled 8 x 8 digits (quick: native 8 x 8; deep: resampled
    to 28 x 28), 5 trials. The paper's operator is "trained for self-consistency on MNIST fields"
    (L815), so Reading A is the meta-trained A3a operator (trained on held-out digits, the 5
    evaluation digits excluded; quick: TINY smoke run, untrained in effect); Readings E-H repeat
    A-D with random weights.
    Deep: REPRODUCED, "exceeds the paper": under P1 the A3a operator is exactly equivariant for
    every weight setting (Thm 1), so the error is round-off (~1e-14 at seed 0), far below 0.013,
    trained or not: better than the paper, which the reproduction rule
    (:mod:`verify.numeric.reproduce`, rule 2) does not count as a failure; under P2 the error is
    set by how far the re-rasterised (cropped) image differs, not by the theorem.

    expect=UNDECIDED is the quick verdict: its rows carry scale="smoke" (8 x 8 stand-in digits
    and a 25-step smoke meta-training vs the paper's 28 x 28 fields and meta-trained operator),
    so the audit leaves the REPRODUCED / NOT_REPRODUCED rows UNDECIDED and the deep profile
    (docs/report/deep/nfa.jsonl) judges them.
    """
    side = ctx.pick(quick=8, deep=28)
    imgs, _ = digits_images(5, side=side, rng=ctx.numpy_rng("digits"))
    held_out = digits_indices(
        5, rng=ctx.numpy_rng("digits")
    )  # the same draw: the evaluation digits
    cfg = ctx.pick(quick=QUICK_FIELD_TRAIN, deep=DEEP_FIELD_TRAIN)
    pool, _ = digits_images(
        cfg.fields, side=side, rng=ctx.numpy_rng("digits.train"), exclude=held_out
    )
    trained = _meta_train(
        ctx,
        pool,
        tag="nfa.appF",
        data=f"sklearn 8x8 digits at {side}x{side} (held out: the 5 "
        "evaluation digits), bilinear between pixel centres",
    )
    size = ctx.pick(quick=QUICK_SIZE, deep=PAPER_SIZE)
    return _affine_evidence(
        ctx,
        imgs,
        paper_mean=0.013,
        paper_ci=0.004,
        trials=5,
        tag="nfa.appF",
        data_label=f"STAND-IN for MNIST: sklearn 8x8 digits at {side}x{side}",
        size=size,
        trained=trained,
    )


@verify.claim(
    "nfa.exp.appG_poisson",
    paper=PAPER,
    where="App. G, L817-831; Fig. 8",
    statement=(
        r"2-D Poisson $-\Delta u=f$ on the unit square, zero Dirichlet, Gaussian-bump right-hand "
        r"sides, 28$\times$28 finite differences + CG; affine transforms of the input "
        r"coordinates: across ten seeded trials the mean equivariance error was "
        r"$0.0276\pm0.0152$ (95\% CI), consistent with approximate affine equivariance."
    ),
    kind="experiment",
    readings={k: v for k, v in _AFFINE_TEXT.items() if k != "A"},
    expect={"quick": "UNDECIDED", "deep": "REPRODUCED"},
)
def appG_poisson(ctx) -> list[Evidence]:
    """Own data (``data.poisson_solutions``; quick: 14 x 14 grid and 5 trials, deep: 28 x 28 and
    the paper's 10 trials). The paper's operator is "meta-trained to regress SIREN parameters from
    these sets" (L829), so Reading A is the A3a operator meta-trained on further Poisson solutions
    (an independent stream; quick: TINY smoke run, untrained in effect); E-H: random weights.
    Deep: REPRODUCED, "exceeds the paper": under P1 (the transform App. G describes) Thm 1 gives
    exact equivariance for every weight setting, so the error is round-off (~1e-14), far below
    0.0276: better than the paper's "approximate" equivariance, not a failure to reproduce it.

    expect=UNDECIDED is the quick verdict: its rows carry scale="smoke" (14 x 14 grid, 5 trials
    and a 25-step smoke meta-training vs the paper's 28 x 28, 10 trials and meta-trained
    operator), so the audit leaves the REPRODUCED / NOT_REPRODUCED rows UNDECIDED and the deep
    profile (docs/report/deep/nfa.jsonl) judges them.
    """
    n = ctx.pick(quick=14, deep=28)
    trials = ctx.pick(quick=5, deep=10)
    u, res = poisson_solutions(trials, n=n, rng=ctx.numpy_rng("poisson"))
    u = u / np.abs(u).max(axis=(1, 2), keepdims=True)  # unit peak per solution
    cfg = ctx.pick(quick=QUICK_FIELD_TRAIN, deep=DEEP_FIELD_TRAIN)
    pool, _ = poisson_solutions(cfg.fields, n=n, rng=ctx.numpy_rng("poisson.train"))
    pool = pool / np.abs(pool).max(axis=(1, 2), keepdims=True)
    trained = _meta_train(
        ctx,
        pool,
        tag="nfa.appG",
        data=f"Poisson solutions {n}x{n} (own data, unit peak, "
        "independent of the evaluation draws), bilinear between pixel centres",
    )
    size = ctx.pick(quick=QUICK_SIZE, deep=PAPER_SIZE)
    return _affine_evidence(
        ctx,
        u,
        paper_mean=0.0276,
        paper_ci=0.0152,
        trials=trials,
        tag="nfa.appG",
        data_label=f"Poisson solutions {n}x{n} (own data, unit peak)",
        size=size,
        trained=trained,
        extra_numbers={"cg_relative_residual_max": float(res.max())},
    )


# ------------------------------------------------------------------------------------------
# Tables 3-6 against the text
# ------------------------------------------------------------------------------------------
#: (quantity, line, exact substring on that line, value) -- the constants as the paper states them.
STATED: list[tuple[str, int, str, object]] = [
    ("operator heads (Exp. 1)", 188, "4 layers, 4 heads", 4),
    (
        "operator heads (Exp. 1)",
        839,
        "embed_dim num_heads num_layers",
        8,
    ),  # Table 3: "128 8 (ablation: 4) 4 ..."
    ("operator layers (Exp. 1)", 188, "4 layers, 4 heads", 4),
    ("operator layers (Exp. 1)", 839, "4 (ablation/meta: 3)", 4),
    ("operator embed dim", 188, "d = 128", 128),
    ("operator embed dim", 839, "128 8 (ablation: 4)", 128),
    ("SIREN hidden units", 188, "64 units", 64),
    ("SIREN hidden units", 838, "64 \\text{ (ablation: 32)}", 64),
    ("SIREN hidden units", 869, "hidden=64", 64),
    ("SIREN layers", 188, "3$ layers", 3),
    ("SIREN layers", 838, "3 \\text{ (ablation: 2)}", 3),
    ("SIREN layers", 869, "layers=3", 3),
    ("SIREN omega_0", 188, "\\omega_0 = 30", 30.0),
    ("SIREN omega_0", 838, "30.0", 30.0),
    ("SIREN omega_0", 846, "\\omega_0 = 30", 30.0),
    ("Exp. 1 sample points N", 188, "N = 100", 100),
    ("Exp. 2 basis size K", 209, "\\sum_{k=1}^{50}", 50),
    ("Exp. 2 basis size K", 871, "K = 50", 50),
    ("Exp. 2 samples N", 209, "N = 100", 100),
    ("Exp. 2 samples N", 871, "N = 100", 100),
    ("Exp. 1 statistics: seeds", 205, "10 seeds", 10),
    ("Exp. 1 statistics: rotations", 188, "over 10 random rotations", 10),
]

#: Context a mismatch needs in its summary (Table 3 also lists the other value as an ablation).
_LINT_NOTES = {
    "operator heads (Exp. 1)": " as the default (Table 3 lists 4 only as the ablation value, "
    "so Exp. 1's main setup uses Table 3's ablation head count)"
}
#: Cross-references recorded beside the encoding check, not counted as contradictions.
_ENCODING_NOTES = (
    "Fig. 1 'within 1e-6' (L193) / Fig. 2 'mean below 1e-6' (L196) vs Table 1 means "
    "2.4e-6..4.9e-6 (L200-202): metrics may differ (pointwise vs L2 over points), not counted "
    "as a contradiction; dropout 0.1 (Table 3): all our equivariance checks run in eval mode"
)
#: Temperatures reported, and the Table 6 grids.
REPORTED_TAUS = {
    "Table 1 (L200-202)": [1.0, 100.0],
    "Table 2 (L219-222)": [1.0, 10.0, 100.0, 1000.0],
    "App. E (L807)": [1.0, 10.0, 100.0],
}


def table6_grids() -> dict[str, np.ndarray]:
    """The temperature grids of Table 6 (L866-871); ``log(0,2.5,30)`` read as
    logspace(0, 2.5, 30)."""
    return {
        "softmax->linear (L866)": np.logspace(0, 2.5, 30),
        "Attention-Gradient Comparison (L867)": np.linspace(10, 100, 20),
        "scaling analysis (L868)": np.array([10, 25, 50, 100, 200], float),
        "theoretical comparison (L871)": np.logspace(-1, 3, 50),
    }


def paper_lines() -> list[str] | None:
    """The paper's text lines, if the corpus is reachable (``$VERIFY_PAPERS_DIR`` first, then
    ``../shared/seeds``); ``None`` otherwise, and the encoding check is then skipped."""
    name = "000_bcf6acf203c661f2.txt"
    root = Path(__file__).resolve().parents[2]
    for base in filter(
        None,
        [
            os.environ.get("VERIFY_PAPERS_DIR"),
            root.parent / "shared" / "seeds",
            root / "shared" / "seeds",
        ],
    ):
        p = Path(base) / name
        if p.is_file():
            return p.read_text(encoding="utf-8").splitlines()
    return None


def encoding_evidence(missing: list[dict], total: int) -> Evidence:
    """Self-check of the lint's encoding: every quoted substring must be found on its line of
    the paper. SUPPORTED when all are; UNDECIDED otherwise -- a misquoted line is a fault of
    the encoding, not of the paper."""
    return Evidence(
        Verdict.SUPPORTED if not missing else Verdict.UNDECIDED,
        f"encoding re-checked against the paper text: {total - len(missing)}/{total} quoted "
        "substrings found on their lines" + (f"; not found: {missing}" if missing else ""),
        method="numeric",
        part="encoding",
        numbers={"missing": missing, "notes": _ENCODING_NOTES},
    )


def quote_shown(sub: str) -> str:
    """A quoted substring as the report shows it: a LaTeX quote (``\\omega_0 = 30``) as math;
    a quote that cuts a math span (``3$ layers`` of L188's ``$\\omega_0 = 30, 3$ layers``)
    without its stray delimiter."""
    if "\\" in sub:
        return f"${sub}$"
    return sub.replace("$", "") if sub.count("$") % 2 else sub


def stated_evidence(
    q: str, entries: list[tuple[int, str, object]], lines: list[str] | None
) -> Evidence:
    """One constant stated at several lines (``entries``: line, quoted substring, value):
    SUPPORTED when every value agrees, REFUTED otherwise with the two disagreeing lines
    (quoted from the paper when ``lines`` is available) as counterexample."""
    vals = {v for _, _, v in entries}
    if len(vals) == 1:
        return Evidence(
            Verdict.SUPPORTED,
            f"{q}: consistent ({entries[0][2]}) at lines {[e[0] for e in entries]}",
            method="numeric",
            part=q,
            numbers={"entries": [[ln, quote_shown(sub), v] for ln, sub, v in entries]},
        )
    a, b = entries[0], next(e for e in entries if e[2] != entries[0][2])
    ce = {
        "quantity": q,
        "line_1": a[0],
        "text_1": lines[a[0] - 1].strip()[:300] if lines else a[1],
        "value_1": a[2],
        "line_2": b[0],
        "text_2": lines[b[0] - 1].strip()[:300] if lines else b[1],
        "value_2": b[2],
    }
    note = _LINT_NOTES.get(q, "")
    return Evidence(
        Verdict.REFUTED,
        f"{q}: L{a[0]} states {a[2]}, L{b[0]} states {b[2]}{note}",
        method="numeric",
        part=q,
        counterexample=ce,
    )


def pixel_mapping_evidence(n: int = 28, denom: float = 27.0) -> Evidence:
    """Table 4 (L845): the pixel map ``i -> -1 + 2(i + 0.5)/denom``, ``i = 0..n-1``, must land in
    [-1, 1] (the normalised domain the mapping is for). As printed (``denom = 27``) its image
    reaches 1.037: REFUTED with the image as counterexample; ``denom = n`` gives the
    symmetric [-0.964, 0.964]: SUPPORTED."""
    img = -1 + 2 * (np.arange(n) + 0.5) / denom
    lo, hi, centre = float(img.min()), float(img.max()), float(img.mean())
    out = lo < -1 or hi > 1
    ce = {
        "line": 845,
        "mapping": f"x = -1 + 2(i+0.5)/{denom:g}, i = 0..{n - 1}",
        "x_min": lo,
        "x_max": hi,
        "centre": centre,
        "symmetric_alternative": f"-1 + 2(i+0.5)/{n} -> [{-1 + 1 / n:.3f}, {1 - 1 / n:.3f}]",
    }
    return Evidence(
        Verdict.REFUTED if out else Verdict.SUPPORTED,
        f"Table 4 pixel mapping /{denom:g}: image of {{0..{n - 1}}} is [{lo:.4f}, {hi:.4f}] "
        f"(centre {centre:+.4f})"
        + (f", leaving [-1, 1]; /{n} would give the symmetric "
           f"[{-1 + 1 / n:.3f}, {1 - 1 / n:.3f}]" if out else ", inside [-1, 1]"),
        method="numeric",
        part="Table 4 pixel mapping",
        counterexample=ce if out else None,
        numbers={"x_min": lo, "x_max": hi, "centre": centre},
    )


def temperature_evidence(
    reported: dict[str, list[float]], grids: dict[str, np.ndarray]
) -> Evidence:
    """Every temperature the paper reports results at (Table 1, Table 2, App. E) must lie on
    one of the Table 6 grids (L866-871), the grids the experiments state they used. SUPPORTED
    when all do; REFUTED otherwise, with the reported values found on no grid and the grids
    as counterexample (exact comparison of printed numbers, relative 1e-9)."""
    found = {}
    for where, taus in reported.items():
        for t in taus:
            hits = [g for g, arr in grids.items() if np.isclose(arr, t, rtol=1e-9, atol=0).any()]
            found[f"{where}: {t:g}"] = hits
    miss = [k for k, v in found.items() if not v]
    ce = {"not_on_any_grid": miss,
          "grids": {k: [float(v) for v in arr] for k, arr in grids.items()}} if miss else None
    return Evidence(
        Verdict.REFUTED if miss else Verdict.SUPPORTED,
        "every reported temperature lies on some Table 6 grid" if not miss
        else f"temperatures on no Table 6 grid: {miss}",
        method="numeric",
        part="temperatures in Table 6 grids",
        numbers={"grids_hit": found},
        counterexample=ce,
    )


@verify.claim(
    "nfa.exp.hyperparams_consistency",
    paper=PAPER,
    where="Tables 3-6, L833-871; Sec. 4.1 L188; Sec. 4.2 L209",
    statement=(
        r"Architecture and protocol constants as stated in the text (Sec. 4.1: 4 layers, 4 "
        r"heads, d = 128; SIREN $\omega_0=30$, 3 layers, 64 units; N = 100; Sec. 4.2: K = 50, "
        r"N = 100) and in Tables 3-6 (Table 3: num_heads 8 (ablation 4), num_layers 4 "
        r"(ablation/meta 3), dropout 0.1; Table 4: pixel "
        r"$i\in\{0,\dots,27\}\mapsto x=-1+\frac{2(i+0.5)}{27}$; Table 6: temperature grids)."
    ),
    kind="consistency",
    expect="REFUTED",
)
def hyperparams_consistency(ctx) -> list[Evidence]:
    """Every constant stated in more than one place is compared (each encoded with its line and
    the exact substring, re-checked against the paper text when it is reachable); the Table 4
    pixel mapping's image is compared with [-1, 1]; each reported tau is looked up in the Table 6
    grids. Expect REFUTED: heads 4 at L188 vs 8 at L839 (Table 3 default), and the pixel mapping
    reaches 1.037 (not centred in [-1, 1]).
    """
    lines = paper_lines()
    ev: list[Evidence] = []
    if lines is not None:
        missing = [{"quantity": q, "line": ln, "substring": sub}
                   for q, ln, sub, _ in STATED if sub not in lines[ln - 1]]
        ev.append(encoding_evidence(missing, len(STATED)))
    by_q: dict[str, list[tuple[int, str, object]]] = {}
    for q, ln, sub, v in STATED:
        by_q.setdefault(q, []).append((ln, sub, v))
    for q, entries in by_q.items():
        if len(entries) >= 2:  # stated once: nothing to compare (kept in the encoding check)
            ev.append(stated_evidence(q, entries, lines))
    ev.append(pixel_mapping_evidence())
    ev.append(temperature_evidence(REPORTED_TAUS, table6_grids()))
    return ev

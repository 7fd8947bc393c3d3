"""The toy simulation of Sec. 7.1 (``gda.exp.toy.*``): T=5, d_x=3, d_k=2, d_v=2, C=3.

Every claim is measured over the same grid of the choices the paper leaves open (init std,
learning rate, view, schedule, reduction: :func:`numerics.gda.toy.grid`, 128 settings x 20
seeds, every profile). Trainings are memoised per worker process (:func:`cached_toy`), so the
claims of one run share them; the evidence is still computed in the run.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

import verify
from verify import Evidence, Verdict

from .toy import LN5, cached_toy, diverged, grid_logs, label

#: The toy of Sec. 7.1 runs at the paper's own size in every profile (T=5, ~100 steps).
TOY_SCALE = {
    "scale": "paper",
    "setting": "T=5, d_x=3, d_k=2, d_v=2, C=3, 100 steps: the paper's toy, in every profile",
}

PAPER = "gda"


@verify.claim(
    "gda.exp.toy.setup",
    paper=PAPER,
    where="Sec. 7.1 L372-383; Fig. 4 caption L404",
    kind="experiment",
    statement=(
        r"T=5,\ d_x=3,\ d_k=2,\ d_v=2,\ C=3;\ W_Q,W_K,W_V,W_O\text{ small Gaussian};\ x_j\sim"
        r"\mathcal N(0,I);\ y_i\text{ random in }\{0,1,2\};\ \text{manual update steps with the "
        r"closed-form gradients of Sec. 3, fixed learning rate},\ \sim100\text{ steps}"
    ),
)
def toy_setup(ctx):
    """A setup, not a claim: records the grid run for the unspecified choices (init std, lr,
    view F/P, simultaneous/alternating, reduction; 20 seeds each) and the divergence count."""
    logs = grid_logs(ctx.run_seed)
    rows = {
        label(st): {
            "loss0": float(np.nanmean(lg.loss[:, 0])),
            "loss100": float(np.nanmedian(lg.loss[:, -1])),
            "diverged": int(diverged(lg).sum()),
        }
        for st, lg in logs
    }
    return Evidence.undecided(
        "setup of Sec. 7.1 (not a claim): unspecified init std, lr, view, schedule and "
        f"reduction swept over {len(logs)} settings x 20 seeds",
        numbers={"settings": rows, **TOY_SCALE},
        method="experiment",
    )


@verify.claim(
    "gda.exp.toy.attention_sharpens",
    paper=PAPER,
    where="L387; Figs. 2-3 (L398-401)",
    kind="experiment",
    statement=(
        r"\text{(1) Attention heatmaps sharpen: mass concentrates on a few positions per "
        r"query.}"
    ),
    expect="UNDECIDED",
)
def toy_attention_sharpens(ctx):
    """Measured: mean row entropy of alpha (max ln 5) at step 0 and 100, mean max-alpha, and
    the share of seeds whose entropy drops by >= 10% of ln 5, per setting of the grid (128
    settings x 20 seeds, every profile). SUPPORTED when in at least half of the settings most
    seeds sharpen (the paper's setting is unspecified); otherwise UNDECIDED with the settings
    where it holds counted per (init std, lr). expect=UNDECIDED: most seeds sharpen in 44/128
    settings, mostly at lr >= 0.5 or init std >= 0.3; in none at lr = 0.01 or at init std
    0.01, where attention stays near uniform over the 100 steps."""
    logs = grid_logs(ctx.run_seed)
    rows, good = {}, 0
    for st, lg in logs:
        ok = ~diverged(lg)
        drop = (lg.entropy[:, 0] - lg.entropy[:, -1]) >= 0.1 * LN5
        share = float(drop[ok].mean()) if ok.any() else float("nan")
        rows[label(st)] = {
            "H0": float(lg.entropy[:, 0].mean()),
            "H100": float(np.nanmean(lg.entropy[ok, -1])) if ok.any() else None,
            "maxalpha0": float(lg.maxalpha[:, 0].mean()),
            "maxalpha100": float(np.nanmean(lg.maxalpha[ok, -1])) if ok.any() else None,
            "share_sharpened": share,
            "diverged": int((~ok).sum()),
        }
        good += int(share >= 0.5) if ok.any() else 0
    frac = good / len(logs)
    cells: dict[str, list[int]] = {}
    for st, _ in logs:
        cell = cells.setdefault(f"std={st.init_std},lr={st.lr}", [0, 0])
        cell[0] += int((rows[label(st)]["share_sharpened"] or 0) >= 0.5)
        cell[1] += 1
    where = ", ".join(f"{k}: {a}/{n}" for k, (a, n) in cells.items())
    return Evidence(
        Verdict.SUPPORTED if frac >= 0.5 else Verdict.UNDECIDED,
        f"most seeds sharpen (entropy drop >= 10% ln5) in {good}/{len(logs)} settings; "
        f"settings where they do, per (init std, lr) over view x schedule x reduction: {where}",
        method="experiment",
        numbers={"settings": rows, "per_std_lr": cells, **TOY_SCALE},
        seed=ctx.run_seed,
    )


@verify.claim(
    "gda.exp.toy.loss_decays",
    paper=PAPER,
    where="L389; Fig. 4 (L404)",
    kind="experiment",
    statement=(
        r"\text{(3) Cross-entropy loss decays smoothly, with most gains occurring as "
        r"specialization emerges.}"
    ),
    expect="UNDECIDED",
)
def toy_loss_decays(ctx):
    """Loss at 0/100, monotone curves, and attribution: with attention frozen at init, which
    share of the loss drop remains (a large share means the gain is not from specialization),
    and the time correlation of loss drop with entropy drop. UNDECIDED: the paper gives no
    criterion for 'smoothly' (monotone curves range from 0/15 to 20/20 stable seeds across the
    unspecified settings) nor a measure of 'specialization'. The frozen-attention ablation
    keeps most of the loss drop in most settings, which bears on routing only: the paper's
    specialization is coupled (values too), so it does not refute the attribution either."""
    rows = {}
    mono_total = remain = 0
    n_set = 0
    for st, lg in grid_logs(ctx.run_seed):
        ok = ~diverged(lg)
        fr = cached_toy(replace(st, freeze_attention=True), 20, ctx.run_seed)
        okf = ok & ~diverged(fr)
        mono = int((np.diff(lg.loss[ok], axis=1) <= 1e-12).all(1).sum())
        drop = lg.loss[okf, 0] - lg.loss[okf, -1]
        drop_f = fr.loss[okf, 0] - fr.loss[okf, -1]
        share_remaining = (
            float(np.median(drop_f / np.maximum(drop, 1e-12))) if okf.any() else float("nan")
        )
        corr = []
        for s in np.nonzero(ok)[0]:
            dl, dh = -np.diff(lg.loss[s]), -np.diff(lg.entropy[s])
            if dl.std() > 0 and dh.std() > 0:
                corr.append(float(np.corrcoef(dl, dh)[0, 1]))
        rows[label(st)] = {
            "loss0": float(lg.loss[:, 0].mean()),
            "loss100": float(np.nanmean(lg.loss[ok, -1])) if ok.any() else None,
            "monotone_seeds": mono,
            "stable_seeds": int(ok.sum()),
            "median_share_of_drop_with_attention_frozen": share_remaining,
            "median_corr(loss drop, entropy drop)": float(np.median(corr)) if corr else None,
        }
        if ok.any():
            n_set += 1
            mono_total += mono / ok.sum()
            remain += share_remaining if np.isfinite(share_remaining) else 0
    summ = (
        f"monotone loss in {100 * mono_total / max(1, n_set):.0f}% of stable seeds (mean over "
        "settings); with attention frozen at init the median share of the loss drop that "
        f"remains is {remain / max(1, n_set):.2f} (mean over settings)"
    )
    return Evidence.undecided(
        summ, method="experiment", numbers={"settings": rows, **TOY_SCALE}, seed=ctx.run_seed
    )


@verify.claim(
    "gda.exp.toy.value_pca",
    paper=PAPER,
    where="L388; Fig. 5 (L406)",
    kind="experiment",
    statement=(
        r"\text{(2) Value vectors move coherently in a low-dimensional subspace; their "
        r"trajectories in a PCA projection show emergent manifold structure.}"
    ),
    expect="UNDECIDED",
)
def toy_value_pca(ctx):
    """d_v = 2, so any set of value vectors lies in a <= 2-dimensional space and PC1 carries
    >= 50% of the variance by construction; the paper gives no criterion. Reported: PC1
    variance share of the displacements v_j(100) - v_j(0) and of the pooled trajectory points,
    and the mean pairwise |cos| of displacements, against random displacements of matched
    norm (same d_v=2). UNDECIDED: the baseline is already low-dimensional in d_v = 2."""
    rng = ctx.numpy_rng("toy_pca")
    rows = {}
    for st, lg in grid_logs(ctx.run_seed):
        ok = ~diverged(lg)
        pc1, pc1r, cosm, cosr = [], [], [], []
        for s in np.nonzero(ok)[0]:
            D = lg.V[s, -1] - lg.V[s, 0]  # (T, d_v)
            R = (
                rng.standard_normal(D.shape)
                * np.linalg.norm(D, axis=1, keepdims=True)
                / np.sqrt(D.shape[1])
            )
            for M, acc in ((D, pc1), (R, pc1r)):
                sv = np.linalg.svd(M - M.mean(0), compute_uv=False) ** 2
                acc.append(sv[0] / max(sv.sum(), 1e-300))
            for M, acc in ((D, cosm), (R, cosr)):
                Nn = M / np.maximum(np.linalg.norm(M, axis=1, keepdims=True), 1e-300)
                C = np.abs(Nn @ Nn.T)[np.triu_indices(len(M), 1)]
                acc.append(C.mean())
        rows[label(st)] = {
            "PC1_share_displacements": float(np.mean(pc1)) if pc1 else None,
            "PC1_share_random": float(np.mean(pc1r)) if pc1r else None,
            "mean_abs_cos_displacements": float(np.mean(cosm)) if cosm else None,
            "mean_abs_cos_random": float(np.mean(cosr)) if cosr else None,
        }
    return Evidence.undecided(
        "no quantitative criterion in the paper, and d_v=2 makes every value set <= "
        "2-dimensional; PC1 shares and coherence vs matched random displacements are in the "
        "numbers",
        method="experiment",
        numbers={"settings": rows, **TOY_SCALE},
        seed=ctx.run_seed,
    )

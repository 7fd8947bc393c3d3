"""Experiment 2 of "Neural Fields Meet Attention": attention vs gradient (Table 2, Fig. 3).

Setup (Sec. 4.2, L209): ``f(x) = sum_{k=1}^{50} c_k sin(omega_k^T x)``, N = 100 samples;
"attention outputs and true gradients as specified in Theorem 2": keys ``K_i = phi(x_i)``,
values ``V_i = r_i`` (residuals), one-hot queries (Thm 3, L156-174), computed here with
:class:`numerics.nfa.model.attention_gradient.AttentionGradientHead`. No training: closed form.

Choices the paper leaves open (stated, then swept):

* data (``numerics.nfa.model.data.sinusoid_regression``): ``d = 2``, ``x ~ U[-1,1]^d``,
  ``omega ~ N(0, 3^2 I)``, ``y = Phi c* + 0.01 eps`` (sigma = 0.01 from Table 6, L871), ``c = 0``;
* logit scale ``kappa`` (logits ``s_ki = kappa phi_k(x_i)``; Thm 2 as printed has kappa = 1);
  softmax depends on ``kappa`` and ``tau`` only through ``tau / kappa``;
* residual centring (Sec. 3.6, L180: needed for the softmax -> linear limit; not stated at L209);
* correlation: Pearson across ``k`` between ``O(tau)`` and the gradient ``g = Phi^T r``;
* "MSE to linear": ``mean_k (N tau O_k / kappa - g_k)^2 / mean_k g_k^2`` (the learning-rate
  factor ``1/(N tau)`` absorbed, L180; normalised so it is scale-free). Raw and absolute
  variants (``mean_k (O_k - kappa g_k/(N tau))^2``) are reported beside it.

Readings of Table 2 (one verdict each): **A** as printed (kappa = 1, residuals not centred);
**B** kappa = 1, centred; **C** kappa = 30, not centred; **D** kappa = 30, centred. The
sweep over ``d``, ``omega`` scale, ``kappa`` and centring names the settings closest to each row.

Rules (decided from the paper's printed precision): correlation within
``2 sqrt(std_paper^2 + std_measured^2)``; MSE within a factor 2; "Empirical scaling" exponent
(local log-log slope of the MSE between consecutive rows) within 0.1.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, replace

import numpy as np
import torch

import verify
from verify import Evidence, Verdict
from verify.context import derive_seed
from verify.numeric import fit_rate, judge_reproduction
from verify.numeric import reproduce as rp

from .model.attention_gradient import AttentionGradientHead
from .model.data import sinusoid_regression
from .model.metrics import (
    exp_numbers,
    fmt,
    nfa_scale,
)

PAPER = "nfa"
TABLE2_TAUS = (1.0, 10.0, 100.0, 1000.0)
PAPER_CORR = (0.742, 0.968, 0.9996, 0.99998)
PAPER_CORR_STD = (0.03, 0.01, 0.0002, 0.00001)
PAPER_MSE = (8.3e-2, 4.1e-3, 3.7e-5, 4.2e-7)
PAPER_SCALING = (None, -1.8, -1.95, -2.01)

#: The readings of Exp. 2 used by Table 2, Fig. 3 and the abstract: (kappa, centred).
READINGS: dict[str, tuple[float, bool]] = {
    "A": (1.0, False),
    "B": (1.0, True),
    "C": (30.0, False),
    "D": (30.0, True),
}
READING_TEXT = {
    "A": "as printed (Thm 2: kappa = 1, residuals not centred)",
    "B": "kappa = 1, residuals centred (Sec. 3.6 centring condition)",
    "C": "logit scale kappa = 30, residuals not centred",
    "D": "logit scale kappa = 30, residuals centred",
}


@dataclass
class AGSweep:
    """Per-seed attention-gradient metrics over a temperature grid (arrays (seeds, T))."""

    taus: np.ndarray
    corr: np.ndarray
    rel_mse: (
        np.ndarray
    )  # mean_k (N tau O/kappa - g)^2 / mean_k g^2   (Table 2 "MSE", E4 normalised)
    raw_mse: np.ndarray  # mean_k (N tau O/kappa - g)^2
    abs_mse: np.ndarray  # mean_k (O - kappa g/(N tau))^2               (E2)
    abs_max: np.ndarray  # max_k |O - kappa g/(N tau)|                  (E1)
    rel_norm: np.ndarray  # ||N tau O/kappa - g|| / ||g||               (E3)
    sq_gap: np.ndarray  # sum_k (O - kappa g/(N tau))^2                 (App. E (a))
    gamma_err: np.ndarray  # |N tau gamma / kappa - 1|, gamma = <O,g>/||g||^2 (App. E (b))


def ag_metrics(
    Phi: torch.Tensor, r: torch.Tensor, taus, *, kappa: float = 1.0, centred: bool = False
) -> AGSweep:
    """Softmax attention outputs ``O(tau)`` against the gradient ``g = Phi^T r`` (float64).

    ``Phi`` (S, N, K), ``r`` (S, N); logits ``kappa Phi^T``; the linear-attention output with the
    same logits is ``kappa g`` (Thm 3).
    """
    if centred:
        r = r - r.mean(-1, keepdim=True)
    S, N, K = Phi.shape
    eye = torch.eye(K, dtype=Phi.dtype)
    g = AttentionGradientHead("linear")(Phi, r, eye)  # (S, K) = Phi^T r
    out = {k: [] for k in AGSweep.__dataclass_fields__ if k != "taus"}
    gc = g - g.mean(-1, keepdim=True)
    gn2 = g.pow(2).sum(-1)
    for tau in taus:
        out_t = AttentionGradientHead("softmax", tau=float(tau))(kappa * Phi, r, eye)  # (S, K)
        Oc = out_t - out_t.mean(-1, keepdim=True)
        out["corr"].append((Oc * gc).sum(-1) / (Oc.norm(dim=-1) * gc.norm(dim=-1)))
        resc = N * tau * out_t / kappa - g
        out["rel_mse"].append(resc.pow(2).mean(-1) / g.pow(2).mean(-1))
        out["raw_mse"].append(resc.pow(2).mean(-1))
        gap = out_t - kappa * g / (N * tau)
        out["abs_mse"].append(gap.pow(2).mean(-1))
        out["abs_max"].append(gap.abs().amax(-1))
        out["rel_norm"].append(resc.norm(dim=-1) / g.norm(dim=-1))
        out["sq_gap"].append(gap.pow(2).sum(-1))
        gamma = (out_t * g).sum(-1) / gn2
        out["gamma_err"].append((N * tau * gamma / kappa - 1).abs())
    arr = {k: torch.stack(v, -1).cpu().numpy() for k, v in out.items()}
    return AGSweep(taus=np.asarray(taus, dtype=np.float64), **arr)


def draw(
    run_seed: int, seeds: int, *, d: int = 2, omega_scale: float = 3.0, n: int = 100, k: int = 50
):
    """The Exp. 2 data for ``seeds`` seeds, from the run's seed (shared by all Exp. 2 claims)."""
    gen = torch.Generator().manual_seed(
        derive_seed(run_seed, "nfa.exp2", d, omega_scale, n, k) % 2**31
    )
    return sinusoid_regression(seeds, n=n, k=k, d=d, omega_scale=omega_scale, generator=gen)


def local_slopes(taus, values) -> list[float]:
    """``Delta log10 v / Delta log10 tau`` between consecutive points."""
    t, v = np.log10(np.asarray(taus, float)), np.log10(np.asarray(values, float))
    return [float(x) for x in np.diff(v) / np.diff(t)]


def paper_internal_slopes() -> dict[str, list[float]]:
    """Local slopes of the paper's own Table 2 columns (MSE and 1 - corr)."""
    return {
        "mse": local_slopes(TABLE2_TAUS, PAPER_MSE),
        "one_minus_corr": local_slopes(TABLE2_TAUS, [1 - c for c in PAPER_CORR]),
    }


def sweep_closest(run_seed: int, seeds: int, *, top: int = 3) -> list[list[dict]]:
    """For each Table 2 row, the ``top`` settings of the sweep closest to the paper's row.

    Distance (log10 units): ``|log10(mse/paper)| + |log10((1-corr)/(1-paper))|``.
    Sweep: d in {1,2,3}, omega scale in {0.3,1,3,10,30}, kappa in {1,3,10,30}, centring on/off.
    """
    rows: list[list[tuple[float, dict]]] = [[] for _ in TABLE2_TAUS]
    for d, om in itertools.product((1, 2, 3), (0.3, 1.0, 3.0, 10.0, 30.0)):
        Phi, r = draw(run_seed, seeds, d=d, omega_scale=om)
        for kappa, cen in itertools.product((1.0, 3.0, 10.0, 30.0), (False, True)):
            m = ag_metrics(Phi, r, TABLE2_TAUS, kappa=kappa, centred=cen)
            for j in range(len(TABLE2_TAUS)):
                mse = float(m.rel_mse[:, j].mean())
                c = float(m.corr[:, j].mean())
                dist = abs(math.log10(mse / PAPER_MSE[j])) + abs(
                    math.log10(max(1 - c, 1e-16) / (1 - PAPER_CORR[j]))
                )
                rows[j].append(
                    (
                        dist,
                        {
                            "d": d,
                            "omega_scale": om,
                            "kappa": kappa,
                            "centred": cen,
                            "corr": c,
                            "mse": mse,
                            "distance_log10": dist,
                        },
                    )
                )
    return [[s for _, s in sorted(rw, key=lambda t: t[0])[:top]] for rw in rows]


@verify.claim(
    "nfa.exp.table2_attention_gradient",
    paper=PAPER,
    where="Sec. 4.2 and Table 2, L207-224",
    statement=(
        r"For $f(x)=\sum_{k=1}^{50}c_k\sin(\omega_k^Tx)$ with N = 100 samples: "
        r"$\tau=1$: corr $0.742\pm0.03$, MSE to linear $8.3\times10^{-2}$; "
        r"$\tau=10$: $0.968\pm0.01$, $4.1\times10^{-3}$, $\sim\tau^{-1.8}$; "
        r"$\tau=100$: $0.9996\pm0.0002$, $3.7\times10^{-5}$, $\sim\tau^{-1.95}$; "
        r"$\tau=1000$: $0.99998\pm0.00001$, $4.2\times10^{-7}$, $\sim\tau^{-2.01}$. "
        r"Softmax converges to linear attention at rate $\tau^{-2.01}$."
    ),
    kind="experiment",
    readings={k: v for k, v in READING_TEXT.items() if k != "A"},
    expect="NOT_REPRODUCED",
)
def table2_attention_gradient(ctx) -> list[Evidence]:
    """Table 2 re-measured row by row (one part per row, one piece per cell), per reading.

    Expect NOT_REPRODUCED: as printed (kappa = 1, uncentred) the rescaled MSE *grows* like
    tau^2 (the mean residual times N tau) and the correlation saturates below 1; with centring
    the MSE decays at slope -2 but its level and the tau = 1, 10 correlations depend on the
    unstated logit scale, and no fixed reading matches all twelve cells.
    """
    seeds = 10
    Phi, r = draw(ctx.run_seed, seeds)
    closest = sweep_closest(ctx.run_seed, ctx.pick(quick=3, deep=10))
    internal = paper_internal_slopes()
    figure = _table2_figure(Phi, r)  # drawn on reading A's last piece
    ev: list[Evidence] = []
    for reading, (kappa, cen) in READINGS.items():
        m = ag_metrics(Phi, r, TABLE2_TAUS, kappa=kappa, centred=cen)
        mse_mean = m.rel_mse.mean(0)
        slopes = local_slopes(TABLE2_TAUS, mse_mean)
        settings = {
            "d": 2,
            "omega_scale": 3.0,
            "N": 100,
            "K": 50,
            "noise": 0.01,
            "kappa": kappa,
            "centred": cen,
            "reading": READING_TEXT[reading],
        }
        for j, tau in enumerate(TABLE2_TAUS):
            part = f"tau={tau:g}"
            cm, cs = float(m.corr[:, j].mean()), float(m.corr[:, j].std(ddof=1))
            ev.append(
                judge_reproduction(
                    rp.within_spread(cm, cs, PAPER_CORR[j], PAPER_CORR_STD[j]),
                    f"[{reading}] tau={tau:g} correlation: paper {PAPER_CORR[j]} +- "
                    f"{PAPER_CORR_STD[j]}, measured {cm:.6f} +- {cs:.1e} ({seeds} seeds)",
                    reading=reading,
                    part=part,
                    dtype="float64",
                    seed=ctx.seed,
                    numbers=nfa_scale(ctx, "table2") | exp_numbers(
                        PAPER_CORR[j],
                        cm,
                        cs,
                        seeds,
                        "|measured - paper| <= 2 sqrt(std_paper^2 + std_measured^2)",
                        "Pearson corr over k of O(tau) and g = Phi^T r",
                        settings,
                        paper_spread=PAPER_CORR_STD[j],
                        closest_settings=closest[j] if reading == "A" else None,
                    ),
                )
            )
            mm, ms = float(mse_mean[j]), float(m.rel_mse[:, j].std(ddof=1))
            ev.append(
                judge_reproduction(
                    rp.within_factor(mm, PAPER_MSE[j], 2.0),
                    f"[{reading}] tau={tau:g} MSE to linear: paper {PAPER_MSE[j]:.2g}, "
                    f"measured {fmt(mm)} +- {fmt(ms)}",
                    reading=reading,
                    part=part,
                    dtype="float64",
                    seed=ctx.seed,
                    numbers=nfa_scale(ctx, "table2") | exp_numbers(
                        PAPER_MSE[j],
                        mm,
                        ms,
                        seeds,
                        "within a factor 2",
                        "mean_k (N tau O_k/kappa - g_k)^2 / mean_k g_k^2",
                        settings,
                        raw_mse=float(m.raw_mse[:, j].mean()),
                        abs_mse=float(m.abs_mse[:, j].mean()),
                    ),
                )
            )
            if PAPER_SCALING[j] is not None:
                sl = slopes[j - 1]
                ev.append(
                    judge_reproduction(
                        rp.exponent_within(sl, PAPER_SCALING[j], 0.1),
                        f"[{reading}] tau={tau:g} empirical scaling: paper "
                        f"tau^{PAPER_SCALING[j]}, measured local slope {sl:+.3f} (paper's own "
                        f"MSE column gives {internal['mse'][j - 1]:+.3f})",
                        reading=reading,
                        part=part,
                        dtype="float64",
                        seed=ctx.seed,
                        numbers=nfa_scale(ctx, "table2") | exp_numbers(
                            PAPER_SCALING[j],
                            sl,
                            None,
                            seeds,
                            "|slope - paper| <= 0.1",
                            "local log-log slope of the mean MSE between consecutive rows",
                            settings,
                            paper_local_slope_from_own_mse=internal["mse"][j - 1],
                        ),
                        figures=[figure] if reading == "A" and j == len(TABLE2_TAUS) - 1 else [],
                    )
                )
    return ev


def _table2_figure(Phi, r) -> dict:
    taus = np.logspace(0, 3, 19)
    series = {}
    for rd, (kappa, cen) in READINGS.items():
        m = ag_metrics(Phi, r, taus, kappa=kappa, centred=cen)
        series[f"MSE {rd}"] = [float(v) for v in m.rel_mse.mean(0)]
    paper = {
        "MSE paper": [
            float(np.interp(np.log10(t), np.log10(TABLE2_TAUS), np.log10(PAPER_MSE))) for t in taus
        ]
    }
    paper = {"MSE paper (log-interpolated between rows)": [10**v for v in paper["MSE paper"]]}
    return {
        "kind": "curve",
        "x": [float(t) for t in taus],
        "series": series,
        "paper": paper,
        "xlabel": "tau",
        "ylabel": "MSE to linear (rescaled, relative)",
        "title": "Table 2: MSE vs tau",
        "logx": True,
        "logy": True,
    }


# ------------------------------------------------------------------------------------------
# Figure 3
# ------------------------------------------------------------------------------------------
#: reading -> (metric, logit scale kappa, centred residuals, text)
FIG3_READINGS = {
    "A": (
        "rel_mse",
        1.0,
        False,
        "as printed: Table 2 MSE (rescaled, relative), kappa = 1, in the setup of L209 "
        "(Thm 2's construction, no centring)",
    ),
    "C": ("abs_max", 1.0, False, "absolute gap max_k |O_k - g_k/(N tau)|, not centred"),
    "D": ("abs_max", 1.0, True, "absolute gap max_k |O_k - g_k/(N tau)|, centred"),
    "E": ("rel_norm", 1.0, True, "relative norm ||N tau O - g|| / ||g|| (not squared), centred"),
    "F": ("rel_mse", 30.0, True, "Table 2 MSE, kappa = 30, centred"),
    "G": (
        "rel_mse",
        1.0,
        True,
        "as A with the added hypothesis of centred residuals (sum r = 0: the condition of the "
        "Taylor prediction the caption compares with, L180, A.4.1 L448, which L209 does not "
        "state)",
    ),
}


def corr_limit_evidence(
    plateau: float, slope: float, ci: tuple[float, float], counterexample: dict
) -> Evidence:
    """Fig. 3(b), "correlation approaches 1.0 as temperature increases", from ``1 - corr`` over
    tau in [1e3, 1e4]: its value ``plateau`` at tau = 1e4 and its log-log slope with interval
    ``ci``. SUPPORTED when it keeps decreasing (the whole interval below -0.1) or is already at
    1 to 1e-8; REFUTED when it has levelled off above 1e-8 (the whole interval above -0.1: a
    limit below 1), with the sweep as counterexample; UNDECIDED when the interval straddles
    -0.1 (neither clearly decreasing nor clearly level)."""
    kw = {"method": "numeric", "part": "(b) corr -> 1", "dtype": "float64"}
    if not all(math.isfinite(v) for v in (plateau, slope, *ci)):
        return Evidence(Verdict.UNDECIDED, "1 - corr or its slope is not finite", **kw)
    if ci[1] < -0.1 or plateau <= 1e-8:
        return Evidence(Verdict.SUPPORTED, f"1 - corr keeps decreasing: {plateau:.2e} at tau = "
                        f"1e4, slope {slope:+.3f} over tau >= 1e3", **kw)
    if ci[0] > -0.1:
        return Evidence(Verdict.REFUTED, f"1 - corr plateaus at {plateau:.2e} for tau in [1e3, "
                        f"1e4] (slope {slope:+.3f}, CI [{ci[0]:+.3f}, {ci[1]:+.3f}]): correlation "
                        "tends to a limit below 1", counterexample=counterexample, **kw)
    return Evidence(Verdict.UNDECIDED, f"1 - corr at {plateau:.2e}, slope {slope:+.3f} with CI "
                    f"[{ci[0]:+.3f}, {ci[1]:+.3f}] straddling -0.1: neither clearly decreasing "
                    "nor level", **kw)


@verify.claim(
    "nfa.exp.fig3",
    paper=PAPER,
    where="Fig. 3, L211-216",
    statement=(
        r"(a) Approximation error between softmax and linear attention decays as "
        r"$O(\tau^{-2})$ with temperature. (b) Correlation between attention outputs and true "
        r"gradients approaches 1.0 as "
        r"temperature increases."
    ),
    kind="rate",
    readings={k: v[3] for k, v in FIG3_READINGS.items() if k != "A"},
    headline=("G", "centred residuals are the paper's standing condition for this comparison: "
              "the Taylor prediction the caption draws (red dashed) assumes sum r = 0 (A.4.1 "
              "L448, Thm 16 L754, main text L180), and the paper's own Table 2 slope tau^-2.01 "
              "(L224) is met only in the centred setting (uncentred, the rescaled error grows "
              "like tau^+2), so it fixes the setting the figure shows"),
    expect="SUPPORTED",
)
def fig3(ctx) -> list[Evidence]:
    """Panel (a): log-log slope of the error over tau >= 10 kappa (claimed <= -2, ``sense=at_most``:
    decaying faster is fine); panel (b): 1 - corr over large tau must keep decreasing.

    Reading G heads: the centring of the Taylor prediction the caption compares
    with ("theoretical prediction (red dashed)", L180 / A.4.1 L448 / Thm 16 L754) is the
    paper's standing condition, and its own Table 2 slope tau^-2.01 (L224) is reached only
    centred: SUPPORTED (rescaled MSE slope -2, 1 - corr keeps decreasing); expect SUPPORTED.
    Reading A, the setup of L209 read literally (no centring, the same setting as Table 2's
    reading A), stays beside it REFUTED: the rescaled error grows like tau^+2 from the mean
    residual and 1 - corr plateaus at ~2e-4. Also beside them: C REFUTED (uncentred absolute
    gap, slope 0); D, F SUPPORTED; E REFUTED (the non-squared relative norm decays only as
    tau^-1).
    """
    seeds = 10
    Phi, r = draw(ctx.run_seed, seeds)
    taus = np.logspace(0, 4, 41)
    ev: list[Evidence] = []
    for rd, (metric, kappa, cen, text) in FIG3_READINGS.items():
        m = ag_metrics(Phi, r, taus, kappa=kappa, centred=cen)
        y = getattr(m, metric).mean(0)
        fit = fit_rate(taus, y, x_min=10 * kappa)
        settings = {
            "kappa": kappa,
            "centred": cen,
            "metric": metric,
            "d": 2,
            "omega_scale": 3.0,
            "seeds": seeds,
        }
        e = fit.evidence(
            -2.0,
            sense="at_most",
            reading=rd,
            part="(a) error O(tau^-2)",
            xlabel="tau",
            ylabel=metric,
            title=f"Fig. 3(a), reading {rd}",
            dtype="float64",
            seed=ctx.seed,
        )
        ev.append(
            replace(
                e,
                summary=f"[{rd}: {text}] {e.summary}",
                numbers={**e.numbers, "settings": settings},
            )
        )
        if metric != "rel_mse" or kappa != 1.0:
            continue
        # panel (b): correlation -> 1 ?
        omc = 1 - m.corr.mean(0)
        big = taus >= 1e3
        fitb = fit_rate(taus[big], np.maximum(omc[big], 1e-300))
        plateau = float(omc[-1])
        nb = {
            "one_minus_corr_at": {
                f"{t:g}": float(v) for t, v in zip(taus[::5], omc[::5], strict=True)
            },
            "slope_tau_ge_1e3": fitb.slope,
            "ci": list(fitb.ci),
            "settings": settings,
        }
        fig = {
            "kind": "curve",
            "x": [float(t) for t in taus],
            "series": {f"1 - corr ({rd})": [float(v) for v in omc]},
            "xlabel": "tau",
            "ylabel": "1 - corr(O, g)",
            "title": f"Fig. 3(b), reading {rd}",
            "logx": True,
            "logy": True,
        }
        ce = {
            "run_seed": ctx.run_seed,
            "seeds": seeds,
            "tau": [float(t) for t in taus[big]],
            "one_minus_corr": [float(v) for v in omc[big]],
            "kappa": kappa,
            "centred": cen,
            "d": 2,
            "omega_scale": 3.0,
            "N": 100,
            "K": 50,
        }
        eb = corr_limit_evidence(plateau, fitb.slope, fitb.ci, ce)
        ev.append(replace(eb, summary=f"[{rd}] {eb.summary}", reading=rd, numbers=nb,
                          figures=[fig], seed=ctx.seed))
    return ev

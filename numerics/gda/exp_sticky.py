"""The sticky Markov-chain task of Sec. 7.2 (``gda.exp.sticky.*``): Table 1 and its claims.

Quick profile: T=100 (the paper: T=2000) with the paper's other settings (1000 steps, 5 paired
seeds); deep: the paper's T=2000. Every summary states the sequence length it was measured
at. Trainings are memoised per worker process (:func:`numerics.gda.model.sticky.trained`), so the
claims of one run share them; the evidence is still computed in the run.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

import numpy as np
import torch
from scipy import stats
from scipy.optimize import brentq

import verify
from verify import Evidence, Verdict
from verify.numeric import experiment_evidence, judge_reproduction
from verify.numeric import reproduce as rp

from .model.attention_head import closed_form_grads, head_forward, row_entropy
from .model.dynamics import PARAM_NAMES
from .model.sticky import (
    INTENDED_CHAIN,
    TRANSITION_READINGS,
    bayes_filter_loss,
    cached_train,
    entropy_rate,
    profile_config,
    sample_sequences,
    scale_fields,
    scale_note,
    steps_to_level,
    trained,
    transition_matrix,
)

PAPER = "gda"
LN2 = math.log(2)

# Table 1 (L423-428): mean, std over 5 seeds
TABLE1 = {
    "final loss": {"EM": (1.970, 0.034), "SGD": (2.058, 0.007)},
    "final entropy": {"EM": (1.998, 0.035), "SGD": (2.077, 0.001)},
    "final accuracy": {"EM": (0.244, 0.016), "SGD": (0.200, 0.009)},
}
STEPS_TO_SGD = (430.0, 143.0)
MIN_ENTROPY = 1.829

@verify.claim(
    "gda.exp.sticky.task",
    paper=PAPER,
    where="Sec. 7.2 L391-432",
    kind="experiment",
    statement=(
        r"T=2000,\ 8\text{ symbols},\ P(y_{t+1}=y_t\mid y_t)=0.3,\ \text{otherwise a different "
        r"state with probability proportional to the distance from the previous state. With this "
        r"circular distance, the nearby symbol gets higher probability than the distant one.}\ x_t="
        r"\mu_{y_{t-1}}+\epsilon_t"
    ),
    readings={
        "B": "off-diagonal weights decreasing in the circular distance: halving with each step "
             "of distance ($2^{-d}$), the rule whose entropy rate is Table 1's 1.829 "
             "(gda.exp.sticky.min_entropy)",
        "B_inv_d": "off-diagonal weights $\\propto 1/d$ (the claim list's default for reading B)",
        "C": "uniform over the 7 other states",
    },
    repairs={"B": ("erratum", "L395's 'proportional to the distance' read as weights $2^{-d}$: "
                              "the same sentence says 'the nearby symbol gets higher probability "
                              "than the distant one', and Table 1's min entropy 1.829 (L428), "
                              "'computed from the transition matrix' (L421), is the $2^{-d}$ "
                              "chain's entropy rate, 1.8303 nats ($\\propto d$: 1.899; "
                              "$\\propto 1/d$: 1.883)")},
    expect="SUPPORTED",
)
def sticky_task(ctx):
    """REFUTED as printed: 'probability proportional to the distance' and 'the nearby symbol gets
    higher probability than the distant one' contradict each other (exact: P[0,1] = 7/160 <
    P[0,4] = 7/40 under weights propto d). The repaired reading B is the rule the paper's own
    numbers fix: weights halving with each step of circular distance (2^-d), whose entropy rate
    is Table 1's 1.829 (L428; gda.exp.sticky.min_entropy) and under which the nearby symbol is
    more likely (exact, with 2^-d as exact fractions). Weights propto 1/d (reading B_inv_d, the
    claim list's default) satisfy L395's sentence too but give 1.883 nats, not 1.829; reading C
    (uniform) does not: the nearby symbol gets the same probability, not a higher one (exact).
    The generator is checked (empirical transition frequencies vs the 2^-d chain, the one that
    heads) and the unspecified choices are recorded. The refutation is an erratum (the typo
    'proportional to the distance')."""
    d = [1, 2, 3, 4, 3, 2, 1]
    out = [
        nearby_evidence([Fraction(x) for x in d], "A", "as printed (weights $\\propto d$)"),
        nearby_evidence([Fraction(1, 2**x) for x in d], "B", "reading B (weights $2^{-d}$)"),
        nearby_evidence([Fraction(1, x) for x in d], "B_inv_d",
                        "reading B_inv_d (weights $\\propto 1/d$)"),
        nearby_evidence([Fraction(1) for _ in d], "C", "reading C (uniform weights)"),
    ]
    g = ctx.torch_generator("gen")
    P = torch.tensor(transition_matrix(INTENDED_CHAIN), dtype=torch.float64, device=g.device)
    mu = torch.randn(2, 8, 20, generator=g, dtype=torch.float64, device=g.device)
    y, prev, X = sample_sequences(g, P, mu, 20000, torch.float64)
    cnt = torch.zeros(8, 8, dtype=torch.float64, device=y.device)
    cnt.index_put_(
        (prev.reshape(-1), y.reshape(-1)),
        torch.ones(y.numel(), dtype=torch.float64, device=y.device),
        accumulate=True,
    )
    emp = cnt / cnt.sum(1, keepdim=True)
    err = float((emp - P).abs().max())
    out.append(
        generator_evidence(
            err,
            y.numel(),
            {
                "choices": {
                    "mu": "N(0, I_20) per seed",
                    "init": "N(0, 0.1^2)",
                    "data": "fresh sequence per step",
                    "reduction": "mean",
                    "evaluation": "held-out fixed sequence per seed, every eval_every steps",
                    "b_O lr": "routing rate 0.01",
                    "y_0": "uniform (stationary)",
                    "gradients": "closed-form (13)-(32), checked against autograd",
                },
            },
        )
    )
    return out


def nearby_evidence(weights: Sequence[Fraction], reading: str, what: str) -> Evidence:
    """The sentence "the nearby symbol gets higher probability than the distant one" (L395) for
    off-diagonal transition ``weights`` by circular distance 1..7 from symbol 0 (mass 7/10
    off the diagonal), in exact arithmetic: SUPPORTED when P(0->1) > P(0->4), else REFUTED
    with the two probabilities."""
    P = [Fraction(7, 10) * w / sum(weights) for w in weights]  # P(0 -> 1..7), exact
    ok = P[0] > P[3]
    return Evidence(
        Verdict.SUPPORTED if ok else Verdict.REFUTED,
        f"{what}: P(0->1) = {P[0]} {'>' if ok else '<='} P(0->4) = {P[3]} (exact): the nearby "
        + ("symbol gets higher probability" if ok else "symbol does not get higher probability"),
        method="symbolic",
        reading=reading,
        counterexample=None
        if ok
        else {"reading": reading, "P(0->1)": str(P[0]), "P(0->4)": str(P[3]), "exact": True},
    )


def generator_evidence(err: float, transitions: int, numbers: dict) -> Evidence:
    """The sequence generator against the chain it samples: SUPPORTED when the empirical
    transition frequencies are within 0.02 of P everywhere, UNDECIDED otherwise (a sampling
    deviation is not a statement of the paper)."""
    return Evidence(
        Verdict.SUPPORTED if err < 0.02 else Verdict.UNDECIDED,
        "generator check (reading B, weights $2^{-d}$): max $|\\hat P - P|$ = "
        f"{err:.4f} over {transitions} transitions",
        part="generator",
        reading="generator",
        numbers={"max_abs_err": err, **numbers},
    )


def _row(
    metric: str,
    proto: str,
    paper: tuple[float, float],
    meas: np.ndarray,
    note: str,
    reading: str = "B",
    scale: dict | None = None,
) -> Evidence:
    """One Table 1 row, a mean with its spread over seeds: judged by the engine's reproduction
    rule (:func:`verify.numeric.reproduce.within_spread`: within two sd of a difference)."""
    m, sd = float(np.mean(meas)), float(np.std(meas, ddof=1)) if len(meas) > 1 else 0.0
    return judge_reproduction(
        rp.within_spread(m, sd, paper[0], paper[1]),
        f"{metric} {proto}: paper {paper[0]} +- {paper[1]}, measured {m:.3f} +- {sd:.3f} ({note})",
        part=f"{metric} ({proto})",
        reading=reading,
        numbers={"n_seeds": len(meas), "metric": f"{metric} {proto}", **(scale or {})},
    )


@verify.claim(
    "gda.exp.sticky.table1",
    paper=PAPER,
    where="Table 1, L421-428; L434; L51",
    kind="experiment",
    statement=(
        r"\text{EM-like: loss }1.970\pm0.034,\ \text{entropy }1.998\pm0.035,\ \text{acc }0.244"
        r"\pm0.016,\ \text{steps to SGD level }430\pm143;\ \text{SGD: }2.058\pm0.007,\ 2.077"
        r"\pm0.001,\ 0.200\pm0.009,\ 1000;\ \text{paired }t\text{-test }p=0.003;\ 2.3\times\text{ "
        r"speedup}"
    ),
    readings={"B": "Table 1 in nats, the unit of (9)'s natural-log cross-entropy: every row "
                   "measured, entropies in nats"},
    headline=("B", "Table 1 is in nats: SGD's entropy 2.077 (L425) is ln 8 = 2.079 nats, "
                   "the uniform predictor, while 2.077 bits would lie below the 3-bit uniform "
                   "entropy and below the chain's entropy rate in bits (reading 'consistency'); "
                   "the loss of (9) is a natural-log cross-entropy. L434's 'bits' ('1.998 vs "
                   "2.077 bits') is an erratum: reading A, the entropies converted to bits, is "
                   "kept beside the headline"),
    timeout={"quick": 120, "deep": 7200},
    expect={"quick": "UNDECIDED", "deep": "REPRODUCED"},
)
def sticky_table1(ctx):
    """Each row re-measured on 5 paired seeds (REPRODUCED iff |mean - paper| <= 2 sqrt(sd_p^2 +
    sd_m^2): two standard errors of a difference; the speedup row propagates the spread of the
    steps row).
    The headline (reading B, the claim list's nats reading) reads Table 1 in nats, the unit of
    (9)'s natural-log cross-entropy and the unit the table's own numbers are in: SGD's entropy
    2.077 is ln 8 = 2.079 nats (the uniform predictor), while 2.077 *bits* would lie below the
    3-bit uniform entropy and below the chain's entropy rate in bits (reading "consistency").
    L434's "bits" is an erratum; the literal reading (A, as the claim list labels it: the
    measured entropies converted to bits) is kept beside it and cannot reproduce at any scale (a
    calibrated predictor cannot go below the entropy rate of 2.64-2.74 bits).
    Quick profile: T=100 (stated in every summary); every row carries ``scale="smoke"``, so the
    audit leaves each UNDECIDED for the deep profile to judge (expect UNDECIDED). Also: the
    paired t-test, KL(EM||SGD), steps-to-level, and the internal consistency of the paper's own
    numbers. Deep (T=2000, 5 seeds, seed 0): the trainings sample the chain the paper means
    (weights 2^-d, :data:`numerics.gda.model.sticky.INTENDED_CHAIN`, the chain whose entropy
    rate is Table 1's 1.829), and every row is judged at the paper's scale; the headline is
    NOT_REPRODUCED when any row fails to reproduce."""
    cfg, log = trained(ctx.profile, ctx.run_seed, ctx.device)
    note = scale_note(cfg)
    sc = scale_fields(cfg)
    out = []
    em, sgd = log.runs("EM"), log.runs("SGD")
    finals = {
        "final loss": log.loss[:, -1],
        "final entropy": log.ent[:, -1],
        "final accuracy": log.acc[:, -1],
    }
    for metric, vals in finals.items():
        for proto, runs in (("EM", em), ("SGD", sgd)):
            paper = TABLE1[metric][proto]
            if metric == "final entropy":  # B: nats (the table's unit); A: L434's "bits"
                out.append(_row(metric, proto, paper, vals[runs], note + ", nats", scale=sc))
                out.append(
                    _row(metric, proto, paper, vals[runs] / LN2, note + ", converted to bits",
                         reading="A", scale=sc)
                )
            else:
                out.append(_row(metric, proto, paper, vals[runs], note, scale=sc))
    stl = np.array(
        [
            steps_to_level(log.loss[e], log.steps, log.loss[s, -1])
            for e, s in zip(em, sgd, strict=True)
        ]
    )
    stl_f = np.where(np.isfinite(stl), stl, cfg.steps * 10)
    out.append(
        _row(
            "steps to SGD level",
            "EM",
            STEPS_TO_SGD,
            stl_f,
            note + f", eval every {cfg.eval_every} steps, "
            "no smoothing; never reached counts as 10x steps",
            scale=sc,
        )
    )
    out.append(paired_test_evidence(log.loss[sgd, -1], log.loss[em, -1], note, sc))
    out.append(speedup_evidence(stl_f, cfg.steps, note, sc))
    # KL(EM || SGD) on the held-out sequence (L432)
    kls = []
    for e, s in zip(em, sgd, strict=True):
        pe = {k: v[e : e + 1] for k, v in log.final.items()}
        ps = {k: v[s : s + 1] for k, v in log.final.items()}
        X, y = (
            log.eval_X[e % cfg.n_seeds : e % cfg.n_seeds + 1],
            log.eval_y[e % cfg.n_seeds : e % cfg.n_seeds + 1],
        )
        le = torch.log_softmax(
            head_forward(X, *(pe[k] for k in PARAM_NAMES), y, causal=True).logits, -1
        )
        ls = torch.log_softmax(
            head_forward(X, *(ps[k] for k in PARAM_NAMES), y, causal=True).logits, -1
        )
        kls.append(float((le.exp() * (le - ls)).sum(-1).mean()))
    # internal consistency of the paper's numbers
    t_needed = stats.t.ppf(1 - 0.003 / 2, 4)
    sd_diff = (2.058 - 1.970) * math.sqrt(5) / t_needed
    uni = math.log(8)
    cons = {
        "1000/430": 1000 / 430,
        "sd_of_paired_diff_implied_by_p=0.003": sd_diff,
        "welch_p_from_table": float(
            stats.ttest_ind_from_stats(1.970, 0.034, 5, 2.058, 0.007, 5, equal_var=False).pvalue
        ),
        "uniform_entropy_nats": uni,
        "uniform_entropy_bits": 3.0,
        "gap_closed_SGD_nats_reading": (uni - 2.077) / (uni - MIN_ENTROPY),
        "gap_closed_EM_nats_reading": (uni - 1.998) / (uni - MIN_ENTROPY),
        "KL(EM||SGD)_measured_nats": float(np.mean(kls)),
    }
    ok = speedup_consistent(1000, STEPS_TO_SGD[0], 2.3)
    out.append(
        Evidence(
            Verdict.SUPPORTED if ok else Verdict.REFUTED,
            f"paper's numbers: 1000/430 = {cons['1000/430']:.2f} ('2.3x' ok); p=0.003 implies a "
            f"paired-difference sd of {sd_diff:.3f}; SGD entropy 2.077 ~ ln 8 = {uni:.3f} nats "
            "(uniform predictor), while 2.077 bits would be below the 3-bit uniform: the table is "
            "in nats; SGD closes "
            f"{100 * cons['gap_closed_SGD_nats_reading']:.0f}% of the uniform-to-minimum gap",
            reading="consistency",
            numbers=cons,
            counterexample=None if ok else {"1000/430": cons["1000/430"]},
        )
    )
    return out


def paired_test_evidence(
    sgd_final: np.ndarray, em_final: np.ndarray, note: str, scale: dict
) -> Evidence:
    """Table 1's "paired t-test, p = 0.003" (L421), EM's final loss below SGD's: a ranking on
    the paired seeds, decided by the engine's rule (:func:`verify.numeric.reproduce.ranking`,
    a two-sided paired t-test at alpha = 0.05): REPRODUCED when EM is significantly lower,
    NOT_REPRODUCED when significantly higher, UNDECIDED for a tie (no significant difference
    neither reproduces nor refutes the paper's)."""
    d = sgd_final - em_final
    welch = stats.ttest_ind(sgd_final, em_final, equal_var=False)
    finding = rp.ranking({"EM": em_final, "SGD": sgd_final}, "EM", paired=True)
    p_meas = finding.numbers.get("pairs", {}).get("EM vs SGD", {}).get("p", float("nan"))
    return judge_reproduction(
        finding,
        f"paired t-test EM < SGD final loss: paper p=0.003, measured p={p_meas:.3g} (mean diff "
        f"{d.mean():.4f}) ({note})",
        part="paired t-test",
        reading="B",
        numbers={
            "paper_value": 0.003,
            "measured": p_meas,
            "welch_p": float(welch.pvalue),
            "mean_diff": float(d.mean()),
            "metric": "paired t-test p",
            **scale,
        },
    )


def speedup_evidence(stl: np.ndarray, steps: int, note: str, scale: dict) -> Evidence:
    """Table 1's "2.3x speedup" (L421): speedup = steps / mean(steps to the SGD level), its
    spread propagated from the steps' (delta method), for the paper (1000 / (430 +- 143)) and
    the measurement alike; judged within two sd of a difference
    (:func:`verify.numeric.reproduce.within_spread`)."""
    speed = steps / float(np.mean(stl))
    sd_m = speed * float(np.std(stl, ddof=1)) / float(np.mean(stl)) if len(stl) > 1 else 0.0
    sd_p = (1000 / STEPS_TO_SGD[0]) * STEPS_TO_SGD[1] / STEPS_TO_SGD[0]
    return judge_reproduction(
        rp.within_spread(speed, sd_m, 2.3, sd_p),
        f"speedup (SGD steps / EM steps to SGD level): paper 2.3 (1000/(430 +- 143): sd "
        f"{sd_p:.2f}), measured {speed:.2f} +- {sd_m:.2f} ({note})",
        part="speedup",
        reading="B",
        numbers={"n_seeds": len(stl), "metric": "speedup", **scale},
    )


def speedup_consistent(sgd_steps: float, em_steps: float, claimed: float) -> bool:
    """Whether the paper's '2.3x' is its own steps ratio, sgd_steps / em_steps, to 0.05."""
    return abs(sgd_steps / em_steps - claimed) < 0.05


#: The other readings of the chain min_entropy reports (label -> (transition reading, unit,
#: what)); the printed rule propto d is the one gda.exp.sticky.task calls an erratum.
MIN_ENTROPY_READINGS = {
    "printed_bits": ("A", "bits", "the printed rule (weights $\\propto d$), in bits as L434 says"),
    "printed_nats": ("A", "nats", "the printed rule (weights $\\propto d$), in nats"),
    "inv_d": ("B", "nats", "weights $\\propto 1/d$ (gda.exp.sticky.task's reading B_inv_d), nats"),
    "inv_d2": ("B2", "nats", "weights $\\propto 1/d^2$, nats"),
    "exp_d": ("Bexp", "nats", "weights $\\propto e^{-d}$, nats"),
    "uniform": ("C", "nats", "uniform off-diagonal weights, nats"),
}


@verify.claim(
    "gda.exp.sticky.min_entropy",
    paper=PAPER,
    where="Table 1 row L428; caption L421; L434",
    kind="experiment",
    statement=(
        r"\text{Theoretical Min Entropy }1.829\ \text{(bits, L434), computed from the transition "
        r"matrix; actual minimum is slightly higher due to input noise}"
    ),
    readings={k: v[2] for k, v in MIN_ENTROPY_READINGS.items()},
    headline=("A", "the chain L395 means, 'the nearby symbol gets higher probability than the "
                   "distant one', with weights $2^{-d}$ (gda.exp.sticky.task's reading B), in the "
                   "nats of Table 1 (L423-428: SGD's entropy 2.077 is ln 8, the uniform "
                   "predictor); L434's 'bits' and L395's 'proportional to the distance' are "
                   "errata, kept as readings printed_bits / printed_nats"),
    expect="REPRODUCED",
)
def sticky_min_entropy(ctx):
    """The headline (reading A) is the chain the paper means, in the unit of its table: L395's
    "the nearby symbol gets higher probability" with the parameter-free rule that halves the
    weight with each step of circular distance (2^-d), in nats (Table 1 is in nats:
    gda.exp.sticky.table1, reading "consistency"). Its entropy rate H = sum_y pi_y H(P_y.) is
    1.8303 nats against the printed 1.829 (REPRODUCED: within 0.005; the last digit differs by
    one). The e^-bd family's nats root, b = 0.697 (part "families"), is within 1% of ln 2,
    which corroborates the rule. The printed rule (weights propto d; gda.exp.sticky.task calls
    it an erratum) and the other decreasing rules are readings beside it, each NOT_REPRODUCED
    (1.899 nats / 2.740 bits printed; 1.883 for 1/d; 1.720 e^-d; 1.668 1/d^2; 1.973 uniform).
    The Bayes loss with input noise (forward filter, Monte Carlo) on sequences sampled from the
    2^-d chain that heads is compared with its entropy rate H (L421: "actual minimum is
    slightly higher due to input noise"); gda.exp.sticky.task heads with the same rule."""
    P2 = transition_matrix(INTENDED_CHAIN)
    H2 = entropy_rate(P2)
    H = {rd: entropy_rate(transition_matrix(rd)) for rd in TRANSITION_READINGS}
    table = {"2^-d": H2, **H}
    numbers = {"all_readings_nats": table,
               "all_readings_bits": {k: v / LN2 for k, v in table.items()}}
    out = [entropy_rate_evidence(H2, "nats", rule="weights $2^{-d}$ (halving per step of distance)",
                                 numbers=numbers)]
    for label, (rd, unit, _) in MIN_ENTROPY_READINGS.items():
        meas = H[rd] / (LN2 if unit == "bits" else 1.0)
        out.append(entropy_rate_evidence(meas, unit, rule=f"transition reading {rd}",
                                         reading=label))
    out.append(_families_giving_min_entropy())
    g = ctx.torch_generator("bayes")
    P = P2
    mu = torch.randn(1, 8, 20, generator=g, dtype=torch.float64, device=g.device)
    y, _, X = sample_sequences(
        g, torch.tensor(P, device=g.device), mu, ctx.pick(quick=3000, deep=50000), torch.float64
    )
    bl = bayes_filter_loss(P, mu[0].cpu().numpy(), X[0].cpu().numpy(), y[0].cpu().numpy())
    acc = float(P.max(1).mean())
    out.append(noise_floor_evidence(bl, H2, acc))
    return out


def entropy_rate_evidence(measured: float, unit: str, rule: str = "weights $\\propto d$",
                          **evidence_kw: Any) -> Evidence:
    """Table 1's "Theoretical Min Entropy 1.829" against the entropy rate of the chain with
    transition ``rule``, computed in closed form (no sampling): judged within 0.005 of 1.829
    (:func:`verify.numeric.reproduce.within_tolerance`)."""
    numbers = {
        "metric": f"entropy rate ({unit})",
        **evidence_kw.pop("numbers", {}),
        "scale": "paper",
        "setting": "entropy rate of the transition matrix in closed form: no sample size",
    }
    return judge_reproduction(
        rp.within_tolerance(measured, MIN_ENTROPY, 0.005, f"entropy rate ({unit})"),
        f"entropy rate of the chain with {rule} = {measured:.4f} {unit} vs 1.829",
        numbers=numbers,
        **evidence_kw,
    )


#: L434's residual gap of ~0.17 bits between the trained models and the theoretical minimum,
#: which the paper attributes to capacity: a noise floor above the entropy rate by more than
#: this would explain the gap by itself, and then "slightly higher" (L421) is not slight.
RESIDUAL_GAP_NATS = 0.17 * LN2
#: The Monte-Carlo spread of the Bayes-loss estimate (nats).
MC_SPREAD_NATS = 0.02


def noise_floor_evidence(bayes_loss: float, entropy_rate_nats: float, acc: float) -> Evidence:
    """L421, "actual minimum is slightly higher due to input noise": the Bayes loss with input
    noise (forward filter, Monte Carlo) against the entropy rate H of the chain. It cannot lie
    below H (the filter sees less than the states), so an estimate more than the Monte-Carlo
    spread below H is UNDECIDED (sampling noise, or a broken estimate, not evidence). SUPPORTED
    when it exceeds H by at most L434's residual gap of 0.17 bits; REFUTED when it exceeds H by
    more: the noise alone would then account for the gap the paper puts down to capacity."""
    gap = bayes_loss - entropy_rate_nats
    numbers = {"bayes_loss_nats": bayes_loss, "entropy_rate_nats": entropy_rate_nats,
               "gap_nats": gap, "slight_at_most_nats": RESIDUAL_GAP_NATS,
               "bayes_accuracy": acc}
    summary = (f"Bayes loss with input noise (forward filter, mu ~ N(0,I_20)) = {bayes_loss:.4f} "
               f"nats vs entropy rate {entropy_rate_nats:.4f} nats (the $2^{{-d}}$ chain), gap "
               f"{gap:+.4f} (slight: <= {RESIDUAL_GAP_NATS:.3f}, L434's 0.17 bits); Bayes-optimal "
               f"accuracy {acc:.3f}")
    kw = {"reading": "noise", "part": "noise", "numbers": numbers}
    if gap < -MC_SPREAD_NATS:
        return Evidence.undecided(summary + ": below the floor by more than the Monte-Carlo "
                                  "spread", method="numeric", **kw)
    if gap > RESIDUAL_GAP_NATS:
        return Evidence(Verdict.REFUTED, summary + ": not slight", method="numeric",
                        counterexample={"bayes_loss_nats": bayes_loss,
                                        "entropy_rate_nats": entropy_rate_nats}, **kw)
    return Evidence(Verdict.SUPPORTED, summary, method="numeric", **kw)


#: The parameter range searched in the one-parameter transition families (both signs: a < 0
#: puts the mass on distant states, a > 0 on the two neighbours).
FAMILY_RANGE = (-30.0, 30.0)


def family_roots(f: Callable[[float], float], lo: float, hi: float, n: int = 601) -> list[float]:
    """Every root of ``f`` in ``[lo, hi]`` that a grid of ``n`` points brackets.

    A root is bracketed where ``f`` changes sign between two neighbouring grid points (or is
    exactly 0 at one), and each bracket is refined by ``brentq``; so two roots of a function
    that has the same sign at both ends are both found, and an empty list means that no sign
    change exists on the grid (roots closer together than the grid step can be missed).
    """
    xs = np.linspace(lo, hi, n)
    fs = [f(float(x)) for x in xs]
    roots: list[float] = []
    for k in range(n - 1):
        a, b, fa, fb = float(xs[k]), float(xs[k + 1]), fs[k], fs[k + 1]
        if fa == 0:
            roots.append(a)
        elif fa * fb < 0:
            roots.append(float(brentq(f, a, b)))
    if fs[-1] == 0:
        roots.append(float(xs[-1]))
    return roots


def _families_giving_min_entropy() -> Evidence:
    """Which members of the families propto d^-a and e^-bd have entropy rate 1.829 (nats and
    bits), and the range of entropy rates each family spans over :data:`FAMILY_RANGE`."""
    lo, hi = FAMILY_RANGE
    roots, spans = {}, {}
    for name, reading in (("d^-a", "pow"), ("e^-bd", "exp")):
        grid = np.linspace(lo, hi, 601)
        rates = [entropy_rate(transition_matrix(reading, param=float(a))) for a in grid]
        for unit, sc in (("nats", 1.0), ("bits", LN2)):

            def f(a, reading=reading, sc=sc):
                return entropy_rate(transition_matrix(reading, param=a)) / sc - MIN_ENTROPY

            roots[f"{name} {unit}"] = family_roots(f, lo, hi)
            spans[f"{name} {unit}"] = [min(rates) / sc, max(rates) / sc]

    def show(key: str) -> str:
        if roots[key]:
            return f"{key}: " + ", ".join(f"{r:.3f}" for r in roots[key])
        low, high = spans[key]
        return f"{key}: none (H spans [{low:.3f}, {high:.3f}])"

    return experiment_evidence(
        Verdict.UNDECIDED,
        f"parameters giving 1.829 (sign changes on a grid over [{lo:g}, {hi:g}]): "
        + "; ".join(show(k) for k in roots)
        + "; a parameter fitted to 1.829 reproduces nothing, so these are reported only",
        reading="families",
        part="families",
        numbers={
            "solutions": roots,
            "entropy_rate_span": spans,
            "searched": [lo, hi],
            "scale": "paper",
            "setting": "closed-form entropy rates over a parameter grid: no sample size",
        },
    )


#: Table 1's EM loss and its spread (L425), and the paper's gap to its minimum (L428, L434):
#: the table is in nats (gda.exp.sticky.table1, reading "consistency").
EM_LOSS, EM_LOSS_SD = TABLE1["final loss"]["EM"]
PAPER_GAP = EM_LOSS - MIN_ENTROPY


def capacity_evidence(
    construction_gaps: Sequence[float],
    *,
    paper_gap: float = PAPER_GAP,
    paper_sd: float = EM_LOSS_SD,
    summary: str = "",
    **evidence_kw: Any,
) -> Evidence:
    """The verdict on "the residual gap reflects the limited capacity of a single head" from
    the gaps (nats) between a single-head construction's held-out loss and the Bayes loss,
    one per test batch (the same batches for both).

    With ``g`` their mean and ``tol = 2 sqrt(paper_sd^2 + sd(gaps)^2)`` (Table 1's rule):

    - REFUTED when ``g <= tol``: a single head reaches the minimum achievable with input noise,
      so a gap of the paper's size is not a capacity limit;
    - SUPPORTED when ``g >= paper_gap - tol``: the single heads tried stay as far from the
      minimum as the paper's EM model did (within the tolerance), as a capacity limit predicts;
    - UNDECIDED in between: the single head closes part of the paper's gap, so capacity
      explains at most the rest.
    """
    gaps = np.asarray(construction_gaps, dtype=float)
    if gaps.size == 0 or not np.all(np.isfinite(gaps)):
        return experiment_evidence(Verdict.UNDECIDED, f"{summary}: no finite gap measured",
                                   **evidence_kw)
    g = float(gaps.mean())
    sd = float(gaps.std(ddof=1)) if gaps.size > 1 else 0.0
    tol = 2 * math.sqrt(paper_sd**2 + sd**2)
    numbers = dict(evidence_kw.pop("numbers", {}))
    numbers.update(
        {
            "construction_gap": g,
            "construction_gap_sd": sd,
            "tolerance": tol,
            "paper_gap": paper_gap,
            "n_batches": int(gaps.size),
        }
    )
    counterexample = evidence_kw.pop("counterexample", None)
    lead = (f"construction test, not a re-run of the paper's training: {summary}; " if summary
            else "construction test: ")
    gap = f"single-head gap to the Bayes loss {g:.4f} +- {sd:.4f} nats"
    if g <= tol:
        return experiment_evidence(
            Verdict.REFUTED,
            f"{lead}{gap} <= tolerance {tol:.3f}: a single head reaches the minimum, so the "
            f"paper's gap {paper_gap:.3f} is not a capacity limit",
            numbers=numbers,
            counterexample={**(counterexample or {}), "construction_gap": g, "tolerance": tol},
            **evidence_kw,
        )
    if g >= paper_gap - tol:
        return experiment_evidence(
            Verdict.SUPPORTED,
            f"{lead}{gap} >= paper's gap {paper_gap:.3f} - tolerance {tol:.3f}: the single heads "
            "tried stay as far from the minimum as the paper's EM model, within Table 1's "
            "tolerance, as a capacity limit predicts",
            numbers=numbers,
            **evidence_kw,
        )
    return experiment_evidence(
        Verdict.UNDECIDED,
        f"{lead}{gap}, between the tolerance {tol:.3f} and the paper's gap {paper_gap:.3f} - "
        f"{tol:.3f}: a single head closes part of the gap, capacity explains at most the rest",
        numbers=numbers,
        **evidence_kw,
    )


@verify.claim(
    "gda.exp.sticky.capacity_gap",
    paper=PAPER,
    where="L434",
    kind="experiment",
    statement=(
        r"\text{The residual gap of }\sim0.17\text{ bits from the theoretical minimum likely "
        r"reflects the limited capacity of a single-head architecture}"
    ),
    timeout={"quick": 120, "deep": 7200},
    expect={"quick": "UNDECIDED", "deep": "REFUTED"},
)
def sticky_capacity_gap(ctx):
    """A counterexample to the capacity explanation (L434) is a single head of the paper's
    architecture that reaches the minimum achievable loss. Explicit single-head constructions
    (q = k = c x projected onto span(mu), so that attention is sharp on the positions whose
    input encodes the same previous symbol; W_V onto span(mu); W_O, b_O by convex multinomial
    regression on training sequences; the sharpness c chosen by training loss) are evaluated
    on held-out sequences against the Bayes loss with input noise (forward filter, the same
    sequences), and :func:`capacity_evidence` decides."""
    Pn = transition_matrix(INTENDED_CHAIN)
    H = entropy_rate(Pn)
    g = ctx.torch_generator("cap")
    P = torch.tensor(Pn, dtype=torch.float64, device=g.device)
    mu = torch.randn(1, 8, 20, generator=g, dtype=torch.float64, device=g.device)
    T = ctx.pick(quick=200, deep=2000)
    ytr, _, Xtr = sample_sequences(
        g, P, mu, T, torch.float64, n_batches=ctx.pick(quick=10, deep=20)
    )
    yte, _, Xte = sample_sequences(g, P, mu, T, torch.float64, n_batches=ctx.pick(quick=3, deep=5))
    fits = {c: single_head_fit(mu[0], c, Xtr, ytr, Xte, yte) for c in (2.0, 4.0, 6.0, 10.0)}
    best = min(fits, key=lambda c: fits[c]["train_loss"])
    test = fits[best]["test_losses"]
    bayes = [
        bayes_filter_loss(Pn, mu[0].cpu().numpy(), Xte[k, 0].cpu().numpy(), yte[k, 0].cpu().numpy())
        for k in range(Xte.shape[0])
    ]
    gaps = [t - b for t, b in zip(test, bayes, strict=True)]
    summary = (
        f"single-head construction (c = {best:g}): held-out loss {np.mean(test):.4f} nats vs "
        f"Bayes loss with noise {np.mean(bayes):.4f} and entropy rate {H:.4f} (the $2^{{-d}}$ "
        f"chain, "
        f"nats, T={T})"
    )
    return capacity_evidence(
        gaps,
        summary=summary,
        seed=ctx.seed,
        numbers={
            "construction_test_loss": float(np.mean(test)),
            "bayes_loss": float(np.mean(bayes)),
            "entropy_rate": H,
            "T": T,
            **(
                {"scale": "paper", "setting": f"T={T} (the paper's), 20 train / 5 test sequences"}
                if T == 2000
                else {
                    "scale": "smoke",
                    "setting": f"T={T} vs the paper's 2000, 10 train / 3 test sequences",
                }
            ),
            "by_sharpness": {str(c): f for c, f in fits.items()},
        },
        counterexample={
            "construction": f"W_Q = W_K = {best:g} Q^T, W_V = Q^T (Q: orthonormal basis "
            "of span(mu), zero-padded), W_O, b_O fitted",
            "sharpness": best,
            "seed": ctx.seed,
            "rerun": ctx.rerun_command(),
        },
    )


def single_head_fit(mu: torch.Tensor, c: float, Xtr, ytr, Xte, yte) -> dict:
    """A single causal head (d_x=20, d_k=10, d_v=15, C=8) with W_Q = W_K = c Q^T and W_V = Q^T
    for an orthonormal basis Q of span(mu), and W_O, b_O fitted by multinomial regression on
    the training sequences; its training loss and held-out loss per test batch (nats)."""
    Qb, _ = torch.linalg.qr(mu.T)  # (20, 8) orthonormal basis of span(mu)
    f64, dev = torch.float64, mu.device
    W_Q = torch.zeros(10, 20, dtype=f64, device=dev)
    W_Q[:8] = c * Qb.T
    W_V = torch.zeros(15, 20, dtype=f64, device=dev)
    W_V[:8] = Qb.T
    zeros_O = torch.zeros(8, 15, dtype=f64, device=dev)
    zeros_b = torch.zeros(8, dtype=f64, device=dev)

    def contexts(X, y):
        return head_forward(X, W_Q, W_Q, W_V, zeros_O, zeros_b, y, causal=True).G

    Gtr, Gte = contexts(Xtr, ytr).reshape(-1, 15), contexts(Xte, yte)
    W = torch.zeros(8, 15, dtype=f64, device=dev, requires_grad=True)
    b = torch.zeros(8, dtype=f64, device=dev, requires_grad=True)
    opt = torch.optim.LBFGS([W, b], max_iter=200, line_search_fn="strong_wolfe")
    ylab = ytr.reshape(-1)

    def closure():
        opt.zero_grad()
        loss = torch.nn.functional.cross_entropy(Gtr @ W.T + b, ylab)
        loss.backward()
        return loss

    opt.step(closure)
    with torch.no_grad():
        train = float(torch.nn.functional.cross_entropy(Gtr @ W.T + b, ylab))
        test = [
            float(torch.nn.functional.cross_entropy(Gte[k, 0] @ W.T + b, yte[k, 0]))
            for k in range(Gte.shape[0])
        ]
    return {"train_loss": train, "test_losses": test}


def gradient_ratio_evidence(
    ratios: dict[str, float], what: str, *, reading: str = "A", note: str = "", **evidence_kw: Any
) -> Evidence:
    """The verdict on "value gradients are typically smaller than routing gradients early in
    training" (L415) from the step-0 ratios ||grad W_V|| / ||routing gradient|| per init std
    (``ratios``; the paper gives no init scale): SUPPORTED when the value gradient is smaller
    at every init scale tried, REFUTED when it is larger at every one (the ratios are the
    counterexample), otherwise UNDECIDED, "depends on the init scale", with where it holds."""
    below = [k for k, r in ratios.items() if r < 1]
    above = [k for k, r in ratios.items() if r > 1]
    shown = ", ".join(f"{k}: {r:.3g}" for k, r in ratios.items())
    lead = f"||grad W_V|| / ||{what}|| at step 0 by init std: {shown}"
    tail = " (init scale not given in the paper)" + note
    if ratios and not above:
        return Evidence(
            Verdict.SUPPORTED,
            f"{lead}: value gradients smaller at every init scale{tail}",
            reading=reading,
            **evidence_kw,
        )
    if ratios and not below:
        ce = {"by_init_std": dict(ratios), **evidence_kw.pop("counterexample", {})}
        return Evidence(
            Verdict.REFUTED,
            f"{lead}: value gradients larger at every init scale{tail}",
            reading=reading,
            counterexample=ce,
            **evidence_kw,
        )
    evidence_kw.pop("counterexample", None)
    return Evidence(
        Verdict.UNDECIDED,
        f"{lead}; depends on the init scale: value gradients smaller only for init std "
        + ", ".join(below)
        + tail,
        reading=reading,
        **evidence_kw,
    )


@verify.claim(
    "gda.exp.sticky.grad_magnitude_rationale",
    paper=PAPER,
    where="L415 (grouping L413)",
    kind="property",
    statement=(
        r"\text{value gradients are typically smaller in magnitude than routing gradients early in "
        r"training}"
    ),
    readings={"B": "routing group = W_Q, W_K, W_O (L413)"},
    undecided=("open_setting",
               "the paper does not give the init scale (L391-415), and the answer turns on it: "
               "||grad W_V|| / ||(grad W_Q, grad W_K)|| is about 211, 2.4, 0.86, 0.47 at init "
               "std 0.01, 0.1, 0.3, 1 (the claim fails for small inits, holds for large ones)"),
    expect="UNDECIDED",
)
def grad_magnitude_rationale(ctx):
    """UNDECIDED under both readings: the answer depends on the init scale, which the paper does
    not give (L391-415). ||grad W_V|| / ||(grad W_Q, grad W_K)|| (Reading A) is 211, 2.4, 0.86,
    0.47 at init std 0.01, 0.1, 0.3, 1 (the score gradient is cubic in the init scale, the value
    gradient linear), so the claim fails for small inits and holds for large ones; with W_O in the
    routing group (Reading B, the grouping of L413) the ratio is 1.12, 0.90, 0.64, 0.42. A verdict
    at one chosen init (the harness default 0.1) would rest on our choice, not the paper's, so
    :func:`gradient_ratio_evidence` decides over the init scales. The sweep (norms and
    per-entry RMS) and the trained-run ratio over the first 100 steps (at std 0.1) are in the
    numbers."""
    out = []
    g = ctx.torch_generator("gm")
    P = torch.tensor(transition_matrix(INTENDED_CHAIN), dtype=torch.float64, device=g.device)
    T = ctx.pick(quick=100, deep=2000)
    rows = {}
    counter = None
    for std in (0.01, 0.1, 0.3, 1.0):
        mu = torch.randn(5, 8, 20, generator=g, dtype=torch.float64, device=g.device)
        y, _, X = sample_sequences(g, P, mu, T, torch.float64)
        p = {
            "W_Q": torch.randn(5, 10, 20, generator=g, dtype=torch.float64, device=g.device) * std,
            "W_K": torch.randn(5, 10, 20, generator=g, dtype=torch.float64, device=g.device) * std,
            "W_V": torch.randn(5, 15, 20, generator=g, dtype=torch.float64, device=g.device) * std,
            "W_O": torch.randn(5, 8, 15, generator=g, dtype=torch.float64, device=g.device) * std,
            "b_O": torch.zeros(5, 8, dtype=torch.float64, device=g.device),
        }
        cf = closed_form_grads(
            head_forward(X, *(p[k] for k in PARAM_NAMES), y, causal=True, reduction="mean")
        )
        nrm = {
            k: cf.__dict__["d" + k].reshape(5, -1).norm(dim=-1)
            for k in ("W_Q", "W_K", "W_V", "W_O")
        }
        rms = {k: nrm[k] / math.sqrt(p[k][0].numel()) for k in nrm}
        routA = torch.sqrt(nrm["W_Q"] ** 2 + nrm["W_K"] ** 2)
        routB = torch.sqrt(routA**2 + nrm["W_O"] ** 2)
        rows[str(std)] = {
            "norms": {k: float(v.mean()) for k, v in nrm.items()},
            "rms": {k: float(v.mean()) for k, v in rms.items()},
            "V/routing_A": float((nrm["W_V"] / routA).mean()),
            "V/routing_B": float((nrm["W_V"] / routB).mean()),
        }
        if std == 0.1 and bool((nrm["W_V"] > routA).all()):
            counter = {
                "init_std": 0.1,
                "T": T,
                "seeds": 5,
                "norm_grad_W_V": float(nrm["W_V"].mean()),
                "norm_grad_W_Q": float(nrm["W_Q"].mean()),
                "norm_grad_W_K": float(nrm["W_K"].mean()),
                "rerun": ctx.rerun_command(),
            }
    cfg, log = trained(ctx.profile, ctx.run_seed, ctx.device)
    early = {k: log.grad_norms[k][:, :100].mean(1) for k in PARAM_NAMES}
    traj = {
        "V/QK over first 100 steps (mean over runs)": float(
            np.mean(early["W_V"] / np.sqrt(early["W_Q"] ** 2 + early["W_K"] ** 2))
        )
    }
    for rd, key, what in (
        ("A", "V/routing_A", "(grad W_Q, grad W_K)"),
        ("B", "V/routing_B", "(grad W_Q, grad W_K, grad W_O)"),
    ):
        note = f"; T={T} sequences, 5 seeds"
        if rd == "A":
            note += (
                "; trained run (std 0.1), first 100 steps: "
                f"{traj['V/QK over first 100 steps (mean over runs)']:.3g}"
            )
        out.append(
            gradient_ratio_evidence(
                {k: v[key] for k, v in rows.items()},
                what,
                reading=rd,
                note=note,
                numbers={"by_init_std": rows, **traj, "init_std_0.1_all_seeds": counter},
                counterexample={"rerun": ctx.rerun_command()},
                seed=ctx.seed,
            )
        )
    return out


@verify.claim(
    "gda.exp.sticky.speedup_attribution",
    paper=PAPER,
    where="L410-415, L434, L452",
    kind="experiment",
    statement=(
        r"\text{This acceleration occurs because the EM-motivated learning rate schedule (with "
        r"larger LR for values) allows values to specialize more rapidly, whereas uniform SGD must "
        r"balance routing and content updates at the same rate.}"
    ),
    timeout={"quick": 120, "deep": 7200},
    expect={"quick": "UNDECIDED", "deep": "REFUTED"},
)
def speedup_attribution(ctx):
    """Baselines on the same paired seeds: uniform SGD 0.03/0.1/0.3, W_O-only 0.1, Adam 0.01/0.03.
    Per protocol and seed, the steps to the SGD run's final loss; :func:`attribution_evidence`
    judges the attribution ("because the larger LR for values ..., whereas uniform SGD must
    balance routing and content at the same rate") by paired t-tests over the seeds, the
    controlled comparison first (only W_O's rate raised to 0.1, the values at SGD's rate).
    Also records what 'matched total parameter updates per step' amounts to (one gradient per
    step for all; the update norms differ). expect=UNDECIDED is the quick verdict: its runs
    (T=100, 3 seeds, 400 steps) carry scale="smoke", which decides nothing; in quick every
    protocol stays close to the chance loss ln 8 = 2.079 (EM ends at ~2.07), as the paper's own
    SGD does (2.058). Deep: the paper's T=2000, 5 seeds, 1000 steps."""
    base = profile_config(ctx.profile)
    protos = ("SGD", "EM", "SGD0.03", "SGD0.1", "SGD0.3", "WO0.1", "Adam0.01", "Adam0.03")
    cfg = replace(
        base,
        protocols=protos,
        n_seeds=ctx.pick(quick=3, deep=5),
        steps=ctx.pick(quick=400, deep=1000),
    )
    log = cached_train(cfg, ctx.run_seed, ctx.device)
    sgd = log.runs("SGD")
    rows = {}
    for nm in protos:
        rr = log.runs(nm)
        stl = [
            steps_to_level(log.loss[r], log.steps, log.loss[s, -1])
            for r, s in zip(rr, sgd, strict=True)
        ]
        rows[nm] = {
            "final_loss": float(log.loss[rr, -1].mean()),
            "final_acc": float(log.acc[rr, -1].mean()),
            "steps_to_SGD_level": float(np.nanmean(stl)) if np.isfinite(stl).any() else None,
            "steps_per_seed": [s if math.isfinite(s) else None for s in stl],
            "final_loss_per_seed": [float(x) for x in log.loss[rr, -1]],
        }
    note = scale_note(cfg) + f", {cfg.n_seeds} seeds, {cfg.steps} steps"
    return attribution_evidence(
        rows,
        note,
        scale_fields(cfg),
        {"seed": ctx.run_seed, "rerun": ctx.rerun_command()},
        cfg.steps,
    )


#: The controlled comparison of speedup_attribution: SGD with only W_O's rate raised (to 0.1),
#: the values at SGD's rate, on EM's seeds; then the uniform-rate baselines.
WO_CONTROL = "WO0.1"
UNIFORM_BASELINES = ("SGD0.03", "SGD0.1", "SGD0.3")

#: Below this 95% upper bound on the share of EM's acceleration that the W_O-only control does
#: not reach, most of the acceleration occurs with the values at SGD's rate.
SHARE_LIMIT = 0.5


def _steps(rows: dict[str, dict], name: str, horizon: int) -> np.ndarray:
    """Per-seed steps to the SGD level of ``name``; a run that never reaches it counts as
    ``horizon + 1``, slower than any run that does (its true time is longer still)."""
    return np.array([horizon + 1.0 if s is None or not math.isfinite(s) else float(s)
                     for s in rows[name]["steps_per_seed"]])


def _all_reached(rows: dict[str, dict], name: str) -> bool:
    return all(s is not None and math.isfinite(s) for s in rows[name]["steps_per_seed"])


def faster(rows: dict[str, dict], a: str, b: str, horizon: int) -> dict[str, Any]:
    """``a`` against ``b`` on the same seeds, steps to the SGD level, by the engine's paired
    t-test (:func:`verify.numeric.reproduce.ranking`, two-sided, alpha = 0.05): outcome
    ``"faster"`` when ``a`` is significantly faster and every run of ``a`` reached the level
    (a run counted at the horizon would flatter it), ``"slower"`` when significantly slower
    and every run of ``b`` reached it, else ``"tie"``."""
    sa, sb = _steps(rows, a, horizon), _steps(rows, b, horizon)
    finding = rp.ranking({a: sa, b: sb}, a, paired=True)
    pair = finding.numbers.get("pairs", {}).get(f"{a} vs {b}", {})
    p = float(pair.get("p", float("nan")))
    outcome = {"claimed": "faster", "reversed": "slower"}.get(pair.get("outcome"), "tie")
    if (outcome == "faster" and not _all_reached(rows, a)) or (
            outcome == "slower" and not _all_reached(rows, b)):
        outcome = "tie"
    return {"p": p, "mean": [float(sa.mean()), float(sb.mean())], "outcome": outcome,
            "test": finding.tolerance}


def value_rate_share(rows: dict[str, dict], horizon: int) -> tuple[float, float, float]:
    """The share of EM's acceleration over SGD that the W_O-only control does not reach,
    ``mean(s_WO - s_EM) / mean(s_SGD - s_EM)`` over the paired seeds (``s``: steps to the SGD
    level), with the 95% t-interval of the numerator's mean: ``(estimate, low, high)``. Near 0
    the control has all of EM's acceleration without the larger value rate; near 1 the value
    rate carries it."""
    s_em, s_wo = _steps(rows, "EM", horizon), _steps(rows, WO_CONTROL, horizon)
    gain = float((_steps(rows, "SGD", horizon) - s_em).mean())
    m, half = rp.t_ci95(s_wo - s_em)
    if gain <= 0:
        return float("nan"), float("nan"), float("nan")
    return m / gain, (m - half) / gain, (m + half) / gain


def attribution_evidence(rows: dict[str, dict], note: str, scale: dict, rerun: dict,
                         horizon: int) -> Evidence:
    """The attribution of L434 ("This acceleration occurs because the ... larger LR for values
    allows values to specialize more rapidly, whereas uniform SGD must balance routing and
    content updates at the same rate") from each protocol's per-seed steps to the SGD level
    (``rows[name]["steps_per_seed"]``, None when never reached within ``horizon`` steps) on
    the same seeds, by paired t-tests (:func:`faster`) and the value rate's share of the
    acceleration (:func:`value_rate_share`), the controlled comparison first:

    - the premise: EM significantly faster than SGD; without it there is no acceleration to
      attribute (UNDECIDED);
    - REFUTED (controlled) when the W_O-only control (:data:`WO_CONTROL`: only W_O's rate
      raised, the values at SGD's rate) is significantly faster than SGD and the 95% upper
      bound of the value rate's share is below :data:`SHARE_LIMIT`: most of the acceleration
      occurs without the larger value rate;
    - REFUTED when a uniform-rate baseline (:data:`UNIFORM_BASELINES`) is significantly faster
      than EM: uniform SGD needs no separate rate for the values;
    - SUPPORTED when EM is significantly faster than the control and than every uniform
      baseline, and the share's 95% lower bound is above :data:`SHARE_LIMIT`;
    - UNDECIDED (inconclusive) otherwise, with every test in the evidence."""
    tests = {"EM vs SGD": faster(rows, "EM", "SGD", horizon)}
    if WO_CONTROL in rows:
        tests[f"{WO_CONTROL} vs SGD"] = faster(rows, WO_CONTROL, "SGD", horizon)
        tests[f"EM vs {WO_CONTROL}"] = faster(rows, "EM", WO_CONTROL, horizon)
    for nm in UNIFORM_BASELINES:
        tests[f"EM vs {nm}"] = faster(rows, "EM", nm, horizon)
    share = value_rate_share(rows, horizon) if WO_CONTROL in rows else (float("nan"),) * 3
    numbers = {"protocols": rows, "paired_tests": tests,
               "value_rate_share": {"estimate": share[0], "ci95": [share[1], share[2]]},
               "test": f"{rp.PAIRED_TEST}, alpha={rp.ALPHA:g}, "
                       f"{len(rows['EM']['steps_per_seed'])} seeds",
               "criterion": f"REFUTED when the control is significantly faster than SGD and "
                            f"the value rate's share has 95% upper bound < {SHARE_LIMIT:g}, or "
                            "a uniform-rate run is significantly faster than EM",
               **scale}

    def mean_steps(nm: str) -> str:
        return f"{_steps(rows, nm, horizon).mean():.0f}"

    em_sgd = tests["EM vs SGD"]
    lead = (f"W_O-only control ({WO_CONTROL}: values at SGD's rate) reaches the SGD level in "
            f"{mean_steps(WO_CONTROL)} steps (mean), EM in {mean_steps('EM')}, SGD in "
            f"{mean_steps('SGD')}; control vs SGD p = {tests[f'{WO_CONTROL} vs SGD']['p']:.2g} "
            f"({tests[f'{WO_CONTROL} vs SGD']['outcome']}), EM vs control p = "
            f"{tests[f'EM vs {WO_CONTROL}']['p']:.2g} ({tests[f'EM vs {WO_CONTROL}']['outcome']}); "
            f"share of EM's acceleration the control lacks {share[0]:.2f} (95% CI "
            f"[{share[1]:.2f}, {share[2]:.2f}])" if WO_CONTROL in rows else "no W_O-only control")
    uniform_faster = [nm for nm in UNIFORM_BASELINES
                      if tests[f"EM vs {nm}"]["outcome"] == "slower"]
    uniform = "; ".join(f"EM vs {nm}: p = {tests[f'EM vs {nm}']['p']:.2g} "
                        f"({tests[f'EM vs {nm}']['outcome']})" for nm in UNIFORM_BASELINES)
    tail = f"; uniform rates: {uniform} (paired t-tests, alpha = {rp.ALPHA:g}; {note})"
    if em_sgd["outcome"] != "faster":
        return experiment_evidence(
            Verdict.UNDECIDED, f"EM is not significantly faster than SGD (p = {em_sgd['p']:.2g}):"
            f" no acceleration to attribute; {lead}{tail}", numbers=numbers)
    control = (WO_CONTROL in rows and tests[f"{WO_CONTROL} vs SGD"]["outcome"] == "faster"
               and share[2] < SHARE_LIMIT)
    if control or uniform_faster:
        first = WO_CONTROL if control else uniform_faster[0]
        why = (f"most of EM's acceleration occurs with the values at SGD's rate (share's upper "
               f"bound {share[2]:.2f} < {SHARE_LIMIT:g}): a controlled comparison contradicts "
               "the attribution" if control else
               f"uniform-rate {uniform_faster} is significantly faster than EM")
        return experiment_evidence(
            Verdict.REFUTED, f"{lead}: {why}{tail}", numbers=numbers,
            counterexample={
                "protocol": first,
                "lrs": ("only W_O's rate raised, the values at SGD's" if control
                        else "all parameters at the same rate"),
                "result": rows[first],
                "EM": rows["EM"],
                **rerun,
            },
        )
    beats_all = (WO_CONTROL in rows and tests[f"EM vs {WO_CONTROL}"]["outcome"] == "faster"
                 and share[1] > SHARE_LIMIT
                 and all(tests[f"EM vs {nm}"]["outcome"] == "faster" for nm in UNIFORM_BASELINES))
    if beats_all:
        return experiment_evidence(
            Verdict.SUPPORTED, f"EM is significantly faster than the W_O-only control and every "
            f"uniform-rate baseline; {lead}{tail}", numbers=numbers)
    return experiment_evidence(
        Verdict.UNDECIDED, f"{lead}: the tests leave the attribution open{tail}",
        numbers=numbers)


def _value_displacements(log, runs, n_pos: int, rng, ends: list | None = None):
    """Displacements v_j(final) - v_j(init) of n_pos sampled positions of the fixed probe sequence.

    With ``ends`` (a list), the (init, final) value clouds of each run are appended to it.
    """
    out = []
    for r in runs:
        s = r % log.config.n_seeds
        X = log.eval_X[s].double()
        idx = rng.choice(X.shape[0], size=min(n_pos, X.shape[0]), replace=False)
        V0 = X[idx] @ log.init["W_V"][s].double().T
        V1 = X[idx] @ log.final["W_V"][r].double().T
        out.append((V1 - V0).cpu().numpy())
        if ends is not None:
            ends.append((V0.cpu().numpy(), V1.cpu().numpy()))
    return out


def _pca_basis(clouds: list[np.ndarray]) -> np.ndarray:
    """The top-2 principal axes of the pooled value clouds (init and final, both protocols,
    one seed): the plane of Fig. 9, as a (d_v, 2) basis."""
    P = np.concatenate(clouds, 0)
    _, _, Vt = np.linalg.svd(P - P.mean(0), full_matrices=False)
    return Vt[:2].T


def _coherence(D: np.ndarray) -> float:
    """Mean pairwise *signed* cosine of the displacements. It compresses alignment: a field
    whose displacements all lie on one line but point both ways along it scores far below 1
    (the rank-one control of :func:`value_trajectories` measures how far), so it is reported
    and decides nothing."""
    N = D / np.maximum(np.linalg.norm(D, axis=1, keepdims=True), 1e-300)
    C = N @ N.T
    return float(C[np.triu_indices(len(D), 1)].mean())


def alignment(D: np.ndarray) -> float:
    """Mean pairwise |cos| of the displacements: 1 for a rank-one field whatever the signs
    along the line, about sqrt(2 / (pi d)) for isotropic directions in R^d. The statistic by
    which "more coherent" is judged (the statistic of gda.exp.toy.value_pca)."""
    N = D / np.maximum(np.linalg.norm(D, axis=1, keepdims=True), 1e-300)
    return float(np.abs(N @ N.T)[np.triu_indices(len(D), 1)].mean())


def trajectory_evidence(per_seed: dict[str, dict[str, list[float]]], key: str, part: str,
                        reading: str, note: str, numbers: dict) -> Evidence:
    """One half of Fig. 9's "EM induces longer, more coherent trajectories than SGD" from the
    per-seed values ``per_seed[protocol][key]`` (the paired seeds of both protocols): EM
    higher than SGD, judged by the engine's ranking rule (a two-sided paired t-test at alpha =
    0.05; a tie neither reproduces nor refutes)."""
    runs = {nm: per_seed[nm][key] for nm in ("EM", "SGD")}
    means = ", ".join(f"{nm} {np.mean(v):.3f}" for nm, v in runs.items())
    return judge_reproduction(
        rp.ranking(runs, "EM", better="higher", paired=True),
        f"{part}: {key} per seed, mean {means} ({note})",
        part=part, reading=reading, numbers={"metric": key, **numbers})


@verify.claim(
    "gda.exp.sticky.value_trajectories",
    paper=PAPER,
    where="Fig. 9, L442-450; L434",
    kind="experiment",
    statement=(
        r"\text{EM induces longer, more coherent trajectories from initial to final positions than "
        r"SGD}"
    ),
    readings={
        "full-space": "coherence measured in the full value space instead of the PCA plane of "
        "Fig. 9"
    },
    timeout={"quick": 120, "deep": 7200},
    expect={"quick": "UNDECIDED", "deep": "UNDECIDED"},
)
def value_trajectories(ctx):
    """200 positions of the fixed probe sequence (the same positions for both protocols),
    v_j = W_V x_j, per paired seed: the mean displacement length and the alignment of the
    displacements (:func:`alignment`, mean pairwise |cos|) in the top-2 PCA plane of the pooled
    value clouds (reading A, the plane of Fig. 9) and in the full space (reading
    "full-space"). Each half ("longer", "more coherent") is a ranking EM over SGD judged by
    the engine's rule (:func:`trajectory_evidence`: paired t-test, alpha = 0.05, a tie
    decides nothing). The paper draws Fig. 9 without a coherence statistic; the signed mean
    cosine (:func:`_coherence`) compresses alignment (a rank-one Delta W_V of equal norm,
    whose displacements all lie on one line, scores far below 1 on it: reported as
    ``rank_one_signed_coherence``), so it is reported beside and decides nothing.
    expect=UNDECIDED is the quick verdict: its runs (T=100) carry scale="smoke". Deep (T=2000,
    5 seeds, seed 0): EM's trajectories are longer (significant), while their alignment ties
    with SGD's in the PCA plane and in the full space, so "more coherent" decides nothing and
    the claim is UNDECIDED."""
    cfg, log = trained(ctx.profile, ctx.run_seed, ctx.device)
    per_seed: dict[str, dict[str, list[float]]] = {}
    signed: dict[str, dict[str, float]] = {}
    Dsall, endsall = {}, {}
    for nm in ("EM", "SGD"):
        ends: list = []
        Ds = _value_displacements(
            log, log.runs(nm), 200, np.random.default_rng(ctx.subseed("traj_pos")), ends
        )
        Dsall[nm], endsall[nm] = Ds, ends
        per_seed[nm] = {"length": [float(np.linalg.norm(D, axis=1).mean()) for D in Ds],
                        "alignment": [alignment(D) for D in Ds],
                        "alignment_pca_plane": []}
        signed[nm] = {"coherence": float(np.mean([_coherence(D) for D in Ds]))}
    pca_signed: dict[str, list[float]] = {"EM": [], "SGD": []}
    for k, (De, Dg) in enumerate(zip(Dsall["EM"], Dsall["SGD"], strict=True)):
        B = _pca_basis([*endsall["EM"][k], *endsall["SGD"][k]])
        for nm, D in (("EM", De), ("SGD", Dg)):
            per_seed[nm]["alignment_pca_plane"].append(alignment(D @ B))
            pca_signed[nm].append(_coherence(D @ B))
    for nm in ("EM", "SGD"):
        signed[nm]["coherence_pca_plane"] = float(np.mean(pca_signed[nm]))
    numbers = {"per_seed": per_seed, "signed_coherence_decides_nothing": signed,
               **_trajectory_controls(ctx, log),
               "EM_SGD_length_ratio": float(np.mean(per_seed["EM"]["length"])
                                            / np.mean(per_seed["SGD"]["length"])),
               **scale_fields(cfg)}
    ctl = ("controls: a rank-one $\\Delta W_V$ of equal norm scores "
           f"{numbers['rank_one_alignment']:.2f} "
           f"alignment but {numbers['rank_one_signed_coherence']:.2f} signed coherence, a "
           f"random one {numbers['random_dW_V_alignment']:.2f} / "
           f"{numbers['random_dW_V_signed_coherence']:.2f}")
    note = f"{scale_note(cfg)}, {cfg.n_seeds} seeds; both protocols apply (32) to $W_V$"
    out = []
    for rd, key, where in (("A", "alignment_pca_plane", "in the top-2 PCA plane (Fig. 9)"),
                           ("full-space", "alignment", "in the full $d_v = 15$ space")):
        out.append(trajectory_evidence(per_seed, key, "more coherent", rd,
                                       f"{where}; {ctl}; {note}", numbers))
        out.append(trajectory_evidence(per_seed, "length", "longer", rd, note, numbers))
    return out


def _trajectory_controls(ctx, log) -> dict[str, float]:
    """Both statistics on the displacements of two Delta W_V of the norm of EM's first run:
    a random one (no coherence) and a rank-one one (every displacement on one line)."""
    g = ctx.torch_generator("rand")
    X = log.eval_X[0].double()[:200]
    dW = log.final["W_V"][log.runs("EM")[0]].double() - log.init["W_V"][0].double()
    Rw = torch.randn(dW.shape, generator=g, dtype=torch.float64, device=g.device)
    u = torch.randn(dW.shape[0], 1, generator=g, dtype=torch.float64, device=g.device)
    v = torch.randn(1, dW.shape[1], generator=g, dtype=torch.float64, device=g.device)
    out = {}
    for name, M in (("random_dW_V", Rw), ("rank_one", u @ v)):
        D = (X @ (M / M.norm() * dW.norm()).T).cpu().numpy()
        out[f"{name}_signed_coherence"] = _coherence(D)
        out[f"{name}_alignment"] = alignment(D)
    return out


#: "Focused attention": a causal row entropy at least this share below the uniform-prefix
#: entropy ln t (averaged over the rows). A head that attends only to the positions carrying
#: the same previous symbol (1/8 of the prefix, the construction of
#: gda.exp.sticky.capacity_gap) has entropy ln(t/8), ln 8 = 2.08 nats (31% at T = 2000) below.
FOCUS_DROP = 0.1


def focused_attention_evidence(
    entropies: dict[str, Sequence[float]], reference: float, note: str = "", **evidence_kw: Any
) -> Evidence:
    """The attention half of "both converge toward ... specialized values and focused attention;
    the EM-like schedule reaches this state with fewer steps" (L452) from the mean causal
    attention-row entropy of each final run (``entropies`` per protocol, nats) and the
    uniform-prefix entropy ``reference``: a run's attention is focused when its entropy is at
    least ``FOCUS_DROP`` below the reference.

    NOT_REPRODUCED when no EM run is focused: the protocol the paper says reaches the state
    within its 1000 steps (L317, L452) has not. A failed reproduction, not a refutation: no
    controlled comparison contradicts the paper's conclusion (rule 5 of
    :mod:`verify.numeric.reproduce`). UNDECIDED otherwise: 'specialized values' has no
    criterion, and SGD beyond 1000 steps ('ultimately') is not run."""
    limit = (1 - FOCUS_DROP) * reference
    focused = {nm: int(sum(e <= limit for e in es)) for nm, es in entropies.items()}
    shown = "; ".join(
        f"{nm} {np.mean(es):.3f} ({focused[nm]}/{len(es)} runs focused)"
        for nm, es in entropies.items()
    )
    lead = (
        f"attention-row entropy {shown} vs uniform prefix {reference:.3f} (focused: at most "
        f"{limit:.3f}, {FOCUS_DROP:g} below){note}"
    )
    numbers = dict(evidence_kw.pop("numbers", {}))
    numbers.update({"focused_runs": focused, "focus_limit": limit, "reference": reference})
    em = entropies.get("EM", [])
    if len(em) and focused["EM"] == 0:
        numbers.update({"EM_entropies": [float(e) for e in em], "paper_value": "focused attention",
                        "measured": float(np.mean(em))})
        return experiment_evidence(
            Verdict.NOT_REPRODUCED,
            f"{lead}: no EM run has focused attention after the paper's steps, so the state the "
            "paper reports was not reproduced",
            numbers=numbers,
            **evidence_kw,
        )
    return experiment_evidence(
        Verdict.UNDECIDED,
        f"{lead}; 'specialized values' has no criterion and SGD past the paper's steps is not run",
        numbers=numbers,
        **evidence_kw,
    )


@verify.claim(
    "gda.exp.sticky.similar_solutions",
    paper=PAPER,
    where="L51; L317; L452",
    kind="experiment",
    statement=(
        r"\text{Both EM-like and SGD training ultimately converge toward similar qualitative "
        r"solutions: specialized values and focused attention}"
    ),
    timeout={"quick": 120, "deep": 7200},
    expect={"quick": "UNDECIDED", "deep": "NOT_REPRODUCED"},
)
def similar_solutions(ctx):
    """After the paper's 1000 steps: mean causal attention-row entropy per run (against the
    uniform-prefix reference mean_t ln t), value PC1 share; :func:`focused_attention_evidence`
    decides. expect=UNDECIDED is the quick verdict: its runs (T=100) carry scale="smoke". At
    T=100 the entropies stay within 4% of the uniform prefix. Deep (the paper's T=2000, 5
    seeds, seed 0): NOT_REPRODUCED, no run of either protocol is focused (attention-row entropy
    within 10% of the uniform prefix)."""
    cfg, log = trained(ctx.profile, ctx.run_seed, ctx.device)
    res, ents = {}, {}
    Tn = cfg.T
    ref = float(np.mean(np.log(np.arange(1, Tn + 1))))
    for nm in ("EM", "SGD"):
        es, pc1 = [], []
        for r in log.runs(nm):
            s = r % cfg.n_seeds
            # float64 forward pass of the trained float32 parameters
            p = {k: v[r : r + 1].double() for k, v in log.final.items()}
            tr = head_forward(
                log.eval_X[s : s + 1].double(),
                *(p[k] for k in PARAM_NAMES),
                log.eval_y[s : s + 1],
                causal=True,
            )
            es.append(float(row_entropy(tr.A).mean()))
            V = tr.V[0].cpu().numpy()
            sv = np.linalg.svd(V - V.mean(0), compute_uv=False) ** 2
            pc1.append(float(sv[0] / sv.sum()))
        ents[nm] = es
        res[nm] = {
            "attention_row_entropy": float(np.mean(es)),
            "attention_row_entropy_per_run": es,
            "value_PC1_share": float(np.mean(pc1)),
        }
    res["uniform_prefix_entropy"] = ref
    return focused_attention_evidence(
        ents,
        ref,
        note=f"; value PC1 share EM {res['EM']['value_PC1_share']:.2f}, SGD "
        f"{res['SGD']['value_PC1_share']:.2f} ({scale_note(cfg)})",
        numbers={**res, **scale_fields(cfg)},
        seed=ctx.run_seed,
    )


@verify.claim(
    "gda.exp.sticky.repro",
    paper=PAPER,
    where="Sec. 7.2 L391-452; Table 1; Figs. 6-9",
    kind="informal",
    statement=(
        r"\text{Reproduction harness of the sticky task (curves of Figs. 6-8, Table 1, baselines, "
        r"probes).}"
    ),
    timeout={"quick": 120, "deep": 7200},
)
def sticky_repro(ctx):
    """The harness itself (not a claim, so kind "informal" and UNDECIDED at every scale):
    reports the loss / accuracy / entropy curves of both protocols (Figs. 6-8) as figure data,
    and every unspecified choice."""
    cfg, log = trained(ctx.profile, ctx.run_seed, ctx.device)
    figs = []
    for metric, arr in (
        ("held-out loss (nats)", log.loss),
        ("accuracy", log.acc),
        ("predictive entropy (nats)", log.ent),
    ):
        figs.append(
            {
                "kind": "curve",
                "x": list(log.steps),
                "series": {nm: arr[log.runs(nm)].mean(0).tolist() for nm in cfg.protocols},
                "xlabel": "step",
                "ylabel": metric,
                "title": f"sticky chain, {scale_note(cfg)}",
            }
        )
    return Evidence.informal(
        f"reproduction harness (not a claim): {cfg.n_seeds} paired seeds x {cfg.protocols}, "
        f"{scale_note(cfg)}, {cfg.steps} steps, eval every {cfg.eval_every}",
        figures=figs,
        numbers={
            "config": cfg.__dict__,
            "run_scale": scale_fields(cfg),  # nested: the harness is informal at every scale
            "final_loss": {nm: float(log.loss[log.runs(nm), -1].mean()) for nm in cfg.protocols},
        },
    )

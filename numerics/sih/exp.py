"""Sec. 5 / App. G: the experiments.

The training rows (Tables 1-2, attention statistics, t-SNE, width test, 2D dynamics) need GPU
training at the settings of Table 6 (the paper reports < 10 GPU-h per 1D model, 55-75 GPU-h per
2D model); they are not re-measured in the quick profile and stay UNDECIDED with that reason
(the deep profile trains the ECA rows at a reduced CPU scale). What is checkable without
training is checked: the metric relation of Auto vs Seq, the Rule-97 arithmetic, the
data-pipeline counts and the compute arithmetic.
"""

from __future__ import annotations

import dataclasses
import math

import verify
from proofs.sih import PAPER
from proofs.sih.model import stream_length, wolfram_table
from verify import Evidence, Verdict
from verify.numeric import experiment_evidence, judge_check, judge_reproduction
from verify.numeric.reproduce import percent_within, wilson
from verify.symbolic import prove_cases, refute_exactly

from .model.training import (
    ECATask,
    TrainConfig,
    attention_statistics,
    build_model,
    eca_rule_classes,
    eca_rule_pools,
    evaluate,
    sample_tokens,
    train,
    trained_eca_row,
)

#: The command that trains the ECA rows (Table 6 (a), (b)) on a CUDA machine, once
#: :data:`ECA_CPU_SCALE` is set to Table 6's D, epochs and batch size.
ECA_COMMAND = ("verify run --claim 'sih.exp.*' --profile deep --device cuda --jobs 1 "
               "--json docs/report/deep/sih.jsonl")


def not_trained(models: str, hours: str, how: str) -> str:
    """The reason an experiment stays UNDECIDED: which models, the GPU-hours the paper reports
    for them (G.5, L1924-1930: < 10 per 1D model, 55-75 per 2D model), and what would run them
    (``how``: the command, or the code this repository lacks)."""
    return (f"not re-measured: needs GPU training of {models}, {hours} by the paper's G.5 "
            f"(one RTX A6000 per run); {how}")


NO_PIPELINE = ("no command runs them here: numerics/sih/model/training.py implements the ECA task "
               "only, not the {what}")


#: Table 1's ECA rows (Table 6 (a), (b)): name, heads per layer, the paper's width, and
#: Cell / Seq / Auto in %.
ECA_ROWS = (("ECA 2L 1+1 heads", (1, 1), 512, (100.0, 100.0, 100.0)),
            ("ECA 2L 3+1 heads", (3, 1), 384, (100.0, 100.0, 100.0)))
#: The reduced scale the deep profile trains them at on a CPU (the paper: D = 384-512, 500
#: epochs of 120k sequences in batches of 1024, lr 1e-3). Cell accuracy is judged on the
#: printed one-decimal value; Seq and Auto by the Wilson 95% interval of the measured rate.
ECA_CPU_SCALE = {"D": 96, "steps": 3000, "batch": 64, "lr": 3e-3, "n_test": 2000, "n_auto": 500}
#: The learning curve: held-out Cell and Seq on the first test sequences every so many steps
#: (shows whether a shortfall is still closing when the budget ends).
ECA_CURVE_EVERY, ECA_CURVE_SEQUENCES = 500, 500


def judge_percent(name: str, metric: str, paper: float, hits: int, n: int, scale: str, *,
                  per_cell: bool) -> Evidence:
    """One Table 1 percentage, by the engine's reproduction rule
    (:func:`verify.numeric.judge_reproduction` with
    :func:`~verify.numeric.reproduce.percent_within`): the paper's one-decimal value +- 0.05
    meets the measured rate's Wilson 95% interval (for cell accuracy, whose cells within a
    sequence are not independent, contains the rate itself). A shortfall is UNDECIDED (a model
    trained at a reduced scale falling short is no evidence against the paper's); above the
    paper's value is REPRODUCED, exceeding it."""
    numbers = {"metric": f"{metric} accuracy (%)", "n_seeds": 1,
               "scale": "stated",
               "setting": (f"{scale}: the deep profile's reduced CPU scale (ECA_CPU_SCALE) "
                           "against the paper's D = 384-512 and 500 epochs of 120k sequences; "
                           "a shortfall stays UNDECIDED (a larger model trained longer may reach "
                           "it), a number reached or exceeded here bounds what the paper's model "
                           "needs")}
    finding = percent_within(paper, hits, n, independent=not per_cell)
    return judge_reproduction(
        finding, f"{name} {metric}: paper {paper:.1f}, measured {100 * hits / n:.2f} ({scale})",
        numbers=numbers, better="higher", shortfall="undecided", part=f"{name} {metric}")


def train_eca_row(ctx, heads: tuple[int, ...]) -> dict:
    """One of Table 1's ECA rows trained at :data:`ECA_CPU_SCALE`, with Cell, Seq and Auto on
    held-out rules (:func:`~numerics.sih.model.training.trained_eca_row`). Seeded from the run's
    seed (not the claim's) and memoised on disk, so sih.exp.table1 and
    sih.exp.attention_concentration measure the same trained 1+1 model, trained once."""
    return trained_eca_row(ctx.run_seed, heads, ctx.device, dict(ECA_CPU_SCALE),
                           ECA_CURVE_EVERY, ECA_CURVE_SEQUENCES)


def learning_curve(name: str, curve: list[tuple[int, float, float]]) -> Evidence:
    """The held-out learning curve of one trained row, reported (not a verdict on the paper's
    number)."""
    points = ", ".join(f"{step}: {100 * c:.1f}/{100 * q:.1f}" for step, c, q in curve)
    return experiment_evidence(
        Verdict.UNDECIDED,
        f"{name} learning curve, held-out Cell/Seq % on {ECA_CURVE_SEQUENCES} sequences by "
        f"step: {points}", part=f"{name} learning curve",
        numbers={"steps": [s for s, _, _ in curve], "cell": [100 * c for _, c, _ in curve],
                 "seq": [100 * q for _, _, q in curve], "n": ECA_CURVE_SEQUENCES})


@verify.claim(
    "sih.exp.table1", paper=PAPER, where="Table 1 L420-429; L416-444; App. G.4 L1915-1922",
    kind="experiment", timeout={"deep": 7200.0},
    statement=r"\text{Cell/Seq/Auto accuracy: ECA 2L 100/100/100; 1D }V=3\text{ 4L 99.9/89.8/86.8,"
              r" 2L 99.8/87.5/85.0;}\ \text{2D VN 4L 99.9/85.7/1.0, 2L 97.9/29.0/12.0, 2L+RPE "
              r"99.5/70.5/1.0}",
    readings={"B": "the citation at L439 refers to the 2-layer existence result (Theorem 4.3), "
                   "not Theorem 4.2"},
    undecided=("needs_compute",
               "GPU training of rows (c)-(g): < 20 GPU-h for (c), (d), 165-225 GPU-h for (e)-(g)"
               " (G.5); run: none here, no training path for them"),
)
def table1(ctx):
    """Reading A per row (each row and metric its own part). The ECA rows (a), (b) are trained
    in the deep profile at a reduced CPU scale (:data:`ECA_CPU_SCALE`: D = 96 instead of
    384-512, 3000 steps of 64 fresh sequences instead of 500 epochs of 120k in batches of 1024);
    a number reached there is REPRODUCED, one fallen short of stays UNDECIDED. The quick
    profile trains nothing (minutes per model). The 1D V = 3 and 2D rows need GPU training
    (UNDECIDED). The citation at L439 as printed (A) names Theorem 4.2, the embedding theorem;
    read as Theorem 4.3 (B) it names the 2-layer existence result. The committed deep run (seed 0,
    1195 s with attention_concentration, docs/papers/sih_deep_training.jsonl): 1+1 Cell / Seq / Auto
    78.6 / 16.3 / 17.6, 3+1 79.7 / 25.4 / 26.0, all below the paper's 100, so UNDECIDED; held-out
    Seq still rising slowly at the end (1+1: 9.6 -> 17.6, 3+1: 9.8 -> 26.0 from step 500 to
    3000)."""
    out = [Evidence.undecided(not_trained(
               "the 1D V = 3 rows (c), (d) and the 2D rows (e)-(g)",
               "< 20 GPU-h for (c), (d) and 165-225 GPU-h for (e)-(g)",
               NO_PIPELINE.format(what="V = 3 and 2D von Neumann data pipelines")),
               part="1D V=3 and 2D rows"),
           Evidence.informal("as printed, L439 cites Theorem 4.2, the embedding theorem, which "
                             "states no 2-layer existence result", part="citation"),
           Evidence.informal("read as Theorem 4.3, the citation names the 2-layer existence "
                             "result (checked as sih.main.thm43)", reading="B",
                             part="citation")]
    if ctx.quick:
        out.append(Evidence.undecided(
            "ECA rows: trained only in the deep profile (reduced CPU scale, ~10 min per model); "
            "at Table 6's scale (D = 384-512, 500 epochs of 120k, batch 1024; < 10 GPU-h per "
            f"model by G.5) the command is `{ECA_COMMAND}` with ECA_CPU_SCALE set to it",
            part="ECA rows"))
        return out
    cfg = ECA_CPU_SCALE
    task = ECATask()
    for name, heads, paper_D, (p_cell, p_seq, p_auto) in ECA_ROWS:
        row = train_eca_row(ctx, heads)
        scale = (f"D={cfg['D']} (paper {paper_D}), {cfg['steps']} steps x {cfg['batch']} "
                 f"sequences, lr {cfg['lr']}, final train loss "
                 f"{sum(row['losses'][-50:]) / 50:.4f}")
        cells = cfg["n_test"] * (task.T - task.M) * task.L
        out += [judge_percent(name, "Cell", p_cell, round(row["cell"] * cells), cells, scale,
                              per_cell=True),
                judge_percent(name, "Seq", p_seq, row["seq_hits"], cfg["n_test"], scale,
                              per_cell=False),
                judge_percent(name, "Auto", p_auto, row["auto_hits"], cfg["n_auto"], scale,
                              per_cell=False),
                learning_curve(name, row["curve"])]
    return out


def incompatible_rows(rows: list[tuple[str, float, float]], n: int = 100) -> list[dict]:
    """The ``(name, Seq %, Auto %)`` rows whose Auto is below Seq beyond sampling error: the
    Wilson 95% interval of Auto at ``n`` samples (the widest the paper's 100-500 allows at
    ``n = 100``) lies wholly below Seq. Under greedy decoding Auto >= Seq per sample."""
    bad = []
    for name, seq, auto in rows:
        lo, hi = wilson(auto / 100, n)
        if hi + 1e-12 < seq / 100:
            bad.append({"row": name, "seq": seq, "auto": auto,
                        f"wilson95_n{n}_around_auto": [lo, hi]})
    return bad


@verify.claim(
    "sih.exp.auto_vs_seq", paper=PAPER, where="Sec. 5.1 L406-409; G.4 L1917-1922; Table 1",
    kind="consistency", expect="REFUTED", timeout={"quick": 240.0},
    statement=r"\text{Seq Acc (teacher forcing) and Auto Acc (own predictions fed back, 4 steps "
              r"from context (Table 1 caption), 100-500 samples) as reported in Table 1}",
    readings={"B": "Auto horizon of T - M steps (App. G.4)",
              "C": "sampled (non-greedy) decoding"},
)
def auto_vs_seq(ctx):
    """Under greedy (argmax) decoding, a sample that is Seq-correct (every teacher-forced argmax
    prediction right on the scored rows) is Auto-correct on any horizon within those rows:
    feeding back correct predictions reproduces teacher forcing step by step. So per sample
    Seq-correct => Auto-correct and Auto Acc >= Seq Acc (up to the sampling error of Auto's
    100-500 sample subset). This holds for the caption's 4 steps (A) and G.4's T - M (B) alike.
    Test per Table 1 row (all 7): the Wilson 95% interval of the reported Auto at n = 100 (the
    widest the paper allows) must reach Seq. 2D 4L (Seq 85.7, Auto 1.0: interval
    [0.0018, 0.054]), 2D 2L (29.0 vs 12.0: [0.070, 0.198]) and 2D RPE (70.5 vs 1.0) are
    incompatible: REFUTED. Under sampled decoding (C) Auto is not tied to Seq: UNDECIDED. Kind
    "consistency": the headline compares two columns of the paper's own Table 1 (the trained
    model only illustrates the per-sample relation)."""
    rows = [("ECA 2L 1+1", 100.0, 100.0), ("ECA 2L 3+1", 100.0, 100.0), ("V3 4L", 89.8, 86.8),
            ("V3 2L", 87.5, 85.0), ("2D 4L", 85.7, 1.0), ("2D 2L", 29.0, 12.0),
            ("2D RPE", 70.5, 1.0)]
    bad = incompatible_rows(rows)
    cex = {"incompatible_rows": bad,
           "relation": "greedy decoding: Seq-correct => Auto-correct per sample, so Auto >= Seq",
           "horizon_2D": "T - M = 12 - 8 = 4 (= caption)", "source": "Table 1, L420-429"}
    summary = (f"{len(bad)} of {len(rows)} (Seq, Auto) pairs violate Auto >= Seq beyond the "
               "n=100 Wilson interval")
    generality = "all 7 rows of Table 1; exact arithmetic on the printed numbers"
    ev_a = judge_check(not bad, f"horizon 4 (caption): {summary}", counterexample=cex,
                       generality=generality)
    ev_b = judge_check(not bad, f"horizon T - M (G.4): {summary}", counterexample=cex,
                       generality=generality, reading="B")
    trained_b, trained_a = relation_on_trained_model(ctx)
    return [ev_a, ev_b,
            Evidence.informal("sampled decoding: no logical relation to teacher-forced Seq",
                              reading="C"),
            trained_a, trained_b.relabel(reading="B")]


def relation_on_trained_model(ctx) -> tuple[Evidence, Evidence]:
    """The per-sample relation measured on an ECA model trained here (a CPU smoke-test model).

    Quick: D = 32, 1+1 heads, 150 AdamW steps of 32 fresh sequences; deep: D = 64, 400 steps.
    On held-out-rule sequences: teacher-forced Seq over rows M..T-1, and one greedy generation
    whose first T - M rows give Auto (G.4) and first 4 rows Auto of the caption, on the same
    samples. A sample Seq-correct but not Auto-correct would contradict the argument of
    :func:`auto_vs_seq`: it is re-evaluated in float64 and, if confirmed, REFUTED with the
    sample. Vacuous (no Seq-correct sample) is UNDECIDED."""
    task = ECATask()
    # The sequences are drawn on the CPU, as for every trained row (training.trained_eca_row),
    # so that the model sees the same data on every device; the model runs on the claim's.
    g = ctx.torch_generator("eca-smoke", device="cpu")
    train_rules, test_rules = eca_rule_pools(g)
    D, steps = ctx.pick(quick=32, deep=64), ctx.pick(quick=150, deep=400)
    n = ctx.pick(quick=100, deep=500)
    model = build_model(task, D, (1, 1), seed=ctx.subseed("eca-smoke-init")).to(ctx.device)
    train(model, train_rules, TrainConfig(steps=steps, batch=32, lr=3e-3), g)
    tokens = sample_tokens(task, test_rules, n, g).tokens.to(ctx.device)
    ev = evaluate(model, tokens)
    out = []
    for h in (task.T - task.M, 4):
        seq, auto = ev.seq_correct, ev.auto_correct(h)
        suspects = (seq & ~auto).nonzero().flatten()
        if len(suspects):  # float32 rounding could flip an argmax: confirm in float64
            ev64 = evaluate(model.double(), tokens[suspects], h)
            suspects = suspects[ev64.seq_correct & ~ev64.auto_correct()]
            model.float()
        broken = suspects.tolist()
        numbers = {"D": D, "train_steps": steps, "samples": n, "horizon": h,
                   "cell_acc": ev.cell_acc, "seq_acc": ev.seq_acc, "auto_acc": ev.auto_acc(h),
                   "seq_correct": int(seq.sum()), "auto_correct": int(auto.sum()),
                   "seq_and_not_auto": len(broken), "auto_and_not_seq": int((auto & ~seq).sum())}
        where = (f"ECA model trained here (D={D}, 1+1 heads, {steps} steps; cell acc "
                 f"{ev.cell_acc:.3f}), {n} held-out-rule sequences, greedy decoding, horizon {h}")
        out.append(relation_evidence(
            int(seq.sum()), broken, numbers,
            f"of {n}, Seq {ev.seq_acc:.2f}, Auto {ev.auto_acc(h):.2f}; {where}",
            {"sample": broken[0], "tokens": tokens[broken[0]].tolist()} if broken else None))
    return out[0], out[1]


def relation_evidence(n_seq_correct: int, broken: list[int], numbers: dict, where: str,
                      cex: dict | None) -> Evidence:
    """Seq-correct => Auto-correct per sample, measured: REFUTED by the samples (``broken``)
    Seq-correct but not Auto-correct after the float64 re-check, UNDECIDED when no sample is
    Seq-correct (vacuous), else SUPPORTED."""
    part = "measured relation"
    if broken:
        return Evidence(Verdict.REFUTED, f"{len(broken)} samples Seq-correct but not "
                        f"Auto-correct, confirmed in float64 ({where})", method="numeric",
                        part=part, numbers=numbers, counterexample=cex)
    if n_seq_correct == 0:
        return Evidence.undecided(f"vacuous: no Seq-correct sample ({where})", part=part,
                                  numbers=numbers)
    return Evidence(Verdict.SUPPORTED, f"Seq-correct => Auto-correct on all {n_seq_correct} "
                    f"Seq-correct samples ({where})", method="numeric", part=part,
                    numbers=numbers)


@verify.claim(
    "sih.exp.table2_mlp_ablation", paper=PAPER, where="Table 2 L484-490; L470-475",
    kind="experiment",
    statement=r"\text{ECA, L1 heads }1..4:\ \text{with MLP }100.0;\ \text{without MLP }57.3, 56.7, "
              r"97.6, 90.8",
    readings={"B": "'heads match the neighborhood size' means h = |U| (= 4), the MLP-free regime "
                   "of Thm F.1"},
    undecided=("needs_compute",
               "GPU training of 8 ECA models, < 80 GPU-h (G.5); run: none here, no training path"
               " for them"),
)
def table2_mlp_ablation(ctx):
    """UNDECIDED (not trained). Reading B note: for ECA |U| = 4, so the theory's MLP-free
    regime is h = 4 (90.8), not h = k = 3 (97.6)."""
    return [Evidence.undecided(not_trained(
                "8 ECA models (h = 1..4 Layer-1 heads, with and without the Layer-1 MLP) at Table "
                "6's ECA setting", "< 80 GPU-h (< 10 per model)",
                "no command runs them here yet: this claim has no training path (the ECA trainer "
                "of sih.exp.table1 builds MLP-free models with build_model(mlp=False))")),
            Evidence.informal("theory predicts MLP-free at h = |U| = 4; the paper's text points "
                              "at h = k = 3", reading="B")]


@verify.claim(
    "sih.exp.attention_concentration", paper=PAPER, where="L454-456; Figure 2 caption L460",
    kind="experiment", timeout={"deep": 7200.0},
    statement=r"\text{ECA 1+1: Layer 1 puts 68.4\% on the neighbourhood cells of the preceding "
              r"row, Layer 2 97.1\% on matching contexts;\ Rule 97: }f(1,0,1)=1",
    undecided=("needs_compute",
               "GPU training of Table 6's model (a), < 10 GPU-h (G.5); the deep profile measures"
               " a reduced-scale model"),
)
def attention_concentration(ctx):
    """Rule-97 arithmetic checked (Wolfram index 4a + 2b + c = 5, bit 5 of 97 is 1). The
    percentages describe the paper's trained D = 512 model; the deep profile measures the same
    statistics on the 1+1 model trained for sih.exp.table1 at the reduced CPU scale
    (:data:`ECA_CPU_SCALE`), for every reading of "neighbourhood cells"
    (:func:`~numerics.sih.model.training.attention_statistics`), with 95% intervals over test
    sequences. Attention allocation is specific to one trained model, and ours is narrower and
    trained far shorter, so the numbers are reported beside the paper's, not judged: UNDECIDED
    in both profiles. The committed deep run (seed 0): Layer 1 puts 5.2% on the predicted
    cell's parents, Layer 2 28.9% on matching configurations (paper: 68.4%, 97.1%)."""
    out = [prove_cases([("f(1,0,1) of rule 97 (bit 4a+2b+c = 5)", wolfram_table(97)[5], 1)],
                       generality="exact", scope="general", part="rule97",
                       summary="Rule 97: f(1,0,1) = bit 5 of 97 = 1")]
    if ctx.quick:
        return out + [Evidence.undecided(not_trained(
            "Table 6's model (a) (ECA, 1+1 heads, D = 512)", "< 10 GPU-h",
            f"the deep profile measures a reduced-scale model; `{ECA_COMMAND}` with "
            "ECA_CPU_SCALE set to Table 6's scale measures model (a)"))]
    row = train_eca_row(ctx, (1, 1))
    stats = attention_statistics(row["model"], row["tokens"][:500])
    numbers, parts = {"paper_L1": 68.4, "paper_L2": 97.1}, []
    for name, per_sample in stats.items():
        mean = float(per_sample.mean())
        half = 1.96 * float(per_sample.std()) / math.sqrt(len(per_sample))
        numbers[name] = [100 * mean, 100 * half]
        parts.append(f"{name} {100 * mean:.1f}% +- {100 * half:.1f}")
    cfg = ECA_CPU_SCALE
    return out + [Evidence.undecided(
        f"measured on the 1+1 model trained here (D={cfg['D']}, {cfg['steps']} steps; Seq acc "
        f"{row['seq_hits'] / cfg['n_test']:.3f}), {len(per_sample)} test sequences: "
        + "; ".join(parts)
        + " (paper: Layer 1 68.4%, Layer 2 97.1%); reported, not judged (a different model)",
        method="numeric", part="attention", numbers=numbers)]


@verify.claim(
    "sih.exp.tsne_clusters", paper=PAPER, where="L462-466; Figure 3 caption L512",
    kind="experiment",
    statement=r"\text{t-SNE: intermixed before the L1 MLP, clustered by configuration after, 16 "
              r"clusters after L2 attention; L2 MLP not necessary}",
    undecided=("needs_compute",
               "GPU training of Table 6's model (a), < 10 GPU-h (G.5), and a t-SNE of its "
               "embeddings; run: none here, no training or t-SNE path"),
)
def tsne_clusters(ctx):
    """UNDECIDED: a qualitative figure of a trained model (not trained here)."""
    return Evidence.undecided(not_trained(
        "Table 6's model (a) (ECA, 1+1 heads, D = 512)", "< 10 GPU-h",
        "a qualitative figure; no command runs it here: this claim has no training or t-SNE "
        "path (the model would come from sih.exp.table1's deep run)"))


@verify.claim(
    "sih.exp.width_independence", paper=PAPER, where="L478-482", kind="experiment",
    statement=r"\text{ECA 1+1 and 3+1 models trained at }L\in\{10,16,32\}\text{ all reach sequence "
              r"accuracy}>0.99",
    undecided=("needs_compute",
               "GPU training of 6 ECA models, < 60 GPU-h (G.5); run: none here, no training path"
               " (T and M at L = 10, 32 are not stated)"),
)
def width_independence(ctx):
    """UNDECIDED (not trained); the constructed-weight version is sih.main.grid_independence.
    Measured here: the acceptance rate of App. G.3.2's rejection step (rows 0..M-2 expose all 8
    neighbourhoods) at each L with the ECA setting's M = 4 (T and M at L = 10, 32 are not
    stated), over all 88 canonical rules."""
    reps = sorted(min(c) for c in eca_rule_classes())
    g = ctx.torch_generator("acceptance")
    n = ctx.pick(quick=2000, deep=20000)
    rates = {L: sample_tokens(ECATask(L=L), reps, n, g).acceptance for L in (10, 16, 32)}
    text = ", ".join(f"L={L}: {r:.3f}" for L, r in rates.items())
    return [Evidence.undecided(not_trained(
                "6 ECA models (1+1 and 3+1 heads at L = 10, 16, 32)", "< 60 GPU-h (< 10 per model)",
                "no command runs them here: this claim has no training path (T and M at L = 10, "
                "32 are not stated); constructed weights: see sih.main.grid_independence")),
            Evidence.undecided("not a training result: acceptance rate of the exposure "
                               "rejection at M = 4 (uniform over the 88 canonical rules, "
                               f"{n} accepted sequences each): {text}", part="data",
                               method="numeric",
                               numbers={f"acceptance_L{L}": r for L, r in rates.items()})]


@verify.claim(
    "sih.exp.2d_dynamics", paper=PAPER, where="L436-444", kind="experiment",
    statement=r"\text{2D: 4L reach 85.7\% (grokking-like transition, epochs 200-260); 2L + 2D RPE "
              r"70.5\%; bottleneck is addressing, not capacity}",
    undecided=("needs_compute",
               "GPU training of the 2D models (e)-(g), 165-225 GPU-h (G.5); run: none here, no "
               "2D pipeline"),
)
def dynamics_2d(ctx):
    """UNDECIDED: 2D training (55-75 GPU-h per model) not run; the capacity sentence is
    interpretive."""
    return [Evidence.undecided(not_trained(
                "the 2D models (e)-(g) of Table 6", "165-225 GPU-h (55-75 per model)",
                NO_PIPELINE.format(what="2D von Neumann data pipeline or the 2D RPE of (g)"))),
            Evidence.informal("interpretive: 'the primary bottleneck is learning spatial "
                              "addressing'", part="interpretation")]


@verify.claim(
    "sih.exp.data", paper=PAPER, where="G.3.1-G.3.4 L1878-1913; Sec. 5.1 L394-403",
    kind="property", expect="PROVED",
    statement=r"\text{ECA classes under reflection and complement, 80/20 split; }3^{27}\approx7.6"
              r"\times10^{12};\ \text{2D VN rule space }2^{25}=2^{32};\ \text{sequence length 503}",
    readings={"B": r"as A, with the 2D VN rule space $2^{2^5}=2^{32}$"},
    repairs={"B": ("erratum", "$2^{2^5}$ flattened to $2^{25}$ by extraction")},
)
def data(ctx):
    """Counts: 88 ECA classes (80/20 -> 70.4: 70/18 or 71/17, the rounding is not stated);
    3^27 = 7625597484987 ~ 7.6e12; lengths (T1) ECA 169, V = 3 395, (T2) 2D 503 (matches).
    '2^25 = 2^32' as printed (A) is false arithmetic (REFUTED); 2^(2^5) = 2^32 (B) holds: the
    nested superscript flattened by the text extraction, an erratum, so the
    whole statement with it (B: the counts and 2^(2^5)) heads, PROVED (with erratum)."""
    n_classes = len(eca_rule_classes())
    ev = prove_cases(
        [("ECA classes", n_classes, 88), ("3^27", 3 ** 27, 7625597484987),
         ("2D (T2) length", stream_length(12, (6, 6), "T2"), 503),
         ("ECA (T1) length", stream_length(10, (16,), "T1"), 169),
         ("V=3 (T1) length", stream_length(12, (32,), "T1"), 395)],
        generality="exact: the paper's 256 ECA rules and its three settings", scope="general",
        part="counts",
        summary=f"ECA classes {n_classes}; 3^27 = {3 ** 27}; lengths 169 / 395 / 503")
    ev_a = refute_exactly(
        "'$2^{25} = 2^{32}$' as printed in the seed text: 33554432 != 4294967296 (most likely the "
        "nested superscript 2^(2^5) flattened; reading B holds)",
        {"2^25": 2 ** 25, "2^32": 2 ** 32}, lhs=2 ** 25, rhs=2 ** 32, generality="exact",
        part="rule_space")
    ev_b = prove_cases([("2^(2^5)", 2 ** (2 ** 5), 2 ** 32)], generality="exact",
                       scope="general", reading="B",
                       part="rule_space", summary="2^(2^5) = 2^32")
    return [ev, ev_a, ev_b, dataclasses.replace(ev, reading="B")]


@verify.claim(
    "sih.exp.compute", paper=PAPER, where="G.5, L1924-1931", kind="consistency", expect="PROVED",
    statement=r"\text{1D models }<10\text{ GPU-h each, 2D models 55-75 GPU-h; total for the seven "
              r"Table-1 models}\approx207\text{ GPU-h}",
)
def compute(ctx):
    """Four 1D models in [0, 10) h and three 2D models in [55, 75] h give a total in
    [165, 265): 207 lies inside (exact interval arithmetic). No reproduction run, so no
    measured GPU-hours."""
    return compute_evidence(207, n_1d=4, n_2d=3, max_1d=10, range_2d=(55, 75))


def compute_evidence(total: int, *, n_1d: int, n_2d: int, max_1d: int,
                     range_2d: tuple[int, int]) -> Evidence:
    """G.5's total against its per-model ranges (1D models in ``[0, max_1d)`` GPU-h, 2D models in
    ``range_2d``): PROVED when ``total`` lies in the feasible interval (exact integers), else
    REFUTED with the interval."""
    lo, hi = n_2d * range_2d[0], n_1d * max_1d + n_2d * range_2d[1]
    summary = f"{total} in [{lo}, {hi})"
    if lo <= total < hi:
        return Evidence(Verdict.PROVED, summary, method="symbolic", generality="exact",
                        scope="general", numbers={"interval": [lo, hi]})
    return refute_exactly(f"{total} not in [{lo}, {hi})", {"interval": [lo, hi], "total": total},
                          lhs=total, rhs=lo if total < lo else hi, generality="exact")

"""Experiment claims ``nfa.exp.*`` of Exp. 1: rotation equivariance (Table 1, Figs 1-2,
abstract).

Setup as printed (Sec. 4.1, L188): SIREN fields (omega_0 = 30, 3 layers, 64 units); a
Transformer operator (4 layers, 4 heads, d = 128) on N = 100 samples "with relative
positional encoding and explicit normalization as per Theorem 1"; error
``||f_{O(g.S)}(x) - f_{O(S)}(g^{-1} x)||_2`` over random rotations ``g in SO(d)``; Table 1 rows
(L198-205) are the configurations of
:func:`numerics.nfa.model.field_operator.build_table1_operator`.

Our harness (:func:`equivariance_table`):

* sample sets: ``x ~ U[-1,1]^d``, ``y`` = a random Table 3 SIREN, unit RMS
  (:func:`numerics.nfa.model.data.siren_sample_set`);
* operator: :func:`build_table1_operator` with a :class:`numerics.nfa.model.siren.SirenField`
decoder
  (the operator outputs offsets to a Table 3 SIREN init), random seeded weights, eval mode
  (dropout off). Sizes: the paper's (D = 128, 4 layers, 4 heads, FF 512, head 256) in ``deep``;
  D = 16, 2 layers, 2 heads, FF 32, head 32 in ``quick`` (the equivariance structure does not
  depend on the width);
* trained weights (readings E and F): :mod:`numerics.nfa.model.training` meta-trains
  each configuration (d = 2) on band-limited fields -- D = 64, 2 layers, SIREN hidden 32,
  2000 fields, 2000 AdamW steps at 3e-4 in ``deep``; a TINY smoke run (D = 16, 1 layer,
  25 steps on 6 fields) in ``quick`` so the path runs in CI. Evaluated on held-out fields;
* query points: 50 uniform in [-1.5, 1.5]^d (Table 5, L860); grids of Table 6 for Figs 1-2;
* groups: SO(2), SO(3) (as reported) and, for the group Thm 1 covers, ``G_ST`` with the
  Table 5 element ``a = 1.5, b = (0.3, -0.3)`` (``(0.3, -0.3, 0.3)`` in 3-D) plus random
  ``a = e^{U[-1,1]}``, ``b ~ N(0, 0.3^2 I)``;
* statistics: per seed the mean over group elements; mean +- std over seeds (10 in ``deep``).

Readings (one verdict each): **A** the table as printed -- SO(d), the paper's L2 metric, float32
(PyTorch's default; the paper names no dtype); **B** SO(d), the scale-free ``relmax`` metric of
our float64 equivariance checks, float64; **C** the same table for ``G_ST`` (the group Thm 1
is stated for), L2, float32; **D** ``G_ST``, ``relmax``, float64.

Rule per cell (error levels; the paper prints 2 significant digits with ~50% spread):
same order of magnitude, ``|log10(measured/paper)| <= 1``; the ``2 sigma`` rule
(``|measured - paper| <= 2 sqrt(std_paper^2 + std_measured^2)``) is reported beside it in
``numbers``. SO(d) is not a subgroup of ``G_ST`` (``R = aI`` with ``a > 0``
forces ``R = I``), so Thm 1 predicts nothing for rotations; for ``G_ST`` it predicts exact
equivariance (errors at round-off) for rows 1-3.
"""

from __future__ import annotations

import copy
from functools import lru_cache

import numpy as np
import torch

import verify
from verify import Evidence
from verify.context import derive_seed
from verify.numeric import judge_reproduction
from verify.numeric import reproduce as rp

from .exp_table2 import READINGS as AG_READINGS
from .exp_table2 import ag_metrics, draw
from .model.data import siren_sample_set, sphere_grid, square_grid
from .model.field_operator import (
    FieldParams,
    NormalizedOperator,
    SetTransformer,
    build_table1_operator,
    init_weights_,
)
from .model.groups import MatrixAffine, random_rotation
from .model.metrics import (
    caption_ratio,
    equivariance_metrics,
    exp_numbers,
    fmt,
    log10_ratio,
    mean_std,
    nfa_scale,
    within_2sigma,
)
from .model.siren import SirenField
from .model.training import (
    DEEP_TRAIN,
    QUICK_TRAIN,
    TrainConfig,
    bandlimited_fields,
    trained_operator,
)

PAPER = "nfa"
#: Table 1 (L198-205): row -> (SO(2) mean, std, SO(3) mean, std)
PAPER_TABLE1: dict[str, tuple[float, float, float, float]] = {
    "linear": (3.6e-6, 2.0e-6, 3.2e-6, 1.2e-6),
    "softmax_tau1": (2.4e-6, 1.4e-6, 3.5e-6, 1.1e-6),
    "softmax_tau100": (4.4e-6, 2.2e-6, 4.9e-6, 2.2e-6),
    "no_normalization": (2.3e-3, 0.8e-3, 3.1e-3, 1.2e-3),
    "absolute_pe": (1.8e-3, 0.6e-3, 2.4e-3, 0.9e-3),
}
ROW_LABEL = {
    "linear": "Linear attention",
    "softmax_tau1": "Softmax (tau=1)",
    "softmax_tau100": "Softmax (tau=100)",
    "no_normalization": "No normalization",
    "absolute_pe": "Absolute Pos. Enc.",
}
NORMALISED_ROWS = ("linear", "softmax_tau1", "softmax_tau100")

#: reading -> (group family, metric, dtype name)
READINGS = {
    "A": ("SO", "l2", "float32"),
    "B": ("SO", "relmax", "float64"),
    "C": ("GST", "l2", "float32"),
    "D": ("GST", "relmax", "float64"),
}
READING_TEXT = {
    "A": "as printed: SO(d), L2 over 50 test points (L188, Table 5), float32",
    "B": "SO(d), scale-free max relative error of our float64 equivariance checks, float64",
    "C": "the group Thm 1 covers, G_ST (a=1.5, b=(0.3,-0.3) and random), L2 over 50 points, "
    "float32",
    "D": "G_ST, max relative error, float64",
    "E": "as A (SO(2), L2, float32) with briefly trained weights (d = 2 only)",
    "F": "as C (G_ST(R^2), L2, float32) with briefly trained weights; float64 re-check in numbers",
}
#: trained readings -> (group family, metric, dtype name); d = 2 only (band-limited 2-D fields)
TRAINED_READINGS = {"E": ("SO", "l2", "float32"), "F": ("GST", "l2", "float32")}

QUICK_SIZE = (("dim", 16), ("heads", 2), ("layers", 2), ("ff", 32), ("head_hidden", 32))
PAPER_SIZE = (("dim", 128), ("heads", 4), ("layers", 4), ("ff", 512), ("head_hidden", 256))


def _gen(*parts) -> torch.Generator:
    return torch.Generator().manual_seed(derive_seed(*parts) % 2**31)


def group_elements(family: str, d: int, n: int, gen: torch.Generator) -> MatrixAffine:
    """``n`` elements: Haar rotations (``"SO"``) or the Table 5 element plus random G_ST
    (``"GST"``)."""
    if family == "SO":
        return random_rotation(n, d, generator=gen)
    b0 = torch.tensor([0.3, -0.3, 0.3][:d], dtype=torch.float64)
    a = torch.exp(2 * torch.rand(n, generator=gen, dtype=torch.float64, device=gen.device) - 1)
    b = 0.3 * torch.randn(n, d, generator=gen, dtype=torch.float64, device=gen.device)
    a[0], b[0] = 1.5, b0
    return MatrixAffine(a[:, None, None] * torch.eye(d, dtype=torch.float64), b)


def build_operator(
    config: str,
    d: int,
    size: tuple,
    gen: torch.Generator,
    dtype: torch.dtype,
    tau: float | None = None,
):
    """A Table 1 configuration around a SIREN decoder; ``tau`` overrides the softmax temperature
    (App. E uses T = 10, which is not a Table 1 row)."""
    field = SirenField(d, 64, 3, generator=gen, dtype=torch.float64)
    kw = dict(size)
    if tau is None:
        return build_table1_operator(config, d, field, generator=gen, dtype=dtype, **kw)
    inner = SetTransformer(d, field.num_params, attention="softmax", tau=tau, pos="relative", **kw)
    init_weights_(inner, gen)
    return NormalizedOperator(inner, field).to(dtype).eval()


def measure(
    op, x: torch.Tensor, y: torch.Tensor, g: MatrixAffine, xq: torch.Tensor, dtype: torch.dtype
) -> tuple[dict, float]:
    """Equivariance metrics of ``op`` for one sample set ``(x, y)`` (float64, (N, d)) under the
    ``n`` group elements ``g``, at query points ``xq`` (M, d), computed in ``dtype``:
    ``f_{O(g.S)}(x_q)`` against ``f_{O(S)}(g^{-1} x_q)`` (L188). Returns (metric -> mean over
    the group elements, RMS of the reference field)."""
    n_group = g.b.shape[0]
    xs = torch.cat([x[None], g.apply(x.expand(n_group, -1, -1))]).to(dtype)
    ys = y.expand(n_group + 1, -1).to(dtype)
    with torch.no_grad():
        p = op(xs, ys)
        new = FieldParams(p.theta[1:], p.mu[1:], p.s[1:])
        ref = FieldParams(
            p.theta[:1].expand(n_group, -1), p.mu[:1].expand(n_group, -1), p.s[:1].expand(n_group)
        )
        xq_b = xq.expand(n_group, -1, -1)
        f_new = op.field(new, xq_b.to(dtype))
        f_ref = op.field(ref, g.apply_inverse(xq_b).to(dtype))
    met = {k: float(v.mean()) for k, v in equivariance_metrics(f_new, f_ref).items()}
    return met, float(f_ref.double().pow(2).mean().sqrt())


@lru_cache(maxsize=64)
def _sample_set(run_seed: int, d: int, s: int) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Seed ``s``'s sample set (N = 100, random SIREN field) and its 50 test points in
    [-1.5, 1.5]^d."""
    gd = _gen(run_seed, "nfa.table1.data", d, s)
    x, y = siren_sample_set(1, 100, d, generator=gd, dtype=torch.float64)
    return x, y, 3 * torch.rand(50, d, generator=gd, dtype=torch.float64, device=gd.device) - 1.5


@lru_cache(maxsize=24)  # every row x d x seed of one quick reading; <= ~400 MB at the paper's size
def _operator64(
    run_seed: int, config: str, d: int, s: int, size: tuple, tau: float | None
) -> torch.nn.Module:
    """Seed ``s``'s float64 operator for ``config`` (shared by the float32/float64 and SO/G_ST
    readings)."""
    return build_operator(
        config, d, size, _gen(run_seed, "nfa.table1.weights", config, d, s), torch.float64, tau
    )


@lru_cache(maxsize=256)
def equivariance_table(
    run_seed: int,
    config: str,
    family: str,
    d: int,
    dtype_name: str,
    seeds: int,
    n_group: int,
    size: tuple,
    points: str = "test",
    tau: float | None = None,
) -> dict[str, np.ndarray]:
    """Per-seed equivariance metrics (each averaged over ``n_group`` group elements).

    ``points``: ``"test"`` (50 uniform in [-1.5,1.5]^d, Table 5) or ``"grid"`` (Table 6: 100 x 100
    on [-1.5,1.5]^2, or the 30 x 30 sphere grid in 3-D). Returns ``{metric: (seeds,)}`` plus
    ``"field_rms"`` (RMS of the reference field, for scale). Cached: several claims share it.
    """
    dtype = getattr(torch, dtype_name)
    out: dict[str, list[float]] = {}
    for s in range(seeds):
        x, y, xq = _sample_set(run_seed, d, s)
        g = group_elements(family, d, n_group, _gen(run_seed, "nfa.table1.group", family, d, s))
        if points != "test":
            xq = square_grid() if d == 2 else sphere_grid()
        op = _operator64(run_seed, config, d, s, size, tau)
        if dtype != torch.float64:  # the same weights, rounded (as building in dtype would)
            op = copy.deepcopy(op).to(dtype)
        met, rms = measure(op, x[0], y[0], g, xq, dtype)
        for k, v in met.items():
            out.setdefault(k, []).append(v)
        out.setdefault("field_rms", []).append(rms)
    return {k: np.asarray(v) for k, v in out.items()}


@lru_cache(maxsize=64)
def trained_table(
    run_seed: int,
    config: str,
    family: str,
    d: int,
    dtype_name: str,
    seeds: int,
    n_group: int,
    train_cfg: TrainConfig,
) -> dict[str, np.ndarray]:
    """As :func:`equivariance_table` for the trained operator of ``config``: ``seeds`` held-out
    band-limited test fields (N = 100 samples in [-1, 1]^d, 50 test points in [-1.5, 1.5]^d),
    ``n_group`` group elements each. The float32-trained weights are cast to ``dtype_name``."""
    res = trained_operator(run_seed, config, d, train_cfg)
    op = copy.deepcopy(res.operator).to(getattr(torch, dtype_name)).eval()
    fields = bandlimited_fields(
        seeds,
        d,
        terms=train_cfg.terms,
        band=train_cfg.band,
        generator=_gen(run_seed, "nfa.table1.trained.test", d),
    )
    out: dict[str, list[float]] = {}
    for s in range(seeds):
        gd = _gen(run_seed, "nfa.table1.trained.data", d, s)
        x = 2 * torch.rand(1, 100, d, generator=gd, dtype=torch.float64, device=gd.device) - 1
        y = fields(torch.tensor([s]), x)
        xq = 3 * torch.rand(50, d, generator=gd, dtype=torch.float64, device=gd.device) - 1.5
        g = group_elements(family, d, n_group, _gen(run_seed, "nfa.table1.group", family, d, s))
        met, rms = measure(op, x[0], y[0], g, xq, getattr(torch, dtype_name))
        for k, v in met.items():
            out.setdefault(k, []).append(v)
        out.setdefault("field_rms", []).append(rms)
    return {k: np.asarray(v) for k, v in out.items()}


def _sizes(ctx) -> dict:
    return {
        "seeds": ctx.pick(quick=2, deep=10),
        "n_group": ctx.pick(quick=2, deep=10),
        "size": ctx.pick(quick=QUICK_SIZE, deep=PAPER_SIZE),
    }


def _settings(ctx, family, d, dtype, metric, sz, config) -> dict:
    return {
        "group": f"{'SO' if family == 'SO' else 'G_ST'}({d})"
        if family == "SO"
        else f"G_ST in R^{d}",
        "dtype": dtype,
        "metric": metric,
        "config": config,
        "operator_size": dict(sz["size"]),
        "profile": ctx.profile,
        "group_elements_per_seed": sz["n_group"],
        "N": 100,
        "test_points": 50,
        "weights": "random (seeded), eval mode",
    }


@verify.claim(
    "nfa.exp.table1_equivariance",
    paper=PAPER,
    where="Sec. 4.1 and Table 1, L184-205",
    statement=(
        r"Equivariance errors (mean $\pm$ std, 10 seeds), SO(2) / SO(3): Linear attention "
        r"$(3.6\pm2.0)\times10^{-6}$ / $(3.2\pm1.2)\times10^{-6}$; Softmax ($\tau=1$) "
        r"$(2.4\pm1.4)\times10^{-6}$ / $(3.5\pm1.1)\times10^{-6}$; Softmax ($\tau=100$) "
        r"$(4.4\pm2.2)\times10^{-6}$ / $(4.9\pm2.2)\times10^{-6}$; No normalization "
        r"$(2.3\pm0.8)\times10^{-3}$ / $(3.1\pm1.2)\times10^{-3}$; Absolute Pos. Enc. "
        r"$(1.8\pm0.6)\times10^{-3}$ / $(2.4\pm0.9)\times10^{-3}$. Removing normalization or using "
        r"absolute encoding increases error by $\sim1000\times$."
    ),
    kind="experiment",
    readings={k: v for k, v in READING_TEXT.items() if k != "A"},
    expect={"quick": "UNDECIDED", "deep": "NOT_REPRODUCED"},
    timeout={"quick": 180, "deep": 1800},
)
def table1_equivariance(ctx) -> list[Evidence]:
    """Table 1 side by side, one part per row (two cells each) plus the caption's ratio.

    Expect NOT_REPRODUCED: the normalised operator of Thm 1 is not rotation-equivariant
    (normalised coordinates rotate, relative PE ``MLP(x_i - x_j)`` is not rotation invariant),
    so the SO(d) errors are of the order of the field itself (~1e-1), not 1e-6; for G_ST the
    normalised rows are at round-off (~1e-7 in float32, ~1e-16 in float64), the ablations O(1).
    Quick budget 180 s: about 20 s on an idle CPU, but the twenty cells and the trained rows
    exceed the default 60 s on a loaded 2-core machine.

    expect=UNDECIDED is the quick verdict: its rows carry scale="smoke" (operator d=16, 2 seeds
    x 2 rotations and a 25-step smoke training vs the paper's d=128, 10 seeds x 10 rotations),
    so the audit leaves the REPRODUCED / NOT_REPRODUCED rows UNDECIDED and the deep profile
    (docs/report/deep/nfa.jsonl) judges them.
    """
    sz = _sizes(ctx)
    figure = _figure(ctx, sz)  # drawn on the first piece (reading A, first row)
    ev: list[Evidence] = []
    for reading, (family, metric, dtn) in READINGS.items():
        col_means: dict[tuple[str, int], float] = {}
        for row, paper in PAPER_TABLE1.items():
            for d, (pm, ps) in ((2, paper[:2]), (3, paper[2:])):
                vals = equivariance_table(
                    ctx.run_seed, row, family, d, dtn, sz["seeds"], sz["n_group"], sz["size"]
                )
                m, s = mean_std(vals[metric])
                col_means[(row, d)] = m
                extra = {}
                if (
                    row == "absolute_pe"
                ):  # the other reading of the row: absolute PE without normalisation
                    raw = equivariance_table(
                        ctx.run_seed,
                        "absolute_pe_raw",
                        family,
                        d,
                        dtn,
                        sz["seeds"],
                        sz["n_group"],
                        sz["size"],
                    )
                    extra["absolute_pe_raw_measured"], extra["absolute_pe_raw_spread"] = mean_std(
                        raw[metric]
                    )
                grp = f"SO({d})" if family == "SO" else f"G_ST(R^{d})"
                ev.append(
                    judge_reproduction(
                        rp.same_order(m, pm),
                        f"[{reading}] {ROW_LABEL[row]}, {grp}: paper ({fmt(pm)} +- {fmt(ps)}), "
                        f"measured {fmt(m)} +- {fmt(s)} ({metric}, {dtn}, log10 ratio "
                        f"{log10_ratio(m, pm):+.1f})",
                        reading=reading,
                        part=ROW_LABEL[row],
                        dtype=dtn,
                        seed=ctx.seed,
                        numbers=nfa_scale(ctx, "operator") | exp_numbers(
                            pm,
                            m,
                            s,
                            sz["seeds"],
                            "same order of magnitude: |log10(measured/paper)| <= 1",
                            metric,
                            _settings(ctx, family, d, dtn, metric, sz, row),
                            paper_spread=ps,
                            within_2sigma=within_2sigma(m, s, pm, ps),
                            field_rms=float(vals["field_rms"].mean()),
                            **extra,
                        ),
                        figures=[] if ev else [figure],
                    )
                )
        for d in (2, 3):
            paper_ratio = np.mean(
                [PAPER_TABLE1[r][0 if d == 2 else 2] for r in ("no_normalization", "absolute_pe")]
            ) / np.mean([PAPER_TABLE1[r][0 if d == 2 else 2] for r in NORMALISED_ROWS])
            ratio = caption_ratio(
                [col_means[(r, d)] for r in ("no_normalization", "absolute_pe")],
                [col_means[(r, d)] for r in NORMALISED_ROWS],
            )
            ev.append(
                judge_reproduction(
                    rp.same_order(ratio, 1000.0),
                    f"[{reading}] caption ratio (rows 4-5 / rows 1-3), d={d}: paper ~1000x "
                    f"(its own numbers: {paper_ratio:.0f}x), measured {fmt(ratio)}x",
                    reading=reading,
                    part="caption: ~1000x",
                    dtype=dtn,
                    seed=ctx.seed,
                    numbers=nfa_scale(ctx, "operator") | exp_numbers(
                        1000.0,
                        ratio,
                        None,
                        sz["seeds"],
                        "same order of magnitude",
                        f"ratio of mean {metric}",
                        _settings(ctx, family, d, dtn, metric, sz, "rows 4-5 / 1-3"),
                        paper_ratio_from_table=float(paper_ratio),
                    ),
                )
            )
    ev.extend(_trained_rows(ctx, sz))
    return ev


def _trained_rows(ctx, sz) -> list[Evidence]:
    """Readings E and F: the Table 1 rows (d = 2) with briefly trained weights.

    Quick: a TINY smoke training (``training.QUICK_TRAIN``, clearly labelled; it exercises the
    path, the weights are barely trained); deep: ``training.DEEP_TRAIN`` (2000 AdamW steps on
    2000 fields).
    One training run per row; the spread is over the held-out evaluation fields. A float32
    deviation is re-checked in float64 (``relmax_float64`` in ``numbers``), never read alone.
    """
    cfg = ctx.pick(quick=QUICK_TRAIN, deep=DEEP_TRAIN)
    ev: list[Evidence] = []
    for reading, (family, metric, dtn) in TRAINED_READINGS.items():
        means: dict[str, float] = {}
        for row, paper in PAPER_TABLE1.items():
            pm, ps = paper[:2]
            res = trained_operator(ctx.run_seed, row, 2, cfg)
            vals = trained_table(ctx.run_seed, row, family, 2, dtn, sz["seeds"], sz["n_group"], cfg)
            v64 = trained_table(
                ctx.run_seed, row, family, 2, "float64", sz["seeds"], sz["n_group"], cfg
            )
            m, s = mean_std(vals[metric])
            means[row] = m
            grp = "SO(2)" if family == "SO" else "G_ST(R^2)"
            settings = _settings(ctx, family, 2, dtn, metric, sz, row) | {
                "weights": f"trained: {cfg.label}",
                "training": cfg.describe(),
                "operator_size": dict(cfg.size),
                "test_fields": "held-out band-limited fields, N = 100",
            }
            ev.append(
                judge_reproduction(
                    rp.same_order(m, pm),
                    f"[{reading}] {ROW_LABEL[row]}, {grp}, TRAINED ({cfg.label}; loss "
                    f"{res.first_loss:.3g} -> {res.last_loss:.3g} in {res.seconds:.1f} s): paper "
                    f"({fmt(pm)} +- {fmt(ps)}), measured {fmt(m)} +- {fmt(s)} ({metric}, {dtn}; "
                    f"float64 relmax {fmt(float(v64['relmax'].mean()))})",
                    reading=reading,
                    part=f"{ROW_LABEL[row]} (trained)",
                    dtype=dtn,
                    seed=ctx.seed,
                    numbers=nfa_scale(ctx, "trained") | exp_numbers(
                        pm,
                        m,
                        s,
                        sz["seeds"],
                        "same order of magnitude: |log10(measured/paper)| <= 1",
                        metric,
                        settings,
                        paper_spread=ps,
                        within_2sigma=within_2sigma(m, s, pm, ps),
                        field_rms=float(vals["field_rms"].mean()),
                        relmax_float64=float(v64["relmax"].mean()),
                        l2_float64=float(v64["l2"].mean()),
                        train_loss_first=res.first_loss,
                        train_loss_last=res.last_loss,
                        train_seconds=res.seconds,
                        train_steps=cfg.steps,
                    ),
                )
            )
        paper_ratio = np.mean(
            [PAPER_TABLE1[r][0] for r in ("no_normalization", "absolute_pe")]
        ) / np.mean([PAPER_TABLE1[r][0] for r in NORMALISED_ROWS])
        ratio = caption_ratio(
            [means[r] for r in ("no_normalization", "absolute_pe")],
            [means[r] for r in NORMALISED_ROWS],
        )
        ev.append(
            judge_reproduction(
                rp.same_order(ratio, 1000.0),
                f"[{reading}] caption ratio (rows 4-5 / rows 1-3), d=2, TRAINED ({cfg.label}): "
                f"paper ~1000x (its own numbers: {paper_ratio:.0f}x), measured {fmt(ratio)}x",
                reading=reading,
                part="caption: ~1000x (trained)",
                dtype=dtn,
                seed=ctx.seed,
                numbers=nfa_scale(ctx, "trained") | exp_numbers(
                    1000.0,
                    ratio,
                    None,
                    sz["seeds"],
                    "same order of magnitude",
                    f"ratio of mean {metric}",
                    {
                        "weights": f"trained: {cfg.label}",
                        "training": cfg.describe(),
                        "profile": ctx.profile,
                    },
                    paper_ratio_from_table=float(paper_ratio),
                ),
            )
        )
    return ev


def _figure(ctx, sz) -> dict:
    rows = list(PAPER_TABLE1)
    series, paper = {}, {}
    for rd in ("A", "C"):
        fam, metric, dtn = READINGS[rd]
        for d in (2, 3):
            series[f"{rd} d={d}"] = [
                float(
                    equivariance_table(
                        ctx.run_seed, r, fam, d, dtn, sz["seeds"], sz["n_group"], sz["size"]
                    )[metric].mean()
                )
                for r in rows
            ]
    paper["paper SO(2)"] = [PAPER_TABLE1[r][0] for r in rows]
    paper["paper SO(3)"] = [PAPER_TABLE1[r][2] for r in rows]
    return {
        "kind": "curve",
        "x": list(range(len(rows))),
        "series": series,
        "paper": paper,
        "xlabel": "row: " + ", ".join(f"{i}={ROW_LABEL[r]}" for i, r in enumerate(rows)),
        "ylabel": "equivariance error (L2, float32)",
        "title": "Table 1: paper vs measured",
        "logy": True,
    }


@verify.claim(
    "nfa.exp.fig1_fig2_captions",
    paper=PAPER,
    where="Fig. 1 L193; Fig. 2 L196",
    statement=(
        r"Fig. 1: SIREN fields learned from rotated input samples match the original field "
        r"under rotation within $10^{-6}$ error (SO(2)). Fig. 2: the model's predictions match "
        r"the ground truth rotated fields "
        r"with a mean equivariance error below $10^{-6}$ (SO(3))."
    ),
    kind="experiment",
    readings={
        "B": "the same thresholds for G_ST (the group Thm 1 covers), float32",
        "C": "the same thresholds for G_ST, float64",
        "D": "SO(d) as printed, float64 (the float64 re-check of reading A)",
    },
    expect={"quick": "UNDECIDED", "deep": "NOT_REPRODUCED"},
)
def fig1_fig2_captions(ctx) -> list[Evidence]:
    """Fig. 1: pointwise max error on the Table 6 grid (100 x 100 on [-1.5,1.5]^2) <= 1e-6;
    Fig. 2: mean absolute error on the 30 x 30 sphere grid < 1e-6; normalised Table 1 rows.

    Quick profile: the linear-attention row only, 2 seeds; deep: the three normalised rows,
    10 seeds.
    Rule: a threshold claim, REPRODUCED iff the measured mean (over seeds) is below the threshold.
    Expect NOT_REPRODUCED for SO(d) (errors ~ field size) in float32 (A) and in float64 (D, the
    re-check: the SO(d) deviation is not round-off); for G_ST (B) float32 round-off on O(1)
    fields sits near 1e-7 (pointwise max may exceed 1e-6), float64 (C) far below.
    Note: Table 1 reports means 2.4e-6 ... 4.9e-6 (L2 over points) for the same experiments.

    expect=UNDECIDED is the quick verdict: its rows carry scale="smoke" (operator d=16, 2 seeds
    x 2 rotations vs the paper's d=128, 10 x 10), so the audit leaves the REPRODUCED /
    NOT_REPRODUCED rows UNDECIDED and the deep profile (docs/report/deep/nfa.jsonl) judges them.
    """
    sz = _sizes(ctx)
    sz["seeds"] = ctx.pick(quick=2, deep=10)
    ev: list[Evidence] = []
    for rd, fam, dtn in (
        ("A", "SO", "float32"),
        ("B", "GST", "float32"),
        ("C", "GST", "float64"),
        ("D", "SO", "float64"),
    ):
        for d, metric, part, label in (
            (2, "maxabs", "Fig. 1 (SO(2))", "max |error| on the 100x100 grid"),
            (3, "mae", "Fig. 2 (SO(3))", "mean |error| on the 30x30 sphere grid"),
        ):
            rows = NORMALISED_ROWS if not ctx.quick else ("linear",)
            per_row = {
                r: equivariance_table(
                    ctx.run_seed, r, fam, d, dtn, sz["seeds"], sz["n_group"], sz["size"], "grid"
                )[metric]
                for r in rows
            }
            vals = np.concatenate(list(per_row.values()))
            m, s = mean_std(vals)
            ev.append(
                judge_reproduction(
                    rp.below(m, 1e-6),
                    f"[{rd}] {part}: paper < 1e-6, measured {fmt(m)} +- {fmt(s)} ({label}, {dtn}, "
                    f"{'SO' if fam == 'SO' else 'G_ST'}; Table 1 reports "
                    f"{PAPER_TABLE1['linear'][0 if d == 2 else 2]:.1e} for this column)",
                    reading=rd,
                    part=part,
                    dtype=dtn,
                    seed=ctx.seed,
                    numbers=nfa_scale(ctx, "operator") | exp_numbers(
                        1e-6,
                        m,
                        s,
                        sz["seeds"],
                        "threshold: measured mean < 1e-6",
                        label,
                        _settings(
                            ctx,
                            fam,
                            d,
                            dtn,
                            metric,
                            sz,
                            "normalised rows (linear, softmax tau=1, 100)",
                        ),
                        per_row={r: float(v.mean()) for r, v in per_row.items()},
                        table1_mean_same_column=PAPER_TABLE1["linear"][0 if d == 2 else 2],
                    ),
                )
            )
    return ev


@verify.claim(
    "nfa.exp.abstract_headlines",
    paper=PAPER,
    where="Abstract L7; contribution 3, L33",
    statement=(
        r"Experiments on rotation groups validate our theory: equivariance errors remain below "
        r"$10^{-5}$ across SO(2) and SO(3) transformations (mean $3.6\times10^{-6}$, 10 seeds), "
        r"while attention-gradient correlation exceeds 0.999 for temperatures $\tau\geq100$. "
        r"[L33: $(3.6\pm2.0)\times10^{-6}$ ... (10 seeds, all p < 0.001)]"
    ),
    kind="experiment",
    readings={
        "B": "errors for G_ST (the group Thm 1 covers), float32; correlation with centred "
        "residuals",
        "C": "correlation with logit scale 30, not centred",
        "D": "correlation with logit scale 30, centred",
    },
    expect={"quick": "UNDECIDED", "deep": "NOT_REPRODUCED"},
)
def abstract_headlines(ctx) -> list[Evidence]:
    """(a) Table 1 normalised rows (SO(2), SO(3)): mean vs 3.6e-6 (same order), max < 1e-5;
    (b) mean correlation > 0.999 at every tau in [100, 1e4] (Exp. 2 harness, per reading);
    (c) p < 0.001: no test is named -> UNDECIDED; (d) which theorem covers the tested groups.

    Expect NOT_REPRODUCED from (a): SO(d) errors are ~field size (see table1_equivariance).

    expect=UNDECIDED is the quick verdict: its rows carry scale="smoke" (headline (a) measured
    on an operator d=16, 2 seeds x 2 rotations vs the paper's d=128, 10 x 10; (b) is closed-form
    at the paper's setting and reproduces), so the audit leaves the REPRODUCED / NOT_REPRODUCED
    rows UNDECIDED and the deep profile (docs/report/deep/nfa.jsonl) judges them.
    """
    sz = _sizes(ctx)
    ev: list[Evidence] = []
    for rd, fam in (("A", "SO"), ("B", "GST")):
        cells = {
            (r, d): equivariance_table(
                ctx.run_seed, r, fam, d, "float32", sz["seeds"], sz["n_group"], sz["size"]
            )["l2"]
            for r in NORMALISED_ROWS
            for d in (2, 3)
        }
        means = np.array([v.mean() for v in cells.values()])
        allv = np.concatenate(list(cells.values()))
        m, s = float(means.mean()), float(allv.std(ddof=1))
        settings = {
            "group": "SO(2), SO(3)" if fam == "SO" else "G_ST (R^2, R^3)",
            "metric": "l2",
            "dtype": "float32",
            "rows": list(NORMALISED_ROWS),
            "operator_size": dict(sz["size"]),
            "profile": ctx.profile,
        }
        ev.append(
            judge_reproduction(
                rp.same_order(m, 3.6e-6),
                f"[{rd}] (a) mean equivariance error: paper 3.6e-6 (+-2.0e-6), measured "
                f"{fmt(m)} +- {fmt(s)}",
                reading=rd,
                part="(a) mean 3.6e-6",
                dtype="float32",
                seed=ctx.seed,
                numbers=nfa_scale(ctx, "operator") | exp_numbers(
                    3.6e-6,
                    m,
                    s,
                    sz["seeds"],
                    "same order of magnitude",
                    "l2 over 50 test points",
                    settings,
                    per_cell={f"{r} d={d}": float(v.mean()) for (r, d), v in cells.items()},
                ),
            )
        )
        worst = float(means.max())
        ev.append(
            judge_reproduction(
                rp.below(worst, 1e-5),
                f"[{rd}] (a) errors below 1e-5: largest cell mean {fmt(worst)}",
                reading=rd,
                part="(a) below 1e-5",
                dtype="float32",
                seed=ctx.seed,
                numbers=nfa_scale(ctx, "operator") | exp_numbers(
                    1e-5,
                    worst,
                    None,
                    sz["seeds"],
                    "threshold: every cell mean < 1e-5",
                    "l2",
                    settings,
                ),
            )
        )
    seeds = 10
    Phi, r = draw(ctx.run_seed, seeds)
    taus = np.logspace(2, 4, 9)
    for rd, (kappa, cen) in AG_READINGS.items():
        mm = ag_metrics(Phi, r, taus, kappa=kappa, centred=cen)
        cm = mm.corr.mean(0)
        worst = float(cm.min())
        ev.append(
            judge_reproduction(
                rp.above(worst, 0.999),
                f"[{rd}] (b) correlation > 0.999 for tau >= 100: smallest mean correlation over "
                f"tau in [1e2, 1e4] = {worst:.6f} "
                f"(kappa={kappa:g}, {'centred' if cen else 'not centred'})",
                reading=rd,
                part="(b) corr > 0.999",
                dtype="float64",
                seed=ctx.seed,
                numbers=nfa_scale(ctx, "closed") | exp_numbers(
                    0.999,
                    worst,
                    float(mm.corr.std(0, ddof=1).max()),
                    seeds,
                    "threshold: > 0.999",
                    "min over tau of the mean Pearson corr(O(tau), g)",
                    {"kappa": kappa, "centred": cen, "d": 2, "omega_scale": 3.0, "N": 100, "K": 50},
                ),
            )
        )
    ev.append(
        Evidence.informal(
            "(c) 'all p < 0.001': the paper names no test, null hypothesis or statistic; not "
            "checkable as printed",
            part="(c) p < 0.001",
        )
    )
    # (d): SO(d) is not a subgroup of G_ST: a rotation R equals a I (a > 0) only if R = I.
    g = random_rotation(1, 2, generator=_gen(ctx.run_seed, "nfa.abstract.d"))
    R = g.A[0]
    a_best = float(torch.trace(R) / 2)
    dist = float((R - a_best * torch.eye(2, dtype=R.dtype)).norm())
    ev.append(
        Evidence.informal(
            f"(d) 'validate our theory': Thm 1 is stated for G_ST = {{x -> a x + b, a > 0}}; a "
            f"rotation R lies in G_ST only if R = I (e.g. a Haar rotation has "
            f"min_a ||R - aI||_F = {dist:.3f}), so Thm 1 predicts nothing for SO(2)/SO(3)",
            part="(d) validate theory",
            numbers={"frobenius_distance_to_scalar_matrices": dist},
        )
    )
    return ev

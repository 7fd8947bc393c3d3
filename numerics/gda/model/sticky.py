"""The sticky Markov-chain task of Sec. 7.2 and its training protocols (EM-like vs SGD).

Task (L395, L408): 8 symbols, self-transition 0.3, the remaining 0.7 spread over the other 7
states by circular distance ``d in {1,2,3,4}`` on Z_8; ``x_t = mu_{y_{t-1}} + eps_t`` with
``mu_y in R^20``, ``eps_t ~ N(0, I)``; predict ``y_t`` from ``x_{1:t}`` with one causal head
(``d_x=20, d_k=10, d_v=15, C=8``, output bias), 1000 steps.

The chain is :data:`INTENDED_CHAIN`: off-diagonal weights halving with each step of circular
distance (``2^-d``). L395 prints "proportional to the distance" but says in the same sentence
that "the nearby symbol gets higher probability than the distant one", and Table 1's minimum
entropy 1.829 (L428), "computed from the transition matrix" (L421), is this chain's entropy
rate (1.8303 nats). Every claim and the trainer use this one definition; the printed rule
(reading ``"A"``, weights ``propto d``) and the other decreasing rules stay available to
:func:`transition_matrix` as the readings the claims compare it with.

The paper also leaves open the embedding scale, init, data per step, loss reduction and
evaluation. The defaults here, each a parameter of :class:`StickyConfig`: ``mu ~ N(0, I_20)``, init
``N(0, 0.1^2)``, a fresh sequence per step, mean reduction, held-out evaluation on a fixed
fresh sequence per seed, ``b_O`` at the routing rate, ``y_0`` drawn from the stationary law.

Every protocol of a comparison runs in one batched tensor program (runs on the leading
dimension), with the same data and init per seed across protocols (paired seeds).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import numpy as np
import torch
from torch import Tensor

from verify.memo import checkpoint, persistent

from .blocked import blocked_head_step
from .dynamics import PARAM_NAMES

#: The chain the paper means (L395, L421, L428): off-diagonal weights ``2^-d``.
INTENDED_CHAIN = "halving"

#: The literal and alternative rules of L395 the claims compare the intended chain with.
TRANSITION_READINGS = ("A", "B", "B2", "Bexp", "C")

#: Training data is drawn in chunks of about this many tokens (bounds memory); an interrupted
#: training resumes at a chunk boundary (:func:`train`).
CHUNK_TOKENS = 2_000_000


def circ_dist(n: int = 8) -> np.ndarray:
    """Circular distance ``min(|i - j|, n - |i - j|)`` between the symbols of Z_n."""
    i = np.arange(n)
    d = np.abs(i[:, None] - i[None, :])
    return np.minimum(d, n - d)


def transition_matrix(
    reading: str = INTENDED_CHAIN, n: int = 8, stay: float = 0.3, param: float | None = None
) -> np.ndarray:
    """Row-stochastic circulant P of the sticky chain under a reading of L395.

    ``halving`` (:data:`INTENDED_CHAIN`, the default): off-diagonal weights ``2^-d``; ``A``:
    ``propto d`` (as printed); ``B``: ``propto 1/d``; ``B2``:
    ``propto 1/d^2``; ``Bexp``: ``propto e^{-d}``; ``C``: uniform; ``pow``: ``propto d^{-param}``;
    ``exp``: ``propto e^{-param d}``.
    """
    d = circ_dist(n).astype(float)
    off = d > 0
    w = np.zeros_like(d)
    if reading == INTENDED_CHAIN:
        w[off] = 2.0 ** -d[off]
    elif reading == "A":
        w[off] = d[off]
    elif reading == "B":
        w[off] = 1.0 / d[off]
    elif reading == "B2":
        w[off] = 1.0 / d[off] ** 2
    elif reading == "Bexp":
        w[off] = np.exp(-d[off])
    elif reading == "C":
        w[off] = 1.0
    elif reading == "pow":
        w[off] = d[off] ** (-float(param))
    elif reading == "exp":
        w[off] = np.exp(-float(param) * d[off])
    else:
        raise ValueError(reading)
    P = (1 - stay) * w / w.sum(1, keepdims=True)
    P[~off] = stay
    return P


def entropy_rate(P: np.ndarray) -> float:
    """``H = sum_y pi_y H(P_y.)`` in nats (pi stationary; uniform for a circulant P)."""
    evals, evecs = np.linalg.eig(P.T)
    pi = np.real(evecs[:, np.argmin(np.abs(evals - 1))])
    pi = pi / pi.sum()
    with np.errstate(divide="ignore", invalid="ignore"):
        h = -np.nansum(np.where(P > 0, P * np.log(P), 0.0), axis=1)
    return float(pi @ h)


@dataclass(frozen=True)
class StickyConfig:
    """One training setting of the sticky task: the paper's (L395, L408-413) by default, with
    the choices it leaves open as fields (``reading`` names the chain of
    :func:`transition_matrix`)."""

    T: int = 2000
    steps: int = 1000
    n_seeds: int = 5
    reading: str = INTENDED_CHAIN
    d_x: int = 20
    d_k: int = 10
    d_v: int = 15
    C: int = 8
    mu_std: float = 1.0
    init_std: float = 0.1
    reduction: str = "mean"
    eval_every: int = 10
    dtype: str = "float32"
    protocols: tuple[str, ...] = ("SGD", "EM")
    block: int = 64  # query rows per block of the gradient on CPU (speed only, see block_rows)


#: protocol name -> per-group learning rates (or "adam:lr").
PROTOCOLS: dict[str, dict[str, float] | str] = {
    "SGD": {"W_Q": 0.01, "W_K": 0.01, "W_V": 0.01, "W_O": 0.01, "b_O": 0.01},  # L412
    "EM": {"W_Q": 0.01, "W_K": 0.01, "W_V": 0.1, "W_O": 0.01, "b_O": 0.01},  # L413
    "SGD0.03": {k: 0.03 for k in PARAM_NAMES},
    "SGD0.1": {k: 0.1 for k in PARAM_NAMES},
    "SGD0.3": {k: 0.3 for k in PARAM_NAMES},
    "SGD1.0": {k: 1.0 for k in PARAM_NAMES},
    "WO0.1": {"W_Q": 0.01, "W_K": 0.01, "W_V": 0.01, "W_O": 0.1, "b_O": 0.01},
    "Adam0.01": "adam:0.01",
    "Adam0.03": "adam:0.03",
}


def sample_sequences(
    g: torch.Generator, P: Tensor, mu: Tensor, T: int, dtype, n_batches: int | None = None
) -> tuple[Tensor, Tensor, Tensor]:
    """Sequences per seed: labels ``y (..., S, T)``, previous symbols, inputs
    ``X (..., S, T, d_x)``.

    With ``n_batches`` a leading dimension of that many independent draws is added (one per
    training step), sampled in one loop over ``t``.
    """
    S, C, d_x = mu.shape
    lead = (n_batches,) if n_batches else ()
    y = torch.empty(*lead, S, T + 1, dtype=torch.long, device=g.device)
    y[..., 0] = torch.randint(
        0, C, (*lead, S), generator=g, device=g.device)  # y_0 from the stationary (uniform) law
    cum = P.to(g.device).cumsum(-1)
    u = torch.rand(*lead, S, T, 1, generator=g, dtype=torch.float64, device=g.device)
    for t in range(T):
        rows = cum[y[..., t]].contiguous()
        y[..., t + 1] = (
            torch.searchsorted(rows, u[..., t, :].contiguous()).squeeze(-1).clamp_max(C - 1)
        )
    prev = y[..., :-1]
    idx = prev.unsqueeze(-1).expand(*prev.shape, d_x)
    X = mu.expand(*lead, S, C, d_x).gather(-2, idx) + torch.randn(
        *lead, S, T, d_x, generator=g, dtype=torch.float64, device=g.device)
    return y[..., 1:], prev, X.to(dtype)


@dataclass
class RunLog:
    """Curves (per run) and final parameters of one batched comparison."""

    names: list[str]  # protocol per run
    seeds: list[int]
    steps: list[int]
    loss: np.ndarray  # (R, n_eval)
    acc: np.ndarray
    ent: np.ndarray
    final: dict[str, Tensor]
    init: dict[str, Tensor]
    eval_X: Tensor
    eval_y: Tensor
    eval_prev: Tensor
    mu: Tensor
    grad_norms: dict[str, np.ndarray] = field(default_factory=dict)  # name -> (R, n_log)
    config: StickyConfig | None = None

    def runs(self, name: str) -> list[int]:
        return [r for r, n in enumerate(self.names) if n == name]


def _init_params(g: torch.Generator, n_seeds: int, cfg: StickyConfig, dtype) -> dict[str, Tensor]:
    def r(*shape):
        return (torch.randn(n_seeds, *shape, generator=g, dtype=torch.float64,
            device=g.device) * cfg.init_std).to(
            dtype
        )

    return {
        "W_Q": r(cfg.d_k, cfg.d_x),
        "W_K": r(cfg.d_k, cfg.d_x),
        "W_V": r(cfg.d_v, cfg.d_x),
        "W_O": r(cfg.C, cfg.d_v),
        "b_O": torch.zeros(n_seeds, cfg.C, dtype=dtype, device=g.device),
    }


def evaluate(
    params: dict[str, Tensor], X: Tensor, y: Tensor, block: int = 64
) -> tuple[Tensor, Tensor, Tensor]:
    """Held-out mean CE (nats), accuracy and mean predictive entropy (nats) of the causal head."""
    with torch.no_grad():
        ev = blocked_head_step(
            X,
            *(params[k] for k in PARAM_NAMES),
            y,
            causal=True,
            reduction="mean",
            grads=False,
            block=block,
        )
    return ev.loss, ev.acc, ev.entropy


def block_rows(cfg: StickyConfig, device: str) -> int:
    """Query rows per block of the closed-form gradient (blocked.py; the numbers do not depend
    on it). On CPU ``cfg.block``: small blocks keep the ``(R, block, T)`` intermediates in
    cache and skip the masked half (benchmarks/bench_gda_step.py). On a GPU the whole sequence
    at once: there one large kernel beats many small ones (benchmarks/RESULTS.md)."""
    return cfg.block if device == "cpu" else cfg.T


def train(cfg: StickyConfig, seed: int, device: str = "cpu") -> RunLog:
    """Train every protocol of ``cfg`` on ``cfg.n_seeds`` paired seeds; one batched program."""
    dtype = getattr(torch, cfg.dtype)
    block = block_rows(cfg, device)
    g = torch.Generator().manual_seed(seed)
    P = torch.tensor(transition_matrix(cfg.reading), dtype=torch.float64)
    n = cfg.n_seeds
    mu = torch.randn(n, cfg.C, cfg.d_x, generator=g, dtype=torch.float64,
        device=g.device) * cfg.mu_std
    init = _init_params(g, n, cfg, dtype)
    ey, eprev, eX = sample_sequences(g, P, mu, cfg.T, dtype)
    names = [p for p in cfg.protocols for _ in range(n)]
    R = len(names)

    def rep(x: Tensor) -> Tensor:  # one copy per protocol, runs on the leading dimension
        return x.repeat(len(cfg.protocols), *([1] * (x.dim() - 1)))

    params = {k: rep(v).to(device) for k, v in init.items()}
    eXr, eyr = rep(eX).to(device), rep(ey).to(device)
    lrs = []
    adam = []
    for nm in names:
        spec = PROTOCOLS[nm]
        if isinstance(spec, str):
            adam.append(float(spec.split(":")[1]))
            lrs.append(None)
        else:
            adam.append(None)
            lrs.append(spec)
    lr_t = {
        k: torch.tensor([0.0 if lr is None else lr[k] for lr in lrs], dtype=dtype, device=device)
        for k in PARAM_NAMES
    }
    ad_t = torch.tensor([0.0 if a is None else a for a in adam], dtype=dtype, device=device)
    is_adam = torch.tensor([a is not None for a in adam], device=device)
    m = {k: torch.zeros_like(v) for k, v in params.items()}
    v2 = {k: torch.zeros_like(v) for k, v in params.items()}
    steps, L, A_, E_ = [], [], [], []
    gn = {k: [] for k in PARAM_NAMES}
    chunk = max(1, min(cfg.steps, CHUNK_TOKENS // max(1, n * cfg.T)))  # sequences per draw
    ckpt = checkpoint()  # resume an interrupted run mid-training (verify.memo)
    start = 0
    saved = ckpt.load()
    if saved is not None:
        start, params, m, v2, steps, L, A_, E_, gn = (
            saved[k] for k in ("step", "params", "m", "v2", "steps", "L", "A", "E", "gn"))
        g.set_state(saved["generator"])
        params, m, v2 = ({k: t.to(device) for k, t in d.items()} for d in (params, m, v2))
    for step in range(start, cfg.steps + 1):
        if step % chunk == 0 and step > start and ckpt.due():
            # at a chunk boundary the generator has drawn exactly the data of the steps done
            ckpt.save({"step": step, "generator": g.get_state(), "steps": steps, "L": L,
                       "A": A_, "E": E_, "gn": gn,
                       **{nm: {k: t.cpu() for k, t in d.items()}
                          for nm, d in (("params", params), ("m", m), ("v2", v2))}})
        if step % cfg.eval_every == 0 or step == cfg.steps:
            lo, ac, en = evaluate(params, eXr, eyr, block)
            steps.append(step)
            L.append(lo.double().cpu().numpy())
            A_.append(ac.cpu().numpy())
            E_.append(en.double().cpu().numpy())
        if step == cfg.steps:
            break
        if step % chunk == 0:
            cy, _, cX = sample_sequences(
                g, P, mu, cfg.T, dtype, n_batches=min(chunk, cfg.steps - step)
            )
        y, X = cy[step % chunk], cX[step % chunk]
        X, y = rep(X).to(device), rep(y).to(device)
        with torch.no_grad():
            # the paper's closed-form gradients (13)-(32) (checked against autograd in the gda
            # identities), computed by query blocks (blocked.py; equal to closed_form_grads)
            grads = blocked_head_step(
                X,
                *(params[k] for k in PARAM_NAMES),
                y,
                causal=True,
                reduction=cfg.reduction,
                block=block,
            ).grads()
            t = step + 1
            for k, gk in zip(PARAM_NAMES, grads, strict=True):
                if step < 100 or step % 10 == 0:
                    gn[k].append(gk.reshape(R, -1).norm(dim=-1).double().cpu().numpy())
                shp = (R,) + (1,) * (gk.dim() - 1)
                sgd = params[k] - lr_t[k].reshape(shp) * gk
                if bool(is_adam.any()):
                    m[k] = 0.9 * m[k] + 0.1 * gk
                    v2[k] = 0.999 * v2[k] + 0.001 * gk * gk
                    upd = (m[k] / (1 - 0.9**t)) / ((v2[k] / (1 - 0.999**t)).sqrt() + 1e-8)
                    ad = params[k] - ad_t.reshape(shp) * upd
                    params[k] = torch.where(is_adam.reshape(shp), ad, sgd)
                else:
                    params[k] = sgd
    return RunLog(
        names,
        list(range(n)) * len(cfg.protocols),
        steps,
        np.stack(L, 1),
        np.stack(A_, 1),
        np.stack(E_, 1),
        {k: v.cpu() for k, v in params.items()},
        {k: v.cpu() for k, v in init.items()},
        eX,
        ey,
        eprev,
        mu,
        {k: np.stack(v, 1) for k, v in gn.items()},
        cfg,
    )


@persistent
def cached_train(cfg: StickyConfig, seed: int, device: str = "cpu") -> RunLog:
    """:func:`train`, memoised on disk (:mod:`verify.memo`): the claims of Sec. 7.2 that use
    the same configuration and seed share one training, across claims and runs."""
    return train(cfg, seed, device)


def profile_config(profile: str, **over) -> StickyConfig:
    """The paper's settings in ``deep``; a reduced sequence length in ``quick`` (T=100, stated
    in every report)."""
    if profile == "quick":
        base = StickyConfig(T=100, steps=1000, eval_every=20)
    else:
        base = StickyConfig()
    return replace(base, **over)


def trained(profile: str, seed: int, device: str = "cpu", **over) -> tuple[StickyConfig, RunLog]:
    """The profile's configuration (with ``over`` replaced) and its memoised training."""
    cfg = profile_config(profile, **over)
    return cfg, cached_train(cfg, seed, device)


def scale_note(cfg: StickyConfig) -> str:
    """The sequence length a result was measured at, against the paper's T=2000 (L395)."""
    return f"T={cfg.T}" + (" (quick profile; the paper uses T=2000)" if cfg.T != 2000 else "")


def scale_fields(cfg: StickyConfig, paper: StickyConfig | None = None) -> dict[str, str]:
    """``numbers["scale"]`` and ``numbers["setting"]`` of an experiment trained with ``cfg``:
    ``"paper"`` at the paper's T=2000, 1000 steps, 5 seeds (L395, L412-413; Table 1), else
    ``"smoke"`` (the quick profile: the deep profile judges it)."""
    paper = paper or StickyConfig()
    diffs = [
        f"{k}={getattr(cfg, k)} vs the paper's {getattr(paper, k)}"
        for k in ("T", "steps", "n_seeds")
        if getattr(cfg, k) != getattr(paper, k)
    ]
    if diffs:
        return {"scale": "smoke", "setting": ", ".join(diffs)}
    return {"scale": "paper", "setting": f"T={cfg.T}, {cfg.steps} steps, {cfg.n_seeds} seeds"}


def steps_to_level(curve: np.ndarray, steps: list[int], level: float) -> float:
    """First evaluation step whose held-out loss is <= ``level`` (nan if never)."""
    idx = np.nonzero(curve <= level)[0]
    return float(steps[idx[0]]) if idx.size else float("nan")


def bayes_filter_loss(P: np.ndarray, mu: np.ndarray, X: np.ndarray, y: np.ndarray) -> float:
    """Mean CE (nats) of the Bayes predictor of ``y_t`` given ``x_{1:t}`` (known P, mu, unit noise).

    Forward filtering over the hidden previous symbol ``y_{t-1}``: ``x_t`` carries the
    Gaussian likelihood of ``y_{t-1}``; the predictive is ``p(y_t | x_{1:t}) = sum_{y'}
    p(y_{t-1}=y' | x_{1:t}) P[y', y_t]``.
    """
    C = P.shape[0]
    T = X.shape[0]
    belief = np.full(C, 1.0 / C)  # p(y_{t-1}) before seeing x_t (y_0 stationary)
    total = 0.0
    for t in range(T):
        ll = -0.5 * ((X[t][None, :] - mu) ** 2).sum(-1)
        post = np.log(belief + 1e-300) + ll
        post = np.exp(post - post.max())
        post /= post.sum()
        pred = post @ P
        total += -math.log(max(pred[y[t]], 1e-300))
        belief = np.zeros(C)
        belief[:] = pred  # p(y_t | x_{1:t}) is the prior of the next hidden "previous symbol"
    return total / T

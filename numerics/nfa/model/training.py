"""Brief meta-training of the Table 1 operators (the trained readings of
``nfa.exp.table1_equivariance``).

The paper trains its operator (Sec. 4.1, L188; Table 5, L851-861: AdamW, lr 3e-4, weight decay
5e-5, MSE loss) but gives no training set for Exp. 1. Besides random weights, the experiments
use briefly trained ones: D = 64, 2 layers, SIREN hidden 32, about 2k synthetic band-limited
2-D fields, 2k AdamW steps at 3e-4. This module does that:

* :func:`bandlimited_fields` -- ``f(x) = sum_{k=1}^{K} c_k sin(omega_k^T x + phi_k)`` with
  ``|omega_k| <= band`` (uniform in the disc/ball), ``c ~ N(0, 1/K)``: smooth band-limited
  fields (our choice; the paper names none);
* :func:`train_operator` -- one Table 1 configuration
  (:func:`numerics.nfa.model.field_operator.build_table1_operator`) around a SIREN decoder
  (:class:`numerics.nfa.model.siren.SirenField`, hidden 32, 3 layers, omega_0 = 30, Table 3 init,
  residual parametrisation), trained in float32 with dropout 0.1 on (sample set -> field)
  self-consistency: from ``N`` samples ``(x_i, f(x_i))``, ``x ~ U[-1,1]^d``, predict ``f`` at
  ``M`` fresh query points in ``[-1, 1]^d``, MSE loss, AdamW (Table 5 settings). The field family
  is a parameter (``pool``): band-limited fields by default (Table 1), or :class:`GridFields`, a
  family of rasterised fields (App. F digits, App. G Poisson solutions) read bilinearly between
  the Table 4 pixel centres, whose sample and query points are drawn from the pixel-centre box.

Everything is seeded from explicit ``torch.Generator`` objects (data, weights, batches and
dropout masks all flow from the ``seed`` argument). The trained module is returned in eval mode.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import numpy as np
import torch
from torch import Tensor, nn

from verify.context import derive_seed
from verify.memo import checkpoint, persistent

from .field_operator import build_table1_operator
from .siren import SirenField

#: Sizes of the briefly trained operator (deep profile).
TRAIN_SIZE = (("dim", 64), ("heads", 4), ("layers", 2), ("ff", 128), ("head_hidden", 64))
#: A tiny operator for the quick profile (exercises the same code path in CI).
TINY_SIZE = (("dim", 16), ("heads", 2), ("layers", 1), ("ff", 32), ("head_hidden", 32))


@dataclass(frozen=True)
class TrainConfig:
    """One training budget. ``steps`` AdamW steps on batches of ``batch`` fields drawn from a pool
    of ``fields`` band-limited fields; ``n`` samples per set (N = 100, L188), ``queries`` query
    points per field; Table 5: lr 3e-4, weight decay 5e-5."""

    steps: int
    fields: int
    batch: int
    size: tuple = TRAIN_SIZE
    siren_hidden: int = 32
    siren_layers: int = 3
    n: int = 100
    queries: int = 64
    lr: float = 3e-4
    weight_decay: float = 5e-5
    band: float = 6.0
    terms: int = 8
    label: str = field(default="", compare=False)
    #: what the fields are, when not the band-limited family (e.g. "sklearn digits 28x28")
    data: str = ""

    def describe(self) -> dict:
        kind = self.data or f"band-limited, {self.terms} sinusoids, |omega| <= {self.band:g}"
        return {
            "steps": self.steps,
            "fields": self.fields,
            "batch": self.batch,
            "operator_size": dict(self.size),
            "siren": f"hidden {self.siren_hidden}, {self.siren_layers} layers, omega_0 = 30",
            "N": self.n,
            "queries": self.queries,
            "optimizer": f"AdamW lr {self.lr:g}, wd {self.weight_decay:g}",
            "fields_kind": kind,
            "label": self.label,
        }


#: Deep profile: a brief training (2k fields, 2k steps). Quick: a tiny,
#: clearly labelled run. Deep uses N = 64 samples per training set (the relative-PE bias is
#: O(N^2); N = 100 at evaluation).
DEEP_TRAIN = TrainConfig(
    steps=2000,
    fields=2000,
    batch=16,
    n=64,
    label="brief training (2000 AdamW steps, 2000 fields)",
)
QUICK_TRAIN = TrainConfig(
    steps=25,
    fields=6,
    batch=2,
    size=TINY_SIZE,
    n=32,
    queries=16,
    label="TINY smoke training (quick profile: 25 steps, 6 fields, untrained in effect)",
)
#: App. F / G meta-training of the A3a operator on their own field families (digit images,
#: Poisson solutions): the Table 1 training budget (2000 AdamW steps, batch 16, N = 64) on the
#: small :data:`TRAIN_SIZE` operator, over 500 fields of the family drawn apart from the
#: evaluation fields (the paper names no training set for App. F / G); quick: the same TINY
#: smoke run.
DEEP_FIELD_TRAIN = TrainConfig(
    steps=2000,
    fields=500,
    batch=16,
    n=64,
    label="meta-training (small operator, ~30 min on 2 CPU cores): 2000 AdamW steps, 500 fields",
)
QUICK_FIELD_TRAIN = TrainConfig(
    steps=25,
    fields=6,
    batch=2,
    size=TINY_SIZE,
    n=32,
    queries=16,
    label="TINY smoke meta-training (quick profile: 25 steps, 6 fields, untrained in effect)",
)


@dataclass
class BandlimitedFields:
    """A pool of fields ``f_j(x) = sum_k c_jk sin(omega_jk^T x + phi_jk)`` (float64 parameters)."""

    omega: Tensor  # (F, K, d)
    phase: Tensor  # (F, K)
    coef: Tensor  # (F, K)

    def __call__(self, idx: Tensor, x: Tensor) -> Tensor:
        """Values of fields ``idx`` (B,) at points ``x`` (B, M, d) -> (B, M), in ``x``'s dtype."""
        om, ph, c = (t[idx].to(x.dtype) for t in (self.omega, self.phase, self.coef))
        return (torch.sin(x @ om.transpose(-1, -2) + ph.unsqueeze(-2)) * c.unsqueeze(-2)).sum(-1)

    def __len__(self) -> int:
        return self.omega.shape[0]

    def points(self, batch: int, n: int, d: int, generator: torch.Generator) -> Tensor:
        """``x ~ U[-1, 1]^d`` (batch, n, d), float32."""
        return 2 * torch.rand(batch, n, d, generator=generator, device=generator.device) - 1


@dataclass
class GridFields:
    """A pool of rasterised 2-D fields ``images`` (F, n, n) on the Table 4 pixel centres
    ``x = -1 + 2 (i + 0.5) / den`` (``den = n - 1`` as printed, ``n`` for Reading B; ``(row, col)``
    order as :func:`numerics.nfa._data.pixel_coords`), read bilinearly between the centres and
    zero outside their box (the interpolation of :func:`numerics.nfa._data.rerasterise`)."""

    images: Tensor  # (F, n, n) float64
    den: float

    def __call__(self, idx: Tensor, x: Tensor) -> Tensor:
        """Values of fields ``idx`` (B,) at points ``x`` (B, M, 2) -> (B, M), in ``x``'s dtype."""
        n = self.images.shape[-1]
        img = self.images[idx].to(x.dtype).unsqueeze(1)  # (B, 1, n, n)
        frac = (x + 1) * self.den / 2 - 0.5  # fractional pixel index, (row, col)
        u = 2 * frac / (n - 1) - 1  # align_corners=True: -1 -> centre 0, 1 -> centre n - 1
        grid = torch.stack([u[..., 1], u[..., 0]], -1).unsqueeze(1)  # grid_sample wants (col, row)
        out = torch.nn.functional.grid_sample(
            img, grid, mode="bilinear", padding_mode="zeros", align_corners=True
        )
        tol = 1e-6  # an outer centre itself counts as inside despite round-off in frac
        inside = ((frac >= -tol) & (frac <= n - 1 + tol)).all(
            -1
        )  # zero beyond the outer centres (rerasterise)
        return out[:, 0, 0, :] * inside.to(x.dtype)

    def __len__(self) -> int:
        return self.images.shape[0]

    def points(self, batch: int, n: int, d: int, generator: torch.Generator) -> Tensor:
        """Points uniform in the box spanned by the pixel centres (batch, n, 2), float32."""
        side = self.images.shape[-1]
        lo, hi = -1 + 1 / self.den, -1 + (2 * side - 1) / self.den
        return lo + (hi - lo) * torch.rand(batch, n, d, generator=generator,
            device=generator.device)


def bandlimited_fields(
    count: int, d: int, *, terms: int = 8, band: float = 6.0, generator: torch.Generator
) -> BandlimitedFields:
    """``count`` random band-limited fields on ``R^d`` (frequencies uniform in the ball of
    radius ``band``)."""
    direction = torch.randn(count, terms, d, generator=generator, dtype=torch.float64,
        device=generator.device)
    direction = direction / direction.norm(dim=-1, keepdim=True).clamp_min(1e-12)
    radius = band * torch.rand(count, terms, 1, generator=generator, dtype=torch.float64,
        device=generator.device) ** (
        1.0 / d
    )
    phase = 2 * math.pi * torch.rand(count, terms, generator=generator, dtype=torch.float64,
        device=generator.device)
    coef = torch.randn(count, terms, generator=generator, dtype=torch.float64,
        device=generator.device) / math.sqrt(
        terms / 2
    )
    return BandlimitedFields(direction * radius, phase, coef)


def build_trainable(config: str, d: int, cfg: TrainConfig, generator: torch.Generator) -> nn.Module:
    """The Table 1 configuration ``config`` with a SIREN(hidden ``cfg.siren_hidden``) decoder,
    float32."""
    dec = SirenField(
        d, cfg.siren_hidden, cfg.siren_layers, generator=generator, dtype=torch.float32
    )
    return build_table1_operator(
        config, d, dec, generator=generator, dtype=torch.float32, **dict(cfg.size)
    )


class AdamW:
    """AdamW (Loshchilov & Hutter; the update of ``torch.optim.AdamW`` with its defaults betas
    (0.9, 0.999), eps 1e-8, decoupled weight decay), written out because constructing
    ``torch.optim.AdamW`` costs ~1.2 s of one-off imports, which the quick profile cannot afford.
    ``tests/nfa/test_nfa_training.py`` checks it step for step against ``torch.optim.AdamW``."""

    def __init__(
        self,
        params,
        lr: float,
        weight_decay: float,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
    ) -> None:
        self.params = [p for p in params if p.requires_grad]
        self.lr, self.wd, self.betas, self.eps = lr, weight_decay, betas, eps
        self.m = [torch.zeros_like(p) for p in self.params]
        self.v = [torch.zeros_like(p) for p in self.params]
        self.t = 0

    def zero_grad(self) -> None:
        for p in self.params:
            p.grad = None

    @torch.no_grad()
    def step(self) -> None:
        self.t += 1
        b1, b2 = self.betas
        c1, c2 = 1 - b1**self.t, 1 - b2**self.t
        for p, m, v in zip(self.params, self.m, self.v, strict=True):
            if p.grad is None:
                continue
            p.mul_(1 - self.lr * self.wd)
            m.mul_(b1).add_(p.grad, alpha=1 - b1)
            v.mul_(b2).addcmul_(p.grad, p.grad, value=1 - b2)
            p.addcdiv_(m, (v / c2).sqrt_().add_(self.eps), value=-self.lr / c1)


@dataclass
class TrainResult:
    """A trained operator (eval mode, float32) with its loss history and wall time.

    ``seconds`` is the wall time of the call that finished the training: after a resume from a
    checkpoint it counts only the steps run since then."""

    operator: nn.Module
    losses: list[float]
    seconds: float
    config: TrainConfig

    @property
    def first_loss(self) -> float:
        return float(sum(self.losses[:5]) / max(1, len(self.losses[:5])))

    @property
    def last_loss(self) -> float:
        tail = self.losses[-max(1, len(self.losses) // 10) :]
        return float(sum(tail) / len(tail))


def _state(step: int, op: nn.Module, opt: AdamW, g_b: torch.Generator,
           losses: list[float]) -> dict:
    """Everything :func:`train_operator` needs to continue at ``step`` exactly as if it had not
    stopped: weights, optimiser moments, the batch generator and the dropout generator."""
    return {"step": step, "weights": {k: v.clone() for k, v in op.state_dict().items()},
            "m": [t.clone() for t in opt.m], "v": [t.clone() for t in opt.v], "t": opt.t,
            "batches": g_b.get_state(), "dropout": torch.get_rng_state(),
            "losses": list(losses)}


def _resume(state: dict | None, op: nn.Module, opt: AdamW, g_b: torch.Generator,
            losses: list[float]) -> int:
    """Restore a :func:`_state` (when there is one) and return the step to continue from."""
    if state is None:
        return 0
    op.load_state_dict(state["weights"])
    with torch.no_grad():
        for dst, src in zip(opt.m + opt.v, state["m"] + state["v"], strict=True):
            dst.copy_(src)
    opt.t = state["t"]
    g_b.set_state(state["batches"])
    torch.set_rng_state(state["dropout"])
    losses[:] = state["losses"]
    return state["step"]


def train_operator(
    config: str,
    d: int,
    cfg: TrainConfig,
    *,
    seed: int,
    pool: BandlimitedFields | GridFields | None = None,
) -> TrainResult:
    """Train one Table 1 configuration on a field family (module docstring) and return it.

    ``pool`` is the family (anything with ``__len__``, ``__call__(idx, x)`` and ``points``); by
    default ``cfg.fields`` band-limited fields drawn from ``seed``.

    ``seed`` seeds four generators (fields, weights, batches, dropout); nothing touches global
    RNG state except the dropout masks, which PyTorch draws from the default generator -- so the
    default generator is forked and seeded for the duration of the call.
    """
    g_data = torch.Generator().manual_seed(seed)
    g_w = torch.Generator().manual_seed(seed + 1)
    g_b = torch.Generator().manual_seed(seed + 2)
    if pool is None:
        pool = bandlimited_fields(cfg.fields, d, terms=cfg.terms, band=cfg.band, generator=g_data)
    op = build_trainable(config, d, cfg, g_w)
    opt = AdamW(op.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)
    losses: list[float] = []
    t0 = time.monotonic()
    ckpt = checkpoint()  # resume an interrupted training mid-run (verify.memo)
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(
            seed + 3
        )  # dropout masks (Table 3: dropout 0.1) use the default generator
        start = _resume(ckpt.load(), op, opt, g_b, losses)
        op.train()
        for step in range(start, cfg.steps):
            if step > start and ckpt.due():
                ckpt.save(_state(step, op, opt, g_b, losses))
            idx = torch.randint(len(pool), (cfg.batch,), generator=g_b, device=g_b.device)
            x = pool.points(cfg.batch, cfg.n, d, g_b)
            xq = pool.points(cfg.batch, cfg.queries, d, g_b)
            y, yq = pool(idx, x), pool(idx, xq)
            loss = (op.field(op(x, y), xq) - yq).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(float(loss.detach()))
    op.eval()
    return TrainResult(op, losses, time.monotonic() - t0, cfg)


@persistent(memo=32)
def trained_operator(run_seed: int, config: str, d: int, train_cfg: TrainConfig) -> TrainResult:
    """One trained Table 1 operator per (run seed, configuration, d, budget), memoised on disk
    (:mod:`verify.memo`): the trained rows of ``nfa.exp.table1_equivariance`` (Figs. 1-2 and the
    abstract use random-weight operators at the paper's size). The memo makes a re-run or a
    resumed deep run cheap; no other claim reads it."""
    return train_operator(
        config, d, train_cfg, seed=derive_seed(run_seed, "nfa.table1.train", config, d) % 2**31
    )


@persistent(memo=2)
def meta_trained(images: np.ndarray, cfg: TrainConfig, seed: int) -> TrainResult:
    """The App. F/G meta-training of the A3a operator (softmax tau = 1) on ``images`` read as
    fields on their pixel grid, memoised on disk (keyed by the images' bytes, the budget and the
    seed) and checkpointed, so an interrupted deep run resumes mid-training."""
    pool = GridFields(torch.as_tensor(images, dtype=torch.float64), float(images.shape[-1] - 1))
    return train_operator("softmax_tau1", 2, cfg, seed=seed, pool=pool)

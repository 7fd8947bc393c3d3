"""The in-context learning experiment of Sec. 5 on 1D ECA, at a size a CPU can train.

- :class:`ECATask`: the task of App. G.3.2 (``L = 16``, ``T = 10``, ``M = 4``, ``V = 2``), its token
  layout (eq. (2): ``L`` cell tokens per row, one ``[SEP] = V`` token between rows, ``T L + T - 1``
  tokens) and the loss mask of App. G.1 (cell tokens of rows ``t >= M``).
- :func:`eca_rule_pools`: the 256 ECA rules in classes under reflection and bit complement, one
  canonical representative per class (the smallest rule number), split 80/20 into train and
  held-out test pools (App. G.3.2).
- :func:`sample_tokens`: uniformly random initial rows evolved on the periodic grid, rejected
  unless rows ``0..M-2`` expose all ``2^3`` neighbourhoods (App. G.3.2); returns the acceptance
  rate.
- :class:`SpatialGPT`: the decoder of App. G.1 (pre-LayerNorm, causal, learned absolute positions,
  MLP ``D -> 4D -> D`` with GELU, untied output head), with a head count per layer (Table 6:
  "1,1", "3,1") and the MLP removable (Table 2's ablation). Attention is written out so that its
  weights can be read (Sec. 5.2's attention statistics).
- :func:`train`: AdamW, linear warm-up then cosine decay, global-norm clipping at 1.0 (App. G.1).
- :func:`evaluate`: the three metrics of App. G.4 on the same samples: cell accuracy, sequence
  accuracy (teacher forcing) and autoregressive accuracy (greedy decoding, own predictions fed
  back, separators inserted at their known positions) over a given horizon.

The paper trains D = 384-512 models for 500 epochs of 120k sequences on a GPU (Table 6, < 10 GPU-h
each); what runs here is smaller and shorter, and every number it produces says so. Every random
choice comes from the ``torch.Generator`` passed in.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn

from proofs.sih.model import wolfram_table
from verify.context import derive_seed
from verify.memo import persistent


@dataclass(frozen=True)
class ECATask:
    """App. G.3.2: grid width ``L``, ``T`` time steps, ``M`` context steps, ``V = 2`` states."""

    L: int = 16
    T: int = 10
    M: int = 4
    V: int = 2

    @property
    def sep(self) -> int:
        """The [SEP] token id (cells are ``0..V-1``; vocabulary ``V + 1``, G.3.1)."""
        return self.V

    @property
    def length(self) -> int:
        """Tokens per sequence, eq. (2): ``T L + (T - 1)``."""
        return self.T * self.L + self.T - 1

    def position(self, t: int, i: int) -> int:
        """Index of cell ``(t, i)`` in the flattened sequence."""
        return t * (self.L + 1) + i

    def target_positions(self, rows: range | None = None) -> torch.Tensor:
        """Sequence indices of the scored cells: rows ``M..T-1`` (App. G.1) or the rows given."""
        rows = range(self.M, self.T) if rows is None else rows
        return torch.tensor([self.position(t, i) for t in rows for i in range(self.L)])


def eca_rule_classes() -> list[frozenset[int]]:
    """The 88 classes of the 256 ECA rules under left-right reflection and bit complement."""

    def reflect(rule: int) -> int:
        t = wolfram_table(rule)
        return sum(
            t[(c << 2) | (b << 1) | a] << (4 * a + 2 * b + c)
            for a, b, c in itertools.product((0, 1), repeat=3)
        )

    def complement(rule: int) -> int:
        t = wolfram_table(rule)
        return sum((1 - t[7 - n]) << n for n in range(8))

    seen: set[int] = set()
    classes = []
    for r in range(256):
        if r not in seen:
            orbit = frozenset({r, reflect(r), complement(r), complement(reflect(r))})
            seen |= orbit
            classes.append(orbit)
    return classes


def eca_rule_pools(
    generator: torch.Generator, train_share: float = 0.8
) -> tuple[list[int], list[int]]:
    """Canonical representatives (smallest rule number per class), shuffled and split
    ``train_share``."""
    reps = sorted(min(c) for c in eca_rule_classes())
    order = torch.randperm(len(reps), generator=generator, device=generator.device).tolist()
    n_train = round(train_share * len(reps))
    return sorted(reps[i] for i in order[:n_train]), sorted(reps[i] for i in order[n_train:])


_TABLES = torch.tensor([wolfram_table(r) for r in range(256)])


@dataclass
class Sample:
    """``tokens`` ``(n, task.length)``, the rule of each sequence, and the rejection step's
    acceptance rate."""

    tokens: torch.Tensor
    rules: torch.Tensor
    acceptance: float


def sample_tokens(task: ECATask, rules: list[int], n: int, generator: torch.Generator) -> Sample:
    """``n`` accepted sequences: a rule drawn uniformly from ``rules`` per sequence, a uniform
    initial row."""
    if task.V != 2:
        raise ValueError(f"sample_tokens builds ECA (V = 2) sequences; got V = {task.V}")
    if not rules:
        raise ValueError("sample_tokens needs a non-empty rule pool")
    dev = generator.device
    pool, tables = torch.tensor(rules, device=dev), _TABLES.to(dev)
    kept_traj, kept_rules, drawn, kept = [], [], 0, 0
    while kept < n:
        B = max(64, 2 * (n - kept))
        rule = pool[torch.randint(len(rules), (B,), generator=generator, device=generator.device)]
        row = torch.randint(0, 2, (B, task.L), generator=generator, device=generator.device)
        rows, seen = [row], torch.zeros(B, 8, dtype=torch.bool, device=dev)
        for t in range(task.T - 1):
            code = 4 * torch.roll(rows[-1], 1, 1) + 2 * rows[-1] + torch.roll(rows[-1], -1, 1)
            if t < task.M - 1:
                seen.scatter_(1, code, True)
            rows.append(tables[rule[:, None], code])
        ok = seen.all(1)
        drawn, kept = drawn + B, kept + int(ok.sum())
        kept_traj.append(torch.stack(rows, 1)[ok])
        kept_rules.append(rule[ok])
    traj = torch.cat(kept_traj)[:n]
    sep = torch.full((n, task.T, 1), task.sep, device=dev)
    tokens = torch.cat([traj, sep], 2).reshape(n, -1)[:, :-1]
    return Sample(tokens, torch.cat(kept_rules)[:n], kept / drawn)


class CausalSelfAttention(nn.Module):
    """Multi-head causal softmax attention with readable weights."""

    def __init__(self, D: int, heads: int) -> None:
        super().__init__()
        if D % heads:
            raise ValueError(f"model width D = {D} is not divisible by {heads} heads")
        self.heads = heads
        self.qkv = nn.Linear(D, 3 * D)
        self.out = nn.Linear(D, D)
        self.last_weights: torch.Tensor | None = None

    def forward(self, x: torch.Tensor, keep_weights: bool = False) -> torch.Tensor:
        n, N, D = x.shape
        q, k, v = self.qkv(x).view(n, N, 3, self.heads, D // self.heads).permute(2, 0, 3, 1, 4)
        scores = q @ k.transpose(-1, -2) / math.sqrt(D // self.heads)
        mask = torch.ones(N, N, dtype=torch.bool, device=x.device).triu(1)
        w = scores.masked_fill(mask, float("-inf")).softmax(-1)
        self.last_weights = w.detach() if keep_weights else None
        return self.out((w @ v).transpose(1, 2).reshape(n, N, D))


class Block(nn.Module):
    """Pre-LN block: ``x + Attn(LN(x))`` then ``x + MLP(LN(x))`` (the MLP may be removed)."""

    def __init__(self, D: int, heads: int, mlp: bool) -> None:
        super().__init__()
        self.ln1, self.attn = nn.LayerNorm(D), CausalSelfAttention(D, heads)
        self.ln2 = nn.LayerNorm(D) if mlp else None
        self.mlp = (
            nn.Sequential(nn.Linear(D, 4 * D), nn.GELU(), nn.Linear(4 * D, D)) if mlp else None
        )

    def forward(self, x: torch.Tensor, keep_weights: bool = False) -> torch.Tensor:
        x = x + self.attn(self.ln1(x), keep_weights)
        if self.mlp is not None:
            x = x + self.mlp(self.ln2(x))
        return x


class SpatialGPT(nn.Module):
    """The decoder of App. G.1 with ``heads[l]`` heads in layer ``l`` (Table 6 writes "1,1",
    "3,1")."""

    def __init__(self, task: ECATask, D: int, heads: tuple[int, ...], mlp: bool = True) -> None:
        super().__init__()
        self.task, self.heads, self.has_mlp = task, tuple(heads), mlp
        self.tok = nn.Embedding(task.V + 1, D)
        self.pos = nn.Embedding(task.length, D)
        self.blocks = nn.ModuleList(Block(D, h, mlp) for h in heads)
        self.ln_f = nn.LayerNorm(D)
        self.head = nn.Linear(
            D, task.V
        )  # untied from the token embedding; separators are never predicted

    def forward(self, tokens: torch.Tensor, keep_weights: bool = False) -> torch.Tensor:
        """Logits ``(n, N, V)`` for the token after each position."""
        h = self.tok(tokens) + self.pos(torch.arange(tokens.shape[1], device=tokens.device))
        for block in self.blocks:
            h = block(h, keep_weights)
        return self.head(self.ln_f(h))

    def attention_weights(self) -> list[torch.Tensor]:
        """Per layer ``(n, heads, N, N)`` from the last forward run with ``keep_weights=True``."""
        return [b.attn.last_weights for b in self.blocks]


def build_model(
    task: ECATask, D: int, heads: tuple[int, ...], *, mlp: bool = True, seed: int
) -> SpatialGPT:
    """A :class:`SpatialGPT` with PyTorch's default initialisation drawn from ``seed`` alone."""
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        return SpatialGPT(task, D, heads, mlp)


@dataclass(frozen=True)
class TrainConfig:
    """App. G.1's optimiser (AdamW, warm-up + cosine, clip 1.0) at a CPU-sized budget."""

    steps: int
    batch: int = 64
    lr: float = 1e-3
    weight_decay: float = 0.2
    warmup_share: float = 0.05


def train(
    model: SpatialGPT,
    rules: list[int],
    cfg: TrainConfig,
    generator: torch.Generator,
    *,
    checkpoint: Callable[[int, SpatialGPT], None] | None = None,
    every: int = 0,
) -> list[float]:
    """Fresh sequences from the training rule pool at every step (drawn on the CPU from
    ``generator``, moved to the model's device); returns the loss per step.

    ``checkpoint(step, model)`` is called after every ``every`` steps (and after the last), with the
    model in eval mode; it must not draw from ``generator``, so that a learning curve leaves the
    training stream unchanged."""
    if checkpoint is not None and every < 1:
        raise ValueError(f"train: a checkpoint needs every >= 1, got every={every}")
    task = model.task
    device = next(model.parameters()).device
    opt = torch.optim.AdamW(
        model.parameters(), lr=cfg.lr, betas=(0.9, 0.999), weight_decay=cfg.weight_decay
    )
    warm = max(1, round(cfg.warmup_share * cfg.steps))

    def lr_factor(step: int) -> float:
        return (
            min(1.0, (step + 1) / warm)
            * 0.5
            * (1 + math.cos(math.pi * min(step, cfg.steps) / cfg.steps))
        )

    sched = torch.optim.lr_scheduler.LambdaLR(opt, lr_factor)
    targets = task.target_positions().to(device)
    losses = []
    model.train()
    for step in range(cfg.steps):
        tokens = sample_tokens(task, rules, cfg.batch, generator).tokens.to(device)
        logits = model(tokens[:, :-1])[:, targets - 1]
        loss = F.cross_entropy(logits.reshape(-1, task.V), tokens[:, targets].reshape(-1))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        sched.step()
        losses.append(loss.item())
        if checkpoint is not None and ((step + 1) % every == 0 or step + 1 == cfg.steps):
            model.eval()
            checkpoint(step + 1, model)
            model.train()
    model.eval()
    return losses


@dataclass
class Evaluation:
    """App. G.4's metrics on the same samples; per-sample outcomes kept for the Seq/Auto
    relation."""

    cell_acc: float
    seq_correct: torch.Tensor  # (n,) bool: every scored cell right under teacher forcing
    auto_rows: torch.Tensor  # (n, horizon) bool: generated row M + r entirely right

    @property
    def horizon(self) -> int:
        return self.auto_rows.shape[1]

    @property
    def seq_acc(self) -> float:
        return float(self.seq_correct.float().mean())

    def auto_correct(self, horizon: int | None = None) -> torch.Tensor:
        """(n,) bool: the first ``horizon`` generated rows (default all) entirely right."""
        return self.auto_rows[:, : self.horizon if horizon is None else horizon].all(1)

    def auto_acc(self, horizon: int | None = None) -> float:
        return float(self.auto_correct(horizon).float().mean())


@persistent
def trained_eca_row(run_seed: int, heads: tuple[int, ...], device: str, scale: dict,
                    curve_every: int, curve_sequences: int) -> dict:
    """One ECA row of Table 1 (heads per layer ``heads``) trained at ``scale`` (width ``D``,
    ``steps`` AdamW steps of ``batch`` fresh sequences at ``lr``), evaluated on ``n_test``
    held-out-rule sequences (Cell, Seq; Auto on the first ``n_auto``).

    The test sequences come from a generator of their own (drawn before training), and a
    held-out learning curve (every ``curve_every`` steps on the first ``curve_sequences``
    sequences) is recorded without touching the training stream. Deterministic in its
    arguments, so it is memoised on disk (:func:`verify.memo.persistent`): the claims that
    measure the same model share one training."""
    seed = derive_seed(run_seed, "sih.exp ECA rows", *heads)
    task = ECATask()
    pools_g = torch.Generator().manual_seed(derive_seed(run_seed, "sih.exp ECA pools"))
    train_rules, test_rules = eca_rule_pools(pools_g)
    test_g = torch.Generator().manual_seed(
        derive_seed(run_seed, "sih.exp ECA test sequences") % 2**31)
    tokens = sample_tokens(task, test_rules, scale["n_test"], test_g).tokens.to(device)
    g = torch.Generator().manual_seed(seed % 2**31)
    model = build_model(task, scale["D"], heads, seed=seed).to(device)
    curve: list[tuple[int, float, float]] = []

    def held_out(step: int, m: SpatialGPT) -> None:
        c, q = teacher_forced(m, tokens[:curve_sequences])
        curve.append((step, c, float(q.float().mean())))

    losses = train(model, train_rules,
                   TrainConfig(steps=scale["steps"], batch=scale["batch"], lr=scale["lr"]), g,
                   checkpoint=held_out, every=curve_every)
    cell, seq = teacher_forced(model, tokens)
    auto = autoregressive(model, tokens[: scale["n_auto"]], task.T - task.M).all(1)
    return {"model": model, "tokens": tokens, "cell": cell, "seq_hits": int(seq.sum()),
            "auto_hits": int(auto.sum()), "losses": losses, "curve": curve}


@torch.no_grad()
def teacher_forced(model: SpatialGPT, tokens: torch.Tensor) -> tuple[float, torch.Tensor]:
    """Cell accuracy over rows ``M..T-1`` and per-sample sequence correctness (argmax
    predictions)."""
    targets = model.task.target_positions()
    pred = model(tokens[:, :-1])[:, targets - 1].argmax(-1)
    right = pred == tokens[:, targets]
    return float(right.float().mean()), right.all(1)


@torch.no_grad()
def autoregressive(model: SpatialGPT, tokens: torch.Tensor, horizon: int) -> torch.Tensor:
    """Greedy generation of rows ``M..M+horizon-1`` from the context rows, each prediction fed back.

    Returns ``(n, horizon)``: whether generated row ``M + r`` is entirely right. Generation does not
    stop at a wrong cell, so Auto over a shorter horizon is a prefix of this one run.
    """
    task = model.task
    if not 1 <= horizon <= task.T - task.M:
        raise ValueError(f"horizon {horizon} outside 1..T-M = {task.T - task.M}")
    buf = tokens.clone()
    end = task.position(task.M + horizon - 1, task.L - 1) + 1
    buf[:, task.position(task.M, 0) : end] = (
        task.sep
    )  # nothing of the future is visible to the generator
    for t in range(task.M, task.M + horizon):
        for i in range(task.L):
            p = task.position(t, i)
            buf[:, p] = model(buf[:, :p])[:, -1].argmax(-1)
    rows = task.target_positions(range(task.M, task.M + horizon))
    return (buf[:, rows] == tokens[:, rows]).view(len(tokens), horizon, task.L).all(2)


def evaluate(model: SpatialGPT, tokens: torch.Tensor, horizon: int | None = None) -> Evaluation:
    """Cell, Seq (teacher forcing, rows ``M..T-1``) and Auto (generation over ``horizon`` rows,
    default ``T - M``)."""
    horizon = model.task.T - model.task.M if horizon is None else horizon
    cell, seq = teacher_forced(model, tokens)
    return Evaluation(cell, seq, autoregressive(model, tokens, horizon))


def _cell_configurations(tokens: torch.Tensor, task: ECATask) -> torch.Tensor:
    """``(n, N)``: per position the parent configuration ``4a + 2b + c`` of its cell (rows ``t >=
    1``), else -1."""
    n = len(tokens)
    grid = torch.cat([tokens, torch.full((n, 1), task.sep, device=tokens.device)], 1).view(
        n, task.T, task.L + 1
    )
    rows = grid[:, :, : task.L]
    conf = (
        4 * torch.roll(rows, 1, 2) + 2 * rows + torch.roll(rows, -1, 2)
    )  # configuration of row t's neighbourhoods
    out = torch.full((n, task.T, task.L + 1), -1, dtype=torch.long, device=tokens.device)
    out[:, 1:, : task.L] = conf[:, :-1]  # cell (t, i) was produced from configuration conf[t-1, i]
    return out.view(n, -1)[:, : task.length]


@torch.no_grad()
def attention_statistics(model: SpatialGPT, tokens: torch.Tensor) -> dict[str, torch.Tensor]:
    """Per sample, the attention mass (mean over heads and over the queries that predict rows ``t >=
    M``) on:

    - ``L1 N_Q``: the three parents of the predicted cell ``(t, i)`` in row ``t-1`` (every query);
    - ``L1 N_Q (cell queries)``, ``L1 N_K (cell queries)``, ``L1 U (cell queries)``: for the queries
      that are cell tokens ``(t, i-1)`` (a separator query has no cell): the parents of the
      predicted cell, of the query's own cell, and their union (offsets ``-2..1``, the set the ``h =
      1`` construction routes);
    - ``L2 matching configuration``: the keys whose own parent configuration equals the predicted
      cell's (the keys Layer 2 of the construction retrieves from, App. F Step 3).

    Returns ``{name: (n,) tensor}``; Layer 1 is the first block, Layer 2 the last.
    """
    task = model.task
    model(tokens, keep_weights=True)
    weights = model.attention_weights()
    first, last = weights[0].mean(1), weights[-1].mean(1)  # (n, N, N), mean over heads
    targets = task.target_positions()
    queries = targets - 1
    N = task.length

    def positional_mass(offsets: tuple[int, ...], select: torch.Tensor) -> torch.Tensor:
        mask = torch.zeros(len(targets), N, dtype=torch.bool)
        for row, p in enumerate(targets.tolist()):
            t, i = divmod(p, task.L + 1)
            for o in offsets:
                mask[row, task.position(t - 1, (i + o) % task.L)] = True
        mass = (first[:, queries] * mask.to(first.device)).sum(-1)
        return mass[:, select.to(first.device)].mean(1)

    every = torch.ones(len(targets), dtype=torch.bool)
    cell_queries = (targets % (task.L + 1)) != 0  # the predicted cell is not the first of its row
    conf = _cell_configurations(tokens, task)
    match = (
        conf[:, None, :] == conf[:, targets][:, :, None]
    )  # (n, Q, N): key's configuration == predicted cell's
    return {
        "L1 N_Q": positional_mass((-1, 0, 1), every),
        "L1 N_Q (cell queries)": positional_mass((-1, 0, 1), cell_queries),
        "L1 N_K (cell queries)": positional_mass((-2, -1, 0), cell_queries),
        "L1 U (cell queries)": positional_mass((-2, -1, 0, 1), cell_queries),
        "L2 matching configuration": (last[:, queries] * match).sum(-1).mean(1),
    }

"""Implicit neural representations of §5 / App. D: targets (eqs. (30)-(31), L317-325), grid, split,
model and training protocol (D.2, L329-337).

The choices D.1-D.2 leave open are parameters (see ``pegr.exp.protocol``): coordinates default
to ``linspace(-1, 1, n)`` on each axis (the origin is not a grid point), intensities are signed
(``magnitude=True`` takes ``|.|``, the "magnitude of the vector" of L325), and the vector-field
MSE is the mean over the two components.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch
from torch import nn

from .encodings import FourierFeaturePE, SO2BesselPE


class MLP(nn.Module):
    """The MLP of D.2 (L335): ``in -> w -> ... -> w -> out`` with ReLU, ``hidden`` hidden layers."""

    def __init__(
        self,
        d_in: int,
        d_out: int,
        width: int = 128,
        hidden: int = 3,
        init: str = "default",
        generator: torch.Generator | None = None,
        dtype: torch.dtype = torch.float32,
    ) -> None:
        super().__init__()
        dims = [d_in] + [width] * hidden + [d_out]
        self.layers = nn.ModuleList(
            nn.Linear(a, b, dtype=dtype) for a, b in zip(dims[:-1], dims[1:], strict=False)
        )
        with torch.no_grad():
            for lin in self.layers:
                if init == "gaussian":  # NTK-style: W ~ N(0, 2 / fan_in), b = 0
                    lin.weight.copy_(
                        torch.randn(lin.weight.shape, generator=generator, dtype=dtype,
                            device=None if generator is None else generator.device)
                        * math.sqrt(2.0 / lin.in_features)
                    )
                    lin.bias.zero_()
                else:  # PyTorch default (Kaiming-uniform), drawn from the generator
                    bound = 1 / math.sqrt(lin.in_features)
                    lin.weight.copy_(
                        (2 * torch.rand(lin.weight.shape, generator=generator, dtype=dtype,
                            device=None if generator is None else generator.device) - 1)
                        * bound
                    )
                    lin.bias.copy_(
                        (2 * torch.rand(lin.bias.shape, generator=generator, dtype=dtype,
                            device=None if generator is None else generator.device) - 1)
                        * bound
                    )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for lin in self.layers[:-1]:
            x = torch.relu(lin(x))
        return self.layers[-1](x)


def grid(
    n: int = 256, lo: float = -1.0, hi: float = 1.0, dtype: torch.dtype = torch.float64
) -> torch.Tensor:
    """The ``n x n`` grid of points ``(x, y)``, shape ``(n*n, 2)`` (row index = y)."""
    t = torch.linspace(lo, hi, n, dtype=dtype)
    yy, xx = torch.meshgrid(t, t, indexing="ij")
    return torch.stack([xx.reshape(-1), yy.reshape(-1)], 1)


def polar(p: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    return torch.linalg.vector_norm(p, dim=-1), torch.atan2(p[..., 1], p[..., 0])


def radial_vf(p: torch.Tensor) -> torch.Tensor:
    """Eq. (30): ``sin(15 sqrt r) (cos theta, sin theta)``."""
    r, th = polar(p)
    return torch.sin(15 * torch.sqrt(r))[..., None] * torch.stack(
        [torch.cos(th), torch.sin(th)], -1
    )


def spiral_vf(p: torch.Tensor) -> torch.Tensor:
    """Eq. (31): ``sin(30 sqrt(.1 r) + theta) (cos theta, sin theta)``."""
    r, th = polar(p)
    return torch.sin(30 * torch.sqrt(0.1 * r) + th)[..., None] * torch.stack(
        [torch.cos(th), torch.sin(th)], -1
    )


def radial_img(p: torch.Tensor, magnitude: bool = False) -> torch.Tensor:
    """L325: ``sin(15 sqrt r)`` (reading A, signed) or its absolute value (reading B, "magnitude").
    """
    v = torch.sin(15 * torch.sqrt(polar(p)[0]))
    return v.abs() if magnitude else v


def spiral_img(p: torch.Tensor, magnitude: bool = False) -> torch.Tensor:
    r, th = polar(p)
    v = torch.sin(30 * torch.sqrt(0.1 * r) + th)
    return v.abs() if magnitude else v


TASKS = {
    "Radial": lambda p: radial_img(p)[:, None],
    "Spiral": lambda p: spiral_img(p)[:, None],
    "Radial VF": radial_vf,
    "Spiral VF": spiral_vf,
}


class NoPE(torch.nn.Module):
    """``gamma(x, y) = (x, y)`` (L89)."""

    def forward(self, p: torch.Tensor) -> torch.Tensor:
        return p


def make_pe(kind: str, hp: dict, generator: torch.Generator) -> torch.nn.Module:
    """``"none"``, ``"TxT"`` (``hp["c"]``) or ``"SO2"`` (``hp["C"]``, ``hp["K"]``), 16 frequencies
    -> 32 dims."""
    if kind == "none":
        return NoPE()
    if kind == "TxT":
        return FourierFeaturePE.sample(hp["c"], 16, generator)
    return SO2BesselPE.sample(hp["C"], hp["K"], 16, generator)


def split(n_points: int, generator: torch.Generator, train: float = 0.05, val: float = 0.40):
    """5% train, 40% validation, the rest test (L337)."""
    perm = torch.randperm(n_points, generator=generator,
        device=None if generator is None else generator.device)
    a = int(train * n_points)
    b = a + int(val * n_points)
    return perm[:a], perm[a:b], perm[b:]


@dataclass
class RunResult:
    train: float
    val: float
    test: float


def train_inr(
    task: str,
    pe_kind: str,
    hp: dict,
    seed: int,
    n: int = 256,
    steps: int = 500,
    width: int = 128,
    snapshots: tuple[int, ...] = (),
    pts: torch.Tensor | None = None,
):
    """One run of the D.2 protocol: split, PE sample and init all drawn from ``seed``; full-batch
    Adam on the MSE (mean over points and components), float32. Returns a :class:`RunResult` and,
    for each step in ``snapshots``, the model's predictions on ``pts`` (float64 encodings)."""
    g = torch.Generator().manual_seed(int(seed))
    P = grid(n)
    Y = TASKS[task](P).to(torch.float32)
    tr, va, te = split(len(P), g)
    pe = make_pe(pe_kind, hp, g)
    E = pe(P).to(torch.float32)
    model = MLP(E.shape[1], Y.shape[1], width, 3, generator=g)
    opt = torch.optim.Adam(model.parameters(), lr=hp["lr"])
    snaps = {}
    Eq = pe(pts).to(torch.float32) if pts is not None else None
    for step in range(steps + 1):
        if step in snapshots and Eq is not None:
            with torch.no_grad():
                snaps[step] = model(Eq).double().cpu()
        if step == steps:
            break
        opt.zero_grad()
        loss = ((model(E[tr]) - Y[tr]) ** 2).mean()
        loss.backward()
        opt.step()
    with torch.no_grad():
        out = model(E)
        mse = lambda idx: float(((out[idx] - Y[idx]) ** 2).mean())  # noqa: E731
        res = RunResult(mse(tr), mse(va), mse(te))
    return res, snaps


def angular_variance_fraction(f_polar: torch.Tensor) -> float:
    """``A(f) = E_r Var_theta f / Var_{r,theta} f`` for values on a polar grid ``(n_r, n_theta)``;
    0 iff f is radial (pegr.exp.fig2_bias_at_init)."""
    return float(
        f_polar.var(dim=1, unbiased=False).mean() / f_polar.var(unbiased=False).clamp_min(1e-300)
    )


def polar_grid(n_r: int = 40, n_t: int = 128) -> torch.Tensor:
    r = torch.linspace(0.05, 1.0, n_r, dtype=torch.float64)
    t = torch.arange(n_t, dtype=torch.float64) * (2 * math.pi / n_t)
    R, T = torch.meshgrid(r, t, indexing="ij")
    return torch.stack([R * torch.cos(T), R * torch.sin(T)], -1).reshape(-1, 2)


class EnsembleMLP(torch.nn.Module):
    """``S`` independent copies of the D.2 MLP evaluated with batched matmuls (``(S, N, d)``
    inputs).

    The loss used for training is the sum of the members' MSEs, so each member's gradient is its
    own; Adam is elementwise, so training the ensemble equals training the members separately.
    Member ``s`` is initialised (PyTorch-default law) from its own generator, exactly as
    :class:`MLP`."""

    def __init__(
        self,
        d_in: int,
        d_out: int,
        generators: list[torch.Generator],
        width: int = 128,
        hidden: int = 3,
    ) -> None:
        super().__init__()
        members = [MLP(d_in, d_out, width, hidden, generator=g) for g in generators]
        self.W = torch.nn.ParameterList(
            torch.nn.Parameter(torch.stack([m.layers[i].weight.T.detach() for m in members]))
            for i in range(hidden + 1)
        )
        self.b = torch.nn.ParameterList(
            torch.nn.Parameter(
                torch.stack([m.layers[i].bias.detach() for m in members])[:, None, :]
            )
            for i in range(hidden + 1)
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for W, b in zip(self.W[:-1], self.b[:-1], strict=False):
            x = torch.relu(torch.baddbmm(b, x, W))
        return torch.baddbmm(self.b[-1], x, self.W[-1])


def train_ensemble(
    task: str,
    runs: list[tuple[str, dict, int]],
    n: int = 256,
    steps: int = 500,
    width: int = 128,
    snapshots: tuple[int, ...] = (),
    pts: torch.Tensor | None = None,
    device: str = "cpu",
):
    """Train several runs ``(pe_kind, hp, seed)`` of one task at once (same PE input width, same
    lr).

    Each run draws split, PE sample and init from its own seed, as :func:`train_inr`. Returns a list
    of :class:`RunResult` and ``{step: (S, len(pts), d_out)}`` predictions on ``pts`` at
    ``snapshots``."""
    P = grid(n)
    Y = TASKS[task](P).to(torch.float32)
    gens, E, idx, Eq = [], [], [], []
    for kind, hp, seed in runs:
        g = torch.Generator().manual_seed(int(seed))
        tr, va, te = split(len(P), g)
        pe = make_pe(kind, hp, g)
        E.append(pe(P).to(torch.float32))
        if pts is not None:
            Eq.append(pe(pts).to(torch.float32))
        idx.append((tr, va, te))
        gens.append(g)
    lrs = {hp["lr"] for _, hp, _ in runs}
    if len(lrs) != 1:
        raise ValueError("train_ensemble: one learning rate per ensemble")
    E = torch.stack(E).to(device)
    Y = Y.to(device)
    idx = [tuple(i.to(device) for i in ii) for ii in idx]
    model = EnsembleMLP(E.shape[2], Y.shape[1], gens, width).to(device)
    Xtr = torch.stack([E[s, i[0]] for s, i in enumerate(idx)])
    Ytr = torch.stack([Y[i[0]] for i in idx])
    opt = torch.optim.Adam(model.parameters(), lr=lrs.pop())
    snaps = {}
    Eq = torch.stack(Eq).to(device) if Eq else None
    for step in range(steps + 1):
        if step in snapshots and Eq is not None:
            with torch.no_grad():
                snaps[step] = model(Eq).double().cpu()
        if step == steps:
            break
        opt.zero_grad()
        loss = ((model(Xtr) - Ytr) ** 2).mean(dim=(1, 2)).sum()
        loss.backward()
        opt.step()
    out_res = []
    with torch.no_grad():
        out = model(E)
        for s, (tr, va, te) in enumerate(idx):
            mse = lambda ii, s=s: float(((out[s, ii] - Y[ii]) ** 2).mean())  # noqa: E731
            out_res.append(RunResult(mse(tr), mse(va), mse(te)))
    return out_res, snaps

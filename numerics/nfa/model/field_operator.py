"""Field operators on sample sets, as assumed by Thm 1 / Thm 4 of "Neural Fields Meet Attention".

An operator maps a sample set ``S = {(x_i, y_i)}`` (``x`` (..., N, d), ``y`` (..., N) or
(..., N, m)) to field parameters. The pieces, each citing the paper's assumption:

* :class:`SetTransformer` -- tokenwise embedding of ``y_i`` + self-attention + mean pooling
  (A1, L88-92: permutation *invariant* output) + a 3-layer MLP head (Table 3, L839: hidden 256).
  Positions enter, by ``pos=``:

  - ``"relative"``: an attention bias ``MLP(x_i - x_j)`` per head (A2, L94-100); the paper does
    not give its form (L188), this is our stated choice;
  - ``"distance"``: bias ``MLP(|x_i - x_j|)`` (rotation- and translation-invariant);
  - ``"scale_invariant"``: bias ``MLP((x_i - x_j) / mean_{k,l}|x_k - x_l|)``;
  - ``"absolute"``: token embedding ``+ MLP(x_i)`` (the "Absolute Pos. Enc." row of Table 1);
  - ``"none"``: no positional input.

  Attention is ``"softmax"`` with temperature ``tau`` (Table 1 rows tau = 1, 100) or
  ``"linear"`` (unnormalised scores divided by N). ``pool="first"`` replaces mean pooling by the
  first token (order-dependent: a deliberate violation of A1, for ``nfa.eq.iff_necessity``).
  Dropout 0.1 as in Table 3; **call ``.eval()``** (the builders do) before equivariance tests.

* Operators (all return :class:`FieldParams`, and evaluate fields with ``.field(params, xq)``):

  - :class:`NormalizedOperator` (A3a, L108-116; Thm 4(A) L309-333): ``mu`` = centroid,
    ``s`` = RMS radius, inner map sees only ``x~ = (x - mu)/s``; field
    ``f_(theta,mu,s)(x) = f~_theta((x - mu)/s)``.
  - :class:`RawOperator` (no normalisation: Table 1 "No normalization", L341 remark).
  - :class:`AnchorOnlyOperator` (anchor but no scale; ``nfa.eq.relative_pe_translation``).
  - :class:`MatrixNormalizedOperator` (Thm 7, L496-522): anchor and scale *matrix* ``M(S)``.
  - :class:`ContinuousFrequencyOperator` (A3b, L118-120; proof (B) L335-337): outputs
    ``(c_k, w_k, phase_k)`` of ``f(x) = sum_k c_k sin(w_k^T x + phase_k)``; ``anchored=True``
    emits ``w = w~/s``, ``phase = phase~ - w^T mu`` from an inner map on normalised coordinates.

* Field decoders (``num_params`` and ``__call__(theta (..., P), x (..., M, d)) -> (..., M)``):
  :class:`SinusoidalField` (fixed basis, coefficients only) and :class:`FrequencyField`
  (coefficients, frequencies and phases). Any object with that interface works (e.g. a SIREN).

* :func:`build_table1_operator` -- the five configurations of Table 1 (L198-205), with
  "Absolute Pos. Enc." in two readings (``"absolute_pe"``: normalisation kept;
  ``"absolute_pe_raw"``: no normalisation).

* :func:`init_weights_` -- re-initialise every weight from a ``torch.Generator`` (no global RNG).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import torch
from torch import Tensor, nn

__all__ = [
    "FieldParams",
    "SetTransformer",
    "NormalizedOperator",
    "RawOperator",
    "AnchorOnlyOperator",
    "MatrixNormalizedOperator",
    "ContinuousFrequencyOperator",
    "SinusoidalField",
    "FrequencyField",
    "centroid",
    "rms_radius",
    "scale_matrix",
    "init_weights_",
    "build_table1_operator",
    "TABLE1_CONFIGS",
]

FieldDecoder = Callable[[Tensor, Tensor], Tensor]


@dataclass
class FieldParams:
    """Output of an operator: ``theta`` (..., P), anchor ``mu`` (..., d), scale ``s`` (...,).

    ``M`` (..., d, d) is set by :class:`MatrixNormalizedOperator` (Thm 7), else ``None``.
    """

    theta: Tensor
    mu: Tensor
    s: Tensor
    M: Tensor | None = None


# ----------------------------------------------------------------------------------------
# normalisation statistics (A3a, L108-116; Thm 7 L512-514)
# ----------------------------------------------------------------------------------------
def centroid(x: Tensor) -> Tensor:
    """``mu(S) = (1/N) sum_i x_i`` (A3a, L112)."""
    return x.mean(-2)


def rms_radius(x: Tensor) -> Tensor:
    """``s(S) = sqrt((1/N) sum_i ||x_i - mu||^2)`` (A3a's example, L112)."""
    return (x - centroid(x).unsqueeze(-2)).pow(2).sum(-1).mean(-1).sqrt()


def scale_matrix(x: Tensor, statistic: str) -> Tensor:
    """A scale matrix ``M(S)`` for Thm 7 (L512-514).

    ``statistic``: ``"sqrtm"`` (symmetric square root of the covariance), ``"chol"`` (Cholesky
    factor), ``"diag_std"`` (per-axis std), ``"rms"`` (RMS radius times I), ``"identity"``.
    """
    xc = x - centroid(x).unsqueeze(-2)
    d = x.shape[-1]
    eye = torch.eye(d, dtype=x.dtype, device=x.device)
    cov = xc.transpose(-1, -2) @ xc / x.shape[-2]
    if statistic == "sqrtm":
        evals, evecs = torch.linalg.eigh(cov)
        return evecs @ torch.diag_embed(evals.clamp_min(0).sqrt()) @ evecs.transpose(-1, -2)
    if statistic == "chol":
        return torch.linalg.cholesky(cov)
    if statistic == "diag_std":
        return torch.diag_embed(torch.diagonal(cov, dim1=-2, dim2=-1).sqrt())
    if statistic == "rms":
        return rms_radius(x)[..., None, None] * eye
    if statistic == "identity":
        return eye.expand(*x.shape[:-2], d, d).clone()
    raise ValueError(f"unknown scale statistic {statistic!r}")


# ----------------------------------------------------------------------------------------
# the Transformer
# ----------------------------------------------------------------------------------------
def _mlp(sizes: list[int], act: type[nn.Module] = nn.GELU) -> nn.Sequential:
    layers: list[nn.Module] = []
    for i, (a, b) in enumerate(zip(sizes[:-1], sizes[1:], strict=True)):
        layers.append(nn.Linear(a, b))
        if i < len(sizes) - 2:
            layers.append(act())
    return nn.Sequential(*layers)


class _Block(nn.Module):
    """Pre-LN Transformer block with an additive per-head attention bias."""

    def __init__(
        self, dim: int, heads: int, ff: int, dropout: float, attention: str, tau: float
    ) -> None:
        super().__init__()
        if dim % heads:
            raise ValueError(f"dim {dim} is not divisible by heads {heads}")
        self.heads, self.dh = heads, dim // heads
        self.attention, self.tau = attention, tau
        self.ln1, self.ln2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.ff = nn.Sequential(
            nn.Linear(dim, ff), nn.GELU(), nn.Dropout(dropout), nn.Linear(ff, dim)
        )
        self.drop = nn.Dropout(dropout)

    def forward(self, h: Tensor, bias: Tensor | None) -> Tensor:
        *batch, N, D = h.shape
        q, k, v = self.qkv(self.ln1(h)).reshape(*batch, N, 3, self.heads, self.dh).unbind(-3)
        q, k, v = (t.transpose(-2, -3) for t in (q, k, v))  # (..., H, N, dh)
        scores = q @ k.transpose(-1, -2) / math.sqrt(self.dh)
        if bias is not None:
            scores = scores + bias
        if self.attention == "softmax":
            w = torch.softmax(scores / self.tau, dim=-1)
        elif self.attention == "linear":
            w = scores / N
        else:
            raise ValueError(f"attention must be 'softmax' or 'linear', got {self.attention!r}")
        out = (self.drop(w) @ v).transpose(-2, -3).reshape(*batch, N, D)
        h = h + self.drop(self.proj(out))
        return h + self.drop(self.ff(self.ln2(h)))


POS_KINDS = ("relative", "distance", "scale_invariant", "absolute", "none")


class SetTransformer(nn.Module):
    """Permutation-invariant Transformer ``(x, y) -> theta`` (A1 + A2; Table 3 sizes by default).

    Args:
        d: coordinate dimension; value_dim: dimension of ``y_i`` (1 for scalar fields).
        out_dim: size of ``theta``.
        dim, heads, layers, ff, head_hidden, dropout: Table 3 (L839): 128, 4 (or 8), 4, 512,
            256, 0.1.
        attention: ``"softmax"`` or ``"linear"``; tau: softmax temperature.
        pos: one of :data:`POS_KINDS` (see the module docstring).
        pool: ``"mean"`` (permutation invariant) or ``"first"`` (order-dependent, violates A1).
        pos_hidden: hidden width of the positional MLPs.
    """

    def __init__(
        self,
        d: int,
        out_dim: int,
        *,
        value_dim: int = 1,
        dim: int = 128,
        heads: int = 4,
        layers: int = 4,
        ff: int = 512,
        head_hidden: int = 256,
        dropout: float = 0.1,
        attention: str = "softmax",
        tau: float = 1.0,
        pos: str = "relative",
        pool: str = "mean",
        pos_hidden: int = 32,
    ) -> None:
        super().__init__()
        if pos not in POS_KINDS:
            raise ValueError(f"pos must be one of {POS_KINDS}, got {pos!r}")
        if pool not in ("mean", "first"):
            raise ValueError(f"pool must be 'mean' or 'first', got {pool!r}")
        self.d, self.pos, self.pool, self.heads, self.n_layers = d, pos, pool, heads, layers
        self.embed = _mlp([value_dim, dim, dim])
        if pos == "absolute":
            self.abs_pe = _mlp([d, pos_hidden, dim])
        elif pos in ("relative", "scale_invariant"):
            self.rel_pe = _mlp([d, pos_hidden, heads * layers])
        elif pos == "distance":
            self.rel_pe = _mlp([1, pos_hidden, heads * layers])
        self.blocks = nn.ModuleList(
            _Block(dim, heads, ff, dropout, attention, tau) for _ in range(layers)
        )
        self.ln = nn.LayerNorm(dim)
        self.head = _mlp([dim, head_hidden, head_hidden, out_dim])  # 3-layer MLP head

    def _bias(self, x: Tensor) -> Tensor | None:
        if self.pos not in ("relative", "distance", "scale_invariant"):
            return None
        diff = x.unsqueeze(-2) - x.unsqueeze(-3)  # (..., N, N, d): x_i - x_j
        if self.pos == "distance":
            feat = diff.norm(dim=-1, keepdim=True)
        elif self.pos == "scale_invariant":
            scale = diff.norm(dim=-1).mean((-1, -2))[..., None, None, None]
            feat = diff / scale.clamp_min(torch.finfo(x.dtype).tiny)
        else:
            feat = diff
        b = self.rel_pe(feat)  # (..., N, N, H*L)
        return b.movedim(-1, -3)  # (..., H*L, N, N)

    def forward(self, x: Tensor, y: Tensor) -> Tensor:
        if y.dim() == x.dim() - 1:
            y = y.unsqueeze(-1)
        h = self.embed(y)
        if self.pos == "absolute":
            h = h + self.abs_pe(x)
        bias = self._bias(x)
        H = self.heads
        for li, blk in enumerate(self.blocks):
            h = blk(h, None if bias is None else bias[..., li * H : (li + 1) * H, :, :])
        h = self.ln(h)
        pooled = h.mean(-2) if self.pool == "mean" else h[..., 0, :]
        return self.head(pooled)


# ----------------------------------------------------------------------------------------
# field decoders
# ----------------------------------------------------------------------------------------
class SinusoidalField(nn.Module):
    """``f_theta(x) = sum_k theta_k sin(omega_k^T x + phase_k)`` over a fixed basis (Lemma 2)."""

    def __init__(self, omega: Tensor, phase: Tensor | None = None) -> None:
        super().__init__()
        self.register_buffer("omega", torch.as_tensor(omega))
        self.register_buffer(
            "phase",
            torch.zeros(self.omega.shape[0], dtype=self.omega.dtype, device=self.omega.device)
            if phase is None
            else torch.as_tensor(phase),
        )

    @property
    def num_params(self) -> int:
        return int(self.omega.shape[0])

    def forward(self, theta: Tensor, x: Tensor) -> Tensor:
        basis = torch.sin(x @ self.omega.transpose(0, 1).to(x.dtype) + self.phase.to(x.dtype))
        return (basis * theta.unsqueeze(-2)).sum(-1)


class FrequencyField(nn.Module):
    """``f(x) = sum_k c_k sin(w_k^T x + phase_k)``, theta = (c (K), w (K*d), phase (K)) (A3b)."""

    def __init__(self, K: int, d: int) -> None:
        super().__init__()
        self.K, self.d = K, d

    @property
    def num_params(self) -> int:
        return self.K * (self.d + 2)

    def split(self, theta: Tensor) -> tuple[Tensor, Tensor, Tensor]:
        K, d = self.K, self.d
        c = theta[..., :K]
        w = theta[..., K : K + K * d].reshape(*theta.shape[:-1], K, d)
        ph = theta[..., K + K * d :]
        return c, w, ph

    @staticmethod
    def join(c: Tensor, w: Tensor, ph: Tensor) -> Tensor:
        return torch.cat([c, w.flatten(-2), ph], -1)

    def forward(self, theta: Tensor, x: Tensor) -> Tensor:
        c, w, ph = self.split(theta)
        return (c.unsqueeze(-2) * torch.sin(x @ w.transpose(-1, -2) + ph.unsqueeze(-2))).sum(-1)


# ----------------------------------------------------------------------------------------
# operators
# ----------------------------------------------------------------------------------------
class NormalizedOperator(nn.Module):
    """A3a operator (L108-116): ``S -> (theta, mu, s)`` with ``theta = inner({(x~_i, y_i)})``.

    ``forward(x, y)`` returns :class:`FieldParams`; ``field(params, xq)`` evaluates
    ``f~_theta((xq - mu)/s)`` (L114). ``inner`` sees *only* normalised coordinates.
    """

    def __init__(self, inner: nn.Module, field: nn.Module) -> None:
        super().__init__()
        self.inner, self.field_decoder = inner, field

    def forward(self, x: Tensor, y: Tensor) -> FieldParams:
        mu, s = centroid(x), rms_radius(x)
        xt = (x - mu.unsqueeze(-2)) / s[..., None, None]
        return FieldParams(self.inner(xt, y), mu, s)

    def field(self, p: FieldParams, xq: Tensor) -> Tensor:
        return self.field_decoder(p.theta, (xq - p.mu.unsqueeze(-2)) / p.s[..., None, None])


class RawOperator(nn.Module):
    """No normalisation: ``theta = inner({(x_i, y_i)})`` on raw coordinates, field
    ``f_theta(x)``."""

    def __init__(self, inner: nn.Module, field: nn.Module) -> None:
        super().__init__()
        self.inner, self.field_decoder = inner, field

    def forward(self, x: Tensor, y: Tensor) -> FieldParams:
        z = torch.zeros(x.shape[:-2], dtype=x.dtype, device=x.device)
        return FieldParams(self.inner(x, y), torch.zeros_like(x[..., 0, :]), z + 1)

    def field(self, p: FieldParams, xq: Tensor) -> Tensor:
        return self.field_decoder(p.theta, xq)


class AnchorOnlyOperator(nn.Module):
    """Anchor without scale: ``inner`` sees ``x_i - mu``, field ``f~_theta(x - mu)`` (L341)."""

    def __init__(self, inner: nn.Module, field: nn.Module) -> None:
        super().__init__()
        self.inner, self.field_decoder = inner, field

    def forward(self, x: Tensor, y: Tensor) -> FieldParams:
        mu = centroid(x)
        z = torch.ones(x.shape[:-2], dtype=x.dtype, device=x.device)
        return FieldParams(self.inner(x - mu.unsqueeze(-2), y), mu, z)

    def field(self, p: FieldParams, xq: Tensor) -> Tensor:
        return self.field_decoder(p.theta, xq - p.mu.unsqueeze(-2))


class MatrixNormalizedOperator(nn.Module):
    """Thm 7 (L496-522): ``x~_i = M(S)^{-1}(x_i - mu(S))``, ``theta = (theta~, mu, M)``.

    ``statistic`` picks ``M`` (see :func:`scale_matrix`); the field is
    ``f~_theta~(M^{-1}(x - mu))``.
    """

    def __init__(self, inner: nn.Module, field: nn.Module, statistic: str = "sqrtm") -> None:
        super().__init__()
        self.inner, self.field_decoder, self.statistic = inner, field, statistic

    def normalise(self, x: Tensor, mu: Tensor, M: Tensor) -> Tensor:
        return torch.linalg.solve(M, (x - mu.unsqueeze(-2)).transpose(-1, -2)).transpose(-1, -2)

    def forward(self, x: Tensor, y: Tensor) -> FieldParams:
        mu, M = centroid(x), scale_matrix(x, self.statistic)
        xt = self.normalise(x, mu, M)
        s = torch.ones(x.shape[:-2], dtype=x.dtype, device=x.device)
        return FieldParams(self.inner(xt, y), mu, s, M)

    def field(self, p: FieldParams, xq: Tensor) -> Tensor:
        return self.field_decoder(p.theta, self.normalise(xq, p.mu, p.M))


class ContinuousFrequencyOperator(nn.Module):
    """A3b (L118-120): the operator outputs the frequencies of
    ``f = sum_k c_k sin(w_k^T x + ph_k)``.

    ``anchored=False``: ``inner`` (e.g. a relative-PE :class:`SetTransformer`) sees raw
    coordinates and emits ``(c, w, ph)`` directly (the operator "as printed": no anchor).
    ``anchored=True``: ``inner`` sees ``x~ = (x - mu)/s`` and emits ``(c, w~, ph~)``; the operator
    returns ``w = w~/s`` and ``ph = ph~ - w^T mu`` (our Reading-B construction: proof (B)'s
    ``w' = w/a`` with the "anchors" taken from the sample statistics).

    ``forward`` returns :class:`FieldParams` whose ``theta`` is the *raw-coordinate*
    ``(c, w, ph)`` (so ``field`` needs no de-normalisation).
    """

    def __init__(self, inner: nn.Module, K: int, d: int, anchored: bool = True) -> None:
        super().__init__()
        self.inner, self.anchored = inner, anchored
        self.field_decoder = FrequencyField(K, d)

    def forward(self, x: Tensor, y: Tensor) -> FieldParams:
        if not self.anchored:
            z = torch.ones(x.shape[:-2], dtype=x.dtype, device=x.device)
            return FieldParams(self.inner(x, y), torch.zeros_like(x[..., 0, :]), z)
        mu, s = centroid(x), rms_radius(x)
        xt = (x - mu.unsqueeze(-2)) / s[..., None, None]
        c, wt, pht = self.field_decoder.split(self.inner(xt, y))
        w = wt / s[..., None, None]
        ph = pht - (w @ mu.unsqueeze(-1)).squeeze(-1)
        return FieldParams(self.field_decoder.join(c, w, ph), mu, s)

    def field(self, p: FieldParams, xq: Tensor) -> Tensor:
        return self.field_decoder(p.theta, xq)


# ----------------------------------------------------------------------------------------
# seeded initialisation and Table 1 configurations
# ----------------------------------------------------------------------------------------
@torch.no_grad()
def init_weights_(module: nn.Module, generator: torch.Generator, gain: float = 1.0) -> nn.Module:
    """Re-initialise ``module`` from ``generator`` (no global RNG state is touched).

    Linear layers: ``U[-gain/sqrt(fan_in), gain/sqrt(fan_in)]`` for weights and biases (the scale
    of PyTorch's default); LayerNorm: weight 1, bias 0. Returns ``module``.
    """
    for m in module.modules():
        if isinstance(m, nn.Linear):
            bound = gain / math.sqrt(m.in_features)
            w = torch.rand(m.weight.shape, generator=generator, dtype=torch.float64,
                device=generator.device)
            m.weight.copy_((2 * w - 1) * bound)
            if m.bias is not None:
                bb = torch.rand(m.bias.shape, generator=generator, dtype=torch.float64,
                    device=generator.device)
                m.bias.copy_((2 * bb - 1) * bound)
        elif isinstance(m, nn.LayerNorm):
            m.weight.fill_(1.0)
            m.bias.fill_(0.0)
    return module


#: Table 1 rows (L198-205) -> (normalised?, attention, tau, pos). "absolute_pe" is Reading A
#: (normalisation kept), "absolute_pe_raw" Reading B (absolute PE on raw coordinates).
TABLE1_CONFIGS: dict[str, tuple[bool, str, float, str]] = {
    "linear": (True, "linear", 1.0, "relative"),
    "softmax_tau1": (True, "softmax", 1.0, "relative"),
    "softmax_tau100": (True, "softmax", 100.0, "relative"),
    "no_normalization": (False, "softmax", 1.0, "relative"),
    "absolute_pe": (True, "softmax", 1.0, "absolute"),
    "absolute_pe_raw": (False, "softmax", 1.0, "absolute"),
}


def build_table1_operator(
    config: str,
    d: int,
    field: nn.Module,
    *,
    generator: torch.Generator,
    dtype: torch.dtype = torch.float64,
    value_dim: int = 1,
    **transformer_kw,
) -> nn.Module:
    """One Table 1 configuration: a (Normalized|Raw)Operator around a :class:`SetTransformer`.

    ``field`` is the decoder (``num_params``, ``__call__(theta, x)``); ``transformer_kw`` override
    the Table 3 sizes (``dim``, ``heads``, ``layers``, ``ff``, ``head_hidden``, ...). Weights come
    from ``generator``; the module is returned in ``dtype``, on the generator's device and in **eval
    mode** (dropout off).
    """
    try:
        normalised, attention, tau, pos = TABLE1_CONFIGS[config]
    except KeyError:
        raise ValueError(
            f"unknown Table 1 configuration {config!r}; one of {sorted(TABLE1_CONFIGS)}"
        ) from None
    inner = SetTransformer(
        d,
        field.num_params,
        value_dim=value_dim,
        attention=attention,
        tau=tau,
        pos=pos,
        **transformer_kw,
    )
    init_weights_(inner, generator)
    op = (NormalizedOperator if normalised else RawOperator)(inner, field)
    return op.to(dtype=dtype, device=generator.device).eval()

"""The 2-layer spatial induction head (Thm 4.3 / Thm F.1, App. F) and Algorithm 1 (App. B).

:class:`SpatialInductionHead` builds, for a rule's neighbourhood, a partition ``S_1..S_h`` of ``U``:

- Layer 1 (Thm F.1 Step 1, L1685-1740): head ``gamma`` attends by positional scores only,
  ``<W_Q^pos p_q, W_K^pos p_k>`` from :class:`~.embedding.SpatialAwareEmbedding`; ``m = 1`` heads
  copy the one-hot state (``W_V = Pi_{B_1}``, L1728-1734), ``m > 1`` heads copy ``w_s = (s+1)/V``
  (the paper's ``s/(V-1)`` shifted so that the sinks' zero value decodes to no configuration) and
  the Lemma E.4 decoder maps the superposition ``z_gamma`` (eq. L1719) to a one-hot over ``V^m``
  block configurations (Step 2).
- Marginalisation: per *neighbour index* ``j``: ``B_{3,K}[j]`` = state of ``delta_j``,
  ``B_{3,Q}[j]`` = state of ``delta_j + e_hat`` (a repair: the paper's per-block sub-blocks of
  ``S_gamma cap N_K`` and ``S_gamma cap N_Q`` do not align in general, see
  ``sih.main.marginalisation_alignment``).
- Layer 2 (Step 3, L1772-1783): ``W_Q = c Pi_{B_{3,Q}}``, ``W_K = Pi_{B_{3,K}}``, ``W_V =
  Pi_{B_1}``; the prediction is ``argmax B_4`` with no Layer-2 MLP.

Choices the paper leaves open (recorded in ``self.choices``): a BOS token and the separators carry
``p = 0`` and a zero state (attention sinks); the temporal component (``"periodic"`` by default, or
``"printed"``); the sign convention. Separator queries have no spatial identity, so their
predictions (the first cell of each row) are reported as their own position class.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

import torch
from torch import nn

from proofs.sih.model import ECA, VN, e_hat, union_set

from .ca import CellularAutomaton, Stream, sample_stream
from .decoder import BumpDecoder
from .embedding import (
    SpatialAwareEmbedding,
    case1_coefficients,
    frequency_classes,
    lp_polynomial,
    poly_eval,
    target_points,
)


def _add(a, b):
    return tuple(x + y for x, y in zip(a, b, strict=True))


@dataclass
class HeadSpec:
    offsets: list  # the block S_gamma (offsets in Z^d)
    coef: dict  # spatial Fourier coefficients
    targets: list  # target scores s_j (spatial part)
    omega: list
    decoder: BumpDecoder | None = None
    alpha: list = field(default_factory=list)


class SpatialInductionHead(nn.Module):
    """Constructed 2-layer transformer of Thm 4.3 for offsets ``N_K``, ``V`` states, grid
    ``widths``."""

    def __init__(
        self,
        offsets,
        V: int,
        widths,
        T: int,
        N_seq: int,
        partition=None,
        *,
        sign: str = "A",
        temporal: str = "periodic",
        margin_slack: float = 1.0,
    ) -> None:
        super().__init__()
        self.NK = [tuple(o) for o in offsets]
        self.k = len(self.NK)
        self.V = int(V)
        self.widths = tuple(widths)
        self.d = len(self.widths)
        self.T = int(T)
        self.sign = sign
        eh = e_hat(self.d)
        self.NQ = [_add(o, eh) for o in self.NK]
        U = list(dict.fromkeys(self.NK + self.NQ))
        self.U = U
        self.partition = [list(map(tuple, b)) for b in (partition or [[u] for u in U])]
        self.h = len(self.partition)
        self.m = max(len(b) for b in self.partition)
        N = max(int(N_seq), self.k + 1)
        # Layer-1 margin Delta: (57) for m = 1, L1711 for m > 1 (plus slack)
        if self.m == 1:
            self.Delta = math.log((4 * self.k - 1) * (N - 1)) + margin_slack
        else:
            dmin = 1.0 / (V * (V**self.m - 1))  # gap of the shifted values (s+1)/V
            self.Delta = math.log(4 * (N - self.m) / (self.m * dmin)) + margin_slack
        Lmax = max(self.widths)
        heads = []
        for block in self.partition:
            pts = target_points(block, self.widths, sign)
            if len(block) == 1:
                W_S = self.Delta / (1 - math.cos(2 * math.pi / Lmax))
                coef = case1_coefficients(
                    block[0], self.widths, W_S, sign="B" if sign == "B" else "A"
                )
                heads.append(HeadSpec(block, coef, [self.d * W_S], list(coef)))
                continue
            s = [j * math.log(V) for j in range(len(block))]
            coef, omega = self._fit(pts, s)
            alpha = torch.softmax(torch.tensor(s, dtype=torch.float64), 0)
            vals = torch.tensor(
                [
                    sum(float(alpha[j]) * (c[j] + 1) / V for j in range(len(block)))
                    for c in itertools.product(range(V), repeat=len(block))
                ],
                dtype=torch.float64,
            )
            heads.append(HeadSpec(block, coef, s, omega, BumpDecoder(vals), alpha.tolist()))
        self.heads = heads
        omega_all = list(dict.fromkeys(w for hd in heads for w in hd.omega))
        self.emb = SpatialAwareEmbedding(self.widths, T, omega_all, temporal=temporal)
        self.P = self.emb.P
        self.W_T = []
        for hd in heads:
            gvals = [
                poly_eval(hd.coef, D, self.widths)
                for D in itertools.product(*(range(L) for L in self.widths))
            ]
            gmax, smin = max(gvals), min(hd.targets)
            if temporal == "printed":
                self.W_T.append(max(self.Delta, gmax - smin + self.Delta))  # (38) / (51)
            else:
                wt1 = (gmax - smin + self.Delta) / (1 - math.cos(2 * math.pi / self.P))
                wt2 = (gmax + self.Delta) / math.cos(math.pi / self.P)
                self.W_T.append(max(wt1, wt2, self.Delta - smin))
        self.c = 2 * math.log(4 * N) + margin_slack
        self.choices = {
            "sign": sign,
            "temporal": temporal,
            "separators": "p = 0, zero state; BOS sink",
            "marginalisation": "per neighbour index",
            "Delta": self.Delta,
            "c": self.c,
        }

    def _fit(self, pts, s):
        """A Fourier set for an m > 1 block (Lemma D.2 via LP): the first feasible subset of size <=
        m + d in order of size and frequency radius (at most 600 LPs), else the shortest feasible
        radius-ordered prefix."""
        classes = frequency_classes(self.widths)
        classes.sort(
            key=lambda w: (sum(min(x, L - x) for x, L in zip(w, self.widths, strict=True)), w)
        )
        smin = min(s)
        # exhaustive subsets of size <= m + d first (Lemma D.2's bound), then a growing prefix
        budget = 600
        for r in range(1, len(pts) + self.d + 1):
            for omega in itertools.combinations(classes, r):
                budget -= 1
                if budget < 0:
                    break
                coef = lp_polynomial(list(omega), self.widths, pts, s, smin - self.Delta)
                if coef is not None:
                    return coef, list(omega)
        for n in range(1, len(classes) + 1):
            omega = classes[:n]
            coef = lp_polynomial(omega, self.widths, pts, s, smin - self.Delta)
            if coef is not None:
                return coef, omega
        raise ValueError("no polynomial found")

    @property
    def dims(self) -> dict:
        """Residual blocks (eq. (55)); ``B_3`` as built here (per neighbour index: ``2 k V``)."""
        dp = self.emb.d_p
        mlp = sum(hd.decoder.width for hd in self.heads if hd.decoder is not None)
        return {
            "B1": self.V,
            "B2": dp,
            "B3": 2 * self.k * self.V,
            "B4": self.V,
            "d_p": dp,
            "mlp": mlp,
            "D": 2 * self.V + dp + 2 * self.k * self.V,
        }

    # ---- forward ----------------------------------------------------------------------------
    def layer1_scores(
        self, stream: Stream, bos: bool = True
    ) -> tuple[list[torch.Tensor], torch.Tensor]:
        """Per-head pre-softmax scores over the stream (BOS prepended), with the causal mask
        applied."""
        times = ([0] if bos else []) + stream.times
        cells = ([None] if bos else []) + stream.cells
        P = self.emb(times, cells)
        n = P.shape[0]
        mask = torch.ones(n, n, dtype=torch.bool).tril()
        out = []
        for hd, wt in zip(self.heads, self.W_T, strict=True):
            Q, K = self.emb.projections(hd.coef, wt)
            out.append(self.emb.scores(P, Q, K).masked_fill(~mask, -math.inf))
        return out, mask

    def forward(self, stream: Stream) -> dict:
        """Run both layers on ``stream``; returns predictions (per token), attention and B_3
        contents."""
        V = self.V
        states = [-1] + stream.states
        onehot = torch.zeros(len(states), V, dtype=torch.float64)
        for n, s in enumerate(states):
            if s >= 0:
                onehot[n, s] = 1.0
        scores, mask = self.layer1_scores(stream)
        cellstate: dict = {}
        for hd, S in zip(self.heads, scores, strict=True):
            A = torch.softmax(S, -1)
            if hd.decoder is None:
                cellstate[hd.offsets[0]] = A @ onehot
            else:
                # w_s = (s + 1)/V (not s/(V-1)): the sinks' value 0 must decode to 'no
                # configuration'
                w = torch.tensor(
                    [(s + 1) / V if s >= 0 else 0.0 for s in states], dtype=torch.float64
                )
                y = hd.decoder(A @ w)  # (n, V^m)
                confs = list(itertools.product(range(V), repeat=len(hd.offsets)))
                for j, u in enumerate(hd.offsets):
                    inc = torch.zeros(len(confs), V, dtype=torch.float64)
                    for r, c in enumerate(confs):
                        inc[r, c[j]] = 1.0
                    cellstate[u] = y @ inc  # binary incidence (marginalisation) matrix
        B3K = torch.cat([cellstate[u] for u in self.NK], -1)
        B3Q = torch.cat([cellstate[u] for u in self.NQ], -1)
        S2 = self.c * (B3Q @ B3K.T)
        S2 = S2.masked_fill(~mask, -math.inf)
        A2 = torch.softmax(S2, -1)
        B4 = A2 @ onehot
        top = B4.topk(2, -1)
        pred = torch.where(
            top.values[:, 0] > top.values[:, 1],
            top.indices[:, 0],
            torch.full_like(top.indices[:, 0], -1),
        )
        return {
            "pred": pred[1:],
            "B4": B4[1:],
            "A2": A2,
            "S1": scores,
            "B3K": B3K,
            "B3Q": B3Q,
            "S2": S2,
        }


def evaluate(model: SpatialInductionHead, stream: Stream) -> dict:
    """Per query token, whether the next cell is predicted exactly; the prediction is evaluable
    iff its parent configuration was seen at a cell token (t >= 1) at a position <= the query
    (that token carries the pair (c, f(c)), cf. Theorem B.1). Counts ``[predictions, correct]``
    per position class (query from a cell or a separator; row 0, evaluable, unevaluable)."""
    out = model(stream)
    pred = out["pred"].tolist()
    seen: set = set()
    res: dict = {}
    for a in range(len(stream) - 1):
        if stream.configs[a] is not None:
            seen.add(stream.configs[a])
        nxt = a + 1
        if stream.kinds[nxt] != "cell":
            continue
        cls = "from_cell" if stream.kinds[a] == "cell" else "from_sep"
        if stream.times[nxt] == 0:
            key = (cls, "row0")
        else:
            key = (cls, "evaluable" if stream.configs[nxt] in seen else "unevaluable")
        r = res.setdefault("/".join(key), [0, 0])
        r[0] += 1
        r[1] += int(pred[a] == stream.states[nxt])
    return res


def algorithm1_errors(ca: CellularAutomaton, traj: torch.Tensor) -> tuple[int, int]:
    """Algorithm 1 (L674-684), deterministic part: (#predictions of seen configurations, #errors).

    Unseen configurations are counted separately by the caller (a uniform guess errs with
    probability 1 - 1/V)."""
    confs = ca.configurations(traj[:-1]).flatten(1)
    nxt = traj[1:].flatten(1)
    table: dict = {}
    seen_preds = errs = 0
    for t in range(confs.shape[0]):
        for i in range(confs.shape[1]):
            c = int(confs[t, i])
            if c in table:
                seen_preds += 1
                errs += int(table[c] != int(nxt[t, i]))
            else:
                table[c] = int(nxt[t, i])
    return seen_preds, errs


def construction_grid(quick: bool) -> list[tuple]:
    """The settings ``(offsets, V, widths, T, partition)`` the end-to-end claims run on: ECA
    with h = |U|, h = 1 and intermediate partitions, ECA with V = 3, 2D von Neumann under (T2);
    more widths, lengths and sizes in the deep profile."""
    eca_U = sorted(union_set(ECA)[2])
    parts = [
        None,
        [eca_U],
        [eca_U[:2], eca_U[2:]],
        [[(-1,), (1,)], [(0,), (2,)]],
        [[(-1,), (0,)], [(1,)], [(2,)]],
    ]
    grid = [(ECA, 2, (8,), 5, p) for p in parts]
    grid += [(ECA, 3, (6,), 5, None), (VN, 2, (4, 4), 3, None)]
    if not quick:
        grid += [(ECA, 2, (W,), T, p) for W in (4, 16, 33, 64) for T in (4, 8) for p in parts]
        grid += [(ECA, 3, (12,), 6, p) for p in parts[:3]]
        grid += [(VN, 2, (5, 6), 4, None), (VN, 2, (8, 8), 3, None)]
    return grid


def end_to_end(ctx, settings: list[tuple], temporal: str = "periodic") -> tuple[dict, dict | None]:
    """Run the construction on a random rule and initial row per setting (drawn from
    ``ctx``); per position class the counts ``[predictions, correct]`` summed over the
    settings, and the first evaluable misprediction from a cell query (or ``None``)."""
    totals: dict = {}
    first_bad = None
    for n, (offsets, V, widths, T, part) in enumerate(settings):
        g = ctx.torch_generator(f"e2e-{n}")
        tok = "T2" if len(widths) == 2 else "T1"
        ca, _, stream = sample_stream(g, offsets, V, widths, T, tok)
        model = SpatialInductionHead(
            offsets, V, widths, T, len(stream) + 1, part, temporal=temporal
        )
        res = evaluate(model, stream)
        for cls, (a, b) in res.items():
            r = totals.setdefault(cls, [0, 0])
            r[0] += a
            r[1] += b
        ev = res.get("from_cell/evaluable", [0, 0])
        if ev[1] < ev[0] and first_bad is None:
            first_bad = {
                "offsets": [list(o) for o in offsets],
                "V": V,
                "widths": list(widths),
                "T": T,
                "partition": part and [[list(o) for o in b] for b in part],
                "rule_table": ca.table.tolist(),
                "tokenisation": tok,
                "temporal": temporal,
                "sign": "A",
                "seed": ctx.seed,
                "subseed_name": f"e2e-{n}",
                "counts": res,
            }
    return totals, first_bad

"""One-step sign tests of the dynamic claims of Secs. 3.4-4.4, in views (F) and (P).

A sign claim compares the sign of a change (``Delta s_ij``, ``Delta alpha_ij``, ...) after one
small gradient step with the sign of the advantage ``A_ij = -(b_ij - E_{alpha_i}[b])`` (L165).
Each test computes the exact first-order change (JVP) *and* the finite-``eta`` change (forward
pass recomputed); a pair counts as a violation only when both disagree with the claim (so
neither a higher-order term nor float64 rounding can pose as one), and only on pairs with
``alpha_ij > 0`` (visible) and ``|A_ij| > 1e-9 max_k |A_ik|``.

:func:`sign_tallies` runs the sweep for several sign laws at once and :func:`tally_evidence`
judges one law: REFUTED with the smallest violating instance, SUPPORTED when no pair violates
it. The printed statements refer to (23)/(34), i.e. view F; the view-(P) tests (a step on
``W_Q, W_K`` or on all parameters) are separate readings (:data:`P_READINGS`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import torch
from torch import Tensor

from verify import Evidence
from verify.numeric import judge_check

from .attention_head import closed_form_grads, head_forward
from .dynamics import (
    PARAM_NAMES,
    FreeState,
    free_first_order,
    free_step,
    param_finite,
    param_first_order,
    param_grads,
)
from .instances import Sizes, draw_sizes, random_free, random_params, tolist

#: The parameter groups a view-(P) step may act on.
GROUPS: dict[str, tuple[str, ...]] = {"QK": ("W_Q", "W_K"), "all": PARAM_NAMES}


@dataclass
class StepData:
    """Advantages, masks and the first-order / finite changes for a batch of instances."""

    adv: Tensor  # A_ij (L165)
    alpha: Tensor
    b: Tensor
    Eb: Tensor
    U: Tensor
    valid: Tensor  # pairs with alpha > 0 and |A| above the relative floor
    first: dict[str, Tensor]  # d/deta of S, A, V, per-position loss
    finite: dict[str, Tensor]  # finite change / eta
    instance: Callable[[int], dict[str, Any]]  # JSON description of instance n


def _valid(adv: Tensor, alpha: Tensor) -> Tensor:
    rowmax = adv.abs().amax(-1, keepdim=True)
    return (alpha > 0) & (adv.abs() > 1e-9 * rowmax) & (rowmax > 0)


def view_f(st: FreeState, eta: float, update=("S", "V")) -> StepData:
    """View (F): one step of (33)-(34) on free S, V."""
    tr = st.trace()
    g = closed_form_grads(tr)
    fo = free_first_order(st, update)
    st1 = free_step(st, eta, update)
    tr1 = st1.trace()
    S0 = st.S if st.mask is None else st.S.masked_fill(~st.mask, 0.0)
    S1 = st1.S if st.mask is None else st1.S.masked_fill(~st.mask, 0.0)
    fin = {
        "S": (S1 - S0) / eta,
        "A": (tr1.A - tr.A) / eta,
        "V": (st1.V - st.V) / eta,
        "L": (tr1.per_position - tr.per_position) / eta,
    }

    def inst(n: int) -> dict[str, Any]:
        return {
            "view": "F",
            "eta": eta,
            "S": tolist(st.S[n]),
            "V": tolist(st.V[n]),
            "W_O": tolist(st.W_O[n]),
            "b_O": tolist(st.b_O[n]),
            "y": tolist(st.y[n]),
            "causal": st.mask is not None,
        }

    return StepData(
        g.adv,
        tr.A,
        g.B,
        g.Eb,
        g.U,
        _valid(g.adv, tr.A),
        {"S": fo.S, "A": fo.A, "V": fo.V, "L": fo.per_position},
        fin,
        inst,
    )


def view_p(
    params: dict[str, Tensor],
    X: Tensor,
    y: Tensor,
    eta: float,
    group: str = "all",
    *,
    causal: bool = False,
) -> StepData:
    """View (P): one gradient step on the parameters of ``group`` ("QK" or "all")."""
    tr = head_forward(X, *(params[k] for k in PARAM_NAMES), y, causal=causal)
    g = closed_form_grads(tr)
    grads = param_grads(params, X, y, causal=causal)
    d = {k: (-grads[k] if k in GROUPS[group] else torch.zeros_like(grads[k])) for k in PARAM_NAMES}
    fo = param_first_order(params, X, y, d, causal=causal)
    fi = param_finite(params, X, y, d, eta, causal=causal)

    def inst(n: int) -> dict[str, Any]:
        return {
            "view": f"P[{group}]",
            "eta": eta,
            **{k: tolist(params[k][n]) for k in PARAM_NAMES},
            "X": tolist(X[n]),
            "y": tolist(y[n]),
            "causal": causal,
        }

    return StepData(
        g.adv,
        tr.A,
        g.B,
        g.Eb,
        g.U,
        _valid(g.adv, tr.A),
        {"S": fo.S, "A": fo.A, "V": fo.V, "L": fo.per_position, "Q": fo.Q, "K": fo.K},
        {"S": fi.S / eta, "A": fi.A / eta, "V": fi.V / eta, "L": fi.per_position / eta},
        inst,
    )


def sign_disagreement(
    sd: StepData, key: str, expected_sign: Tensor, mask: Tensor | None = None
) -> Tensor:
    """Pairs where first-order and finite changes of ``key`` both have the wrong sign."""
    m = sd.valid if mask is None else sd.valid & mask
    f, fi = sd.first[key], sd.finite[key]
    scale = f.abs().amax(-1, keepdim=True).clamp_min(1e-300)
    wrong_first = (torch.sign(f) != expected_sign) & (f.abs() > 1e-9 * scale) | (f == 0)
    wrong_fin = torch.sign(fi) != expected_sign
    return m & wrong_first & wrong_fin


@dataclass
class Tally:
    """Share of violating pairs and instances, with the smallest counterexample seen."""

    pairs: int = 0
    bad_pairs: int = 0
    instances: int = 0
    bad_instances: int = 0
    example: dict[str, Any] | None = None
    example_size: tuple = field(default=(10**9,))

    def add(
        self,
        sd: StepData,
        bad: Tensor,
        considered: Tensor,
        size_key: tuple,
        extra: Callable[[int, int, int], dict] | None = None,
    ) -> None:
        self.pairs += int(considered.sum())
        self.bad_pairs += int(bad.sum())
        per = bad.reshape(bad.shape[0], -1).any(-1)
        self.instances += bad.shape[0]
        self.bad_instances += int(per.sum())
        if per.any() and size_key < self.example_size:
            n = int(per.nonzero()[0, 0])
            idx = bad[n].nonzero()[0].tolist()
            ex = sd.instance(n)
            ex["pair(i,j)"] = idx
            ex["A_ij"] = float(sd.adv[n][tuple(idx)]) if len(idx) == 2 else None
            if extra is not None:
                ex.update(extra(n, *idx))
            self.example, self.example_size = ex, size_key

    @property
    def share_pairs(self) -> float:
        return self.bad_pairs / max(1, self.pairs)

    @property
    def share_instances(self) -> float:
        return self.bad_instances / max(1, self.instances)

    def numbers(self) -> dict[str, Any]:
        return {
            "pairs_tested": self.pairs,
            "violating_pairs": self.bad_pairs,
            "share_pairs": self.share_pairs,
            "instances": self.instances,
            "violating_instances": self.bad_instances,
            "share_instances": self.share_instances,
        }


def sweep(
    rng: np.random.Generator,
    g: torch.Generator,
    n_configs: int,
    batch: int,
    fn: Callable[[Sizes, torch.Generator], None],
    *,
    T_range=(2, 12),
    small_first: bool = True,
) -> None:
    """Call ``fn(sizes, g)`` on ``n_configs`` random size configurations (:func:`draw_sizes`).

    With ``small_first`` the first configurations use the smallest sizes (T = 2, 3, d = 1, 2)
    so that a counterexample, if there is one, is found at small size.
    """
    for c in range(n_configs):
        if small_first and c < 4:
            s = draw_sizes(rng, T=(T_range[0] + c // 2, T_range[0] + c // 2), d=(1, 2), C=(2, 3))
        else:
            s = draw_sizes(rng, T=T_range)
        fn(s, g)


def free_batch(g: torch.Generator, batch: int, s: Sizes) -> FreeState:
    return random_free(g, batch, s)


def param_batch(g: torch.Generator, batch: int, s: Sizes, family: str = "gaussian"):
    """Random view-(P) instances; ``family`` in gaussian | orthonormal | clustered (sticky-like)."""
    p, X, y = random_params(g, batch, s)
    if family == "orthonormal":
        d_x = max(s.d_x, s.T)
        p, X, y = random_params(
            g, batch, Sizes(s.T, d_x, s.d_k, s.d_v, s.C, s.scale, s.x_scale, s.causal)
        )
        Qm, _ = torch.linalg.qr(torch.randn(batch, d_x, s.T, generator=g, dtype=X.dtype,
            device=g.device))
        X = Qm.transpose(-1, -2)  # rows orthonormal
    elif family == "clustered":
        mu = torch.randn(batch, s.C, s.d_x, generator=g, dtype=X.dtype, device=g.device) * 2.0
        prev = torch.cat([torch.randint(0, s.C, (batch, 1), generator=g,
            device=g.device), y[:, :-1]], 1)
        X = mu.gather(1, prev[..., None].expand(-1, -1, s.d_x)) + torch.randn(
            batch, s.T, s.d_x, generator=g, dtype=X.dtype, device=g.device)
    return p, X, y


#: The step size of the sign tests: small enough for the first-order change to dominate.
ETA = 1e-5

#: The views a sign law is tested in: free S, V (F), a W_Q/W_K step, an all-parameter step.
VIEWS = ("F", "P[QK]", "P[all]")

#: The view-(P) tests of a sign law, as readings beside the printed (view F) one.
P_READINGS = {
    "A view P[QK]": "Reading A with Delta alpha induced by a gradient step on W_Q, W_K (view P)",
    "A view P[all]": "Reading A with Delta alpha induced by a gradient step on all parameters "
    "(view P)",
    "B view P[QK]": "Reading B with Delta s induced by a gradient step on W_Q, W_K (view P)",
    "B view P[all]": "Reading B with Delta s induced by a gradient step on all parameters (view P)",
}

#: A sign law to tally: ``(key, restrict)``, ``key`` in S | A (the changed quantity) and
#: ``restrict`` None or a function of the step data selecting the pairs to test.
SignSpec = tuple[str, Callable[[StepData], Tensor] | None]


def step_data(
    view: str, s: Sizes, g: torch.Generator, batch: int, eta: float = ETA, family: str = "gaussian"
) -> StepData:
    """One step on ``batch`` random instances of sizes ``s`` in ``view`` (one of VIEWS)."""
    if view == "F":
        return view_f(free_batch(g, batch, s), eta)
    p, X, y = param_batch(g, batch, s, family)
    return view_p(p, X, y, eta, "QK" if view == "P[QK]" else "all", causal=s.causal)


def view_reading(base: str, view: str) -> str:
    """Reading label of a sign test: the printed statements refer to (23)/(34), i.e. view F;
    a view-(P) test is a different reading (parameters W_Q, W_K / all), reported beside it."""
    return base if view == "F" else f"{base} view {view}"


def row_extreme(which: str) -> Callable[[StepData], Tensor]:
    """Restrict a sign test to each row's largest (``argmax``) or smallest (``argmin``) A_ij."""

    def restrict(sd: StepData) -> Tensor:
        fill = float("-inf") if which == "argmax" else float("inf")
        a = sd.adv.masked_fill(~(sd.alpha > 0), fill)
        idx = a.argmax(-1, keepdim=True) if which == "argmax" else a.argmin(-1, keepdim=True)
        return torch.zeros_like(sd.valid).scatter(-1, idx, True)

    return restrict


def sign_tallies(
    ctx, specs: dict[str, SignSpec], views=VIEWS, name: str = "sign"
) -> dict[tuple[str, str], Tally]:
    """Share of pairs where sign(Delta key) != sign(A_ij), per view and spec.

    ``specs`` maps a label to a :data:`SignSpec`. One sweep per view serves every spec; its
    instances flow from ``ctx``'s seed (streams named ``name`` and the view).
    """
    out = {}
    for view in views:
        ts = {lab: Tally() for lab in specs}
        rng, g = ctx.numpy_rng(name, view), ctx.torch_generator(name, view)

        def fn(s, g, ts=ts, view=view):
            sd = step_data(view, s, g, ctx.pick(quick=16, deep=128))
            exp = torch.sign(sd.adv)
            for lab, (key, restrict) in specs.items():
                m = None if restrict is None else restrict(sd)
                bad = sign_disagreement(sd, key, exp, m)
                cons = sd.valid if m is None else sd.valid & m

                def extra(n, i, j, sd=sd, key=key):
                    return {
                        "alpha_row": tolist(sd.alpha[n, i]),
                        "A_row": tolist(sd.adv[n, i]),
                        f"first_order_d{key}_row": tolist(sd.first[key][n, i]),
                        f"finite_d{key}_row_over_eta": tolist(sd.finite[key][n, i]),
                    }

                ts[lab].add(sd, bad, cons, (s.T, s.d_x + s.d_k + s.d_v, s.C), extra)

        sweep(rng, g, ctx.pick(quick=5, deep=60), 0, fn)
        for lab, t in ts.items():
            out[(view, lab)] = t
    return out


def tally_evidence(
    t: Tally, what: str, *, part: str, reading: str = "A", seed=None, steps: list[str] | None = None
) -> Evidence:
    """The verdict of one sign law: REFUTED with the smallest violating instance (float64,
    first-order and finite change both wrong), SUPPORTED when no tested pair violates it."""
    if t.bad_pairs:
        summary = (
            f"{what}: violated on {t.bad_pairs}/{t.pairs} pairs ({100 * t.share_pairs:.2f}%), "
            f"{t.bad_instances}/{t.instances} instances; smallest counterexample "
            f"T={t.example_size[0]}"
        )
    else:
        summary = f"{what}: no violation on {t.pairs} pairs / {t.instances} instances"
    return judge_check(
        not t.bad_pairs,
        summary,
        counterexample=t.example,
        part=part,
        reading=reading,
        numbers=t.numbers(),
        dtype="float64",
        seed=seed,
        steps=list(steps or []),
    )

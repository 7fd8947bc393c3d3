"""Numeric claim ``nfa.anis.thm7_matrix_normalization``: matrix normalisation (Thm 7).

The operator of Thm 7 (L496-508) computes an anchor ``mu(S)`` and a scale matrix ``M(S)``,
feeds ``x~ = M(S)^{-1}(x - mu(S))`` to a multiset map and returns ``(theta~, mu, M)``;
:class:`numerics.nfa.model.field_operator.MatrixNormalizedOperator` builds it for the statistics the
proof names (L512-514). Its equivariance to ``G_S`` is checked through the float64 harness of
:mod:`numerics.nfa.model.harness`.
"""

from __future__ import annotations

from dataclasses import replace

import torch
from hypothesis import strategies as st

import verify
from verify import Evidence
from verify.numeric import falsify, judge_error, rand, randn

from .model import harness as H
from .model.field_operator import MatrixNormalizedOperator, scale_matrix
from .model.groups import MatrixAffine

PAPER = "nfa"
F64 = torch.float64


def _thm7_prop(*, generator, batch, dtype, device, N, statistic, group):
    d = 2
    x = randn(batch, N, d, generator=generator, dtype=dtype)
    y = randn(batch, N, generator=generator, dtype=dtype)
    if group == "diag":
        A = torch.diag_embed(
            torch.exp(rand(batch, d, generator=generator, dtype=dtype, low=-1.5, high=1.5))
        )
    elif group == "lower":
        A = torch.diag_embed(
            torch.exp(rand(batch, d, generator=generator, dtype=dtype, low=-1, high=1))
        )
        A[..., 1, 0] = randn(batch, generator=generator, dtype=dtype)
    else:  # scalar
        A = torch.exp(rand(batch, generator=generator, dtype=dtype, low=-2, high=2))[
            :, None, None
        ] * torch.eye(d, dtype=dtype, device=generator.device)
    g = MatrixAffine(A, randn(batch, d, generator=generator, dtype=dtype))
    inner = H.small_inner(d, 12, generator=generator, dtype=dtype)
    op = MatrixNormalizedOperator(
        inner, H.sin_field(d, 12, generator=generator, dtype=dtype), statistic
    ).eval()
    xq = rand(batch, 30, d, generator=generator, dtype=dtype, low=-1.5, high=1.5)
    return H.equivariance_violation(op, x, y, g, xq)


def covariance_evidence(dev: float, case: dict, table: dict[str, float]) -> Evidence:
    """Reading B's hypothesis for the Cholesky statistic: ``M(AS) = A M(S)`` for A
    lower-triangular with positive diagonal (``chol(A C A^T) = A chol(C)``, uniqueness of the
    Cholesky factor). ``dev`` is the largest entry of ``M(AS) - A M(S)`` on the point set and A
    of ``case``. SUPPORTED at round-off (``<= 1e-12``), REFUTED from ``1e-6`` on (float64, the
    points and A as counterexample), UNDECIDED in between. ``table`` (the field violation per
    statistic/group pair) is reported."""
    return judge_error(
        dev,
        "M(AS) = A M(S) for chol, A lower-triangular: per (statistic/group) field violations: "
        + ", ".join(f"{k} {v:.1g}" for k, v in table.items()),
        tol=1e-12,
        fail=1e-6,
        counterexample=case,
        reading="B",
        part="statistic covariance",
        numbers={"per_pair": table},
    )


@verify.claim(
    "nfa.anis.thm7_matrix_normalization",
    paper=PAPER,
    where="Theorem 7, L496-508; proof L510-522; Remark 8 L524",
    statement=r"\tilde x_i=M(S)^{-1}(x_i-\mu(S)),\ \tilde{\mathcal O} \text{ multiset-dependent} "
    r"\Rightarrow \mathcal O \text{ equivariant to } G_{\mathcal S},\ "
    r"\rho(g_{A,b})(\tilde\theta,\mu,M)=(\tilde\theta,A\mu+b,AM)",
    kind="property",
    readings={
        "B": r"as A, with the added hypothesis $\mu(gS)=A\mu(S)+b$, $M(gS)=AM(S)$ for "
        r"$A\in\mathcal S$"
    },
    repairs={"B": "overstated"},
    expect="REFUTED",
)
def thm7_matrix_normalization(ctx: verify.Context) -> list[Evidence]:
    """Reading A REFUTED: the symmetric square root of the covariance (one of the proof's
    three examples, L512-514) is not covariant under positive diagonals:
    M(AS) = sqrtm(A C A) != A sqrtm(C), so the operator is not Diag(>0)-equivariant (falsify
    finds it in float64). Per pair, recorded: chol works for diagonal and lower-triangular
    groups; diag_std for Diag(>0); rms only for scalars.
    Reading B (covariance of the statistics assumed, which the hypotheses do not state):
    SUPPORTED with chol on lower-triangular groups, so the theorem is overstated.
    """
    sizes = {"N": st.integers(4, 24)}
    sqrtm = falsify(
        lambda **kw: _thm7_prop(statistic="sqrtm", group="diag", **kw),
        sizes,
        budget=ctx.pick(4, 40),
        batch=3,
        tol=1e-10,
        seed=ctx.seed,
    )
    gen = ctx.torch_generator("pairs")
    table = {}
    for stat in ("sqrtm", "chol", "diag_std", "rms", "identity"):
        for grp in ("diag", "lower", "scalar"):
            v = _thm7_prop(
                generator=gen, batch=3, dtype=F64, device=gen.device, N=12, statistic=stat,
                group=grp,
            )
            table[f"{stat}/{grp}"] = float(v.max())
    chol = falsify(
        lambda **kw: _thm7_prop(statistic="chol", group="lower", **kw),
        sizes,
        budget=ctx.pick(4, 40),
        batch=3,
        tol=1e-10,
        seed=ctx.seed,
    )
    chol = replace(chol, numbers={**chol.numbers, "per_pair_violation": table})
    # covariance of the statistic itself: chol(A C A^T) = A chol(C), A lower-triangular
    x = torch.randn(20, 2, generator=gen, dtype=F64, device=gen.device)
    A = torch.tensor([[2.0, 0.0], [0.7, 0.5]], dtype=F64, device=gen.device)
    dev = float((scale_matrix(x @ A.T, "chol") - A @ scale_matrix(x, "chol")).abs().max())
    covariance = covariance_evidence(dev, {"x": x.tolist(), "A": A.tolist(), "statistic": "chol"},
                                     table)
    return [
        sqrtm.relabel(prefix="sqrtm(Cov) statistic, A in Diag(>0)"),
        chol.relabel(
            reading="B",
            prefix="chol(Cov), lower-triangular positive-diagonal group (covariance holds)",
        ),
        covariance,
    ]

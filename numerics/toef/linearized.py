"""Sec. 3.1 of the paper (Def. 4, Lemma 3), numerically: eq. (4) as a module, the Lemma-3
potential's gradient by torch complex autograd, which head families have a potential at all
(the pairing remark, l. 90), and the holomorphic ambiguity of the potential. The identities
themselves are proved in symbolic size in ``proofs/toef/linearized.py``.
"""

from __future__ import annotations

import math

import torch
from hypothesis import strategies as st

import verify
from proofs.toef.model import COUNTEREXAMPLE_TOL, IDENTITY_TOL, PAPER
from verify import Evidence, Verdict
from verify.numeric import falsify, judge_error

from .model.potentials import H, lemma3_potential
from .model.transformer import (
    LinearizedTransformer,
    attention_field,
    head_family,
    random_linearized,
)
from .model.wirtinger import closedness_defect, crandn, dV_dXbar, random_unitary, rel_err


@verify.claim(
    "toef.def4_linearized_transformer", paper=PAPER, where="Definition 4, eq. (4), L78-82",
    statement=r"\dot X=XW_\mathrm{in}W_\mathrm{out}^*+\sum_{i=1}^nC_A^{-1/2}XQ_iK_i^*X^*XV_iO_i^*",
    kind="property", expect="SUPPORTED",
)
def def4_linearized_transformer(ctx):
    """Eq. (4) as a module: shapes (N x C in, N x C out) and the associativity identity
    XQK^*X^*XVO^* = X (QK^* X^*X VO^*) (the field is X times a function of the Gram matrix),
    fuzzed in complex128: SUPPORTED."""
    def prop(generator, batch, dtype, device, N, C, C_MLP, C_A, n, scale):
        m = random_linearized(generator, C, C_MLP, C_A, n)
        X = crandn(batch, N, C, generator=generator, scale=scale)
        a, b = m(X), m.forward_gram(X)
        bad_shape = 0.0 if a.shape == X.shape else 1.0
        den = torch.linalg.norm(a, dim=(-2, -1)).clamp_min(1e-300)
        return torch.linalg.norm(a - b, dim=(-2, -1)) / den + bad_shape

    return falsify(prop, {"N": st.integers(1, 6), "C": st.integers(1, 5),
                          "C_MLP": st.integers(1, 6), "C_A": st.integers(1, 3),
                          "n": st.integers(1, 3), "scale": st.floats(0.05, 2.0)},
                   budget=ctx.pick(20, 200), batch=16, tol=1e-12, seed=ctx.subseed("def4"))


def _paired(g: torch.Generator, C: int, C_A: int, h: int, hermitian: bool = False):
    """Heads with the pairing of l. 90: ``Q_i K_i^* = V_{i+h} O_{i+h}^*``,
    ``Q_{i+h} K_{i+h}^* = V_i O_i^*`` (rank-C_A products); ``hermitian`` makes every
    ``V_i O_i^*`` Hermitian (``K = Q`` for the partner heads)."""
    Q = crandn(2 * h, C, C_A, generator=g)
    K = crandn(2 * h, C, C_A, generator=g)
    V = torch.empty_like(Q)
    O = torch.empty_like(Q)
    for i in range(h):
        if hermitian:
            K[i + h] = Q[i + h]
        V[i + h], O[i + h] = Q[i], K[i]
        V[i], O[i] = Q[i + h], K[i + h]
    return Q, K, V, O


@verify.evidence_for("toef.lemma3_wirtinger_linear_attention")
def lemma3_numeric(ctx):
    """torch complex autograd: dV/dX^* of the Lemma-3 potential vs eq. (4) with paired heads,
    fuzzed over shapes, seeds and scales: reading A2 (the proof's W_B = V O^*, generic pairs:
    a violation confirmed in float64), reading B2 (W_B = O V^*) for every pairing, reading A1
    (the proof's W_B with Hermitian V O^*). Reading A, the lemma's existence statement, is
    decided by the symbolic witnesses (proofs/toef/linearized.py)."""
    def prop(generator, batch, dtype, device, N, C, C_A, h, scale, reading):
        Q, K, V, O = _paired(generator, C, C_A, h, hermitian=(reading == "A1"))
        C_MLP = 2
        Win, Wout = crandn(C, C_MLP, generator=generator), crandn(C, C_MLP, generator=generator)
        m = LinearizedTransformer(Win, Wout, Q, K, V, O)
        heads = m.heads()
        # reading B2: W_B^* = V O^*, so W_B = (V O^*)^*; readings A2 and A1: W_B = V O^*
        pairs = [(A, H(B) if reading == "B2" else B) for A, B in heads[:h]]
        pot = lemma3_potential(Win @ H(Wout), pairs, C_A)
        errs = []
        for _ in range(batch):
            X = crandn(N, C, generator=generator, scale=scale)
            errs.append(rel_err(dV_dXbar(pot, X), m(X)))
        return torch.tensor(errs, dtype=torch.float64)

    sizes = {"N": st.integers(1, 5), "C": st.integers(1, 4), "C_A": st.integers(1, 3),
             "h": st.integers(1, 2), "scale": st.floats(0.05, 2.0)}
    return [
        falsify(prop, {**sizes, "reading": st.just(r)}, budget=ctx.pick(6, 100), batch=2,
                tol=IDENTITY_TOL, seed=ctx.subseed("l3", r)).relabel(reading=r)
        for r in ("A2", "B2", "A1")
    ]


@verify.claim(
    "toef.lemma3_pairing_necessity", paper=PAPER,
    where="remark after Lemma 3, L90; Theorem 5 proof L256; L210",
    statement=r"\text{without }Q_iK_i^*=V_{i+n/2}O_{i+n/2}^*,\ Q_{i+n/2}K_{i+n/2}^*=V_iO_i^*"
              r"\text{ the potential is not guaranteed to exist}",
    kind="property", expect="SUPPORTED",
    readings={"B": "strong: the pairing with n even is necessary for the attention part of "
                   "eq. (4) to have a potential"},
)
def lemma3_pairing_necessity(ctx):
    """Closedness defect ||J - J^T||/||J|| of the conjugate Jacobian (complex128) per family:
    paired, tied (V O^* = Q K^*, any n, also odd), scaled (V O^* = c Q K^*), untied. Reading A
    (weak): paired heads are closed (sufficiency) and random untied heads are not (some
    unpaired set has no potential): SUPPORTED. Reading B (strong): one tied head (n = 1, odd,
    no pairing) is closed at N = C = 1 and at N = 2, C = 2: REFUTED."""
    g = ctx.torch_generator("heads")
    res: dict[str, float] = {}
    for family, n in (("paired", 2), ("tied", 1), ("tied", 3), ("untied", 2), ("scaled", 1)):
        worst_lo, worst_hi = 0.0, math.inf
        for N, C in ((2, 2), (3, 2), (2, 3)):
            heads = head_family(g, family, C, n)
            d = closedness_defect(attention_field(heads), crandn(N, C, generator=g))
            worst_lo, worst_hi = max(worst_lo, d), min(worst_hi, d)
        res[f"{family}, n={n}"] = worst_lo if family != "untied" else worst_hi
    paired, untied, tied = res["paired, n=2"], res["untied, n=2"], res["tied, n=1"]
    sufficiency = judge_error(paired, "paired heads are closed (largest defect over N, C)",
                              tol=IDENTITY_TOL, fail=COUNTEREXAMPLE_TOL, numbers=res,
                              dtype="complex128", part="pairing sufficient",
                              counterexample={"family": "paired", "n": 2, "defect": paired})
    one = torch.ones(1, 1, dtype=torch.complex128)
    d1 = closedness_defect(attention_field([(one, one)]), one)
    return [sufficiency, unpaired_evidence(untied, res), tied_evidence(tied, d1)]


def unpaired_evidence(untied: float, res: dict) -> Evidence:
    """Reading A's "some unpaired set has no potential": SUPPORTED when the smallest closedness
    defect of the random untied heads is at least ``COUNTEREXAMPLE_TOL`` (their field is not a
    gradient), else UNDECIDED (the heads drawn came out closed)."""
    part = "some unpaired set has none"
    if untied >= COUNTEREXAMPLE_TOL:
        return Evidence(Verdict.SUPPORTED, f"random untied heads are not closed (defect >= "
                        f"{untied:.2f}): no potential exists for them", method="numeric",
                        numbers=res, dtype="complex128", part=part)
    return Evidence.undecided(f"the untied heads drawn came out closed (defect {untied:.1e}): no "
                              "unpaired set without a potential found", method="numeric",
                              part=part)


def tied_evidence(tied: float, d1: float) -> Evidence:
    """Reading B (pairing necessary): REFUTED when a single tied head (n = 1, no pairing) is
    closed both at N = C = 2 (defect ``tied``) and at N = C = 1 (``d1``), within
    ``IDENTITY_TOL``; UNDECIDED otherwise."""
    if tied <= IDENTITY_TOL and d1 <= IDENTITY_TOL:
        return Evidence(
            Verdict.REFUTED, f"a single tied head (n = 1 odd, V O^* = Q K^*, no pairing) is "
            f"closed: defect {tied:.1e} at N=2, C=2; at N=C=1 with Q=K=V=O=1 the field |x|^2 x "
            f"is dV/dX^* of V = |x|^4/2 (defect {d1:.1e})", method="numeric", reading="B",
            dtype="complex128",
            counterexample={"N": 1, "C": 1, "n": 1, "Q": 1, "K": 1, "V": 1, "O": 1,
                            "potential": "|x|^4/2", "defect_N2_C2": tied})
    return Evidence.undecided(f"the single tied head is not closed here (defect {tied:.1e}, "
                              f"N = C = 1: {d1:.1e})", method="numeric", reading="B")


@verify.evidence_for("toef.uniqueness_of_potential")
def uniqueness_numeric(ctx):
    """g = sum X_jk^2 changes under a random unitary P (it is not U(N)-invariant), so Axiom 2
    removes this ambiguity of the potential."""
    g = ctx.torch_generator("u")
    X = crandn(3, 2, generator=g)
    P = random_unitary(3, g)
    gX, gPX = (X**2).sum(), ((P @ X) ** 2).sum()
    change = float(abs(gPX - gX) / abs(gX))
    summary = (f"holomorphic g = sum X_jk^2 is not U(N)-invariant (relative change {change:.2f} "
               "under a random unitary); holomorphic U(N)-invariants are constant, so under "
               "Axiom 2 V is unique up to a constant")
    return invariance_change_evidence(change, summary)


def invariance_change_evidence(change: float, summary: str) -> Evidence:
    """Reading B's "Axiom 2 removes the holomorphic ambiguity": SUPPORTED when the holomorphic
    g changed by more than ``COUNTEREXAMPLE_TOL`` (relative) under the unitary drawn (it is not
    U(N)-invariant), else UNDECIDED."""
    kw = dict(method="numeric", reading="B", part="holomorphic ambiguity", dtype="complex128")
    if change > COUNTEREXAMPLE_TOL:
        return Evidence(Verdict.SUPPORTED, summary, **kw)
    return Evidence.undecided(f"g changed by only {change:.1e} under the unitary drawn", **kw)

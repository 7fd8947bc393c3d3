"""``pegr.rope.*`` (numeric): injectivity of RoPE under the norm assumption of A.2 L164, and the
float64 fuzzing of ``pegr.rope.representation`` (proved in ``proofs/pegr/rope.py``)."""

from __future__ import annotations

from dataclasses import replace

import sympy as sp
import torch
from hypothesis import strategies as st

import verify
from proofs.pegr.model import PAPER
from verify import Evidence, Verdict
from verify.numeric import check_injective, falsify

from .model.encodings import RoPE


def rope_domain(E: torch.Tensor, M: int) -> torch.Tensor:
    """All pairs (word embedding v in ``E``, position m in 0..M-1) as rows ``(v, m)``."""
    n, d = E.shape
    ms = torch.arange(M, dtype=torch.float64)
    V = E[:, None, :].expand(n, M, d)
    Mm = ms[None, :, None].expand(n, M, 1)
    return torch.cat([V, Mm], -1).reshape(-1, d + 1)


@verify.claim(
    "pegr.rope.injectivity_norm_assumption", paper=PAPER, where="A.2 L164",
    statement=r"\text{Implicitly, it is assumed that no two words' semantic embedding vectors "
              r"have the same norm}\ (\Rightarrow (v,m)\mapsto R_\Theta(m)v\ \text{injective})",
    kind="property", expect="SUPPORTED",
    readings={"B": "necessity: injectivity of Psi requires distinct norms (a)",
              "C": "rotation applied to the word embedding v (as printed)",
              "D": "rotation applied to query/key projections W_q x_m, W_k x_n (Su et al.)"},
)
def rope_injectivity(ctx):
    """Reading A (sufficiency): with distinct norms (a) and no full period (b), ``Psi(v, m) =
    R_Theta(m) v`` is injective on E x {0..M-1}: exhaustive ``check_injective`` on random
    embedding sets (d in {2, 4, 8}, both frequency readings, sparse 2-blocks included),
    SUPPORTED with the smallest gap. Reading B (necessity): REFUTED when an equal-norm set is
    injective: d = 2, E = {(1, 0), (0, 1)}, M = 64 (``R(m) e1 = R(n) e2`` needs ``m - n = pi/2
    mod 2 pi``, impossible for integers). Equal norms can collide (E = {v, R(1) v}: (v, 1) ~
    (R(1) v, 0)), so (a) is not vacuous. Reading C (the rotation applied to v, as printed) is
    the setting every sufficiency test above runs in: they are its evidence too. Reading D
    (Su et al.: the rotation applied to the projections W_q x_m, W_k x_n): the norm hypothesis
    on the word embeddings does not carry over, REFUTED exactly by :func:`qk_collision`."""
    out = []
    gen = torch.Generator().manual_seed(ctx.subseed("ropeinj"))
    M = ctx.pick(quick=64, deep=512)
    for d in (2, 4, 8):
        for sign in (1.0, -1.0):
            n = 6 if d < 8 else 4
            E = torch.randn(n, d, generator=gen, dtype=torch.float64, device=gen.device)
            norms = torch.arange(1, n + 1, dtype=torch.float64)[:, None]  # distinct norms
            E = E / E.norm(dim=1, keepdim=True) * norms
            if d >= 4:
                E[0, 2:4] = 0.0  # a sparse 2-block
            rp = RoPE(d, sign)
            ev = check_injective(lambda X, rp=rp, d=d: rp(X[:, :d], X[:, d]), rope_domain(E, M),
                                 gap_limit=4096)
            out.append(ev.relabel(part=f"d={d}, {'printed' if sign > 0 else 'RoFormer'} freqs",
                                  prefix=f"A: {n} words with distinct norms x {M} positions"))
            out.append(replace(ev, reading="C",  # the test rotates v itself: reading C
                               summary=f"C (v rotated, as printed): {ev.summary}"))
    E = torch.tensor([[1.0, 0.0], [0.0, 1.0]], dtype=torch.float64)
    rp = RoPE(2)
    equal_norms = check_injective(lambda X: rp(X[:, :2], X[:, 2]), rope_domain(E, 64),
                                  gap_limit=4096)
    if equal_norms.verdict == Verdict.SUPPORTED:
        gap = equal_norms.numbers.get("min_gap", float("nan"))
        out.append(Evidence(
            Verdict.REFUTED,
            f"B: equal norms yet injective: E = {{(1,0), (0,1)}}, d = 2, M = 64 (smallest gap "
            f"{gap:.3g}); exact: R(m)e1 = R(n)e2 needs m - n = pi/2 mod 2 pi", reading="B",
            counterexample={"d": 2, "E": [[1, 0], [0, 1]], "M": 64, "min_gap": gap}))
    else:
        out.append(Evidence.undecided(f"B: the equal-norm set E = {{e1, e2}} is not injective "
                                      f"({equal_norms.summary}); no counterexample to necessity",
                                      method="numeric", reading="B"))
    v = torch.tensor([[0.6, 0.8]], dtype=torch.float64)
    w = rp(v, torch.tensor([1.0]))
    gap = float((rp(v, torch.tensor([1.0])) - rp(w, torch.tensor([0.0]))).abs().max())
    out.append(collision_evidence(gap))
    out.append(qk_collision())
    return out


def qk_collision() -> Evidence:
    """Reading D: with the rotation applied to the query and key projections (Su et al.),
    distinct word norms (a) and no full period (b) do not make ``(x, m) -> (R(m) W_q x,
    R(m) W_k x)`` injective. Exact witness, d = 2, alpha_1 = 1 (both frequency readings start
    at 10000^0 = 1), W_q = W_k = W = diag(1, 2): ``v = (1, 0)`` and ``w = W^{-1} R(1) W v =
    (cos 1, sin(1)/2)`` have norms 1 and sqrt(cos^2 1 + sin^2 1 / 4) = 0.685 (distinct), and
    ``R(1) W v = R(0) W w``: the pair (v, position 1) and (w, position 0) collide."""
    one = sp.Integer(1)
    W = sp.diag(1, 2)
    v = sp.Matrix([1, 0])
    w = W.inv() * rot(one) * W * v
    norms = (sp.sqrt((v.T * v)[0]), sp.sqrt(sp.simplify((w.T * w)[0])))
    images = (rot(one) * W * v, rot(sp.Integer(0)) * W * w)
    collide = sp.simplify(images[0] - images[1]).is_zero_matrix
    distinct = sp.simplify(norms[0] - norms[1]).is_zero is False
    if not (collide and distinct):
        return Evidence.undecided(f"D: the witness did not re-check exactly (images equal: "
                                  f"{collide}, norms distinct: {distinct})", method="symbolic",
                                  reading="D", part="injective")
    return Evidence(
        Verdict.REFUTED,
        "D (rotation on W_q x, W_k x; Su et al.): W_q = W_k = diag(1, 2), v = (1, 0) at position "
        "1 and w = (cos 1, sin(1)/2) at position 0 have distinct norms (1 vs 0.685) but the "
        "same rotated query and key (exact)", method="symbolic", reading="D", part="injective",
        generality="a single exact instance suffices",
        counterexample={"d": 2, "alpha_1": 1, "W_q": "diag(1, 2)", "W_k": "diag(1, 2)",
                        "v": [1, 0], "m_v": 1, "w": "(cos 1, sin(1)/2)", "m_w": 0,
                        "norms": [str(x) for x in norms], "image": str(list(images[0]))})


def rot(a: sp.Expr) -> sp.Matrix:
    """The 2 x 2 rotation by the angle ``a``, exactly."""
    return sp.Matrix([[sp.cos(a), -sp.sin(a)], [sp.sin(a), sp.cos(a)]])


def collision_evidence(gap: float) -> Evidence:
    """Hypothesis (a) is not vacuous: the equal-norm set E = {v, R(1) v} collides,
    ``Psi(v, 1) = Psi(R(1) v, 0)``; ``gap`` is the float64 difference (0 by construction).
    SUPPORTED when the collision holds (``gap < 1e-15``); UNDECIDED otherwise (the witness
    does not hold; it is one instance, so its failure refutes nothing)."""
    ok = gap < 1e-15
    return Evidence(Verdict.SUPPORTED if ok else Verdict.UNDECIDED,
                    f"equal norms can collide: E = {{v, R(1)v}}: Psi(v, 1) - Psi(R(1) v, 0) = "
                    f"{gap:.1e}" + ("" if ok else " (no collision: witness fails)"),
                    reading="B", part="(a) not vacuous", numbers={"gap": gap})


@verify.evidence_for("pegr.rope.representation")
def rope_fuzz(ctx):
    """Float64 fuzzing of ``R(m+n) v = R(n) R(m) v`` and the relative property for d in 2..128,
    m, n in [-1e4, 1e4], both frequency readings, tolerance ``1e-12 max|m alpha| |q||k|``."""
    def prop(generator, batch, dtype, device, half, sign):
        d = 2 * half
        rp = RoPE(d, sign)
        m = torch.randint(-10**4, 10**4, (batch,), generator=generator,
            device=generator.device).double()
        n = torch.randint(-10**4, 10**4, (batch,), generator=generator,
            device=generator.device).double()
        q = torch.randn(batch, d, generator=generator, dtype=torch.float64, device=generator.device)
        k = torch.randn(batch, d, generator=generator, dtype=torch.float64, device=generator.device)
        lhs = (rp(q, m) * rp(k, n)).sum(-1)
        rhs = (q * rp(k, n - m)).sum(-1)
        scale = 1e-12 * (1 + rp.alpha.max() * (m.abs() + n.abs())) * q.norm(dim=-1) * k.norm(dim=-1)
        comp = (rp(q, m + n) - rp(rp(q, m), n)).abs().amax(-1) / (scale / k.norm(dim=-1))
        return torch.maximum((lhs - rhs).abs() / scale, comp)

    ev = falsify(prop, {"half": st.integers(1, 64), "sign": st.sampled_from([1.0, -1.0])},
                 budget=ctx.pick(quick=10, deep=80), batch=128, tol=1.0,
                 seed=ctx.subseed("ropefuzz"))
    return ev.relabel(part="(i)", prefix="float64 fuzz of the homomorphism and the relative "
                                         "property")

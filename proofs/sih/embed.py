"""App. D, exact parts: the temporal component of Thm D.5 and Step 4 of Lemma D.2's proof.

The spatial-aware embeddings and the claims checked on token streams are in
``numerics/sih/embed.py``.
"""

from __future__ import annotations

import sympy as sp

import verify
from verify import Evidence
from verify.certify import lp as certify_lp
from verify.symbolic import prove_cases, prove_equal, refute_exactly

from . import PAPER


@verify.claim(
    "sih.embed.temporal_component", paper=PAPER, where="Thm D.5, L1115-1120; (27)",
    kind="property", expect="REFUTED",
    statement=r"p_t=[t,1],\ Q_T=\mathrm{diag}(-W_T,1),\ K_T=[0,1;W_T,W_T]\Rightarrow "
              r"h(t,t')=-W_T(t-t'-1);\ t'\le t-1\text{ for all visible keys, so }h=0\ "
              r"(t'=t-1),\ h\le-W_T\ (t'\le t-2)",
    readings={"B": r"$K_T$ read column by column (transposed)"},
)
def temporal_component(ctx):
    """The bilinear form is PROVED (rows of K_T as printed); the transposed K_T gives
    t t' W_T - t W_T + 1 (reading B, not the stated h). The premise fails on the real stream:
    same-row keys (t' = t) are causally visible and score h = +W_T > 0 (smallest: ECA, L = 2,
    T = 2, query (1, 1), key (1, 0))."""
    t, tp, W = sp.symbols("t t' W_T", real=True)
    Q = sp.Matrix([[-W, 0], [0, 1]])
    K = sp.Matrix([[0, 1], [W, W]])
    p_t, p_tp = sp.Matrix([t, 1]), sp.Matrix([tp, 1])
    h = ((Q * p_t).T * (K * p_tp))[0, 0]
    ev = prove_cases([("h(t,t')", h, -W * (t - tp - 1))], generality="symbolic t, t', W_T",
                     scope="general", part="bilinear")
    h_transposed = ((Q * p_t).T * (K.T * p_tp))[0, 0]
    ev_b = prove_equal(h_transposed, -W * (t - tp - 1), assumptions="real", timeout=10.0,
                       reading="B", part="bilinear")
    return [ev, ev_b, premise_evidence(Q, K, W)]


def premise_evidence(Q: sp.Matrix, K: sp.Matrix, W: sp.Symbol) -> Evidence:
    """(27)'s premise at the visible same-row key (``t' = t``, which row-major causal order
    makes visible: ECA, L = 2, T = 2, query (1, 1), key (1, 0)): the temporal score
    ``(Q p_t)^T (K p_t)`` at t = 1, W_T = 3. REFUTED (exactly) when it is positive, so the key
    is not suppressed as (27) says; UNDECIDED otherwise."""
    one = sp.Matrix([1, 1])
    same_row = ((Q * one).T * (K * one))[0, 0].subs(W, 3)
    premise = (r"premise $t' \le t-1$: a visible same-row key scores "
               f"$h = {same_row}$ at $W_T = 3$")
    if not same_row > 0:
        return Evidence.undecided(f"{premise}: not positive", method="symbolic", part="premise")
    return refute_exactly(
        f"{premise} > 0: the premise is false", {
            "tokenisation": "T1", "d": 1, "L": 2, "T": 2, "query": [1, 1], "key": [1, 0],
            "t'-t": 0, "h": f"{same_row} (> 0)",
            "note": "same-row keys precede the query in row-major order and are visible"},
        lhs=same_row, rhs=0, part="premise", generality="exact")


@verify.claim(
    "sih.embed.lemma_d2_proof_step4", paper=PAPER,
    where="Lemma D.2 proof, Steps 1-4, L886-981; Claim D.3 L932-937", kind="existence",
    expect="REFUTED",
    statement=r"\Omega=\{\hat e_1..\hat e_d\}\cup\Omega_{\rm core}\ (\mathrm{rank}\,E=m)"
              r"\Rightarrow(15)\ \text{infeasible}:\ \nexists\lambda\ge0,\ne0:\ "
              r"\sum_{\delta\notin N}\lambda_\delta v_\delta\in\mathrm{rowspan}(E);"
              r"\ \text{Claim D.3: }\mathrm{rank}(E)=k",
    readings={"B": r"the proof with Claim D.3 read as $\mathrm{rank}(E)=m$ (Lemma D.2's number "
                   r"of targets): the claim then holds for the instance (part claim_d3), and "
                   r"Step 4 under it is tested (part main)"},
)
def lemma_d2_proof_step4(ctx):
    """Counterexample (exact rationals): G = Z_4, N = {0, 2}, Omega_core = {0, 1} (rank 2 on
    N), so Omega = {e_1} u Omega_core = {0, 1}. lambda_1 = lambda_3 = 1 gives
    v_1 + v_3 = (2, 0, 0) = v_0 + v_2 in rowspan(E): (15) is feasible, so no uniformly negative
    null direction exists. Re-checked exactly as a rank (appending the combination to E keeps
    rank 2, where infeasibility needs 3) and certified by an exact LP (verify.certify.lp,
    claim_feasible=True). Claim D.3's rank(E) = k is an index slip for m (reading B: rank m
    holds by construction here, and Step 4 fails under it too)."""
    # v_delta = [1 (omega = 0), cos(pi delta / 2), sin(pi delta / 2)] on Z_4
    v = {x: [1, [1, 0, -1, 0][x], [0, 1, 0, -1][x]] for x in range(4)}
    N, off = [0, 2], [1, 3]
    E = sp.Matrix([v[x] for x in N])
    lam = {1: 1, 3: 1}
    combo = sum((sp.Matrix(v[x]) * lam[x] for x in off), sp.zeros(3, 1))
    with_combo = E.col_join(combo.T)
    # LP (15) normalised: lambda >= 0, sum lambda = 1, sum lambda v - E^T mu = 0 (mu free)
    nl, nm = len(off), len(N)
    A_eq = [[v[x][r] for x in off] + [-v[y][r] for y in N] for r in range(3)]
    A_eq.append([1] * nl + [0] * nm)
    cert = certify_lp([0] * (nl + nm), A_eq=A_eq, b_eq=[0, 0, 0, 1],
                      bounds=[(0, None)] * nl + [(None, None)] * nm, claim_feasible=True)
    witness = {"G": "Z_4", "N": N, "Omega_axial": [1], "Omega_core": [0, 1],
               "lambda": {"1": 1, "3": 1}, "rowspan_coefficients": [1, 1],
               "v_delta": {str(k): val for k, val in v.items()}, "rank E": E.rank(),
               "rank [E; sum lambda v]": with_combo.rank()}
    step4 = (r"Step 4: (15) is feasible for an $\Omega$ meeting Step 1's (only) condition, "
             r"$\mathrm{rank}\,E = m$: no $c_{\mathrm{null}} \in \ker E$ is negative off $N$ "
             r"($h \in \mathrm{span}\{1, \cos, \sin\}$ with $h(0) = h(2) = 0$ is "
             r"$c\sin(\pi x/2)$)")
    out = []
    for reading, under in (("A", "Claim D.3 as printed (rank k)"),
                           ("B", "Claim D.3 read as rank m")):  # the same Step 4 under either
        out.append(refute_exactly(f"{step4} [{under}]", witness, lhs=with_combo.rank(),
                                  rhs=E.rank() + 1, generality="exact rationals (L = 4)",
                                  reading=reading))
    out.append(Evidence.informal("Claim D.3 as printed says rank(E) = k, but Lemma D.2 has m "
                                 "targets and no k", part="claim_d3"))
    out.append(prove_cases([("rank E on N", E.rank(), len(N))], reading="B", part="claim_d3",
                           generality="the instance's Omega_core (chosen with rank m)",
                           summary="Claim D.3 with rank(E) = m holds for the instance"))
    return [*out, cert.relabel(part="lp_certificate")]

"""App. E, content retrieval by Layer 2: Lemma E.6 (noisy Hamming scores), Remark E.7 (the
Layer-2 score gap, judged with Lemma E.6's harness at m = k blocks) and Lemma E.9 / Cor. E.10
(the softmax read-out).

The partitioned-regime enumeration and the B_3 layout check of Remark E.7 are in
``proofs/sih/retrieve.py``.
"""

from __future__ import annotations

import functools
import math
from dataclasses import replace
from fractions import Fraction

import sympy as sp
import torch
from hypothesis import strategies as st

import verify
from proofs.sih import PAPER
from proofs.sih.model import ECA
from proofs.sih.retrieve import block_gap_counts, layout_evidence
from verify import Evidence, Verdict
from verify.numeric import falsify, judge_check
from verify.symbolic import prove_cases, refute_exactly


def block_score(q: list[list[Fraction]], qp: list[list[Fraction]]) -> Fraction:
    """``<q, q'>`` of two vectors given as their ``m`` blocks of ``V`` coordinates (exact)."""
    return sum(x * y for bq, bp in zip(q, qp, strict=True) for x, y in zip(bq, bp, strict=True))


def match_bound_evidence(q: list[list[Fraction]], eps: list[list[Fraction]],
                         ebar: Fraction, **kw) -> Evidence:
    """(53)'s matching bound ``<q + eps, q> >= m - 2 m eps_bar`` at one exact instance (``q`` an
    ideal vector as ``m`` one-hot blocks, ``q' + eps' = q``), under reading A (only the
    off-target l1 mass of ``eps`` per block is bounded by ``eps_bar``): REFUTED when the
    perturbation is admissible and the score falls below the bound, else UNDECIDED."""
    m = len(q)
    admissible = all(sum(abs(x) for x, t in zip(e, b, strict=True) if t == 0) <= ebar
                     for e, b in zip(eps, q, strict=True))
    qe = [[x + y for x, y in zip(b, e, strict=True)] for b, e in zip(q, eps, strict=True)]
    score, bound = block_score(qe, q), m - 2 * m * ebar
    summary = (f"target coordinate unconstrained: matching score ${score}$ against "
               rf"$m - 2m\bar\varepsilon = {bound}$")
    if not admissible or score >= bound:
        return Evidence.undecided(f"{summary}: not a violation", method="symbolic", **kw)
    return refute_exactly(f"{summary}: below", {
        "m": m, "V": len(q[0]), "eps_bar": str(ebar), "q": [[str(x) for x in b] for b in q],
        "eps": [[str(x) for x in b] for b in eps], "eps'": "0", "score": str(score),
        "bound": str(bound)}, lhs=score, rhs=bound, generality="exact", **kw)


def iff_evidence(m: int, ebar: Fraction, **kw) -> Evidence:
    """The "iff" of Lemma E.6 under reading B at ``eps_bar``: the exact worst matching score
    ``m (1 - e)^2`` and worst non-matching score ``(m - 1) + 2 e (1 - e)`` (one differing block).
    REFUTED when they disagree with the claim's threshold (separated although
    ``eps_bar >= 1/(4m)``, or not separated although below it), else UNDECIDED."""
    match, nonmatch = m * (1 - ebar) ** 2, (m - 1) + 2 * ebar * (1 - ebar)
    separated, claimed = match > nonmatch, ebar < Fraction(1, 4 * m)
    summary = (rf"at $\bar\varepsilon = {ebar}$ ($1/(4m) = {Fraction(1, 4 * m)}$) the worst "
               f"matches score ${match}$, the worst non-matches ${nonmatch}$")
    if separated == claimed:
        return Evidence.undecided(f"{summary}: agrees with the iff", method="symbolic", **kw)
    return refute_exactly(
        f"{summary}: {'separated' if separated else 'not separated'} against the iff",
        {"m": m, "V": 2, "eps_bar": str(ebar), "worst_match": str(match),
         "worst_nonmatch": str(nonmatch), "1/(4m)": str(Fraction(1, 4 * m))},
        lhs=int(separated), rhs=int(claimed), generality=f"exact worst cases, m = {m}", **kw)


def nonmatch_bound_evidence(q: list[list[Fraction]], qp: list[list[Fraction]], ebar: Fraction,
                            **kw) -> Evidence:
    """(53)'s non-matching bound ``<q + eps, q' + eps'> <= (m - 1) + 2 m eps_bar`` for two
    perturbed vectors given directly as blocks (reading C: each block within l1 distance
    ``eps_bar`` of its one-hot, the one-hots differing somewhere): REFUTED when the score
    exceeds the bound, else UNDECIDED."""
    m = len(q)
    score, bound = block_score(q, qp), (m - 1) + 2 * m * ebar
    summary = f"reading C: non-matching score {score} vs (m-1) + 2m e = {bound}"
    if score <= bound:
        return Evidence.undecided(f"{summary}: within the bound", method="symbolic", **kw)
    return refute_exactly(f"{summary}: above", {
        "m": m, "V": len(q[0]), "eps_bar": str(ebar), "q+eps": [[str(x) for x in r] for r in q],
        "q'+eps'": [[str(x) for x in r] for r in qp], "score": str(score), "bound": str(bound)},
        lhs=score, rhs=bound, generality="exact", **kw)


def k_reading_evidence(N: int, matches: int, k: int, **kw) -> Evidence:
    """Lemma E.9 with ``k`` read as the neighbourhood size (reading B) when only ``matches``
    tokens match, all scores equal (G = 0) and the non-matches share one wrong class: the
    read-out error ``||y - u*||_1`` against ``2 eps_ret`` computed with ``k``; SUPPORTED
    within it, REFUTED beyond it."""
    p = torch.softmax(torch.zeros(N, dtype=torch.float64), 0)
    vals = torch.zeros(N, 2, dtype=torch.float64)
    vals[:matches, 0], vals[matches:, 1] = 1.0, 1.0
    l1 = float(((p @ vals) - torch.tensor([1.0, 0.0], dtype=torch.float64)).abs().sum())
    eret = (N - k) / (k + (N - k))
    return judge_check(
        l1 <= 2 * eret + 1e-12,
        rf"$\|\hat y - u^*\|_1 = {l1:.4g}$ against $2\varepsilon_{{\rm ret}} = {2 * eret:.4g}$ "
        f"($N = {N}$, {matches} matching, $k = {k}$, $G = 0$)",
        counterexample={"N": N, "matches": matches, "k_neighbourhood": k, "G": 0,
                        "||y-u*||_1": l1, f"2 eps_ret(k={k})": 2 * eret}, **kw)


Block = list[Fraction]

#: Lemma E.6's three noise readings (claim list, sih.retrieve.lemma_e6), by the name the
#: harness uses: "printed" (reading A: only the off-target l1 mass of a block is bounded, the
#: target coordinate is free), "attention" (reading B, the attention-output model of
#: L1731-1734: a block is (1 - lam) e_x + a, a >= 0, a_x = 0, ||a||_1 = lam <= eps_bar) and
#: "l1" (reading C: ||eps_h||_1 <= eps_bar over all coordinates).
NOISE_READINGS = ("printed", "attention", "l1")
NOISE_TEXT = {
    "printed": r"printed noise (target coordinate free, off-target $\ell_1$ mass "
               r"$\le \bar\varepsilon$)",
    "attention": r"attention-output noise ($(1 - \lambda) e_x + a$, $a \ge 0$, "
                 r"$\|a\|_1 = \lambda \le \bar\varepsilon$)",
    "l1": r"$\ell_1$ noise ($\|\varepsilon_h\|_1 \le \bar\varepsilon$ over all coordinates)"}


def one_hot(x: int, V: int) -> Block:
    """``e_x`` in ``Q^V``."""
    return [Fraction(int(y == x)) for y in range(V)]


def admissible(noise: str, x: int, block: Block, ebar: Fraction) -> bool:
    """Whether ``block = e_x + eps`` lies in the noise set of Lemma E.6's reading ``noise``
    (see :data:`NOISE_READINGS`) at leakage ``eps_bar``; exact."""
    eps = [b - t for b, t in zip(block, one_hot(x, len(block)), strict=True)]
    off = [eps[y] for y in range(len(eps)) if y != x]
    if noise == "printed":
        return sum(abs(v) for v in off) <= ebar
    if noise == "attention":
        return all(v >= 0 for v in off) and eps[x] == -sum(off) and sum(off) <= ebar
    if noise == "l1":
        return sum(abs(v) for v in eps) <= ebar
    raise ValueError(f"unknown noise reading {noise!r}, expected one of {NOISE_READINGS}")


def block_vertices(noise: str, x: int, V: int, ebar: Fraction) -> tuple[list[Block], bool]:
    """The vertices of one block's noise set around ``e_x``, and whether they span the whole
    set. "attention": the polytope {u in the simplex, u_x >= 1 - eps_bar}, vertices ``e_x`` and
    ``(1 - eps_bar) e_x + eps_bar e_y``; "l1": ``e_x + eps_bar * (+-e_y)``; "printed" is
    unbounded (the target coordinate is free), so only the polytope of target drops
    ``t in [0, 1]`` and off-target cross-polytope of radius ``eps_bar`` is listed (vertices
    ``(1 - t) e_x +- eps_bar e_y``, ``t in {0, 1}``, ``y != x``): a subset, not the set."""
    e_x = one_hot(x, V)
    if noise == "attention":
        verts = [e_x] + [[(1 - ebar) * a + ebar * b for a, b in zip(e_x, one_hot(y, V),
                                                                      strict=True)]
                         for y in range(V) if y != x]
        return verts, True
    if noise == "l1":
        return [[a + s * ebar * b for a, b in zip(e_x, one_hot(y, V), strict=True)]
                for y in range(V) for s in (1, -1)], True
    if noise == "printed":
        return [[(1 - t) * a + s * ebar * b for a, b in zip(e_x, one_hot(y, V), strict=True)]
                for t in (0, 1) for y in range(V) if y != x for s in (1, -1)], False
    raise ValueError(f"unknown noise reading {noise!r}, expected one of {NOISE_READINGS}")


def _dot(u: Block, v: Block) -> Fraction:
    return sum((a * b for a, b in zip(u, v, strict=True) if a and b), Fraction(0))


@functools.cache
def _block_worst(noise: str, V: int, ebar: Fraction) -> dict:
    """One block's extremes over :func:`block_vertices` (query config 0): the least and the
    greatest score of a matching pair, the greatest of a differing pair, and per query vertex
    ``u`` the terms of the one-query gap (see :func:`distributed_worst`)."""
    P = {y: block_vertices(noise, y, V, ebar)[0] for y in range(V)}
    P0 = P[0]
    m1, pm = min(((_dot(u, v), (u, v)) for u in P0 for v in P0), key=lambda t: t[0])
    ms, ps = max(((_dot(u, v), (u, v)) for u in P0 for v in P0), key=lambda t: t[0])
    md, pd = max(((_dot(u, v), (u, v)) for u in P0 for v in P[1]), key=lambda t: t[0])

    def per_query_block(u: Block) -> dict:
        lo, lo_v = min(((_dot(u, v), v) for v in P0), key=lambda t: t[0])
        best = {y: max(((_dot(u, v), v) for v in P[y]), key=lambda t: t[0]) for y in range(V)}
        y_all = max(range(V), key=lambda y: best[y][0])
        y_nz = max(range(1, V), key=lambda y: best[y][0])
        return {"u": u, "a": lo - best[y_all][0], "delta": best[y_all][0] - best[y_nz][0],
                "lo_v": lo_v, "all": (y_all, best[y_all][1]), "nz": (y_nz, best[y_nz][1])}

    rows = [per_query_block(u) for u in P0]
    return {"m1": m1, "pm": pm, "ms": ms, "ps": ps, "md": md, "pd": pd,
            "star": min(rows, key=lambda r: r["a"] + r["delta"]),
            "rest": min(rows, key=lambda r: r["a"])}


def distributed_worst(noise: str, k: int, V: int, ebar: Fraction) -> dict:
    """Exact worst cases of Remark E.7's distributed regime (``k`` noisy one-hot blocks of size
    ``V``, scores ``<q + eps, q' + eps'>``, c = 1) over the vertices of
    :func:`block_vertices`. The score is bilinear and a sum over blocks, so over a product of
    polytopes its extremes sit at vertices, block by block. Returns

    - ``match_min`` / ``nonmatch_max``: the worst matching and non-matching scores of one pair
      (Lemma E.6's (53) with m = k), with a witness pair each; ``d`` differing blocks give
      ``(k - d) max_same + d max_diff``, linear in ``d``;
    - ``gap_min``: Def E.8's gap for one query, min over matching keys minus max over
      non-matching keys, minimised over the query's noise. It is concave in the query, so a
      vertex again; per query vertex ``u`` a block contributes ``a(u)`` = its least matching
      score minus its greatest score over all key symbols, and the non-matching key must
      differ in some block, which costs ``delta(u)`` there, so the minimum is
      ``min (a + delta) + (k - 1) min a``. The witness is (query, matching key, non-matching
      key).

    Witnesses are ``(config, blocks)`` pairs, the config being the one-hot symbols. By symmetry
    the query's config is all zeros."""
    b = _block_worst(noise, V, ebar)
    d = 1 if b["ms"] >= b["md"] else k
    zeros = [0] * k
    star, rest = b["star"], b["rest"]
    return {
        "match_min": k * b["m1"],
        "match_pair": ((zeros, [b["pm"][0]] * k), (zeros, [b["pm"][1]] * k)),
        "nonmatch_max": (k - d) * b["ms"] + d * b["md"],
        "nonmatch_pair": ((zeros, [b["pd"][0]] * d + [b["ps"][0]] * (k - d)),
                          ([1] * d + [0] * (k - d), [b["pd"][1]] * d + [b["ps"][1]] * (k - d))),
        "gap_min": star["a"] + star["delta"] + (k - 1) * rest["a"],
        "gap_witness": {
            "query": (zeros, [star["u"]] + [rest["u"]] * (k - 1)),
            "match_key": (zeros, [star["lo_v"]] + [rest["lo_v"]] * (k - 1)),
            "nonmatch_key": ([star["nz"][0]] + [rest["all"][0]] * (k - 1),
                             [star["nz"][1]] + [rest["all"][1]] * (k - 1))}}


def _show(vec: tuple[list[int], list[Block]]) -> dict:
    config, blocks = vec
    return {"config": list(config), "blocks": [[str(x) for x in b] for b in blocks]}


def distributed_recheck(noise: str, ebar: Fraction, vecs: dict) -> str | None:
    """Why the witness ``vecs`` (name -> ``(config, blocks)``) is not a valid instance of
    Remark E.7 under ``noise``, or ``None``: every block must lie in its noise set
    (:func:`admissible`, not the vertex list), a ``match`` key must share the query's
    config and a ``nonmatch`` key must differ from it."""
    for name, (config, blocks) in vecs.items():
        for h, (x, b) in enumerate(zip(config, blocks, strict=True)):
            if not admissible(noise, x, b, ebar):
                return f"{name} block {h} is not in the {noise} noise set"
    configs = {name: list(c) for name, (c, _) in vecs.items()}
    base = configs.get("query", configs.get("left"))
    for name, c in configs.items():
        if name.startswith("match") and c != base:
            return f"{name} does not match"
        if name.startswith("nonmatch") and c == base:
            return f"{name} matches"
    return None


def distributed_evidence(noise: str, instances: list[tuple[int, int, Fraction]], *,
                         reading: str, c: Fraction = Fraction(1)) -> list[Evidence]:
    """Remark E.7's distributed regime (L1005-1010) under Lemma E.6's noise reading ``noise``
    at each ``(k, V, eps_bar)``: part "distributed bounds" (matching scores
    ``>= c(k - 2k eps_bar)``, non-matching ``<= c((k-1) + 2k eps_bar)``) and part
    "distributed gap" (Def E.8's gap, same query for both keys, ``>= c(1 - 4k eps_bar)``),
    from the exact worst cases of :func:`distributed_worst`.

    Each part: REFUTED at the first instance that violates it, after its witness is re-checked
    (:func:`distributed_recheck`, scores recomputed by :func:`block_score`, exact); PROVED
    (bounded: the instances listed) when none does and the vertices span the noise set; else
    UNDECIDED (a subset of the set was searched, or the witness did not re-check)."""
    complete = all(block_vertices(noise, 0, V, e)[1] for _, V, e in instances)
    worst = {"match - bound": None, "bound - nonmatch": None, "gap - c(1-4k eps)": None}
    bad_bound = bad_gap = None
    n_bad = {"distributed bounds": 0, "distributed gap": 0}
    for k, V, e in instances:
        w = distributed_worst(noise, k, V, e)
        lo, hi, g = c * (k - 2 * k * e), c * ((k - 1) + 2 * k * e), c * (1 - 4 * k * e)
        margins = {"match - bound": c * w["match_min"] - lo,
                   "bound - nonmatch": hi - c * w["nonmatch_max"],
                   "gap - c(1-4k eps)": c * w["gap_min"] - g}
        n_bad["distributed bounds"] += int(min(margins["match - bound"],
                                               margins["bound - nonmatch"]) < 0)
        n_bad["distributed gap"] += int(margins["gap - c(1-4k eps)"] < 0)
        for name, v in margins.items():
            if worst[name] is None or v < worst[name][0]:
                worst[name] = (v, (k, V, e))
        if bad_bound is None and margins["match - bound"] < 0:
            bad_bound = ("matching", k, V, e, {"left": w["match_pair"][0],
                                               "match": w["match_pair"][1]}, lo)
        elif bad_bound is None and margins["bound - nonmatch"] < 0:
            bad_bound = ("non-matching", k, V, e, {"left": w["nonmatch_pair"][0],
                                                   "nonmatch": w["nonmatch_pair"][1]}, hi)
        if bad_gap is None and margins["gap - c(1-4k eps)"] < 0:
            bad_gap = (k, V, e, w["gap_witness"], g)
    numbers = {f"min {name}": str(v) + f" at (k, V, eps_bar) = ({k}, {V}, {e})"
               for name, (v, (k, V, e)) in worst.items()}
    numbers["instances"] = len(instances)
    numbers["at eps_bar = 1/(4k), largest V"] = [
        {"k": k, "V": V, "eps_bar": str(e), "worst match": str(c * w["match_min"]),
         "worst non-match": str(c * w["nonmatch_max"]), "worst gap": str(c * w["gap_min"]),
         "c(1-4k eps_bar)": str(c * (1 - 4 * k * e))}
        for k, V, e in instances if V == max(i[1] for i in instances) and e == Fraction(1, 4 * k)
        for w in [distributed_worst(noise, k, V, e)]]
    ks, Vs = sorted({i[0] for i in instances}), sorted({i[1] for i in instances})
    generality = (f"k in {ks}, V in {Vs}, {len({i[2] for i in instances})} exact values of "
                  "eps_bar in [0, 1), c > 0 (every score scales by c)")
    kw = {"reading": reading, "generality": generality, "numbers": numbers}
    head = NOISE_TEXT[noise]
    out = []
    if bad_bound is not None:
        which, k, V, e, vecs, bound = bad_bound
        score = c * block_score(*(b for _, b in vecs.values()))
        why = distributed_recheck(noise, e, vecs)
        ce = {"k": k, "V": V, "eps_bar": str(e), "c": str(c), "score": str(score),
              "bound": str(bound), **{n: _show(v) for n, v in vecs.items()}}
        text = (rf"{head}, $k = {k}$, $V = {V}$, $\bar\varepsilon = {e}$: a {which} pair "
                f"scores {score}, {'below' if which == 'matching' else 'above'} the printed "
                f"{bound}")
        if why is not None or (score >= bound if which == "matching" else score <= bound):
            out.append(Evidence.undecided(f"{text}: witness did not re-check ({why})",
                                          method="symbolic", part="distributed bounds", **kw))
        else:
            out.append(refute_exactly(text, ce, lhs=score, rhs=bound, method="symbolic",
                                      part="distributed bounds", **kw))
    if bad_gap is not None:
        k, V, e, vecs, bound = bad_gap
        qb = vecs["query"][1]
        s_m, s_n = c * block_score(qb, vecs["match_key"][1]), c * block_score(
            qb, vecs["nonmatch_key"][1])
        why = distributed_recheck(noise, e, vecs)
        ce = {"k": k, "V": V, "eps_bar": str(e), "c": str(c), "match_score": str(s_m),
              "nonmatch_score": str(s_n), "c(1-4k eps_bar)": str(bound),
              **{n: _show(v) for n, v in vecs.items()}}
        text = (rf"{head}, $k = {k}$, $V = {V}$, $\bar\varepsilon = {e}$: one query scores a "
                f"matching key {s_m} and a non-matching one {s_n}, gap "
                rf"${s_m - s_n} < c(1 - 4k\bar\varepsilon) = {bound}$")
        if why is not None or s_m - s_n >= bound:
            out.append(Evidence.undecided(f"{text}: witness did not re-check ({why})",
                                          method="symbolic", part="distributed gap", **kw))
        else:
            out.append(refute_exactly(text, ce, lhs=s_m - s_n, rhs=bound, method="symbolic",
                                      part="distributed gap", **kw))
    for part, bad, what in (("distributed bounds", bad_bound,
                             "matching >= c(k - 2k eps_bar), non-matching <= c((k-1) + 2k "
                             "eps_bar)"),
                            ("distributed gap", bad_gap, "gap >= c(1 - 4k eps_bar)")):
        if bad is not None:
            continue
        text = f"{head}: {what} at all {len(instances)} instances (exact worst cases)"
        if not complete:
            out.append(Evidence.undecided(
                f"{text}, but only on a subset of the noise set: not a proof",
                method="symbolic", part=part, **kw))
            continue
        out.append(Evidence(Verdict.PROVED if n_bad[part] == 0 else Verdict.UNDECIDED, text,
                            method="symbolic", part=part, scope="bounded", **kw))
    return out


def attention_noise_violation(generator: torch.Generator, batch: int, dtype: torch.dtype,
                              device: str | None, m: int, V: int, ebar_pct: int,
                              diff: int) -> torch.Tensor:
    """(53) under reading B (the attention-output model, L1731-1734) on ``batch`` random
    pairs: ``m`` blocks ``(1 - lam) e_x + a`` with ``lam <= eps_bar = ebar_pct / 100``,
    ``a >= 0``, ``a_x = 0``, ``||a||_1 = lam``, the two configurations differing in their
    first ``min(diff, m)`` blocks. Returns the violation of the matching bound (``diff = 0``)
    or of the non-matching bound, divided by ``m``, in float64 (a ``falsify`` property)."""
    ebar = ebar_pct / 100

    def block(x):
        lam = torch.rand(batch, m, 1, generator=generator, dtype=torch.float64,
            device=generator.device) * ebar
        onehot = torch.nn.functional.one_hot(x, V).to(torch.float64)
        a = torch.rand(batch, m, V, generator=generator, dtype=torch.float64,
            device=generator.device) * (1 - onehot)
        a = a / a.sum(-1, keepdim=True).clamp(min=1e-300) * lam
        return (1 - lam) * onehot + a

    x = torch.randint(0, V, (batch, m), generator=generator, device=generator.device)
    xp = x.clone()
    nd = min(diff, m)
    xp[:, :nd] = (xp[:, :nd] + 1) % V
    s = (block(x) * block(xp)).sum((-1, -2))
    if nd == 0:
        return (m - 2 * m * ebar - s).clamp(min=0) / m
    return (s - (m - 1) - 2 * m * ebar).clamp(min=0) / m


@verify.claim(
    "sih.retrieve.lemma_e6", paper=PAPER, where="Lemma E.6, L1493-1513; L319-323",
    kind="property", expect="REFUTED",
    statement=r"\langle q+\varepsilon,q'+\varepsilon'\rangle\ge m-2m\bar\varepsilon\ (q=q'),"
              r"\ \le(m-1)+2m\bar\varepsilon\ (q\ne q');\ \text{separated iff }\bar\varepsilon<"
              r"\tfrac1{4m};\ \text{both bounds tight}",
    readings={"B": r"blocks $(1-\lambda)e_x+a$, $a\ge0$, $a_x=0$, $\|a\|_1=\lambda\le"
                   r"\bar\varepsilon$",
              "C": r"$\|\varepsilon_h\|_1\le\bar\varepsilon$ over all coordinates of each block",
              "D": r"under the hypothesis, not stated in the lemma, that each block is "
                   r"$(1-\lambda)e_x+a$, $a\ge0$, $a_x=0$, $\|a\|_1=\lambda\le\bar\varepsilon$ "
                   r"(reading B's noise set): (53) holds, and $\bar\varepsilon<\tfrac1{4m}$ "
                   r"suffices for separation ('if' in place of 'iff')"},
    repairs={"D": "overstated"},
)
def lemma_e6(ctx):
    """A (only the off-target l1 mass bounded): REFUTED -- m = 1, V = 2, eps_bar = 0,
    eps = (-1, 0): match score 0 < 1. B: (53) holds (falsify over the set), but the 'iff'
    fails: the exact worst cases are m(1-e)^2 (match) and (m-1) + 2e(1-e) (one differing
    block); for m = 1 separation holds up to e < 1/3, e.g. e = 3/10 > 1/4 (REFUTED: necessity
    and tightness). C: REFUTED -- m = 2, V = 2, e = 1/10: a matching block scores (1+e)^2 and a
    differing one 2e, total 141/100 > (m-1) + 2me = 7/5. D (the repaired statement: reading
    B's noise set as a hypothesis, 'if' for 'iff'): (53) falsified over the set, and the gap
    between its two bounds is 1 - 4m eps_bar, positive iff eps_bar < 1/(4m) (PROVED)."""
    one, zero = Fraction(1), Fraction(0)
    ev_a = match_bound_evidence([[one, zero]], [[-one, zero]], Fraction(0))
    ev_iff = iff_evidence(1, Fraction(3, 10), reading="B", part="iff")

    space_b = {"m": st.integers(1, 5), "V": st.integers(2, 4), "ebar_pct": st.integers(0, 49),
               "diff": st.integers(0, 5)}
    budget = ctx.pick(quick=10, deep=200)
    ev_b = falsify(attention_noise_violation, space_b, budget=budget, batch=256, seed=ctx.seed)
    ev_d = falsify(attention_noise_violation, space_b, budget=budget, batch=256, seed=ctx.seed)
    m_, e_ = sp.symbols("m epsilon_bar", positive=True)
    ev_d_gap = prove_cases(
        [("match bound - non-match bound", (m_ - 2 * m_ * e_) - ((m_ - 1) + 2 * m_ * e_),
          1 - 4 * m_ * e_)], generality="symbolic m, eps_bar", scope="general",
        reading="D", part="sufficiency",
        summary="the bounds of (53) differ by 1 - 4 m eps_bar, positive iff eps_bar < 1/(4m): "
                "under (53) that condition suffices for separation")

    ec = Fraction(1, 10)  # reading C: l1 over all coordinates, so a matching block can exceed 1
    q = [[1 + ec, zero], [one, ec]]  # (e_0, e_0) + eps
    qp = [[1 + ec, zero], [ec, one]]  # (e_0, e_1) + eps'
    ev_c = nonmatch_bound_evidence(q, qp, ec, reading="C")
    return [ev_a, ev_iff, ev_b.relabel(reading="B", part="bounds_53"), ev_c,
            ev_d.relabel(reading="D", part="bounds_53"), ev_d_gap]


def distributed_instances(ks: range, Vs: range) -> list[tuple[int, int, Fraction]]:
    """The ``(k, V, eps_bar)`` grid of Remark E.7's distributed checks: eps_bar in
    ``{j/20 : j < 20}`` (Lemma E.6's range [0, 1)) plus ``1/(8k)`` and the threshold
    ``1/(4k)``."""
    return [(k, V, e) for k in ks for V in Vs
            for e in sorted({Fraction(j, 20) for j in range(20)}
                            | {Fraction(1, 8 * k), Fraction(1, 4 * k)})]


@verify.claim(
    "sih.retrieve.remark_e7_gap", paper=PAPER,
    where="Remark E.7, L1515-1520; Def E.8 L1539-1548; F.1 Step 3 L1779-1783", kind="property",
    expect="REFUTED",
    statement=r"m=1,\ k\text{ noisy one-hot blocks}:\ \text{match}\ge c(k-2k\bar\varepsilon),"
              r"\ \text{non-match}\le c((k-1)+2k\bar\varepsilon),\ G=c(1-4k\bar\varepsilon)"
              r">0\iff\bar\varepsilon<\tfrac1{4k};\ m>1:\ \text{match }ch,\ \text{non-match}"
              r"\le c(h-1),\ G=c",
    readings={"B": r"the partitioned gap on the architecture's $B_{3,Q}$ / $B_{3,K}$ of F.1 "
                   r"Step 2 (one-hots over $S_\gamma\cap\mathcal N_Q$ and "
                   r"$S_\gamma\cap\mathcal N_K$), matching = equal parent configurations",
              "C": r"the distributed regime with the noise of the attention-output model "
                   r"(Lemma E.6's reading B, cf. L1731-1734): each block is "
                   r"$(1-\lambda)e_x+a$, $a\ge0$, $a_x=0$, $\|a\|_1=\lambda\le\bar\varepsilon$; "
                   r"then match $\ge c(k-2k\bar\varepsilon)$, non-match "
                   r"$\le c((k-1)+2k\bar\varepsilon)$, $G=c(1-4k\bar\varepsilon)$; the "
                   r"partitioned regime as printed",
              "D": r"the distributed regime with $\|\varepsilon_h\|_1\le\bar\varepsilon$ over "
                   r"all coordinates of each block (Lemma E.6's reading C); the partitioned "
                   r"regime as printed"},
    repairs={"C": "overstated"},
)
def remark_e7_gap(ctx):
    """Distributed regime (L1005-1010), with Lemma E.6's harness at m = k blocks under each of
    its noise readings: exact worst matching / non-matching scores of a pair and the exact
    worst Def E.8 gap of one query (:func:`distributed_evidence`), on k <= 6, V in {2, 3, 4},
    eps_bar in {j/20 : j < 20} plus 1/(8k) and 1/(4k), c = 1 (scores scale with c > 0).

    - A (Lemma E.6's noise as printed: the target coordinate is free): REFUTED, k = 1, V = 2,
      eps_bar = 0: the query e_0 against the matching key 0 * e_0 (its target dropped by 1,
      no off-target mass) scores 0 < k - 2k eps_bar = 1, and no more than against the
      non-matching key e_1, so the gap is 0 < c(1 - 4k eps_bar) = c.
    - C (the attention-output model): both bounds and the gap hold at every instance (PROVED,
      bounded; the worst pair scores are k(1 - eps)^2 and (k - 1) + 2 eps(1 - eps) for
      eps < 1/2 and V >= 3, so the gap stays positive at eps_bar = 1/(4k)); the float64
      fuzz of the bounds (Lemma E.6's property at m = k) agrees. It is the repaired
      statement, under a noise model the remark does not state: A is overstated (as Lemma
      E.6's own reading D).
    - D (l1 over all coordinates): the non-matching bound fails from k = 2 (agreeing blocks
      score (1 + eps)^2 > 1), REFUTED; the gap still holds (the pair bounds alone give
      1 - 4k eps + eps^2).

    The gap algebra c(k - 2k eps) - c((k-1) + 2k eps) = c(1 - 4k eps) is PROVED (symbolic).
    Partitioned regime as Def E.8 states it (L1023-1026): concatenations of h one-hot blocks,
    matching meaning equal; the inner product counts agreeing blocks, so matches score ch and
    non-matches at most c(h-1): every pair enumerated for h <= 3, block size <= 3 (PROVED at
    those sizes). Reading B, the same gap on the B_3 contents F.1 Step 2 writes: for ECA at
    h = 2 the K and Q sub-blocks of one head have dimensions 4 and 2 (REFUTED; the
    per-neighbour layout that repairs it is sih.main.marginalisation_alignment's reading B)."""
    inst = distributed_instances(range(1, ctx.pick(quick=7, deep=11)),
                                 range(2, ctx.pick(quick=5, deep=6)))
    c, k, e = sp.symbols("c k epsilon", positive=True)
    algebra = prove_cases([("G", c * (k - 2 * k * e) - c * ((k - 1) + 2 * k * e),
                            c * (1 - 4 * k * e))],
                          generality="symbolic c, k, eps", scope="general", part="gap algebra")
    cases = [(f"h={h}, block size {n}: {what}", count, 0)
             for h in (1, 2, 3) for n in (2, 3) for what, count in block_gap_counts(h, n).items()]
    ev_part = prove_cases(cases, part="partitioned",
                          generality="h in {1,2,3} one-hot blocks of size n in {2,3}, all pairs",
                          summary="h one-hot blocks: equal pairs score h, unequal ones <= h-1, "
                                  "so G = c")
    ev_fuzz = falsify(attention_noise_violation,
                      {"m": st.integers(1, 6), "V": st.integers(2, 4),
                       "ebar_pct": st.integers(0, 49), "diff": st.integers(0, 6)},
                      budget=ctx.pick(quick=10, deep=200), batch=256, seed=ctx.seed)
    out = distributed_evidence("printed", inst, reading="A")
    out += [algebra, ev_part]
    out += [layout_evidence(ECA, 2, part="partitioned", reading="B"),
            replace(algebra, reading="B")]
    for label, noise in (("C", "attention"), ("D", "l1")):
        out += distributed_evidence(noise, inst, reading=label)
        out += [replace(algebra, reading=label), replace(ev_part, reading=label)]
    out.append(ev_fuzz.relabel(reading="C", part="distributed bounds",
                               prefix="float64, Lemma E.6's reading-B property at m = k"))
    return out


@verify.claim(
    "sih.retrieve.lemma_e9_cor_e10", paper=PAPER,
    where="Def E.8 L1522-1555; Lemma E.9 L1557-1574; Cor E.10 L1576-1582", kind="property",
    expect="SUPPORTED",
    statement=r"\|\hat y-u^*\|\le2\varepsilon_{\rm ret},\ \varepsilon_{\rm ret}=\frac{(N-k)"
              r"e^{-G}}{k+(N-k)e^{-G}};\ \varepsilon_{\rm ret}<\tfrac{\sqrt2}4\Rightarrow"
              r"\arg\max\hat y=\arg\max u^*;\ G>\log(2\sqrt2(N-k)/k)\Rightarrow"
              r"\varepsilon_{\rm ret}<\tfrac{\sqrt2}4",
    readings={"B": "k = the neighbourhood size (Thm F.1), not the number of matching tokens"},
)
def lemma_e9_cor_e10(ctx):
    """A: falsified over N, k, V, G with adversarial non-match values (all non-matches on one
    wrong class): no violation (SUPPORTED). Threshold: the exact solution is
    G > log((2 sqrt2 - 1)(N-k)/k), so the printed one is sufficient (PROVED: printed > exact).
    B REFUTED: k = 3 (neighbourhood) but only 1 matching token: N = 4, G = 0; the bound with
    k = 3 gives 2 eps_ret = 0.5 while ||y - u*||_1 = 1.5."""
    def prop(generator, batch, dtype, device, N, k, V, G10):
        G = G10 / 10
        k = min(k, N - 1)
        rm = torch.rand(batch, k, generator=generator, dtype=torch.float64,
            device=generator.device) * 3 + G
        rn = (torch.rand(batch, N - k, generator=generator, dtype=torch.float64,
            device=generator.device)
              * (rm.min(-1, keepdim=True).values - G))
        p = torch.softmax(torch.cat([rm, rn], -1), -1)
        u_star = torch.zeros(V, dtype=torch.float64, device=p.device)
        u_star[0] = 1
        vals = torch.zeros(N, V, dtype=torch.float64, device=p.device)
        vals[:k, 0] = 1
        vals[k:, 1] = 1  # adversarial: all non-matches on one wrong class
        y = p @ vals
        x = (N - k) * math.exp(-G)
        eret = x / (k + x)
        viol = ((y - u_star).abs().sum(-1) - 2 * eret).clamp(min=0)
        if eret < math.sqrt(2) / 4:
            viol = viol + (y.argmax(-1) != 0).to(torch.float64)
        return viol

    ev = falsify(prop, {"N": st.integers(2, 200), "k": st.integers(1, 199),
                        "V": st.integers(2, 4), "G10": st.integers(0, 120)},
                 budget=ctx.pick(quick=10, deep=300), batch=128, seed=ctx.seed)
    N, k = sp.symbols("N k", positive=True)
    exact = sp.log((2 * sp.sqrt(2) - 1) * (N - k) / k)
    printed = sp.log(2 * sp.sqrt(2) * (N - k) / k)
    ev_t = prove_cases(
        [("printed - exact", sp.expand_log(printed - exact, force=True),
          sp.log(2 * sp.sqrt(2)) - sp.log(2 * sp.sqrt(2) - 1))],
        generality="symbolic N > k > 0", scope="general", part="threshold",
        summary="printed threshold exceeds the exact one by log(2 sqrt2/(2 sqrt2 - 1)) > 0: "
                "sufficient")
    ev_b = k_reading_evidence(4, 1, 3, reading="B")
    return [ev, ev_t, ev_b]

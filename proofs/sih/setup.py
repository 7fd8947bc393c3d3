"""Sec. 3 of the paper: the rule space and the distances in the flattened sequence.

The setup claims checked by search rather than proof (``e_hat`` on the token stream, ``|U|``,
the partitions of Def. 4.1) are in ``numerics/sih/setup.py``.
"""

from __future__ import annotations

import itertools

import sympy as sp

import verify
from verify import Evidence, Verdict
from verify.symbolic import prove_cases, refute_exactly

from . import PAPER


def game_of_life(cfg: tuple[int, ...]) -> int:
    """B3/S23 on a Moore configuration, a 9-tuple row-major over ``{-1, 0, 1}^2`` (centre 4)."""
    n = sum(cfg) - cfg[4]
    return int(n == 3 or (cfg[4] == 1 and n == 2))


@verify.claim(
    "sih.setup.rule_space", paper=PAPER, where="Sec. 3.1, L145-152", kind="identity",
    expect="REFUTED",
    statement=r"|\mathcal S^k|=V^k,\ |\mathcal F|=V^{(V^k)};\ \text{ECA: }d=1,V=2,k=3"
              r"\text{ (256 rules)};\ \text{Game of Life: }d=2,V=2,k=8",
    readings={"B": r"Game of Life with the Moore neighbourhood including the centre, $k=9$"},
    repairs={"B": "erratum"},
)
def rule_space(ctx):
    """Counts by exhaustive enumeration (V=2, k<=3; V=3, k<=2) against V^k and V^(V^k): PROVED
    at those sizes. Game of Life (B3/S23, L147-148 leaves the offset list empty): reading A
    (k = 8, the non-centre Moore offsets) is REFUTED by an exact pair of configurations that
    agree on all 8 offsets and differ in the next state (the centre matters). Every one of the
    9 Moore cells is essential (computed: flipping it changes the next state somewhere), so no
    set of 8 offsets works and k = 9 (reading B) is the least k for which GoL is an instance of
    Def. 3.1."""
    counts, rows = [], []
    for V, k in [(2, 1), (2, 2), (2, 3), (3, 1), (3, 2)]:
        n_configs = len(list(itertools.product(range(V), repeat=k)))
        n_rules = len(set(itertools.product(range(V), repeat=n_configs)))
        counts += [(f"V={V}, k={k}: configurations", n_configs, V ** k),
                   (f"V={V}, k={k}: rules", n_rules, V ** (V ** k))]
        rows.append({"V": V, "k": k, "configs": n_configs, "rules": n_rules})
    counts.append(("ECA: 2^(2^3) rules", 2 ** (2 ** 3), 256))
    ev_count = prove_cases(
        counts, part="counting",
        generality="V=2, k<=3; V=3, k<=2 (exhaustive); the counts are the product rule for "
                   "words and functions, which SymPy does not prove for symbolic V, k",
        summary="V^k configurations and V^(V^k) rules by enumeration; ECA 2^(2^3) = 256")

    moore = list(itertools.product((0, 1), repeat=9))
    essential = [o for o in range(9)
                 if any(game_of_life(c) != game_of_life(c[:o] + (1 - c[o],) + c[o + 1:])
                        for c in moore)]
    seen: dict[tuple[int, ...], tuple[int, ...]] = {}
    witness = None
    for cfg in moore:
        first = seen.setdefault(cfg[:4] + cfg[5:], cfg)
        if witness is None and game_of_life(first) != game_of_life(cfg):
            witness = (first, cfg)
    gol = "GoL next state as a function of the 8 non-centre offsets"
    if witness is None:
        ev_a = Evidence(Verdict.PROVED, f"{gol}: no two configurations agreeing on them differ",
                        method="symbolic", part="game_of_life",
                        generality="all 2^9 Moore configurations", scope="general")
    else:
        c1, c2 = witness
        note = ("; every Moore cell is essential, so no choice of 8 offsets works"
                if len(essential) == 9 else "")
        ev_a = refute_exactly(
            f"{gol}: two configurations agree on all 8 offsets but differ in next state{note}",
            {"config_1": list(c1), "next_1": game_of_life(c1), "config_2": list(c2),
             "next_2": game_of_life(c2), "rule": "B3/S23",
             "order": "Moore offsets row-major over (-1,0,1)^2, centre is index 4"},
            lhs=game_of_life(c1), rhs=game_of_life(c2), part="game_of_life",
            generality="all 2^9 Moore configurations")
    ev_b = prove_cases(
        [("essential Moore cells", len(essential), 9)], part="game_of_life", reading="B",
        generality="all 2^9 Moore configurations (the paper's GoL, a finite statement)",
        scope="general",
        summary=f"GoL depends essentially on {len(essential)} of the 9 Moore cells: with k = 9 "
                "(centre included) it is an instance of Def 3.1 and no 8 offsets suffice")
    return [ev_count, ev_a, ev_b]


@verify.claim(
    "sih.setup.flatten_distance", paper=PAPER, where="L163-166; cf. L191-192", kind="identity",
    expect="UNDECIDED",
    statement=r"\text{row-major flattening separates adjacent physical neighbours by distances "
              r"of }\mathcal O(W^{m-1})",
    readings={"B": r"$\mathcal O(W^{d-1})$ (as printed at L192)"},
)
def flatten_distance(ctx):
    """Exact sequence distances under (T1): the axis-c neighbour sits at ``W^{d-c}`` (interior),
    the wrap-around one at ``(W-1) W^{d-c}``; the maximum over axes is ``W^{d-1}``, PROVED
    symbolically in W for d <= 3 (reading B). Reading A's ``m`` is undefined at L163 (an axis
    index at L101, the partition size from Def 4.1 on): UNDECIDED, with the candidate exponents
    recorded."""
    W = sp.Symbol("W", positive=True, integer=True)
    cases = []
    for d in (1, 2, 3):
        idx = sp.symbols(f"i0:{d}", integer=True)

        def pos(v, d=d):
            return sum(v[c] * W ** (d - 1 - c) for c in range(d))

        for c in range(d):
            step = list(idx)
            step[c] += 1
            cases.append((f"d={d}, axis {c + 1} interior", pos(step) - pos(idx),
                          W ** (d - 1 - c)))
            lo, hi = list(idx), list(idx)
            lo[c], hi[c] = 0, W - 1
            cases.append((f"d={d}, axis {c + 1} wrap", pos(hi) - pos(lo),
                          (W - 1) * W ** (d - 1 - c)))
    ev_b = prove_cases(
        cases, reading="B", timeout=10.0 * len(cases),
        generality="symbolic W, d in {1,2,3}, (T1) without separators inside a time step; "
                   "a symbolic number of axes d would need sums over symbolic index sets, "
                   "not attempted",
        summary="max interior distance W^{d-1} (axis 1); wrap-around (W-1)W^{d-c}, i.e. also "
                "O(W^{d})/O(W^{d-1})*W")
    ev_a = Evidence.informal(
        "reading A: m is undefined at L163 (axis index at L101; partition size from Def 4.1); "
        "with m = d it coincides with reading B (interior pairs); wrap-around pairs are "
        "Theta(W^d)", numbers={"interior_exponent": "d-1", "wraparound_exponent": "d"})
    return [ev_a, ev_b]

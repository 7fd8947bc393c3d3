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
from .model import ECA, MOORE9, VN, union_set


def game_of_life(cfg: tuple[int, ...]) -> int:
    """B3/S23 on a Moore configuration, a 9-tuple row-major over ``{-1, 0, 1}^2`` (centre 4)."""
    n = sum(cfg) - cfg[4]
    return int(n == 3 or (cfg[4] == 1 and n == 2))


def essential_cells(rule) -> list[int]:
    """The Moore cells (row-major indices 0..8) on which ``rule`` depends: flipping the cell
    changes the next state for some configuration."""
    moore = list(itertools.product((0, 1), repeat=9))
    return [o for o in range(9)
            if any(rule(c) != rule(c[:o] + (1 - c[o],) + c[o + 1:]) for c in moore)]


def non_centre_evidence(rule, name: str) -> Evidence:
    """Whether ``rule`` (a function of a 9-tuple Moore configuration) is a function of the 8
    non-centre offsets, as reading A of L147-148 (k = 8) needs: PROVED when no two
    configurations agreeing on them differ in the next state (all 2^9 checked), else REFUTED by
    the first such pair, re-checked exactly."""
    seen: dict[tuple[int, ...], tuple[int, ...]] = {}
    witness = None
    for cfg in itertools.product((0, 1), repeat=9):
        first = seen.setdefault(cfg[:4] + cfg[5:], cfg)
        if witness is None and rule(first) != rule(cfg):
            witness = (first, cfg)
    gol = f"{name} next state as a function of the 8 non-centre offsets"
    if witness is None:
        return Evidence(Verdict.PROVED, f"{gol}: no two configurations agreeing on them differ",
                        method="symbolic", part="game_of_life",
                        generality="all 2^9 Moore configurations", scope="general")
    c1, c2 = witness
    note = ("; every Moore cell is essential, so no choice of 8 offsets works"
            if len(essential_cells(rule)) == 9 else "")
    return refute_exactly(
        f"{gol}: two configurations agree on all 8 offsets but differ in next state{note}",
        {"config_1": list(c1), "next_1": rule(c1), "config_2": list(c2), "next_2": rule(c2),
         "rule": name, "order": "Moore offsets row-major over (-1,0,1)^2, centre is index 4"},
        lhs=rule(c1), rhs=rule(c2), part="game_of_life",
        generality="all 2^9 Moore configurations")


@verify.claim(
    "sih.setup.rule_space", paper=PAPER, where="Sec. 3.1, L145-152", kind="identity",
    expect="PROVED",
    statement=r"|\mathcal S^k|=V^k,\ |\mathcal F|=V^{(V^k)};\ \text{ECA: }d=1,V=2,k=3"
              r"\text{ (256 rules)};\ \text{Game of Life: }d=2,V=2,k=8",
    readings={"B": r"Game of Life with the Moore neighbourhood including the centre, $k=9$"},
    repairs={"B": ("erratum", "Game of Life's Moore neighbourhood has k = "
                              "9 with the centre, not 8")},
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

    essential = essential_cells(game_of_life)
    ev_a = non_centre_evidence(game_of_life, "B3/S23")
    ev_b = prove_cases(
        [("essential Moore cells", len(essential), 9)], part="game_of_life", reading="B",
        generality="all 2^9 Moore configurations (the paper's GoL, a finite statement)",
        scope="general",
        summary=f"GoL depends essentially on {len(essential)} of the 9 Moore cells: with k = 9 "
                "(centre included) it is an instance of Def 3.1 and no 8 offsets suffice")
    return [ev_count, ev_a, ev_b]


def big_o_holds(dist: sp.Expr, bound: sp.Expr, W: sp.Symbol) -> bool:
    """Whether ``dist = O(bound)`` as ``W -> oo``: the exact limit of their ratio is finite."""
    return bool(sp.limit(dist / bound, W, sp.oo).is_finite)


def meanings_evidence(witnesses: dict[str, dict | None], summary: str, **kw) -> Evidence:
    """The verdict of a statement whose symbol has several candidate meanings, from each
    meaning's outcome (``None``: holds; a dict: its exact witness of failure). PROVED (bounded)
    when every meaning holds, REFUTED when every meaning fails (all witnesses kept), UNDECIDED
    when they disagree (the statement's truth turns on the meaning)."""
    failed = {name: w for name, w in witnesses.items() if w is not None}
    held = sorted(set(witnesses) - set(failed))
    if not failed:
        return Evidence(Verdict.PROVED, f"{summary}: holds under every meaning {held}",
                        method="symbolic", scope="bounded", **kw)
    if not held:
        return Evidence(Verdict.REFUTED,
                        f"{summary}: fails under every meaning ({', '.join(sorted(failed))})",
                        method="symbolic", counterexample=failed, **kw)
    return Evidence.undecided(f"{summary}: holds under {held}, fails under {sorted(failed)}",
                              method="symbolic", numbers={"witnesses": failed}, **kw)


def flatten_meanings(W: sp.Symbol, dims: tuple[int, ...] = (1, 2, 3)) -> dict[str, dict | None]:
    """Reading A's ``O(W^{m-1})`` for interior neighbours under (T1), per meaning of ``m``.

    ``axis index`` (L101, where ``m`` indexes the axes in ``prod_{m=1}^d W_m``): the neighbour
    along axis ``m`` must lie ``O(W^{m-1})`` away; it lies ``W^{d-m}`` away (row-major, the last
    axis fastest). ``partition size`` (Def 4.1, ``m = ceil(|U|/h)``): every neighbour must lie
    ``O(W^{m-1})`` away, for every ``h``; the farthest lies ``W^{d-1}`` away (axis 1). Each
    meaning maps to ``None`` when it holds on every instance, else to its first failure."""
    out: dict[str, dict | None] = {"axis index": None, "partition size": None}
    for d in dims:
        for m in range(1, d + 1):
            dist = W ** (d - m)
            if out["axis index"] is None and not big_o_holds(dist, W ** (m - 1), W):
                out["axis index"] = {"d": d, "axis m": m, "distance": str(dist),
                                     "claimed": f"O({W ** (m - 1)})",
                                     "ratio as W grows": "unbounded"}
    for name, offs in (("ECA", ECA), ("VN", VN), ("Moore-9", MOORE9)):
        d, U = len(offs[0]), union_set(offs)[2]
        for h in range(1, len(U) + 1):
            m = -(-len(U) // h)
            dist = W ** (d - 1)
            if out["partition size"] is None and not big_o_holds(dist, W ** (m - 1), W):
                out["partition size"] = {"setting": name, "d": d, "h": h, "m": m,
                                         "distance (axis 1)": str(dist),
                                         "claimed": f"O({W ** (m - 1)})",
                                         "ratio as W grows": "unbounded"}
    return out


@verify.claim(
    "sih.setup.flatten_distance", paper=PAPER, where="L163-166; cf. L191-192", kind="identity",
    expect="PROVED",
    statement=r"\text{row-major flattening separates adjacent physical neighbours by distances "
              r"of }\mathcal O(W^{m-1})",
    readings={"B": r"$\mathcal O(W^{d-1})$ (as printed at L192)"},
    repairs={"B": ("erratum", r"$\mathcal O(W^{d-1})$ as at L192, not $\mathcal O(W^{m-1})$")},
)
def flatten_distance(ctx):
    """Exact sequence distances under (T1): the interior neighbour along axis c sits
    ``W^{d-c}`` away, the wrap-around one ``(W-1) W^{d-c}`` away (PROVED symbolically in W for
    d <= 3). Reading B, ``O(W^{d-1})`` as printed at L192 ("e.g."): every interior neighbour
    distance is ``O(W^{d-1})`` (exact limits), PROVED; the periodic wrap-around pairs are
    ``Theta(W^d)``, recorded beside. Reading A: ``m`` is not defined at L163, and the text
    gives it two meanings, the axis index (L101) and the partition size (Def 4.1). Both fail on
    exact instances: along axis m = 1 of a 2D grid the neighbour is W away, not O(W^0); VN at
    h = |U| = 8 has partition size m = 1 and the same neighbour. REFUTED, an erratum: the
    exponent d - 1 of L192 (reading B) holds."""
    W = sp.Symbol("W", positive=True, integer=True)
    cases, bounds = [], []
    for d in (1, 2, 3):
        idx = sp.symbols(f"i0:{d}", integer=True)

        def pos(v, d=d):
            return sum(v[c] * W ** (d - 1 - c) for c in range(d))

        for c in range(d):
            step = list(idx)
            step[c] += 1
            interior = pos(step) - pos(idx)
            cases.append((f"d={d}, axis {c + 1} interior", interior, W ** (d - 1 - c)))
            bounds.append((f"d={d}, axis {c + 1}: interior distance is O(W^{d - 1})",
                           int(big_o_holds(interior, W ** (d - 1), W)), 1))
            lo, hi = list(idx), list(idx)
            lo[c], hi[c] = 0, W - 1
            cases.append((f"d={d}, axis {c + 1} wrap", pos(hi) - pos(lo),
                          (W - 1) * W ** (d - 1 - c)))
    ev_b = prove_cases(
        cases + bounds, reading="B", timeout=10.0 * len(cases),
        generality="symbolic W, d in {1,2,3}, (T1) without separators inside a time step; "
                   "a symbolic number of axes d would need sums over symbolic index sets, "
                   "not attempted",
        summary=r"interior neighbours at $W^{d-c} = \mathcal O(W^{d-1})$ (exact limits of the "
                r"ratios); periodic wrap-around pairs at $(W-1) W^{d-c}$, $\Theta(W^d)$ for axis "
                "1")
    ev_b.numbers["wraparound_axis1"] = {f"d={d}": f"(W-1) W^{d - 1}" for d in (1, 2, 3)}
    ev_a = meanings_evidence(
        flatten_meanings(W), "reading A, O(W^{m-1}) with m as the text defines it",
        generality="(T1), interior neighbours, d <= 3; ECA, VN, Moore-9 for the partition size")
    return [ev_a, ev_b]

"""Assumptions on the free symbols of an identity, in one normal form.

``prove_equal(..., assumptions=...)`` accepts:

* ``None``: only what the symbols themselves carry (``Symbol("x", positive=True)``); a symbol
  with no assumption is complex, as in SymPy;
* a string or list of strings applied to every free symbol: ``"real"``, ``["positive"]``;
* a dict mapping a symbol (or its name) to a string or list of strings:
  ``{x: "positive", "n": ["integer", "positive"]}``;
* a list of SymPy predicates ``Q.positive(x)``, ``Q.real(y)``.

The assumption names are SymPy's (``real``, ``positive``, ``nonnegative``, ``negative``,
``nonzero``, ``integer``, ``rational``, ``even``, ``odd``...). Symbols that receive assumptions
are replaced by fresh symbols of the same name carrying them (so SymPy's own rewriting, e.g.
``expand_log``, may use them), and the witness search samples values that satisfy them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import sympy as sp

Assumptions = Any  # None | str | Iterable[str] | Mapping | Iterable[predicate]


def _names(value: Any) -> list[str]:
    if isinstance(value, str):
        return [v.strip() for v in value.replace(",", " ").split() if v.strip()]
    return [str(v) for v in value]


def normalise(
    assumptions: Assumptions, symbols: Iterable[sp.Symbol]
) -> dict[sp.Symbol, dict[str, bool]]:
    """Map each symbol that gets extra assumptions to them (``{x: {"positive": True}}``)."""
    symbols = list(symbols)
    by_name = {s.name: s for s in symbols}
    out: dict[sp.Symbol, dict[str, bool]] = {}

    def add(sym: Any, names: list[str]) -> None:
        if isinstance(sym, str):
            if sym not in by_name:
                return  # an assumption on a symbol the identity does not use
            sym = by_name[sym]
        if sym not in symbols:
            return
        facts = out.setdefault(sym, {})
        for n in names:
            neg = n.startswith("~") or n.startswith("not ")
            key = n.lstrip("~").removeprefix("not ").strip()
            facts[key] = not neg

    if assumptions is None:
        return out
    if isinstance(assumptions, str):
        for s in symbols:
            add(s, _names(assumptions))
        return out
    if isinstance(assumptions, Mapping):
        for k, v in assumptions.items():
            add(k, _names(v))
        return out
    items = list(assumptions)
    if all(isinstance(i, str) for i in items):
        for s in symbols:
            add(s, items)
        return out
    for pred in items:
        # sympy.assumptions AppliedPredicate: Q.positive(x)
        fn = getattr(pred, "function", None)
        args = getattr(pred, "arguments", None)
        if fn is None or not args:
            raise ValueError(f"cannot read assumption {pred!r}")
        name = getattr(fn, "name", str(fn)).replace("Q.", "")
        add(args[0], [str(name)])
    return out


def apply(
    exprs: list[Any], assumptions: Assumptions
) -> tuple[list[Any], dict[sp.Symbol, sp.Symbol]]:
    """Replace symbols by same-named symbols that carry the assumptions.

    Returns the rewritten expressions and the map new symbol -> original symbol.
    """
    syms: set[sp.Symbol] = set()
    for e in exprs:
        syms |= {s for s in getattr(e, "free_symbols", set()) if isinstance(s, sp.Symbol)}
    facts = normalise(assumptions, sorted(syms, key=lambda s: s.name))
    if not facts:
        return exprs, {}
    rep: dict[sp.Symbol, sp.Symbol] = {}
    for s, f in facts.items():
        merged = {k: v for k, v in s.assumptions0.items() if k in _BASIC}
        merged.update(f)
        cls = sp.Dummy if isinstance(s, sp.Dummy) else sp.Symbol
        rep[s] = cls(s.name, **merged)
    out = [e.xreplace(rep) if hasattr(e, "xreplace") else e for e in exprs]
    return out, {v: k for k, v in rep.items()}


_BASIC = {
    "real", "positive", "negative", "nonnegative", "nonpositive", "nonzero", "zero",
    "integer", "rational", "even", "odd", "prime", "finite", "commutative", "extended_real",
    "imaginary", "complex",
}


def describe(symbol: sp.Symbol) -> str:
    """A short text of what a symbol is assumed to be (``"positive"``, ``"integer"``,
    ``"complex"``)."""
    a = symbol.assumptions0
    for key in ("prime", "even", "odd"):
        if a.get(key):
            return key
    if a.get("integer"):
        if a.get("positive"):
            return "positive integer"
        if a.get("nonnegative"):
            return "nonnegative integer"
        return "integer"
    for key in ("positive", "nonnegative", "negative", "nonpositive"):
        if a.get(key):
            return key
    if a.get("rational"):
        return "rational"
    if a.get("real") or a.get("extended_real"):
        return "real"
    if a.get("imaginary"):
        return "imaginary"
    return "complex"

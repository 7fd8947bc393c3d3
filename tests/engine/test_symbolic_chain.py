"""verify.symbolic.chain: a proof chain is PROVED with scope ``general`` only if every link
holds in general; a link proved only at concrete sizes, a false link or a cited lemma that is
not proved in general leaves it UNDECIDED (never REFUTED), naming the first failing link."""

from __future__ import annotations

import pytest
import sympy as sp

from verify import Evidence, Verdict
from verify.symbolic import Derivation, Step, prove_steps, proved_in_general, requires

n = sp.Symbol("n", integer=True, positive=True)
C = sp.Symbol("C", integer=True, positive=True)
x, y = sp.symbols("x y")
a, k, j = sp.symbols("a k j", integer=True)
A, B = sp.MatrixSymbol("A", n, n), sp.MatrixSymbol("B", n, n)
K, f = sp.IndexedBase("K"), sp.IndexedBase("f")

#: True in symbolic size n (MatrixSymbols of shape n x n).
TRACE_SUM = Step("tr(A + B) = tr A + tr B", sp.Trace(A + B), sp.Trace(A) + sp.Trace(B))
#: True with no size in it (prove_equal gives no scope).
SQUARE = Step("(x + 1)^2 = x^2 + 2x + 1", (x + 1) ** 2, x**2 + 2 * x + 1)
#: False: x = y = 1 gives 2 vs 3.
FALSE = Step("x (y + 1) = x y + 2 x", x * (y + 1), x * y + 2 * x)
#: Zero at the concrete sizes C = 1, 2 the chain lets the engine try, false at C = 3.
SMALL_ONLY = Step("vanishes for C <= 2 only", (C - 1) * (C - 2) * sp.Sum(K[a, a], (a, 1, C)), 0)


def _lemma(verdict: Verdict, scope: str | None) -> Evidence:
    return Evidence(verdict, "the lemma", method="symbolic", scope=scope, steps=["lemma step"])


def test_chain_of_true_general_steps_is_proved_general() -> None:
    ev = prove_steps([TRACE_SUM, SQUARE], summary="two identities", generality="n symbolic",
                     argument=["nothing else is used"], part="p", reading="B")
    assert ev.verdict is Verdict.PROVED and ev.scope == "general", ev.summary
    assert ev.method == "symbolic" and ev.generality == "n symbolic"
    assert (ev.part, ev.reading) == ("p", "B")
    assert ev.summary == "two identities: exact zero in all 2 steps"
    assert "argument: nothing else is used" in ev.steps
    assert proved_in_general(ev)


def test_derivation_with_every_kind_of_link_holding_is_proved_general() -> None:
    dv = Derivation()
    assert dv.cite("a general lemma", _lemma(Verdict.PROVED, "general"))
    assert dv.engine(TRACE_SUM.label, TRACE_SUM.lhs, TRACE_SUM.rhs)
    assert dv.rewrite("renamed", sp.Sum(f[k], (k, 0, n)), sp.Sum(f[j], (j, 0, n)))
    assert dv.hypothesis("A = B", sp.Trace(A), sp.Trace(B), applied=True)
    assert dv.check("definition", True, "entry by entry")
    dv.note("so the statement holds")
    ev = dv.evidence("statement", "every n")
    assert ev.verdict is Verdict.PROVED and ev.scope == "general", ev.summary
    assert ev.summary == "statement (every n)"
    assert "so the statement holds" in ev.steps
    assert any("[a general lemma] lemma step" in st for st in ev.steps)


def test_step_proved_only_at_concrete_sizes_is_undecided() -> None:
    ev = prove_steps([TRACE_SUM, SMALL_ONLY], summary="s", generality="g")
    assert ev.verdict is Verdict.UNDECIDED and ev.scope is None, ev.summary
    assert "vanishes for C <= 2 only" in ev.summary and "only at concrete sizes" in ev.summary
    # the same link in a Derivation, with the same sizes allowed, does not hold either
    dv = Derivation()
    assert not dv.engine(SMALL_ONLY.label, SMALL_ONLY.lhs, SMALL_ONLY.rhs, sizes=(1, 2))
    assert dv.evidence("s", "g").verdict is Verdict.UNDECIDED


def test_false_step_gives_undecided_naming_it_and_stops_the_chain() -> None:
    ev = prove_steps([SQUARE, FALSE, TRACE_SUM], summary="s", generality="g")
    assert ev.verdict is Verdict.UNDECIDED and ev.scope is None and not ev.counterexample
    assert ev.summary.startswith(f"step '{FALSE.label}' not proved in general")
    assert "REFUTED" in ev.summary  # the engine's own finding is quoted, not adopted
    assert not any(st.startswith(TRACE_SUM.label) for st in ev.steps)


def test_derivation_names_the_first_failing_link() -> None:
    dv = Derivation()
    assert dv.engine(SQUARE.label, SQUARE.lhs, SQUARE.rhs)
    assert not dv.engine(FALSE.label, FALSE.lhs, FALSE.rhs)
    assert not dv.check("a later failing check", False, "mismatch")
    ev = dv.evidence("statement", "every n")
    assert ev.verdict is Verdict.UNDECIDED, ev.summary
    assert f"a link fails: {FALSE.label}" in ev.summary
    assert "a later failing check" not in ev.summary


@pytest.mark.parametrize("lemma", [_lemma(Verdict.PROVED, "bounded"), _lemma(Verdict.PROVED, None),
                                   _lemma(Verdict.UNDECIDED, None)],
                         ids=["bounded", "no scope", "undecided"])
def test_cite_of_a_lemma_not_proved_in_general_fails_the_chain(lemma: Evidence) -> None:
    dv = Derivation()
    assert not dv.cite("the lemma at 3x3", lemma)
    assert dv.engine(SQUARE.label, SQUARE.lhs, SQUARE.rhs)
    ev = dv.evidence("chain", "any D")
    assert ev.verdict is Verdict.UNDECIDED and "the lemma at 3x3" in ev.summary
    blocked = requires(lemma, "the lemma", part="q")
    assert blocked is not None and blocked.verdict is Verdict.UNDECIDED
    assert blocked.part == "q" and blocked.summary.startswith("the lemma not proved in general")


def test_requires_lets_a_general_lemma_through() -> None:
    assert requires(_lemma(Verdict.PROVED, "general"), "the lemma", part="q") is None


def test_rewrite_compares_up_to_bound_variable_names_only() -> None:
    dv = Derivation()
    assert dv.rewrite("renamed", sp.Sum(f[k], (k, 0, n)), sp.Sum(f[j], (j, 0, n)))
    assert not dv.rewrite("other bounds", sp.Sum(f[k], (k, 0, n)), sp.Sum(f[j], (j, 1, n)))
    assert not dv.rewrite("other summand", sp.Sum(f[k], (k, 0, n)), sp.Sum(f[j + 1], (j, 0, n)))
    # equal values are not enough: a rewrite link compares SymPy objects
    assert not dv.rewrite("expanded", (x + 1) ** 2, x**2 + 2 * x + 1)
    assert dv.evidence("s", "g").verdict is Verdict.UNDECIDED


def test_hypothesis_whose_pattern_was_not_found_fails() -> None:
    dv = Derivation()
    assert not dv.hypothesis("G^T G = I", sp.Trace(A), sp.Trace(A), applied=False)
    ev = dv.evidence("s", "g")
    assert ev.verdict is Verdict.UNDECIDED and "pattern not found" in ev.summary

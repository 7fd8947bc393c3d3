"""The second route (verify.symbolic.confirm): explicit sums, points on the cuts, and what it
does to a PROVED or a REFUTED of prove_equal."""

from __future__ import annotations

import sympy as sp

from verify import Verdict
from verify.symbolic import prove_equal, unsound
from verify.symbolic.confirm import confirm_proved, confirm_witness, expand_explicit

i, j = sp.symbols("i j", integer=True)
N = sp.Symbol("N", integer=True, positive=True)
x = sp.IndexedBase("x")


def test_expand_explicit_writes_sums_out_and_evaluates_deltas() -> None:
    S = sp.Sum(sp.KroneckerDelta(i, 2 * j) * x[j], (j, 1, 2))
    assert expand_explicit(S) == sp.KroneckerDelta(i, 2) * x[1] + sp.KroneckerDelta(i, 4) * x[2]
    assert expand_explicit(S.xreplace({i: 3})) == 0
    # Karr's convention for a reversed range, as SymPy's
    k = sp.Symbol("k", integer=True)
    assert expand_explicit(sp.Sum(k, (k, 3, 1))) == sp.Sum(k, (k, 3, 1)).doit() == -2
    assert expand_explicit(sp.Product(k, (k, 1, 4))) == 24


def test_a_wrong_rung_is_caught_by_the_explicit_route(monkeypatch) -> None:
    """With the neutralisation switched off, the piecewise rung 'proves' the stride sum
    equals the unguarded formula (SymPy's wrong delta summation); the explicit route finds
    i = 3, where the right side reads x[3/2], and the verdict is UNDECIDED naming the rung."""
    monkeypatch.setattr(unsound, "mask", lambda e: (e, []))
    lhs = sp.Sum(sp.KroneckerDelta(i, 2 * j) * x[j], (j, 1, N))
    rhs = sp.Piecewise((x[i / 2], (i >= 2) & (i <= 2 * N)), (0, True))
    ev = prove_equal(lhs, rhs, timeout=20)
    assert ev.verdict is Verdict.UNDECIDED, ev.summary
    assert "routes disagree" in ev.summary and "piecewise" in ev.summary
    assert "x[3/2]" in ev.summary or "x[5/2]" in ev.summary or "x[7/2]" in ev.summary
    assert ev.numbers["disagreement_point"]


def test_confirmation_contradicts_a_false_identity() -> None:
    c = confirm_proved(sp.sin(2 * sp.Symbol("t")), 2 * sp.sin(sp.Symbol("t")), [],
                       rung="a fake rung")
    assert c.status == "contradicted" and "a fake rung" in c.disagreement


def test_confirmation_uses_negative_reals_and_branch_cuts() -> None:
    """sqrt(t^2) = t is true for t > 0 only: at t = -1/2 (tried first) the route disagrees."""
    t = sp.Symbol("t", real=True)
    c = confirm_proved(sp.sqrt(t ** 2), t, [], rung="r")
    assert c.status == "contradicted"
    w = sp.Symbol("w")
    c = confirm_proved(sp.log(w ** 2), 2 * sp.log(w), [], rung="r")
    assert c.status == "contradicted"


def test_true_identities_are_confirmed() -> None:
    t = sp.Symbol("t")
    assert confirm_proved(sp.sin(t) ** 2 + sp.cos(t) ** 2, sp.Integer(1), [], rung="r").status \
        == "confirmed"
    k = sp.Symbol("k", integer=True)
    n = sp.Symbol("n", integer=True, positive=True)
    c = confirm_proved(sp.Sum(k, (k, 1, n)), n * (n + 1) / 2, [n], rung="r")
    assert c.status == "confirmed" and c.compared >= 3
    A, B = sp.MatrixSymbol("A", n, n), sp.MatrixSymbol("B", n, n)
    c = confirm_proved((A * B).T, B.T * A.T, [n], rung="r")
    assert c.status == "confirmed"
    c = confirm_proved((A * B).T, A.T * B.T, [n], rung="r")
    assert c.status == "contradicted"  # fails at n = 2


def test_proved_summary_records_the_confirmation() -> None:
    t = sp.Symbol("t", real=True)
    ev = prove_equal(sp.sin(2 * t), 2 * sp.sin(t) * sp.cos(t))
    assert ev.verdict is Verdict.PROVED and "confirmed by explicit evaluation" in ev.summary
    assert any(s.startswith("second route") for s in ev.steps)


def test_a_witness_at_a_non_integer_index_is_no_witness() -> None:
    lhs = sp.Sum(sp.KroneckerDelta(i, 2 * j) * x[j], (j, 1, N))
    rhs = sp.Piecewise((x[i / 2], (i >= 2) & (i <= 2 * N)), (0, True))
    ok, why = confirm_witness(lhs, rhs, {"point": {"i": "3", "N": "2", "x[i/2]": "1/2"}})
    assert not ok and "x[3/2]" in why
    ok, why = confirm_witness(sp.Sum(x[j], (j, 1, N)), x[1],
                              {"point": {"N": "2", "x[1]": "1", "x[2]": "1"}})
    assert ok, why


def test_a_refutation_is_re_checked_by_the_explicit_route() -> None:
    k = sp.Symbol("k", integer=True)
    n = sp.Symbol("n", integer=True, positive=True)
    ev = prove_equal(sp.Sum(k ** 3, (k, 1, n)), n ** 2 * (n + 1) ** 2 / 2)
    assert ev.verdict is Verdict.REFUTED
    assert any("second route: the witness re-evaluated" in s for s in ev.steps)


def test_prover_sets_general_scope_itself() -> None:
    """A symbolic identity with no size parameter proved is general; one
    at a concrete size (explicit matrix, numeric sum limits) is not."""
    t = sp.Symbol("t")
    assert prove_equal(sp.cosh(t) ** 2 - sp.sinh(t) ** 2, 1).scope == "general"
    assert prove_equal(sp.Matrix([t, t]), sp.Matrix([t, t]) * 1).scope is None
    assert prove_equal(sp.Sum(x[j], (j, 1, 3)), x[1] + x[2] + x[3]).scope is None

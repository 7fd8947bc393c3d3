"""The engine's shared evidence helpers: each rule reaches every verdict it names."""

from __future__ import annotations

import sympy as sp

from verify import Evidence, Verdict
from verify.combine import scope_of
from verify.numeric import fit_rate, judge_check, judge_error
from verify.symbolic import prove_cases, refute_exactly

x, y = sp.symbols("x y", real=True)


def test_prove_cases_proves_every_case_and_keeps_the_scope_given() -> None:
    ev = prove_cases([("n=1", (x + 1) ** 2, x**2 + 2 * x + 1), ("n=2", x * y, y * x)],
                     generality="n in {1, 2}")
    assert ev.verdict is Verdict.PROVED and ev.scope == "bounded"
    assert "n in {1, 2}" in ev.summary
    general = prove_cases([("only", x, x)], generality="all x", scope="general")
    assert general.scope == "general"


def test_prove_cases_returns_the_refuted_case_with_its_witness() -> None:
    ev = prove_cases([("ok", x, x), ("typo", (x + 1) ** 2, x**2 + 1)], generality="two cases")
    assert ev.verdict is Verdict.REFUTED
    assert ev.summary.startswith("typo:") and ev.counterexample


def test_refute_exactly_needs_an_exact_nonzero_difference() -> None:
    ev = refute_exactly("coefficient", {"x": 1}, lhs=sp.Rational(1, 720), rhs=-sp.Rational(1, 720))
    assert ev.verdict is Verdict.REFUTED and ev.counterexample["difference"] == "1/360"
    same = refute_exactly("not a witness", {"x": 2}, lhs=sp.sqrt(8), rhs=2 * sp.sqrt(2))
    assert same.verdict is Verdict.UNDECIDED
    floats = refute_exactly("float", {"x": 0.1}, lhs=sp.Float(0.1), rhs=sp.Rational(1, 10))
    assert floats.verdict is Verdict.UNDECIDED


def test_judge_error_reaches_all_three_verdicts() -> None:
    assert judge_error(1e-14, "ok", tol=1e-12, fail=1e-6).verdict is Verdict.SUPPORTED
    bad = judge_error(0.5, "bad", tol=1e-12, fail=1e-6, counterexample={"n": 3})
    assert bad.verdict is Verdict.REFUTED and bad.counterexample["rel_error"] == 0.5
    assert judge_error(1e-9, "grey", tol=1e-12, fail=1e-6).verdict is Verdict.UNDECIDED
    assert judge_error(0.5, "no witness", tol=1e-12, fail=1e-6).verdict is Verdict.UNDECIDED
    assert judge_error(float("nan"), "nan", tol=1e-12, fail=1e-6).verdict is Verdict.UNDECIDED


def test_judge_check_refutes_only_with_a_counterexample() -> None:
    assert judge_check(True, "all rows").verdict is Verdict.SUPPORTED
    assert judge_check(False, "row 3", counterexample={"row": 3}).verdict is Verdict.REFUTED
    assert judge_check(False, "lost it").verdict is Verdict.UNDECIDED


def test_rate_rule_supports_only_a_narrow_interval() -> None:
    xs = [2.0**k for k in range(2, 12)]
    exact = fit_rate(xs, [v**-2 for v in xs])
    assert exact.evidence(-2.0).verdict is Verdict.SUPPORTED
    assert exact.evidence(-1.0).verdict is Verdict.REFUTED
    noisy_y = [v**-0.5 * (3.0 if i % 2 else 1 / 3.0) for i, v in enumerate(xs[:4])]
    wide = fit_rate(xs[:4], noisy_y)
    lo, hi = wide.ci
    assert lo < -0.5 < hi and hi - lo > 0.5
    ev = wide.evidence(-0.5)
    assert ev.verdict is Verdict.UNDECIDED and "interval too wide" in ev.summary


def test_scope_of_a_reading_is_general_only_when_every_part_is() -> None:
    def proved(part: str, scope: str | None) -> Evidence:
        return Evidence(Verdict.PROVED, "zero", method="symbolic", part=part, scope=scope)

    assert scope_of([proved("a", "general"), proved("b", "general")]) == "general"
    assert scope_of([proved("a", "general"), proved("b", "bounded")]) == "bounded"
    assert scope_of([proved("a", None)]) == "bounded"
    assert scope_of([Evidence(Verdict.SUPPORTED, "ok")]) is None


def test_a_certificate_has_a_scope_too() -> None:
    """A certificate is computed for one numeric instance: CERTIFIED at that instance reads
    ``bounded`` (as a proof at listed sizes does), ``general`` only when the claim says so."""
    from verify.headline import label

    def certified(scope: str | None) -> Evidence:
        return Evidence(Verdict.CERTIFIED, "opt = 4 on the Petersen graph", method="certificate",
                        scope=scope)

    assert scope_of([certified(None)]) == "bounded"
    assert scope_of([certified("general")]) == "general"
    assert label(Verdict.CERTIFIED, scope_of([certified(None)])) == "CERTIFIED (bounded)"
    assert label(Verdict.CERTIFIED, "general") == "CERTIFIED"

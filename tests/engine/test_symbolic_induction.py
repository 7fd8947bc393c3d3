"""The induction rung: identities in a symbolic n proved for every n >= n0.

Route A (summand free of n: telescoping step plus an explicit base case), route B (summand
hypergeometric in n and k: a Zeilberger recurrence verified exactly, boundary terms written
out, initial values as explicit sums), and the soundness edges: near-misses, poles inside
the range, boundary terms past the upper limit, a closed form that satisfies the recurrence
with the wrong initial value.
"""

from __future__ import annotations

import pytest
import sympy as sp

from verify import Verdict
from verify.combine import audit
from verify.symbolic import prove_by_induction, prove_equal
from verify.symbolic.induction import Domain, explicit_at, zeilberger, zero_on_domain
from verify.symbolic.ladder import NotApplicable

n = sp.Symbol("n", integer=True, positive=True)
k = sp.Symbol("k", integer=True)
x = sp.Symbol("x")

GENERAL = "all integers n >= 1 (induction)"

TRUE_IDENTITIES = {
    "sum k C(n,k) = n 2^(n-1)": (sp.Sum(k * sp.binomial(n, k), (k, 0, n)), n * 2 ** (n - 1)),
    "prod (1 + 1/k) = n + 1": (sp.Product(1 + 1 / k, (k, 1, n)), n + 1),
    "sum C(n,k)^2 = C(2n,n)": (sp.Sum(sp.binomial(n, k) ** 2, (k, 0, n)), sp.binomial(2 * n, n)),
    "sum 1/(k(k+1)) = n/(n+1)": (sp.Sum(1 / (k * (k + 1)), (k, 1, n)), n / (n + 1)),
    "sum k^3 = (n(n+1)/2)^2": (sp.Sum(k**3, (k, 1, n)), (n * (n + 1) / 2) ** 2),
}

NEAR_MISSES = {
    "sum 1/(k(k+1)) = (n+1)/(n+2)": (sp.Sum(1 / (k * (k + 1)), (k, 1, n)), (n + 1) / (n + 2)),
    "sum k C(n,k) = n 2^n": (sp.Sum(k * sp.binomial(n, k), (k, 0, n)), n * 2**n),
    # the right recurrence (or step) with the wrong initial value: only the base case decides
    "sum C(n,k)^2 = 2 C(2n,n)": (sp.Sum(sp.binomial(n, k) ** 2, (k, 0, n)),
                                 2 * sp.binomial(2 * n, n)),
    "sum 1/(k(k+1)) = n/(n+1) + 1": (sp.Sum(1 / (k * (k + 1)), (k, 1, n)), n / (n + 1) + 1),
    "prod (1 + 1/k) = 2n": (sp.Product(1 + 1 / k, (k, 1, n)), 2 * n),
}


@pytest.mark.parametrize("name", list(TRUE_IDENTITIES))
def test_the_rung_proves_each_identity_for_every_n(name: str) -> None:
    lhs, rhs = TRUE_IDENTITIES[name]
    proof = prove_by_induction(lhs, rhs)
    assert proof.start == 1 and proof.generality == GENERAL
    assert any("induction base" in s for s in proof.steps)


@pytest.mark.parametrize("name", [k for k in TRUE_IDENTITIES if "k^3" not in k])
def test_prove_equal_reports_the_induction_proof_as_general(name: str) -> None:
    lhs, rhs = TRUE_IDENTITIES[name]
    ev = prove_equal(lhs, rhs, timeout=60)
    assert ev.verdict is Verdict.PROVED, ev.steps
    assert ev.scope == "general" and ev.generality == GENERAL
    assert "induction" in ev.summary
    assert audit(ev) is ev


@pytest.mark.parametrize("name", list(NEAR_MISSES))
def test_near_misses_are_never_proved(name: str) -> None:
    lhs, rhs = NEAR_MISSES[name]
    with pytest.raises(NotApplicable):
        prove_by_induction(lhs, rhs)
    ev = prove_equal(lhs, rhs, timeout=60)
    assert ev.verdict is not Verdict.PROVED
    assert ev.verdict is Verdict.REFUTED  # a concrete n where the explicit sums differ


def test_a_wrong_initial_value_fails_on_the_base_case() -> None:
    lhs, rhs = NEAR_MISSES["sum C(n,k)^2 = 2 C(2n,n)"]
    with pytest.raises(NotApplicable, match="base case"):
        prove_by_induction(lhs, rhs)


def test_no_sum_doit_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(self, **hints):
        raise AssertionError("Sum/Product.doit called")

    monkeypatch.setattr(sp.Sum, "doit", refuse)
    monkeypatch.setattr(sp.Product, "doit", refuse)
    for lhs, rhs in TRUE_IDENTITIES.values():
        assert prove_by_induction(lhs, rhs).generality == GENERAL


def test_a_pole_inside_the_range_is_not_applicable() -> None:
    # 1/((k-3)(k-2)) telescopes to -1/2 - 1/(n-2): the step is a rational identity and the
    # base n = 1 holds, but the summand is undefined at k = 2, 3
    lhs = sp.Sum(1 / ((k - 3) * (k - 2)), (k, 1, n))
    rhs = sp.Rational(-1, 2) - 1 / (n - 2)
    assert sp.cancel((rhs - rhs.subs(n, n - 1)) - lhs.function.subs(k, n)) == 0
    with pytest.raises(NotApplicable):
        prove_by_induction(lhs, rhs)


def test_terms_past_the_upper_limit_are_accounted_for() -> None:
    # binomial(n, n+1) = 0: the sum to n+1 equals the sum to n; to n-1 it misses C(n, n) = 1
    assert prove_by_induction(sp.Sum(sp.binomial(n, k), (k, 0, n + 1)), 2**n).start == 1
    short = sp.Sum(sp.binomial(n, k), (k, 0, n - 1))
    assert prove_by_induction(short, 2**n - 1).start == 1
    with pytest.raises(NotApplicable):
        prove_by_induction(short, 2**n)


def test_other_sequences_in_both_routes() -> None:
    assert prove_by_induction(sp.Sum(k * sp.factorial(k), (k, 1, n)),
                              sp.factorial(n + 1) - 1).start == 1
    assert prove_by_induction(sp.Sum(x**k, (k, 0, n)), (x ** (n + 1) - 1) / (x - 1)).start == 1
    assert prove_by_induction(sp.Sum(sp.binomial(n, k), (k, 0, n)), 2**n).start == 1
    m = sp.Symbol("m", integer=True, nonnegative=True)
    assert prove_by_induction(sp.Sum(2 * k + 1, (k, 0, m)), (m + 1) ** 2).start == 0


def test_the_size_symbol_must_be_a_declared_positive_integer() -> None:
    free = sp.Symbol("n")
    with pytest.raises(NotApplicable, match="integer"):
        prove_by_induction(sp.Sum(k, (k, 1, free)), free * (free + 1) / 2)


def test_zeilberger_finds_the_known_recurrence() -> None:
    rec = zeilberger(sp.binomial(n, k) ** 2, n, k)
    a0, a1 = rec.a
    assert sp.cancel(a0 / a1 + 2 * (2 * n + 1) / (n + 1)) == 0  # (n+1) S(n+1) = 2(2n+1) S(n)


def test_zero_on_domain_respects_the_boundary_of_the_range() -> None:
    j = sp.Symbol("j", integer=True)
    absorb = sp.binomial(n + 1, j) - (n + 1) / (n + 1 - j) * sp.binomial(n, j)
    assert zero_on_domain(absorb, Domain(n, 1, j, 0, 0))  # 0 <= j <= n
    with pytest.raises(NotApplicable, match="vanish"):
        zero_on_domain(absorb, Domain(n, 1, j, 0, 1))  # j = n + 1 divides by zero
    # binomial(n, j) = 0 past j = n is kept exact by the 1/gamma normalisation
    assert zero_on_domain(sp.binomial(n, j) - sp.binomial(n, n - j), Domain(n, 1, j, 0, 3))
    assert not zero_on_domain(sp.binomial(n, j) - sp.binomial(n, j + 1), Domain(n, 1, j, 0, 0))


def test_explicit_evaluation_writes_out_the_terms() -> None:
    assert explicit_at(sp.Sum(k * sp.binomial(n, k), (k, 0, n)), n, 3) == 12
    assert explicit_at(sp.Product(1 + 1 / k, (k, 1, n)), n, 4) == 5
    assert explicit_at(sp.Sum(k, (k, 1, n)), n, 0) == 0  # the empty range


MORE_TRUE = {
    "sum C(n,k) x^k = (1+x)^n": (sp.Sum(sp.binomial(n, k) * x**k, (k, 0, n)), (1 + x) ** n),
    "sum (-1)^k C(n,k) = 0": (sp.Sum((-1) ** k * sp.binomial(n, k), (k, 0, n)), 0),
    "sum k^2 C(n,k) = n(n+1)2^(n-2)": (sp.Sum(k**2 * sp.binomial(n, k), (k, 0, n)),
                                       n * (n + 1) * 2 ** (n - 2)),
    "sum_{k=1}^{n-1} k = n(n-1)/2 (empty at n = 1)": (sp.Sum(k, (k, 1, n - 1)), n * (n - 1) / 2),
    "sum_{k=1}^{2n} k = n(2n+1)": (sp.Sum(k, (k, 1, 2 * n)), n * (2 * n + 1)),
    "prod 2k = 2^n n!": (sp.Product(2 * k, (k, 1, n)), 2**n * sp.factorial(n)),
    "telescoping a_{k+1} - a_k": (sp.Sum(sp.IndexedBase("a")[k + 1] - sp.IndexedBase("a")[k],
                                         (k, 1, n)),
                                  sp.IndexedBase("a")[n + 1] - sp.IndexedBase("a")[1]),
}


@pytest.mark.parametrize("name", list(MORE_TRUE))
def test_more_identities_are_proved_and_agree_with_explicit_sums(name: str) -> None:
    lhs, rhs = MORE_TRUE[name]
    assert prove_by_induction(lhs, rhs).generality == GENERAL
    # the truth, checked independently of the proof: explicit finite sums at n = 1..10
    for value in range(1, 11):
        assert sp.simplify(explicit_at(lhs - rhs, n, value)) == 0


def test_a_claim_false_only_from_n_4_on_is_not_proved() -> None:
    # agrees with the true C(2n, n) at n = 1, 2, 3: the recurrence check must catch it
    lhs = sp.Sum(sp.binomial(n, k) ** 2, (k, 0, n))
    rhs = sp.binomial(2 * n, n) + (n - 1) * (n - 2) * (n - 3)
    assert explicit_at(lhs - rhs, n, 4) != 0
    with pytest.raises(NotApplicable, match="recurrence"):
        prove_by_induction(lhs, rhs)


def test_functions_outside_the_fragment_are_not_applicable() -> None:
    with pytest.raises(NotApplicable, match="harmonic"):
        prove_by_induction(sp.Sum(1 / k, (k, 1, n)), sp.harmonic(n))
    with pytest.raises(NotApplicable, match="KroneckerDelta"):
        prove_by_induction(sp.Sum(2**k, (k, 0, n)), 2 ** (n + 1) - 1 + sp.KroneckerDelta(n, 7))

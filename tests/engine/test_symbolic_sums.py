"""verify.symbolic.sums: alpha-equivalence of flat sums."""

from __future__ import annotations

import pytest
import sympy as sp

from verify.symbolic import bound_variables_renamed

n = sp.Symbol("n", integer=True, positive=True)
k, j = sp.symbols("k j", integer=True)
f = sp.IndexedBase("f")


def test_sums_differing_only_in_the_bound_name_become_equal() -> None:
    assert sp.Sum(f[k], (k, 1, n)) != sp.Sum(f[j], (j, 1, n))
    renamed = bound_variables_renamed
    assert renamed(sp.Sum(f[k], (k, 1, n))) == renamed(sp.Sum(f[j], (j, 1, n)))


def test_bounds_free_indices_and_limit_order_are_kept() -> None:
    renamed = bound_variables_renamed
    assert renamed(sp.Sum(f[k], (k, 1, n))) != renamed(sp.Sum(f[k], (k, 0, n)))
    # a free index stays free: sum_k f[k, j] and sum_j f[j, j] are different sums
    assert renamed(sp.Sum(f[k, j], (k, 1, n))) != renamed(sp.Sum(f[j, j], (j, 1, n)))
    # no exchange of sums: f[k, j] summed k inside j is not f[j, k] summed k inside j
    assert (bound_variables_renamed(sp.Sum(f[k, j], (k, 1, n), (j, 1, n)))
            != bound_variables_renamed(sp.Sum(f[j, k], (k, 1, n), (j, 1, n))))


def test_nested_sums_are_refused_with_the_sum_quoted() -> None:
    with pytest.raises(ValueError, match=r"nested.*Sum\("):
        bound_variables_renamed(sp.Sum(sp.Sum(f[k, j], (k, 1, j)) ** 2, (j, 1, n)))


def test_a_normalised_softmax_sums_to_one_with_a_symbolic_length() -> None:
    s, l_ = sp.IndexedBase("s"), sp.Symbol("l", integer=True)
    total = sp.Sum(sp.exp(s[k]) / sp.Sum(sp.exp(s[l_]), (l_, 1, n)), (k, 1, n))
    normal = bound_variables_renamed(sp.factor_terms(total))
    assert normal == 1

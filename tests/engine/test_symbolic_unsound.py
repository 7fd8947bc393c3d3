"""Known-unsound SymPy rewrites (verify.symbolic.unsound): one test per entry that SymPy still
gets it wrong (if SymPy is fixed, the entry is re-vetted), and tests that the prover
neutralises each kind: no PROVED and no REFUTED built on the wrong rewrite."""

from __future__ import annotations

import pytest
import sympy as sp

from verify import Verdict
from verify.symbolic import prove_equal, unsound
from verify.symbolic.unsound import ENTRIES, Entry

i, j = sp.symbols("i j", integer=True)
N = sp.Symbol("N", integer=True, positive=True)
x = sp.IndexedBase("x")
xr = sp.Symbol("xr", real=True)
z = sp.Symbol("z")


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.key)
def test_sympy_still_gets_the_entry_wrong(entry: Entry) -> None:
    got, true = entry.wrong()
    if isinstance(got, set):
        assert got != true
        return
    diff = sp.N(sp.sympify(got) - sp.sympify(true), 30)
    assert not diff.is_number or abs(diff) > 1e-10 or diff.has(sp.Indexed), (got, true)


def _stride(c: int = 2, b: int = 0) -> sp.Expr:
    return sp.Sum(sp.KroneckerDelta(i, c * j + b) * x[j], (j, 1, N))


def _unguarded(c: int = 2, b: int = 0) -> sp.Expr:
    return sp.Piecewise((x[(i - b) / c], (i >= c + b) & (i <= c * N + b)), (0, True))


@pytest.mark.slow
def test_stride_sum_is_not_proved_against_the_unguarded_formula() -> None:
    """delta-sum-stride: SymPy's doit makes the two sides identical; false at i = 3."""
    ev = prove_equal(_stride(), _unguarded(), timeout=20)
    assert ev.verdict is not Verdict.PROVED, ev.summary
    assert any("delta-sum-stride" in s for s in ev.steps)


@pytest.mark.slow
def test_stride3_offset_sum_is_not_proved() -> None:
    """delta-sum-stride-offset: false at i = 5 (3j + 1 = 5 has no integer j)."""
    ev = prove_equal(_stride(3, 1), _unguarded(3, 1), timeout=20)
    assert ev.verdict is not Verdict.PROVED, ev.summary


@pytest.mark.slow
def test_stride_product_is_not_proved() -> None:
    """delta-product-stride."""
    lhs = sp.Product(1 + sp.KroneckerDelta(i, 2 * j) * x[j], (j, 1, N))
    ev = prove_equal(lhs, 1 + _unguarded(), timeout=20)
    assert ev.verdict is not Verdict.PROVED, ev.summary


@pytest.mark.slow
def test_guarded_formula_and_upsampling_are_never_refuted() -> None:
    """The true, parity-guarded formula and "up-sampling keeps the sum" are never REFUTED: a
    point where an index is not an integer (x[3/2]) is no witness. The up-sampled sum is
    proved at concrete sizes by writing the sums out."""
    guarded = sp.Piecewise((x[i / 2], (i >= 2) & (i <= 2 * N) & sp.Eq(sp.Mod(i, 2), 0)),
                           (0, True))
    ev = prove_equal(_stride(), guarded, timeout=20)
    assert ev.verdict is not Verdict.REFUTED, ev.summary
    up = prove_equal(sp.Sum(_stride(), (i, 1, 2 * N)), sp.Sum(x[j], (j, 1, N)), timeout=20)
    assert up.verdict is Verdict.PROVED and up.scope == "bounded", up.summary
    assert "confirmed by explicit evaluation" in up.summary


def test_piecewise_delta_sum_is_masked() -> None:
    """delta-piecewise-sum (sympy/sympy#27359): the sum is kept opaque for the rungs."""
    n = sp.Symbol("n", integer=True, positive=True)
    U = sp.Sum(sp.Piecewise((sp.KroneckerDelta(i, j, (1, n)), x[i] > 0), (0, True)), (i, 1, n))
    masked, keys = unsound.mask(U + 1)
    assert keys == ["delta-piecewise-sum"] and not masked.has(sp.Sum)


def test_mask_takes_the_enclosing_sum_too() -> None:
    """An opaque symbol must not stand inside a sum over a variable it depends on."""
    outer = sp.Sum(_stride(), (i, 1, 2 * N))
    masked, _ = unsound.mask(outer - sp.Sum(x[j], (j, 1, N)))
    assert not any(b.has(sp.KroneckerDelta) for b in masked.atoms(sp.Sum))


CONJ = [
    ("conjugate-loggamma", sp.loggamma),
    ("conjugate-li", sp.li),
    ("conjugate-uppergamma", lambda t: sp.uppergamma(sp.Rational(1, 3), t)),
    ("conjugate-lowergamma", lambda t: sp.lowergamma(sp.Rational(1, 3), t)),
    ("conjugate-legendre", lambda t: sp.legendre(sp.Rational(1, 2), t)),
    ("conjugate-assoc-legendre", lambda t: sp.assoc_legendre(sp.Rational(1, 2), 1, t)),
    ("conjugate-chebyshevt", lambda t: sp.chebyshevt(sp.Rational(1, 2), t)),
    ("conjugate-chebyshevu", lambda t: sp.chebyshevu(sp.Rational(1, 2), t)),
]


@pytest.mark.parametrize("key,f", CONJ, ids=[k for k, _ in CONJ])
def test_conjugate_rewrite_gives_no_verdict(key: str, f) -> None:
    """conjugate(f(x)) = f(x) for real x: SymPy builds both sides identical; the prover says
    so ("identical as constructed"), names the entry and gives no verdict. The complex form
    (f applied to conjugate(z)) likewise."""
    ev = prove_equal(sp.conjugate(f(xr)), f(xr), timeout=10)
    assert ev.verdict is Verdict.UNDECIDED, ev.summary
    assert "identical as constructed" in ev.summary and key in ev.summary
    assert any(s.startswith("as received") for s in ev.steps)
    ev = prove_equal(sp.conjugate(f(z)), f(sp.conjugate(z)), timeout=10)
    assert ev.verdict is Verdict.UNDECIDED and key in ev.summary, ev.summary


def test_conjugate_off_the_cut_is_still_proved() -> None:
    """loggamma of a positive argument has no cut: no fingerprint, so still PROVED."""
    p = sp.Symbol("p", positive=True)
    ev = prove_equal(sp.conjugate(sp.loggamma(p)), sp.loggamma(p), timeout=10)
    assert ev.verdict is Verdict.PROVED and "identical as constructed" in ev.summary
    ev = prove_equal(sp.legendre(3, xr) + 1, 1 + sp.legendre(3, xr), timeout=10)
    assert ev.verdict is Verdict.PROVED  # integer degree: a polynomial, no cut


def test_identical_sides_say_so() -> None:
    """A claim whose sides are identical as received says so, with both sides in the steps."""
    y = sp.Symbol("y")
    ev = prove_equal(y + 1, 1 + y)
    assert ev.verdict is Verdict.PROVED and "identical as constructed" in ev.summary
    assert any("as received" in s for s in ev.steps)


def test_an_unevaluated_conjugate_is_not_trusted_either() -> None:
    """conjugate(loggamma(z), evaluate=False): a rung rebuilding it would make the rewrite."""
    lhs = sp.conjugate(sp.loggamma(xr), evaluate=False)
    assert isinstance(lhs, sp.conjugate)
    ev = prove_equal(lhs, sp.loggamma(xr), timeout=10)
    assert ev.verdict is Verdict.UNDECIDED and "conjugate-loggamma" in ev.summary

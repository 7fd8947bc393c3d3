"""prove_equal / prove_for_sizes: verdict rules, assumptions, determinism, time guards."""

from __future__ import annotations

import threading
import time

import pytest
import sympy as sp

from verify import Verdict
from verify.combine import audit
from verify.symbolic import prove_equal, prove_for_sizes
from verify.symbolic.witness import compare

x, y = sp.symbols("x y")
xr = sp.Symbol("xr", real=True)


def test_proof_records_steps_and_generality() -> None:
    ev = prove_equal(sp.sin(3 * x), 3 * sp.sin(x) - 4 * sp.sin(x) ** 3)
    assert ev.verdict is Verdict.PROVED and ev.method == "symbolic"
    assert ev.generality == "symbolic"
    assert any("exact zero" in s for s in ev.steps)
    assert audit(ev) is ev  # passes the combination rule's audit unchanged


def test_refutation_carries_a_reproducible_point() -> None:
    ev = prove_equal((x + y) ** 2, x ** 2 + y ** 2)
    assert ev.verdict is Verdict.REFUTED
    cex = ev.counterexample
    pt = {sp.Symbol(k): sp.Rational(v) for k, v in cex["point"].items()}
    assert ((x + y) ** 2 - x ** 2 - y ** 2).xreplace(pt) != 0
    assert sp.Rational(cex["lhs"]) - sp.Rational(cex["rhs"]) == sp.Rational(cex["difference"])
    assert audit(ev) is ev


def test_witness_search_is_deterministic_in_the_seed() -> None:
    a = prove_equal(sp.exp(x + y), sp.exp(x) + sp.exp(y), seed=3)
    b = prove_equal(sp.exp(x + y), sp.exp(x) + sp.exp(y), seed=3)
    assert a.verdict is Verdict.REFUTED and a.counterexample == b.counterexample


@pytest.mark.parametrize(
    "assumptions",
    [
        "positive",
        {"x": "positive", "y": "positive"},
        [sp.Q.positive(x), sp.Q.positive(y)],
    ],
)
def test_assumption_forms_enable_log_rules(assumptions) -> None:
    ev = prove_equal(sp.log(x * y), sp.log(x) + sp.log(y), assumptions=assumptions)
    assert ev.verdict is Verdict.PROVED, ev.steps


def test_without_assumptions_log_rule_is_refuted_at_a_valid_point() -> None:
    ev = prove_equal(sp.log(x * y), sp.log(x) + sp.log(y))
    assert ev.verdict is Verdict.REFUTED
    assert "mpmath" in ev.counterexample["check"]


def test_half_assumed_log_rule_is_never_refuted() -> None:
    # log(x y) = log x + log y holds for x > 0 and every complex y: must not be REFUTED.
    ev = prove_equal(sp.log(x * y), sp.log(x) + sp.log(y), assumptions={x: "positive"}, points=40)
    assert ev.verdict is not Verdict.REFUTED


def test_witnesses_respect_assumptions() -> None:
    assert prove_equal(sp.sqrt(x ** 2), x, assumptions="positive").verdict is Verdict.PROVED
    ev = prove_equal(sp.sqrt(x ** 2), x, assumptions="real")
    assert ev.verdict is Verdict.REFUTED
    assert sp.Rational(ev.counterexample["point"]["x"]) < 0
    n = sp.Symbol("n", integer=True, positive=True)
    ev = prove_equal(sp.cos(sp.pi * n), 1)
    assert ev.verdict is Verdict.REFUTED
    assert sp.Integer(ev.counterexample["point"]["n"]) % 2 == 1


def test_floats_are_made_exact_and_noted() -> None:
    ev = prove_equal(0.5 * x + 0.25 * x, sp.Rational(3, 4) * x)
    assert ev.verdict is Verdict.PROVED
    assert any("Floats replaced" in s for s in ev.steps)


def test_shape_mismatch_is_a_malformed_claim_not_a_refutation() -> None:
    """A shape mismatch is a clear UNDECIDED naming the shapes, never REFUTED."""
    ev = prove_equal(sp.Matrix([[x, y]]), sp.Matrix([[x], [y]]))
    assert ev.verdict is Verdict.UNDECIDED and "shape mismatch" in ev.summary
    ev = prove_equal(sp.Matrix([[x, y]]), x)
    assert ev.verdict is Verdict.UNDECIDED and "(1, 2)" in ev.summary


def test_one_by_one_matrix_is_compared_by_its_entry() -> None:
    """A 1x1 matrix against a scalar is the same statement as its entry against the scalar:
    the entry is compared (both ways round), never a shape mismatch."""
    assert prove_equal(sp.Matrix([[x + y]]), y + x).verdict is Verdict.PROVED
    assert prove_equal(x * (y + 1), sp.Matrix([[x * y + x]])).verdict is Verdict.PROVED
    ev = prove_equal(sp.Matrix([[x + y]]), x - y)
    assert ev.verdict is Verdict.REFUTED and "lhs_shape" not in ev.counterexample


def test_matrix_refutation_names_the_entry() -> None:
    ev = prove_equal(sp.Matrix([[x, 1], [0, y]]), sp.Matrix([[x, 1], [0, -y]]))
    assert ev.verdict is Verdict.REFUTED and ev.counterexample["entry"] == [1, 1]


def test_symbolic_size_vs_concrete_size_generality() -> None:
    n = sp.Symbol("n", integer=True, positive=True)
    A, B = sp.MatrixSymbol("A", n, n), sp.MatrixSymbol("B", n, n)
    ev = prove_equal((A * B).T, B.T * A.T)
    assert ev.verdict is Verdict.PROVED and "symbolic" in ev.generality
    N = sp.Symbol("N", integer=True, positive=True)
    i, j = sp.Idx("i"), sp.Idx("j")
    xs = sp.IndexedBase("x")
    lhs = sp.Sum(xs[i] * xs[j], (i, 0, N - 1), (j, 0, N - 1))
    rhs = sp.Sum(xs[i], (i, 0, N - 1)) ** 2
    ev = prove_equal(lhs, rhs, sizes={N: range(1, 4)})
    assert ev.verdict is Verdict.PROVED, ev.steps
    assert ev.generality in ("symbolic (N symbolic)", "N in {1, 2, 3}")


def test_true_only_for_n1_is_refuted_with_size() -> None:
    N = sp.Symbol("N", integer=True, positive=True)
    i = sp.Idx("i")
    xs = sp.IndexedBase("x", real=True)
    ev = prove_equal(sp.Sum(xs[i], (i, 0, N - 1)) ** 2, sp.Sum(xs[i] ** 2, (i, 0, N - 1)))
    assert ev.verdict is Verdict.REFUTED
    assert ev.counterexample["sizes"] == {"N": 2}


def test_prove_for_sizes_softmax_jacobian() -> None:
    def build(N: int):
        xs = sp.symbols(f"x0:{N}", real=True)
        den = sum(sp.exp(e) for e in xs)
        s = [sp.exp(e) / den for e in xs]
        J = sp.Matrix(N, N, lambda p, q: sp.diff(s[p], xs[q]))
        return J, sp.Matrix(N, N, lambda p, q: s[p] * (int(p == q) - s[q]))

    ev = prove_for_sizes(build, {"N": range(1, 4)})
    assert ev.verdict is Verdict.PROVED and ev.generality == "N in {1, 2, 3}"

    def wrong(N: int):
        J, F = build(N)
        doubled = sp.Matrix(N, N, lambda p, q: F[p, q] if p != q else F[p, q] * 2)
        return J, doubled  # diagonal doubled

    ev = prove_for_sizes(wrong, {"N": range(1, 4)})
    # at N = 1 the diagonal entry is 0 = 2 * 0, so the smallest failing size is N = 2
    assert ev.verdict is Verdict.REFUTED and ev.counterexample["sizes"] == {"N": 2}


def test_noncommutative_identity_refuted_with_matrices() -> None:
    X, Y = sp.symbols("X Y", commutative=False)
    assert prove_equal((X + Y) ** 2, X ** 2 + X * Y + Y * X + Y ** 2).verdict is Verdict.PROVED
    ev = prove_equal((X + Y) ** 2, X ** 2 + 2 * X * Y + Y ** 2)
    assert ev.verdict is Verdict.REFUTED and "3x3 matrices" in ev.counterexample["check"]


def _slow_pair():
    s = sp.symbols("a0:7")
    tot = sp.Add(*s)
    return tot ** 18, tot ** 17 * s[0] + tot ** 17 * sp.Add(*s[1:])


def test_timeout_is_undecided_and_on_time_main_thread() -> None:
    lhs, rhs = _slow_pair()
    t0 = time.perf_counter()
    ev = prove_equal(lhs, rhs, timeout=1.0)
    assert time.perf_counter() - t0 < 6
    assert ev.verdict in (Verdict.UNDECIDED, Verdict.PROVED)
    if ev.verdict is Verdict.UNDECIDED:
        assert "timeout" in ev.summary or "time guard" in " ".join(ev.steps)


def test_timeout_in_a_worker_thread_returns_on_time() -> None:
    lhs, rhs = _slow_pair()
    box = {}
    th = threading.Thread(target=lambda: box.setdefault("ev", prove_equal(lhs, rhs, timeout=1.0)),
                          daemon=True)
    t0 = time.perf_counter()
    th.start()
    th.join(20)
    assert not th.is_alive() and time.perf_counter() - t0 < 8
    assert box["ev"].verdict in (Verdict.UNDECIDED, Verdict.PROVED)


def test_compare_needs_confirmation_at_high_precision() -> None:
    # equal values written differently agree; a 1e-40 difference is still a confirmed difference
    assert compare(sp.sqrt(2) * sp.sqrt(3), sp.sqrt(6))[0] == "agree"
    assert compare(sp.pi, sp.pi + sp.Rational(1, 10 ** 20))[0] == "differ"
    # below resolution: no witness
    assert compare(sp.pi, sp.pi + sp.Rational(1, 10 ** 45))[0] != "differ"
    assert compare(sp.Integer(1) / 0, sp.Integer(1))[0] == "undefined"


def test_piecewise_case_analysis() -> None:
    t = sp.Symbol("t", real=True)
    k = sp.Symbol("k", integer=True)
    n = sp.Symbol("n", integer=True, positive=True)
    # SymPy's sum is Piecewise((n, Eq(t, 1)), (closed form, True)); the rhs is 0/0 at t = 1
    ev = prove_equal(sp.Sum(t ** k, (k, 0, n - 1)), (1 - t ** n) / (1 - t))
    assert ev.verdict is Verdict.PROVED and ev.generality.startswith("symbolic")
    assert prove_equal(sp.Max(xr, 0), (xr + sp.Abs(xr)) / 2).verdict is Verdict.PROVED
    assert prove_equal(sp.Max(xr, 0), (xr - sp.Abs(xr)) / 2).verdict is Verdict.REFUTED


# -- inputs that could give a wrong verdict or run past the timeout -------------------------


def test_noncommutative_exponentials_are_never_proved() -> None:
    # the formal-exponential rung's generators commute, so it must never see exp(X), exp(Y)
    # of noncommutative X, Y: there it would prove exp(X) exp(Y) = exp(X + Y)
    X, Y = sp.symbols("X Y", commutative=False)
    for lhs, rhs in [(sp.exp(X) * sp.exp(Y), sp.exp(X + Y)), (sp.exp(X) * Y, Y * sp.exp(X)),
                     (sp.sin(X) * sp.cos(Y), sp.cos(Y) * sp.sin(X))]:
        assert prove_equal(lhs, rhs, timeout=10).verdict is not Verdict.PROVED
    assert prove_equal((X + Y) ** 2, X ** 2 + X * Y + Y * X + Y ** 2).verdict is Verdict.PROVED


def test_bound_matrix_entries_are_not_witness_variables() -> None:
    # A[0, i] inside Sum(.., (i, 1, n - 1)) depends on the bound i: the witness search must
    # not draw one value for it, or this TRUE identity would be REFUTED
    n = sp.Symbol("n", integer=True, positive=True)
    i = sp.Symbol("i", integer=True)
    A, B = sp.MatrixSymbol("A", n, n), sp.MatrixSymbol("B", n, n)
    split = A[0, 0] * B[0, 0] + sp.Sum(A[0, i] * B[i, 0], (i, 1, n - 1))
    ev = prove_equal((A * B)[0, 0], split, timeout=20)
    assert ev.verdict is Verdict.PROVED, ev.summary
    from verify.symbolic.witness import search
    assert search((A * B)[0, 0], split, points=4).counterexample is None


def test_concrete_size_instantiation_respects_the_timeout() -> None:
    # the explicit 4x4 symbolic inverse at n = 4 takes minutes: its instantiation must run
    # inside the time guard
    n = sp.Symbol("n", integer=True, positive=True)
    A = sp.MatrixSymbol("A", n, n)
    t0 = time.perf_counter()
    ev = prove_equal(sp.Trace(A.I), sp.Trace(A.I.T), timeout=3)
    assert time.perf_counter() - t0 < 3 + 2.5
    assert ev.verdict is not Verdict.REFUTED


@pytest.mark.slow
def test_huge_expressions_are_not_printed_past_the_timeout() -> None:
    # LaTeX of a 5000-term expansion takes longer than the whole budget: the steps must
    # describe it (its size), not print it
    x, y, z, w = sp.symbols("x y z w")
    lhs = (x + y + z + w) ** 28
    rhs = sp.expand(lhs) + 1
    for runner in ("main", "thread"):
        box: dict = {}
        t0 = time.perf_counter()
        if runner == "main":
            box["ev"] = prove_equal(lhs, rhs, timeout=4)
        else:
            th = threading.Thread(
                target=lambda b=box: b.setdefault("ev", prove_equal(lhs, rhs, timeout=4))
            )
            th.start()
            th.join(30)
        assert time.perf_counter() - t0 < 4 + 2.5, runner
        assert box["ev"].verdict is not Verdict.PROVED


def test_identity_shapes_are_dimensions() -> None:
    n = sp.Symbol("n", integer=True, positive=True)
    ev = prove_equal(sp.Trace(2 * sp.Identity(n)), n)
    assert ev.verdict is Verdict.REFUTED and ev.counterexample["sizes"] == {"n": 1}


def test_witness_values_meet_every_assumption() -> None:
    from verify.symbolic.witness import consistent
    facts = sp.Symbol("q", noninteger=True).assumptions0
    assert not consistent(sp.Integer(2), facts) and consistent(sp.Rational(1, 2), facts)
    assert not consistent(sp.Rational(1, 2), sp.Symbol("p", polar=True).assumptions0)
    xn = sp.Symbol("xn", noninteger=True)
    assert prove_equal(sp.ceiling(xn) - sp.floor(xn), 1).verdict is not Verdict.REFUTED


def test_tiny_differences_are_never_proved() -> None:
    # below the 1e-30 relative resolution of the cheap comparison: never PROVED; the
    # adaptive-precision witness refutes it
    ev = prove_equal(sp.sin(xr) * (1 + sp.Rational(1, 10 ** 40)), sp.sin(xr), timeout=10)
    assert ev.verdict is Verdict.REFUTED, ev.summary
    assert prove_equal(xr + sp.Rational(1, 10 ** 40), xr).verdict is Verdict.REFUTED  # exact


# -- adaptive precision: near-identities refuted, roundoff never taken for a difference ------

HALF = sp.Rational(1, 2)
PYTH_HALF = sp.sin(HALF) ** 2 + sp.cos(HALF) ** 2  # exactly 1, roundoff-sized error when evaluated


def _li2_zero(w: sp.Expr = HALF) -> sp.Expr:
    """Li2(-w) + Li2(-1/w) + pi^2/6 + log(w)^2/2: exactly 0 for w > 0, and SymPy cannot tell."""
    return sp.polylog(2, -w) + sp.polylog(2, -1 / w) + sp.pi ** 2 / 6 + sp.log(w) ** 2 / 2


@pytest.mark.parametrize(("lhs", "rhs", "route"), [
    (sp.sec(HALF) ** 2 - sp.tan(HALF) ** 2, 1 + sp.Rational(1, 10 ** 100), "exact"),  # no iv
    (sp.exp(HALF) + sp.exp(-1000), sp.exp(HALF), "interval"),        # the exact term exp(-1000)
    (sp.exp(sp.I * (HALF + sp.Rational(1, 10 ** 45))), sp.exp(sp.I * HALF), "interval"),
    (sp.polylog(2, -HALF - sp.Rational(1, 10 ** 50)), sp.polylog(2, -HALF), "mpmath"),  # no iv
])
def test_adaptive_precision_refutes_near_identities(lhs, rhs, route) -> None:
    from verify.symbolic.witness import compare_adaptive
    assert compare(lhs, rhs)[0] != "differ"  # below the cheap comparison's resolution
    status, info = compare_adaptive(lhs, rhs)
    assert status == "differ" and info["check"].startswith(route), info
    assert sp.sympify(info["difference"]) != 0


@pytest.mark.parametrize(("lhs", "rhs"), [
    (_li2_zero(), 0),
    (sp.sign(_li2_zero()), 0),                                        # sign of roundoff: -1 twice
    (sp.sign(PYTH_HALF - 1), 0),
    (sp.log(-PYTH_HALF + sp.I * (PYTH_HALF - 1)), sp.I * sp.pi),      # log on its cut
    (sp.floor(PYTH_HALF), 1),
    (sp.sin(sp.Integer(10) ** 30) ** 2 + sp.cos(sp.Integer(10) ** 30) ** 2, 1),
    (sp.polylog(2, -sp.Integer(10) ** 30) + sp.polylog(2, -sp.Integer(10) ** -30),
     -sp.pi ** 2 / 6 - sp.log(sp.Integer(10) ** 30) ** 2 / 2),
])
def test_adaptive_precision_never_refutes_roundoff(lhs, rhs) -> None:
    from verify.symbolic.witness import compare_adaptive
    lhs, rhs = sp.sympify(lhs), sp.sympify(rhs)
    assert compare(lhs, rhs)[0] != "differ"
    assert compare_adaptive(lhs, rhs)[0] != "differ"


def test_continuity_guard_sees_jumps_and_cuts() -> None:
    from verify.symbolic.witness import continuous_at
    levels = (50, 100)
    assert continuous_at(sp.log(2 + sp.sin(HALF)) + sp.gamma(sp.pi), levels)
    assert continuous_at(sp.sqrt(-2 + sp.I * sp.sin(HALF)), levels)        # far from the cut
    assert continuous_at(sp.log(-2) + sp.floor(HALF), levels)               # exact arguments
    assert not continuous_at(sp.sign(PYTH_HALF - 1), levels)
    assert not continuous_at(sp.sqrt(-PYTH_HALF + sp.I * (PYTH_HALF - 1)), levels)
    assert not continuous_at(sp.ceiling(2 * PYTH_HALF, evaluate=False), levels)
    assert not continuous_at(sp.atan(2 * sp.I * PYTH_HALF + PYTH_HALF - 1), levels)
    assert not continuous_at(sp.besselj(HALF, PYTH_HALF), levels)           # not known continuous


def test_adaptive_check_runs_only_after_the_cheap_search() -> None:
    # identities decided by the ladder or by the cheap search never reach the high precision
    for lhs, rhs in [(sp.sin(2 * xr), 2 * sp.sin(xr) * sp.cos(xr)), (sp.exp(xr + 1), sp.exp(xr))]:
        ev = prove_equal(lhs, rhs, timeout=10)
        assert ev.verdict in (Verdict.PROVED, Verdict.REFUTED)
        assert not any("re-checked" in s for s in ev.steps), ev.steps
    ev = prove_equal(sp.exp(xr) + sp.exp(-100), sp.exp(xr), timeout=10)
    assert ev.verdict is Verdict.REFUTED and "interval" in ev.counterexample["check"]


def test_adaptive_check_keeps_the_timeout() -> None:
    # every point costs polylog evaluations and the adaptive stage alone can outlast the timeout:
    # the call still ends with its timeout (plus the hard limit's slack)
    u = sp.Symbol("u", positive=True)
    t0 = time.perf_counter()
    ev = prove_equal(sp.sign(_li2_zero(u)), 0, timeout=3)
    assert time.perf_counter() - t0 < 3 + 3
    assert ev.verdict is not Verdict.REFUTED


@pytest.mark.slow
def test_an_index_outside_a_concrete_matrix_is_never_a_witness():
    """At a concrete size, free indices drawn outside the matrix give an undefined point,
    not a counterexample: the Kronecker-delta sum below equals (AB)[i, j] for every valid
    i, j, so it must never be REFUTED; swapping B's indices is false and is refuted."""
    n = sp.Symbol("n", integer=True, positive=True)
    A, B = sp.MatrixSymbol("A", n, n), sp.MatrixSymbol("B", n, n)
    i, j, k, jp = sp.symbols("i j k jp", integer=True)
    lhs = sp.Sum(sp.KroneckerDelta(j, jp) * A[i, k] * B[k, jp], (k, 0, n - 1), (jp, 0, n - 1))
    true = prove_equal(lhs, sp.Sum(A[i, k] * B[k, j], (k, 0, n - 1)), timeout=60)
    assert true.verdict is not Verdict.REFUTED, true.summary
    false = prove_equal(sp.Sum(A[i, k] * B[k, j], (k, 0, n - 1)),
                        sp.Sum(A[i, k] * B[j, k], (k, 0, n - 1)), timeout=60)
    assert false.verdict is Verdict.REFUTED, false.summary
    point = false.counterexample["point"]
    size = false.counterexample["sizes"]["n"]
    assert all(0 <= int(point[s]) < size for s in ("i", "j") if s in point)

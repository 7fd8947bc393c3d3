"""The soundness corpus (tests/soundness_corpus.py) through ``prove_equal``.

TRUE identities must never be REFUTED (we require PROVED for all of them, except the ones
listed in ``MAY_BE_UNDECIDED``); FALSE ones must be REFUTED (never PROVED), and each witness
is re-checked here independently at 90 digits from the counterexample's text, or, for a
near-identity whose sides agree to 60 digits, by SymPy's strict adaptive ``evalf`` of the
difference.
"""

from __future__ import annotations

import pytest
import sympy as sp
from soundness_corpus import (  # tests/ is on sys.path
    FALSE_CASES,
    REWRITE_FALSE,
    REWRITE_TRUE,
    TRUE_CASES,
    Case,
    TruthCase,
)
from sympy.matrices.expressions.matexpr import MatrixElement

from verify import Verdict
from verify.symbolic import prove_equal
from verify.symbolic.prove import _explicit

MAY_BE_UNDECIDED: set[str] = set()


def _run(case: Case):
    lhs, rhs, kw = case.build()
    return lhs, rhs, kw, prove_equal(lhs, rhs, timeout=30, **kw)


def test_corpus_sizes() -> None:
    assert len(TRUE_CASES) >= 40 and len(FALSE_CASES) >= 40
    assert len({c.name for c in TRUE_CASES + FALSE_CASES}) == len(TRUE_CASES) + len(FALSE_CASES)


@pytest.mark.slow
@pytest.mark.parametrize("case", TRUE_CASES, ids=lambda c: c.name)
def test_true_identity_is_proved(case: Case) -> None:
    _, _, _, ev = _run(case)
    assert ev.verdict is not Verdict.REFUTED, ev.summary
    if case.name not in MAY_BE_UNDECIDED and not case.may_be_undecided:
        assert ev.verdict is Verdict.PROVED, f"{ev.summary}\n" + "\n".join(ev.steps)
        assert ev.method == "symbolic" and ev.generality


def _recheck(lhs, rhs, kw, cex: dict) -> None:
    """Independent re-check: substitute the witness text into both sides, compare at 90 digits."""
    if "lhs_shape" in cex:
        assert cex["lhs_shape"] != cex["rhs_shape"]
        return
    if "sizes" in cex:
        dims = {s.name: s for e in (lhs, rhs) for s in getattr(e, "free_symbols", set())
                if isinstance(s, sp.Symbol)}
        for e in (lhs, rhs):
            for ms in getattr(e, "atoms", lambda *_: set())(sp.MatrixSymbol):
                shape_syms = (sp.sympify(ms.shape[0]).free_symbols
                              | sp.sympify(ms.shape[1]).free_symbols)
                dims.update({s.name: s for s in shape_syms})
        sub = {dims[k]: sp.Integer(val) for k, val in cex["sizes"].items()}
        lhs, rhs = _explicit(lhs.xreplace(sub)), _explicit(rhs.xreplace(sub))
    if any(isinstance(s, sp.Symbol) and not s.is_commutative
           for e in (lhs, rhs) for s in sp.sympify(e).free_symbols):
        _recheck_noncommutative(lhs, rhs, cex)
        return
    atoms: dict[str, sp.Basic] = {}
    for e in (lhs, rhs):
        ents = list(e) if isinstance(e, sp.MatrixBase) else [e]
        for en in map(sp.sympify, ents):
            for at in [*en.free_symbols, *en.atoms(sp.Indexed), *en.atoms(MatrixElement)]:
                atoms[str(at)] = at
    point = {atoms[name]: sp.sympify(val) for name, val in cex["point"].items()}
    if assumptions := kw.get("assumptions"):
        assert isinstance(assumptions, dict)
    if "entry" in cex:
        r, c = cex["entry"]
        lhs, rhs = lhs[r, c], rhs[r, c]
    lp, rp = sp.sympify(lhs).xreplace(point).doit(), sp.sympify(rhs).xreplace(point).doit()
    lv, rv = sp.N(lp, 90), sp.N(rp, 90)
    scale = max(1, abs(lv), abs(rv))
    if not abs(lv - rv) > sp.Float("1e-60") * scale:
        _recheck_near(lp, rp, cex)
    # assumptions on the symbols hold at the witness
    for at, val in point.items():
        if isinstance(at, sp.Symbol):
            for key in ("real", "positive", "integer", "nonnegative"):
                if getattr(at, "is_" + key):
                    assert getattr(val, "is_" + key), (at, val, key)


def _recheck_near(lp, rp, cex: dict) -> None:
    """A difference below 90-digit resolution (a near-identity): ``lhs - rhs`` at the point as
    one expression (SymPy cancels equal terms exactly), by SymPy's own adaptive ``evalf`` with
    ``strict=True`` (it raises rather than return digits it cannot vouch for) at two targets
    that must agree, nonzero, and equal to the difference the witness reported."""
    d = lp - rp
    d15 = d.evalf(15, maxn=8000, strict=True)
    d30 = d.evalf(30, maxn=8000, strict=True)
    assert d15 != 0 and abs(d15 - d30) <= sp.Float("1e-13") * abs(d15), (d15, d30)
    assert abs(sp.sympify(cex["difference"]) - d30) <= sp.Float("1e-8") * abs(d30), (cex, d30)


def _recheck_noncommutative(lhs, rhs, cex: dict) -> None:
    letters = {s.name: s for e in (lhs, rhs) for s in sp.sympify(e).free_symbols}
    mats = {letters[k]: sp.Matrix(sp.sympify(v)) for k, v in cex["point"].items()}

    def ev(e):
        total = None
        for term in sp.Add.make_args(sp.expand(e)):
            c, nc = term.args_cnc()
            prod = sp.Mul(*c) * sp.eye(next(iter(mats.values())).rows)
            for f in nc:
                base, ex = f.as_base_exp()
                for _ in range(int(ex)):
                    prod = prod * mats[base]
            total = prod if total is None else total + prod
        return total

    r, c = cex["entry"]
    assert ev(lhs)[r, c] != ev(rhs)[r, c]


@pytest.mark.slow
@pytest.mark.parametrize("case", FALSE_CASES, ids=lambda c: c.name)
def test_false_identity_is_refuted(case: Case) -> None:
    lhs, rhs, kw, ev = _run(case)
    assert ev.verdict is not Verdict.PROVED, f"{ev.summary}\n" + "\n".join(ev.steps)
    if case.may_be_undecided and ev.verdict is Verdict.UNDECIDED:
        return
    assert ev.verdict is Verdict.REFUTED, f"{ev.summary}\n" + "\n".join(ev.steps)
    assert ev.counterexample
    _recheck(lhs, rhs, kw, ev.counterexample)


@pytest.mark.parametrize("tc", REWRITE_TRUE + REWRITE_FALSE, ids=lambda t: t.case.name)
def test_rewrite_case_truth_is_checked_independently(tc: TruthCase) -> None:
    """The corpus's own label agrees with a brute-force check that shares nothing with verify
    (Python Fractions over every index up to a size, or mpmath on the branch cut)."""
    assert tc.truth() is (tc in REWRITE_TRUE)

"""``prove_equal``: exact proof ladder, then witness search; PROVED / REFUTED / UNDECIDED.

The flow for ``prove_equal(lhs, rhs)``:

1. both sides are sympified (lists become matrices, Floats become the exact rationals of their
   decimal text, noted in the steps) and the ``assumptions`` are attached to the symbols;
2. the cheap rungs of the ladder (:mod:`.ladder`) run on ``d = lhs - rhs`` (entrywise for
   explicit matrices; for matrix expressions of symbolic size, canonical ``doit`` and the
   noncommutative-polynomial form);
3. a short witness search (:mod:`.witness`); a confirmed nonzero difference is REFUTED;
4. the remaining rungs (doit, sum linearity, exp/log rewriting, trig, simplify), each under a
   time guard;
5. a longer witness search, then the adaptive-precision check (exact difference at the point,
   interval enclosure, 50/100/400 digits) of a few points where the sides agreed only
   numerically: near-identities (a term ``exp(-100)``, a phase ``10**-45``) are found here,
   after everything cheap, so identities proved earlier pay nothing for it;
6. for identities in a symbolic dimension (matrix shapes, summation limits) that no rung
   closed, the same at concrete sizes (default 1..4 for each dimension symbol): PROVED there
   says so in ``generality``, a witness at a concrete size is REFUTED with the size.

PROVED needs a structural zero (:func:`.ladder.is_zero`); REFUTED needs a witness confirmed
exactly, by a rigorous interval enclosure, or by a difference stable across two precisions and
far above their error bounds (the rule is in :mod:`.witness`); everything else, timeouts
included, is UNDECIDED with the reason.

Soundness where SymPy is not:

* **the second route** (:mod:`.confirm`): every PROVED and every REFUTED is re-checked by
  explicit evaluation (sums written out over integer indices, exact and 50/100-digit points on
  the negative axis and the branch cuts). A point where the routes disagree makes the verdict
  UNDECIDED, naming the rung and the point; a witness the explicit route does not confirm (or
  one naming an entry such as ``x[3/2]`` that does not exist) is no witness. The summary says
  how far the confirmation got (``confirmed``, ``partial``, ``not confirmed``); a partial one
  leaves the rung's proof standing (see :mod:`.confirm`);
* **known-unsound rewrites** (:mod:`.unsound`): sums SymPy would evaluate wrongly (a delta
  with a stride) are opaque to the rungs; a claim holding what a wrong conjugate rewrite leaves
  behind gets no verdict;
* **as received**: two sides identical as received are PROVED "identical as constructed" (both
  sides shown in the steps), unless that is a known-unsound rewrite's trace; a 1x1 matrix is
  compared with a scalar by its entry; any other shape mismatch is UNDECIDED (a malformed
  claim), never REFUTED;
* **scope**: a proof in symbolic terms (no explicit matrix, no concrete shape, no numeric sum
  limits) is scope ``general``, set here; a proof at concrete sizes is ``bounded``.
"""

from __future__ import annotations

import itertools
import logging
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import Any

import sympy as sp
from sympy.matrices.expressions import MatrixExpr

from ..context import engine_seed
from ..evidence import Evidence
from ..verdict import Verdict
from . import assume, induction, unsound
from ._guard import Deadline, RungTimeout, guarded
from .confirm import NotExplicit, confirm_proved, confirm_witness, expand_explicit
from .ladder import (
    MATRIX_RUNGS,
    NONCOMMUTATIVE_RUNGS,
    SCALAR_RUNGS,
    NotApplicable,
    Rung,
    has_noncommutative,
    is_zero,
)
from .witness import consistent, search

log = logging.getLogger(__name__)

#: Total time budget when ``timeout=None``: never wait forever on SymPy.
DEFAULT_TIMEOUT_S = 60.0
#: Seconds past ``timeout`` after which the hard limit over a whole call abandons it.
HARD_SLACK_S = 1.0
#: Seconds the induction rung may take before concrete sizes are tried.
INDUCTION_CAP_S = 15.0
#: Default concrete sizes for dimension symbols.
DEFAULT_SIZES = (1, 2, 3, 4)
#: Seconds the second route (:mod:`.confirm`) may take on top of ``timeout``.
CONFIRM_S = 4.0

_LATEX_MAX = 240


def _too_big(e: Any, limit: int = 400) -> bool:
    """Whether ``e`` has more than ``limit`` nodes, in O(limit) time (printing is not free)."""
    if not isinstance(e, sp.Basic):
        return False
    for count, _ in enumerate(sp.preorder_traversal(e)):
        if count > limit:
            return True
    return False


def _tex(e: Any) -> str:
    """``e`` as inline math for a step, or a short description when it would not fit (an
    explicit matrix says its shape and size: ``(a 3x3 matrix, 41 operations)``)."""
    if isinstance(e, sp.MatrixBase):
        if any(_too_big(x) for x in e):
            return f"(a {e.rows}x{e.cols} matrix with large entries)"
    elif _too_big(e):
        return "(a large expression)"
    try:
        s = sp.latex(e)
    except Exception:
        s = sp.sstr(e)
    if len(s) > _LATEX_MAX:
        if isinstance(e, sp.MatrixBase):
            ops = sum(sp.count_ops(x) for x in e)
            return f"(a {e.rows}x{e.cols} matrix, {ops} operations)"
        if isinstance(e, sp.Basic):
            return f"(expression with {sp.count_ops(e)} operations)"
        return "(a large expression)"
    return f"${s}$"


def _as_sympy(x: Any) -> Any:
    if isinstance(x, (list, tuple)):
        return sp.Matrix(x)
    if isinstance(x, sp.MatrixBase):
        return sp.Matrix(x)
    return sp.sympify(x)


def _exactify(x: Any, steps: list[str]) -> Any:
    if not isinstance(x, (sp.Basic, sp.MatrixBase)):
        return x
    floats = x.atoms(sp.Float)
    if not floats:
        return x
    rep = {f: sp.Rational(str(f)) for f in floats}
    shown = ", ".join(f"{k} -> {v}" for k, v in list(rep.items())[:6])
    steps.append(f"Floats replaced by the exact rationals of their decimal text: {shown}")
    return x.xreplace(rep)


def _shape(x: Any) -> tuple | None:
    if isinstance(x, (sp.MatrixBase, MatrixExpr)):
        return tuple(x.shape)
    return None


def dimension_symbols(*exprs: Any) -> list[sp.Symbol]:
    """Symbols that act as sizes: in the shapes of matrix symbols (and of ``Identity(n)``,
    ``ZeroMatrix``, ``OneMatrix``) and in summation/product limits."""
    dims: set[sp.Symbol] = set()
    for e in exprs:
        if not isinstance(e, sp.Basic):
            continue
        for m in e.atoms(sp.MatrixSymbol, sp.Identity, sp.ZeroMatrix, sp.OneMatrix):
            for s in m.shape:
                dims |= {a for a in sp.sympify(s).free_symbols if isinstance(a, sp.Symbol)}
        for s in list(e.atoms(sp.Sum)) + list(e.atoms(sp.Product)):
            for lim in s.limits:
                for b in lim[1:]:
                    dims |= {a for a in sp.sympify(b).free_symbols if isinstance(a, sp.Symbol)}
        if isinstance(e, MatrixExpr):
            for s in e.shape:
                dims |= {a for a in sp.sympify(s).free_symbols if isinstance(a, sp.Symbol)}
    return sorted(dims, key=lambda s: s.name)


class _Ladder:
    """Runs rungs on a difference, entry by entry for explicit matrices, recording steps."""

    def __init__(self, diff: Any, deadline: Deadline, steps: list[str]) -> None:
        self.deadline = deadline
        self.steps = steps
        self.symbolic_matrix = isinstance(diff, MatrixExpr) and not isinstance(diff, sp.MatrixBase)
        #: the entries not yet closed by a rung, keyed by (row, column), or None for a scalar
        self.open: dict[tuple[int, int] | None, Any]
        if isinstance(diff, sp.MatrixBase):
            self.open = {(i, j): diff[i, j] for i in range(diff.rows) for j in range(diff.cols)}
        else:
            self.open = {None: diff}
        self.closed_by: dict[Any, str] = {}
        self.timed_out = False
        self.noncommutative = any(has_noncommutative(e) for e in self.open.values())
        # known-unsound rewrites (verify.symbolic.unsound): sums SymPy would evaluate wrongly
        # become opaque symbols, so that no rung can use the wrong evaluation
        masked: set[str] = set()
        for key, e in list(self.open.items()):
            self.open[key], keys = unsound.mask(e)
            masked |= set(keys)
        if masked:
            steps.append("neutralised (known-unsound rewrites, kept opaque for the rungs): "
                         + unsound.describe(sorted(masked)))

    @property
    def rungs(self) -> tuple[Rung, ...]:
        if self.symbolic_matrix:
            return MATRIX_RUNGS
        return NONCOMMUTATIVE_RUNGS if self.noncommutative else SCALAR_RUNGS

    def run(self, cheap: bool | None) -> bool:
        for rung in self.rungs:
            if cheap is not None and rung.cheap != cheap:
                continue
            if self.climb(rung):
                return True
            if self.deadline.expired():
                self.timed_out = True
                return False
        return False

    def climb(self, rung: Rung) -> bool:
        if not self.open:
            return True
        t0 = time.perf_counter()
        for key, e in list(self.open.items()):
            if key is not None and is_zero(e):
                del self.open[key]
                self.closed_by[key] = "as given"
                continue
            try:
                out = guarded(rung.fn, e, seconds=self.deadline.budget(rung.cap_s))
            except RungTimeout:
                self.steps.append(f"{rung.name}: time guard ({rung.cap_s:g} s or the deadline) "
                                  "exceeded, skipped")
                if self.deadline.expired():
                    self.timed_out = True
                return False
            except NotApplicable:
                if key is None:
                    return False
                continue
            except Exception as exc:
                if key is None:
                    self.steps.append(f"{rung.name}: not applicable "
                                      f"({type(exc).__name__}: {str(exc)[:80]})")
                    return False
                continue  # this entry stays open; the rung may still close the others
            if is_zero(out):
                del self.open[key]
                self.closed_by[key] = rung.name
            elif key is None:
                self.steps.append(f"{rung.name}: {_tex(out)} ({time.perf_counter() - t0:.2f} s)")
                return False
            else:
                self.open[key] = e  # keep the original entry for the next rung
        if self.open:
            n = len(self.open)
            self.steps.append(
                f"{rung.name}: {n} matrix entr{'y' if n == 1 else 'ies'} not yet zero"
            )
            return False
        self.steps.append(f"{rung.name}: exact zero ({time.perf_counter() - t0:.2f} s)")
        return True

    def proof_methods(self) -> str:
        used = sorted(set(self.closed_by.values()))
        return ", ".join(used) if used else "?"


def prove_equal(
    lhs: Any,
    rhs: Any,
    *,
    assumptions: assume.Assumptions = None,
    timeout: float | None = None,
    seed: int | None = None,
    points: int = 24,
    sizes: Mapping[Any, Iterable[int]] | None = None,
    reading: str = "A",
    part: str = "main",
) -> Evidence:
    """Prove ``lhs == rhs`` exactly, refute it with a checked witness, or say why neither.

    Args:
        lhs, rhs: SymPy expressions, explicit matrices (``sympy.Matrix`` or nested lists),
            matrix expressions (``MatrixSymbol`` arithmetic, symbolic shapes allowed), sums
            over ``Idx``/``IndexedBase``.
        assumptions: facts about the symbols, see :mod:`verify.symbolic.assume`
            (``"real"``, ``{x: "positive"}``, ``[Q.positive(x)]``). Unassumed symbols are
            complex, as in SymPy; witnesses try real points first, then complex ones.
        timeout: total seconds (default :data:`DEFAULT_TIMEOUT_S`); running out is UNDECIDED.
        seed: seed of the witness search (deterministic); ``None``: the seed of the claim
            being checked (:attr:`verify.Context.seed`), 0 outside a claim.
        points: how many random points the witness search tries.
        sizes: concrete values for dimension symbols when the symbolic-size proof fails,
            e.g. ``{N: range(1, 5)}``; default 1..4 for each dimension symbol.
        reading, part: copied into the Evidence.

    Returns:
        Evidence with ``method="symbolic"``: PROVED (exact structural zero, ``generality``
        says "symbolic" or the concrete sizes), REFUTED (``counterexample`` holds the point,
        both sides' values, and how it was checked) or UNDECIDED (the reason).
    """
    t0 = time.perf_counter()
    seed = engine_seed(seed)
    total = DEFAULT_TIMEOUT_S if timeout is None else float(timeout)
    steps: list[str] = []
    try:
        # A hard limit over the whole call: every slow step is guarded on its own, but
        # SymPy work between the guards (instantiating a 4x4 symbolic inverse, printing a
        # huge expression) must not run past the timeout either.
        return guarded(_prove_equal, lhs, rhs, assumptions=assumptions, total=total, seed=seed,
                       points=points, sizes=sizes, reading=reading, part=part, steps=steps,
                       t0=t0, seconds=total + HARD_SLACK_S + CONFIRM_S)
    except RungTimeout:
        return Evidence(Verdict.UNDECIDED,
                        f"timeout: the hard limit of {total:g} s (+{HARD_SLACK_S:g} s) was reached",
                        method="symbolic", reading=reading, part=part, steps=list(steps),
                        seed=seed, elapsed_s=time.perf_counter() - t0)


def _prove_equal(lhs: Any, rhs: Any, *, assumptions: assume.Assumptions, total: float, seed: int,
                 points: int, sizes: Mapping[Any, Iterable[int]] | None, reading: str, part: str,
                 steps: list[str], t0: float) -> Evidence:
    def ev(verdict: Verdict, summary: str, **kw: Any) -> Evidence:
        return Evidence(verdict, summary, method="symbolic", reading=reading, part=part,
                        steps=steps, seed=seed, elapsed_s=time.perf_counter() - t0, **kw)

    L0, R0 = _as_sympy(lhs), _as_sympy(rhs)
    L, R = _exactify(L0, steps), _exactify(R0, steps)
    (L, R), back = assume.apply([L, R], assumptions)
    if back:
        steps.append("assumptions: " + ", ".join(f"{s.name} {assume.describe(s)}" for s in back))
    steps.append(f"claim: {_tex(L)} = {_tex(R)}")
    L, R, shape_problem = _same_shape(L, R, steps)
    if shape_problem:
        return ev(Verdict.UNDECIDED, shape_problem)
    keys = unsound.fingerprints(L0, R0, L, R)
    identical = _identical(L, R)
    if identical:
        steps.append(f"as received: lhs {_tex(L0)}, rhs {_tex(R0)}")
    if keys:
        what = "identical as constructed, but " if identical else ""
        return ev(Verdict.UNDECIDED,
                  f"{what}the claim holds what a known-unsound SymPy rewrite leaves behind "
                  f"({unsound.describe(keys)}): the statement received may not be the one "
                  "written, so no verdict is given")
    if identical:
        after = ""
        if not _identical(L0, R0):
            after = (" once the 1x1 matrix is read as its entry" if _shape(L0) != _shape(R0)
                     else " after the assumptions were attached")
        gen = _generality(dimension_symbols(L, R))
        return ev(Verdict.PROVED,
                  f"identical as constructed{after}: both sides are the same SymPy expression; "
                  f"{gen}", generality=gen, scope=_scope(L0, R0))

    out, rung = _decide(L, R, total=total, seed=seed, points=points, sizes=sizes, steps=steps,
                        t0=t0, ev=ev)
    return _second_route(out, rung, L, R, sizes, seed, steps)


def _identical(L: Any, R: Any) -> bool:
    try:
        return bool(L == R) and type(L) is type(R)
    except Exception:
        return False


def _same_shape(L: Any, R: Any, steps: list[str]) -> tuple[Any, Any, str]:
    """A 1x1 matrix against a scalar is compared by its entry; any other shape mismatch is a
    malformed claim (an UNDECIDED with the shapes), never a refutation."""
    sL, sR = _shape(L), _shape(R)
    shape = sL if sR is None else sR if sL is None else None  # the only matrix side's shape
    if shape is not None:
        if tuple(shape) == (1, 1):
            steps.append("one side is a 1x1 matrix: its entry is compared with the scalar")
            L = L[0, 0] if sL is not None else L
            R = R[0, 0] if sR is not None else R
            return L, R, ""
        return L, R, (f"shape mismatch: one side is a matrix of shape {shape}, the other a "
                      "scalar (a malformed claim, not a refutation)")
    if sL is not None and sR is not None and sL != sR \
            and all(sp.sympify(v).is_Integer for v in (*sL, *sR)):
        return L, R, f"shape mismatch: {sL} vs {sR} (a malformed claim, not a refutation)"
    return L, R, ""


def _generality(dims: list[sp.Symbol]) -> str:
    return "symbolic" + (f" ({', '.join(s.name for s in dims)} symbolic)" if dims else "")


def _scope(*sides: Any) -> str | None:
    """``"general"`` for a proof in symbolic terms: no explicit matrix, no matrix symbol of a
    concrete shape and no sum with numeric limits, whose proof would hold only at that size.
    Otherwise None (bounded unless the caller knows better)."""
    for x in sides:
        if isinstance(x, sp.MatrixBase):
            return None
        if not isinstance(x, sp.Basic):
            continue
        if any(all(sp.sympify(s).is_number for s in m.shape) for m in x.atoms(sp.MatrixSymbol)):
            return None
        for b in x.atoms(sp.Sum, sp.Product):
            if all(sp.sympify(p).is_number for lim in b.limits for p in lim[1:]):
                return None
    return "general"


def _decide(L: Any, R: Any, *, total: float, seed: int, points: int,
            sizes: Mapping[Any, Iterable[int]] | None, steps: list[str], t0: float,
            ev: Callable[..., Evidence]) -> tuple[Evidence, str]:
    """The ladder, the witness search and the concrete sizes: the verdict of the first route,
    and the name of the rung that closed the proof (for the second route's report)."""
    deadline = Deadline(total - (time.perf_counter() - t0))
    # the ladder may not eat the witness search's time: keep a quarter (at most 5 s) for it
    ladder_deadline = Deadline(total - min(0.25 * total, 5.0) - (time.perf_counter() - t0))
    L_in, R_in = L, R
    sL, sR = _shape(L), _shape(R)
    if (isinstance(L, MatrixExpr) or isinstance(R, MatrixExpr)) and sL is not None and all(
        sp.sympify(v).is_Integer for v in (*sL, *(sR or ()))
    ):
        # concrete shapes: work entrywise on explicit matrices (entries A[i, j])
        try:
            L, R = guarded(lambda: (_explicit(L), _explicit(R)), seconds=deadline.budget(None))
        except RungTimeout:
            return ev(Verdict.UNDECIDED, "timeout while making the matrix expressions explicit"), ""
        steps.append("matrix expressions of concrete shape made explicit (entries A[i, j])")
    dims = dimension_symbols(L, R)
    symbolic_size = isinstance(L, MatrixExpr) or isinstance(R, MatrixExpr) or bool(dims)
    generality = _generality(dims)
    scope = _scope(L_in, R_in)

    try:
        diff = L - R
        if sL is not None and sL != sR:
            raise ValueError("symbolic shapes differ")
    except Exception as exc:
        steps.append(f"lhs - rhs not formed ({type(exc).__name__}: {exc}); trying concrete sizes")
        diff = None

    if diff is not None:
        ladder = _Ladder(diff, ladder_deadline, steps)
        if ladder.run(cheap=True):
            return ev(Verdict.PROVED, f"exact zero after {ladder.proof_methods()}; {generality}",
                      generality=generality, scope=scope), ladder.proof_methods()
        if not ladder.symbolic_matrix:
            found = _witness(L, R, seed, min(points, 8), deadline, steps)
            if found is not None:
                return _refuted(ev, found), ""
        if ladder.run(cheap=False):
            return ev(Verdict.PROVED, f"exact zero after {ladder.proof_methods()}; {generality}",
                      generality=generality, scope=scope), ladder.proof_methods()
        if deadline.expired():
            return ev(Verdict.UNDECIDED, f"timeout after {time.perf_counter() - t0:.1f} s: "
                      "no rung gave an exact zero and no witness was found"), ""
        if not ladder.symbolic_matrix:
            found = _witness(L, R, seed + 1, points, deadline, steps, adaptive=True)
            if found is not None:
                return _refuted(ev, found), ""

    if symbolic_size and dims and diff is not None and not ladder.symbolic_matrix:
        # induction in the one size symbol, before concrete sizes
        proof = _induction(L, R, dims, deadline, steps)
        if proof is not None:
            return ev(Verdict.PROVED, proof.summary, generality=proof.generality,
                      scope="general"), "induction"
    if symbolic_size and dims:
        return _concrete_sizes(L, R, dims, sizes, deadline, seed, points, steps, ev), \
            "the ladder at each concrete size"
    if deadline.expired() or (diff is not None and ladder.timed_out):
        return ev(Verdict.UNDECIDED, f"timeout after {time.perf_counter() - t0:.1f} s: "
                  "no rung gave an exact zero in time and no witness was found"), ""
    return ev(Verdict.UNDECIDED,
              "no rung of the ladder gave an exact zero and no witness was found"), ""


def _second_route(out: Evidence, rung: str, L: Any, R: Any,
                  sizes: Mapping[Any, Iterable[int]] | None, seed: int,
                  steps: list[str]) -> Evidence:
    """Confirm a PROVED or a REFUTED by explicit evaluation (:mod:`.confirm`): a disagreement
    makes the verdict UNDECIDED, naming the rung and the point; otherwise the summary says how
    far the confirmation got."""
    if out.verdict is Verdict.PROVED:
        dims = dimension_symbols(L, R)
        size_sets = None
        if out.scope != "general" and dims:
            by_name = {str(k): list(v) for k, v in (sizes or {}).items()}
            size_sets = {}
            for d in dims:  # the sizes the bounded proof covered, as _concrete_sizes chose them
                facts = {k: v for k, v in d.assumptions0.items() if v is not None}
                size_sets[d] = [c for c in by_name.get(d.name, list(DEFAULT_SIZES))
                                if consistent(sp.Integer(c), facts)][:3]
        try:
            c = confirm_proved(L, R, dims, rung=rung or "the ladder", seed=seed,
                               budget_s=CONFIRM_S, sizes=size_sets)
        except Exception as exc:
            steps.append(f"second route: not run ({type(exc).__name__}: {str(exc)[:80]})")
            return replace(out, summary=f"{out.summary}; not confirmed by the explicit route "
                           f"({type(exc).__name__})", steps=list(steps))
        steps.append(f"second route (explicit sums, exact and 50/100-digit points): {c.text()}")
        if c.status == "contradicted":
            return replace(out, verdict=Verdict.UNDECIDED, scope=None, generality=None,
                           summary=f"routes disagree: {c.text()}", steps=list(steps),
                           counterexample=None, numbers={**out.numbers,
                                                         "disagreement_point": c.point})
        return replace(out, summary=f"{out.summary}; {c.text()}", steps=list(steps))
    if out.verdict is Verdict.REFUTED and out.counterexample:
        try:
            ok, why = confirm_witness(L, R, out.counterexample, budget_s=CONFIRM_S)
        except Exception as exc:
            ok, why = False, f"the explicit re-check failed ({type(exc).__name__}: {exc})"[:200]
        if not ok:
            steps.append(f"second route: witness rejected: {why}")
            return replace(out, verdict=Verdict.UNDECIDED, generality=None,
                           summary=f"a witness was found but the explicit route rejects it: {why}",
                           counterexample=None, steps=list(steps),
                           numbers={**out.numbers, "rejected_witness": out.counterexample})
        steps.append("second route: the witness re-evaluated with sums written out term by "
                     "term: the sides differ" + (f" ({why})" if why else ""))
        return replace(out, steps=list(steps))
    return out


def _induction(L: Any, R: Any, dims: list[sp.Symbol], deadline: Deadline,
               steps: list[str]) -> induction.InductionProof | None:
    """The induction rung (:mod:`.induction`) under a time guard; None when it does not apply."""
    try:
        proof, notes = guarded(induction.attempt, L, R, dims,
                               seconds=deadline.budget(INDUCTION_CAP_S))
    except RungTimeout:
        steps.append(f"induction: time guard ({INDUCTION_CAP_S:g} s or the deadline) exceeded")
        return None
    steps.extend(notes)
    return proof


def _witness(L: Any, R: Any, seed: int, points: int, deadline: Deadline, steps: list[str],
             extra: dict[str, Any] | None = None, adaptive: bool = False) -> dict[str, Any] | None:
    """Witness search; ``adaptive`` (the last search, after every rung) adds the
    adaptive-precision check of :func:`.witness.search`."""
    res = search(L, R, seed=seed, points=points, deadline=deadline, extra=extra,
                 adaptive=adaptive)
    if res.counterexample is not None:
        pt = ", ".join(f"{k}={v}" for k, v in res.counterexample["point"].items())
        steps.append(f"witness search (seed {seed}): sides differ at {pt or 'every point'} "
                     f"({res.counterexample['check']})")
        return res.counterexample
    note = f"; {res.notes[0]}" if res.notes else ""
    fine = f", {res.refined} re-checked at up to 400 digits" if res.refined else ""
    steps.append(f"witness search (seed {seed}): {res.tried} points, {res.agreed} agree, "
                 f"{res.undefined} undefined, {res.unconfirmed} unconfirmed{fine}{note}")
    return None


def _refuted(ev: Callable[..., Evidence], cex: dict[str, Any]) -> Evidence:
    pt = ", ".join(f"{k}={v}" for k, v in cex["point"].items())
    where = f"entry {tuple(cex['entry'])} " if "entry" in cex else ""
    sz = ""
    if "sizes" in cex:
        sz = " at size " + ", ".join(f"{k}={v}" for k, v in cex["sizes"].items())
    return ev(Verdict.REFUTED,
              f"counterexample{sz}: {where}lhs={cex['lhs']} vs rhs={cex['rhs']} "
              f"at {pt or 'any point'}",
              counterexample=cex, generality="a single point suffices")


def _sizes_text(names: Iterable[str], ranges: Iterable[Iterable[int]]) -> str:
    """``"N in {1, 2, 3}, K in {1, 2}"``: the concrete sizes an identity was proved at."""
    return ", ".join(f"{n} in {{{', '.join(map(str, r))}}}"
                     for n, r in zip(names, ranges, strict=True))


def _concrete_sizes(L: Any, R: Any, dims: list[sp.Symbol],
                    sizes: Mapping[Any, Iterable[int]] | None,
                    deadline: Deadline, seed: int, points: int, steps: list[str],
                    ev: Callable[..., Evidence]) -> Evidence:
    by_name = {str(k): list(v) for k, v in (sizes or {}).items()}
    ranges = []
    for d in dims:
        facts = {k: v for k, v in d.assumptions0.items() if v is not None}
        # only sizes the symbol's own assumptions allow (an even N is never tried at N = 1)
        ranges.append([c for c in by_name.get(d.name, list(DEFAULT_SIZES))
                       if consistent(sp.Integer(c), facts)])
    if not all(ranges):
        return ev(Verdict.UNDECIDED,
                  "no concrete size satisfies the dimension symbols' assumptions")
    proved: list[str] = []
    open_sizes: list[str] = []  # no proof and no witness there: a larger size may hold one
    for combo in itertools.product(*ranges):
        if deadline.expired():
            break
        sub = dict(zip(dims, (sp.Integer(c) for c in combo), strict=True))
        label = ", ".join(f"{d.name}={c}" for d, c in zip(dims, combo, strict=True))
        try:
            Lc, Rc = guarded(lambda: tuple(_explicit(x.xreplace(sub)) for x in (L, R)),  # noqa: B023
                             seconds=deadline.budget(None))
        except RungTimeout:
            steps.append(f"[{label}] instantiation ran out of time")
            break
        except Exception as exc:
            steps.append(f"[{label}] could not instantiate ({type(exc).__name__}: {exc})")
            return ev(Verdict.UNDECIDED, f"could not instantiate at {label}")
        at_sizes = {d.name: c for d, c in zip(dims, combo, strict=True)}
        if _shape(Lc) != _shape(Rc):
            return ev(Verdict.UNDECIDED,
                      f"shape mismatch at {label}: {_shape(Lc)} vs {_shape(Rc)} (a malformed "
                      "claim, not a refutation)", numbers={"sizes": at_sizes})
        sub_steps: list[str] = []
        extra = {"sizes": dict(at_sizes)}
        ladder = _Ladder(Lc - Rc, deadline, sub_steps)
        if not ladder.run(cheap=True):
            cex = _witness(Lc, Rc, seed, min(points, 6), deadline, sub_steps, extra=extra)
            if cex is None and not ladder.run(cheap=False):
                cex = _witness(Lc, Rc, seed + 1, points, deadline, sub_steps, extra=extra,
                               adaptive=True)
                if cex is None:
                    steps.extend(f"[{label}] {s}" for s in sub_steps)
                    open_sizes.append(label)
                    continue
            if cex is not None:
                steps.extend(f"[{label}] {s}" for s in sub_steps)
                return _refuted(ev, cex)
        proved.append(label)
        steps.append(f"[{label}] exact zero after {ladder.proof_methods()}")
    total = 1
    for r in ranges:
        total *= len(r)
    if len(proved) == total:
        gen = _sizes_text((d.name for d in dims), ranges)
        return ev(Verdict.PROVED,
                  f"exact zero at every concrete size, {gen} (not in symbolic size)",
                  generality=gen, scope="bounded")
    if open_sizes:
        return ev(Verdict.UNDECIDED, f"no exact zero and no witness at {'; '.join(open_sizes)}")
    return ev(Verdict.UNDECIDED, f"timeout after concrete sizes {proved}")


def _explicit(x: Any) -> Any:
    """Instantiate sums and matrix expressions at concrete sizes as explicit objects.

    Every matrix symbol of integer shape becomes its explicit matrix of entries ``A[i, j]``,
    so traces, transposes and products evaluate entrywise.
    """
    if isinstance(x, sp.MatrixBase):
        return x.applyfunc(lambda e: _explicit(e))
    if not isinstance(x, sp.Basic):
        return x
    rep = {m: m.as_explicit() for m in x.atoms(sp.MatrixSymbol)
           if all(sp.sympify(s).is_Integer for s in m.shape)}
    y = x.xreplace(rep) if rep else x
    # sums and products written out term by term (deltas evaluated on integers), never
    # summed by SymPy's doit (verify.symbolic.unsound: delta summation with a stride)
    try:
        y = expand_explicit(y)
    except NotExplicit:
        if unsound.unsafe_binders(y):
            raise
    y = y.doit()
    if isinstance(y, MatrixExpr) and not isinstance(y, sp.MatrixBase):
        y = y.as_explicit()
    if isinstance(y, sp.MatrixBase):
        return sp.Matrix(y).applyfunc(lambda e: e.doit())
    return y


def prove_for_sizes(
    builder: Callable[..., tuple[Any, Any]],
    sizes: Mapping[str, Iterable[int]],
    *,
    assumptions: assume.Assumptions = None,
    timeout: float | None = None,
    seed: int | None = None,
    points: int = 24,
    reading: str = "A",
    part: str = "main",
) -> Evidence:
    """Prove an identity built at concrete sizes: ``builder(**size) -> (lhs, rhs)`` for each size.

    ``sizes`` maps a keyword of ``builder`` to the values to try (``{"N": range(1, 5),
    "K": range(1, 5)}``). PROVED when every size is PROVED (``generality`` lists the sizes,
    e.g. ``"N in {1, 2, 3, 4}, K in {1, 2, 3, 4}"``); REFUTED at the first refuted size (the
    counterexample carries ``sizes``); UNDECIDED otherwise.
    """
    t0 = time.perf_counter()
    seed = engine_seed(seed)
    deadline = Deadline(DEFAULT_TIMEOUT_S if timeout is None else timeout)
    names = list(sizes)
    ranges = [list(sizes[n]) for n in names]
    steps: list[str] = []
    undecided: list[str] = []
    for combo in itertools.product(*ranges):
        kw = dict(zip(names, combo, strict=True))
        label = ", ".join(f"{k}={v}" for k, v in kw.items())
        if deadline.expired():
            undecided.append(label + " (timeout)")
            break
        lhs, rhs = builder(**kw)
        e = prove_equal(lhs, rhs, assumptions=assumptions, timeout=deadline.budget(None),
                        seed=seed, points=points)
        if e.verdict is Verdict.REFUTED:
            cex = dict(e.counterexample or {})
            cex["sizes"] = kw
            steps.append(f"[{label}] REFUTED: {e.summary}")
            return Evidence(Verdict.REFUTED, f"at {label}: {e.summary}", method="symbolic",
                            reading=reading, part=part,
                            steps=steps + [f"[{label}] {s}" for s in e.steps],
                            counterexample=cex, seed=seed,
                            generality="a single size and point suffice",
                            elapsed_s=time.perf_counter() - t0)
        steps.append(f"[{label}] {e.verdict.value}: {e.summary}")
        if e.verdict is not Verdict.PROVED:
            undecided.append(label)
    gen = _sizes_text(names, ranges)
    if not undecided:
        return Evidence(Verdict.PROVED, f"exact zero at every size, {gen}", method="symbolic",
                        reading=reading, part=part, steps=steps, generality=gen, seed=seed,
                        scope="bounded",
                        elapsed_s=time.perf_counter() - t0)
    return Evidence(Verdict.UNDECIDED, f"not proved at {', '.join(undecided[:4])}",
                    method="symbolic", reading=reading, part=part, steps=steps, seed=seed,
                    elapsed_s=time.perf_counter() - t0)

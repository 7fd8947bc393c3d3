"""Proof chains: a statement proved in its own generality (symbolic sizes, every degree) as a
chain of exact links.

**The rule.** A chain is PROVED with scope ``general`` only if every link holds; otherwise it
is UNDECIDED, naming the first link that fails. A failed link is a failed route of proof, not
a counterexample, so a chain is never REFUTED. A link holds when it is:

- ``engine``: :func:`~verify.symbolic.prove_equal` reaches an exact zero without fixing a
  size, i.e. says PROVED with scope ``general`` (symbolic sizes) or with no scope at all (an
  identity with no size in it: scalars, noncommutative letters). A PROVED only at concrete
  sizes (scope ``bounded``) does not hold: concrete sizes, when a chain asks for them, only
  keep a failed symbolic proof short and never count;
- ``rewrite``: the result of an exact SymPy rewrite is the expected expression as a SymPy
  object, up to the names of the bound variables of flat sums (alpha-equivalence, via
  :func:`~verify.symbolic.bound_variables_renamed`);
- ``hypothesis``: a stated hypothesis of the statement was applied (its pattern was found);
- ``cite``: an earlier proof used as a lemma is itself PROVED with scope ``general``
  (:func:`proved_in_general`);
- ``check``: a finite consistency check of a definition (an index map against explicit
  matrices) came out true.

:class:`Derivation` records the links of one proof and turns them into Evidence by this rule.
:func:`prove_steps` is the common case of a chain of engine links only (:class:`Step`), and
:func:`requires` stops a proof whose lemma is not proved in general before it starts.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import sympy as sp

from ..evidence import Evidence
from ..verdict import Verdict
from .assume import Assumptions
from .prove import dimension_symbols, prove_equal
from .sums import bound_variables_renamed

__all__ = ["Derivation", "Step", "prove_steps", "requires", "proved_in_general", "TIMEOUT_S"]

#: Seconds for one engine link.
TIMEOUT_S = 20.0

#: Concrete sizes :func:`prove_steps` lets the engine try after a failed symbolic proof: a
#: proof there never counts, they only make the failure quick to report.
_SHORT_FAILURE_SIZES = (1, 2)


def proved_in_general(ev: Evidence) -> bool:
    """Whether ``ev`` is a proof a chain may cite: PROVED with scope ``general``."""
    return ev.verdict is Verdict.PROVED and ev.scope == "general"


def _symbolic_zero(ev: Evidence) -> bool:
    """Whether an engine result holds as a link: PROVED and not only at concrete sizes."""
    return ev.verdict is Verdict.PROVED and ev.scope != "bounded"


def _renamed(e: Any) -> Any:
    """``e`` with the bound variables of its flat sums canonical; unchanged when it has nested
    sums (which are then compared as they are) or is no SymPy object (a Python number)."""
    if not isinstance(e, sp.Basic | sp.MatrixBase):
        return e
    try:
        return bound_variables_renamed(e)
    except ValueError:
        return e


class Derivation:
    """The links of one proof, in order, and the first one that fails (see the module rule).

    Each link method returns whether the link holds and records a step ``"label: holds
    (note)"`` or ``"label: FAILS (note)"``; :meth:`evidence` gives the verdict of the whole.
    """

    def __init__(self) -> None:
        self.steps: list[str] = []
        #: ``(label, note)`` of the first link that failed, None while every link holds.
        self.failure: tuple[str, str] | None = None
        self._t0 = time.perf_counter()

    @property
    def failed(self) -> str | None:
        """The first failing link as ``"label (note)"``, None while every link holds."""
        return None if self.failure is None else f"{self.failure[0]} ({self.failure[1]})"

    def _record(self, label: str, ok: bool, note: str) -> bool:
        self.steps.append(f"{label}: {'holds' if ok else 'FAILS'} ({note})")
        if not ok and self.failure is None:
            self.failure = (label, note)
        return ok

    def engine(self, label: str, lhs: Any, rhs: Any, *, assumptions: Assumptions = None,
               rename: bool = True, sizes: Sequence[int] = (), timeout: float = TIMEOUT_S
               ) -> bool:
        """``lhs = rhs`` by ``prove_equal`` in symbolic size.

        ``rename`` first gives the flat sums of both sides canonical bound variables, so that
        alpha-equivalent sums cancel. ``sizes`` are the concrete values the engine may try
        for each dimension symbol after the symbolic proof fails (none by default); a proof
        there does not make the link hold, it only ends a failing link sooner.
        """
        L, R = (_renamed(lhs), _renamed(rhs)) if rename else (lhs, rhs)
        dims = dimension_symbols(*(e for e in (L, R) if isinstance(e, sp.Basic)))
        ev = prove_equal(L, R, assumptions=assumptions, timeout=timeout,
                         sizes={dim: tuple(sizes) for dim in dims} or None)
        ok = _symbolic_zero(ev)
        if ev.verdict is Verdict.PROVED and not ok:
            found = "PROVED only at concrete sizes"
        else:
            found = ev.verdict.value
        held = self._record(label, ok, f"prove_equal {found}: {ev.summary}")
        if not held:  # the engine's own steps say why
            self.steps.extend(f"    [{label[:24]}] {st}" for st in ev.steps)
        return held

    def rewrite(self, label: str, got: Any, expected: Any) -> bool:
        """``got`` (the result of an exact SymPy rewrite) is ``expected`` as a SymPy object,
        up to the names of bound variables: the rewrite is SymPy's, the link only checks that
        it landed where the proof says."""
        ok = _renamed(got) == _renamed(expected)
        return self._record(label, ok, f"got {sp.sstr(got)[:160]}")

    def hypothesis(self, label: str, before: Any, after: Any, applied: bool) -> bool:
        """A stated hypothesis turns ``before`` into ``after``; ``applied`` says whether the
        pattern it rewrites was found (if not, the proof did not use the hypothesis it
        names)."""
        note = f"{sp.sstr(before)[:80]} -> {sp.sstr(after)[:80]}"
        return self._record(label, applied, note if applied else "pattern not found: " + note)

    def cite(self, label: str, ev: Evidence) -> bool:
        """An earlier proof used as a lemma: it must be PROVED in general scope (a lemma
        proved only at listed sizes proves nothing at every size). Its steps are copied,
        indented, so that the chain reads in full."""
        ok = proved_in_general(ev)
        self._record(label, ok, f"{ev.verdict.value}, {ev.scope}: {ev.summary}")
        self.steps.extend(f"    [{label[:24]}] {st}" for st in ev.steps)
        return ok

    def check(self, label: str, ok: bool, note: str) -> bool:
        """A finite consistency check (e.g. an index map against explicit matrices) that
        holds when ``ok``."""
        return self._record(label, ok, note)

    def note(self, text: str) -> None:
        """A line of reasoning between links (an induction's conclusion, a cited fact): shown
        in the steps, checked by nothing."""
        self.steps.append(text)

    def evidence(self, summary: str, generality: str, *, reading: str = "A",
                 part: str = "main") -> Evidence:
        """PROVED with scope ``general`` (``"summary (generality)"``) when every link held,
        else UNDECIDED naming the first failing link."""
        return self.conclude(proved=f"{summary} ({generality})",
                             undecided=f"{summary}: no general proof, a link fails: "
                                       f"{self.failed}",
                             generality=generality, reading=reading, part=part)

    def conclude(self, *, proved: str, undecided: str, generality: str, reading: str = "A",
                 part: str = "main") -> Evidence:
        """:meth:`evidence` with both summaries given: ``proved`` when every link held,
        ``undecided`` otherwise."""
        elapsed = time.perf_counter() - self._t0
        if self.failure is None:
            return Evidence(Verdict.PROVED, proved, method="symbolic", reading=reading,
                            part=part, steps=list(self.steps), generality=generality,
                            scope="general", elapsed_s=elapsed)
        return Evidence(Verdict.UNDECIDED, undecided, method="symbolic", reading=reading,
                        part=part, steps=list(self.steps), elapsed_s=elapsed)


@dataclass(frozen=True)
class Step:
    """One identity of a chain of engine links: ``lhs = rhs``, with the assumptions it
    needs (see :mod:`verify.symbolic.assume`)."""

    label: str
    lhs: Any
    rhs: Any
    assumptions: Any = None


def prove_steps(steps: Sequence[Step], *, summary: str, generality: str,
                argument: Sequence[str] = (), part: str = "main", reading: str = "A",
                timeout: float = TIMEOUT_S) -> Evidence:
    """A chain of engine links only: PROVED with scope ``general`` when every step is an
    exact zero reached without a concrete size; otherwise UNDECIDED naming the first step
    that was not (a step proved only at concrete sizes, a REFUTED or an UNDECIDED step).

    The steps are taken as written (no bound-variable renaming); after a failed symbolic
    proof the engine tries sizes 1 and 2 of each dimension symbol only to keep the failure
    short, never as a proof. The chain stops at the first failing step, since nothing later
    can make it general. ``argument`` lists the reasoning that links the steps (cited facts,
    an induction), shown after them.
    """
    dv = Derivation()
    for st in steps:
        if not dv.engine(st.label, st.lhs, st.rhs, assumptions=st.assumptions, rename=False,
                         sizes=_SHORT_FAILURE_SIZES, timeout=timeout):
            break
    for line in argument:
        dv.note(f"argument: {line}")
    label, why = dv.failure if dv.failure is not None else ("", "")
    return dv.conclude(proved=f"{summary}: exact zero in "
                       + (f"all {len(steps)} steps" if len(steps) != 1 else "the one step"),
                       undecided=f"step '{label}' not proved in general ({why})",
                       generality=generality, reading=reading, part=part)


def requires(ev: Evidence, what: str, *, part: str, reading: str = "A") -> Evidence | None:
    """None when the lemma ``ev`` (described as ``what``) is PROVED in general, so a proof
    may build on it; else the UNDECIDED Evidence that proof gives instead, citing the
    lemma's verdict (the rule of a ``cite`` link, checked before any work is done)."""
    dv = Derivation()
    if dv.cite(what, ev):
        return None
    return dv.conclude(proved="", undecided=f"{what} not proved in general "
                       f"({ev.verdict.value}: {ev.summary})", generality="",
                       reading=reading, part=part)

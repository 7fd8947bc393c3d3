"""Evidence: what one check computed about one claim, and why it supports a verdict.

A check returns one or more :class:`Evidence` objects. Each carries its own verdict, a
one-line summary, and the details a reader needs to trust it: the exact steps of a proof,
the counterexample of a refutation, the numbers of a numeric search, the generality that
was covered, and the dtype/device/seed it ran with.

Two labels organise the evidence of a claim:

``reading``  which reading of the paper's statement it is about. ``"A"`` is the statement
             as printed and decides the claim's verdict; ``"B"``, ``"C"``, ... are other
             reasonable readings, each reported beside it with its own verdict.
``part``     which part of a multi-part statement it is about (``"action law"``,
             ``"field identity"``). A claim holds only if every part holds; see
             :mod:`verify.combine` for the rule.

Two marks serve existential statements (``verify.claim(..., quantifier="exists")``, rule 7 of
:mod:`verify.combine`):

``witness``       the parameters a positive piece exhibits (``{"W_B": "O V^*", "n": 2}``):
                  the statement holds at them, so "there exist parameters" holds;
``nonexistence``  ``True`` on a REFUTED piece that proves that *no* parameters satisfy the
                  statement (a symbolic proof, an exact infeasibility certificate): only such a
                  piece refutes an existential statement; a failing instance does not.

An Evidence has no truth value: ``bool(ev)``, ``if ev:`` and ``assert ev`` raise
``TypeError``. A dataclass is truthy whatever it holds, so ``assert prove_equal(a, b)`` would
pass on a REFUTED result; tests should use :func:`verify.testing.assert_proved`,
``assert_supported`` or ``assert_refuted`` (or compare ``ev.verdict``) instead.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from .jsonable import to_jsonable
from .verdict import Verdict

Method = Literal["symbolic", "numeric", "certificate", "experiment", "informal"]
METHODS: tuple[str, ...] = ("symbolic", "numeric", "certificate", "experiment", "informal")
Scope = Literal["general", "bounded"]
#: How far a PROVED reaches: ``general`` in the generality the statement has (symbolic sizes,
#: all parameters), ``bounded`` exact at the listed instances only (``generality`` lists them).
SCOPES: tuple[str, ...] = ("general", "bounded")


@dataclass
class Evidence:
    """One piece of evidence about a claim.

    Attributes:
        verdict: what this piece alone supports.
        summary: one line, readable in a table ("exact zero after expand, N=3..5").
        method: how it was obtained: ``symbolic`` (SymPy, exact), ``numeric`` (torch /
            hypothesis), ``certificate`` (cvxpy + exact re-check), ``experiment`` (a paper's
            number re-measured) or ``informal`` (no checkable content).
        reading: ``"A"`` for the statement as printed, other labels for other readings.
        part: which part of a multi-part statement this piece is about.
        steps: the chain of steps (LaTeX or plain text) a reader can follow.
        counterexample: for REFUTED, the concrete input (sizes, values, seed, batch index).
        numbers: named quantities: worst violation, inputs tried, tolerance, paper value,
            measured value, spread, slope and interval...
        generality: what was covered ("symbolic N", "N, K <= 4", "d = 1, 2, 3").
        scope: for PROVED, ``"general"`` (the statement's own generality) or ``"bounded"``
            (exact at the instances ``generality`` lists); ``None`` counts as bounded.
        dtype, device, seed: how numeric evidence ran.
        elapsed_s: time this piece took.
        rerun: a command that re-runs it.
        witness: for an existential statement, the parameters this (positive) piece exhibits;
            a dict with string keys, shown like a counterexample.
        nonexistence: ``True`` when this REFUTED piece proves that no witness exists (its
            ``counterexample`` then holds the obstruction: the certificate, the contradiction).
        figures: plot data the report draws (matplotlib), JSON-ready dicts, one of
            ``{"kind": "rate", "x": [...], "y": [...], "slope": s, "ci": [lo, hi],
            "claimed_slope": c, "xlabel": ..., "ylabel": ..., "title": ...}``;
            ``{"kind": "histogram", "values": [...], "threshold": t, "xlabel": ..., "title": ...}``;
            ``{"kind": "curve", "x": [...], "series": {name: [...]}, "paper": {name: [...]},
            "xlabel": ..., "ylabel": ..., "title": ..., "logx": bool, "logy": bool}``.

    Experiment evidence (REPRODUCED / NOT_REPRODUCED) puts ``paper_value``, ``measured``,
    ``spread`` (std over seeds), ``n_seeds``, ``tolerance`` and ``metric`` in ``numbers``;
    the report tabulates them beside the paper's numbers.
    """

    verdict: Verdict
    summary: str
    method: Method = "numeric"
    reading: str = "A"
    part: str = "main"
    steps: list[str] = field(default_factory=list)
    counterexample: dict[str, Any] | None = None
    numbers: dict[str, Any] = field(default_factory=dict)
    generality: str | None = None
    scope: Scope | None = None
    dtype: str | None = None
    device: str | None = None
    seed: int | None = None
    elapsed_s: float | None = None
    rerun: str | None = None
    figures: list[dict[str, Any]] = field(default_factory=list)
    witness: dict[str, Any] | None = None
    nonexistence: bool = False
    audit: str | None = None  # set by verify.combine when it demotes a piece

    def __post_init__(self) -> None:
        self.verdict = Verdict.parse(self.verdict)
        if self.method not in METHODS:
            raise ValueError(f"Evidence.method must be one of {METHODS}, got {self.method!r}")
        if not isinstance(self.summary, str):
            raise TypeError(f"Evidence.summary must be a string, got {type(self.summary).__name__}")
        self.summary = " ".join(self.summary.split())
        self.reading = str(self.reading)
        self.part = str(self.part)
        if self.scope is not None and self.scope not in SCOPES:
            raise ValueError(f"Evidence.scope must be one of {SCOPES} or None, got {self.scope!r}")
        if self.dtype is not None:
            self.dtype = str(self.dtype).replace("torch.", "")
        if self.device is not None:
            self.device = str(self.device)

    def __bool__(self) -> bool:
        """Refused (see the module docstring): ``assert ev`` must not pass on a REFUTED."""
        raise TypeError(
            f"an Evidence has no truth value (this one is {self.verdict.value}): use "
            "verify.testing.assert_proved(ev), assert_supported(ev) or assert_refuted(ev), "
            "or compare ev.verdict"
        )

    # -- serialisation ---------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (exact numbers as strings, arrays as lists)."""
        d = asdict(self)
        d["verdict"] = self.verdict.value
        return to_jsonable(d)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Evidence:
        known = {f for f in cls.__dataclass_fields__}
        return cls(**{k: v for k, v in d.items() if k in known})

    def relabel(
        self,
        *,
        part: str | None = None,
        reading: str | None = None,
        generality: str | None = None,
        prefix: str | None = None,
        scope: Scope | None = None,
        witness: dict[str, Any] | None = None,
        nonexistence: bool | None = None,
    ) -> Evidence:
        """Attach an engine's evidence to a claim's structure, in place, and return it:
        which ``part`` and ``reading`` it is about, the ``generality`` covered, and a
        ``prefix`` for the summary (``"field identity: exact zero after expand"``), and the
        ``scope`` a proof reaches (see :class:`Evidence`); for an existential statement, the
        ``witness`` a positive piece exhibits, or ``nonexistence=True`` on a REFUTED piece
        that proves no witness exists."""
        if part is not None:
            self.part = str(part)
        if reading is not None:
            self.reading = str(reading)
        if generality is not None:
            self.generality = generality
        if scope is not None:
            if scope not in SCOPES:
                raise ValueError(f"scope must be one of {SCOPES}, got {scope!r}")
            self.scope = scope
        if witness is not None:
            self.witness = witness
        if nonexistence is not None:
            self.nonexistence = bool(nonexistence)
        if prefix is not None:
            self.summary = f"{prefix}: {self.summary}"
        return self

    # -- convenient constructors -------------------------------------------------------------
    @classmethod
    def undecided(cls, reason: str, **kw: Any) -> Evidence:
        """UNDECIDED with its reason (``"timeout after 30 s"``, ``"not a checkable statement"``)."""
        kw.setdefault("method", "informal")
        return cls(Verdict.UNDECIDED, reason, **kw)

    @classmethod
    def informal(cls, reason: str = "not a checkable statement", **kw: Any) -> Evidence:
        """An interpretive statement: UNDECIDED, never silently dropped."""
        return cls(Verdict.UNDECIDED, reason, method="informal", **kw)

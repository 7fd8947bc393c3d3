"""Registering claims (``@verify.claim``) and discovering them in ``proofs/`` and ``numerics/``.

A claim is registered once, under a stable id, by the decorator :func:`claim` on its
check function. Further evidence for the same claim may come from another module
(typically the numeric cross-check in ``numerics/`` of an identity proved in ``proofs/``),
registered with :func:`evidence_for`. Mistakes are raised at import time, naming the
claim and the file: a duplicate id, a missing or malformed field, an unknown kind.
"""

from __future__ import annotations

import fnmatch
import importlib
import inspect
import logging
import pkgutil
import re
import shlex
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import discovery
from .combine import QUANTIFIERS, REPAIRS, UNDECIDED_REASONS  # combine, rules 6, 7 and 9
from .context import PROFILES
from .coverage import Statement, find_statements, statements_from_data
from .errors import ClaimDefinitionError, DiscoveryError, DuplicateClaimError, UnknownClaimError
from .verdict import Verdict

log = logging.getLogger(__name__)

#: The kinds of claims (docs/api.md), plus ``informal`` for interpretive statements.
KINDS: tuple[str, ...] = ("identity", "property", "rate", "existence", "experiment", "informal")

#: The longest time budget a claim (``timeout=``) or a run (``--timeout``) may set: 7 days.
#: Longer ones overflow the operating system's timers.
MAX_TIMEOUT_S = 7 * 24 * 3600.0

#: Packages searched for claims by default.
DEFAULT_PACKAGES: tuple[str, ...] = ("proofs", "numerics")

_ID_RE = re.compile(r"^[a-z][a-z0-9_]*(\.[A-Za-z0-9_]+)+$")

Check = Callable[..., Any]


@dataclass
class Claim:
    """A registered claim: its metadata and the checks that produce its evidence."""

    id: str
    paper: str
    where: str
    statement: str
    kind: str
    expect: Verdict | None
    checks: list[Check] = field(default_factory=list)
    file: str = "?"
    timeout: float | dict[str, float] | None = None
    readings: dict[str, str] = field(default_factory=dict)
    doc: str = ""
    repairs: dict[str, str] = field(default_factory=dict)
    resources: dict[str, float] | dict[str, dict[str, float]] | None = None
    expect_by_profile: dict[str, Verdict] = field(default_factory=dict)
    #: ``"forall"`` / ``"exists"`` for every reading, or ``{reading: quantifier}`` (others
    #: ``"forall"``); see :func:`claim`.
    quantifier: str | dict[str, str] = "forall"
    #: The reading the paper means, and why (combine rule 8): ``("A", "")`` by default.
    headline: tuple[str, str] = ("A", "")
    #: What each repairing reading fixes (``repairs={"B": ("erratum", "sign of beta^4")}``).
    repair_notes: dict[str, str] = field(default_factory=dict)
    #: Why the printed reading is vacuous as printed, if it is (combine rule 8).
    vacuous: str | None = None
    #: Readings that state a step of the paper's proof, with what it asserts (combine rule 8).
    proof: dict[str, str] = field(default_factory=dict)
    #: The reason category of an UNDECIDED the evidence cannot name itself (combine rule 9).
    undecided: tuple[str, str] | None = None

    def quantifier_of(self, reading: str = "A") -> str:
        """What reading ``reading`` quantifies: ``"forall"`` or ``"exists"``."""
        if isinstance(self.quantifier, dict):
            return self.quantifier.get(reading, "forall")
        return self.quantifier

    def expect_for(self, profile: str) -> Verdict | None:
        """The verdict this claim's evidence gave in ``profile`` (its own entry, else the
        quick one): a deep run that judges an experiment guards its own verdict."""
        return self.expect_by_profile.get(profile, self.expect)

    def timeout_for(self, profile: str) -> float | None:
        """This claim's own time budget in ``profile``, if it set one."""
        if isinstance(self.timeout, dict):
            return self.timeout.get(profile)
        return self.timeout

    def resources_for(self, profile: str) -> dict[str, float]:
        """The Dask resources this claim needs in ``profile`` (``{"GPU": 1}``), if any."""
        res = self.resources or {}
        if res and all(isinstance(v, dict) for v in res.values()):
            return dict(res.get(profile) or {})
        return dict(res)

    @property
    def code(self) -> list[str]:
        """``file:line`` of each check, the file relative to its package root (as in a repo)."""
        return [check_location(fn) for fn in self.checks]

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "paper": self.paper,
            "where": self.where,
            "kind": self.kind,
            "expect": self.expect.value if self.expect else None,
            "quantifier": self.quantifier_of("A"),
            "code": self.code,
        }


@dataclass(frozen=True)
class Paper:
    """A paper's metadata, registered with :func:`paper`: the report heads the paper's
    document with title, authors and url, and lists its numbered ``statements`` (its index,
    :mod:`verify.coverage`) on the coverage page; ``source`` names the file they came from."""

    key: str
    title: str
    authors: str = ""
    url: str = ""
    statements: tuple[Statement, ...] = ()
    source: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"key": self.key, "title": self.title, "authors": self.authors, "url": self.url,
                "source": self.source, "statements": [s.to_dict() for s in self.statements]}


class Registry:
    """All claims known to this process, by id (insertion order = discovery order)."""

    def __init__(self) -> None:
        self.papers: dict[str, Paper] = {}
        self._claims: dict[str, Claim] = {}
        self._pending: list[tuple[str, Check, str]] = []  # evidence_for before its claim
        #: Where :func:`discover` looked for claims, one phrase each ("package proofs (...)").
        self.searched: list[str] = []
        #: Claims modules skipped because they failed to import: module -> the reason.
        self.broken: dict[str, str] = {}
        #: How a run names the source of a module's claims on its command line: module ->
        #: ``"path/to/claims.py"`` or ``"--module pkg.mod"`` ("" for default sources).
        self.origins: dict[str, str] = {}

    # -- registration -------------------------------------------------------------------------
    def add(self, c: Claim) -> None:
        if c.id in self._claims:
            other = self._claims[c.id]
            from . import claim_index

            if claim_index.is_stub(other):  # read from the index: the import replaces it
                c.checks.extend(claim_index.real_checks(other))
                other = None
        if c.id in self._claims and other is not None:
            raise DuplicateClaimError(
                f"claim {c.id!r} is registered twice: in {other.file} and in {c.file}"
            )
        self._claims[c.id] = c
        still = []
        for cid, fn, file in self._pending:
            if cid == c.id:
                c.checks.append(fn)
            else:
                still.append((cid, fn, file))
        self._pending = still

    def add_evidence(self, claim_id: str, fn: Check, file: str) -> None:
        if claim_id in self._claims:
            self._claims[claim_id].checks.append(fn)
        else:
            self._pending.append((claim_id, fn, file))

    def drop(self, ids: Iterable[str]) -> None:
        """Forget these claims (those a claims module registered before it failed)."""
        for cid in ids:
            self._claims.pop(cid, None)

    def origin(self, c: Claim) -> str:
        """How ``verify run`` must be told where claim ``c`` comes from: ``""`` for the
        default sources, else the file or ``--module`` it was discovered from."""
        module = getattr(inspect.unwrap(c.checks[0]), "__module__", "") if c.checks else ""
        while module:
            if module in self.origins:
                return self.origins[module]
            module = module.rpartition(".")[0]
        return ""

    def claims_in(self, modules: Iterable[str]) -> list[Claim]:
        """The claims whose checks are defined in ``modules`` (names, their submodules, or
        ``file:PATH`` entries), in registration order."""
        names = []
        for m in modules:
            if m.startswith(discovery.FILE_PREFIX):
                m = discovery.file_module_name(m[len(discovery.FILE_PREFIX) :])
            names.append(m)

        def inside(c: Claim) -> bool:
            mod = getattr(inspect.unwrap(c.checks[0]), "__module__", "") if c.checks else ""
            return any(mod == n or mod.startswith(n + ".") for n in names)

        return [c for c in self if inside(c)]

    def where_searched(self) -> str:
        """Where claims were looked for, and what was skipped, in one line."""
        looked = "; ".join(self.searched) or "nowhere (nothing discovered)"
        if not any(s.startswith("entry point") for s in self.searched):
            looked += (
                f"; no installed package advertises entry-point group "
                f"{discovery.ENTRY_POINT_GROUP!r}"
            )
        skipped = "".join(f"; skipped {m}: {why}" for m, why in self.broken.items())
        return f"claims were looked for in: {looked}{skipped}"

    def validate(self, since: int = 0) -> None:
        """Raise if some ``evidence_for`` registered after the first ``since`` pending ones
        names a claim nobody registered. (A module imported directly, outside a discovery,
        may leave its ``evidence_for`` pending until its claim's own module is imported; a
        discovery answers only for the modules it imported itself.)"""
        new = self._pending[since:]
        if new:
            cid, _, file = new[0]
            raise ClaimDefinitionError(
                f"{file}: evidence_for({cid!r}) names a claim that is not registered"
            )

    # -- lookup -------------------------------------------------------------------------------
    def __contains__(self, claim_id: str) -> bool:
        return claim_id in self._claims

    def __getitem__(self, claim_id: str) -> Claim:
        try:
            return self._claims[claim_id]
        except KeyError:
            from .suggest import did_you_mean

            raise UnknownClaimError(
                f"no claim with id {claim_id!r}{did_you_mean(claim_id, self._claims)}"
            ) from None

    def __iter__(self):
        return iter(self._claims.values())

    def __len__(self) -> int:
        return len(self._claims)

    def select(
        self, patterns: str | Sequence[str] | None = None, paper: str | Sequence[str] | None = None,
        *, named: str = "--claim",
    ) -> list[Claim]:
        """Claims whose id matches any glob in ``patterns`` and whose paper is in ``paper``.

        A pattern that matches nothing is an error (a typo should not silently run nothing),
        naming the closest ids; ``named`` is how the message calls the pattern (``--claim``;
        ``""`` for the id of ``verify show``).
        """
        pats = [patterns] if isinstance(patterns, str) else list(patterns or [])
        papers = [paper] if isinstance(paper, str) else list(paper or [])
        known_papers = {c.paper for c in self}
        from .suggest import did_you_mean, no_match

        for p in papers:
            if p not in known_papers:
                known = ", ".join(sorted(known_papers)) or "none"
                raise UnknownClaimError(
                    f"no claims for paper {p!r}{did_you_mean(p, known_papers)}; papers: "
                    f"{known}; {self.where_searched()}"
                )
        chosen = [c for c in self if not papers or c.paper in papers]
        if pats:
            for pat in pats:
                if not any(fnmatch.fnmatchcase(c.id, pat) for c in chosen):
                    raise UnknownClaimError(
                        f"{no_match(pat, (c.id for c in chosen), named=named)}; "
                        f"{self.where_searched()}"
                    )
            chosen = [c for c in chosen if any(fnmatch.fnmatchcase(c.id, p) for p in pats)]
        return chosen

    def clear(self) -> None:
        self.papers.clear()
        self._claims.clear()
        self._pending.clear()
        self.searched.clear()
        self.broken.clear()
        self.origins.clear()


REGISTRY = Registry()


def check_location(fn: Check) -> str:
    """``path:line`` of a check function, the path relative to the root its package was
    imported from (``proofs/gda/identities.py:42``), so an editor opens it from a checkout."""
    target = inspect.unwrap(fn)
    try:
        file = inspect.getsourcefile(target)
        _, line = inspect.getsourcelines(target)
    except (TypeError, OSError):
        return f"{getattr(fn, '__module__', '?')}:?"
    if file is None:
        return f"{getattr(fn, '__module__', '?')}:{line}"
    module = getattr(target, "__module__", "") or ""
    path = Path(file)
    depth = module.count(".") + (1 if path.name == "__init__.py" else 0)
    root = path.parents[depth] if depth < len(path.parents) else path.parent
    try:
        rel = path.relative_to(root)
    except ValueError:
        rel = path
    return f"{rel.as_posix()}:{line}"


def _caller_file(fn: Check) -> str:
    try:
        return inspect.getsourcefile(fn) or fn.__module__
    except TypeError:
        return getattr(fn, "__module__", "?")


def claim(
    id: str,
    *,
    paper: str,
    where: str,
    statement: str,
    kind: str,
    expect: Verdict | str | dict[str, Verdict | str] | None = None,
    timeout: float | dict[str, float] | None = None,
    readings: dict[str, str] | None = None,
    repairs: dict[str, str] | None = None,
    resources: dict[str, float] | dict[str, dict[str, float]] | None = None,
    quantifier: str | dict[str, str] = "forall",
    headline: str | tuple[str, str] | None = None,
    vacuous: str | None = None,
    proof: dict[str, str] | None = None,
    undecided: tuple[str, str] | None = None,
    registry: Registry | None = None,
) -> Callable[[Check], Check]:
    """Register the decorated function as the check of claim ``id``.

    Args:
        id: stable dotted id, starting with the paper key (``"nfa.ag.linear_identity"``).
        paper: the paper key (``"nfa"``).
        where: where the claim stands in the paper (``"Theorem 3, l. 156-174"``).
        statement: the statement as the paper gives it, in LaTeX.
        kind: one of :data:`KINDS`.
        expect: the verdict the evidence gave when the check was written (a regression
            guard; the reason belongs in the docstring). ``verify run`` flags drift. Where the
            profiles differ (an experiment is UNDECIDED at smoke scale and judged in deep),
            ``{"quick": "UNDECIDED", "deep": "REFUTED"}``; a profile without an entry uses
            the quick one.
        timeout: this claim's time budget in seconds, or ``{"quick": s, "deep": s}``.
        readings: other readings of the statement, ``{"B": "...", ...}``; evidence with
            ``reading="B"`` is reported against them.
        repairs: the readings that repair the intended statement, by the nature of the
            repair (:mod:`verify.combine`, rule 6): ``{"B": "erratum"}`` (a defect a referee
            fixes with a remark: a typo, a sign, a degenerate case, a nearby hypothesis not
            restated), ``{"C": "overstated"}`` (the statement under a material hypothesis the
            paper does not have) or ``{"D": "other_object"}`` (a repair that changes the
            mathematical object). A role may carry what it fixes, ``{"B": ("erratum", "sign
            of the beta^4 term")}``. When the intended reading fails and an erratum repair
            holds, the repaired verdict heads "with erratum"; when it is REFUTED otherwise,
            the ``severity`` follows from the repairs' verdicts.
        headline: the reading that states what the paper means, read in its context, and
            why, citing the paper's lines: ``("B", "centring is the standing condition of
            Sec. 3, L448")``. Its verdict is the claim's (rule 8); default ``"A"``.
        vacuous: why the printed reading A is vacuous as printed (a display that reduces to
            ``err >= 0``); it then never heads (``headline`` must name the substantive
            reading) and "vacuous as printed" is recorded as an erratum when A holds.
        proof: the readings that state a step of the paper's proof (its intuition, its choice
            of parameters), ``{"C": "membership iff a w_k in span{w_l} (L148)"}``: such a
            reading never heads; when its evidence refutes it, the flaw is recorded as an
            erratum of the proof beside the headline.
        undecided: the reason category of an UNDECIDED that the evidence cannot name itself
            (rule 9), with its detail: ``("open_setting", "the paper leaves the width open:
            holds for ..., fails for ...")`` or ``("needs_compute", "about 2 h on 16
            cores")``; one of ``informal``, ``open_setting``, ``needs_compute``, ``timeout``,
            ``inconclusive``.
        resources: what a worker must have to run the claim on a Dask cluster
            (``verify run --scheduler``): ``{"GPU": 1}`` in every profile, or per profile,
            ``{"deep": {"GPU": 1}}``. The claim then runs only on workers started with them
            (``dask worker ... --resources GPU=1``); ignored with ``--device cpu`` and by
            the local runner.
        quantifier: what the statement quantifies: ``"forall"`` (the default: every instance
            must hold, one failing instance refutes) or ``"exists"`` ("there exist parameters
            such that ...", also "for every x there exists y"): it holds by a witness, a
            piece of evidence with ``witness={...}``, and is refuted only by a proof that no
            witness exists (``nonexistence=True``); a failing instance refutes nothing
            (:mod:`verify.combine`, rule 7). Where readings quantify differently,
            ``{"A": "exists", "D": "exists"}``: a reading not named is ``"forall"``.

    The check is called as ``check(ctx)`` with a :class:`verify.Context` and returns one
    :class:`verify.Evidence` or an iterable of them.
    """
    reg = registry if registry is not None else REGISTRY

    def decorate(fn: Check) -> Check:
        file = _caller_file(fn)
        where_ = f"{file}: claim {id!r}"
        if not isinstance(id, str) or not _ID_RE.match(id):
            raise ClaimDefinitionError(
                f"{file}: claim id {id!r} must be dotted lowercase words, "
                "e.g. 'nfa.ag.linear_identity'"
            )
        for name, value in (("paper", paper), ("where", where), ("statement", statement)):
            if not isinstance(value, str) or not value.strip():
                raise ClaimDefinitionError(f"{where_}: field {name!r} is missing or empty")
        if not id.startswith(paper + "."):
            raise ClaimDefinitionError(
                f"{where_}: id must start with its paper key {paper + '.'!r}"
            )
        if kind not in KINDS:
            raise ClaimDefinitionError(f"{where_}: kind {kind!r} is not one of {', '.join(KINDS)}")
        try:
            by_profile = {k: Verdict.parse(v) for k, v in expect.items()} \
                if isinstance(expect, dict) else {}
            exp = Verdict.parse(expect) if expect is not None and not by_profile else \
                by_profile.get("quick")
        except ValueError as e:
            raise ClaimDefinitionError(f"{where_}: expect: {e}") from None
        unknown = sorted(set(by_profile) - set(PROFILES))
        if unknown:
            raise ClaimDefinitionError(
                f"{where_}: expect names profile {unknown[0]!r}, not one of {', '.join(PROFILES)}")
        if not callable(fn):
            raise ClaimDefinitionError(f"{where_}: @claim must decorate a function")
        roles, notes = _split_repairs(repairs or {}, where_)
        for label, role in roles.items():
            if label not in (readings or {}):
                raise ClaimDefinitionError(
                    f"{where_}: repairs names reading {label!r}, which is not in readings"
                )
            if role not in REPAIRS:
                raise ClaimDefinitionError(
                    f"{where_}: repairs[{label!r}] is {role!r}, not one of {', '.join(REPAIRS)}"
                )
        _check_resources(resources, where_)
        _check_quantifier(quantifier, readings or {}, where_)
        heads = _check_headline(headline, vacuous, readings or {}, where_)
        _check_undecided(undecided, where_)
        for label, what in (proof or {}).items():
            if label not in (readings or {}) or label == heads[0]:
                raise ClaimDefinitionError(
                    f"{where_}: proof names reading {label!r}, which is not a declared reading "
                    f"other than the headline")
            if not isinstance(what, str) or not what.strip():
                raise ClaimDefinitionError(f"{where_}: proof[{label!r}] must say what it asserts")
        _check_timeout(timeout, where_)
        reg.add(
            Claim(
                id=id,
                paper=paper,
                where=where,
                statement=statement,
                kind=kind,
                expect=exp,
                expect_by_profile=by_profile,
                checks=[fn],
                file=file,
                timeout=timeout,
                readings=dict(readings or {}),
                doc=inspect.getdoc(fn) or "",
                repairs=roles,
                repair_notes=notes,
                headline=heads,
                vacuous=vacuous,
                proof=dict(proof or {}),
                undecided=tuple(undecided) if undecided is not None else None,
                resources=resources,
                quantifier=dict(quantifier) if isinstance(quantifier, dict) else quantifier,
            )
        )
        return fn

    return decorate


def _check_quantifier(quantifier: Any, readings: dict[str, str], where: str) -> None:
    """Raise unless ``quantifier`` is one of :data:`QUANTIFIERS`, or a dict that maps ``"A"``
    or declared readings to them."""
    allowed = " or ".join(repr(q) for q in QUANTIFIERS)
    if isinstance(quantifier, dict):
        for label, q in quantifier.items():
            if label != "A" and label not in readings:
                raise ClaimDefinitionError(
                    f"{where}: quantifier names reading {label!r}, which is not in readings")
            if q not in QUANTIFIERS:
                raise ClaimDefinitionError(
                    f"{where}: quantifier[{label!r}] is {q!r}, not {allowed}")
        return
    if not isinstance(quantifier, str) or quantifier not in QUANTIFIERS:
        raise ClaimDefinitionError(
            f"{where}: quantifier {quantifier!r} is not {allowed} "
            f"(or a dict {{reading: quantifier}})")


def _split_repairs(repairs: Any, where: str) -> tuple[dict[str, str], dict[str, str]]:
    """``({reading: role}, {reading: what it fixes})`` from ``repairs``, whose values are a
    role or a ``(role, what)`` pair."""
    if not isinstance(repairs, dict):
        raise ClaimDefinitionError(f"{where}: repairs must be a dict, got {repairs!r}")
    roles, notes = {}, {}
    for label, value in repairs.items():
        if isinstance(value, (tuple, list)):
            if len(value) != 2 or not all(isinstance(v, str) and v.strip() for v in value):
                raise ClaimDefinitionError(
                    f"{where}: repairs[{label!r}] must be a role or (role, what it fixes), "
                    f"got {value!r}")
            roles[label], notes[label] = value[0], " ".join(value[1].split())
        else:
            roles[label] = value
    return roles, notes


def _check_headline(
    headline: Any, vacuous: Any, readings: dict[str, str], where: str
) -> tuple[str, str]:
    """``(reading, why)`` from ``headline``; raise unless it names ``"A"`` or a declared
    reading with a reason, and a vacuous printed reading is not the one that heads."""
    label, why = (headline, "") if isinstance(headline, str) else (headline or ("A", ""))
    if not isinstance(label, str) or (label != "A" and label not in readings):
        raise ClaimDefinitionError(
            f"{where}: headline names reading {label!r}, which is not in readings")
    if not isinstance(why, str) or (label != "A" and not why.strip()):
        raise ClaimDefinitionError(
            f"{where}: headline ({label!r}, why) needs the reason, citing the paper's lines")
    if vacuous is not None:
        if not isinstance(vacuous, str) or not vacuous.strip():
            raise ClaimDefinitionError(f"{where}: vacuous must say why, got {vacuous!r}")
        if label == "A":
            raise ClaimDefinitionError(
                f"{where}: a reading vacuous as printed never heads: declare the substantive "
                f"reading with headline=(label, why)")
    return label, " ".join(why.split())


def _check_undecided(undecided: Any, where: str) -> None:
    """Raise unless ``undecided`` is ``None`` or ``(category, detail)`` of a known category."""
    if undecided is None:
        return
    ok = (isinstance(undecided, (tuple, list)) and len(undecided) == 2
          and undecided[0] in UNDECIDED_REASONS and isinstance(undecided[1], str)
          and undecided[1].strip())
    if not ok:
        raise ClaimDefinitionError(
            f"{where}: undecided must be (category, detail) with category one of "
            f"{', '.join(UNDECIDED_REASONS)}, got {undecided!r}")
def _check_timeout(timeout: Any, where: str) -> None:
    """Raise unless ``timeout`` is ``None``, a number of seconds in (0, :data:`MAX_TIMEOUT_S`],
    or ``{profile: seconds}``: a NaN budget never expires, ``0`` would silently mean the
    profile's, and a string or an infinity would crash the run after it started."""
    if timeout is None:
        return

    def seconds(v: Any) -> bool:
        return (isinstance(v, (int, float)) and not isinstance(v, bool)
                and 0 < v <= MAX_TIMEOUT_S)  # False for NaN

    if isinstance(timeout, dict):
        bad = next((k for k, v in timeout.items() if k not in PROFILES or not seconds(v)), None)
        if bad is not None and bad not in PROFILES:
            raise ClaimDefinitionError(f"{where}: timeout {timeout!r} names profile {bad!r}, "
                                       f"not one of {', '.join(PROFILES)}")
        if bad is None and timeout:
            return
    elif seconds(timeout):
        return
    raise ClaimDefinitionError(
        f"{where}: timeout must be a number of seconds in (0, {MAX_TIMEOUT_S:g}] or "
        f"{{profile: seconds}}, got {timeout!r}")


def _check_resources(resources: Any, where: str) -> None:
    """Raise unless ``resources`` is ``{name: amount}`` or ``{profile: {name: amount}}``."""
    if resources is None:
        return

    def amounts(d: Any) -> bool:
        return isinstance(d, dict) and all(
            isinstance(k, str) and isinstance(v, (int, float)) and not isinstance(v, bool) and v > 0
            for k, v in d.items()
        )

    per_profile = (
        isinstance(resources, dict)
        and resources
        and all(isinstance(v, dict) for v in resources.values())
    )
    if per_profile and all(amounts(v) for v in resources.values()):
        return
    if not per_profile and amounts(resources):
        return
    raise ClaimDefinitionError(
        f"{where}: resources must be {{name: amount > 0}} (e.g. {{'GPU': 1}}) or "
        f"{{profile: {{name: amount}}}}, got {resources!r}"
    )


def paper(
    key: str,
    *,
    title: str,
    authors: str = "",
    url: str = "",
    statements: Iterable[Sequence[Any]] | None = None,
    source: str | Path | None = None,
    registry: Registry | None = None,
) -> Paper:
    """Register a paper's metadata under its key (the prefix of its claims' ids).

    Call it once, in the package that holds the paper's claims (its ``__init__.py``)::

        verify.paper("mypaper", title="Softmax Attention Is Smooth", authors="A. Author",
                     url="https://arxiv.org/abs/...")

    The title goes into each result record and heads the paper's report; a paper never
    registered is shown under its key. Registering a key twice with different metadata is
    an error naming both.

    The report's coverage page lists the paper's numbered statements (theorems, lemmas,
    definitions, tables, figures...) with the claims that check each (:mod:`verify.coverage`).
    Give them as ``statements``, rows ``(kind, number, first line, last line)`` of the paper's
    text, or let verify find them: ``source="paper.tex"`` (its theorem environments, tables,
    figures and labels) or the paper's plain text (``"paper.txt"``, a PDF's text: headings
    such as "Theorem 3." and "Table 1:"), a path relative to the file that calls ``paper``.
    """
    reg = registry if registry is not None else REGISTRY
    if not isinstance(key, str) or not re.match(r"^[a-z][a-z0-9_]*$", key):
        raise ClaimDefinitionError(f"paper key {key!r} must be a lowercase word, e.g. 'nfa'")
    for name, value in (("title", title), ("authors", authors), ("url", url)):
        if not isinstance(value, str):
            raise ClaimDefinitionError(f"paper {key!r}: {name} must be a string, got {value!r}")
    if not title.strip():
        raise ClaimDefinitionError(f"paper {key!r}: title is empty")
    found, source_name = _paper_statements(key, statements, source)
    info = Paper(key, " ".join(title.split()), authors, url, found, source_name)
    old = reg.papers.get(key)
    if old is not None and old != info:
        raise DuplicateClaimError(f"paper {key!r} is registered twice: {old} and {info}")
    reg.papers[key] = info
    return info


def _paper_statements(
    key: str, statements: Iterable[Sequence[Any]] | None, source: str | Path | None
) -> tuple[tuple[Statement, ...], str]:
    """The index :func:`paper` was given, or found in ``source`` (relative to the caller of
    :func:`paper`), with the source's file name; :class:`ClaimDefinitionError` names a bad
    row or a source that cannot be read."""
    if statements is not None:
        try:
            return statements_from_data(statements), ""
        except (ValueError, TypeError) as e:
            raise ClaimDefinitionError(f"paper {key!r}: statements: {e}") from None
    if source is None:
        return (), ""
    path = Path(source)
    if not path.is_absolute():
        caller = inspect.stack()[2].filename
        near = Path(caller).resolve().parent / path
        path = near if near.exists() or not path.exists() else path
    try:
        return tuple(find_statements(path)), path.name
    except OSError as e:
        raise ClaimDefinitionError(
            f"paper {key!r}: cannot read source {str(source)!r}: {e.strerror}") from None


def evidence_for(claim_id: str, *, registry: Registry | None = None) -> Callable[[Check], Check]:
    """Register the decorated function as a further check of an existing claim.

    Used for the numeric cross-check of an identity proved elsewhere: the claim is
    registered once (``@claim``), and ``@evidence_for(id)`` adds evidence to it.
    """
    reg = registry if registry is not None else REGISTRY

    def decorate(fn: Check) -> Check:
        reg.add_evidence(claim_id, fn, _caller_file(fn))
        return fn

    return decorate


_imported: set[str] = set()


def discover(modules: Iterable[str] | None = None, registry: Registry | None = None) -> Registry:
    """Import every module under ``modules`` (packages are walked) so their claims register.

    Defaults to :data:`DEFAULT_PACKAGES` plus any module advertised under the entry-point
    group ``verify.claims`` by an installed package (a user's own papers). An entry
    ``file:PATH`` imports the claims file ``PATH`` (:func:`verify.discovery.import_file`).

    The built-in packages are imported from verify's installation, whatever ``sys.path``
    holds (:func:`verify.discovery.pin_builtins`). A module advertised by an entry point that
    fails to import (or a built-in package shadowed by one imported earlier) is skipped: its
    claims are dropped, the reason is kept in ``registry.broken`` and logged, and every other
    paper is still discovered. Any other failure raises :class:`DiscoveryError` naming the
    module and the ``file:line`` where it failed. ``registry.searched`` records where claims
    were looked for.
    """
    reg = registry if registry is not None else REGISTRY
    names = list(modules) if modules is not None else default_modules()
    advertised = {a.module: a for a in discovery.advertised()}
    already_pending = list(reg._pending)
    for name in names:
        if name in reg.broken:
            continue
        before, pending = set(c.id for c in reg), list(reg._pending)
        try:
            where = _load(name, reg, advertised)
        except Exception as e:
            shadowed = isinstance(e, discovery.ShadowedPackageError)
            if name not in advertised and not shadowed:
                raise
            reg.broken[name] = str(e)
            reg.drop({c.id for c in reg} - before)
            reg._pending = [p for p in reg._pending if any(p is q for q in pending)]
            log.warning("skipped claims module %s: %s", name, e)
            continue
        if where not in reg.searched:
            reg.searched.append(where)
    reg.validate(since=sum(1 for p in reg._pending if p in already_pending))
    return reg


def discover_selected(
    select: str | Sequence[str] | None = None,
    paper: str | Sequence[str] | None = None,
    registry: Registry | None = None,
    *,
    imports: bool = False,
) -> list[str]:
    """Discover the default claims sources, importing only the built-in modules that can hold
    the selected claims; return the modules imported (what a run's workers must import).

    When the claim index (:mod:`verify.claim_index`) is fresh, nothing is imported: the
    registry holds the recorded claims (stubs whose checks cannot run here) and the modules
    returned are those of the selected claims' checks. ``imports=True`` (claims run in this
    process) always imports. Without a usable index every source is discovered and recorded.

    The naming rule (:func:`selected_modules`) picks, for ``--claim nfa.ag.*`` or
    ``--paper nfa``, the paper packages ``proofs.nfa`` and ``numerics.nfa`` and, within
    them, the claims modules named ``ag``: a single claim then costs the imports of its
    own modules, not of every paper. Whenever the narrowed import cannot answer the
    selection (a pattern matches nothing there, or an ``evidence_for`` names a claim of a
    module not imported), every source is discovered, so the outcome is the same as
    :func:`discover` with the defaults: the same claims, and the same errors.
    """
    reg = registry if registry is not None else REGISTRY
    from . import claim_index

    if not imports:  # the claim index answers without importing, when it is fresh
        answered = claim_index.answer(reg, default_modules(), select, paper)
        if answered is not None:
            return answered
    claim_index.forget_stubs(reg)
    recordable = claim_index.untouched(reg, default_modules())  # before anything is imported
    narrowed = selected_modules(select, paper) if claim_index.index_dir() is None else None
    if narrowed is not None:
        modules = [*narrowed, *_entry_point_modules()]
        try:
            discover(modules, reg)
            reg.select(select, paper)
            return modules
        except (UnknownClaimError, ClaimDefinitionError):
            pass  # not answered by the narrowed modules: discover everything, as by default
    modules = default_modules()
    discover(modules, reg)
    if recordable:
        claim_index.record(reg, modules)
    return modules


_GLOB = re.compile(r"[*?\[\]]")


def selected_modules(
    select: str | Sequence[str] | None, paper: str | Sequence[str] | None
) -> list[str] | None:
    """The built-in modules that can hold the claims selected by id globs ``select`` and
    paper keys ``paper``, by the naming rule; ``None`` when the selection may lie anywhere.

    The rule: the claims of paper ``k`` live in the packages ``proofs.k`` and ``numerics.k``;
    and when such a package lists a claims module named ``s`` in ``__claims__``, the claims
    ``k.s.*`` live in the modules named ``s`` (tests/test_startup.py checks that every
    built-in claim follows it). A pattern whose paper key is a glob selects everything.
    """
    pats = [select] if isinstance(select, str) else list(select or [])
    papers = [paper] if isinstance(paper, str) else list(paper or [])
    if not pats and not papers:
        return None
    if any(discovery.builtin_home(top) is None for top in DEFAULT_PACKAGES):
        return None  # the defaults are not (only) the built-in papers: no rule to go by
    keys = set(papers)
    wanted: list[tuple[str, str | None]] = []  # (paper key, claims module name or None)
    for pat in pats:
        head, _, rest = pat.partition(".")
        if _GLOB.search(head):
            return None
        segment, _, tail = rest.partition(".")
        named = tail and not _GLOB.search(segment)
        wanted.append((head, segment if named else None))
    if papers:  # --paper and --claim together select their intersection
        wanted = [(k, s) for k, s in wanted if k in keys] or [(k, None) for k in sorted(keys)]
    out: list[str] = []
    for key, segment in wanted:
        for name in _paper_modules(key, segment):
            if name not in out:
                out.append(name)
    return out


def _paper_modules(key: str, segment: str | None) -> list[str]:
    """The built-in modules for claims ``key.segment.*`` (``key.*`` when segment is None)."""
    packages = [f"{top}.{key}" for top in DEFAULT_PACKAGES if _has_package(top, key)]
    if segment is None:
        return packages
    named = [
        f"{pkg}.{segment}"
        for pkg in packages
        if segment in (getattr(_import(pkg), "__claims__", None) or ())
    ]
    return named or packages


def _has_package(top: str, key: str) -> bool:
    home = discovery.builtin_home(top)
    return home is not None and (home / key / "__init__.py").is_file()


def _load(name: str, reg: Registry, advertised: dict[str, discovery.Advertised]) -> str:
    """Import the claims of one source; return how it is described to a user."""
    if name.startswith(discovery.FILE_PREFIX):
        path = name[len(discovery.FILE_PREFIX) :]
        try:
            mod = discovery.import_file(path)
        except (ClaimDefinitionError, DiscoveryError):
            raise
        except (Exception, SystemExit) as e:  # noqa: BLE001 - name the file and line, then stop
            raise DiscoveryError(
                f"cannot import claims file {path!r}{_failure_site(e)}: {_failure(e)}"
            ) from e
        reg.origins[mod.__name__] = shlex.quote(path)
        return f"file {path}"
    for mod in _walk(name):
        if mod in _imported:
            continue
        try:
            importlib.import_module(mod)
        except (ClaimDefinitionError, DiscoveryError):
            raise
        except (Exception, SystemExit) as e:  # noqa: BLE001 - report which file failed, then stop
            raise DiscoveryError(
                f"cannot import claims module {mod!r}{_failure_site(e)}: {_failure(e)}"
            ) from e
        _imported.add(mod)
    top = name.split(".", 1)[0]  # a built-in paper or claims module: its package's phrase
    home = discovery.builtin_home(top) if discovery.is_builtin(name) else None
    if home is not None:
        return f"package {top} ({home})"
    if name in advertised:
        return advertised[name].describe()
    if name not in DEFAULT_PACKAGES:
        reg.origins[name] = f"--module {name}"
    return f"module {name}"


def _failure(e: BaseException) -> str:
    """What went wrong in an import, as a user would say it."""
    if isinstance(e, SystemExit):
        return f"it called sys.exit({e.code!r})"
    return f"{type(e).__name__}: {e}"


def _failure_site(e: BaseException) -> str:
    """`` at file:line``: the last frame of the traceback outside the import machinery."""
    import traceback

    frames = [
        f
        for f in traceback.extract_tb(e.__traceback__)
        if "importlib" not in f.filename and not f.filename.startswith("<frozen")
    ]
    if isinstance(e, SyntaxError) and e.filename:
        return f" at {e.filename}:{e.lineno}"
    return f" at {frames[-1].filename}:{frames[-1].lineno}" if frames else ""


def default_modules() -> list[str]:
    """Where claims are discovered by default: ``proofs``, ``numerics``, and the modules that
    installed packages advertise under the entry-point group ``verify.claims``."""
    return [*DEFAULT_PACKAGES, *_entry_point_modules()]


def claim_modules(pkg: Any) -> list[str]:
    """The submodules of package ``pkg`` that hold claims, by the discovery rule:

    a package that lists its claim modules in ``__claims__`` (a sequence of submodule names,
    ``("identities", "em")``) is searched in exactly those, each of them a module or a package
    to which the same rule applies; a package without ``__claims__`` is walked whole, every
    submodule imported. A paper's shared model (``model.py``) is therefore public and is
    simply not listed.
    """
    listed = getattr(pkg, "__claims__", None)
    if listed is None:
        found = pkgutil.walk_packages(pkg.__path__, prefix=pkg.__name__ + ".")
        return sorted(info.name for info in found)
    if isinstance(listed, str) or not all(isinstance(n, str) for n in listed):
        raise DiscoveryError(
            f"{pkg.__name__}.__claims__ must be a sequence of submodule names, got {listed!r}"
        )
    out: list[str] = []
    for sub in listed:
        name = f"{pkg.__name__}.{sub}"
        out.append(name)
        mod = _import(name)
        if hasattr(mod, "__path__"):
            out.extend(claim_modules(mod))
    return out


def _import(name: str) -> Any:
    try:
        if discovery.is_builtin(name):
            discovery.pin_builtins()  # never a same-named folder from sys.path instead
        return importlib.import_module(name)
    except ModuleNotFoundError as e:
        if e.name == name.split(".")[0] or e.name == name:
            from .suggest import module_in_cwd

            here = module_in_cwd(name)
            if here is not None:  # as `python -m` would: the current folder, after sys.path
                sys.path.append(str(Path.cwd()))
                return _import(name)
        if e.name == name:
            raise DiscoveryError(f"no module named {name!r} to discover claims in") from None
        raise DiscoveryError(f"cannot import claims module {name!r}: {e}") from e
    except (ClaimDefinitionError, DiscoveryError):
        raise
    except (Exception, SystemExit) as e:  # noqa: BLE001
        raise DiscoveryError(
            f"cannot import claims module {name!r}{_failure_site(e)}: {_failure(e)}"
        ) from e


def _walk(name: str) -> list[str]:
    pkg = _import(name)
    _imported.add(name)
    out = [name]
    if hasattr(pkg, "__path__"):
        out.extend(claim_modules(pkg))
    return out


def _entry_point_modules() -> list[str]:
    return [a.module for a in discovery.advertised()]

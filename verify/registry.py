"""Registering claims (``@verify.claim``): the registry of claims and papers.

A claim is registered once, under a stable id, by the decorator :func:`claim` on its
check function. Further evidence for the same claim may come from another module
(typically the numeric cross-check in ``numerics/`` of an identity proved in ``proofs/``),
registered with :func:`evidence_for`. Mistakes are raised at import time, naming the
claim and the file: a duplicate id, a missing or malformed field, an unknown kind.
Finding and importing the modules that register claims is :mod:`verify.discovery`'s job.
"""

from __future__ import annotations

import contextlib
import fnmatch
import inspect
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from . import sources
from .combine import QUANTIFIERS, REPAIRS, UNDECIDED_REASONS  # combine, rules 6, 7 and 9
from .context import PROFILES
from .coverage import Statement, find_statements, statements_from_data
from .errors import ClaimDefinitionError, DuplicateClaimError, UnknownClaimError
from .verdict import Verdict

#: The kinds of claims (docs/api.md), plus ``informal`` for interpretive statements and
#: ``consistency`` for an arithmetic check of numbers the paper reports about itself (a total
#: against its parts, a constant stated twice): its verdict says the paper's numbers agree
#: with each other, not that a theorem holds, and reads so (verify.headline).
KINDS: tuple[str, ...] = ("identity", "property", "rate", "existence", "experiment", "informal",
                          "consistency")

#: The longest time budget a claim (``timeout=``) or a run (``--timeout``) may set: 7 days.
#: Longer ones overflow the operating system's timers.
MAX_TIMEOUT_S = 7 * 24 * 3600.0

_ID_RE = re.compile(r"^[a-z][a-z0-9_]*(\.[A-Za-z0-9_]+)+$")

Check = Callable[..., Any]

#: An ``evidence_for`` whose claim is not registered yet: (claim id, check, file).
PendingEvidence = tuple[str, Check, str]


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
        res: dict[str, Any] = dict(self.resources or {})
        if res and all(isinstance(v, dict) for v in res.values()):
            return dict(res.get(profile) or {})
        return dict(res)

    @property
    def code(self) -> list[str]:
        """``file:line`` of each check, the file relative to its package root (as in a repo)."""
        return [check_location(fn) for fn in self.checks]

    #: Whether this claim's metadata was read from the claim index, its checks not imported
    #: (:class:`verify.claim_index.IndexedClaim`): an import of its module replaces it.
    from_index: ClassVar[bool] = False

    def imported_checks(self) -> list[Check]:
        """The checks of this claim that were imported (callable in this process)."""
        return list(self.checks)

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

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Paper:
        """The paper :meth:`to_dict` wrote (the claim index stores papers so)."""
        return cls(**{**d, "statements": tuple(Statement.from_dict(s)
                                               for s in d.get("statements", ()))})


class Registry:
    """All claims known to this process, by id (insertion order = discovery order)."""

    def __init__(self) -> None:
        self.papers: dict[str, Paper] = {}
        self._claims: dict[str, Claim] = {}
        self._pending: list[PendingEvidence] = []  # evidence_for before its claim
        #: Where :func:`discover` looked for claims, one phrase each ("package proofs (...)").
        self.searched: list[str] = []
        #: Claims modules skipped because they failed to import: module -> the reason.
        self.broken: dict[str, str] = {}
        #: How a run names the source of a module's claims on its command line: module ->
        #: ``"path/to/claims.py"`` or ``"--module pkg.mod"`` ("" for default sources).
        self.origins: dict[str, str] = {}

    # -- registration -------------------------------------------------------------------------
    def add(self, c: Claim) -> None:
        other = self._claims.get(c.id)
        if other is not None and other.from_index:  # read from the claim index: the import
            c.checks.extend(other.imported_checks())  # replaces it
        elif other is not None:
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

    def pending(self) -> list[PendingEvidence]:
        """The ``evidence_for`` registrations still waiting for their claim (a snapshot)."""
        return list(self._pending)

    def forget_pending_since(self, snapshot: Sequence[PendingEvidence]) -> None:
        """Forget the waiting ``evidence_for`` registered after ``snapshot`` was taken (those
        of a claims module that failed to import)."""
        self._pending = [p for p in self._pending if any(p is q for q in snapshot)]

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
            if m.startswith(sources.FILE_PREFIX):
                m = sources.file_module_name(m[len(sources.FILE_PREFIX) :])
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
                f"{sources.ENTRY_POINT_GROUP!r}"
            )
        skipped = "".join(f"; skipped {m}: {why}" for m, why in self.broken.items())
        return f"claims were looked for in: {looked}{skipped}"

    def validate(self, since: Sequence[PendingEvidence] = ()) -> None:
        """Raise if some ``evidence_for`` registered after the snapshot ``since``
        (:meth:`pending`) names a claim nobody registered. (A module imported directly,
        outside a discovery, may leave its ``evidence_for`` pending until its claim's own
        module is imported; a discovery answers only for the modules it imported itself.)"""
        new = [p for p in self._pending if p not in since]
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

    @contextlib.contextmanager
    def emptied(self) -> Iterator[Registry]:
        """This registry, empty for the duration of the ``with`` block and given back with
        what it held afterwards (a test that registers into the global registry)."""
        saved = (dict(self._claims), dict(self.papers), list(self.searched), dict(self.broken),
                 dict(self.origins), list(self._pending))
        self.clear()
        try:
            yield self
        finally:
            self.clear()
            self._claims.update(saved[0])
            self.papers.update(saved[1])
            self.searched.extend(saved[2])
            self.broken.update(saved[3])
            self.origins.update(saved[4])
            self._pending.extend(saved[5])

    def clear(self) -> None:
        """Forget every claim, paper and record of where claims were looked for."""
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
            if by_profile or expect is None:
                exp = by_profile.get("quick")
            else:  # a verdict, or an empty dict (which parse refuses, saying why)
                exp = Verdict.parse(expect)  # type: ignore[arg-type]
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
                undecided=(undecided[0], undecided[1]) if undecided is not None else None,
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


#: Names that moved to :mod:`verify.discovery`, still importable from here.
_DISCOVERY_NAMES = frozenset({
    "DEFAULT_PACKAGES", "claim_modules", "default_modules", "discover", "discover_selected",
    "selected_modules",
})


def __getattr__(name: str) -> Any:
    """``verify.registry.discover`` and the other discovery names, from
    :mod:`verify.discovery` (which imports this module, so not at import time)."""
    if name in _DISCOVERY_NAMES:
        from . import discovery

        return getattr(discovery, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

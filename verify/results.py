"""The result of a claim, the results of a run, and their JSON-lines file.

One line per claim, written as soon as the claim finishes (flushed and synced, so an
interrupted run loses nothing already done). The record holds at least ``id``, ``paper``,
``verdict``, ``summary``, ``expect``, ``elapsed_s`` and ``evidence``; docs/guide.md ("The results
file") describes every field.

The file is safe to keep beside other data: a run holds it with :func:`lock` (a second run
on the same file fails at once instead of silently overwriting the first one's results),
rewrites go to a new file renamed into place and never through a symbolic link, a record
that could not be read back is replaced by the claim UNDECIDED (:func:`storable`), and
:func:`load` names the file and line of anything malformed.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import logging
import os
import re
import stat
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from .errors import ResultsFileError, ResultsFileInUseError, UnknownClaimError
from .evidence import Evidence
from .jsonable import to_jsonable
from .printable import printable
from .verdict import Verdict

log = logging.getLogger(__name__)

#: The version of the record layout this verify writes (``schema_version`` in each record and
#: in the ``.meta.json`` sidecar). A record without it is version 1 (files written before the
#: field existed) and is read as it is; a record of a newer version than this is refused,
#: naming the file and line, since its fields may mean what this version cannot know.
#: The layouts: 1 - the fields up to ``output``; 2 - ``schema_version`` itself.
SCHEMA_VERSION = 2


@dataclass
class ClaimResult:
    """A claim's verdict, with the evidence that decided it."""

    id: str
    paper: str
    verdict: Verdict
    summary: str
    expect: Verdict | None = None
    elapsed_s: float = 0.0
    evidence: list[Evidence] = field(default_factory=list)
    readings: dict[str, dict[str, str]] = field(default_factory=dict)
    where: str = ""
    kind: str = ""
    statement: str = ""
    reading_statements: dict[str, str] = field(default_factory=dict)
    seed: int | None = None
    run_seed: int = 0
    profile: str = "quick"
    device: str = "cpu"
    error: str | None = None
    rerun: str = ""
    scope: str | None = None  # for PROVED: "general" or "bounded" (verify.combine rule 5)
    severity: str | None = None  # for REFUTED: "erratum", "overstated", "false" (rule 6)
    repaired_by: str | None = None  # the reading whose verdict made the severity
    quantifier: str = "forall"  # what reading A quantifies: "forall" / "exists" (combine rule 7)
    #: The reading that heads and why (verify.combine rule 8); the verdict above is its verdict.
    headline_reading: str = "A"
    headline_reason: str = ""
    #: Defects of the text a referee fixes with a remark, ``[{"reading", "what"}]`` (rule 8).
    errata: list[dict[str, str]] = field(default_factory=list)
    severity_clause: str | None = None  # which clause of the severity rule applies (rule 6)
    #: For UNDECIDED: informal, open_setting, needs_compute, timeout, inconclusive (rule 9).
    undecided_reason: str | None = None
    undecided_detail: str | None = None
    code: list[str] = field(default_factory=list)  # file:line of each check
    paper_title: str = ""
    #: The tail of what the claim printed, ``{"stdout": ..., "stderr": ...}`` (empty ones left
    #: out), each its last 8 KiB with a note of how much was cut (verify.isolation).
    output: dict[str, str] = field(default_factory=dict)

    @property
    def drift(self) -> bool:
        """True when the claim has an ``expect`` and the verdict differs from it."""
        return self.expect is not None and self.verdict is not self.expect

    @property
    def crashed(self) -> bool:
        """True when the claim crashed or timed out (``error`` holds why): a check raised or
        returned no evidence, or the claim's process died or ran past its time budget."""
        return self.error is not None

    def to_dict(self) -> dict[str, Any]:
        return to_jsonable(
            {
                "schema_version": SCHEMA_VERSION,
                "id": self.id,
                "paper": self.paper,
                "verdict": self.verdict.value,
                "scope": self.scope,
                "severity": self.severity,
                "repaired_by": self.repaired_by,
                "quantifier": self.quantifier,
                "headline_reading": self.headline_reading,
                "headline_reason": self.headline_reason,
                "errata": self.errata,
                "severity_clause": self.severity_clause,
                "undecided_reason": self.undecided_reason,
                "undecided_detail": self.undecided_detail,
                "summary": self.summary,
                "expect": self.expect.value if self.expect else None,
                "drift": self.drift,
                "elapsed_s": round(self.elapsed_s, 4),
                "where": self.where,
                "kind": self.kind,
                "statement": self.statement,
                "readings": self.readings,
                "reading_statements": self.reading_statements,
                "seed": self.seed,
                "run_seed": self.run_seed,
                "profile": self.profile,
                "device": self.device,
                "error": self.error,
                "rerun": self.rerun,
                "code": self.code,
                "paper_title": self.paper_title,
                "output": self.output,
                "evidence": [e.to_dict() for e in self.evidence],
            }
        )

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> ClaimResult:
        """The result a record holds; :class:`ResultsFileError` names what is malformed."""
        try:
            check_record(d)
            return cls(
                id=d["id"],
                paper=d["paper"],
                verdict=Verdict.parse(d["verdict"]),
                summary=d.get("summary", ""),
                expect=Verdict.parse(d["expect"]) if d.get("expect") else None,
                elapsed_s=float(d.get("elapsed_s") or 0.0),
                evidence=[Evidence.from_dict(e) for e in d.get("evidence", [])],
                readings=d.get("readings", {}),
                where=d.get("where", ""),
                kind=d.get("kind", ""),
                statement=d.get("statement", ""),
                reading_statements=d.get("reading_statements", {}),
                seed=d.get("seed"),
                run_seed=int(d.get("run_seed", 0)),
                profile=d.get("profile", "quick"),
                device=d.get("device", "cpu"),
                error=d.get("error"),
                rerun=d.get("rerun", ""),
                scope=d.get("scope"),
                severity=d.get("severity"),
                repaired_by=d.get("repaired_by"),
                quantifier=d.get("quantifier") or "forall",
                headline_reading=d.get("headline_reading") or "A",
                headline_reason=d.get("headline_reason") or "",
                errata=[dict(e) for e in d.get("errata") or []],
                severity_clause=d.get("severity_clause"),
                undecided_reason=d.get("undecided_reason"),
                undecided_detail=d.get("undecided_detail"),
                code=list(d.get("code") or []),
                paper_title=d.get("paper_title") or "",
                output=dict(d.get("output") or {}),
            )
        except (KeyError, ValueError, TypeError) as e:  # ResultsFileError is a ValueError
            cid = d.get("id", "?") if isinstance(d, dict) else "?"
            raise ResultsFileError(f"malformed result record for {_show(cid)}: {e}") from e


class Results:
    """The results of a run: a read-only mapping from claim id to :class:`ClaimResult`, in
    claim order, as :func:`verify.run` returns and :func:`load` reads them.

    ::

        results = verify.run("nfa.*")
        results["nfa.ag.linear_identity"].verdict     # by id (KeyError-like UnknownClaimError)
        for r in results: ...                         # iterates the ClaimResults, in order
        "nfa.eq.iff" in results, len(results)
        results.get(id), results.ids(), results.items()
        results.drifted                               # verdicts that differ from expect=
        results.exit_code                             # 0; 1 when some verdict drifted; 3 ERROR
        results.errored                               # claims whose code crashed (ERROR)
        results.crashed, results.strict_exit_code     # ... or some claim crashed (--strict)
        results.counts(), results.verdicts()

    Iteration yields the results themselves, not the ids (``ids()`` / ``items()`` give those).
    ``path`` is the results file they were written to or read from (``None`` when built in
    memory).
    """

    def __init__(self, items: Iterable[ClaimResult] = (), path: Path | None = None) -> None:
        self._items: list[ClaimResult] = list(items)
        self._by_id: dict[str, ClaimResult] = {r.id: r for r in self._items}
        self.path = path

    def __iter__(self) -> Iterator[ClaimResult]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __getitem__(self, claim_id: str) -> ClaimResult:
        try:
            return self._by_id[claim_id]
        except (KeyError, TypeError):
            raise UnknownClaimError(f"no result for claim {claim_id!r}") from None

    def __contains__(self, claim_id: object) -> bool:
        return isinstance(claim_id, str) and claim_id in self._by_id

    def __repr__(self) -> str:
        counts = ", ".join(f"{n} {v.value}" for v, n in self.counts().items() if n)
        where = f" from {str(self.path)!r}" if self.path is not None else ""
        claims = "1 claim" if len(self) == 1 else f"{len(self)} claims"
        return f"<Results: {claims}{where}: {counts or 'none'}>"

    def get(self, claim_id: str, default: ClaimResult | None = None) -> ClaimResult | None:
        """The result of ``claim_id``, or ``default`` when the run has none."""
        return self._by_id.get(claim_id, default)

    def ids(self) -> list[str]:
        """The claim ids, in order."""
        return [r.id for r in self._items]

    def items(self) -> list[tuple[str, ClaimResult]]:
        """``(id, result)`` pairs, in order."""
        return [(r.id, r) for r in self._items]

    @property
    def drifted(self) -> list[ClaimResult]:
        """Results whose verdict differs from the claim's ``expect``."""
        return [r for r in self._items if r.drift]

    @property
    def errored(self) -> list[ClaimResult]:
        """Results of claims whose code crashed (status ERROR, :mod:`verify.execute`)."""
        return [r for r in self._items if r.verdict is Verdict.ERROR]

    @property
    def exit_code(self) -> int:
        """What ``verify run`` exits with: 3 when some claim's code crashed (ERROR), else 1
        when some verdict differs from its ``expect``, else 0."""
        if self.errored:
            return 3
        return 1 if self.drifted else 0

    @property
    def crashed(self) -> list[ClaimResult]:
        """Results of claims that crashed or timed out (see :attr:`ClaimResult.crashed`),
        whatever their ``expect``."""
        return [r for r in self._items if r.crashed]

    @property
    def strict_exit_code(self) -> int:
        """What ``verify run --strict`` exits with: 3 when some claim's code crashed (ERROR),
        else 1 when some verdict drifted or some claim timed out or was killed (even without
        an ``expect``), else 0."""
        if self.errored:
            return 3
        return 1 if self.drifted or self.crashed else 0

    def counts(self) -> dict[Verdict, int]:
        """Claims per verdict, every verdict present (0 when none)."""
        out = {v: 0 for v in Verdict}
        for r in self._items:
            out[r.verdict] += 1
        return out

    def verdicts(self) -> dict[str, Verdict]:
        """Each claim's verdict by id."""
        return {r.id: r.verdict for r in self._items}


# -- what a record must hold ------------------------------------------------------------------
_TEXT = ("summary", "where", "kind", "statement", "profile", "device", "rerun", "paper_title",
         "quantifier", "headline_reading", "headline_reason")
_TEXT_OR_NULL = ("expect", "error", "scope", "severity", "repaired_by", "severity_clause",
                 "undecided_reason", "undecided_detail")
_EVIDENCE_TEXT = ("reading", "part")
_EVIDENCE_TEXT_OR_NULL = ("generality", "dtype", "device", "rerun", "audit", "scope")


def _show(value: Any) -> str:
    """``repr(value)``, cut to one short line for an error message."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _bad(what: str, value: Any) -> ResultsFileError:
    return ResultsFileError(f"{what}, got {_show(value)}")


def _check_verdict(value: Any, where: str = "") -> None:
    """A verdict as verify writes it: one of the names, in capitals (``"supported"`` is not
    what verify writes, so a record holding it was made or edited by hand)."""
    if not isinstance(value, str) or value not in Verdict.__members__:
        names = ", ".join(v.value for v in Verdict)
        raise ResultsFileError(f"{where}unknown verdict {_show(value)}; expected one of {names}")


def _check_evidence(k: int, e: Any) -> None:
    if not isinstance(e, dict):
        raise _bad(f"evidence {k} must be an object", e)
    at = f"evidence {k}: "
    for key in ("verdict", "summary"):
        if key not in e:
            raise ResultsFileError(f"{at}{key} is missing")
    _check_verdict(e["verdict"], at)
    if not isinstance(e["summary"], str):
        raise _bad(f"{at}summary must be a string", e["summary"])
    from .evidence import METHODS

    if e.get("method", "numeric") not in METHODS:
        raise _bad(f"{at}method must be one of {', '.join(METHODS)}", e.get("method"))
    for key in _EVIDENCE_TEXT:
        if key in e and not isinstance(e[key], str):
            raise _bad(f"{at}{key} must be a string", e[key])
    for key in _EVIDENCE_TEXT_OR_NULL:
        if e.get(key) is not None and not isinstance(e[key], str):
            raise _bad(f"{at}{key} must be a string or null", e[key])
    steps = e.get("steps", [])
    if not isinstance(steps, list) or not all(isinstance(x, str) for x in steps):
        raise _bad(f"{at}steps must be a list of strings", steps)
    ce = e.get("counterexample")
    if ce is not None and not isinstance(ce, dict):
        raise _bad(f"{at}counterexample must be an object or null", ce)
    if not isinstance(e.get("numbers", {}), dict):
        raise _bad(f"{at}numbers must be an object", e["numbers"])
    figures = e.get("figures", [])
    if not isinstance(figures, list) or not all(isinstance(x, dict) for x in figures):
        raise _bad(f"{at}figures must be a list of objects", figures)
    if e.get("seed") is not None and not _is_int(e["seed"]):
        raise _bad(f"{at}seed must be an integer or null", e["seed"])
    if e.get("elapsed_s") is not None and not _is_number(e["elapsed_s"]):
        raise _bad(f"{at}elapsed_s must be a number or null", e["elapsed_s"])


def check_record(d: Any) -> None:
    """Raise :class:`ResultsFileError` naming the first field of ``d`` (one decoded line of a
    results file) whose type is not what :class:`ClaimResult`, ``verify show`` and the report
    rely on, so that a bad file fails in one line here rather than in a traceback later."""
    if not isinstance(d, dict):
        kind = "null" if d is None else type(d).__name__
        raise ResultsFileError(f"expected a JSON object, got {kind}")
    version = d.get("schema_version", 1)
    if not _is_int(version) or version < 1:
        raise _bad("schema_version must be an integer >= 1", version)
    if version > SCHEMA_VERSION:
        raise ResultsFileError(
            f"schema_version {version} is newer than this verify reads ({SCHEMA_VERSION}); "
            f"upgrade verify to read this file"
        )
    for key in ("id", "paper", "verdict"):
        if key not in d:
            raise ResultsFileError(f"{key} is missing")
    if not isinstance(d["id"], str) or not d["id"]:
        raise _bad("id must be a non-empty string", d["id"])
    if not isinstance(d["paper"], str):
        raise _bad("paper must be a string", d["paper"])
    _check_verdict(d["verdict"])
    for key in _TEXT:
        if key in d and not isinstance(d[key], str):
            raise _bad(f"{key} must be a string", d[key])
    for key in _TEXT_OR_NULL:
        if d.get(key) is not None and not isinstance(d[key], str):
            raise _bad(f"{key} must be a string or null", d[key])
    if d.get("expect"):
        _check_verdict(d["expect"], "expect: ")
    if d.get("elapsed_s") is not None and not _is_number(d["elapsed_s"]):
        raise _bad("elapsed_s must be a number", d["elapsed_s"])
    if d.get("seed") is not None and not _is_int(d["seed"]):
        raise _bad("seed must be an integer or null", d["seed"])
    if "run_seed" in d and not _is_int(d["run_seed"]):
        raise _bad("run_seed must be an integer", d["run_seed"])
    readings = d.get("readings", {})
    if not isinstance(readings, dict):
        raise _bad("readings must be an object", readings)
    for label, info in readings.items():
        if not isinstance(info, dict):
            raise _bad(f"readings[{label!r}] must be an object", info)
        if "verdict" not in info:
            raise ResultsFileError(f"readings[{label!r}]: verdict is missing")
        _check_verdict(info["verdict"], f"readings[{label!r}]: ")
        for key in ("summary", "scope", "repairs"):
            if info.get(key) is not None and not isinstance(info[key], str):
                raise _bad(f"readings[{label!r}]: {key} must be a string", info[key])
    statements = d.get("reading_statements", {})
    if not isinstance(statements, dict) or not all(isinstance(v, str) for v in statements.values()):
        raise _bad("reading_statements must be an object of strings", statements)
    output = d.get("output") or {}
    if not isinstance(output, dict) or not all(isinstance(v, str) for v in output.values()):
        raise _bad("output must be an object of strings", output)
    errata = d.get("errata") or []
    if not isinstance(errata, list) or not all(
            isinstance(e, dict) and all(isinstance(v, str) for v in e.values()) for e in errata):
        raise _bad("errata must be a list of objects of strings", errata)
    code = d.get("code") or []
    if not isinstance(code, list) or not all(isinstance(x, str) for x in code):
        raise _bad("code must be a list of strings", code)
    evidence = d.get("evidence", [])
    if not isinstance(evidence, list):
        raise _bad("evidence must be a list", evidence)
    for k, e in enumerate(evidence, 1):
        _check_evidence(k, e)


# -- the JSON-lines file -----------------------------------------------------------------------
def dumps(result: ClaimResult) -> str:
    return json.dumps(result.to_dict(), ensure_ascii=False, allow_nan=False)


def _scrub(value: Any) -> Any:
    """``value`` with every string made encodable (lone surrogates as ``\\udXXX`` text)."""
    if isinstance(value, str):
        return value.encode("utf-8", "backslashreplace").decode("utf-8")
    if isinstance(value, dict):
        return {_scrub(k): _scrub(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_scrub(v) for v in value]
    return value


def storable(result: ClaimResult) -> ClaimResult:
    """``result`` when its record can be written and read back by :func:`load`; otherwise
    the claim UNDECIDED with the reason, so that one claim's odd data (a lone surrogate, an
    integer too long to print, a field of the wrong shape) costs that claim alone and never
    the results file, the rest of the run or a later ``--resume``."""
    try:
        line = dumps(result)
        line.encode("utf-8")
        check_record(json.loads(line))
        return result
    except (ValueError, TypeError, RecursionError) as e:  # UnicodeError, ResultsFileError too
        reason = _scrub(f"result could not be saved: {type(e).__name__}: {e}")
    reason = reason if len(reason) <= 300 else reason[:297] + "..."
    ev = Evidence.undecided(reason)
    fixed = replace(result, verdict=Verdict.UNDECIDED, summary=reason, evidence=[ev],
                    readings={}, error=reason)
    for name in ("scope", "severity", "repaired_by", "severity_clause"):  # qualify a verdict
        if hasattr(fixed, name):
            setattr(fixed, name, None)
    fixed.headline_reading, fixed.errata = "A", []
    fixed.undecided_reason, fixed.undecided_detail = "inconclusive", reason
    for f in fields(fixed):
        if f.name not in ("verdict", "expect", "evidence"):
            setattr(fixed, f.name, _scrub(getattr(fixed, f.name)))
    try:
        check_record(json.loads(dumps(fixed)))
        return fixed
    except (ValueError, TypeError, RecursionError):
        return ClaimResult(id=_scrub(str(result.id)), paper=_scrub(str(result.paper)),
                           verdict=Verdict.UNDECIDED, summary=reason, expect=result.expect,
                           evidence=[ev], error=reason)


_OPEN_FLAGS = os.O_CLOEXEC | getattr(os, "O_NOFOLLOW", 0)


def _symlink_error(path: Path) -> ResultsFileError:
    return ResultsFileError(
        f"results file {str(path)!r} is a symbolic link: not writing through it (that would "
        "change the file it points to); give the path of a regular file"
    )


def append(path: Path, result: ClaimResult) -> None:
    """Append one record and hand it to the OS before returning, so that it survives the
    runner being killed. (No fsync per line: it cost ~50 ms a claim here and protects only
    against a power cut; the final rewrite in claim order is synced.) A symbolic link at
    ``path`` is refused, never followed: the run's own file is a regular one."""
    line = dumps(result) + "\n"
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | _OPEN_FLAGS, 0o644)
    except OSError as e:
        if e.errno == errno.ELOOP:
            raise _symlink_error(Path(path)) from None
        raise ResultsFileError(f"cannot write results file {str(path)!r}: {e.strerror}") from None
    with open(fd, "w", encoding="utf-8") as f:
        f.write(line)


def write_atomic(path: str | os.PathLike[str], text: str) -> None:
    """Replace ``path`` with a new file holding ``text``: written to a fresh temporary file
    in the same folder, synced, then renamed over ``path``. A reader sees the old file or
    the new one, never half of one, and a symbolic link at ``path`` is replaced by the new
    file instead of being followed (the file it pointed to is left as it was).

    A failure (a full disk, a read-only folder) is a :class:`ResultsFileError` naming
    ``path``, with the file as it was and no temporary file left behind."""
    path = Path(path)
    mode = 0o644
    try:
        st = os.lstat(path)
        if stat.S_ISREG(st.st_mode):
            mode = stat.S_IMODE(st.st_mode)
    except FileNotFoundError:
        pass
    except OSError as e:
        raise _write_error(path, e) from None
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as e:
        raise _write_error(path, e) from None
    try:
        with open(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fchmod(f.fileno(), mode)
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException as e:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(e, OSError):
            raise _write_error(path, e) from None
        raise


def _write_error(path: Path, e: OSError) -> ResultsFileError:
    return ResultsFileError(f"cannot write {str(path)!r}: {e.strerror or e}")


def write_all(path: Path, results: Iterable[ClaimResult]) -> None:
    """Atomically replace ``path`` with ``results`` (the runner writes its file in claim order
    with it)."""
    write_atomic(path, "".join(dumps(r) + "\n" for r in results))


@contextlib.contextmanager
def lock(path: str | os.PathLike[str]) -> Iterator[None]:
    """Hold ``path`` for one run: an exclusive ``flock`` on the sidecar ``<path>.lock``, which
    holds the holder's process id and is removed on release.

    Two runs writing one results file would each rewrite it at the end and silently lose
    the other's results; the second therefore fails at once with
    :class:`~verify.errors.ResultsFileInUseError`, naming the file and the holder's pid.
    """
    path = Path(path)
    lock_path = path.with_name(path.name + ".lock")
    while True:
        try:
            fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | _OPEN_FLAGS, 0o644)
        except OSError as e:
            raise ResultsFileError(
                f"cannot lock results file {str(path)!r} ({lock_path.name}: {e.strerror})"
            ) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = os.read(fd, 32).decode("ascii", "replace").strip() or "unknown"
            os.close(fd)
            raise ResultsFileInUseError(
                f"results file {str(path)!r} is being written by another verify run (pid "
                f"{holder}); wait for it to finish or choose another --json file"
            ) from None
        try:  # the previous holder may have removed the lock file between our open and flock
            same = os.stat(lock_path, follow_symlinks=False).st_ino == os.fstat(fd).st_ino
        except FileNotFoundError:
            same = False
        if same:
            break
        os.close(fd)
    try:
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        yield
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(lock_path)
        os.close(fd)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _decode(raw: bytes) -> Any:
    d = json.loads(raw.decode("utf-8"), parse_constant=_no_constant)
    json.dumps(d, ensure_ascii=False).encode("utf-8")  # a lone surrogate, escaped in the line
    return d


#: The largest results file :func:`load` reads (a run of every built-in claim writes a few
#: MiB); anything larger is refused rather than read into memory.
MAX_RESULTS_BYTES = 256 * 2**20


def _kind_of(mode: int) -> str:
    for test, name in ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "a special file"


def read_regular(path: str | os.PathLike[str], what: str, limit: int) -> bytes:
    """The bytes of ``path``, which must be a regular file (a symbolic link to one is
    followed) of at most ``limit`` bytes; else :class:`ResultsFileError` naming ``what`` and
    the path. A FIFO or a device is refused before it is read (and opened without blocking),
    so that it can neither hang the command nor feed it endless bytes."""
    p = Path(path)

    def refuse(why: str) -> ResultsFileError:
        return ResultsFileError(f"{what} {str(p)!r} {why}")

    try:
        st = os.stat(p)
    except FileNotFoundError:
        raise refuse("does not exist") from None
    except OSError as e:
        raise refuse(f"cannot be read: {e.strerror}") from None
    if stat.S_ISDIR(st.st_mode):
        raise refuse("is a folder, not a file")
    if not stat.S_ISREG(st.st_mode):
        raise refuse(f"is not a regular file ({_kind_of(st.st_mode)})")
    try:
        fd = os.open(p, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as e:
        raise refuse(f"cannot be read: {e.strerror}") from None
    with open(fd, "rb") as f:
        st = os.fstat(fd)  # what was opened, should the path have changed since
        if not stat.S_ISREG(st.st_mode):
            raise refuse(f"is not a regular file ({_kind_of(st.st_mode)})")
        if st.st_size > limit:
            raise refuse(f"is larger than the {limit / 2**20:g} MiB limit "
                         f"({st.st_size / 2**20:.1f} MiB)")
        data = f.read(limit + 1)
    if len(data) > limit:
        raise refuse(f"is larger than the {limit / 2**20:g} MiB limit")
    return data


def looks_like_results(path: str | os.PathLike[str]) -> bool:
    """Whether the regular file ``path`` is empty or starts with a claim's record (what a
    run may replace); a claims source, notes or any other JSON is not."""
    with open(path, "rb") as f:
        head = f.read(64 * 1024)
    if not head.strip():
        return True
    first = head.split(b"\n", 1)[0]
    try:
        d = json.loads(first.decode("utf-8"))
    except ValueError:  # a first line longer than the head, or cut by a killed run:
        return re.match(rb'\s*\{\s*"(schema_version|id)"\s*:', first) is not None  # its opening
    return isinstance(d, dict) and "id" in d and "verdict" in d


def load(path: str | os.PathLike[str], *, strict: bool = False) -> Results:
    """Read a results file; every malformed line is an error naming the file and the line.

    Only a regular file of at most :data:`MAX_RESULTS_BYTES` is read (:func:`read_regular`).
    The one exception, unless ``strict``: an incomplete last line (a ``{`` with no closing
    newline, as a run killed while writing it leaves) is skipped with a warning, so that
    ``--resume`` runs that claim again. Garbage anywhere else, or a last line that ends
    cleanly, is an error: a file of garbage is never read as an empty file.

    Each record is then re-checked against the combining rule (:func:`recheck`): one whose
    verdict its own evidence does not give is demoted to UNDECIDED, with one warning naming
    the file, the line and the claim (``--resume`` runs it again).
    """
    p = Path(path)
    data = read_regular(p, "results file", MAX_RESULTS_BYTES)
    lines = data.split(b"\n")
    if lines[-1] == b"":
        lines.pop()
    items: dict[str, ClaimResult] = {}
    for n, raw in enumerate(lines, 1):
        if not raw.strip():
            continue
        try:
            d = _decode(raw)
        except (ValueError, RecursionError) as e:  # JSON, UTF-8, a 5000-digit integer...
            cut = n == len(lines) and not data.endswith(b"\n")
            if cut and raw.lstrip().startswith(b"{") and not strict:
                log.warning("%s:%d: skipped an incomplete last line (a run interrupted while "
                            "writing it; --resume runs that claim again)", printable(p), n)
                continue
            why = f"{type(e).__name__}: {e}" if isinstance(e, RecursionError) else str(e)
            raise ResultsFileError(f"{p}:{n}: not a JSON line ({why})") from None
        try:
            r = ClaimResult.from_dict(d)
        except ResultsFileError as e:
            raise ResultsFileError(f"{p}:{n}: {e}") from None
        r, demotion = recheck(r)
        if demotion:
            log.warning("%s:%d: claim %s demoted to UNDECIDED: %s", printable(p), n,
                        printable(r.id, one_line=True), printable(demotion))
        items[r.id] = r  # a later line for the same id supersedes an earlier one
    return Results(items.values(), path=p)


# -- a loaded record re-checked against the combining rule --------------------------------------
def _follows(record: Verdict, combined: Verdict) -> bool:
    """Whether a stored verdict is one its evidence gives. UNDECIDED (and any status the
    combining rule does not produce) claims nothing, so it always stands."""
    from .combine import STRENGTH

    decides = record in STRENGTH or record in (Verdict.REFUTED, Verdict.NOT_REPRODUCED)
    return record is combined or record is Verdict.UNDECIDED or not decides


def _demotions(evidence: list[Evidence], reading: str, quantifier: str = "forall") -> str:
    """Why the audit demotes some of this reading's stored pieces, if it does."""
    from .combine import audit

    notes = [audit(e, quantifier).audit for e in evidence
             if e.reading == reading and audit(e, quantifier).verdict is not e.verdict]
    return f" ({'; '.join(dict.fromkeys(n for n in notes if n))})" if notes else ""


def recheck(r: ClaimResult) -> tuple[ClaimResult, str | None]:
    """``(r, None)`` when the stored verdicts of ``r`` are what verify/combine.py's rule gives
    from its stored evidence (the reading that heads, every other reading, each under the
    quantifier it states, and the scope of a PROVED); else ``(demoted, why)``: the claim
    UNDECIDED, marked as an error so that ``--resume`` runs it again and ``--strict`` counts
    it."""
    from .combine import AS_PRINTED, audit, combine, scope_of

    def quantifier(label: str) -> str:
        if label == AS_PRINTED:
            return r.quantifier or "forall"
        return (r.readings.get(label) or {}).get("quantifier") or "forall"

    head = r.headline_reading or AS_PRINTED
    evidence = [audit(e, quantifier(e.reading)) for e in r.evidence]
    problems = []
    main = combine(evidence, head, quantifier(head)).verdict
    if not _follows(r.verdict, main):
        problems.append(f"its verdict {r.verdict.value} does not follow from its evidence, "
                        f"which gives {main.value} for reading {head}"
                        f"{_demotions(r.evidence, head, quantifier(head))}")
    readings = {}
    for label, info in r.readings.items():
        stored = Verdict(info["verdict"])
        got = combine(evidence, label, quantifier(label)).verdict
        readings[label] = got
        if not _follows(stored, got):
            problems.append(f"reading {label}: its verdict {stored.value} does not follow from "
                            f"its evidence, which gives {got.value}"
                            f"{_demotions(r.evidence, label, quantifier(label))}")
    if not problems and r.verdict is Verdict.PROVED and r.scope == "general" \
            and scope_of(evidence, head, quantifier(head)) != "general":
        problems.append("its PROVED is general, but its evidence proves it only at instances")
    if not problems:
        return r, None
    why = "; ".join(problems)
    note = f"record rejected on loading: {why}"
    demoted_readings = {
        label: dict(info, verdict=Verdict.UNDECIDED.value)
        if not _follows(Verdict(info["verdict"]), readings[label]) else info
        for label, info in r.readings.items()
    }
    demoted = replace(r, verdict=Verdict.UNDECIDED, scope=None, severity=None,
                      repaired_by=None, summary=f"[{r.verdict.value} rejected: {why}] {r.summary}",
                      evidence=evidence, readings=demoted_readings,
                      error=note if r.error is None else f"{r.error}; {note}")
    return demoted, why

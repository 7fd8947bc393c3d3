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
import stat
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from .errors import ResultsFileError, ResultsFileInUseError, UnknownClaimError
from .evidence import Evidence
from .jsonable import to_jsonable
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
        results.exit_code                             # 0, or 1 when some verdict drifted
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
    def exit_code(self) -> int:
        """0 when every verdict matches its ``expect`` (or none has one), else 1 (what
        ``verify run`` exits with)."""
        return 1 if self.drifted else 0

    @property
    def crashed(self) -> list[ClaimResult]:
        """Results of claims that crashed or timed out (see :attr:`ClaimResult.crashed`),
        whatever their ``expect``."""
        return [r for r in self._items if r.crashed]

    @property
    def strict_exit_code(self) -> int:
        """What ``verify run --strict`` exits with: 1 when some verdict drifted or some claim
        crashed or timed out (even without an ``expect``), else 0."""
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
_TEXT = ("summary", "where", "kind", "statement", "profile", "device", "rerun", "paper_title")
_TEXT_OR_NULL = ("expect", "error", "scope", "severity", "repaired_by")
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
    try:
        Verdict.parse(value)
    except ValueError as e:
        raise ResultsFileError(f"{where}{e}") from None


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
    statements = d.get("reading_statements", {})
    if not isinstance(statements, dict) or not all(isinstance(v, str) for v in statements.values()):
        raise _bad("reading_statements must be an object of strings", statements)
    output = d.get("output") or {}
    if not isinstance(output, dict) or not all(isinstance(v, str) for v in output.values()):
        raise _bad("output must be an object of strings", output)
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
    for name in ("scope", "severity", "repaired_by"):  # they qualify a PROVED or a REFUTED
        if hasattr(fixed, name):
            setattr(fixed, name, None)
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
    file instead of being followed (the file it pointed to is left as it was)."""
    path = Path(path)
    mode = 0o644
    try:
        st = os.lstat(path)
        if stat.S_ISREG(st.st_mode):
            mode = stat.S_IMODE(st.st_mode)
    except FileNotFoundError:
        pass
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with open(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fchmod(f.fileno(), mode)
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def write_all(path: Path, results: Iterable[ClaimResult]) -> None:
    """Atomically replace ``path`` with ``results`` (used to put the file in claim order)."""
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


def load(path: str | os.PathLike[str], *, strict: bool = False) -> Results:
    """Read a results file; every malformed line is an error naming the file and the line.

    The one exception, unless ``strict``: an incomplete last line (a ``{`` with no closing
    newline, as a run killed while writing it leaves) is skipped with a warning, so that
    ``--resume`` runs that claim again. Garbage anywhere else, or a last line that ends
    cleanly, is an error: a file of garbage is never read as an empty file.
    """
    p = Path(path)
    try:
        data = p.read_bytes()
    except FileNotFoundError:
        raise ResultsFileError(f"results file {str(p)!r} does not exist") from None
    except IsADirectoryError:
        raise ResultsFileError(f"results file {str(p)!r} is a folder, not a file") from None
    except OSError as e:
        raise ResultsFileError(f"results file {str(p)!r} cannot be read: {e.strerror}") from None
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
                            "writing it; --resume runs that claim again)", p, n)
                continue
            why = f"{type(e).__name__}: {e}" if isinstance(e, RecursionError) else str(e)
            raise ResultsFileError(f"{p}:{n}: not a JSON line ({why})") from None
        try:
            r = ClaimResult.from_dict(d)
        except ResultsFileError as e:
            raise ResultsFileError(f"{p}:{n}: {e}") from None
        items[r.id] = r  # a later line for the same id supersedes an earlier one
    return Results(items.values(), path=p)

"""The claim index: what the default claims sources register, recorded on their last import,
so that selecting claims (``verify list``, ``verify run --claim ID``) imports nothing.

Discovering the default sources (the built-in papers and the entry-point group
``verify.claims``) imports every claims module, torch and SymPy with them, before the first
verdict, and again in the worker that runs the claim. After such a full discovery the
index records each claim's metadata (id, paper, where, statement, kind, expect, budget,
readings, resources, ``file:line`` of its checks, and the modules holding its checks), in the
user's cache folder (:func:`index_dir`; never in a checkout). A later process answers a
selection from it: the registry holds *stubs* (:class:`IndexedClaim`, checks that cannot be
called) and the workers import only the modules of the selected claims.

The rule that keeps it from ever giving a wrong answer: a record is used only when

- its key matches: verify's version, the Python version, the install folder, the default
  sources and the installed packages advertising claims (name, module, distribution and
  version);
- every file it depends on has the SHA-1 it had when it was recorded, and every package
  folder lists the same files. The files are those of every module loaded at recording time
  that does not come from the standard library or site-packages (a checkout or editable
  install of one's own), and of verify, the built-in papers and the sources' own packages
  wherever they are installed, so a constant imported from a neighbour is followed too;
- nothing failed to import when it was recorded (a skipped module's warning must recur).

Otherwise the sources are imported, and recorded again. Registration that reads
data files (not Python modules) at import time is not followed: such a claims package must
not be indexed (``VERIFY_INDEX_DIR=off``).
"""

from __future__ import annotations

import contextlib
import hashlib
import inspect
import json
import os
import sys
import sysconfig
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from .import_graph import static_imports, walk, with_parents
from .registry import Claim, Paper, Registry
from .sources import FILE_PREFIX, file_module_name
from .verdict import Verdict

#: The layout of an index file; a file of another version is ignored.
INDEX_VERSION = 1


def index_dir() -> Path | None:
    """Where index files live, or ``None`` when indexing is off.

    ``$VERIFY_INDEX_DIR`` (``off`` disables it); else ``index/`` under ``$VERIFY_CACHE_DIR``
    (the trained-model cache, when set and not ``off``), ``$XDG_CACHE_HOME/verify`` or
    ``~/.cache/verify``. The tests point ``VERIFY_CACHE_DIR`` at their temporary folder.
    """
    own = os.environ.get("VERIFY_INDEX_DIR")
    if own:
        return None if own == "off" else Path(own)
    cache = os.environ.get("VERIFY_CACHE_DIR")
    if cache and cache != "off":
        return Path(cache) / "index"
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "verify" / "index"


# -- stubs ------------------------------------------------------------------------------------
class IndexedCheck:
    """Stands in the parent for a check function that was not imported: it names the check's
    module (where a worker imports it from) and cannot be called."""

    def __init__(self, module: str, claim_id: str) -> None:
        self.__module__ = module
        self.claim_id = claim_id

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError(
            f"the checks of {self.claim_id!r} were read from the claim index, not imported; "
            f"import {self.__module__} (verify.discover) to run them in this process"
        )


@dataclass
class IndexedClaim(Claim):
    """A claim as the index recorded it: the metadata of the imported one, with stand-ins
    for its checks (:class:`IndexedCheck`) and the ``file:line`` they had."""

    recorded_code: list[str] = field(default_factory=list)
    from_index: ClassVar[bool] = True

    def imported_checks(self) -> list[Any]:
        """The checks added by an import (none of the stand-ins)."""
        return [fn for fn in self.checks if not isinstance(fn, IndexedCheck)]

    @property  # type: ignore[override]
    def code(self) -> list[str]:
        return list(self.recorded_code)


def is_stub(c: Claim) -> bool:
    """Whether ``c`` was read from the index (its checks were not imported)."""
    return c.from_index


def forget_stubs(reg: Registry) -> None:
    """Drop the claims a previous :func:`use` read from the index, before a real import."""
    reg.drop([c.id for c in reg if is_stub(c)])


# -- fingerprints ----------------------------------------------------------------------------
def _third_party_roots() -> list[str]:
    paths = sysconfig.get_paths()
    roots = {paths[k] for k in ("stdlib", "platstdlib", "purelib", "platlib") if k in paths}
    return sorted(str(Path(r).resolve()) + os.sep for r in roots)


def _local_files(sources: Sequence[str]) -> tuple[list[str], list[str]]:
    """The files of the loaded modules outside the standard library and site-packages, and
    of verify, its built-in papers and the sources' own packages wherever they are installed;
    and the folders of the loaded packages among them (sorted, absolute)."""
    from .sources import BUILTIN_PACKAGES, advertised

    skip = _third_party_roots()
    own = {"verify", *BUILTIN_PACKAGES, *(a.module.split(".")[0] for a in advertised()),
           *(s.split(".")[0] for s in sources if not s.startswith(FILE_PREFIX))}
    files: set[str] = set()
    folders: set[str] = set()
    for name, mod in list(sys.modules.items()):
        file = getattr(mod, "__file__", None)
        if not isinstance(file, str) or not file.endswith(".py"):
            continue
        path = str(Path(file).resolve())
        if not os.path.isfile(path):
            continue
        if name.split(".")[0] not in own and any(path.startswith(r) for r in skip):
            continue
        files.add(path)
        if getattr(mod, "__path__", None) is not None:
            folders.add(str(Path(path).parent))
    return sorted(files), sorted(folders)


def _sha1(path: str) -> str | None:
    try:
        return hashlib.sha1(Path(path).read_bytes()).hexdigest()
    except OSError:
        return None


def _listing(folder: str) -> list[str] | None:
    """The Python files and subpackages of ``folder``: what a package walk would find."""
    try:
        names = os.listdir(folder)
    except OSError:
        return None
    return sorted(
        n for n in names
        if n.endswith(".py") or os.path.isfile(os.path.join(folder, n, "__init__.py"))
    )


def fingerprint(files: Iterable[str], folders: Iterable[str]) -> dict[str, Any]:
    return {"files": {f: _sha1(f) for f in files},
            "folders": {d: _listing(d) for d in folders}}


def fresh(recorded: dict[str, Any]) -> bool:
    """Whether every recorded file has its hash and every package folder its listing."""
    files = recorded.get("files") or {}
    folders = recorded.get("folders") or {}
    return (all(h is not None and _sha1(f) == h for f, h in files.items())
            and all(ls is not None and _listing(d) == ls for d, ls in folders.items()))


# -- keys and files --------------------------------------------------------------------------
def _key(sources: Sequence[str]) -> str:
    from . import __version__
    from .sources import INSTALL_ROOT, advertised

    eps = []
    for a in advertised():
        version = None
        if a.distribution:
            from importlib.metadata import PackageNotFoundError
            from importlib.metadata import version as dist_version

            with contextlib.suppress(PackageNotFoundError):
                version = dist_version(a.distribution)
        eps.append([a.name, a.module, a.distribution, version])
    blob = json.dumps({"verify": __version__, "python": sys.version, "root": str(INSTALL_ROOT),
                       "sources": list(sources), "entry_points": sorted(eps, key=str)})
    return hashlib.sha1(blob.encode("utf-8")).hexdigest()[:16]


def _path(sources: Sequence[str]) -> Path | None:
    folder = index_dir()
    return None if folder is None else folder / f"claims-{_key(sources)}.json"


# -- recording -------------------------------------------------------------------------------
def _claim_record(reg: Registry, c: Claim) -> dict[str, Any]:
    modules = []
    for fn in c.checks:
        m = getattr(inspect.unwrap(fn), "__module__", "") or ""
        modules.append(m)
    return {
        "id": c.id, "paper": c.paper, "where": c.where, "statement": c.statement,
        "kind": c.kind, "expect": c.expect.value if c.expect else None,
        "expect_by_profile": {k: v.value for k, v in c.expect_by_profile.items()},
        "file": c.file, "timeout": c.timeout, "readings": c.readings, "doc": c.doc,
        "repairs": c.repairs, "resources": c.resources, "code": c.code, "modules": modules,
    }


def untouched(reg: Registry, sources: Sequence[str]) -> bool:
    """Whether a discovery of ``sources`` into ``reg`` now would register every claim they
    hold: ``reg`` is empty and no module of theirs was imported yet (an imported module is
    not imported again, so its claims would be missing). Only then may it be recorded."""
    tops = {s.split(".")[0] for s in sources if not s.startswith(FILE_PREFIX)}
    files = {file_module_name(s[len(FILE_PREFIX):]) for s in sources
             if s.startswith(FILE_PREFIX)}
    return len(reg) == 0 and not any(m.split(".")[0] in tops or m in files
                                     for m in list(sys.modules))


def record(reg: Registry, sources: Sequence[str]) -> Path | None:
    """Write what ``reg`` holds after discovering ``sources`` in full, with the fingerprint
    of the files loaded. Nothing is written when a module was skipped, when ``reg`` holds
    stubs, or when the cache folder cannot be written (the index is an optimisation)."""
    path = _path(sources)
    if path is None or reg.broken or any(is_stub(c) for c in reg):
        return None
    if load(sources) is not None:
        return path  # fresh already
    claims = reg.claims_in(sources)  # not what a test or a script registered beside them
    files, folders = _local_files(sources)
    order = {name: i for i, name in enumerate(sys.modules)}
    holding = {m for c in claims for m in _claim_record(reg, c)["modules"]}
    keys = {c.paper for c in claims}
    data = {
        "version": INDEX_VERSION,
        "sources": list(sources),
        "fingerprint": fingerprint(files, folders),
        "claims": [_claim_record(reg, c) for c in claims],
        "papers": {k: p.to_dict() for k, p in reg.papers.items() if k in keys},
        "searched": list(reg.searched),  # this discovery's own: reg was empty (untouched)
        "origins": {},
        "module_order": sorted(holding, key=lambda m: order.get(m, len(order))),
        "imports": {m: sorted(_imported_by(m) & holding - {m}) for m in sorted(holding)},
    }
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".claims-", suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(data, f)
        os.replace(tmp, path)
    except OSError:
        return None
    return path


def _imports_of(name: str) -> set[str]:
    """The loaded modules that module ``name``'s source imports (statically, anywhere in it)."""
    mod = sys.modules.get(name)
    file = getattr(mod, "__file__", None)
    if not file:
        return set()
    try:
        is_package = getattr(mod, "__path__", None) is not None
        found = static_imports(name, Path(file), is_package=is_package)
    except (OSError, SyntaxError, ValueError):
        return set()
    return {m for m in with_parents(found) if m in sys.modules}


def _imported_by(name: str) -> set[str]:
    """Every loaded module that importing ``name`` can load: the closure of
    :func:`_imports_of`, not followed into the standard library and site-packages."""
    roots = _third_party_roots()

    def third_party(m: str) -> bool:
        file = getattr(sys.modules.get(m), "__file__", None)
        return not isinstance(file, str) or any(str(Path(file).resolve()).startswith(r)
                                                for r in roots)

    return set(walk(name, _imports_of, skip=third_party))


# -- using -----------------------------------------------------------------------------------
def load(sources: Sequence[str]) -> dict[str, Any] | None:
    """The index of ``sources`` when it exists and is fresh, else ``None``."""
    path = _path(sources)
    if path is None:
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("version") != INDEX_VERSION:
        return None
    if data.get("sources") != list(sources) or not fresh(data.get("fingerprint") or {}):
        return None
    return data


def _stub(d: dict[str, Any]) -> IndexedClaim:
    return IndexedClaim(
        id=d["id"], paper=d["paper"], where=d["where"], statement=d["statement"],
        kind=d["kind"], expect=Verdict.parse(d["expect"]) if d["expect"] else None,
        expect_by_profile={k: Verdict.parse(v) for k, v in d["expect_by_profile"].items()},
        checks=[IndexedCheck(m, d["id"]) for m in d["modules"]], file=d["file"],
        timeout=d["timeout"], readings=d["readings"], doc=d["doc"], repairs=d["repairs"],
        resources=d["resources"], recorded_code=list(d["code"]),
    )


def use(reg: Registry, sources: Sequence[str]) -> dict[str, Any] | None:
    """Fill ``reg`` with the stubs of the fresh index of ``sources``; return the index, or
    ``None`` (and leave ``reg`` as it was) when there is none or ``reg`` already holds
    imported claims."""
    if any(not is_stub(c) for c in reg):
        return None
    data = load(sources)
    if data is None:
        return None
    forget_stubs(reg)
    for d in data["claims"]:
        reg.add(_stub(d))
    for key, p in data["papers"].items():
        reg.papers.setdefault(key, Paper.from_dict(p))
    for where in data["searched"]:
        if where not in reg.searched:
            reg.searched.append(where)
    reg.origins.update(data["origins"])
    return data


def answer(
    reg: Registry,
    sources: Sequence[str],
    select: str | Sequence[str] | None,
    paper: str | Sequence[str] | None,
) -> list[str] | None:
    """The modules a run's workers must import for the selection, answered from the fresh
    index of ``sources`` (``reg`` then holds its stubs), or ``None`` when it cannot answer.
    A selection that matches nothing raises as after a full discovery (the index holds
    every claim of ``sources``), with the closest ids (:mod:`verify.suggest`)."""
    data = use(reg, sources)
    if data is None:
        return None
    if not select and not paper:
        return list(sources)
    chosen = reg.select(select, paper)
    return modules_for(data, [c.id for c in chosen])


def modules_for(data: dict[str, Any], ids: Iterable[str]) -> list[str]:
    """The modules a worker must import to hold the claims ``ids`` as a full discovery
    would: the modules of their checks, and, for every module imported, the home module
    of each claim it gives evidence to (else its ``evidence_for`` would name a claim not
    registered). In the order the full discovery imported them."""
    by_id = {d["id"]: d for d in data["claims"]}
    holders: dict[str, list[str]] = {}  # module -> the claims with a check in it
    for d in data["claims"]:
        for m in d["modules"]:
            holders.setdefault(m, []).append(d["id"])
    imports = data.get("imports") or {}
    wanted: set[str] = set()
    todo = [m for cid in ids for m in by_id[cid]["modules"]]
    while todo:
        m = todo.pop()
        if m in wanted:
            continue
        wanted.add(m)
        todo.extend(by_id[cid]["modules"][0] for cid in holders.get(m, []))
        todo.extend(imports.get(m, []))  # claims modules it loads itself register too
    order = {m: i for i, m in enumerate(data["module_order"])}
    return sorted(wanted, key=lambda m: (order.get(m, len(order)), m))

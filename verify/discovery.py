"""Discovering claims: importing the modules that register them, into a registry.

Where claims can come from (verify's built-in papers, entry points, files and modules named on
the command line) is :mod:`verify.sources`; this module imports them by the discovery rule
(:func:`claim_modules`), narrows a selection to the modules that can hold it
(:func:`selected_modules`), and answers a selection from the claim index without importing
anything when the index is fresh (:mod:`verify.claim_index`, whose one user this is).
"""

from __future__ import annotations

import importlib
import logging
import pkgutil
import re
import shlex
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from . import claim_index, sources
from .errors import ClaimDefinitionError, DiscoveryError, UnknownClaimError
from .registry import REGISTRY, Registry
from .sources import (
    BUILTIN_PACKAGES,
    ENTRY_POINT_GROUP,
    FILE_MODULE_PREFIX,
    FILE_PREFIX,
    Advertised,
    ShadowedPackageError,
    advertised,
    builtin_home,
    file_entry,
    file_module_name,
    import_file,
    is_builtin,
    pin_builtins,
)

__all__ = [
    "BUILTIN_PACKAGES", "DEFAULT_PACKAGES", "ENTRY_POINT_GROUP", "FILE_MODULE_PREFIX",
    "FILE_PREFIX", "Advertised", "ShadowedPackageError", "advertised", "builtin_home",
    "claim_modules", "default_modules", "discover", "discover_selected", "file_entry",
    "file_module_name", "import_file", "is_builtin", "pin_builtins", "selected_modules",
]

log = logging.getLogger(__name__)

#: Packages searched for claims by default: the built-in papers.
DEFAULT_PACKAGES: tuple[str, ...] = BUILTIN_PACKAGES

_imported: set[str] = set()


def discover(modules: Iterable[str] | None = None, registry: Registry | None = None) -> Registry:
    """Import every module under ``modules`` (packages are walked) so their claims register.

    Defaults to :data:`DEFAULT_PACKAGES` plus any module advertised under the entry-point
    group ``verify.claims`` by an installed package (a user's own papers). An entry
    ``file:PATH`` imports the claims file ``PATH`` (:func:`verify.sources.import_file`).

    The built-in packages are imported from verify's installation, whatever ``sys.path``
    holds (:func:`verify.sources.pin_builtins`). A module advertised by an entry point that
    fails to import (or a built-in package shadowed by one imported earlier) is skipped: its
    claims are dropped, the reason is kept in ``registry.broken`` and logged, and every other
    paper is still discovered. Any other failure raises :class:`DiscoveryError` naming the
    module and the ``file:line`` where it failed. ``registry.searched`` records where claims
    were looked for.
    """
    reg = registry if registry is not None else REGISTRY
    names = list(modules) if modules is not None else default_modules()
    by_module = {a.module: a for a in advertised()}
    already_pending = reg.pending()
    for name in names:
        if name in reg.broken:
            continue
        before, pending = set(c.id for c in reg), reg.pending()
        try:
            where = _load(name, reg, by_module)
        except Exception as e:
            shadowed = isinstance(e, ShadowedPackageError)
            if name not in by_module and not shadowed:
                raise
            reg.broken[name] = str(e)
            reg.drop({c.id for c in reg} - before)
            reg.forget_pending_since(pending)
            log.warning("skipped claims module %s: %s", name, e)
            continue
        if where not in reg.searched:
            reg.searched.append(where)
    reg.validate(since=already_pending)
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
    ``k.s.*`` live in the modules named ``s`` (tests/engine/test_startup.py checks that every
    built-in claim follows it). A pattern whose paper key is a glob selects everything.
    """
    pats = [select] if isinstance(select, str) else list(select or [])
    papers = [paper] if isinstance(paper, str) else list(paper or [])
    if not pats and not papers:
        return None
    if any(sources.builtin_home(top) is None for top in DEFAULT_PACKAGES):
        return None  # the defaults are not (only) the built-in papers: no rule to go by
    keys = set(papers)
    out: list[str] = []
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
    for key, claims_module in wanted:
        for name in _paper_modules(key, claims_module):
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
    home = sources.builtin_home(top)
    return home is not None and (home / key / "__init__.py").is_file()


def _load(name: str, reg: Registry, by_module: dict[str, Advertised]) -> str:
    """Import the claims of one source; return how it is described to a user."""
    if name.startswith(sources.FILE_PREFIX):
        path = name[len(sources.FILE_PREFIX) :]
        try:
            module = sources.import_file(path)
        except (ClaimDefinitionError, DiscoveryError):
            raise
        except (Exception, SystemExit) as e:
            raise DiscoveryError(
                f"cannot import claims file {path!r}{_failure_site(e)}: {_failure(e)}"
            ) from e
        reg.origins[module.__name__] = shlex.quote(path)
        return f"file {path}"
    for mod in _walk(name):
        if mod in _imported:
            continue
        try:
            importlib.import_module(mod)
        except (ClaimDefinitionError, DiscoveryError):
            raise
        except (Exception, SystemExit) as e:
            raise DiscoveryError(
                f"cannot import claims module {mod!r}{_failure_site(e)}: {_failure(e)}"
            ) from e
        _imported.add(mod)
    top = name.split(".", 1)[0]  # a built-in paper or claims module: its package's phrase
    home = sources.builtin_home(top) if sources.is_builtin(name) else None
    if home is not None:
        return f"package {top} ({home})"
    if name in by_module:
        return by_module[name].describe()
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
        if sources.is_builtin(name):
            sources.pin_builtins()  # never a same-named folder from sys.path instead
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
    except (Exception, SystemExit) as e:
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
    return [a.module for a in sources.advertised()]

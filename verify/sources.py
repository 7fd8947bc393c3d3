"""Where claims come from: verify's built-in packages, entry points, and files or modules named
on the command line.

Three sources feed :func:`verify.discovery.discover`:

- the *built-in* packages ``proofs`` and ``numerics``, installed beside ``verify``. They are
  always imported from that installation (:func:`pin_builtins`), never from whatever folder
  called ``proofs`` comes first on ``sys.path``: a user's own top-level ``proofs/`` (with
  ``PYTHONPATH=.``) neither shadows the built-in papers nor is imported in their place;
- modules that installed packages advertise under the entry-point group ``verify.claims``
  (:func:`advertised`);
- a claims *file* (``verify run path/to/claims.py``), imported under a private module name
  with its folder on ``sys.path``, as ``python path/to/claims.py`` would (:func:`import_file`).
"""

from __future__ import annotations

import hashlib
import importlib.util
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from .errors import DiscoveryError

#: The claims packages installed with verify (the seed papers).
BUILTIN_PACKAGES: tuple[str, ...] = ("proofs", "numerics")

#: The entry-point group through which another package contributes claims.
ENTRY_POINT_GROUP = "verify.claims"

#: How a file appears in a list of modules to discover (``file:path/to/claims.py``).
FILE_PREFIX = "file:"

#: The start of the private module name a claims file is imported under.
FILE_MODULE_PREFIX = "verify_file_"

#: The folder verify and its built-in packages are installed in.
INSTALL_ROOT = Path(__file__).resolve().parent.parent


class ShadowedPackageError(DiscoveryError):
    """A package named like a built-in one, from elsewhere, was imported first."""


def builtin_home(name: str) -> Path | None:
    """The folder of built-in package ``name`` beside verify, or ``None`` when ``name`` is not
    one or was not installed."""
    if name not in BUILTIN_PACKAGES:
        return None
    home = INSTALL_ROOT / name
    return home if (home / "__init__.py").is_file() else None


def _located_in(mod: ModuleType, home: Path) -> bool:
    paths = list(getattr(mod, "__path__", []) or [])
    file = getattr(mod, "__file__", None)
    if file:
        paths.append(str(Path(file).parent))
    return any(Path(p).resolve() == home.resolve() for p in paths)


def _shown(mod: ModuleType) -> str:
    where = getattr(mod, "__file__", None) or list(getattr(mod, "__path__", []) or ["?"])[0]
    return str(where)


def pin_builtins() -> None:
    """Import every built-in package from verify's installation, before anything on
    ``sys.path`` can supply a package of the same name.

    Their submodules then resolve inside the installed folders (a package's submodules are
    looked up on its own ``__path__``), so ``import proofs.gda`` is verify's whatever the
    current folder holds. Raises :class:`DiscoveryError` when a package of that name from
    elsewhere was imported first in this process (it cannot be replaced without breaking
    whoever imported it): :class:`ShadowedPackageError`.
    """
    for name in BUILTIN_PACKAGES:
        home = builtin_home(name)
        if home is None:
            continue
        mod = sys.modules.get(name)
        if mod is not None:
            if _located_in(mod, home):
                continue
            raise ShadowedPackageError(
                f"built-in package {name!r} is shadowed: this process imported {name!r} from "
                f"{_shown(mod)}, not verify's {home}; rename your package (e.g. 'my_{name}')"
            )
        spec = importlib.util.spec_from_file_location(
            name, home / "__init__.py", submodule_search_locations=[str(home)]
        )
        assert spec is not None and spec.loader is not None
        _execute(spec, name)


def is_builtin(module: str) -> bool:
    """Whether ``module`` lies in one of verify's built-in packages."""
    return module.split(".", 1)[0] in BUILTIN_PACKAGES


@dataclass(frozen=True)
class Advertised:
    """One entry point of the group ``verify.claims``: its name, module and distribution."""

    name: str
    module: str
    distribution: str | None

    def describe(self) -> str:
        dist = f" (from {self.distribution})" if self.distribution else ""
        return f"entry point {self.name} = {self.module}{dist}"


def advertised() -> list[Advertised]:
    """The modules installed packages advertise under the entry-point group ``verify.claims``
    (the value is a module or a package; a package is searched by the discovery rule)."""
    from importlib.metadata import entry_points

    out = []
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        dist = getattr(getattr(ep, "dist", None), "name", None)
        out.append(Advertised(ep.name, ep.module, dist))
    return out


def file_entry(path: str | Path) -> str:
    """How a claims file travels in a list of modules: ``file:`` and its path as given (the
    run's workers share its working folder), checked to be an existing ``*.py`` file."""
    p = Path(path)
    if p.suffix != ".py":
        raise DiscoveryError(f"{path}: a claims file must be a Python file (*.py)")
    if not p.is_file():
        raise DiscoveryError(f"{path}: no such claims file")
    return FILE_PREFIX + str(p)


def file_module_name(path: str | Path) -> str:
    """The private module name a claims file is imported under (stable per absolute path)."""
    p = Path(path).resolve()
    tag = hashlib.sha1(str(p).encode("utf-8")).hexdigest()[:8]
    stem = "".join(ch if ch.isalnum() else "_" for ch in p.stem)
    return f"{FILE_MODULE_PREFIX}{stem}_{tag}"


def import_file(path: str | Path) -> ModuleType:
    """Import the claims file ``path`` (its folder first on ``sys.path``, as when it is run as
    a script, so that it can import its neighbours). Importing it twice is a no-op."""
    p = Path(path).resolve()
    name = file_module_name(p)
    if name in sys.modules:
        return sys.modules[name]
    folder = str(p.parent)
    if folder not in sys.path:
        sys.path.insert(0, folder)
    spec = importlib.util.spec_from_file_location(name, p)
    if spec is None or spec.loader is None:
        raise DiscoveryError(f"{p}: cannot be imported as a Python module")
    return _execute(spec, name)


def _execute(spec: importlib.machinery.ModuleSpec, name: str) -> ModuleType:
    """Create the module of ``spec`` as ``sys.modules[name]`` and run it; a module whose
    import fails is taken out again, so that a later import starts afresh."""
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    try:
        spec.loader.exec_module(mod)  # type: ignore[union-attr]
    except BaseException:
        del sys.modules[name]
        raise
    return mod

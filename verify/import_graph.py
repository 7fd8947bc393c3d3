"""The modules a module's source imports, and their closure: read statically, never executed.

Two users follow a module's imports: the claim index (:mod:`verify.claim_index`), which must
know which claims modules importing one module loads, and the memo cache
(:mod:`verify.memo`), whose key covers the sources a memoised function can depend on. Both
read ``import`` statements from source (:func:`static_imports`) and walk them with one
worklist (:func:`walk`), each with its own rule for the modules not to follow.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable
from pathlib import Path


def static_imports(module: str, path: Path, *, is_package: bool) -> set[str]:
    """The dotted names the source of ``module`` (at ``path``) imports, anywhere in it.

    ``import a.b`` gives ``a.b``; ``from x import y`` gives ``x`` and ``x.y`` (``y`` may be a
    submodule or a name); relative imports are resolved against ``module``'s package (the
    module itself when ``is_package``). Raises ``OSError``, ``SyntaxError`` or
    ``ValueError`` when the source cannot be read or parsed.
    """
    tree = ast.parse(path.read_bytes())
    base = module.split(".")
    if not is_package:
        base = base[:-1]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            root = base[: len(base) - node.level + 1] if node.level else []
            stem = ".".join(root + ([node.module] if node.module else []))
            found.add(stem)
            found.update(f"{stem}.{a.name}" for a in node.names)
    return found


def with_parents(names: Iterable[str]) -> set[str]:
    """``names`` and every package above each (``a.b.c`` gives ``a.b.c``, ``a.b``, ``a``)."""
    out: set[str] = set()
    for name in names:
        while name:
            out.add(name)
            name = name.rpartition(".")[0]
    return out


def walk(
    start: str,
    imports_of: Callable[[str], Iterable[str]],
    *,
    skip: Callable[[str], bool] = lambda name: False,
) -> list[str]:
    """Every module reachable from ``start`` through ``imports_of``, each once, in the order
    a depth-first worklist visits them (a module's imports pushed in sorted order, so the
    last in that order is visited first): the order is a function of the graph alone.

    ``skip(name)`` says which modules are listed but not followed (their imports are not
    read): the standard library for the claim index, a name that is no module for the memo
    cache.
    """
    seen: set[str] = set()
    order: list[str] = []
    todo = [start]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        order.append(name)
        if skip(name):
            continue
        todo.extend(sorted(set(imports_of(name)) - seen))
    return order

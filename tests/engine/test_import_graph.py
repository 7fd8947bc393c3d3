"""The shared import walker (verify.import_graph): imports read from source, relative ones
resolved, and the closure taken depth first with a skip rule the caller chooses."""

from __future__ import annotations

import textwrap

from verify.import_graph import static_imports, walk, with_parents


def test_static_imports_resolve_relative_ones_against_the_package(tmp_path):
    src = tmp_path / "mod.py"
    src.write_text(textwrap.dedent("""
        import os.path
        from . import sib
        from ..up import thing
        def f():
            from .inner import g
    """), encoding="utf-8")
    found = static_imports("pkg.sub.mod", src, is_package=False)
    assert found == {"os.path", "pkg.sub", "pkg.sub.sib", "pkg.up", "pkg.up.thing",
                     "pkg.sub.inner", "pkg.sub.inner.g"}
    as_package = static_imports("pkg.sub.mod", src, is_package=True)
    assert "pkg.sub.mod.sib" in as_package and "pkg.sub.sib" not in as_package


def test_with_parents_adds_every_package_above():
    assert with_parents(["a.b.c", "d"]) == {"a.b.c", "a.b", "a", "d"}


def test_walk_is_depth_first_in_sorted_order_and_skips_what_it_is_told():
    graph = {"a": {"c", "b"}, "b": {"d"}, "c": {"a", "e"}, "d": set(), "e": {"f"}, "f": set()}
    assert walk("a", graph.__getitem__) == ["a", "c", "e", "f", "b", "d"]
    assert walk("a", graph.__getitem__, skip=lambda m: m == "c") == ["a", "c", "b", "d"]

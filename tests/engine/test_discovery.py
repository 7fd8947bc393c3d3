"""Discovery imports the claim modules a package lists in ``__claims__`` (or all of them),
and every check is located by ``file:line``."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

from verify.discovery import claim_modules
from verify.errors import DiscoveryError
from verify.registry import Registry, check_location


def _package(root: Path, name: str, files: dict[str, str]) -> None:
    pkg = root / name
    pkg.mkdir()
    for fname, text in files.items():
        (pkg / fname).write_text(textwrap.dedent(text), encoding="utf-8")


@pytest.fixture
def on_path(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    for mod in [m for m in sys.modules if m.startswith("disc_")]:
        del sys.modules[mod]


def test_listed_modules_only(on_path) -> None:
    _package(on_path, "disc_listed", {
        "__init__.py": '__claims__ = ("algebra",)\n',
        "algebra.py": "X = 1\n",
        "model.py": "raise RuntimeError('model.py is not a claims module')\n",
    })
    import disc_listed

    assert claim_modules(disc_listed) == ["disc_listed.algebra"]


def test_unlisted_package_is_walked_whole_including_underscored(on_path) -> None:
    _package(on_path, "disc_whole", {"__init__.py": "", "a.py": "", "_b.py": ""})
    import disc_whole

    assert claim_modules(disc_whole) == ["disc_whole._b", "disc_whole.a"]


def test_bad_claims_list_is_named(on_path) -> None:
    _package(on_path, "disc_bad", {"__init__.py": '__claims__ = "algebra"\n'})
    import disc_bad

    with pytest.raises(DiscoveryError, match=r"disc_bad.__claims__ must be a sequence"):
        claim_modules(disc_bad)


def test_listed_module_missing_is_named(on_path) -> None:
    _package(on_path, "disc_missing", {"__init__.py": '__claims__ = ("nope",)\n'})
    import disc_missing

    with pytest.raises(DiscoveryError, match=r"no module named 'disc_missing.nope'"):
        claim_modules(disc_missing)


def test_check_location_is_relative_to_the_package_root(on_path) -> None:
    _package(on_path, "disc_loc", {
        "__init__.py": "",
        "claims.py": "import verify\n\n\ndef check(ctx):\n    return None\n",
    })
    from disc_loc.claims import check

    assert check_location(check) == "disc_loc/claims.py:4"
    reg = Registry()
    import verify

    verify.claim("pp.loc", paper="pp", where="l. 1", statement="x", kind="identity",
                 registry=reg)(check)
    assert reg["pp.loc"].code == ["disc_loc/claims.py:4"]


def test_a_dangling_evidence_for_imported_elsewhere_does_not_fail_another_discovery(
    on_path,
) -> None:
    """A module imported directly (outside a discovery) may leave an ``evidence_for``
    pending; a later discovery of other modules answers only for what it imported."""
    from verify.errors import ClaimDefinitionError
    from verify.registry import discover

    _package(on_path, "disc_cross", {
        "__init__.py": "",
        "numeric.py": "import verify\n\n\n@verify.evidence_for('pp.later')\n"
                      "def check(ctx):\n    return None\n",
    })
    _package(on_path, "disc_other", {"__init__.py": "", "claims.py": "X = 1\n"})
    reg = Registry()
    import verify.registry as vr

    saved = vr.REGISTRY
    vr.REGISTRY = reg
    try:
        import disc_cross.numeric  # noqa: F401 - leaves evidence_for('pp.later') pending

        discover(["disc_other"], registry=reg)  # not its business: no error
        with pytest.raises(ClaimDefinitionError, match=r"evidence_for\('pp.never'\)"):
            _package(on_path, "disc_own", {
                "__init__.py": "",
                "numeric.py": "import verify\n\n\n@verify.evidence_for('pp.never')\n"
                              "def check(ctx):\n    return None\n",
            })
            discover(["disc_own"], registry=reg)
    finally:
        vr.REGISTRY = saved

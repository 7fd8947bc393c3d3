"""The claim index (verify.claim_index): a selection answered without importing gives what a
full discovery gives, never a stale answer: a changed, added or removed file is seen."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from verify import claim_index
from verify.errors import UnknownClaimError
from verify.registry import REGISTRY, Registry, default_modules, discover

CLAIMS = '''
import verify

verify.paper("ix", title="Index Paper", statements=[("Theorem", "1", 1, 2)])

@verify.claim("ix.one", paper="ix", where="l. 1", statement="1 = 1", kind="identity",
              expect="PROVED", timeout={"quick": 7})
def one(ctx):
    """why one"""

@verify.claim("ix.two", paper="ix", where="l. 2", statement="2 = 2", kind="property")
def two(ctx):
    pass
'''


@pytest.fixture
def index_in_tmp(tmp_path, monkeypatch):
    monkeypatch.setenv("VERIFY_INDEX_DIR", str(tmp_path / "index"))
    return tmp_path / "index"


@pytest.fixture
def real(index_in_tmp):
    """The global registry (where ``@verify.claim`` registers), emptied for the test and
    given back as it was."""
    with REGISTRY.emptied() as reg:
        yield reg


def _claims_file(folder: Path, text: str = CLAIMS) -> list[str]:
    (folder / "ix_claims.py").write_text(textwrap.dedent(text), encoding="utf-8")
    return [f"file:{folder / 'ix_claims.py'}"]


def _forget(sources: list[str]) -> None:
    from verify.discovery import file_module_name

    for s in sources:
        sys.modules.pop(file_module_name(s.removeprefix("file:")), None)


def test_the_index_lives_in_the_user_cache_never_in_the_checkout(monkeypatch, tmp_path):
    monkeypatch.delenv("VERIFY_INDEX_DIR", raising=False)
    monkeypatch.setenv("VERIFY_CACHE_DIR", str(tmp_path / "c"))
    assert claim_index.index_dir() == tmp_path / "c" / "index"
    monkeypatch.setenv("VERIFY_CACHE_DIR", "off")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert claim_index.index_dir() == tmp_path / "xdg" / "verify" / "index"
    monkeypatch.setenv("VERIFY_INDEX_DIR", "off")
    assert claim_index.index_dir() is None


def test_stubs_carry_what_the_imported_claims_had(index_in_tmp, real, tmp_path):
    sources = _claims_file(tmp_path)
    discover(sources, real)
    assert claim_index.record(real, sources) is not None
    assert list(index_in_tmp.iterdir())  # written under VERIFY_INDEX_DIR
    stubbed = Registry()
    assert claim_index.use(stubbed, sources) is not None
    assert [c.to_dict() for c in stubbed] == [c.to_dict() for c in real]
    one = stubbed["ix.one"]
    assert claim_index.is_stub(one) and one.timeout_for("quick") == 7 and one.doc == "why one"
    assert stubbed.papers["ix"].title == "Index Paper"
    assert stubbed.papers["ix"].to_dict() == real.papers["ix"].to_dict()
    assert [s.name for s in stubbed.papers["ix"].statements] == ["Theorem 1"]
    with pytest.raises(RuntimeError, match="read from the claim index"):
        one.checks[0](None)
    _forget(sources)


def test_a_changed_file_is_never_answered_from_the_index(index_in_tmp, real, tmp_path):
    sources = _claims_file(tmp_path)
    discover(sources, real)
    claim_index.record(real, sources)
    assert claim_index.load(sources) is not None
    _claims_file(tmp_path, CLAIMS.replace('"ix.two"', '"ix.three"'))
    assert claim_index.load(sources) is None  # its hash changed: import it again
    assert claim_index.use(Registry(), sources) is None
    _forget(sources)


def test_a_file_added_to_a_walked_package_is_seen(index_in_tmp, real, tmp_path, monkeypatch):
    pkg = tmp_path / "ix_pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text(textwrap.dedent(CLAIMS))
    monkeypatch.syspath_prepend(str(tmp_path))
    discover(["ix_pkg"], real)
    claim_index.record(real, ["ix_pkg"])
    assert claim_index.load(["ix_pkg"]) is not None
    (pkg / "b.py").write_text("X = 1\n")  # a walk would import it: the index cannot tell
    assert claim_index.load(["ix_pkg"]) is None
    for m in [m for m in sys.modules if m.startswith("ix_pkg")]:
        del sys.modules[m]


def test_a_registry_with_imported_claims_is_left_alone(index_in_tmp, real, tmp_path):
    sources = _claims_file(tmp_path)
    discover(sources, real)
    claim_index.record(real, sources)
    assert claim_index.use(real, sources) is None  # never stubs beside imported claims
    assert not any(claim_index.is_stub(c) for c in real)
    _forget(sources)


def test_a_registry_that_already_imported_its_sources_is_not_recorded(index_in_tmp, real,
                                                                      tmp_path):
    sources = _claims_file(tmp_path)
    assert claim_index.untouched(real, sources)
    discover(sources, real)
    assert not claim_index.untouched(real, sources)  # registered: a second import adds nothing
    real.clear()
    assert not claim_index.untouched(real, sources)  # imported: its claims would be missing
    _forget(sources)


def test_an_import_replaces_a_stub(index_in_tmp, real, tmp_path):
    sources = _claims_file(tmp_path)
    discover(sources, real)
    claim_index.record(real, sources)
    _forget(sources)
    real.clear()
    claim_index.use(real, sources)
    assert all(claim_index.is_stub(c) for c in real)
    discover(sources, real)  # no DuplicateClaimError: the imported claim takes the stub's place
    assert not any(claim_index.is_stub(c) for c in real)
    assert [c.id for c in real] == ["ix.one", "ix.two"]
    _forget(sources)


def _fresh(code: str) -> dict:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=600, env=dict(os.environ))
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.splitlines()[-1])


@pytest.fixture(scope="module")
def builtin_index():
    """The built-in papers indexed as a fresh ``verify`` process indexes them (in the
    session's cache folder), and the claims a full discovery here registers."""
    built = _fresh("import json; from verify import claim_index; "
                   "from verify.registry import default_modules, discover_selected; "
                   "discover_selected(); "
                   "print(json.dumps(str(claim_index.load(default_modules()) is not None)))")
    assert built == "True"
    discover()
    assert not REGISTRY.broken
    return {c.id: c for c in REGISTRY if c.id.split(".")[0] in ("gda", "nfa", "pegr", "sih",
                                                                 "toef")}


#: Claims whose checks span modules (gda.value_grad: a proof and its numeric evidence_for),
#: whose modules import other claims modules (toef: linearized; sih.text: sih.main), and a
#: plain symbolic one.
SAMPLE = ["gda.value_grad", "toef.lemma8_series_coefficients", "sih.text.contributions",
          "nfa.appc.thm12_scalar_grad"]


@pytest.mark.slow
def test_a_selection_is_answered_without_importing_anything(builtin_index):
    cid = "nfa.appc.thm12_scalar_grad"
    got = _fresh(
        "import json, sys; from verify.registry import REGISTRY, discover_selected; "
        f"mods = discover_selected([{cid!r}]); c = REGISTRY[{cid!r}]; "
        "print(json.dumps({'modules': mods, 'claim': c.to_dict(), 'n': len(REGISTRY), "
        "'loaded': sorted(m for m in sys.modules if m.split('.')[0] in "
        "('proofs', 'numerics', 'torch', 'sympy', 'hypothesis'))}))"
    )
    assert got["loaded"] == []
    assert got["n"] == len(builtin_index)
    assert got["claim"] == builtin_index[cid].to_dict()
    assert got["modules"] == ["proofs.nfa.appc"]


@pytest.mark.slow
def test_the_modules_of_a_selection_register_each_claim_as_a_full_discovery(builtin_index):
    data = claim_index.load(default_modules())
    assert data is not None
    sample = [cid for cid in SAMPLE if cid in builtin_index]
    assert len(sample) == len(SAMPLE)
    want = {cid: [builtin_index[cid].to_dict(), len(builtin_index[cid].checks)]
            for cid in sample}
    for cid in sample:  # each in a process of its own, as a run's worker imports them
        modules = claim_index.modules_for(data, [cid])
        got = _fresh(
            "import json; from verify.registry import REGISTRY, discover; "
            f"discover({modules!r}); c = REGISTRY[{cid!r}]; "
            "print(json.dumps([c.to_dict(), len(c.checks)]))"
        )
        assert got == want[cid], (cid, modules)


def test_a_typo_is_answered_from_the_index_with_the_closest_ids(builtin_index):
    reg = Registry()
    assert claim_index.use(reg, default_modules()) is not None
    with pytest.raises(UnknownClaimError, match="did you mean 'gda.value_grad'"):
        claim_index.answer(reg, default_modules(), ["gda.valu_grad"], None)

"""verify.memo never serves a value computed under another process state.

The disk memo is shared by every claim and every run. A value computed after a claim changed
torch's default dtype, or in a process where a claims module monkeypatched a helper the
computation calls, must not be what a clean process reads back: the state a result depends
on is in the key, and a process with patched callables neither reads nor writes the disk."""

from __future__ import annotations

import importlib
import sys
import textwrap

import pytest

from verify import memo

torch = pytest.importorskip("torch")


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("VERIFY_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


@memo.persistent
def ones(n: int):
    return torch.ones(n)


def fresh(fn, *args):
    """What a later claim sees: no in-process memo, only the disk."""
    return memo.persistent(fn.uncached)(*args)


@pytest.fixture
def default_dtype():
    before = torch.get_default_dtype()
    yield
    torch.set_default_dtype(before)


def test_the_default_dtype_is_in_the_key(cache, default_dtype):
    torch.set_default_dtype(torch.float64)
    assert fresh(ones, 3).dtype is torch.float64  # computed, stored under float64
    torch.set_default_dtype(torch.float32)
    assert fresh(ones, 3).dtype is torch.float32  # not the float64 value


def test_deterministic_flags_are_in_the_key(cache):
    before = torch.are_deterministic_algorithms_enabled()
    try:
        a = memo.key_of(ones.uncached, (3,), {})
        torch.use_deterministic_algorithms(not before)
        b = memo.key_of(ones.uncached, (3,), {})
    finally:
        torch.use_deterministic_algorithms(before)
    assert a != b


PACKAGE = {
    "__init__.py": "",
    "sub/__init__.py": "",
    "sub/helpers.py": "def helper():\n    return 1\n",
    "sub/model.py": textwrap.dedent("""
        import torch.nn.functional as F
        import torch

        from verify.memo import persistent

        from . import helpers


        @persistent
        def compute(x):
            return helpers.helper() + x


        @persistent
        def soft(x):
            return float(F.softmax(torch.tensor([0.0, x]), dim=0)[1])
    """),
}


@pytest.fixture
def model(tmp_path, monkeypatch):
    root = tmp_path / "src"
    for rel, text in PACKAGE.items():
        path = root / "memstate_pkg" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    monkeypatch.syspath_prepend(str(root))
    for name in [m for m in sys.modules if m.startswith("memstate_pkg")]:
        del sys.modules[name]
    yield importlib.import_module("memstate_pkg.sub.model")
    for name in [m for m in sys.modules if m.startswith("memstate_pkg")]:
        del sys.modules[name]


def test_a_value_computed_with_a_patched_helper_is_never_served_to_a_clean_process(
        cache, model, monkeypatch):
    helpers = sys.modules["memstate_pkg.sub.helpers"]
    with monkeypatch.context() as m:
        m.setattr(helpers, "helper", lambda: 100)  # a claims module patched it at import
        assert fresh(model.compute, 5) == 105  # what this process computes
        assert memo.patched(model.compute.uncached) == ["memstate_pkg.sub.helpers.helper"]
    assert memo.patched(model.compute.uncached) == []
    assert fresh(model.compute, 5) == 6  # the clean value, not the poisoned one
    with monkeypatch.context() as m:
        m.setattr(helpers, "helper", lambda: 100)
        assert fresh(model.compute, 5) == 105  # nor the clean one served to a patched process


def test_a_patched_library_function_is_seen(cache, model, monkeypatch):
    import torch.nn.functional as F

    clean = fresh(model.soft, 0.0)
    assert clean == pytest.approx(0.5)
    with monkeypatch.context() as m:
        m.setattr(F, "softmax", lambda t, dim: t * 0 + 7)
        assert "torch.nn.functional.softmax" in memo.patched(model.soft.uncached)
        assert fresh(model.soft, 0.0) == 7.0
    assert fresh(model.soft, 0.0) == pytest.approx(0.5)


def test_the_real_trainers_are_memoised_in_a_clean_process():
    """No false alarm: the memoised functions of the built-in papers find nothing patched
    (or every deep run would retrain)."""
    from numerics.gda.model import toy
    from numerics.nfa.model import training as nfa
    from numerics.pegr.model import training as pegr
    from numerics.sih.model import training as sih

    for module in (toy, nfa, pegr, sih):
        for fn in vars(module).values():
            if callable(fn) and hasattr(fn, "uncached"):
                assert memo.patched(fn.uncached) == [], fn


def test_the_key_is_the_same_before_and_after_a_computation_imports_its_libraries():
    """A process that has not imported torch or mpmath yet is in their default state: its key
    is the one a process with both freshly imported computes (else two claims that import in
    another order would each train again)."""
    import subprocess
    import sys

    code = ("import sys; from verify import memo; a = memo.process_state(); "
            "import torch, mpmath; b = memo.process_state(); "
            "sys.exit(0 if a == b and 'torch' in sys.modules else 1)")
    assert subprocess.run([sys.executable, "-c", code], timeout=120).returncode == 0

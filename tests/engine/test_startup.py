"""Start-up: a selection imports only the modules that can hold it, with the same outcome as
discovering everything; the parent of a run imports torch only when a GPU build needs it."""

from __future__ import annotations

import inspect
import json
import os
import subprocess
import sys

import pytest

from verify.errors import UnknownClaimError
from verify.registry import DEFAULT_PACKAGES, REGISTRY, discover, selected_modules


@pytest.fixture(scope="module")
def everything():
    discover()
    return {c.id: c for c in REGISTRY}


def test_every_builtin_claim_follows_the_naming_rule(everything):
    """A claim ``k.s.*`` lies in the modules named ``s`` when its paper's packages list a
    claims module ``s``, and always in the packages of its paper ``k``."""
    for cid, c in everything.items():
        if not any(inspect.unwrap(fn).__module__.split(".")[0] in DEFAULT_PACKAGES
                   for fn in c.checks):
            continue  # an entry point's or a test's claim: no rule applies
        allowed = selected_modules(cid, None)
        assert allowed is not None
        for fn in c.checks:
            module = inspect.unwrap(fn).__module__
            assert any(module == m or module.startswith(m + ".") for m in allowed), (
                f"{cid} has a check in {module}, outside {allowed}: name the module after the "
                f"id's second segment, or the id after the module")


def test_selected_modules_by_paper_and_segment():
    assert selected_modules("nfa.ag.*", None) == ["proofs.nfa.ag", "numerics.nfa.ag"]
    assert selected_modules("nfa.appc.thm12_scalar_grad", None) == ["proofs.nfa.appc"]
    assert selected_modules(None, "gda") == ["proofs.gda", "numerics.gda"]
    assert selected_modules("nfa.*", None) == ["proofs.nfa", "numerics.nfa"]
    assert selected_modules("toef.lemma1_lie_trotter", None) == ["proofs.toef", "numerics.toef"]
    assert selected_modules("*.ag.*", None) is None  # a glob paper key: anywhere
    assert selected_modules(None, None) is None


def _fresh(code: str) -> dict:
    """Run ``code`` in a fresh process without the claim index (tests/engine/test_claim_index.py
    checks the selection answered from it), so the naming rule narrows the imports."""
    env = dict(os.environ, VERIFY_INDEX_DIR="off")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=300, check=True, env=env)
    return json.loads(out.stdout.splitlines()[-1])


def test_one_proof_imports_its_module_only_and_no_torch(everything):
    got = _fresh(
        "import json, sys; from verify.registry import REGISTRY, discover_selected; "
        "mods = discover_selected(['nfa.appc.thm12_scalar_grad']); "
        "from verify.devices import resolve_device; dev = resolve_device(None); "
        "c = REGISTRY['nfa.appc.thm12_scalar_grad']; "
        "print(json.dumps({'modules': mods, 'claim': c.to_dict(), 'dev': dev, "
        "'torch': 'torch' in sys.modules, "
        "'numerics': sorted(m for m in sys.modules if m.startswith('numerics.'))}))"
    )
    assert got["modules"][0] == "proofs.nfa.appc"
    assert got["claim"] == everything["nfa.appc.thm12_scalar_grad"].to_dict()
    assert got["numerics"] == ["numerics.nfa"]  # read for its __claims__; no claims module
    from verify.devices import _torch_has_gpu_build

    if not _torch_has_gpu_build():
        assert got == {**got, "torch": False, "dev": "cpu"}


def test_a_selection_the_rule_cannot_answer_discovers_everything(everything):
    from verify.registry import default_modules, discover_selected

    assert discover_selected(["nfa.ag.no_such_claim"]) == default_modules()
    with pytest.raises(UnknownClaimError, match="matches no claim"):
        REGISTRY.select(["nfa.ag.no_such_claim"])

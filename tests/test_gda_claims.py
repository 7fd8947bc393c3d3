"""The gda claims: every id of the claim list is registered, and key verdicts hold in quick runs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import verify
from verify.registry import REGISTRY, discover

CLAIMS = Path(__file__).resolve().parents[2] / "shared" / "claims" / "gda.md"


def _listed_ids() -> set[str]:
    text = CLAIMS.read_text(encoding="utf-8")
    return set(re.findall(r"^- `(gda\.[A-Za-z0-9_.]+)`:", text, flags=re.M))


@pytest.mark.skipif(not CLAIMS.exists(), reason="claim list not available")
def test_every_listed_id_is_registered():
    discover()
    registered = {c.id for c in REGISTRY if c.paper == "gda"}
    assert _listed_ids() <= registered
    assert len(_listed_ids()) == 59


@pytest.mark.parametrize("cid,verdict", [
    ("gda.routing_gradient", "PROVED"),
    ("gda.manifold.values_continue", "REFUTED"),
    ("gda.dyn.dominant_query", "REFUTED"),
])
def test_key_verdicts(tmp_path, cid, verdict):
    r = verify.run(cid, jobs=0, results_path=tmp_path / "r.jsonl")
    assert r[cid].verdict.value == verdict
    if verdict == "REFUTED":
        assert any(e.counterexample for e in r[cid].evidence if e.verdict.value == "REFUTED")

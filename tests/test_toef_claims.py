"""Every id of shared/claims/toef.md is registered under paper 'toef' with where/statement/kind."""

import re
from pathlib import Path

import pytest

import verify
from verify.registry import REGISTRY, discover

CLAIMS = Path(__file__).resolve().parents[2] / "shared" / "claims" / "toef.md"


def test_all_ids_registered():
    if not CLAIMS.exists():
        pytest.skip("claims list not available")
    text = CLAIMS.read_text()
    ids = set(re.findall(r"^- `(toef\.[A-Za-z0-9_]+)`", text.split("## Id list")[1], re.M))
    assert len(ids) == 41
    discover(["proofs.toef", "numerics.toef"])
    have = {c.id for c in REGISTRY if c.paper == "toef"}
    assert ids == have
    for c in REGISTRY:
        if c.paper == "toef":
            assert c.where and c.statement and c.kind in verify.KINDS


def test_refuted_claims_carry_counterexamples(tmp_path):
    discover(["proofs.toef", "numerics.toef"])
    r = verify.run(["toef.lemma8_series_coefficients", "toef.lemma2_depth"], jobs=0,
                   results_path=tmp_path / "r.jsonl")
    for res in r:
        assert str(res.verdict) == "REFUTED"
        assert any(e.counterexample for e in res.evidence if str(e.verdict) == "REFUTED")

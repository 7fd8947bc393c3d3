"""Provenance: written beside the results file, read back, and saying where a run came from."""

from __future__ import annotations

from verify import provenance


def test_write_and_read_beside_the_results(tmp_path):
    results = tmp_path / "results.jsonl"
    info = provenance.collect(seed=3, profile="quick", device="cpu")
    path = provenance.write(results, info)
    assert path == tmp_path / "results.meta.json"
    back = provenance.read(results)
    assert back["seed"] == 3 and back["profile"] == "quick" and back["device"] == "cpu"
    assert {"python", "torch", "sympy", "hypothesis"} <= back["versions"].keys()
    assert back["git_revision"]  # a revision, or "unknown" outside a checkout


def test_missing_provenance_is_empty(tmp_path):
    assert provenance.read(tmp_path / "r.jsonl") == {}

"""The gda claims: every id of the claim list is registered, and key verdicts hold in quick runs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import torch

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


# ---- rounding scales: float64 rounding in a saturated head is not a counterexample -------------
def _errors(scale_dk: bool = True, **kw):
    from numerics.gda.claims_identities import head_grad_errors

    sizes = dict(T=6, d_x=1, d_k=1, d_v=1, C=3, log_scale=1.0, log_xscale=1.0, causal=False, reduction="sum")
    sizes.update(kw)
    return head_grad_errors(generator=torch.Generator().manual_seed(0), batch=64, dtype=torch.float64,
                            device="cpu", scale_dk=scale_dk, **sizes)


def test_saturated_heads_agree_to_rounding_against_the_term_scale():
    # the deep profile's former 'counterexample' (dS (23) off by 4e-8 of its own size, batch index 5)
    errs = _errors()
    for name, e in errs.items():
        assert float(e.max()) < 1e-13, name


def test_term_scale_still_flags_a_wrong_formula():
    # dropping 1/sqrt(d_k) from (25)/(27) must stay an order-one error
    errs = _errors(scale_dk=False, d_k=4, log_scale=0.0, log_xscale=0.0)
    assert float(errs["dQ (25)"].max()) > 0.05 and float(errs["dK (27)"].max()) > 0.05

"""Behavioural tests of selected pegr claims: the refutations carry re-checkable
counterexamples, the proofs are exact."""

import numpy as np
import pytest

import verify
from numerics.pegr.model import graphs as gr
from numerics.pegr.model.groups import compose


def _run(pattern, tmp_path):
    results = verify.run(pattern, jobs=0, results_path=tmp_path / "results.jsonl",
                         modules=["proofs.pegr", "numerics.pegr"])
    return {r.id: r for r in results}


@pytest.mark.parametrize("cid,verdict,literal", [
    ("pegr.rope.frequency_formula", "PROVED", "REFUTED"),  # with erratum: the sign
    ("pegr.pe.vec_rho_properties", "PROVED", None),
    ("pegr.laplacian.rho_is_homomorphism", "SUPPORTED", "REFUTED"),  # with erratum
    ("pegr.homogeneous.lift_pe", "REFUTED", None),
    ("pegr.rep.complete_reducibility", "PROVED", "REFUTED"),  # with erratum: L69's hypothesis
])
def test_claim_verdicts(cid, verdict, literal, tmp_path):
    """The headline, and for a claim repaired by an erratum the printed reading A's verdict
    beside it."""
    r = _run(cid, tmp_path)[cid]
    assert str(r.verdict).endswith(verdict)
    if literal is not None:
        assert r.readings["A"]["verdict"] == literal and r.errata


def test_rows_convention_is_an_antihomomorphism_on_C3():
    """The mechanism behind pegr.laplacian.rho_is_homomorphism: rho(gh) = rho(h) rho(g), which
    differs from rho(g) rho(h)."""
    Phi = gr.eigenspaces(gr.laplacian(gr.cycle(3)))[1][1]
    g, h = (1, 2, 0), (0, 2, 1)
    rg, rh, rgh = (gr.rho_rows(s, Phi) for s in (g, h, compose(g, h)))
    assert np.allclose(rgh, rh @ rg)
    assert not np.allclose(rgh, rg @ rh)


def test_eq7_holds_with_inverse():
    Phi = gr.eigenspaces(gr.laplacian(gr.cycle(7)))[1][1]
    g = tuple((x + 2) % 7 for x in range(7))
    ginv = tuple((x - 2) % 7 for x in range(7))
    assert np.allclose(Phi[:, list(g)], gr.rho_rows(ginv, Phi) @ Phi)
    assert not np.allclose(Phi[:, list(g)], gr.rho_rows(g, Phi) @ Phi)

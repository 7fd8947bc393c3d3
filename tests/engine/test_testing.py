"""verify.testing: verdict asserts and assert_equivariant for users' test suites; Evidence
refuses bool()."""

from __future__ import annotations

import pytest
import sympy as sp
import torch

from verify import ClaimResult, Evidence, Verdict
from verify.numeric import groups as G
from verify.symbolic import prove_equal
from verify.testing import (
    EvidenceAssertionError,
    assert_equivariant,
    assert_not_equivariant,
    assert_proved,
    assert_refuted,
    assert_supported,
    describe,
)

x = sp.Symbol("x")


def refuted() -> Evidence:
    return Evidence(Verdict.REFUTED, "sign flipped at x=1/2", method="symbolic",
                    counterexample={"point": {"x": "1/2"}, "lhs": "1", "rhs": "-1"},
                    rerun="python -c 'import mycheck'")


def supported(**kw) -> Evidence:
    return Evidence(Verdict.SUPPORTED, "no violation in 1024 inputs", **kw)


# -- Evidence has no truth value ----------------------------------------------------------------
def test_evidence_refuses_bool_naming_the_asserts():
    ev = refuted()
    with pytest.raises(TypeError, match=r"no truth value \(this one is REFUTED\).*assert_proved"):
        bool(ev)
    with pytest.raises(TypeError, match="assert_supported"):
        assert ev
    with pytest.raises(TypeError):
        if supported():
            pass


# -- verdict asserts ----------------------------------------------------------------------------
def test_assert_proved_passes_on_an_exact_proof_and_returns_it():
    ev = prove_equal(sp.sin(x) ** 2 + sp.cos(x) ** 2, 1)
    assert assert_proved(ev) is ev


def test_assert_proved_fails_with_summary_counterexample_and_rerun():
    ev = refuted()
    with pytest.raises(AssertionError) as info:
        assert_proved(ev, err_msg="Lemma 2 as printed")
    err = info.value
    assert isinstance(err, EvidenceAssertionError) and err.evidence is ev
    text = str(err)
    assert text.startswith("expected PROVED, got REFUTED\nLemma 2 as printed\n")
    assert "sign flipped at x=1/2" in text
    assert "counterexample:\n      point: {'x': '1/2'}" in text
    assert text.endswith("re-run: python -c 'import mycheck'")


def test_assert_proved_of_a_real_refutation_shows_the_witness():
    with pytest.raises(AssertionError, match=r"(?s)got REFUTED.*point: \{'x'"):
        assert_proved(prove_equal(sp.sin(x) ** 2, 1 - sp.cos(x) ** 2 + x**3 / 1000))


def test_assert_proved_audits_like_a_run():
    fake = Evidence(Verdict.PROVED, "agrees at 1000 points", method="numeric")
    with pytest.raises(AssertionError, match="(?s)got UNDECIDED.*PROVED rejected"):
        assert_proved(fake)


def test_assert_proved_scope():
    bounded = Evidence(Verdict.PROVED, "exact zero for N<=4", method="symbolic", scope="bounded")
    assert_proved(bounded)
    with pytest.raises(AssertionError, match=r"expected PROVED \(scope general\), got PROVED "
                                             r"\(scope bounded\)"):
        assert_proved(bounded, scope="general")
    general = Evidence(Verdict.PROVED, "exact zero, symbolic N", method="symbolic",
                       scope="general")
    assert_proved(general, scope="general")


def test_assert_supported_and_refuted():
    ev = supported(numbers={"worst_violation": 1e-16, "tol": 1e-8, "inputs_tried": 1024})
    assert assert_supported(ev) is ev
    with pytest.raises(AssertionError, match="(?s)expected REFUTED, got SUPPORTED.*no violation"
                                             ".*worst_violation: 1e-16"):
        assert_refuted(ev)
    assert assert_refuted(refuted()) is not None
    with pytest.raises(AssertionError, match="expected SUPPORTED, got REFUTED"):
        assert_supported(refuted())
    proved = Evidence(Verdict.PROVED, "exact", method="symbolic")
    with pytest.raises(AssertionError, match="expected SUPPORTED, got PROVED"):
        assert_supported(proved)


def test_a_list_is_judged_by_the_combine_rule():
    proof = Evidence(Verdict.PROVED, "exact", method="symbolic", scope="general")
    assert_proved([proof, supported()])  # a proof and its cross-check: PROVED
    assert_supported([supported(part="a"), supported(part="b")])
    with pytest.raises(AssertionError, match=r"(?s)got REFUTED.*\[1\] SUPPORTED.*\[2\] REFUTED"):
        assert_supported([supported(), refuted()])
    with pytest.raises(TypeError, match="list of Evidence, it holds a str"):
        assert_proved([proof, "PROVED"])
    with pytest.raises(TypeError, match="got Verdict"):
        assert_proved(Verdict.PROVED)


def test_a_claim_result_is_judged_by_its_verdict_with_its_rerun():
    r = ClaimResult(id="mine.lemma2", paper="mine", verdict=Verdict.REFUTED, summary="flipped",
                    evidence=[refuted()], where="Lemma 2", rerun="verify run --claim mine.lemma2")
    assert_refuted(r)
    with pytest.raises(AssertionError) as info:
        assert_proved(r)
    text = str(info.value)
    assert "claim mine.lemma2 (mine, Lemma 2): REFUTED: flipped" in text
    assert "[1] REFUTED" in text and "re-run: python -c 'import mycheck'" in text
    assert text.endswith("re-run the claim: verify run --claim mine.lemma2")
    crashed = ClaimResult(id="mine.x", paper="mine", verdict=Verdict.UNDECIDED,
                          summary="timeout", error="timeout after 5 s",
                          evidence=[Evidence.undecided("timeout after 5 s")],
                          rerun="verify run --claim mine.x")
    with pytest.raises(AssertionError, match="(?s)error: timeout after 5 s.*re-run: verify run "
                                             "--claim mine.x"):
        assert_supported(crashed)


def test_describe_elides_large_arrays():
    ev = Evidence(Verdict.REFUTED, "bad", counterexample={"x": list(range(1000))})
    text = describe(ev)
    assert "..." in text and len(text) < 600


# -- assert_equivariant -------------------------------------------------------------------------
def attention(x):
    """Self-attention without positions: permutation-equivariant over the rows."""
    return torch.softmax(x @ x.transpose(1, 2), dim=-1) @ x


def with_positions(x):
    return attention(x) + torch.arange(x.shape[1], dtype=x.dtype)[:, None]


def test_permutation_equivariance_passes_and_returns_the_evidence():
    ev = assert_equivariant(attention, group="permutation", shape=(6, 4))
    assert ev.verdict is Verdict.SUPPORTED and ev.numbers["inputs_tried"] == 20 * 64


def test_a_broken_equivariance_fails_with_the_input_the_element_and_the_rerun():
    with pytest.raises(AssertionError) as info:
        assert_equivariant(with_positions, group="permutation", shape=(6, 4), budget=10)
    text = str(info.value)
    assert text.startswith("not equivariant: f(g.x) != g.f(x) for g in S_n (permutation, n=6) "
                           "acting on axis 0, x of shape (6, 4)")
    assert "counterexample:" in text and "x: [[" in text and "g: [" in text
    assert "re-run: assert_equivariant(with_positions, group='permutation', shape=(6, 4), " \
           "seed=0, budget=10" in text
    assert info.value.evidence.verdict is Verdict.REFUTED


def test_a_positional_encoding_is_asserted_not_equivariant_with_its_counterexample():
    ev = assert_not_equivariant(with_positions, group="permutation", shape=(6, 4), budget=10)
    assert ev.verdict is Verdict.REFUTED
    assert set(ev.counterexample["inputs"]) >= {"x", "g"}
    text = describe(ev)
    assert "counterexample:" in text and "x: [[" in text and "g: [" in text


def test_not_equivariant_fails_on_an_equivariant_map_with_the_worst_violation_and_rerun():
    with pytest.raises(AssertionError) as info:
        assert_not_equivariant(attention, group="permutation", shape=(6, 4), budget=5)
    text = str(info.value)
    assert text.startswith("expected f(g.x) != g.f(x) for some g in S_n (permutation, n=6) "
                           "acting on axis 0, x of shape (6, 4); equivariant on every input "
                           "tried")
    assert "no violation above tol" in text
    assert "re-run: assert_not_equivariant(attention, group='permutation', shape=(6, 4), " \
           "seed=0, budget=5" in text
    assert info.value.evidence.verdict is Verdict.SUPPORTED


def test_not_invariant_is_the_refuting_counterpart_of_an_invariance():
    assert_not_equivariant(lambda v: v[:, 0], group="so", shape=(7, 3), act_out="invariant",
                           budget=5)
    with pytest.raises(AssertionError, match="output invariant"):
        assert_not_equivariant(lambda v: v.norm(dim=-1), group="so", shape=(7, 3),
                               act_out="invariant", budget=5)


def test_a_module_with_an_output_of_another_width_and_float32():
    torch.manual_seed(0)
    layer = torch.nn.Linear(4, 3)  # row-wise: the rows of the (5, 3) output follow the input's
    ev = assert_equivariant(layer, group="permutation", shape=(5, 4), dtype=torch.float32)
    assert ev.dtype == "float32"


def test_out_axis_and_invariance():
    assert_equivariant(lambda v: v.transpose(1, 2), group="permutation", shape=(5, 2),
                       out_axis=1)
    assert_equivariant(lambda v: v.sum(dim=1), group="permutation", shape=(5, 2),
                       act_out="invariant")
    assert_equivariant(lambda v: v.norm(dim=-1), group="so", shape=(7, 3), act_out="invariant")
    with pytest.raises(AssertionError, match="output invariant"):
        assert_equivariant(lambda v: v[:, 0], group="so", shape=(7, 3), act_out="invariant",
                           budget=5)


def test_rotations_act_on_the_vectors_of_the_chosen_axis():
    def gram_mix(v):  # (b, m, 3): v_i -> sum_j <v_i, v_j> v_j, rotation-equivariant
        return (v @ v.transpose(1, 2)) @ v

    assert_equivariant(gram_mix, group="so", shape=(4, 3))
    assert_equivariant(gram_mix, group="o", shape=(4, 3))
    transposed = lambda v: gram_mix(v.transpose(1, 2)).transpose(1, 2)  # noqa: E731
    assert_equivariant(transposed, group="so", shape=(3, 4), axis=0)
    with pytest.raises(AssertionError, match="SO\\(n\\) \\(so, n=3\\) acting on axis -1"):
        assert_equivariant(lambda v: v + torch.tensor([1.0, 0, 0], dtype=v.dtype), group="so",
                           shape=(4, 3), budget=5)


def test_other_groups():
    def circular_blur(img):  # (b, H, W): a circular convolution commutes with grid shifts
        return img + torch.roll(img, 1, dims=1) + torch.roll(img, -1, dims=2)

    assert_equivariant(circular_blur, group="translation", shape=(5, 6))
    assert_equivariant(lambda s: torch.cumsum(s, 1)[:, -1:], group="cyclic", shape=(6,),
                       act_out="invariant")
    with pytest.raises(AssertionError, match="C_n"):
        assert_equivariant(lambda s: torch.cumsum(s, 1), group="cyclic", shape=(6,), budget=5)

    def centroid(p):  # (b, m, 3) -> (b, 1, 3): moves with every rigid motion
        return p.mean(dim=1, keepdim=True)

    assert_equivariant(centroid, group="se", shape=(5, 3), group_options={"translation_scale": 3})
    assert_equivariant(lambda v: v * v.norm(dim=-1, keepdim=True), group="scaling", shape=(3,),
                       act_out=G.SCALING.action(degree=2))
    assert_equivariant(lambda z: z / z.abs().norm(dim=-1, keepdim=True), group="unitary",
                       shape=(3,))


def test_a_sampler_group_needs_act_in():
    with pytest.raises(TypeError, match="needs act_in="):
        assert_equivariant(attention, group=G.PERMUTATION.sampler(n=6), shape=(6, 4))
    act = G.PERMUTATION.action(axis=0)
    ev = assert_equivariant(attention, group=G.PERMUTATION.sampler(n=6), shape=(6, 4),
                            act_in=act, budget=5)
    assert ev.verdict is Verdict.SUPPORTED
    ev = assert_equivariant(attention, group=G.PERMUTATION.strategy(6), shape=(6, 4),
                            act_in=act, budget=5)
    assert ev.verdict is Verdict.SUPPORTED


def test_sizes_come_from_the_shape_on_the_axis():
    with pytest.raises(ValueError, match="axis 2 is out of range for shape \\(6, 4\\)"):
        assert_equivariant(attention, group="permutation", shape=(6, 4), axis=2)
    with pytest.raises(ValueError, match="one size, got \\[4, 6\\]"):
        assert_equivariant(attention, group="permutation", shape=(6, 4), axis=(0, 1))
    with pytest.raises(ValueError, match="no group named 'rotations3'"):
        assert_equivariant(attention, group="rotations3", shape=(6, 4))


def test_testing_is_a_lazy_public_name_of_verify():
    import verify

    assert "testing" in verify.__all__ and verify.testing.assert_proved is assert_proved


def test_a_failing_assert_shows_the_callers_frame_not_verify_testing(tmp_path):
    """``__tracebackhide__``: pytest's traceback of a failed assert stops at the test's own
    line; no frame of verify/testing.py is shown."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    (tmp_path / "test_hidden.py").write_text(
        "from verify import Evidence, Verdict\n"
        "from verify.testing import assert_supported\n\n\n"
        "def test_fails():\n"
        "    assert_supported(Evidence(Verdict.UNDECIDED, 'a NaN was seen', method='numeric'))\n",
        encoding="utf-8")
    root = str(Path(__file__).resolve().parents[2])
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([root, *sys.path]))
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--tb=long",
         "-p", "no:verify", str(tmp_path / "test_hidden.py")],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 1, out.stdout + out.stderr
    assert "EvidenceAssertionError" in out.stdout and "assert_supported(Evidence(" in out.stdout
    assert "testing.py" not in out.stdout, out.stdout

"""The toef claims: every id of the paper's claim list is registered once, in the module named
after its section, the symbolic tree imports no torch, and refutations carry counterexamples."""

import os
import subprocess
import sys
from pathlib import Path

import verify
from verify.registry import REGISTRY, discover

ROOT = Path(__file__).resolve().parents[2]
#: Discovery limited to this paper's packages.
TOEF = ["proofs.toef", "numerics.toef"]

#: The 41 ids, by the module (in proofs/toef/ and numerics/toef/) of the paper's section.
SECTIONS = {
    "splitting": ["def1_transformer_ode", "fig1_mlp_heads_split", "norm_approx_linear",
                  "eq2_split_vs_parallel", "lemma1_lie_trotter", "lemma1_bch_second_order",
                  "lemma2_depth"],
    "variational": ["def2_euler_lagrange", "def2_dissipative_conservative",
                    "def2_symplectic_legendre", "def3_structural_optimality",
                    "potential_existence_criterion"],
    "linearized": ["def4_linearized_transformer", "lemma3_wirtinger_linear_ffn",
                   "lemma3_wirtinger_linear_attention", "lemma3_pairing_necessity",
                   "uniqueness_of_potential"],
    "axioms": ["axioms_1_to_4", "axiom2_gram_dependence", "lemma4_sufficiency",
               "lemma4_double_commutant", "lemma4_canonical_form", "un_equivariant_flow_form"],
    "theorem5": ["thm5_minimal_interaction", "thm5_eft_truncation_rate", "thm5_mlp_fusion_width",
                 "lemma6_low_rank", "softmax_in_canonical_form"],
    "engineering": ["relu_projection", "relu_axioms_characterization",
                    "conic_symmetry_relaxation", "gated_mlp_triple_potential",
                    "gated_mlp_minimal_under_SN", "lemma7_softmax_free_energy", "lemma8_bch_gate",
                    "lemma8_series_coefficients", "lemma8_asymptotics",
                    "lemma8_nonlinear_ordering", "sparse_attention_interpretation",
                    "rope_fourier_pe", "abstract_contributions"],
}


def test_every_id_is_registered_in_the_module_of_its_section():
    discover(TOEF)
    have = {c.id: c for c in REGISTRY if c.paper == "toef"}
    expected = {f"toef.{name}": section for section, names in SECTIONS.items() for name in names}
    assert len(expected) == 41
    assert set(have) == set(expected)
    for cid, section in expected.items():
        c = have[cid]
        assert c.where and c.statement and c.kind in verify.KINDS
        files = {loc.rsplit(":", 1)[0] for loc in c.code}
        assert files <= {f"proofs/toef/{section}.py", f"numerics/toef/{section}.py"}, (cid, files)
    assert REGISTRY.papers["toef"].title == "Transformers Are Optimal Effective Fields"


def test_symbolic_claims_never_import_torch():
    code = ("import importlib, sys, proofs.toef as p\n"
            "for m in ('model', *p.__claims__): importlib.import_module('proofs.toef.' + m)\n"
            "assert 'torch' not in sys.modules, 'proofs.toef imports torch'\n")
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, check=True)


def test_refuted_claims_carry_counterexamples(tmp_path):
    r = verify.run(["toef.lemma8_series_coefficients", "toef.lemma2_depth"], jobs=0,
                   results_path=tmp_path / "r.jsonl", modules=TOEF)
    for res in r:  # an erratum: the repaired reading heads, the printed one keeps its REFUTED
        assert res.readings["A"]["verdict"] == "REFUTED" and res.errata
        assert any(e.counterexample for e in res.evidence
                   if str(e.verdict) == "REFUTED" and e.reading == "A")

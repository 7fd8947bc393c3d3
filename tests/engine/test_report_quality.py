"""The report of a user's own paper reads well: eps units applied once, log-scale
histograms, readable figure titles, small inputs in full, matrices in steps, failed ladder
rungs collapsed under PROVED, re-run snippets that can be pasted."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import hypothesis.strategies as st
import sympy as sp
import torch

from verify import Evidence, Verdict
from verify.context import Context
from verify.numeric import check_equivariance, falsify
from verify.report import figures, view
from verify.report.view import evidence_view, fmt_value, proof_steps
from verify.results import ClaimResult
from verify.symbolic.prove import _tex

EPS64 = 2.0**-52


def _view(e: Evidence) -> dict:
    r = ClaimResult(id="p.x", paper="p", verdict=e.verdict, summary="s", evidence=[e])
    return evidence_view(r, e, 1, [], view.Renderers.for_mode(False))


# -- eps units ---------------------------------------------------------------------------------
def test_a_violation_is_converted_to_eps_once():
    e = Evidence(Verdict.SUPPORTED, "ok", method="numeric", dtype="float64",
                 numbers={"worst_violation": 2.499 * EPS64, "worst_in_eps": 2.499})
    violations = _view(e)["violations"]
    assert len(violations) == 1  # worst_in_eps is not divided by eps a second time
    assert str(violations[0]["key"]).startswith("worst")
    assert str(violations[0]["eps"]).startswith("2.499")


def test_a_value_already_in_eps_alone_is_shown_as_eps():
    e = Evidence(Verdict.SUPPORTED, "ok", method="numeric", dtype="float32",
                 numbers={"worst_in_eps": 3.5})
    (v,) = _view(e)["violations"]
    assert v["value"] is None and str(v["eps"]).startswith("3.5\\,")
    assert "float32" in str(v["eps"])


# -- histograms --------------------------------------------------------------------------------
def _axes(spec: dict, monkeypatch, tmp_path):
    saved = {}
    monkeypatch.setattr(figures, "_save", lambda fig, path: saved.setdefault("fig", fig))
    figures.draw(spec, tmp_path / "f.pdf")
    return saved["fig"].axes[0]


def test_float64_errors_far_below_the_tolerance_get_a_log_axis(monkeypatch, tmp_path):
    values = [0.0] * 5 + [0.5, 1.0, 2.0, 3.0]  # eps units, exact zeros among them
    ax = _axes({"kind": "histogram", "values": values, "threshold": 1.6e8}, monkeypatch, tmp_path)
    assert ax.get_xscale() == "log"
    lo, hi = ax.get_xlim()
    assert lo < 0.5 and hi >= 1.6e8  # both the errors and the tolerance are in view
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "5 exact zeros" in labels


def test_values_of_one_decade_keep_a_linear_axis(monkeypatch, tmp_path):
    ax = _axes({"kind": "histogram", "values": [1.0, 2.0, 3.0], "threshold": 5.0},
               monkeypatch, tmp_path)
    assert ax.get_xscale() == "linear"


# -- titles ------------------------------------------------------------------------------------
def test_figure_titles_drop_internal_names_and_wrap_instead_of_being_cut(monkeypatch, tmp_path):
    title = ("check_equivariance.<locals>.equivariance_violation: 400 examples x 1024 inputs "
             "of the permutation group acting on rows")
    ax = _axes({"kind": "histogram", "values": [1.0, 2.0], "title": title}, monkeypatch, tmp_path)
    shown = ax.get_title().split("\n")
    assert "<locals>" not in ax.get_title() and shown[0].startswith("equivariance_violation:")
    assert len(shown) == 2 and all(len(line) <= figures.WRAP for line in shown)
    assert shown[1].endswith("acting on rows")  # nothing cut off
    assert figures.readable(title).startswith("equivariance_violation:")


def test_the_falsifier_names_a_local_property_by_its_own_name():
    ev = check_equivariance(lambda x: x.flip(-1), lambda g, x: x * g, lambda g, y: y * g,
                            lambda generator, batch, dtype, device: torch.randn(
                                batch, 3, generator=generator, dtype=dtype, device=device),
                            st.floats(0.5, 2.0), budget=3, batch=8, device="cpu")
    assert ev.figures[0]["title"].startswith("equivariance_violation: 3 examples")


# -- counterexamples and steps -----------------------------------------------------------------
def test_a_small_counterexample_input_is_printed_in_full():
    ce = {"inputs": {"x": [[0.25, 1.0, -2.0], [3.0, 4.5, 6.0]]}, "batch_index": 3}
    text = str(fmt_value(ce))
    assert "\\dots" not in text
    assert "[[0.25, 1, -2], [3, 4.5, 6]]" in text
    mid = {"inputs": {"x": [[float(i)] * 20 for i in range(20)]}}
    assert "\\dots" not in str(fmt_value(mid))  # 400 numbers: in full, never cut with dots
    big = {"inputs": {"x": [[float(i)] * 40 for i in range(40)]}}
    text = str(fmt_value(big))  # 1600 numbers: described, in full in the results file
    assert "\\dots" not in text and "40$\\times$40 list of numbers from 0 to 39" in text


def test_a_matrix_too_long_to_print_is_described_not_questioned():
    x = sp.symbols("x0:9")
    m = sp.Matrix(3, 3, lambda i, j: sp.exp(x[i]) * sp.sin(x[j]) / (1 + x[i] ** 2 + x[j] ** 3))
    text = _tex(m)
    assert "?" not in text
    assert text.startswith("(a 3x3 matrix, ") and text.endswith(" operations)")


def test_under_proved_only_the_rung_that_reached_zero_is_listed():
    steps = [
        "claim: $a$ = $b$",
        "as given: $a - b$ (0.00 s)",
        "expand: 2 matrix entries not yet zero",
        "doit + expand: (a 3x3 matrix, 72 operations) (0.02 s)",
        "simplify: time guard (20 s or the deadline) exceeded, skipped",
        "together + cancel: exact zero (0.01 s)",
    ]
    proved = Evidence(Verdict.PROVED, "ok", method="symbolic", steps=steps)
    kept, hidden = proof_steps(proved)
    assert kept == [steps[0], steps[-1]]
    assert hidden == ["as given", "expand", "doit + expand", "simplify"]
    note = str(_view(proved)["steps_hidden"])
    assert note.startswith("4 earlier rungs of the ladder did not reach zero")
    undecided = Evidence(Verdict.UNDECIDED, "no", method="symbolic", steps=steps[:-1])
    assert proof_steps(undecided) == (steps[:-1], [])  # there the failed rungs are the story


# -- re-run snippets ---------------------------------------------------------------------------
PROPERTY = '''
import torch


def corner(*, generator, batch, dtype, device, n):
    """Violated (0.25) exactly when n == 3."""
    x = torch.rand(batch, generator=generator, dtype=dtype, device=device)
    return torch.full_like(x, 0.25 if n == 3 else 0.0)
'''


def test_a_rerun_snippet_pastes_into_a_fresh_python(tmp_path, monkeypatch):
    (tmp_path / "snippet_prop.py").write_text(textwrap.dedent(PROPERTY), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    from snippet_prop import corner

    try:
        ev = falsify(corner, {"n": st.integers(1, 5)}, budget=40, batch=4, device="cpu")
    finally:
        sys.modules.pop("snippet_prop", None)
    assert ev.verdict is Verdict.REFUTED
    snippet = ev.counterexample["rerun"]
    assert snippet.startswith("import torch; from snippet_prop import corner; ")
    assert ev.rerun == snippet
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), *sys.path]))
    p = subprocess.run([sys.executable, "-c", snippet], cwd=tmp_path, env=env,
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert float(p.stdout) == ev.counterexample["violation_float64"] == 0.25


def test_a_local_property_leaves_the_rerun_to_the_claims_command():
    def local(*, generator, batch, dtype, device):
        return torch.full((batch,), 0.5, dtype=dtype)

    ev = falsify(local, {}, budget=2, batch=4, device="cpu")
    assert ev.verdict is Verdict.REFUTED
    assert "rerun" not in ev.counterexample and ev.rerun is None  # the runner fills it in


def test_the_claims_rerun_command_runs_as_written():
    ctx = Context("p.x", run_seed=3, profile="fuzz", source="claims.py")
    assert ctx.rerun_command() == "verify fuzz claims.py --claim p.x --seed 3"
    ctx = Context("p.x", run_seed=3, profile="deep")
    assert ctx.rerun_command() == "verify run --claim p.x --seed 3 --profile deep"


def test_a_property_in_a_claims_file_is_rerun_by_the_files_command(tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "path", list(sys.path))  # import_file puts the file's folder first
    from verify.discovery import import_file
    from verify.numeric.falsify import importable

    (tmp_path / "own_claims.py").write_text(textwrap.dedent(PROPERTY), encoding="utf-8")
    mod = import_file(tmp_path / "own_claims.py")
    try:
        # its module name is private to verify: no Python snippet could import it
        assert importable(mod.corner) is None
    finally:
        sys.modules.pop(mod.__name__, None)

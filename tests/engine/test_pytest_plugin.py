"""The pytest plugin: ``pytest --claims`` collects registered claims as test items.

Each case runs pytest in a subprocess (``pytester.runpytest_subprocess``) on a tiny claims
package, ``pytfx_claims``, written into the pytester folder, so nothing registers into this
process's registry.
"""

from __future__ import annotations

import os
import re
import textwrap
import xml.etree.ElementTree as ET
from importlib.metadata import entry_points
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

CLAIMS = textwrap.dedent('''
    """Claims of the fixture paper pytfx: one of each outcome the plugin distinguishes."""
    import time

    import verify
    from verify import Evidence, Verdict


    @verify.claim("pytfx.matches", paper="pytfx", where="l. 1", statement="1 = 1",
                  kind="identity", expect="PROVED")
    def matches(ctx):
        return Evidence(Verdict.PROVED, "exact zero", method="symbolic", scope="general")


    @verify.claim("pytfx.drifted", paper="pytfx", where="Lemma 2", statement="2 = 3",
                  kind="identity", expect="PROVED")
    def drifted(ctx):
        return Evidence(Verdict.REFUTED, "2 - 3 = -1, not 0", method="symbolic",
                        counterexample={"lhs": "2", "rhs": "3", "at": {"n": 7}})


    @verify.claim("pytfx.crashes", paper="pytfx", where="l. 3", statement="x",
                  kind="property")
    def crashes(ctx):
        raise ValueError("the check is broken")


    @verify.claim("pytfx.informal", paper="pytfx", where="l. 4", statement="x",
                  kind="informal")
    def informal(ctx):
        return Evidence.informal("not a checkable statement")


    @verify.claim("pytfx.hangs", paper="pytfx", where="l. 5", statement="x", kind="property")
    def hangs(ctx):
        time.sleep(60)
''')

#: Every claim except pytfx.hangs (which only the isolation test runs).
QUICK = ["--claims", "pytfx.[mdci]*", "--claims-from", "pytfx_claims", "--claims-only",
         "-p", "no:cacheprovider"]


POISON = textwrap.dedent('''
    """A claim that changes its process's state, and one that sees it."""
    import os

    import verify
    from verify import Evidence, Verdict


    @verify.claim("pytfx.zpoison", paper="pytfx", where="l. 8", statement="x",
                  kind="property", expect="SUPPORTED")
    def poison(ctx):
        os.environ["PYTFX_POISONED"] = "1"
        return Evidence(Verdict.SUPPORTED, "poisoned", numbers={"n": 1})


    @verify.claim("pytfx.zvictim", paper="pytfx", where="l. 9", statement="x",
                  kind="property", expect="SUPPORTED")
    def victim(ctx):
        if os.environ.get("PYTFX_POISONED"):
            return Evidence(Verdict.REFUTED, "saw the poison",
                            counterexample={"PYTFX_POISONED": "1"})
        return Evidence(Verdict.SUPPORTED, "clean process", numbers={"n": 1})
''')


@pytest.fixture
def claims_dir(pytester: pytest.Pytester) -> pytest.Pytester:
    pkg = pytester.mkpydir("pytfx_claims")
    (pkg / "lemmas.py").write_text(CLAIMS)
    (pkg / "poison.py").write_text(POISON)
    return pytester


def test_the_plugin_is_installed_under_pytest11():
    found = {ep.name: ep.value for ep in entry_points(group="pytest11")}
    assert found.get("verify") == "verify.pytest_plugin"


def test_a_matching_claim_passes_and_a_drifted_one_fails_with_its_evidence(claims_dir):
    xml = claims_dir.path / "claims.xml"
    res = claims_dir.runpytest_subprocess(*QUICK, "-rA", f"--junitxml={xml}")
    res.assert_outcomes(passed=2, failed=2)
    out = res.stdout.str()
    res.stdout.fnmatch_lines([
        "PASSED claims/pytfx::pytfx.matches",
        "PASSED claims/pytfx::pytfx.informal",
        "FAILED claims/pytfx::pytfx.drifted - pytfx.drifted: verdict REFUTED*",
        "FAILED claims/pytfx::pytfx.crashes - pytfx.crashes: ERROR*",
    ])
    assert "pytfx.drifted: verdict REFUTED, expected PROVED\n" in out
    assert "collected 4 items" in out
    # the evidence: summary, counterexample, re-run command
    assert "[1] REFUTED (reading A, part main, symbolic): 2 - 3 = -1, not 0" in out
    assert "    counterexample:\n      lhs: '2'\n      rhs: '3'\n      at: {'n': 7}" in out
    assert "re-run: verify run --module pytfx_claims --claim pytfx.drifted --seed 0" in out
    assert "check crashes raised ValueError: the check is broken" in out
    # --junitxml: one testcase per claim, the verdict as a property
    cases = {c.get("name"): c for c in ET.parse(xml).getroot().iter("testcase")}
    assert set(cases) == {"pytfx.matches", "pytfx.drifted", "pytfx.crashes", "pytfx.informal"}
    assert cases["pytfx.drifted"].get("classname") == "claims.pytfx"
    props = {p.get("name"): p.get("value") for p in cases["pytfx.drifted"].iter("property")}
    assert props["verdict"] == "REFUTED" and props["expect"] == "PROVED"
    assert cases["pytfx.drifted"].find("failure") is not None
    assert cases["pytfx.matches"].find("failure") is None


def test_k_selects_by_id_paper_and_kind(claims_dir):
    res = claims_dir.runpytest_subprocess(*QUICK, "-k", "drifted or informal")
    res.assert_outcomes(passed=1, failed=1, deselected=2)
    res = claims_dir.runpytest_subprocess(*QUICK, "-k", "pytfx and identity")
    res.assert_outcomes(passed=1, failed=1, deselected=2)


def test_x_stops_at_the_first_failure(claims_dir):
    res = claims_dir.runpytest_subprocess(*QUICK, "-x")
    res.assert_outcomes(passed=1, failed=1)


def test_xdist_runs_the_claims_on_two_workers(claims_dir):
    res = claims_dir.runpytest_subprocess(*QUICK, "-n", "2")
    res.assert_outcomes(passed=2, failed=2)
    res.stdout.fnmatch_lines(["*2 workers [[]4 items[]]*"])


def test_a_timeout_in_its_own_process_fails_the_item(claims_dir):
    res = claims_dir.runpytest_subprocess(
        "--claims", "pytfx.hangs", "--claims-from", "pytfx_claims", "--claims-only",
        "--claims-isolation", "process", "--claims-timeout", "1", "-p", "no:cacheprovider")
    res.assert_outcomes(failed=1)
    res.stdout.fnmatch_lines(["*pytfx.hangs: verdict UNDECIDED: the claim crashed or timed out "
                              "(timeout: still running after its budget of 1 s*"])


def test_by_default_each_claim_runs_isolated_as_verify_run_does(claims_dir):
    base = ["--claims", "pytfx.z*", "--claims-from", "pytfx_claims", "--claims-only",
            "-p", "no:cacheprovider"]
    res = claims_dir.runpytest_subprocess(*base)
    res.assert_outcomes(passed=2)  # the victim's process never saw the poison
    inline = claims_dir.runpytest_subprocess(*base, "--claims-isolation", "inline")
    inline.assert_outcomes(passed=1, failed=1)  # in one process it does: the test can fail
    inline.stdout.fnmatch_lines(["*pytfx.zvictim: verdict REFUTED, expected SUPPORTED*"])


def test_without_claims_the_plugin_is_inert_and_with_it_tests_still_run(claims_dir):
    claims_dir.makepyfile(test_plain="def test_plain():\n    assert True\n")
    res = claims_dir.runpytest_subprocess("-p", "no:cacheprovider")
    res.assert_outcomes(passed=1)
    res = claims_dir.runpytest_subprocess("-p", "no:cacheprovider", "--claims", "pytfx.matches",
                                          "--claims-from", "pytfx_claims")
    res.assert_outcomes(passed=2)
    res = claims_dir.runpytest_subprocess("-p", "no:cacheprovider", "--claims", "pytfx.matches",
                                          "--claims-from", "pytfx_claims", "-m", "claim")
    res.assert_outcomes(passed=1, deselected=1)


def test_usage_errors(claims_dir):
    res = claims_dir.runpytest_subprocess("--claims", "tests/", "--claims-from", "pytfx_claims")
    res.stderr.fnmatch_lines(["ERROR: --claims takes a glob over claim ids, got the path "
                              "'tests/'*"])
    assert res.ret == pytest.ExitCode.USAGE_ERROR
    res = claims_dir.runpytest_subprocess("--claims", "nope.*", "--claims-from", "pytfx_claims")
    res.stderr.fnmatch_lines(["ERROR: --claims: --claim 'nope.*' matches no claim*"])


def _tutorial_section_5() -> tuple[dict[str, str], str, str]:
    """The tutorial's package files (step 1-2), and the test file and pytest settings that
    its section 5 shows."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "tutorial.md").read_text()
    files = {}
    for body in re.findall(r"```(?:python|toml)\n(.*?)```", text, re.S):
        m = re.fullmatch(r"# (\S+\.(?:py|toml))", body.splitlines()[0])
        if m:
            files[m.group(1)] = body
    section = text.split("## 5. Use in your test suite", 1)[1]
    tests = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    ini = re.search(r"```toml\n(.*?)```", section, re.S).group(1)
    return files, tests, ini


@pytest.mark.slow
def test_the_tutorials_test_suite_section_followed_literally(pytester, monkeypatch):
    files, tests, ini = _tutorial_section_5()
    pkg = pytester.path / "src" / "mypaper_claims"
    pkg.mkdir(parents=True)
    (pkg / "softmax.py").write_text(files["claims.py"])
    (pkg / "__init__.py").write_text(files["src/mypaper_claims/__init__.py"])
    (pytester.path / "tests").mkdir()
    (pytester.path / "tests" / "test_softmax.py").write_text(tests)
    (pytester.path / "pyproject.toml").write_text(ini)  # step 2's pyproject holds it too
    # installed in step 2; here imported from the source tree
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(pkg.parent),
                                                      os.environ.get("PYTHONPATH", "")]))
    res = pytester.runpytest_subprocess("-p", "no:cacheprovider", "tests")
    res.assert_outcomes(passed=5)
    # the claims: the false remark has no expect= yet, so its item fails with its evidence
    res = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--claims", "--claims-only")
    res.assert_outcomes(passed=2, failed=1)
    res.stdout.fnmatch_lines(["*mypaper.softmax.scale: verdict REFUTED (the claim has no "
                              "expect=)*", "*counterexample:*"])

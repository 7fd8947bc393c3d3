"""Mistakes that explain themselves: a typo in a claim id gets the closest ids (run, show,
list), ``verify show`` calls its argument an id, and ``--module`` finds a module in the
current folder the way ``python -m`` would, even from the ``verify`` script."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from verify.suggest import closest, did_you_mean

FIX = Path(__file__).parent.parent / "fixtures"

#: The ``verify`` script as installed: the current folder is not on its sys.path (``python -m``
#: and ``python -c`` would put it there).
SCRIPT = ("import os, sys; sys.path[:] = [p for p in sys.path if p not in ('', os.getcwd())]; "
          "import verify.discovery as r; r.DEFAULT_PACKAGES = ('verify_fixture_claims',); "
          "from verify.cli import main; sys.exit(main(sys.argv[1:]))")


def verify_script(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(FIX), *sys.path]), COLUMNS="200")
    return subprocess.run([sys.executable, "-c", SCRIPT, *args], env=env, cwd=cwd,
                          capture_output=True, text=True, timeout=300)


def test_closest_ids_best_first():
    ids = ["gda.value_grad", "gda.alpha_grad", "nfa.ag.linear_identity", "toef.lemma8"]
    assert closest("gda.valu_grad", ids)[0] == "gda.value_grad"
    assert closest("nfa.ag.linear_identiy", ids) == ["nfa.ag.linear_identity"]
    assert closest("nfa.ag.linear*", ids) == ["nfa.ag.linear_identity"]
    assert did_you_mean("zzz", ids) == ""
    assert did_you_mean("toef.lemma9", ids) == "; did you mean 'toef.lemma8'?"


@pytest.mark.parametrize("command", [["run", "--claim"], ["list", "--claim"], ["show"]])
def test_a_typo_in_a_claim_id_names_the_closest_id(tmp_path, command):
    p = verify_script(*command, "fx.good_firts", cwd=tmp_path)
    assert p.returncode == 2, p.stdout + p.stderr
    assert "did you mean 'fx.good_first'" in p.stderr
    assert len(p.stderr.strip().splitlines()) == 1  # one line, no traceback
    if command == ["show"]:
        assert "--claim" not in p.stderr and "no claim 'fx.good_firts'" in p.stderr


def test_a_typo_in_a_paper_key_names_the_closest_key(tmp_path):
    p = verify_script("list", "--paper", "fxx", cwd=tmp_path)
    assert p.returncode == 2 and "did you mean 'fx'?" in p.stderr


CLAIMS = '''
import verify
from verify import Evidence, Verdict

@verify.claim("here.one", paper="here", where="l. 1", statement="1 = 1", kind="identity")
def one(ctx):
    return Evidence(Verdict.SUPPORTED, "checked", method="numeric")
'''


def test_module_in_the_current_folder_is_found_from_the_verify_script(tmp_path):
    (tmp_path / "here_claims.py").write_text(textwrap.dedent(CLAIMS), encoding="utf-8")
    p = verify_script("run", "--module", "here_claims", "--jobs", "1", cwd=tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "here.one" in p.stdout and "1 claim: 1 SUPPORTED." in p.stdout
    p = verify_script("run", "--module", "no_such_claims", cwd=tmp_path)
    assert p.returncode == 2 and "no module named 'no_such_claims'" in p.stderr

"""The documentation: the tutorial, followed literally in an empty folder outside the checkout,
ends with a verdict table and a report page for the reader's own claims; each seed paper's
page links to its report."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[2] / "docs"
TUTORIAL = DOCS / "tutorial.md"


def tutorial_files() -> dict[str, str]:
    """The files the tutorial shows, by the path its first line names (``# claims.py``)."""
    out = {}
    for _lang, body in re.findall(r"```(python|toml)\n(.*?)```", TUTORIAL.read_text(), re.S):
        first = body.splitlines()[0]
        m = re.fullmatch(r"# (\S+\.(?:py|toml))", first)
        if m:
            out[m.group(1)] = body
    return out


#: The ``verify`` script as installed: unlike ``python -m verify``, the current folder is not
#: on its ``sys.path``.
SCRIPT = ("import os, sys; sys.path[:] = [p for p in sys.path if p not in ('', os.getcwd())]; "
          "from verify.cli import main; sys.exit(main(sys.argv[1:]))")


def _verify(*args: str, cwd: Path, pythonpath: list[str] = (), status: int = 0,
            script: bool = False) -> subprocess.CompletedProcess:
    env = dict(os.environ, COLUMNS="200", PYTHONPATH=os.pathsep.join([*pythonpath, *sys.path]))
    how = ["-c", SCRIPT] if script else ["-m", "verify"]
    p = subprocess.run([sys.executable, *how, *args], cwd=cwd, env=env,
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == status, p.stdout + p.stderr
    return p


def _verdicts(path: Path) -> dict[str, str]:
    return {(d := json.loads(line))["id"]: d["verdict"] for line in path.read_text().splitlines()}


def tutorial_tests() -> str:
    """The test file of the tutorial's section 5."""
    section = TUTORIAL.read_text().split("## 5. Use in your test suite", 1)[1]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


EXPECTED = {"mypaper.softmax.jacobian": "PROVED", "mypaper.softmax.shift": "SUPPORTED",
            "mypaper.softmax.scale": "REFUTED"}


def test_the_tutorial_shows_every_file_of_the_package():
    assert set(tutorial_files()) == {"claims.py", "pyproject.toml",
                                     "src/mypaper_claims/__init__.py"}
    toml = tutorial_files()["pyproject.toml"]
    assert '[project.entry-points."verify.claims"]' in toml and 'mypaper = "mypaper_claims"' in toml


@pytest.mark.slow
def test_the_tutorial_followed_literally_ends_with_a_table_and_a_report(tmp_path):
    files = tutorial_files()
    folder = tmp_path / "mypaper"  # an empty folder outside the checkout
    folder.mkdir()
    # 1. a first claim, in one file
    (folder / "claims.py").write_text(files["claims.py"], encoding="utf-8")
    p = _verify("run", "claims.py", "--jobs", "1", cwd=folder)
    assert "3 claims: 1 PROVED (bounded), 1 SUPPORTED, 1 REFUTED (false)." in p.stdout
    assert _verdicts(folder / "results.jsonl") == EXPECTED
    # a typo is answered with the closest id, in run and in show (from the saved results)
    p = _verify("run", "claims.py", "--claim", "mypaper.softmax.scal", cwd=folder, status=2)
    assert "did you mean 'mypaper.softmax.scale'?" in p.stderr
    p = _verify("show", "mypaper.softmax.scal", cwd=folder, status=2)
    assert "did you mean 'mypaper.softmax.scale'?" in p.stderr and "--claim" not in p.stderr
    # the same file as a module, from the verify script (the current folder is not on its path)
    p = _verify("run", "--module", "claims", "--jobs", "1", "--json", "m.jsonl", cwd=folder,
                script=True)
    assert _verdicts(folder / "m.jsonl") == EXPECTED
    (folder / "m.jsonl").unlink()
    (folder / "m.meta.json").unlink()
    # 2. a package of one's own: mkdir -p src/mypaper_claims && mv claims.py ...
    (folder / "src" / "mypaper_claims").mkdir(parents=True)
    shutil.move(folder / "claims.py", folder / "src" / "mypaper_claims" / "softmax.py")
    for name in ("pyproject.toml", "src/mypaper_claims/__init__.py"):
        (folder / name).write_text(files[name], encoding="utf-8")
    _verify("run", "--module", "mypaper_claims", "--jobs", "1", "--json", "r.jsonl",
            cwd=folder, pythonpath=[str(folder / "src")])
    assert _verdicts(folder / "r.jsonl") == EXPECTED
    # 5. (run here, beside the package) the tutorial's test file, the refuting asserts included
    (folder / "tests").mkdir()
    (folder / "tests" / "test_softmax.py").write_text(tutorial_tests(), encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(folder / "src"), *sys.path]))
    p = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                        "tests"], cwd=folder, env=env, capture_output=True, text=True,
                       timeout=600)
    assert p.returncode == 0 and "5 passed" in p.stdout, p.stdout + p.stderr
    shutil.rmtree(folder / "tests")
    # installed (into a prefix of its own here, not into the environment running the tests),
    # it is found through its entry point like the built-in papers
    if importlib.util.find_spec("setuptools") is None:
        pytest.skip("setuptools is needed to install the tutorial's package offline")
    prefix = tmp_path / "prefix"
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps",
                    "--no-build-isolation", "--prefix", str(prefix), "."], cwd=folder,
                   check=True, capture_output=True, timeout=300)
    site = sysconfig.get_path("purelib", vars={"base": str(prefix), "platbase": str(prefix)})
    p = _verify("run", "--paper", "mypaper", "--jobs", "1", "--json", "results/mypaper.jsonl",
                cwd=folder, pythonpath=[site])
    assert "mypaper.softmax.scale" in p.stdout and "REFUTED (false)" in p.stdout
    meta = json.loads((folder / "results" / "mypaper.meta.json").read_text())
    assert meta["claims_sources"][0]["version"] == "0.1.0"
    # 3. the report of the outside paper: its PDF where a TeX engine is installed
    tex_engine = shutil.which("latexmk") is not None
    _verify("report", "--from", "results/mypaper.jsonl", "--out", "report",
            *([] if tex_engine else ["--no-pdf"]), cwd=folder)
    tex = (folder / "report" / "mypaper.tex").read_text(encoding="utf-8")
    assert "Softmax Attention, Revisited" in tex
    for cid in EXPECTED:
        assert cid.replace("_", "\\_") in tex.replace("\\allowbreak{}", "")
    if tex_engine:
        assert (folder / "report" / "mypaper.pdf").stat().st_size > 0
    # no .hypothesis/ (hypothesis's files go to verify's cache), nor any other hidden file
    assert [p.name for p in folder.iterdir() if p.name.startswith(".")] == []


def test_each_seed_papers_page_links_to_its_report():
    spec = importlib.util.spec_from_file_location("verify_docs_conf", DOCS / "conf.py")
    conf = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conf)
    for key in conf.PAPER_PAGES:
        assert (DOCS / "papers" / f"{key}.md").exists()
        source = ["# page\n"]
        conf._link_report(None, f"papers/{key}", source)
        assert f"{{download}}`{key}.pdf <../report/{key}.pdf>`" in source[0]
    other = ["# guide\n"]
    conf._link_report(None, "guide", other)
    assert other == ["# guide\n"]

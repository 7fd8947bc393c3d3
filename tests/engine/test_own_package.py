"""A user's own claims: a file or module run without installing, entry points that may be
broken, a local ``proofs/`` that must not shadow the built-in papers, and provenance that
names the claims package's own version and revision."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import verify
from verify import discovery, provenance
from verify.registry import REGISTRY, discover

FIX = Path(__file__).parent.parent / "fixtures"
INSTALL_ROOT = Path(verify.__file__).resolve().parent.parent

CLAIMS_FILE = '''
import verify
from verify import Evidence, Verdict

verify.paper("mine", title="My Own Paper")


@verify.claim("mine.one", paper="mine", where="l. 1", statement="1 = 1", kind="property",
              expect="SUPPORTED")
def one(ctx):
    return Evidence(Verdict.SUPPORTED, "one equals one", numbers={"seed": ctx.seed})
'''


def _cli(
    *args: str, cwd: Path, pythonpath: tuple[str, ...] | list[str] = (), patch: str = ""
) -> subprocess.CompletedProcess:
    """``verify ARGS`` in a fresh interpreter (``patch``: Python run first)."""
    env = dict(os.environ, COLUMNS="200", PYTHONPATH=os.pathsep.join([*pythonpath, *sys.path]))
    code = f"import sys; {patch}from verify.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run([sys.executable, "-c", code, *args], env=env, cwd=cwd,
                          capture_output=True, text=True, timeout=300)


FIXTURE_DEFAULTS = "import verify.discovery as r; r.DEFAULT_PACKAGES = ('verify_fixture_claims',); "


def test_claims_file_runs_without_installing(tmp_path):
    (tmp_path / "claims.py").write_text(CLAIMS_FILE, encoding="utf-8")
    p = _cli("run", "claims.py", "--jobs", "1", "--json", "r.jsonl", "--quiet", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    records = [json.loads(line) for line in (tmp_path / "r.jsonl").read_text().splitlines()]
    assert [r["id"] for r in records] == ["mine.one"]  # only the file's claims, no seed paper
    assert records[0]["verdict"] == "SUPPORTED" and records[0]["paper_title"] == "My Own Paper"
    # the re-run command names the file, so it finds the claim again when pasted
    assert records[0]["rerun"] == "verify run claims.py --claim mine.one --seed 0 --profile quick"
    meta = json.loads((tmp_path / "r.meta.json").read_text())
    assert meta["claims_sources"][0]["source"] == "file claims.py"


def test_list_and_show_where_take_a_file_and_a_module(tmp_path):
    pkg = tmp_path / "mypkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    (pkg / "claims.py").write_text(CLAIMS_FILE, encoding="utf-8")
    p = _cli("list", "--module", "mypkg", "--json", cwd=tmp_path, pythonpath=[str(tmp_path)])
    assert p.returncode == 0, p.stderr
    assert [row["id"] for row in json.loads(p.stdout)] == ["mine.one"]
    (tmp_path / "solo.py").write_text(CLAIMS_FILE, encoding="utf-8")
    p = _cli("show", "mine.one", "--where", "--file", "solo.py", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "solo.py:8"  # the decorated check's first line


def test_a_file_without_claims_is_a_usage_error(tmp_path):
    (tmp_path / "empty.py").write_text("X = 1\n", encoding="utf-8")
    p = _cli("run", "empty.py", cwd=tmp_path)
    assert p.returncode == 2
    assert p.stderr.strip() == "verify: error: no claims registered by empty.py"


def test_no_claims_for_paper_says_where_claims_were_looked_for(tmp_path):
    (tmp_path / "claims.py").write_text(CLAIMS_FILE, encoding="utf-8")
    p = _cli("list", "claims.py", "--paper", "zz", cwd=tmp_path)
    assert p.returncode == 2
    assert "no claims for paper 'zz'; papers: mine" in p.stderr
    assert "claims were looked for in: file claims.py" in p.stderr
    assert "entry-point group 'verify.claims'" in p.stderr
    p = _cli("run", "--paper", "zz", cwd=tmp_path, pythonpath=[str(FIX)], patch=FIXTURE_DEFAULTS)
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1
    assert "claims were looked for in: module verify_fixture_claims" in p.stderr


def _shadowing_proofs(root: Path) -> None:
    (root / "proofs").mkdir()
    (root / "proofs" / "__init__.py").write_text(
        "raise ImportError('the user proofs package was imported')\n", encoding="utf-8"
    )


def test_a_local_proofs_folder_does_not_shadow_the_builtin_packages(tmp_path):
    _shadowing_proofs(tmp_path)
    code = ("from verify.discovery import pin_builtins; pin_builtins(); "
            "import proofs, numerics, proofs.sih; print(proofs.__file__); print(numerics.__file__)")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), *sys.path]))
    p = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env,
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert p.stdout.split() == [str(INSTALL_ROOT / "proofs" / "__init__.py"),
                                str(INSTALL_ROOT / "numerics" / "__init__.py")]


@pytest.mark.slow
def test_every_command_works_with_a_local_proofs_folder_on_the_path(tmp_path):
    """``PYTHONPATH=.`` in a folder with a ``proofs/`` of one's own: every command still finds
    the built-in papers (verify.discovery.pin_builtins)."""
    _shadowing_proofs(tmp_path)
    p = _cli("list", "--paper", "sih", "--json", cwd=tmp_path, pythonpath=[str(tmp_path)])
    assert p.returncode == 0, p.stderr
    assert {row["paper"] for row in json.loads(p.stdout)} == {"sih"}


def test_a_builtin_package_shadowed_in_process_is_skipped_not_fatal(tmp_path):
    (tmp_path / "proofs").mkdir()
    (tmp_path / "proofs" / "__init__.py").write_text("MINE = True\n", encoding="utf-8")
    code = textwrap.dedent("""
        import json, sys
        import proofs  # the user's, imported before verify looks
        from verify.registry import REGISTRY, discover
        discover(["proofs", "numerics", "verify_fixture_claims"])
        print(json.dumps({"broken": sorted(REGISTRY.broken), "reason": REGISTRY.broken["proofs"],
                          "fx": "fx.good_first" in REGISTRY}))
    """)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), str(FIX), *sys.path]))
    p = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env,
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["broken"] == ["numerics", "proofs"] and out["fx"]
    assert out["reason"].startswith("built-in package 'proofs' is shadowed")
    assert str(tmp_path / "proofs") in out["reason"]


def _distribution(root: Path, name: str, version: str, entry_points: dict[str, str]) -> None:
    info = root / f"{name}-{version}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n",
                                   encoding="utf-8")
    lines = "".join(f"{k} = {v}\n" for k, v in entry_points.items())
    (info / "entry_points.txt").write_text(f"[verify.claims]\n{lines}", encoding="utf-8")
    (info / "top_level.txt").write_text("\n".join(entry_points.values()) + "\n", encoding="utf-8")


def test_a_broken_entry_point_is_reported_and_skipped(tmp_path):
    _distribution(tmp_path, "theirs", "1.0", {"broken": "theirs_broken", "good": "theirs_good"})
    (tmp_path / "theirs_broken.py").write_text("import verify\n\nX = 1 / 0\n", encoding="utf-8")
    (tmp_path / "theirs_good.py").write_text(CLAIMS_FILE, encoding="utf-8")
    p = _cli("list", "--json", cwd=tmp_path, pythonpath=[str(tmp_path), str(FIX)],
             patch=FIXTURE_DEFAULTS)
    assert p.returncode == 0, p.stderr
    ids = {row["id"] for row in json.loads(p.stdout)}
    assert {"mine.one", "fx.good_first"} <= ids  # the other sources still discovered
    warning = [line for line in p.stderr.splitlines() if "theirs_broken" in line]
    assert len(warning) == 1
    assert "ZeroDivisionError" in warning[0] and "theirs_broken.py:3" in warning[0]


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.email=t@example.org", "-c", "user.name=t", *args],
                   cwd=cwd, check=True, capture_output=True, timeout=30)


def test_provenance_names_the_claims_package_version_and_revision(tmp_path, monkeypatch):
    _distribution(tmp_path, "ownclaims", "0.3", {"own": "ownclaims"})
    (tmp_path / "ownclaims").mkdir()
    (tmp_path / "ownclaims" / "__init__.py").write_text("X = 1\n", encoding="utf-8")
    (tmp_path / "loose.py").write_text("X = 2\n", encoding="utf-8")
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", "ownclaims/__init__.py")
    _git(tmp_path, "commit", "-q", "-m", "claims")
    monkeypatch.syspath_prepend(str(tmp_path))
    import importlib

    importlib.invalidate_caches()
    importlib.import_module("ownclaims")
    try:
        found = provenance.claims_sources(["ownclaims", "file:loose.py", "proofs.gda"])
    finally:
        sys.modules.pop("ownclaims", None)
    own, loose = found  # the built-in package is verify's own: not listed again
    rev = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=tmp_path,
                         capture_output=True, text=True).stdout.strip()
    assert own == {"source": "ownclaims", "distribution": "ownclaims", "version": "0.3",
                   "git_revision": rev}
    # an untracked file has no revision of its own to name
    assert loose == {"source": "file loose.py", "distribution": None, "version": None,
                     "git_revision": None}


def test_file_entry_refuses_what_is_not_a_python_file(tmp_path):
    (tmp_path / "notes.txt").write_text("x", encoding="utf-8")
    with pytest.raises(verify.DiscoveryError, match="must be a Python file"):
        discovery.file_entry("notes.txt")
    with pytest.raises(verify.DiscoveryError, match="no such claims file"):
        discovery.file_entry("missing.py")


def test_claims_in_selects_a_files_claims_only(tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "path", list(sys.path))  # import_file puts the file's folder first
    (tmp_path / "c.py").write_text(CLAIMS_FILE.replace("mine", "minetwo"), encoding="utf-8")
    entry = discovery.file_entry(tmp_path / "c.py")
    try:
        discover([entry])
        assert [c.id for c in REGISTRY.claims_in([entry])] == ["minetwo.one"]
        assert REGISTRY.origin(REGISTRY["minetwo.one"]) == str(tmp_path / "c.py")
    finally:
        REGISTRY.drop(["minetwo.one"])
        REGISTRY.papers.pop("minetwo", None)

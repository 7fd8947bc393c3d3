"""Hypothesis keeps its files in verify's cache during a search, never in a `.hypothesis/` of
the user's working folder, and a user's own hypothesis set-up is restored afterwards."""

from __future__ import annotations

import hypothesis.strategies as st
from hypothesis import configuration

from verify import Verdict
from verify.numeric import falsify, randn
from verify.numeric.storage import hypothesis_files_outside_cwd, hypothesis_home


def gap(*, generator, batch, dtype, device, n):
    x = randn(batch, n, generator=generator, dtype=dtype, device=device)
    return (x - x).abs().amax(dim=-1)


def test_a_search_leaves_no_hypothesis_folder_in_the_working_folder(tmp_path, monkeypatch):
    monkeypatch.delenv("HYPOTHESIS_STORAGE_DIRECTORY", raising=False)
    monkeypatch.setenv("VERIFY_CACHE_DIR", str(tmp_path / "cache"))
    ev = falsify(gap, {"n": st.integers(1, 4)}, budget=5, batch=8, seed=0)
    assert ev.verdict is Verdict.SUPPORTED
    assert not (tmp_path / ".hypothesis").exists()  # tmp_path is the working folder (conftest)
    assert hypothesis_home() == tmp_path / "cache" / "hypothesis"


def test_the_previous_home_is_restored_and_an_explicit_one_is_left_alone(tmp_path,
                                                                          monkeypatch):
    monkeypatch.delenv("HYPOTHESIS_STORAGE_DIRECTORY", raising=False)
    monkeypatch.setenv("VERIFY_CACHE_DIR", str(tmp_path / "cache"))
    configuration.set_hypothesis_home_dir(tmp_path / "mine")
    try:
        with hypothesis_files_outside_cwd():
            assert configuration.storage_directory("x").path == tmp_path / "cache" / \
                "hypothesis" / "x"
        assert configuration.storage_directory("x").path == tmp_path / "mine" / "x"
        monkeypatch.setenv("HYPOTHESIS_STORAGE_DIRECTORY", str(tmp_path / "env"))
        with hypothesis_files_outside_cwd():
            assert configuration.storage_directory("x").path == tmp_path / "mine" / "x"
    finally:
        configuration.set_hypothesis_home_dir(None)

"""Where hypothesis keeps its files while verify searches: never in the user's folder.

The falsifier keeps no example database (``database=None``: every random choice flows from the
run's seed), but hypothesis still caches what it learns from source files (``constants/``)
under its home folder, by default ``.hypothesis/`` in the current working folder: a folder
the user never asked for, beside their claims. During a search the home folder is verify's
cache (``$VERIFY_CACHE_DIR``, else ``$XDG_CACHE_HOME/verify`` or ``~/.cache/verify``, under
``hypothesis/``; the temporary folder when the cache is off), then restored, so a user's own
hypothesis tests in the same process keep theirs. ``HYPOTHESIS_STORAGE_DIRECTORY``, when set,
is left to rule.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path


def hypothesis_home() -> Path:
    """The folder hypothesis writes to during verify's searches."""
    cache = os.environ.get("VERIFY_CACHE_DIR")
    if cache == "off":
        return Path(tempfile.gettempdir()) / f"verify-hypothesis-{os.getuid()}"
    if cache:
        return Path(cache) / "hypothesis"
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "verify" / "hypothesis"


@contextlib.contextmanager
def hypothesis_files_outside_cwd() -> Iterator[None]:
    """Within the block, hypothesis's home folder is :func:`hypothesis_home`."""
    from hypothesis import configuration

    if os.environ.get("HYPOTHESIS_STORAGE_DIRECTORY"):
        yield
        return
    previous = getattr(configuration, "__hypothesis_home_directory", None)
    configuration.set_hypothesis_home_dir(hypothesis_home())
    try:
        yield
    finally:
        configuration.set_hypothesis_home_dir(previous)

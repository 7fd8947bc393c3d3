"""pytest plugin: ``pytest --claims [PATTERN]`` runs registered claims as test items.

Installed with verify (entry point ``verify`` in the group ``pytest11``), it does nothing
unless ``--claims`` is given. Then every claim whose id matches PATTERN (a glob, as
``verify run --claim``; repeatable; no pattern means every claim) becomes one test item,
named by its id, under ``claims/<paper>``::

    pytest --claims 'gda.*'                       # beside the tests pytest collects anyway
    pytest --claims --claims-only -k identity -n 2 --junitxml=claims.xml
    pytest --claims 'mine.*' --claims-from mypaper/claims.py --claims-only

An item fails when the verdict differs from the claim's ``expect=``; a claim without one
fails when it is REFUTED or crashed or timed out (``ClaimResult.error``, as
``verify run --strict`` counts it). The failure message is the evidence in plain text
(:func:`verify.testing.describe`): each piece's verdict and summary, the counterexample and
the command that re-runs the claim. Every item records ``verdict``, ``expect``, ``scope`` /
``severity`` and ``summary`` in ``user_properties`` (``--junitxml`` writes them as
properties) and a "verdict" report section (``-rA`` shows it). ``-k`` also matches the paper
key and the kind (``-k "gda and identity"``); ``-m claim`` selects the claims.

How an item runs, ``--claims-isolation``:

``process`` (default)
    as ``verify run`` runs it: in a fresh fork of a clean template process that imported
    the claims and ran nothing (:mod:`verify.isolation`), within its time budget
    (``--claims-timeout`` overrides it) and the memory limit, with ``PYTHONHASHSEED`` fixed;
    nothing one claim changes in its process reaches the next one or the pytest process. The
    template is started once per session (per pytest-xdist worker) when the first claim
    runs (a few seconds: it imports torch, SymPy and the claims); each claim then costs a
    fork, about 15 ms.
``inline`` (on request only: debugging)
    ``verify.run([id], jobs=0)`` in the pytest process, as any test runs: one claim's
    changes to the process (environment, monkeypatches, torch defaults) reach the claims
    and tests after it, so a verdict may differ from ``verify run``'s; no time budget
    (``pytest-timeout`` is one). The random generators are seeded from the claim's seed and
    restored after it.

By default the verdict is the one ``verify run --claim ID --seed S`` gives. With pytest-xdist
(``-n``) each worker collects the same items and runs its share.
"""

from __future__ import annotations

import os
import random
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

#: Each item's place in the tree: ``claims/<paper>::<claim id>``.
ROOT = "claims"
ISOLATION = ("process", "inline")


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("verify", "verify: registered claims as test items")
    group.addoption(
        "--claims", action="append", nargs="?", const="*", default=None, metavar="PATTERN",
        help="collect the claims whose id matches PATTERN (a glob; repeatable; no PATTERN: "
             "every claim) as test items. Put paths before it: '--claims tests/' reads "
             "'tests/' as the pattern",
    )
    group.addoption("--claims-from", action="append", default=None, metavar="SOURCE",
                    help="a module, package or claims file (*.py) to take the claims from "
                         "instead of the installed papers; repeatable (ini: claims_from)")
    group.addoption("--claims-paper", action="append", default=None, metavar="KEY",
                    help="only the claims of this paper; repeatable")
    group.addoption("--claims-kind", action="append", default=None, metavar="KIND",
                    help="only claims of this kind (identity, property, rate, existence, "
                         "experiment, informal); repeatable")
    group.addoption("--claims-only", action="store_true", default=False,
                    help="collect the claims only, no test files")
    group.addoption("--claims-profile", default="quick", choices=("quick", "deep", "fuzz"),
                    help="the claims' profile (default: quick)")
    group.addoption("--claims-seed", type=int, default=0, metavar="N",
                    help="the run's seed (default 0): every random choice derives from it")
    group.addoption("--claims-device", default=None, choices=("cpu", "cuda"),
                    help="default: cuda when present, else cpu")
    group.addoption("--claims-isolation", default="process", choices=ISOLATION,
                    help="process (default): each claim in a fresh fork of a clean template "
                         "process, with its time budget, as verify run does; inline: in the "
                         "pytest process, without isolation (one claim's state can reach the "
                         "next; for debugging)")
    group.addoption("--claims-timeout", type=float, default=None, metavar="SECONDS",
                    help="seconds per claim (--claims-isolation=process)")
    parser.addini("claims_from", type="linelist", default=[],
                  help="modules, packages or claims files --claims takes the claims from")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "claim: a registered claim collected by --claims")


def _enabled(config: pytest.Config) -> bool:
    return bool(config.getoption("claims", None))


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """With ``--claims-only`` no test file or folder is collected."""
    if _enabled(config) and config.getoption("claims_only"):
        return True
    return None


@pytest.hookimpl(tryfirst=True)  # before -k and -m deselect
def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> None:
    if _enabled(config):
        items.extend(_collect(session, config))


# -- collection -------------------------------------------------------------------------------
def sources(config: pytest.Config) -> list[str] | None:
    """The claims sources (``--claims-from``, else the ``claims_from`` ini), as
    ``verify.run(modules=...)`` takes them; ``None`` for the installed papers."""
    from .discovery import file_entry

    named = list(config.getoption("claims_from") or config.getini("claims_from") or [])
    if not named:
        return None
    out = []
    for s in named:
        looks_like_file = s.endswith(".py") or os.sep in s
        out.append(file_entry(Path(s).resolve()) if looks_like_file else s)
    return out


def _patterns(config: pytest.Config) -> list[str] | None:
    pats = list(config.getoption("claims") or [])
    for p in pats:
        if os.sep in p or p.endswith(".py"):
            raise pytest.UsageError(
                f"--claims takes a glob over claim ids, got the path {p!r}: write the paths "
                "before --claims, or --claims='*'"
            )
    return None if "*" in pats else pats


def _collect(session: pytest.Session, config: pytest.Config) -> list[pytest.Item]:
    from .discovery import discover, discover_selected
    from .errors import VerifyError
    from .registry import KINDS, REGISTRY

    modules = sources(config)
    config._verify_template_modules = modules  # type: ignore[attr-defined]
    kinds = list(config.getoption("claims_kind") or [])
    for k in kinds:
        if k not in KINDS:
            raise pytest.UsageError(f"--claims-kind {k!r}: expected one of {', '.join(KINDS)}")
    try:
        discover(modules)
        if modules is not None:
            named = {c.id for c in REGISTRY.claims_in(modules)}
            chosen = [c for c in REGISTRY.select(_patterns(config),
                                                 config.getoption("claims_paper"))
                      if c.id in named]
        else:
            config._verify_template_modules = discover_selected(  # type: ignore[attr-defined]
                _patterns(config), config.getoption("claims_paper"))
            chosen = REGISTRY.select(_patterns(config), config.getoption("claims_paper"))
    except VerifyError as e:
        raise pytest.UsageError(f"--claims: {e}") from None
    chosen = [c for c in chosen if not kinds or c.kind in kinds]
    root = ClaimsRoot.from_parent(session, name=ROOT, nodeid=ROOT)
    papers: dict[str, PaperClaims] = {}
    items: list[pytest.Item] = []
    for c in chosen:
        if c.paper not in papers:
            papers[c.paper] = PaperClaims.from_parent(root, name=c.paper,
                                                      nodeid=f"{ROOT}/{c.paper}")
        item = ClaimItem.from_parent(papers[c.paper], name=c.id, claim_id=c.id,
                                     nodeid=f"{ROOT}/{c.paper}::{c.id}")
        item.add_marker("claim")
        item.extra_keyword_matches.update({c.paper, c.kind})
        item.check_file, item.check_line = _location(c)
        items.append(item)
    for node in papers.values():  # counted in "collected N items" like collected tests
        rep = pytest.CollectReport(node.nodeid, "passed", None,
                                   [i for i in items if i.parent is node])
        config.hook.pytest_collectreport(report=rep)
    return items


def _location(c: Any) -> tuple[str | None, int | None]:
    """File and 0-based line of the claim's first check (for pytest's report location)."""
    import inspect

    for fn in c.checks:
        try:
            target = inspect.unwrap(fn)
            return inspect.getsourcefile(target), inspect.getsourcelines(target)[1] - 1
        except (OSError, TypeError):
            continue
    return None, None


class ClaimsRoot(pytest.Collector):
    """``claims``: the parent of every paper's claims (collected in the plugin's hook)."""

    def collect(self) -> list[Any]:  # pragma: no cover - never collected by pytest itself
        return []


class PaperClaims(pytest.Collector):
    """``claims/<paper>``: one paper's claims."""

    def collect(self) -> list[Any]:  # pragma: no cover - never collected by pytest itself
        return []


# -- running ----------------------------------------------------------------------------------
class ClaimFailed(Exception):
    """The claim's verdict is not what the item expects; the message holds the evidence."""


class ClaimItem(pytest.Item):
    """One registered claim as a test item."""

    def __init__(self, *, claim_id: str, **kw: Any) -> None:
        super().__init__(**kw)
        self.claim_id = claim_id
        self.check_file: str | None = None
        self.check_line: int | None = None
        self.result: Any = None

    def runtest(self) -> None:
        from .testing import describe

        r = self.result = run_claim(self.config, self.claim_id)
        expect = r.expect.value if r.expect is not None else None
        self.user_properties.extend([("verdict", r.verdict.value), ("expect", expect or "-")])
        for name in ("scope", "severity"):
            if getattr(r, name, None):
                self.user_properties.append((name, getattr(r, name)))
        self.user_properties.append(("summary", r.summary))
        self.add_report_section("call", "verdict", f"{r.verdict.value}: {r.summary}")
        why = failure(r)
        if why is not None:
            raise ClaimFailed(f"{why}\n{describe(r)}")

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, ClaimFailed):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self) -> tuple[Any, int | None, str]:
        return (self.check_file or self.path), self.check_line, f"claim {self.claim_id}"


def failure(r: Any) -> str | None:
    """Why the result ``r`` fails its item, or ``None`` when it passes: a verdict other than
    its ``expect``; without one, REFUTED, or a crash or timeout."""
    from .verdict import Verdict

    if r.verdict is Verdict.ERROR:
        return f"{r.id}: ERROR: the claim's code crashed: {r.error}"
    head = f"{r.id}: verdict {r.verdict.value}"
    if r.expect is not None:
        return None if r.verdict is r.expect else f"{head}, expected {r.expect.value}"
    if r.verdict is Verdict.REFUTED:
        return f"{head} (the claim has no expect=)"
    if r.crashed:
        return f"{head}: the claim crashed or timed out ({r.error})"
    return None


def run_claim(config: pytest.Config, claim_id: str) -> Any:
    """The claim's result, run as ``--claims-isolation`` says (see the module docstring)."""
    if config.getoption("claims_isolation") == "inline":
        return _run_inline(config, claim_id)
    return _run_isolated(config, claim_id)


def _run_inline(config: pytest.Config, claim_id: str) -> Any:
    from .runner import run

    with tempfile.TemporaryDirectory(prefix="verify-pytest-") as tmp, _kept_random_state(True):
        results = run(
            [claim_id], profile=config.getoption("claims_profile"),
            device=config.getoption("claims_device"), seed=config.getoption("claims_seed"),
            jobs=0, timeout=config.getoption("claims_timeout"),
            results_path=Path(tmp) / "results.jsonl", modules=sources(config),
        )
    return results[claim_id]


def _run_isolated(config: pytest.Config, claim_id: str) -> Any:
    """Run the claim in a fresh fork of the session's template, as ``verify run`` does."""
    from .context import PROFILES, Context
    from .devices import resolve_device
    from .errors import ResultsFileError, UsageError
    from .execute import failed
    from .pool import Task
    from .registry import REGISTRY
    from .results import ClaimResult, storable
    from .runner import _check_timeout

    profile = config.getoption("claims_profile")
    device = resolve_device(config.getoption("claims_device"))
    try:
        timeout = _check_timeout(config.getoption("claims_timeout"))
    except UsageError as e:
        raise pytest.UsageError(f"--claims-timeout: {e}") from None
    c = REGISTRY[claim_id]
    budget = timeout or c.timeout_for(profile) or PROFILES[profile]["timeout"]
    ctx = Context(claim_id=c.id, run_seed=config.getoption("claims_seed"), profile=profile,
                  device=device, budget_s=budget, source=REGISTRY.origin(c))
    outcome = _resident(config, device).run(Task(c.id, ctx))
    if outcome.record is not None:
        try:
            return storable(ClaimResult.from_dict(outcome.record))
        except ResultsFileError as e:
            return failed(c, ctx, f"result could not be saved: {e}", outcome.elapsed_s)
    return storable(failed(c, ctx, outcome.failure or "unknown failure", outcome.elapsed_s,
                           outcome.output))


def _resident(config: pytest.Config, device: str) -> Any:
    """The session's template (started by the first claim): as a ``verify run --jobs 1``
    slot, with this worker's share of the cores under pytest-xdist."""
    resident = getattr(config, "_verify_resident", None)
    if resident is None:
        from .pool import Resident, default_memory_gib
        from .registry import REGISTRY

        workers = max(1, int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1") or 1))
        threads = max(1, (os.cpu_count() or 1) // workers)
        modules = getattr(config, "_verify_template_modules", None)
        if modules is not None:
            modules = [m for m in modules if m not in REGISTRY.broken]
        mem = default_memory_gib(workers) if device == "cpu" else None
        resident = config._verify_resident = Resident(modules, threads, mem)  # type: ignore[attr-defined]
    return resident


def pytest_unconfigure(config: pytest.Config) -> None:
    """Stop the session's template (and with it any claim still running)."""
    resident = getattr(config, "_verify_resident", None)
    if resident is not None:
        resident.close()
        config._verify_resident = None  # type: ignore[attr-defined]


@contextmanager
def _kept_random_state(active: bool) -> Iterator[None]:
    """Restore the global generators (``random``, NumPy's, torch's) that an in-process claim
    reseeds, so that the tests after it draw what they would have drawn."""
    if not active:
        yield
        return
    import sys

    state: dict[str, Any] = {"random": random.getstate()}
    np = sys.modules.get("numpy")
    if np is not None:
        state["numpy"] = np.random.get_state()
    torch = sys.modules.get("torch")
    if torch is not None:
        state["torch"] = torch.get_rng_state()
    try:
        yield
    finally:
        random.setstate(state["random"])
        if "numpy" in state:
            sys.modules["numpy"].random.set_state(state["numpy"])
        if "torch" in state:
            sys.modules["torch"].set_rng_state(state["torch"])

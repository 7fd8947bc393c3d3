"""The ``verify`` command line: list, run, show, report, fuzz, diff.

Exit status of ``run`` (docs/guide.md): 0 when every verdict matches its ``expect``
(or no claim has one), 1 when some verdict differs (or, with ``--strict``, some claim timed
out or its process was killed), 2 on usage errors, 3 when some claim's code crashed (status
ERROR: a bug in the claim, whatever else happened); of ``diff``: 0 when
no verdict changed, 1 when some did, 2 on bad input; 141 when stdout is a pipe closed early
(``verify list | head``), without a traceback. Errors in the user's arguments are one
clear line on stderr, never a traceback, and are found before any results file is touched.
Every field printed has its control characters escaped (:mod:`verify.printable`).

``list``, ``run``, ``fuzz`` and ``show`` take claims files (``verify run path/to/claims.py``)
and ``--module pkg.mod``: the claims are then imported from there, without installing
anything, instead of from the installed papers.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from . import __version__
from .errors import UsageError, VerifyError
from .printable import json_printable, printable
from .verdict import Verdict

USAGE_ERROR = 2

STYLE = {
    Verdict.PROVED: "bold green",
    Verdict.CERTIFIED: "bold green",
    Verdict.SUPPORTED: "green",
    Verdict.REFUTED: "bold red",
    Verdict.REPRODUCED: "cyan",
    Verdict.NOT_REPRODUCED: "bold magenta",
    Verdict.UNDECIDED: "yellow",
    Verdict.ERROR: "bold white on red",
}

#: ``verify run --help``: what its exit status means.
RUN_EXIT_CODES = (
    "exit status: 0 every verdict matches its expect= (or none has one); 1 some verdict "
    "differs from its expect= (with --strict also: some claim timed out or its process was "
    "killed, UNDECIDED with the reason); 2 usage error; 3 some claim's code crashed (status "
    "ERROR: a check raised or returned no evidence; a bug in the claim, not a verdict; "
    "verify show ID shows where)."
)


class _Parser(argparse.ArgumentParser):
    """argparse that reports a usage error as one line and exit status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        sys.stderr.write(f"verify: error: {message}\n")
        raise SystemExit(USAGE_ERROR)


def _parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="verify",
        description=(
            "Check the claims of ML-theory papers: proved, certified, supported, refuted, "
            "reproduced."
        ),
    )
    p.add_argument("--version", action="version", version=f"verify {__version__}")
    p.add_argument("-v", "--verbose", action="store_true", help="log debug messages")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    def sources(sp: argparse.ArgumentParser) -> None:
        sp.add_argument(
            "--module",
            action="append",
            metavar="MOD",
            help="import claims from this module or package instead of the "
            "installed papers; repeatable",
        )

    def selection(sp: argparse.ArgumentParser) -> None:
        sp.add_argument(
            "files",
            nargs="*",
            metavar="FILE",
            help="claims files (path/to/claims.py) to use instead of the installed papers",
        )
        sources(sp)
        sp.add_argument("--paper", action="append", help="paper key (nfa, gda, ...); repeatable")
        sp.add_argument(
            "--claim", action="append", help="claim id or glob ('nfa.ag.*'); repeatable"
        )

    ls = sub.add_parser("list", help="list the registered claims")
    selection(ls)
    ls.add_argument(
        "--json", action="store_true",
        help="print a JSON array of {id, paper, where, kind, expect, quantifier, code}",
    )

    def running(sp: argparse.ArgumentParser) -> None:
        selection(sp)
        sp.add_argument(
            "--device", choices=["cpu", "cuda"], help="default: cuda when present, else cpu"
        )
        sp.add_argument(
            "--jobs",
            type=int,
            help="worker processes (default: the number of cores, at most 8; more than the "
            "machine holds are capped, with a note). --jobs 0 runs the claims in this process, "
            "one by one, for debugging (breakpoint() works): the same time budget and the "
            "claim's child processes killed when it ends, but no isolation between claims and "
            "no memory limit",
        )
        sp.add_argument("--seed", type=int, default=0, help="the run's seed (default 0)")
        sp.add_argument(
            "--timeout",
            type=float,
            help="seconds per claim, overriding the profile's budget (at most 7 days)",
        )
        sp.add_argument(
            "--memory-gib",
            type=_positive_gib,
            metavar="GIB",
            help="memory limit of each claim: of all its processes together (their PSS), "
            "and of each one's address space; over it the claim is killed, UNDECIDED "
            "(default on CPU: 80%% of the machine's memory divided by --jobs, at least 2; "
            "none on CUDA)",
        )
        sp.add_argument(
            "--max-processes",
            type=int,
            metavar="N",
            help="most processes a claim's tree may hold at once; over it the claim is "
            "killed, UNDECIDED (default 512)",
        )
        sp.add_argument(
            "--max-file-gib",
            type=_positive_gib,
            metavar="GIB",
            help="largest file a claim process may write, its stdout and stderr included; "
            "over it the process is killed, UNDECIDED (default 4)",
        )
        sp.add_argument(
            "--json",
            metavar="FILE",
            default="results.jsonl",
            help="JSON-lines results file (default: results.jsonl)",
        )
        sp.add_argument(
            "--resume", action="store_true", help="skip claims already in the results file"
        )
        sp.add_argument(
            "--quiet", action="store_true", help="no progress bar, only the final table"
        )
        sp.add_argument("--report", metavar="DIR", help="then write the LaTeX/PDF report into DIR")
        sp.add_argument(
            "--strict",
            action="store_true",
            help="exit 1 also when a claim crashed or timed out (a check raised, "
            "its process died, or it ran past its budget), even without an "
            "expect=",
        )
        cache = sp.add_mutually_exclusive_group()
        cache.add_argument(
            "--cache-dir",
            metavar="DIR",
            help="where trained models shared between claims are kept (default: "
            "$VERIFY_CACHE_DIR, else ~/.cache/verify)",
        )
        cache.add_argument(
            "--no-cache",
            action="store_true",
            help="recompute every trained model (no disk cache, no checkpoints)",
        )
        sp.add_argument(
            "--scheduler",
            metavar="ADDR",
            help="run the claims on a Dask cluster: a scheduler address "
            "(tcp://host:8786), or 'local' for a LocalCluster of --jobs "
            "workers (needs pip install 'verify[dask]')",
        )

    rn = sub.add_parser("run", help="run claims and print a verdict table",
                        epilog=RUN_EXIT_CODES)
    running(rn)
    rn.add_argument("--profile", choices=["quick", "deep"], default="quick")

    fz = sub.add_parser("fuzz", help="search longer for counterexamples (the 'fuzz' profile)",
                        epilog=RUN_EXIT_CODES)
    running(fz)
    fz.add_argument(
        "--examples",
        type=int,
        metavar="N",
        help="every falsifier search of a claim runs N examples in all",
    )
    fz.add_argument(
        "--shards",
        type=int,
        metavar="K",
        help="split each claim's searches into K runs with derived seeds, merged "
        "(default: the cluster's worker threads with --scheduler, else 1)",
    )

    sh = sub.add_parser("show", help="print the evidence of one claim in full")
    sh.add_argument("id", help="claim id")
    sh.add_argument(
        "--from",
        dest="source",
        default="results.jsonl",
        help="results file to read (default: results.jsonl); the claim is run if absent",
    )
    sh.add_argument("--seed", type=int, default=0)
    sh.add_argument("--profile", choices=["quick", "deep"], default="quick")
    sh.add_argument(
        "--rerun", action="store_true", help="run the claim again instead of reading it"
    )
    sh.add_argument(
        "--where",
        action="store_true",
        help="print only file:line of each of the claim's checks (for editors)",
    )
    sh.add_argument(
        "--file",
        action="append",
        dest="files",
        default=[],
        metavar="FILE",
        help="claims file the claim is in (when it is run); repeatable",
    )
    sources(sh)

    rp = sub.add_parser("report", help="write the LaTeX/PDF report from saved results")
    rp.add_argument(
        "--from",
        dest="source",
        action="append",
        metavar="RESULTS",
        help="results file, or a folder of *.jsonl files; repeatable: per claim the "
        "strongest profile wins (deep over quick; the later file between "
        "equals). Default: results.jsonl",
    )
    rp.add_argument(
        "--out",
        required=True,
        metavar="DIR",
        help="folder to write the report into (required: nothing is written to a default place)",
    )
    rp.add_argument("--paper", action="append", help="only these papers; repeatable")
    rp.add_argument("--no-pdf", action="store_true", help="write .tex only")

    df = sub.add_parser("diff", help="the verdicts that changed between two results files")
    df.add_argument("old", help="results file of the earlier run")
    df.add_argument("new", help="results file of the later run")
    df.add_argument(
        "--json",
        action="store_true",
        help="print a JSON array of {id, change, old, new, old_readings, new_readings}",
    )
    return p


def main(argv: Sequence[str] | None = None) -> int:
    try:
        status = _main(argv)
        sys.stdout.flush()
        return status
    except BrokenPipeError:  # `verify list | head`: the reader has gone, nothing to say
        _silence_stdout()
        return BROKEN_PIPE


#: Exit status when stdout is a pipe its reader closed (128 + SIGPIPE, as a shell reports it).
BROKEN_PIPE = 141


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so that flushing it at exit raises nothing more."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # no real stdout (a test's capture)
        pass


def _main(argv: Sequence[str] | None) -> int:
    args = _parser().parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.WARNING,
        format="%(levelname)s %(name)s: %(message)s",
    )
    try:
        _check_arguments(args)
        if args.command == "list":
            return _cmd_list(args)
        if args.command in ("run", "fuzz"):
            return _cmd_run(args)
        if args.command == "show":
            return _cmd_show(args)
        if args.command == "report":
            return _cmd_report(args)
        if args.command == "diff":
            return _cmd_diff(args)
    except VerifyError as e:
        sys.stderr.write(f"verify: error: {printable(e)}\n")
        return USAGE_ERROR
    except OSError as e:  # a file or folder the user named: unreadable, unwritable, full...
        if isinstance(e, BrokenPipeError):
            raise
        sys.stderr.write(f"verify: error: {printable(e)}\n")
        return USAGE_ERROR
    except KeyboardInterrupt:
        sys.stderr.write("verify: interrupted; finished claims are saved (use --resume)\n")
        return 130
    return USAGE_ERROR  # pragma: no cover - argparse requires a command


def _check_arguments(args: argparse.Namespace) -> None:
    """The checks argparse's types cannot make: empty names, counts below 1, negative jobs.
    Made before anything is imported, run or written."""
    for flag, name in (("--paper", "paper"), ("--claim", "claim"), ("--module", "module"),
                       ("a claims file name", "files")):
        values = getattr(args, name, None) or []
        if any(not str(v).strip() for v in values):
            raise UsageError(f"{flag} is empty; give a {flag.lstrip('-')} name"
                             if flag.startswith("--") else f"{flag} is empty")
    for flag, name in (("--from", "source"), ("--out", "out"), ("--report", "report"),
                       ("--cache-dir", "cache_dir")):  # --json '': verify.run says so
        value = getattr(args, name, None)
        values = value if isinstance(value, list) else [value]
        if any(isinstance(v, str) and not v.strip() for v in values):
            raise UsageError(f"{flag} is empty; give a file or folder name")
    jobs = getattr(args, "jobs", None)
    if jobs is not None and jobs < 0:
        raise UsageError(f"--jobs must be an integer >= 0 (0: in this process, for "
                         f"debugging), got {jobs}")
    for flag, name in (("--shards", "shards"), ("--examples", "examples")):
        value = getattr(args, name, None)
        if value is not None and value < 1:
            raise UsageError(f"{flag} must be an integer >= 1, got {value}")


# -- where claims come from ------------------------------------------------------------------
def _modules(args: argparse.Namespace) -> list[str] | None:
    """The claims sources the user named (files, ``--module``), or ``None`` for the default
    ones (the installed papers and the entry-point group ``verify.claims``)."""
    from .discovery import file_entry

    files = list(getattr(args, "files", None) or [])
    modules = list(getattr(args, "module", None) or [])
    if not files and not modules:
        return None
    return [file_entry(f) for f in files] + modules


def _select(args: argparse.Namespace, modules: list[str] | None) -> list[str] | None:
    """The claim patterns to run: ``--claim``, else every claim of the named files/modules."""
    if args.claim or args.paper or modules is None:
        return args.claim
    from .errors import UsageError
    from .registry import REGISTRY

    ids = [c.id for c in REGISTRY.claims_in(modules)]
    if not ids:
        named = ", ".join(m.removeprefix("file:") for m in modules)
        raise UsageError(f"no claims registered by {named}")
    return ids


# -- list -----------------------------------------------------------------------------------------
def _cmd_list(args: argparse.Namespace) -> int:
    from .discovery import discover, discover_selected
    from .registry import REGISTRY

    modules = _modules(args)
    if modules is None:  # the installed papers: import only the modules that can hold them
        discover_selected(args.claim, args.paper)
    else:
        discover(modules)
    claims = REGISTRY.select(_select(args, modules), args.paper)
    if args.json:  # JSON escapes every control character (ensure_ascii)
        print(json.dumps([c.to_dict() for c in claims], indent=1))
        return 0
    from rich.table import Table

    table = Table(title=_count(len(claims), "claim"), show_lines=False)
    for col in ("id", "paper", "kind", "where", "expect"):
        table.add_column(col, overflow="fold")
    for c in claims:
        exp = c.expect.value if c.expect else "-"
        table.add_row(
            _cell(c.id), _cell(c.paper), _cell(c.kind), _cell(c.where),
            f"[{STYLE[c.expect]}]{exp}[/]" if c.expect else exp,
        )
    _console().print(table)
    return 0


# -- run --------------------------------------------------------------------------------------
def _cmd_run(args: argparse.Namespace) -> int:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from .runner import run

    console = _console()
    profile = getattr(args, "profile", None) or "fuzz"
    progress = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        disable=args.quiet or not console.is_terminal,
    )
    state: dict = {}

    def on_start(todo: list) -> None:
        state["task"] = progress.add_task(f"{profile} run", total=len(todo))
        progress.start()

    def on_result(r) -> None:
        progress.advance(state["task"])
        if not args.quiet:
            mark = " [red](expected " + r.expect.value + ")[/]" if r.drift else ""
            progress.console.print(
                f"[{STYLE[r.verdict]}]{r.verdict.value:<15}[/] {_cell(r.id)} "
                f"[dim]{r.elapsed_s:.1f}s[/]{mark}",
                highlight=False,
            )

    from .discovery import discover

    if args.command == "fuzz":  # `verify fuzz ID ...`: what is not a claims file is an id
        ids = [f for f in args.files if not f.endswith(".py")]
        args.files = [f for f in args.files if f.endswith(".py")]
        args.claim = (args.claim or []) + ids or None
    modules = _modules(args)
    if modules is not None:
        discover(modules)  # to know which claims the named files and modules hold
    if args.scheduler is not None:  # before anything else reaches for it
        from .runner import check_scheduler

        check_scheduler(args.scheduler)
    if args.jobs:
        args.jobs = _capped_jobs(args.jobs)
    split = _fuzz_split(args)
    if args.no_cache or args.cache_dir:  # read by verify.memo in every claim's process
        os.environ["VERIFY_CACHE_DIR"] = "off" if args.no_cache else args.cache_dir
    _limits_to_environment(args)  # read by verify.isolation in every template
    try:
        results = run(
            _select(args, modules),
            paper=args.paper,
            profile=profile,
            device=args.device,
            jobs=args.jobs,
            seed=args.seed,
            timeout=args.timeout,
            results_path=args.json,
            resume=args.resume,
            modules=modules,
            on_start=on_start,
            on_result=on_result,
            scheduler=args.scheduler,
            memory_gib=args.memory_gib,
            **split,
        )
    finally:
        progress.stop()
    console.print(results_table(results))
    from .headline import counts as headline_counts

    counts = ", ".join(f"{n} {text}" for text, n in headline_counts(results))
    console.print(f"{_count(len(results), 'claim')}: {counts or 'none'}. "
                  f"Results in [bold]{_cell(args.json)}[/]. These are this {profile} run's "
                  "counts alone; verify report, merging runs, counts each claim from its "
                  "strongest run and says which.")
    if results.drifted:
        n = len(results.drifted)
        console.print(
            f"[red]{_count(n, 'verdict')} {'differs from its' if n == 1 else 'differ from their'}"
            " expect=:[/] " + ", ".join(_cell(r.id) for r in results.drifted)
        )
    if results.errored:
        src = "" if args.json == "results.jsonl" else f" --from {args.json}"
        n = len(results.errored)
        console.print(
            f"[red]{_count(n, 'claim')} errored (their code crashed: a bug in the "
            "claim, not a verdict); see: [/]"
            + ", ".join(f"verify show {r.id}{src}" for r in results.errored)
        )
    if args.strict and results.crashed:
        n = len(results.crashed)
        console.print(
            f"[red]{_count(n, 'claim')} crashed or timed out (--strict):[/] "
            + ", ".join(_cell(r.id) for r in results.crashed)
        )
    status = results.strict_exit_code if args.strict else results.exit_code
    if args.report:
        report_status = _build_report([args.json], args.report, args.paper, pdf=True)
        status = status or report_status
    return status


def _limits_to_environment(args: argparse.Namespace) -> None:
    """``--max-processes`` and ``--max-file-gib`` as the environment the templates start with
    (``VERIFY_MAX_PROCESSES``, ``VERIFY_MAX_FILE_GIB``; :mod:`verify.isolation`)."""
    from .errors import UsageError

    if args.max_processes is not None:
        if args.max_processes < 1:
            raise UsageError(f"--max-processes must be >= 1, got {args.max_processes}")
        os.environ["VERIFY_MAX_PROCESSES"] = str(args.max_processes)
    if args.max_file_gib is not None:
        os.environ["VERIFY_MAX_FILE_GIB"] = repr(args.max_file_gib)


def _positive_gib(text: str) -> float:
    """``--memory-gib``: a positive, finite number of GiB."""
    import math

    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"expected a positive number of GiB, got {text!r}")
    return value
def _capped_jobs(jobs: int) -> int:
    """``jobs``, or the most this machine holds (:func:`verify.pool.max_jobs`), saying so."""
    from .pool import WORKER_GIB, max_jobs

    cap = max_jobs()
    if jobs <= cap:
        return jobs
    sys.stderr.write(
        f"verify: --jobs {jobs} capped to {cap}: what this machine holds "
        f"({os.cpu_count() or 1} cores, about {WORKER_GIB:g} GiB of memory per worker)\n"
    )
    return cap


def _fuzz_split(args: argparse.Namespace) -> dict:
    """``shards`` and ``examples`` of a ``verify fuzz`` run (none for ``verify run``)."""
    if args.command != "fuzz":
        return {}
    shards = args.shards
    if shards is None and args.scheduler:
        from .dask_runner import cluster_threads
        from .pool import default_jobs

        shards = cluster_threads(args.scheduler, args.jobs or default_jobs())
    return {"shards": shards or 1, "examples": args.examples}


def results_table(results) -> object:
    """The final verdict table (rich)."""
    from rich.table import Table

    table = Table(show_lines=False)
    table.add_column("claim", overflow="fold", no_wrap=True)
    table.add_column("kind")
    table.add_column("verdict")
    table.add_column("expect")
    table.add_column("time", justify="right")
    table.add_column("summary", overflow="fold", max_width=70)
    from .headline import headline, readings_line

    for r in results:
        exp = "-" if r.expect is None else ("[red]" + r.expect.value + "[/]" if r.drift else "ok")
        summary = _cell(_short(r.summary, 140), one_line=False)
        if r.readings:
            summary += "\n[dim]" + _cell(readings_line(r)) + "[/]"
        table.add_row(
            _cell(r.id),
            _cell(r.kind),
            f"[{STYLE[r.verdict]}]{headline(r)}[/]",
            exp,
            f"{r.elapsed_s:.1f}s",
            summary,
        )
    return table


def _cell(text: object, *, one_line: bool = True) -> str:
    """``text`` for rich markup: control characters escaped (:func:`printable`), and
    brackets that rich would read as markup escaped too."""
    from rich.markup import escape

    return escape(printable(text, one_line=one_line))


def _short(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


# -- show -------------------------------------------------------------------------------------
def _cmd_show(args: argparse.Namespace) -> int:
    from .results import load

    modules = _modules(args)
    if args.where:
        return _cmd_where(args.id, modules)
    result = None
    saved: list[str] = []  # the ids in the results file, for a typo's closest ids
    src = Path(args.source)
    if args.rerun:
        why = "--rerun given"
    elif not src.exists():
        why = f"{args.source} does not exist"
    else:
        results = load(src)
        saved = [r.id for r in results]
        if args.id in results:
            result = results[args.id]
        why = f"{args.id} is not in {args.source}"
    if result is None:
        import tempfile

        from .discovery import discover, discover_selected
        from .registry import REGISTRY
        from .runner import run

        if modules is None:  # the installed papers: the claim index answers when it is fresh
            discover_selected()
        else:
            discover(modules)
        from .suggest import unknown_claim

        if args.id not in REGISTRY:  # an unknown id fails here, before any announcement
            raise unknown_claim(args.id, [*saved, *(c.id for c in REGISTRY)],
                                f"{REGISTRY.where_searched()}; nor is it in {args.source}")
        # Said before the run starts: what follows was computed now, not read from the file.
        sys.stderr.write(printable(
            f"verify: {why}: running {args.id} now (seed {args.seed}, profile "
            f"{args.profile}); nothing is saved"
        ) + "\n")
        with tempfile.TemporaryDirectory(prefix="verify-show-") as tmp:  # not the user's cwd
            path = Path(tmp) / "results.jsonl"
            result = run(
                [args.id],
                profile=args.profile,
                seed=args.seed,
                results_path=path,
                jobs=1,
                modules=modules,
            )[args.id]
    _console().print(render_result(result))
    return 0


def _cmd_where(claim_id: str, modules: list[str] | None = None) -> int:
    """``file:line`` of each check of a claim, one per line, without running anything."""
    from .discovery import discover
    from .registry import REGISTRY

    discover(modules)
    for loc in REGISTRY[claim_id].code:
        print(printable(loc, one_line=True))
    return 0


def render_result(r) -> object:
    """Everything known about one claim's result, for the terminal (every field read from
    the result has its control characters escaped: it may come from any results file)."""
    from rich.console import Group
    from rich.panel import Panel
    from rich.text import Text

    from .headline import headline, reading_label, readings_line

    p = printable
    head = Text()
    head.append(p(r.id, one_line=True), style="bold")
    head.append(f"  ({p(r.paper)}, {p(r.where)}, {p(r.kind)})\n")
    if r.verdict is Verdict.ERROR:
        head.append("status: ")
        head.append("ERROR", style=STYLE[r.verdict])
        head.append(" (the claim's code crashed: no verdict)")
    else:
        head.append("verdict: ")
        head.append(p(headline(r)), style=STYLE.get(r.verdict, ""))
    if r.expect is not None:
        head.append(
            f"   expect: {r.expect.value}" + ("  DRIFT" if r.drift else ""),
            style="red" if r.drift else "dim",
        )
    if r.quantifier == "exists":
        head.append("   existential: holds by a witness, refuted only by a proof that none exists",
                    style="dim")
    head.append(f"\n{p(r.summary)}\n")
    if r.readings:
        head.append(f"readings: {p(readings_line(r))}\n")
    if r.headline_reading != "A":
        head.append(f"heads: reading {p(r.headline_reading)}: {p(r.headline_reason)}\n")
    for e in r.errata:
        head.append(f"erratum (reading {p(str(e.get('reading')))}): {p(str(e.get('what')))}\n")
    if r.repaired_by:
        repaired = r.reading_statements.get(r.repaired_by, "")
        role = r.severity or "erratum"
        head.append(f"repaired statement (reading {p(r.repaired_by)}, {role}): {p(repaired)}\n")
    if r.severity_clause:
        head.append(f"severity: {p(r.severity_clause)}\n")
    if r.undecided_reason:
        head.append(f"undecided: {r.undecided_reason}: {p(r.undecided_detail or '')}\n")
    for loc in r.code:
        head.append(f"check: {p(loc)}\n", style="dim")
    head.append(
        f"seed {r.run_seed} (claim seed {r.seed}), profile {p(r.profile)}, device "
        f"{p(r.device)}, {r.elapsed_s:.2f} s\nre-run: {p(r.rerun)}\n",
        style="dim",
    )
    head.append("\nStatement (as printed): ", style="bold")
    head.append(p(r.statement) + "\n")
    for label, st in r.reading_statements.items():
        rv = r.readings.get(label, {})
        head.append(f"Reading {p(label, one_line=True)}: ", style="bold")
        verdict = reading_label(rv) if rv else "no evidence"
        head.append(f"{p(st)}\n  -> {p(verdict)}: {p(rv.get('summary', ''))}\n")
    panels = [head]
    for i, e in enumerate(r.evidence, 1):
        t = Text()
        t.append(f"[{i}] ")
        t.append(e.verdict.value, style=STYLE.get(e.verdict, ""))
        t.append(f"  {p(e.method)}, reading {p(e.reading)}, part {p(e.part)}\n")
        t.append(p(e.summary) + "\n")
        if e.audit:
            t.append(f"audit: {p(e.audit)}\n", style="red")
        if e.generality:
            scope = f" (scope: {p(e.scope)})" if e.scope else ""
            t.append(f"generality: {p(e.generality)}{scope}\n")
        meta = ", ".join(
            f"{k} {p(v)}"
            for k, v in (("dtype", e.dtype), ("device", e.device), ("seed", e.seed))
            if v is not None
        )
        if meta:
            t.append(meta + "\n", style="dim")
        if e.witness:
            t.append("witness:\n", style="bold green")
            t.append(json.dumps(e.witness, indent=2, default=str) + "\n")
        if e.counterexample:  # JSON escapes every control character (ensure_ascii)
            what = "no witness exists:" if e.nonexistence else "counterexample:"
            t.append(what + "\n", style="bold red")
            t.append(json.dumps(e.counterexample, indent=2, default=str) + "\n")
        if e.numbers:
            t.append("numbers: " + json.dumps(e.numbers, default=str) + "\n")
        for step in e.steps:
            t.append("  " + p(step) + "\n", style="dim")
        if e.rerun:
            t.append(f"re-run: {p(e.rerun)}\n", style="dim")
        panels.append(Panel(t, expand=True))
    return Group(*panels)


# -- report -----------------------------------------------------------------------------------
def _cmd_report(args: argparse.Namespace) -> int:
    return _build_report(
        args.source or ["results.jsonl"], args.out, args.paper, pdf=not args.no_pdf
    )


def _build_report(sources: list[str], out_dir: str, papers: list[str] | None, *, pdf: bool) -> int:
    from . import report

    out = report.build(sources, out_dir, papers=papers, compile=pdf)
    console = _console()
    for p in out.tex:
        console.print(f"wrote {_cell(p)}")
    for p in out.pdf:
        console.print(f"built {_cell(p)}")
    if out.results:  # the report's counts, and what they are of (a merge differs from a run)
        from collections import Counter

        from .headline import category

        tally = Counter(category(r) for r in out.results)
        console.print(f"report counts, {_cell(out.merged)}: "
                      + ", ".join(f"{_cell(k)} {n}" for k, n in sorted(tally.items())))
    for warning in out.warnings:
        console.print(f"[yellow]warning:[/] {_cell(warning, one_line=False)}")
    # A TeX error traced to one claim is recovered by showing that claim's math as text: the
    # document is complete, so it is reported (the claim's LaTeX needs fixing) but not fatal.
    # An error no claim explains, or a document without its PDF, fails the command.
    pdf_stems = {p.stem for p in out.pdf}
    missing = [p for p in out.tex if out.compiled and p.stem not in pdf_stems]
    fatal = [e for e in out.errors if e.claim is None or Path(e.document).stem not in pdf_stems]
    for err in out.errors:  # TeX log excerpts contain [...]: never read them as markup
        label = "[red]error:[/]" if err in fatal else "[yellow]recovered (math shown as text):[/]"
        console.print(f"{label} {_cell(err, one_line=False)}")
    for p in missing:
        console.print(f"[red]error:[/] no PDF was built for {_cell(p)}")
    if pdf and not out.compiled:  # with --no-pdf, .tex only is what was asked
        console.print("[yellow]no TeX engine found: wrote .tex only[/]")
    return 1 if fatal or missing else 0


# -- diff -------------------------------------------------------------------------------------
def _cmd_diff(args: argparse.Namespace) -> int:
    from .diff import diff
    from .results import load

    old, new = load(args.old), load(args.new)
    changes = diff(old, new)
    if args.json:  # the ids as they are, with the characters a terminal obeys escaped
        text = json.dumps([c.to_dict() for c in changes], indent=1, ensure_ascii=False)
        print(json_printable(text))
        return 1 if changes else 0
    console = _console()
    for c in changes:
        style = {"added": "green", "removed": "red"}.get(c.kind, "bold")
        console.print(f"[{style}]{_cell(c, one_line=False)}[/]")
    common = sum(1 for r in new if r.id in old)
    console.print(
        f"{_count(len(changes), 'change')}; {_count(common, 'claim')} in both runs "
        f"({_cell(args.old)}: {len(old)}, {_cell(args.new)}: {len(new)})."
    )
    return 1 if changes else 0


def _count(n: int, noun: str) -> str:
    """``1 claim``, ``3 claims``: the closing lines' counts in plain English."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _console():
    """A rich console; logs and pipes (tox, CI) get 160 columns rather than rich's 80."""
    import os
    import sys

    from rich.console import Console

    class _Console(Console):
        def on_broken_pipe(self) -> None:  # rich would exit 1 (drift, for verify run)
            raise BrokenPipeError

    width = None if sys.stdout.isatty() or "COLUMNS" in os.environ else 160
    return _Console(highlight=False, soft_wrap=False, width=width)

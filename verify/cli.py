"""The ``verify`` command line: list, run, show, report, fuzz, diff.

Exit status of ``run`` (docs/guide.md): 0 when every verdict matches its ``expect``
(or no claim has one), 1 when some verdict differs (or, with ``--strict``, some claim crashed
or timed out), 2 on usage errors; of ``diff``: 0 when
no verdict changed, 1 when some did, 2 on bad input. Errors in the user's arguments are one
clear line on stderr, never a traceback.

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
from .errors import VerifyError
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
}


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
        "--json", action="store_true", help="print a JSON array of {id, paper, where, kind, expect}"
    )

    def running(sp: argparse.ArgumentParser) -> None:
        selection(sp)
        sp.add_argument(
            "--device", choices=["cpu", "cuda"], help="default: cuda when present, else cpu"
        )
        sp.add_argument(
            "--jobs", type=int, help="worker processes (default: the number of cores, at most 8)"
        )
        sp.add_argument("--seed", type=int, default=0, help="the run's seed (default 0)")
        sp.add_argument(
            "--timeout", type=float, help="seconds per claim, overriding the profile's budget"
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

    rn = sub.add_parser("run", help="run claims and print a verdict table")
    running(rn)
    rn.add_argument("--profile", choices=["quick", "deep"], default="quick")

    fz = sub.add_parser("fuzz", help="search longer for counterexamples (the 'fuzz' profile)")
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
    args = _parser().parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.WARNING,
        format="%(levelname)s %(name)s: %(message)s",
    )
    try:
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
        sys.stderr.write(f"verify: error: {e}\n")
        return USAGE_ERROR
    except OSError as e:  # a file or folder the user named: unreadable, unwritable, full...
        sys.stderr.write(f"verify: error: {e}\n")
        return USAGE_ERROR
    except KeyboardInterrupt:
        sys.stderr.write("verify: interrupted; finished claims are saved (use --resume)\n")
        return 130
    return USAGE_ERROR  # pragma: no cover - argparse requires a command


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
    from .registry import REGISTRY, discover, discover_selected

    modules = _modules(args)
    if modules is None:  # the installed papers: import only the modules that can hold them
        discover_selected(args.claim, args.paper)
    else:
        discover(modules)
    claims = REGISTRY.select(_select(args, modules), args.paper)
    if args.json:
        print(json.dumps([c.to_dict() for c in claims], indent=1))
        return 0
    from rich.table import Table

    table = Table(title=_count(len(claims), "claim"), show_lines=False)
    for col in ("id", "paper", "kind", "where", "expect"):
        table.add_column(col, overflow="fold")
    for c in claims:
        exp = c.expect.value if c.expect else "-"
        table.add_row(
            c.id, c.paper, c.kind, c.where, f"[{STYLE[c.expect]}]{exp}[/]" if c.expect else exp
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
                f"[{STYLE[r.verdict]}]{r.verdict.value:<15}[/] {r.id} "
                f"[dim]{r.elapsed_s:.1f}s[/]{mark}",
                highlight=False,
            )

    from .registry import discover

    if args.command == "fuzz":  # `verify fuzz ID ...`: what is not a claims file is an id
        ids = [f for f in args.files if not f.endswith(".py")]
        args.files = [f for f in args.files if f.endswith(".py")]
        args.claim = (args.claim or []) + ids or None
    modules = _modules(args)
    if modules is not None:
        discover(modules)  # to know which claims the named files and modules hold
    split = _fuzz_split(args)
    if args.no_cache or args.cache_dir:  # read by verify.memo in every claim's process
        os.environ["VERIFY_CACHE_DIR"] = "off" if args.no_cache else args.cache_dir
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
            **split,
        )
    finally:
        progress.stop()
    console.print(results_table(results))
    from .headline import counts as headline_counts

    counts = ", ".join(f"{n} {text}" for text, n in headline_counts(results))
    console.print(
        f"{_count(len(results), 'claim')}: {counts or 'none'}. Results in [bold]{args.json}[/]."
    )
    if results.drifted:
        n = len(results.drifted)
        console.print(
            f"[red]{_count(n, 'verdict')} {'differs from its' if n == 1 else 'differ from their'}"
            " expect=:[/] " + ", ".join(r.id for r in results.drifted)
        )
    if args.strict and results.crashed:
        n = len(results.crashed)
        console.print(
            f"[red]{_count(n, 'claim')} crashed or timed out (--strict):[/] "
            + ", ".join(r.id for r in results.crashed)
        )
    status = results.strict_exit_code if args.strict else results.exit_code
    if args.report:
        report_status = _build_report([args.json], args.report, args.paper, pdf=True)
        status = status or report_status
    return status


def _fuzz_split(args: argparse.Namespace) -> dict:
    """``shards`` and ``examples`` of a ``verify fuzz`` run (none for ``verify run``)."""
    if args.command != "fuzz":
        return {}
    shards = args.shards
    if shards is None and args.scheduler:
        from .dask_runner import cluster_threads
        from .runner import default_jobs

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
    from rich.markup import escape

    from .headline import headline, readings_line

    for r in results:
        exp = "-" if r.expect is None else ("[red]" + r.expect.value + "[/]" if r.drift else "ok")
        summary = escape(_short(r.summary, 140))
        if r.readings:
            summary += "\n[dim]" + escape(readings_line(r)) + "[/]"
        table.add_row(
            r.id,
            r.kind,
            f"[{STYLE[r.verdict]}]{headline(r)}[/]",
            exp,
            f"{r.elapsed_s:.1f}s",
            summary,
        )
    return table


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

        from .registry import REGISTRY, discover, discover_selected
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
        sys.stderr.write(
            f"verify: {why}: running {args.id} now (seed {args.seed}, profile "
            f"{args.profile}); nothing is saved\n"
        )
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
    from .registry import REGISTRY, discover

    discover(modules)
    for loc in REGISTRY[claim_id].code:
        print(loc)
    return 0


def render_result(r) -> object:
    """Everything known about one claim's result, for the terminal."""
    from rich.console import Group
    from rich.panel import Panel
    from rich.text import Text

    head = Text()
    head.append(f"{r.id}", style="bold")
    head.append(f"  ({r.paper}, {r.where}, {r.kind})\n")
    from .headline import headline, reading_label, readings_line

    head.append("verdict: ")
    head.append(headline(r), style=STYLE[r.verdict])
    if r.expect is not None:
        head.append(
            f"   expect: {r.expect.value}" + ("  DRIFT" if r.drift else ""),
            style="red" if r.drift else "dim",
        )
    head.append(f"\n{r.summary}\n")
    if r.readings:
        head.append(f"readings: {readings_line(r)}\n")
    if r.severity in ("erratum", "overstated") and r.repaired_by:
        repaired = r.reading_statements.get(r.repaired_by, "")
        head.append(f"repaired statement (reading {r.repaired_by}, {r.severity}): {repaired}\n")
    for loc in r.code:
        head.append(f"check: {loc}\n", style="dim")
    head.append(
        f"seed {r.run_seed} (claim seed {r.seed}), profile {r.profile}, device {r.device}, "
        f"{r.elapsed_s:.2f} s\nre-run: {r.rerun}\n",
        style="dim",
    )
    head.append("\nStatement (as printed): ", style="bold")
    head.append(r.statement + "\n")
    for label, st in r.reading_statements.items():
        rv = r.readings.get(label, {})
        head.append(f"Reading {label}: ", style="bold")
        verdict = reading_label(rv) if rv else "no evidence"
        head.append(f"{st}\n  -> {verdict}: {rv.get('summary', '')}\n")
    panels = [head]
    for i, e in enumerate(r.evidence, 1):
        t = Text()
        t.append(f"[{i}] ")
        t.append(e.verdict.value, style=STYLE[e.verdict])
        t.append(f"  {e.method}, reading {e.reading}, part {e.part}\n")
        t.append(e.summary + "\n")
        if e.audit:
            t.append(f"audit: {e.audit}\n", style="red")
        if e.generality:
            scope = f" (scope: {e.scope})" if e.scope else ""
            t.append(f"generality: {e.generality}{scope}\n")
        meta = ", ".join(
            f"{k} {v}"
            for k, v in (("dtype", e.dtype), ("device", e.device), ("seed", e.seed))
            if v is not None
        )
        if meta:
            t.append(meta + "\n", style="dim")
        if e.counterexample:
            t.append("counterexample:\n", style="bold red")
            t.append(json.dumps(e.counterexample, indent=2, default=str) + "\n")
        if e.numbers:
            t.append("numbers: " + json.dumps(e.numbers, default=str) + "\n")
        for s in e.steps:
            t.append("  " + s + "\n", style="dim")
        if e.rerun:
            t.append(f"re-run: {e.rerun}\n", style="dim")
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
        console.print(f"wrote {p}")
    for p in out.pdf:
        console.print(f"built {p}")
    from rich.markup import escape

    for warning in out.warnings:
        console.print(f"[yellow]warning:[/] {escape(str(warning))}")
    # A TeX error traced to one claim is recovered by showing that claim's math as text: the
    # document is complete, so it is reported (the claim's LaTeX needs fixing) but not fatal.
    # An error no claim explains, or a document without its PDF, fails the command.
    pdf_stems = {p.stem for p in out.pdf}
    missing = [p for p in out.tex if out.compiled and p.stem not in pdf_stems]
    fatal = [e for e in out.errors if e.claim is None or Path(e.document).stem not in pdf_stems]
    for err in out.errors:  # TeX log excerpts contain [...]: never read them as markup
        label = "[red]error:[/]" if err in fatal else "[yellow]recovered (math shown as text):[/]"
        console.print(f"{label} {escape(str(err))}")
    for p in missing:
        console.print(f"[red]error:[/] no PDF was built for {escape(str(p))}")
    if not out.compiled:
        console.print("[yellow]no TeX engine found: wrote .tex only[/]")
    return 1 if fatal or missing else 0


# -- diff -------------------------------------------------------------------------------------
def _cmd_diff(args: argparse.Namespace) -> int:
    from .diff import diff
    from .results import load

    old, new = load(args.old), load(args.new)
    changes = diff(old, new)
    if args.json:
        print(json.dumps([c.to_dict() for c in changes], indent=1, ensure_ascii=False))
        return 1 if changes else 0
    from rich.markup import escape

    console = _console()
    for c in changes:
        style = {"added": "green", "removed": "red"}.get(c.kind, "bold")
        console.print(f"[{style}]{escape(str(c))}[/]")
    common = sum(1 for r in new if r.id in old)
    console.print(
        f"{_count(len(changes), 'change')}; {_count(common, 'claim')} in both runs "
        f"({args.old}: {len(old)}, {args.new}: {len(new)})."
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

    width = None if sys.stdout.isatty() or "COLUMNS" in os.environ else 160
    return Console(highlight=False, soft_wrap=False, width=width)

"""Build the proof report from a saved results file: one document per paper and a summary.

``build(results_path, out_dir)`` writes ``out_dir/summary.tex``, ``out_dir/<paper>.tex`` and
their figures (``out_dir/figures/*.pdf``), then compiles each document to PDF when a TeX
engine is installed. No claim is re-run: everything comes from the results file and its
provenance sidecar (:mod:`verify.provenance`). Several results files (or folders of them)
are merged, per claim the strongest profile that ran (:mod:`.sources`); each claim then
names the run its evidence came from, and the provenance lists every run used.

A TeX error is mapped back to the claim whose section holds the offending line; that claim
is re-rendered in *safe mode* (its math shown as escaped text) and the document compiled
again, so one broken statement cannot cost the other claims their pages. The error, with
the claim's id and the log excerpt, is reported either way, and the ``.tex`` is written.
"""

from __future__ import annotations

import logging
import os
import re
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from .. import provenance
from ..errors import ReportError, ResultsFileError
from ..results import ClaimResult, load
from . import compile as tex_compile
from . import figures as figs
from . import paperinfo, view
from . import sources as results_sources
from .latex import Tex, code, escape_text
from .latex import command as latex_command
from .papers import order, title
from .render import render

log = logging.getLogger(__name__)

MAX_RETRIES = 3
_SAFE_KEY = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")
_CLAIM_MARK = re.compile(r"^%% vf-claim-(begin|end) (\d+)$")


@dataclass
class ReportIssue:
    """A problem met while building: which document, which claim, what, and the TeX log."""

    document: str
    message: str
    claim: str | None = None
    log: str = ""

    def __str__(self) -> str:
        where = f"{self.document}" + (f", claim {self.claim}" if self.claim else "")
        text = f"{where}: {self.message}"
        return text + ("\n" + self.log if self.log else "")


@dataclass
class ReportOutput:
    """What :func:`build` wrote.

    ``errors`` are problems that leave a document wrong or missing (a TeX error, even if
    recovered by showing a claim's math as text; a missing engine is *not* an error, see
    ``compiled``); ``warnings`` are lesser problems (a figure whose data cannot be drawn).
    """

    out_dir: Path
    tex: list[Path] = field(default_factory=list)
    pdf: list[Path] = field(default_factory=list)
    figures: list[Path] = field(default_factory=list)
    errors: list[ReportIssue] = field(default_factory=list)
    warnings: list[ReportIssue] = field(default_factory=list)
    compiled: bool = False
    #: What the counts are of: the one run, or the runs merged (``merged from 3 runs: ...``).
    merged: str = ""
    #: The claims the report shows, merged (their counts are the report's).
    results: list[ClaimResult] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors


def latex_engine_available() -> bool:
    """True when latexmk or pdflatex is installed (the PDF can be built here)."""
    return tex_compile.latex_engine_available()


def file_key(paper: str) -> str:
    """The file name of a paper's document: the key when it is a plain name, else a safe one."""
    if _SAFE_KEY.match(paper) and paper != "summary":
        return paper
    import hashlib

    base = re.sub(r"[^A-Za-z0-9_-]+", "-", paper).strip("-")[:40] or "paper"
    return f"{base}-{hashlib.sha1(paper.encode('utf-8')).hexdigest()[:8]}"


class _Document:
    """One document being built: its claims (by index into the run) and safe-mode set."""

    def __init__(
        self, name: str, template: str, context: dict[str, Any], claims: list[int]
    ) -> None:
        self.name = name
        self.template = template
        self.context = context
        self.claims = claims
        self.safe: set[int] = set()
        self.origins: dict[int, str] = {}  # claim index -> the run its evidence came from


def build(
    results_path: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
    out_dir: str | Path,
    *,
    papers: list[str] | None = None,
    compile: bool = True,
) -> ReportOutput:
    """Write the report of ``results_path`` into ``out_dir``; compile it when possible.

    Args:
        results_path: a JSON-lines file written by ``verify run`` (its ``.meta.json``
            provenance sidecar is read when present), a folder (its ``*.jsonl`` files), or a
            list of them: several files are merged, per claim the record of the strongest
            profile (``deep``/``fuzz`` over ``quick``; the later file between equals), and
            each claim is labelled with the run it came from.
        out_dir: the directory to write ``summary.tex``, ``<paper>.tex``, ``figures/`` and
            the PDFs into (created if needed).
        papers: restrict to these paper keys (the summary then covers only them).
        compile: build PDFs (when a TeX engine is installed); ``False`` writes ``.tex`` only.

    Raises:
        ResultsFileError: the results file is missing or malformed.
        ReportError: a selected paper has no results.
    """
    given = (
        [results_path] if isinstance(results_path, (str, os.PathLike)) else list(results_path)
    )
    out = _output_folder(out_dir)
    output = ReportOutput(out_dir=out)
    runs = _load_runs(given, out, output, papers)
    results = runs.results
    fig_map = _draw_figures(results, out, output)
    output.merged = merged_text(runs.runs_of({r.id for r in results}))
    output.results = results
    rebuild = latex_command(
        "verify report " + " ".join(f"--from {_shown_path(p)}" for p in given)
        + f" --out {_shown_path(out_dir, 'DIR')}"
    )
    coverages: dict[str, dict[str, Any] | None] = {}
    docs = [_paper_document(p, runs, rebuild, coverages) for p in runs.selected]
    docs.append(_summary_document(runs, rebuild, coverages))
    labels = runs.labels()
    for doc in docs:
        doc.origins = {i: labels[results[i].id] for i in doc.claims if results[i].id in labels}
    engine_ok = compile and latex_engine_available()
    output.compiled = engine_ok
    if compile and not engine_ok:
        log.info("no TeX engine found: writing .tex only")
    for doc in docs:
        _build_document(doc, results, fig_map, out, output, engine_ok)
    return output


@dataclass
class _Runs:
    """The results a report shows, merged from its files (per claim the strongest profile),
    with the runs they came from and the papers selected."""

    results: list[ClaimResult]
    sources: list[results_sources.Source]
    origin: dict[str, int]
    selected: list[str]

    @property
    def metas(self) -> list[dict[str, Any]]:
        return [src.meta for src in self.sources]

    def runs_of(self, ids: set[str]) -> list[results_sources.Source]:
        """The runs that gave (some of) these claims, each with only those claims."""
        return [replace(src, used=tuple(c for c in src.used if c in ids))
                for src in self.sources if any(c in ids for c in src.used)]

    def run_views(self, sub: list[ClaimResult]) -> tuple[Tex, list[dict[str, Tex]]]:
        """The subtitle and provenance rows of the runs ``sub`` came from."""
        runs = self.runs_of({r.id for r in sub})
        if len(runs) > 1:
            return (escape_text(merged_text(runs)), view.sources_view(runs, sub))
        one = runs[0].meta if runs else {}
        return _run_line(one, sub), view.provenance_view(one, sub)

    def labels(self) -> dict[str, str]:
        """Each claim's run label, when more than one run gave the results."""
        if len([src for src in self.sources if src.used]) <= 1:
            return {}
        return {cid: self.sources[k].label() for cid, k in self.origin.items()}


def _load_runs(given: list[Any], out: Path, output: ReportOutput,
               papers: list[str] | None) -> _Runs:
    """Load and merge the results files; keep the selected papers (a missing one is an error
    naming the papers present)."""
    loaded = []
    for path in results_sources.expand(given):
        recs = list(load(path))
        loaded.append((path, _matching_meta(path, recs, output), recs))
    results, used_sources, origin = results_sources.pick(loaded)
    results = [view.fit(r) for r in results]  # no claim's text can cost the paper its PDF
    present = order([r.paper for r in results])
    selected = present
    if papers:
        missing = [p for p in papers if p not in present]
        if missing:
            names = ", ".join(Path(p).name for p in given)
            raise ReportError(
                f"no results for paper(s) {', '.join(missing)} in {names}"
                f" (papers present: {', '.join(present) or 'none'})"
            )
        selected = [p for p in present if p in papers]
        results = [r for r in results if r.paper in selected]
    return _Runs(results, used_sources, origin, selected)


def _paper_document(p: str, runs: _Runs, rebuild: Tex,
                    coverages: dict[str, dict[str, Any] | None]) -> _Document:
    """The document of paper ``p``; records its coverage in ``coverages`` for the summary."""
    results, metas = runs.results, runs.metas
    idx = [i for i, r in enumerate(results) if r.paper == p]
    sub = [results[i] for i in idx]
    info = paperinfo.registered(p, metas)
    coverages[p] = paperinfo.coverage_view(info, sub, view.result_badge)
    subtitle, prov = runs.run_views(sub)
    revision = paperinfo.claims_revision(p, sub, metas)
    if revision is not None:
        prov = [{"key": Tex("claims revision"), "value": code(revision)}, *prov]
    return _Document(
        file_key(p),
        "paper.tex.j2",
        {
            "pdf_title": escape_text(f"Proof report: {title(p, sub)}"),
            "header": escape_text(f"{title(p, sub)} ({p})"),
            "kicker": Tex("Proof report \\,\\textperiodcentered\\, paper ") + code(p),
            "paper_title": escape_text(title(p, sub)),
            "byline": _byline(info, revision),
            "coverage": coverages[p],
            "glossary": view.GLOSSARY,
            "findings": view.findings_view(sub, index=paperinfo.statements(info)),
            "subtitle": subtitle,
            "counts": view.counts_view(sub, [p]),
            "provenance": prov,
            "rebuild": rebuild,
            "experiments": [view.experiment_row(r, e) for r in sub for e in r.evidence
                            if e.method == "experiment"],
        },
        idx,
    )


def _summary_document(runs: _Runs, rebuild: Tex,
                      coverages: dict[str, dict[str, Any] | None]) -> _Document:
    """The summary: counts and coverage per paper, the false claims, provenance."""
    results, selected, metas = runs.results, runs.selected, runs.metas
    return _Document(
        "summary",
        "summary.tex.j2",
        {
            "pdf_title": Tex("Proof report: summary"),
            "header": Tex("Summary"),
            "kicker": Tex("Proof report \\,\\textperiodcentered\\, summary"),
            "doc_title": Tex(
                f"{len(results)} claims from {len(selected)} "
                f"paper{'' if len(selected) == 1 else 's'}"
            ),
            "subtitle": runs.run_views(results)[0],
            "counts": view.counts_view(results, selected, coverages),
            "false_claims": view.findings_view(
                results, only="false",
                index={p: paperinfo.statements(paperinfo.registered(p, metas))
                       for p in selected}),
            "glossary": view.GLOSSARY,
            "provenance": runs.run_views(results)[1],
            "rebuild": rebuild,
            "documents": Tex(", ".join(code(file_key(p) + ".pdf") for p in selected)),
        },
        list(range(len(results))),
    )


def merged_text(runs: Sequence[results_sources.Source]) -> str:
    """``merged from 3 runs: the quick run of 2026-11-29 (results.jsonl, 220 claims); deep
    runs gda.jsonl (8 claims), nfa.jsonl (5 claims)``: what a report's counts are of."""
    if len(runs) == 1:
        src = runs[0]
        return f"one run: {src.label()} ({_claims(len(src.used))})"
    parts = [f"{src.label()} ({_claims(len(src.used))})" for src in runs]
    return f"merged from {len(runs)} runs, per claim the strongest: " + "; ".join(parts)


def _claims(n: int) -> str:
    return f"{n} claim{'' if n == 1 else 's'}"


def _shown_path(p: str | os.PathLike[str], absolute: str | None = None) -> str:
    """A path as the reader types it where the build ran (the repository root for the
    committed report): relative as given; an absolute one by its name, or ``absolute``
    (no machine's folders in a report, and the same report wherever it is built)."""
    path = Path(p)
    if path.is_absolute():
        return absolute or path.name
    return path.as_posix()


def _byline(info: dict[str, Any], revision: str | None) -> Tex | None:
    """``A. Author · https://... · claims at revision 1a2b3c``: what a paper's title needs
    under it (a built-in paper's claims are verify's, their revision is the run's)."""
    parts = []
    if info.get("authors"):
        parts.append(escape_text(info["authors"]))
    url = _url(info.get("url") or "")
    if url:
        parts.append(url)
    if revision:
        parts.append(Tex("claims at revision ") + code(revision))
    return Tex(r" \,\textperiodcentered\, ".join(parts)) if parts else None


def _url(url: str) -> Tex | None:
    """A paper's url as a link when it is a plain http(s) address, else as text."""
    if not url:
        return None
    if re.fullmatch(r"https?://[A-Za-z0-9._~:/?=+-]+", url):
        return Tex("\\url{" + url + "}")
    return escape_text(url, breakable=True)


def _output_folder(out_dir: str | Path) -> Path:
    """``out_dir``, created if needed; :class:`ReportError` (one line) when it is a file or
    cannot be written."""
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise ReportError(f"report folder {str(out)!r} is not a folder (a file is there)")
    try:
        out.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=out):
            pass
    except OSError as e:
        raise ReportError(f"cannot write into report folder {str(out)!r}: {e.strerror}") from None
    return out


def _matching_meta(
    results_path: Path, results: list[ClaimResult], output: ReportOutput
) -> dict[str, Any]:
    """The provenance sidecar of ``results_path`` when it describes these results, else ``{}``.

    A sidecar left by an earlier run (another seed or profile) would make the report state
    settings the results were not computed with: it is ignored, with a warning, and the
    report takes seed and profile from the records themselves.
    """
    name = provenance.meta_path(results_path).name
    try:
        meta = provenance.read(results_path)
    except ResultsFileError as e:
        output.warnings.append(ReportIssue(name, f"ignored: {e}"))
        return {}
    if not meta or not results:
        return meta
    seeds = sorted({r.run_seed for r in results})
    profiles = sorted({r.profile for r in results})
    if meta.get("seed", seeds[0]) not in seeds or meta.get("profile", profiles[0]) not in profiles:
        output.warnings.append(ReportIssue(
            name,
            f"ignored: it does not describe {results_path.name} (it states seed "
            f"{meta.get('seed')!r}, profile {meta.get('profile')!r}; the results have seed "
            f"{', '.join(map(str, seeds))}, profile {', '.join(profiles)})",
        ))
        return {}
    if meta.get("complete") is False:
        output.warnings.append(ReportIssue(
            name,
            "the run that wrote these results was interrupted (or is still running): claims "
            "may be missing",
        ))
    return meta


def _run_line(meta: dict[str, Any], results: list[ClaimResult]) -> Tex:
    parts = []
    if meta.get("date"):
        parts.append(escape_text(f"run of {meta['date']}"))
    seed = meta.get("seed", results[0].run_seed if results else None)
    if seed is not None:
        parts.append(escape_text(f"seed {seed}"))
    profile = meta.get("profile", results[0].profile if results else None)
    if profile:
        parts.append(escape_text(f"profile {profile}"))
    if meta.get("git_revision"):
        parts.append(escape_text("verify revision ") + code(meta["git_revision"]))
    return Tex(" \\,\\textperiodcentered\\, ".join(parts))


def _render(doc: _Document, results: list[ClaimResult], fig_map: dict) -> str:
    sub = [results[i] for i in doc.claims]
    ranked = [doc.claims[j] for j in view.sort_for_table(sub, order([r.paper for r in sub]))]
    rows = [view.table_row(results[i], i, i in doc.safe) for i in ranked]
    ctx = dict(doc.context)
    ctx["rows"] = rows
    if doc.template == "paper.tex.j2":
        ctx["claims"] = [
            view.claim_view(results[i], i, fig_map, safe=i in doc.safe,
                            origin=doc.origins.get(i))
            for i in doc.claims
        ]
    return render(doc.template, **ctx)


def _claim_at(tex: str, line: int | None) -> int | None:
    """The index of the claim whose section holds ``line`` (1-based) of ``tex``."""
    if line is None:
        return None
    current = None
    for n, text in enumerate(tex.splitlines(), 1):
        m = _CLAIM_MARK.match(text)
        if m:
            current = int(m.group(2)) if m.group(1) == "begin" else None
        if n >= line:
            return current
    return None


def _row_claim_at(tex: str, line: int | None, results: list[ClaimResult]) -> int | None:
    """For a table row (summary): the claim whose id appears on ``line``."""
    if line is None:
        return None
    lines = tex.splitlines()
    if not 0 < line <= len(lines):
        return None
    text = lines[line - 1]
    for i, r in enumerate(results):
        if str(code(r.id)) in text:
            return i
    return None


def _build_document(
    doc: _Document,
    results: list[ClaimResult],
    fig_map: dict,
    out: Path,
    output: ReportOutput,
    engine_ok: bool,
) -> None:
    tex_path = out / f"{doc.name}.tex"
    assets = {f"figures/{p.name}": p for p in output.figures if p.exists()}
    for attempt in range(MAX_RETRIES + 1):
        tex = _render(doc, results, fig_map)
        try:
            tex_path.write_text(tex, encoding="utf-8")
        except OSError as e:
            raise ReportError(f"cannot write {str(tex_path)!r}: {e.strerror}") from None
        if not engine_ok:
            break
        res = tex_compile.compile_tex(tex, doc.name, assets)
        if res.pdf is not None and not tex_compile.pdf_complete(res.pdf):
            output.errors.append(ReportIssue(
                f"{doc.name}.tex", "the PDF TeX wrote is incomplete (no trailer or no page); "
                "not kept", None, res.log[-1500:]))
            res.pdf.unlink(missing_ok=True)
            res.pdf = None
            (out / f"{doc.name}.pdf").unlink(missing_ok=True)  # never an older one beside it
            break
        if res.ok:
            _keep_pdf(res.pdf, out / f"{doc.name}.pdf", output)
            for line in overfull(res.log):
                output.warnings.append(ReportIssue(f"{doc.name}.tex", line))
            break
        culprits: set[int] = set()
        for err in res.errors:
            i = _claim_at(tex, err.line)
            if i is None:
                i = _row_claim_at(tex, err.line, results)
            claim = results[i].id if i is not None else None
            output.errors.append(ReportIssue(f"{doc.name}.tex", err.message, claim, err.excerpt))
            if i is not None and i not in doc.safe:
                culprits.add(i)
        if not culprits or attempt == MAX_RETRIES:
            if res.pdf is not None:  # nonstop mode often still gives a usable PDF
                _keep_pdf(res.pdf, out / f"{doc.name}.pdf", output)
            elif res.pdf is None:
                output.errors.append(ReportIssue(f"{doc.name}.tex", "no PDF was produced"))
            break
        if res.pdf is not None:
            res.pdf.unlink(missing_ok=True)
        doc.safe |= culprits
        log.warning(
            "%s: TeX failed on claim(s) %s; retrying with their math shown as text",
            doc.name,
            ", ".join(results[i].id for i in sorted(culprits)),
        )
    output.tex.append(tex_path)


#: A box wider than its line by more than this runs visibly into the margin.
MAX_OVERFULL_PT = 5.0
_OVERFULL = re.compile(r"Overfull \\hbox \(([\d.]+)pt too wide\)[^\n]*")


def overfull(log: str, limit: float = MAX_OVERFULL_PT) -> list[str]:
    """The boxes of a LaTeX log overfull by more than ``limit`` points, as the log says them."""
    return [m.group(0) for m in _OVERFULL.finditer(log) if float(m.group(1)) > limit]


def _keep_pdf(src: Path | None, dst: Path, output: ReportOutput) -> None:
    if src is None:
        return
    try:
        shutil.move(str(src), dst)
        dst.chmod(0o644)  # the staging file came from mkstemp (0600); a report is for reading
    except OSError as e:
        src.unlink(missing_ok=True)
        raise ReportError(f"cannot write {str(dst)!r}: {e.strerror}") from None
    output.pdf.append(dst)


def _draw_figures(results: list[ClaimResult], out: Path, output: ReportOutput) -> dict:
    """Draw every figure of every evidence into ``out/figures``; key (claim index, evidence k)."""
    fig_map: dict[tuple[int, int], list[dict[str, Any]]] = {}
    fig_dir = out / "figures"
    for i, r in enumerate(results):
        for k, e in enumerate(r.evidence):
            for j, spec in enumerate(e.figures or []):
                stem = figs.file_stem(r.id, j, (f"e{k}",))
                path = fig_dir / f"{stem}.pdf"
                try:
                    figs.draw(spec, path)
                except figs.FigureDataError as err:
                    output.warnings.append(
                        ReportIssue(f"figures/{stem}.pdf", f"not drawn: {err}", r.id)
                    )
                    continue
                except Exception as err:
                    output.warnings.append(
                        ReportIssue(f"figures/{stem}.pdf", f"not drawn: {err!r}", r.id)
                    )
                    continue
                output.figures.append(path)
                caption = figs.readable(str(spec.get("title") or "")) or {
                    "rate": "fitted rate (log-log) beside the claimed slope",
                    "histogram": "distribution of errors",
                    "curve": "our curves beside the paper's numbers",
                }.get(str(spec.get("kind")), "")
                fig_map.setdefault((i, k), []).append(
                    {"path": Tex(f"figures/{stem}.pdf"), "caption": escape_text(caption)}
                )
    return fig_map

"""Compile a ``.tex`` file to PDF, locked down, in a temporary directory.

The engine runs with shell escape off (``-no-shell-escape`` and ``shell_escape=f``) and
paranoid file access (``openin_any=p``, ``openout_any=p``: no absolute paths, no ``..``,
no dot files), inside a fresh temporary directory holding only the document and its
figures, with ``latexmk -norc`` so that no user configuration is read. This is the second
wall behind :mod:`verify.report.latex`: a macro the sanitizer missed still cannot read
``/etc/passwd`` or run a command.

Errors are parsed from the log (``-file-line-error``: ``./doc.tex:123: message``) with the
line number, so that :mod:`verify.report.build` can name the claim whose text broke.

TeX time is bounded per claim, not only per document: the compiled copy marks its progress
(each claim section and each table row writes its line number to a small file as TeX reaches
it), and a run that stays on one mark longer than :data:`CLAIM_TIMEOUT_S` is stopped with an
error at that line, which names the claim; the build then shows that claim's math as text.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

#: Seconds one compile of one document may take.
TIMEOUT_S = 180
#: Seconds TeX may stay on one claim (one progress mark) before it is stopped.
CLAIM_TIMEOUT_S = 30
#: The file the compiled copy writes its progress (a line number) to.
PROGRESS = "vf-progress.txt"
_PROGRESS_DEF = (
    r"\newwrite\vfprogressout\def\vfprogress{\immediate\openout\vfprogressout="
    + PROGRESS
    + r"\relax\immediate\write\vfprogressout{\the\inputlineno}"
    r"\immediate\closeout\vfprogressout}"
)
_CLAIM_BEGIN = re.compile(r"^%% vf-claim-begin \d+$")
# Table lines that must stay first in their row (a mark before them is a TeX error).
_ROW_FIRST = re.compile(
    r"^\s*\\(?:[a-z]*rule|hline|cline|cmidrule|noalign|multicolumn|omit|span|rowcolor|"
    r"addlinespace|end|begin)\b"
)

_ERROR = re.compile(r"^(?:\./)?(?P<file>[^\s:]+\.tex):(?P<line>\d+): (?P<msg>.*)$", re.M)
_BANG = re.compile(r"^! (?P<msg>.*)$", re.M)


@dataclass
class TexError:
    """One error from the TeX log."""

    line: int | None
    message: str
    excerpt: str


@dataclass
class CompileResult:
    """What one compile produced: the PDF (when any), the log's errors, the log itself."""

    pdf: Path | None
    errors: list[TexError] = field(default_factory=list)
    log: str = ""
    returncode: int = 0

    @property
    def ok(self) -> bool:
        return self.pdf is not None and not self.errors and self.returncode == 0


def engine() -> list[str] | None:
    """The command that builds a PDF here: latexmk (preferred) or pdflatex; None if neither."""
    if shutil.which("latexmk") and shutil.which("pdflatex"):
        return [
            "latexmk",
            "-norc",
            "-pdf",
            "-no-shell-escape",
            "-interaction=nonstopmode",
            "-file-line-error",
            "-silent",
        ]
    if shutil.which("pdflatex"):
        return ["pdflatex", "-no-shell-escape", "-interaction=nonstopmode", "-file-line-error"]
    return None


def latex_engine_available() -> bool:
    """True when a TeX engine (latexmk or pdflatex) is installed."""
    return engine() is not None


def locked_env() -> dict[str, str]:
    """The environment the engine runs in: no shell escape, paranoid reads and writes."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TEXMF", "TEXINPUTS"))}
    env.update(
        openin_any="p",
        openout_any="p",
        shell_escape="f",
        max_print_line="1000",  # one log line per message: easier to parse
        error_line="254",
        half_error_line="238",
        SOURCE_DATE_EPOCH=env.get("SOURCE_DATE_EPOCH", "0"),
        FORCE_SOURCE_DATE="1",
    )
    return env


def parse_errors(log: str, name: str) -> list[TexError]:
    """The errors of ``log`` (file-line-error style), each with a short excerpt."""
    lines = log.splitlines()
    errors: list[TexError] = []
    for k, text in enumerate(lines):
        m = _ERROR.match(text)
        if not m or Path(m.group("file")).name != name:
            continue
        msg = m.group("msg").strip()
        if msg.startswith("==>") or msg == "Emergency stop.":
            continue
        excerpt = "\n".join(lines[k : k + 8]).strip()
        errors.append(TexError(int(m.group("line")), msg, excerpt))
    if not errors:
        for m in _BANG.finditer(log):
            start = log.count("\n", 0, m.start())
            errors.append(TexError(None, m.group("msg"), "\n".join(lines[start : start + 8])))
    return errors


def instrument(tex: str) -> str:
    """``tex`` with a progress mark at each claim section and each table row, on the same
    lines (so that a line number TeX reports is a line of ``tex``)."""
    lines = tex.split("\n")
    body = False
    for k, line in enumerate(lines):
        if not body:
            if line.startswith(r"\begin{document}"):
                lines[k] = _PROGRESS_DEF + line
                body = True
        elif _CLAIM_BEGIN.match(line) or (
            line.rstrip().endswith("\\\\") and not _ROW_FIRST.match(line)
        ):
            lines[k] = r"\vfprogress " + line
    return "\n".join(lines)


def _run(cmd: list[str], work: Path, timeout: float, claim_timeout: float) -> TexError | int:
    """Run the engine in ``work``: its exit status, or the error that stopped it (too long
    on one progress mark, or on the whole document). The engine and any child it starts
    run in their own process group and are killed together."""
    proc = subprocess.Popen(
        cmd, cwd=work, env=locked_env(), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL, start_new_session=True,
    )
    t0 = time.monotonic()
    mark, since = None, t0
    try:
        while True:
            try:
                return proc.wait(timeout=0.1)
            except subprocess.TimeoutExpired:
                pass
            now = time.monotonic()
            seen = _read(work / PROGRESS).strip() or None
            if seen != mark:
                mark, since = seen, now
            line = int(mark) if mark and mark.isdigit() else None
            if mark is not None and now - since > claim_timeout:
                return TexError(line, f"TeX spent over {claim_timeout:g} s on one claim; stopped",
                                "")
            if now - t0 > timeout:
                return TexError(line, f"TeX timed out after {timeout:.0f} s", "")
    finally:
        if proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def compile_tex(
    tex: str,
    name: str,
    assets: dict[str, Path] | None = None,
    timeout: float | None = None,
    claim_timeout: float | None = None,
) -> CompileResult:
    """Build ``tex`` (the document's source) as ``<name>.tex`` in a temporary directory.

    ``assets`` maps relative paths (``figures/x.pdf``) to files copied beside it. Returns the
    PDF copied to a temporary location owned by the caller (``result.pdf``), or None.
    ``timeout`` bounds the whole compile (default :data:`TIMEOUT_S`), ``claim_timeout`` the
    time on one claim (default :data:`CLAIM_TIMEOUT_S`); either error carries the line TeX
    was on, so that the caller can name the claim.
    """
    timeout = TIMEOUT_S if timeout is None else timeout
    claim_timeout = CLAIM_TIMEOUT_S if claim_timeout is None else claim_timeout
    cmd = engine()
    if cmd is None:
        return CompileResult(
            None, [TexError(None, "no TeX engine (latexmk/pdflatex) found", "")], "", 127
        )
    stem = Path(name).stem
    with tempfile.TemporaryDirectory(prefix="verify-tex-") as tmp:
        work = Path(tmp)
        (work / f"{stem}.tex").write_text(instrument(tex), encoding="utf-8")
        for rel, src in (assets or {}).items():
            dst = work / rel
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, dst)
        runs = 1 if cmd[0] == "latexmk" else 2  # pdflatex alone: twice for longtable widths
        rc = 0
        for _ in range(runs):
            outcome = _run([*cmd, f"{stem}.tex"], work, timeout, claim_timeout)
            if isinstance(outcome, TexError):
                log = _read(work / f"{stem}.log")
                outcome.excerpt = log[-2000:]
                return CompileResult(None, [outcome], log, 124)
            rc = outcome
        log = _read(work / f"{stem}.log")
        errors = parse_errors(log, f"{stem}.tex")
        pdf = work / f"{stem}.pdf"
        kept = None
        if pdf.exists() and pdf.stat().st_size > 0:
            fd, out = tempfile.mkstemp(prefix=f"verify-{stem}-", suffix=".pdf")
            os.close(fd)
            shutil.copyfile(pdf, out)
            kept = Path(out)
        if rc != 0 and not errors:
            errors.append(TexError(None, f"{cmd[0]} exited with status {rc}", log[-1500:]))
        return CompileResult(kept, errors, log, rc)


def pdf_complete(path: Path) -> bool:
    """True when ``path`` is a whole PDF: it starts with ``%PDF-``, ends with the ``%%EOF``
    of its trailer, and (where poppler's ``pdfinfo`` is installed) parses with at least one
    page. A TeX run that died while writing leaves a file that is none of these; it must
    never be announced as built."""
    try:
        with open(path, "rb") as f:
            head = f.read(5)
            f.seek(0, os.SEEK_END)
            size = f.tell()
            f.seek(max(0, size - 1024))
            tail = f.read()
    except OSError:
        return False
    if head != b"%PDF-" or b"%%EOF" not in tail:
        return False
    if not shutil.which("pdfinfo"):
        return True
    try:
        info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True,
                              timeout=60, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired):
        return False
    pages = re.search(r"^Pages:\s+(\d+)", info.stdout, re.M)
    return info.returncode == 0 and pages is not None and int(pages.group(1)) > 0


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""

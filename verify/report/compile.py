"""Compile a ``.tex`` file to PDF, locked down, in a temporary directory.

The engine runs with shell escape off (``-no-shell-escape`` and ``shell_escape=f``) and
paranoid file access (``openin_any=p``, ``openout_any=p``: no absolute paths, no ``..``,
no dot files), inside a fresh temporary directory holding only the document and its
figures, with ``latexmk -norc`` so that no user configuration is read. This is the second
wall behind :mod:`verify.report.latex`: a macro the sanitizer missed still cannot read
``/etc/passwd`` or run a command.

Errors are parsed from the log (``-file-line-error``: ``./doc.tex:123: message``) with the
line number, so that :mod:`verify.report.build` can name the claim whose text broke.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

TIMEOUT_S = 180

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


def compile_tex(
    tex: str, name: str, assets: dict[str, Path] | None = None, timeout: float = TIMEOUT_S
) -> CompileResult:
    """Build ``tex`` (the document's source) as ``<name>.tex`` in a temporary directory.

    ``assets`` maps relative paths (``figures/x.pdf``) to files copied beside it. Returns the
    PDF copied to a temporary location owned by the caller (``result.pdf``), or None.
    """
    cmd = engine()
    if cmd is None:
        return CompileResult(
            None, [TexError(None, "no TeX engine (latexmk/pdflatex) found", "")], "", 127
        )
    stem = Path(name).stem
    with tempfile.TemporaryDirectory(prefix="verify-tex-") as tmp:
        work = Path(tmp)
        (work / f"{stem}.tex").write_text(tex, encoding="utf-8")
        for rel, src in (assets or {}).items():
            dst = work / rel
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, dst)
        runs = 1 if cmd[0] == "latexmk" else 2  # pdflatex alone: twice for longtable widths
        rc = 0
        for _ in range(runs):
            try:
                proc = subprocess.run(
                    [*cmd, f"{stem}.tex"],
                    cwd=work,
                    env=locked_env(),
                    stdin=subprocess.DEVNULL,
                    capture_output=True,
                    timeout=timeout,
                )
                rc = proc.returncode
            except subprocess.TimeoutExpired:
                log = _read(work / f"{stem}.log")
                return CompileResult(
                    None,
                    [TexError(None, f"TeX timed out after {timeout:.0f} s", log[-2000:])],
                    log,
                    124,
                )
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


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""

"""The proof report: LaTeX documents (one per paper and a summary), compiled to PDF.

    from verify.report import build
    out = build("results.jsonl", "docs/report")       # -> ReportOutput
    out.tex, out.pdf, out.errors

The report is rebuilt from a saved results file (``verify run --json``) and its provenance
sidecar, without re-running any claim. Modules, one job each:

``latex``    escaping text and sanitizing math (the first wall against hostile statements)
``view``     results -> the values the templates show, all already safe LaTeX
``render``   the jinja2 environment (``\\VAR{}``/``\\BLOCK{}``, strict, escape by default)
``figures``  matplotlib figures (rates, histograms, curves) as PDF
``compile``  latexmk/pdflatex, locked down (no shell escape, paranoid file access)
``build``    the whole: documents, figures, compile, retry a broken claim in safe mode
"""

from __future__ import annotations

from .build import ReportIssue, ReportOutput, build, file_key, latex_engine_available

__all__ = ["build", "ReportOutput", "ReportIssue", "latex_engine_available", "file_key"]

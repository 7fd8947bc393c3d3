"""Sphinx configuration of verify's documentation site (``tox -e docs``).

The site is built offline: Markdown pages through myst-parser, the API reference from the
docstrings (autodoc, Google-style sections through napoleon), the furo theme, and no
extension that reaches the network (no intersphinx). Every warning is an error in CI
(``sphinx-build -W``). Each seed paper's page gets a link to its proof report (the PDF
in ``docs/report/``), added here so that the papers' own pages stay plain Markdown.
"""

from __future__ import annotations

import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS.parent))  # the checkout's verify, proofs and numerics

project = "verify"
author = "the verify authors"
copyright = "the verify authors"

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
]

source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "report/figures", "**/*.tex"]

myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"members": True, "show-inheritance": False}
napoleon_google_docstring = True
napoleon_numpy_docstring = False

html_theme = "furo"
html_title = "verify"
html_static_path: list[str] = []
html_show_sourcelink = False

#: The seed papers whose page links to its report, ``docs/report/<key>.pdf``.
PAPER_PAGES = ("gda", "nfa", "pegr", "sih", "toef")


def _link_report(app, docname: str, source: list[str]) -> None:
    """Append a link to the paper's proof report to each seed paper's page."""
    key = docname.removeprefix("papers/")
    if not docname.startswith("papers/") or key not in PAPER_PAGES:
        return
    if (DOCS / "report" / f"{key}.pdf").exists():
        source[0] += (
            f"\n\n## Proof report\n\nThe full evidence of every claim of `{key}` (statements, "
            f"exact steps, counterexamples, figures, provenance): "
            f"{{download}}`{key}.pdf <../report/{key}.pdf>`, rebuilt by `tox -e report`.\n"
        )


def setup(app):
    app.connect("source-read", _link_report)

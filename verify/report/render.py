r"""The jinja2 environment of the report: LaTeX-safe delimiters, strict, escaping by default.

Templates use ``\\VAR{x}`` for values, ``\\BLOCK{...}`` for statements and ``\\#{...}`` for
comments, so that LaTeX's own braces and percent signs need no quoting. Undefined names
are errors (``StrictUndefined``). Every value printed with ``\\VAR{}`` is escaped as text
unless it is a :class:`~verify.report.latex.Tex` (already made safe by
:mod:`verify.report.view`), so a template cannot forget to escape. The one exception is
the output of a template macro, which is assembled from escaped values and is marked with
the ``tex`` filter (``\VAR{claims_table(rows, True)|tex}``).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import jinja2

from .latex import Tex, escape_text


def _finalize(value: Any) -> str:
    if isinstance(value, Tex):
        return value
    if value is None:
        return ""
    return escape_text(value)


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    """The shared template environment (templates loaded from the package)."""
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("verify.report", "templates"),
        block_start_string=r"\BLOCK{",
        block_end_string="}",
        variable_start_string=r"\VAR{",
        variable_end_string="}",
        comment_start_string=r"\#{",
        comment_end_string="}",
        line_statement_prefix=None,
        line_comment_prefix=None,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
        finalize=_finalize,
    )
    # Macro output is built from finalized (escaped) values: ``\VAR{m(...)|tex}`` keeps it.
    env.filters["tex"] = lambda s: Tex(str(s))
    return env


def render(template: str, **context: Any) -> str:
    """Render ``template`` (a file in ``verify/report/templates``) with ``context``."""
    return environment().get_template(template).render(**context)

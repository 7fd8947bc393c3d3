"""verify.report.latex: text is escaped, math is sanitized, hostile input is neutralised."""

from __future__ import annotations

import re

import pytest

from verify.report import latex
from verify.report.latex import Tex, Unsafe, escape_text, sanitize_math
from verify.report.render import environment

SPECIALS = '\\ { } $ & # % _ ~ ^ < > | "'


def test_escape_text_leaves_no_special_character_active():
    out = escape_text(SPECIALS)
    # every backslash in the output starts one of our escapes, never user text
    assert "\\input" not in escape_text(r"\input{/etc/passwd}")
    assert (
        re.sub(
            r"\\(textbackslash|textasciitilde|textasciicircum|textless|textgreater|"
            r"textbar|textquotedbl)\{\}|\\[{}$&#%_]",
            "",
            out,
        ).strip(" ")
        == ""
    )


def test_escape_text_maps_unicode_and_drops_control_characters():
    assert escape_text("τ ≤ 1") == r"\ensuremath{\tau} \ensuremath{\le} 1"
    assert escape_text("café") == r"caf\'{e}"
    assert escape_text("a\x00b\nc") == "ab c"
    assert escape_text("😀") == r"\vfuni{1F600}"


def test_escape_text_breakable_allows_breaks_in_ids():
    assert escape_text("nfa.ag.x_y", breakable=True).count(r"\allowbreak") == 3


@pytest.mark.parametrize(
    "macro",
    [
        "input",
        "include",
        "write",
        "immediate",
        "openin",
        "read",
        "catcode",
        "def",
        "let",
        "csname",
        "usepackage",
        "special",
        "directlua",
        "newcommand",
        "expandafter",
    ],
)
def test_dangerous_macros_are_shown_never_run(macro):
    out = sanitize_math("\\" + macro + "{x}")
    assert out.startswith(r"{\vfblocked{" + macro + "}}")
    assert "\\" + macro + "{" not in out and "\\" + macro + " " not in out


def test_unknown_macros_become_upright_names():
    assert sanitize_math(r"\softmax(x)") == r"{\operatorname{softmax}}(x)"


def test_allowed_math_is_kept():
    s = r"\frac{\partial \mathcal{L}}{\partial c_{k}} = - \sum_{i=1}^{N} \phi_{k}(x_{i}) r_{i}"
    out = sanitize_math(s)
    for m in (r"\frac", r"\partial", r"\mathcal", r"\sum", r"\phi"):
        assert m in out
    assert sanitize_math(r"\left[\begin{matrix}1 & 2\\3 & 4\end{matrix}\right]").count("&") == 2


@pytest.mark.parametrize(
    "bad",
    [
        r"\frac{a}{b",
        r"a}{b",
        r"\left( x",
        r"x \right)",
        r"^^5cinput{/etc/passwd}",
        r"\begin{document}",
        r"\end{document}",
        r"x^",
        r"\begin{pmatrix} a \end{bmatrix}",
        "a $ b",
        "\\",
    ],
)
def test_unsafe_math_is_refused(bad):
    with pytest.raises(Unsafe):
        sanitize_math(bad)


def test_refused_math_is_shown_as_text():
    out = latex.math_display(r"\frac{a}{b")
    assert out.startswith(r"\vfdisplaytext{\vfraw{") and r"\textbackslash{}frac" in out


def test_comment_and_parameter_characters_are_escaped_in_math():
    out = sanitize_math("50 % x # y")
    assert r"\%" in out and r"\#" in out and "%" not in out.replace(r"\%", "")


def test_blank_lines_cannot_end_math_mode():
    assert "\n" not in sanitize_math("a\n\nb")


def test_alignment_outside_an_environment_is_neutralised():
    assert "&" not in sanitize_math("a & b \\\\ c")


def test_prose_runs_in_math_become_text():
    assert r"\text{for all}" in sanitize_math(r"f(gS) = \rho(g) f(S) for all g")
    assert r"\text" not in sanitize_math(r"\mathcal Loss")  # an argument, not prose


def test_text_with_math_sanitizes_each_segment_and_keeps_markup():
    out = latex.text_with_math(r"rate $O(\tau^{-2})$ is \emph{sharp}, 5\% \input{x}")
    assert r"$O(\tau ^{-2})$" in out
    assert r"\emph{sharp}" in out and r"5\%" in out
    assert r"\textbackslash{}input" in out
    # an odd number of dollars: not LaTeX, all text
    assert "$" not in latex.text_with_math("costs $5").replace(r"\$", "")


def test_statement_modes():
    assert latex.statement(r"a = b").startswith(r"\vfdisplay{")
    assert latex.statement(r"the map $f$ is injective").startswith(r"\vfprose{")
    assert "no statement" in latex.statement("")


def test_template_environment_escapes_everything_not_marked_tex():
    env = environment()
    t = env.from_string(r"\VAR{a} \VAR{b}")
    assert t.render(a=r"\input{x}", b=Tex(r"\alpha")) == r"\textbackslash{}input\{x\} \alpha"
    with pytest.raises(Exception, match="undefined"):
        env.from_string(r"\VAR{missing}").render()


def test_escape_text_keeps_double_hyphens_and_quotes_apart():
    """TeX joins ``--`` into an en dash and two quotes into a curly one: a rerun command in a
    counterexample must print as typed."""
    assert escape_text("verify run --claim x --seed 0") == "verify run -{}-claim x -{}-seed 0"
    assert escape_text("``a'' ---") == "`{}`a'{}' -{}-{}-"
    assert escape_text("a-b") == "a-b"

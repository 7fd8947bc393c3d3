"""Make untrusted strings safe to put in a LaTeX document.

Everything a report shows comes from claim authors (statements, summaries, step strings,
counterexample values) and must not be able to read files, run commands, redefine macros
or break the pages of other claims. Two kinds of string reach the document:

* **text** (ids, summaries, numbers, commands): every special character is escaped by
  :func:`escape_text`; nothing in it is ever interpreted by TeX.
* **math meant to be math** (statements, SymPy's LaTeX of proof steps): it goes through
  :func:`sanitize_math`, a small tokenizer that keeps an *allowlist* of math macros and
  environments, replaces every other control word by harmless text (dangerous ones such as
  ``\\input``, ``\\write``, ``\\catcode``, ``\\def`` are shown in red), escapes ``%`` and
  ``#``, refuses ``^^`` character codes, and checks that braces, environments and
  ``\\left``/``\\right`` balance. When a string cannot be made safe as math it is rendered as
  escaped text instead (:class:`Unsafe` is raised and callers fall back).

:class:`Tex` marks a string as already-safe LaTeX; the report's jinja2 environment escapes
every value that is not a :class:`Tex` (see :mod:`verify.report.render`). The compile step
adds a second wall (no shell escape, paranoid file access; :mod:`verify.report.compile`).
"""

# ruff: noqa: UP031 - %-formatting keeps LaTeX's braces readable (no {{ }} doubling)

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from typing import NoReturn

from . import asciimath

__all__ = [
    "Tex",
    "Unsafe",
    "escape_text",
    "sanitize_math",
    "math_inline",
    "math_display",
    "text_with_ascii_math",
    "text_with_math",
    "statement",
    "step",
    "code",
    "command",
    "as_text",
]


class Tex(str):
    """A string that is already safe LaTeX (the template environment does not escape it)."""

    __slots__ = ()

    def __add__(self, other: str) -> Tex:
        if not isinstance(other, Tex):
            other = escape_text(other)
        return Tex(str.__add__(self, other))


class Unsafe(ValueError):
    """A math string could not be made safe as math (it is then shown as text)."""


# -- text ------------------------------------------------------------------------------------
_TEXT_SPECIAL = {
    "\\": r"\textbackslash{}",
    "{": r"\{",
    "}": r"\}",
    "$": r"\$",
    "&": r"\&",
    "#": r"\#",
    "%": r"\%",
    "_": r"\_",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "<": r"\textless{}",
    ">": r"\textgreater{}",
    "|": r"\textbar{}",
    '"': r"\textquotedbl{}",
}

#: Pairs of characters TeX joins into one glyph (an en dash, curly quotes, inverted marks).
_LIGATURES = frozenset({"--", "``", "''", "!`", "?`"})

# Unicode symbols common in papers and summaries, as math macros (used in text and in math).
_UNICODE_MATH = {
    "α": r"\alpha",
    "β": r"\beta",
    "γ": r"\gamma",
    "δ": r"\delta",
    "ε": r"\varepsilon",
    "ϵ": r"\epsilon",
    "ζ": r"\zeta",
    "η": r"\eta",
    "θ": r"\theta",
    "ϑ": r"\vartheta",
    "ι": r"\iota",
    "κ": r"\kappa",
    "λ": r"\lambda",
    "μ": r"\mu",
    "ν": r"\nu",
    "ξ": r"\xi",
    "π": r"\pi",
    "ρ": r"\rho",
    "σ": r"\sigma",
    "τ": r"\tau",
    "υ": r"\upsilon",
    "φ": r"\varphi",
    "ϕ": r"\phi",
    "χ": r"\chi",
    "ψ": r"\psi",
    "ω": r"\omega",
    "Γ": r"\Gamma",
    "Δ": r"\Delta",
    "Θ": r"\Theta",
    "Λ": r"\Lambda",
    "Ξ": r"\Xi",
    "Π": r"\Pi",
    "Σ": r"\Sigma",
    "Φ": r"\Phi",
    "Ψ": r"\Psi",
    "Ω": r"\Omega",
    "≤": r"\le",
    "≥": r"\ge",
    "≠": r"\ne",
    "≈": r"\approx",
    "≡": r"\equiv",
    "∼": r"\sim",
    "±": r"\pm",
    "∓": r"\mp",
    "×": r"\times",
    "·": r"\cdot",
    "⋅": r"\cdot",
    "∘": r"\circ",
    "→": r"\to",
    "←": r"\leftarrow",
    "↦": r"\mapsto",
    "⇒": r"\Rightarrow",
    "⇔": r"\Leftrightarrow",
    "∞": r"\infty",
    "∈": r"\in",
    "∉": r"\notin",
    "⊂": r"\subset",
    "⊆": r"\subseteq",
    "∪": r"\cup",
    "∩": r"\cap",
    "∀": r"\forall",
    "∃": r"\exists",
    "∇": r"\nabla",
    "∂": r"\partial",
    "∑": r"\sum",
    "∏": r"\prod",
    "∫": r"\int",
    "√": r"\surd",
    "−": "-",
    "‖": r"\|",
    "⊤": r"\top",
    "⊗": r"\otimes",
    "⊕": r"\oplus",
    "ℓ": r"\ell",
    "ℝ": r"\mathbb{R}",
    "ℂ": r"\mathbb{C}",
    "ℕ": r"\mathbb{N}",
    "ℤ": r"\mathbb{Z}",
    "ℚ": r"\mathbb{Q}",
    "⟨": r"\langle",
    "⟩": r"\rangle",
    "∅": r"\emptyset",
    "≪": r"\ll",
    "≫": r"\gg",
    "∝": r"\propto",
    "⊥": r"\perp",
    "†": r"\dagger",
    "′": "'",
}
_UNICODE_TEXT = {
    "–": "--",
    "—": "---",
    "‘": "`",
    "’": "'",
    "“": "``",
    "”": "''",
    "…": r"\dots{}",
    "\u00a0": "~",
    "•": r"\textbullet{}",
    "°": r"\textdegree{}",
    "§": r"\S{}",
    "¶": r"\P{}",
    "✓": r"\ensuremath{\checkmark}",
    "✗": "x",
}
_ACCENTS = {
    "\u0300": "`",
    "\u0301": "'",
    "\u0302": "^",
    "\u0303": "~",
    "\u0308": '"',
    "\u0327": "c",
    "\u030c": "v",
    "\u030a": "r",
    "\u0304": "=",
    "\u0306": "u",
}


def _unicode_fallback(ch: str) -> str:
    return r"\vfuni{%04X}" % ord(ch)


def _latin_with_accent(ch: str) -> str | None:
    """``é`` -> ``\\'{e}``: an ASCII letter with one accent LaTeX knows, else None."""
    decomposed = unicodedata.normalize("NFD", ch)
    if len(decomposed) == 2 and decomposed[0].isascii() and decomposed[0].isalpha():
        acc = _ACCENTS.get(decomposed[1])
        if acc:
            return "\\%s{%s}" % (acc, decomposed[0])
    return {
        "ß": r"\ss{}",
        "æ": r"\ae{}",
        "ø": r"\o{}",
        "Ø": r"\O{}",
        "Æ": r"\AE{}",
        "œ": r"\oe{}",
        "ł": r"\l{}",
        "Ł": r"\L{}",
        "å": r"\aa{}",
    }.get(ch)


#: An ellipsis the text means (``1,...,1``, ``Theorem 1 ... if``, ``Tr(...)``) is typeset as
#: one; three dots glued to the end of a word are left as they are (they mark cut text).
_ELLIPSIS = re.compile(r"(?:(?<=[\s,(\[{=+])|^)\.\.\.(?=[\s,)\]};:.]|$)")


def escape_text(s: object, *, breakable: bool = False) -> Tex:
    """Escape ``s`` as plain text: TeX interprets none of it.

    ``breakable`` allows line breaks after ``.``, ``_``, ``/`` and ``-`` (ids, paths).
    """
    s = _ELLIPSIS.sub("\u2026", "" if s is None else str(s))
    out: list[str] = []
    for i, ch in enumerate(s):
        if i and s[i - 1:i + 1] in _LIGATURES:
            out.append("{}")  # "--" stays two hyphens: a command's options, not an en dash
        if ch in _TEXT_SPECIAL:
            out.append(_TEXT_SPECIAL[ch])
            if breakable and ch == "_":
                out.append(r"\allowbreak{}")
        elif ch in ("\n", "\r", "\t", "\f", "\v"):
            out.append(" ")
        elif ord(ch) < 32 or ord(ch) == 127:
            continue
        elif ch.isascii():
            out.append(ch)
            if breakable and ch in "./-":
                out.append(r"\allowbreak{}")
        elif ch in _UNICODE_TEXT:
            out.append(_UNICODE_TEXT[ch])
        elif ch in _UNICODE_MATH:
            out.append(r"\ensuremath{%s}" % _UNICODE_MATH[ch])
        else:
            acc = _latin_with_accent(ch)
            out.append(acc if acc is not None else _unicode_fallback(ch))
    return Tex("".join(out))


def code(s: object) -> Tex:
    """Typewriter text (an id, a file name): escaped; a line may break after ``.`` or ``/``
    only, never inside a word (``capacity_gap`` stays whole, so a copied id works)."""
    text = escape_text(s)  # no -- ligature (escape_text): what is shown is typed
    return Tex(r"\texttt{%s}" % re.sub(r"([./])(?=\w)", r"\1\\allowbreak{}", text))


def command(s: object) -> Tex:
    """A command to paste into a shell: typewriter text that breaks at its spaces only."""
    words = [escape_text(w) for w in str("" if s is None else s).split()]
    return Tex(r"{\raggedright\ttfamily %s\par}" % " ".join(r"\mbox{%s}" % w for w in words))


def as_text(s: object) -> Tex:
    """A string that failed as math, shown verbatim (escaped) in typewriter type."""
    return Tex(r"\vfraw{%s}" % escape_text(s, breakable=True))


# -- math ------------------------------------------------------------------------------------
_GREEK = (
    "alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa varkappa "
    "lambda mu nu xi omicron pi varpi rho varrho sigma varsigma tau upsilon phi varphi chi psi "
    "omega Gamma Delta Theta Lambda Xi Pi Sigma Upsilon Phi Psi Omega digamma"
)
_SYMBOLS = (
    "infty partial nabla cdot cdots ldots dots dotsc dotsb vdots ddots times div otimes oplus "
    "odot ominus circ bullet star ast pm mp le leq ge geq leqslant geqslant ne neq approx "
    "sim simeq cong equiv propto asymp ll gg lesssim gtrsim prec succ preceq succeq to "
    "mapsto rightarrow leftarrow Rightarrow Leftarrow leftrightarrow Leftrightarrow "
    "longrightarrow longmapsto Longrightarrow iff implies impliedby hookrightarrow "
    "twoheadrightarrow rightharpoonup uparrow downarrow nearrow searrow in notin ni subset "
    "subseteq supset supseteq subsetneq cup cap setminus bigcup bigcap bigoplus bigotimes "
    "bigodot bigsqcup sqcup sqcap wedge vee bigwedge bigvee land lor lnot neg forall exists "
    "nexists emptyset varnothing top bot perp parallel mid nmid dagger ddagger prime "
    "backslash hbar ell wp Re Im aleph beth angle triangle square blacksquare checkmark "
    "diamond triangleq coloneqq eqqcolon doteq models vdash dashv langle rangle lvert rvert "
    "lVert rVert lfloor rfloor lceil rceil vert Vert colon quad qquad sum prod coprod int "
    "iint iiint oint lim limsup liminf sup inf max min arg argmax argmin det dim ker deg "
    "gcd hom exp log ln lg sin cos tan cot sec csc sinh cosh tanh coth arcsin arccos arctan "
    "Pr bmod pmod mod limits nolimits displaystyle textstyle scriptstyle scriptscriptstyle "
    "not imath jmath smallsetminus circledast boxtimes boxplus intercal lozenge "
    "varliminf varlimsup injlim projlim dotplus ltimes rtimes Box surd"
)
_WITH_ARGS = (
    "frac dfrac tfrac cfrac binom dbinom tbinom sqrt mathbb mathcal mathfrak mathrm mathbf "
    "mathsf mathtt mathit mathnormal boldsymbol bm operatorname overline underline "
    "overbrace underbrace widehat widetilde hat tilde bar check breve dot ddot dddot vec "
    "acute grave mathring overset underset stackrel substack phantom hphantom vphantom "
    "overrightarrow overleftarrow xrightarrow xleftarrow pmb boxed cancel"
)
_DELIM_SIZERS = "left right middle big Big bigg Bigg bigl bigr Bigl Bigr biggl biggr Biggl Biggr"
ALLOWED_MACROS = frozenset((_GREEK + " " + _SYMBOLS + " " + _WITH_ARGS).split()) - {"cancel"}
_SIZERS = frozenset(_DELIM_SIZERS.split())
# Commands whose argument is text (escaped as text, not parsed as math).
_TEXT_ARG = frozenset("text textrm textit textbf textsf texttt textnormal mbox".split())
# Renamed on the way in: a macro from a package we do not load, to its nearest equivalent.
_RENAMED = {"mathscr": "mathcal", "mathbbm": "mathbb", "bold": "mathbf"}
_ENVIRONMENTS = frozenset(
    "matrix pmatrix bmatrix Bmatrix vmatrix Vmatrix smallmatrix cases dcases aligned "
    "alignedat gathered array split rcases".split()
)
# Never typeset: shown in red so that a reader sees what the statement tried to do.
DANGEROUS = frozenset(
    """input include includeonly InputIfFileExists IfFileExists openin openout read readline
    write write18 immediate closein closeout special catcode lccode uccode sfcode mathcode
    delcode def edef gdef xdef let futurelet csname endcsname expandafter noexpand
    newcommand renewcommand providecommand DeclareRobustCommand newenvironment
    renewenvironment usepackage RequirePackage documentclass directlua latelua luaexec
    pdfprimitive ShellEscape shellescape pdfshellescape outer long global afterassignment
    aftergroup everypar everymath everydisplay everyhbox everyvbox everyjob everyeof output
    shipout jobname end bye dump errmessage message batchmode nonstopmode scrollmode
    errorstopmode endinput scantokens detokenize unexpanded makeatletter makeatother
    verb verbatim lstinline url href loop repeat tracingall pdffilesize pdffiledump
    pdfmdfivesum filesize filedump mdfivesum pdfobj pdfliteral pdfsavepos""".split()
)
# Bounds on what one statement may ask of TeX, whose time a sanitizer cannot otherwise
# bound: ``\begin{array}{*{99999}{c}}`` builds 99999 columns (minutes), and each macro set
# with ``\mathpalette``/``\mathchoice`` typesets its argument four times, so nesting them
# multiplies by four per level.
MAX_COLUMNS = 64
MAX_AMPLIFY_DEPTH = 6
MAX_BRACE_DEPTH = 60
_AMPLIFIERS = frozenset(
    "sqrt phantom hphantom vphantom pmb boldsymbol bm overrightarrow overleftarrow "
    "xrightarrow xleftarrow".split()
)
_CONTROL_SYMBOLS = frozenset(", ; : ! { } | \\ % # & _ $ >".split(" ") + [" "])
_OPEN_DELIMS = frozenset("( ) [ ] | / . < >".split())
_DELIM_MACROS = frozenset(
    "{ } | langle rangle lvert rvert lVert rVert vert Vert lfloor rfloor lceil rceil "
    "uparrow downarrow backslash".split()
)
_MATH_FUNCTIONS = frozenset("sin cos tan exp log ln max min det tr sup inf lim arg sgn".split())
_WORD_RUN = re.compile(r"[A-Za-z]{2,}(?:[ ,;]+[A-Za-z]{2,})*")
_CONTROL_WORD = re.compile(r"\\([A-Za-z]+)")


def _is_prose_run(run: str) -> bool:
    words = re.findall(r"[A-Za-z]+", run)
    if len(words) >= 2:
        return any(len(w) >= 3 for w in words)
    return len(words) == 1 and len(words[0]) >= 4 and words[0] not in _MATH_FUNCTIONS


class _Math:
    """One pass over a math string, producing safe LaTeX or raising :class:`Unsafe`."""

    def __init__(self, s: str) -> None:
        self.s = " ".join(str(s).split())  # newlines, tabs, blank lines (= \par) -> spaces
        self.i = 0
        self.out: list[str] = []
        self.depth = 0
        self.envs: list[str] = []
        self.lefts: list[int] = [0]  # open \left per brace group
        self.amplified: list[bool] = []  # per open brace group: the argument of an amplifier
        self.amplify_next = False

    def fail(self, why: str) -> NoReturn:
        raise Unsafe(why)

    def peek_token(self) -> str:
        """The next non-space token (a char or a control sequence), without consuming it."""
        j = self.i
        while j < len(self.s) and self.s[j] == " ":
            j += 1
        if j >= len(self.s):
            return ""
        if self.s[j] == "\\":
            m = _CONTROL_WORD.match(self.s, j)
            return m.group(0) if m else self.s[j : j + 2]
        return self.s[j]

    def skip_spaces(self) -> None:
        while self.i < len(self.s) and self.s[self.i] == " ":
            self.i += 1

    def group(self) -> str:
        """Consume a ``{...}`` group (raw content) at the current position."""
        self.skip_spaces()
        if self.i >= len(self.s) or self.s[self.i] != "{":
            self.fail("a command needs a {...} argument")
        depth, j = 0, self.i
        while j < len(self.s):
            c = self.s[j]
            if c == "\\":
                j += 2
                continue
            if c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
                if depth == 0:
                    content = self.s[self.i + 1 : j]
                    self.i = j + 1
                    return content
            j += 1
        self.fail("unbalanced braces")

    def column_spec(self, env: str) -> str:
        """The argument(s) after ``\\begin{array}`` (``[t]`` and a column spec) or
        ``\\begin{alignedat}`` (a count), checked and bounded by :data:`MAX_COLUMNS`."""
        self.skip_spaces()
        pos = ""
        if env == "array" and self.s.startswith("[", self.i):
            m = re.compile(r"\[\s*([tcb])\s*\]").match(self.s, self.i)
            if not m:
                self.fail("array position must be [t], [c] or [b]")
            pos, self.i = "[%s]" % m.group(1), m.end()
        raw = self.group().replace(" ", "")
        if env == "alignedat":
            if not raw.isdigit() or not 0 < int(raw) <= MAX_COLUMNS:
                self.fail(f"alignedat needs a column count from 1 to {MAX_COLUMNS}")
            return "{%s}" % raw
        if _count_columns(raw, self) > MAX_COLUMNS:
            self.fail(f"array with more than {MAX_COLUMNS} columns")
        return "%s{%s}" % (pos, raw)

    def check_delimiter(self, macro: str) -> None:
        tok = self.peek_token()
        if tok in _OPEN_DELIMS:
            return
        if tok.startswith("\\") and tok[1:] in _DELIM_MACROS:
            return
        self.fail(f"\\{macro} without a delimiter")

    def control_word(self, name: str) -> None:
        if name in ("begin", "end"):
            env = self.group()
            if env not in _ENVIRONMENTS:
                self.fail(f"environment {env!r} is not allowed")
            if name == "begin":
                self.envs.append(env)
                self.lefts.append(0)
                if env in ("array", "alignedat"):
                    self.out.append("\\begin{%s}%s" % (env, self.column_spec(env)))
                    return
            else:
                if not self.envs or self.envs.pop() != env:
                    self.fail(f"\\end{{{env}}} does not match")
                if self.lefts.pop() != 0:
                    self.fail("\\left without \\right")
            self.out.append("\\%s{%s}" % (name, env))
            return
        if name in _TEXT_ARG:
            content = self.group()
            self.out.append(r"{\text{%s}}" % escape_text(content))
            return
        if name in _RENAMED:
            name = _RENAMED[name]
        if name in _SIZERS:
            if name == "left":
                self.lefts[-1] += 1
            elif name == "right":
                self.lefts[-1] -= 1
                if self.lefts[-1] < 0:
                    self.fail("\\right without \\left")
            elif name == "middle" and self.lefts[-1] <= 0:
                self.fail("\\middle outside \\left...\\right")
            self.check_delimiter(name)
            self.out.append("\\" + name + " ")
            return
        if name in ALLOWED_MACROS:
            self.amplify_next = name in _AMPLIFIERS
            self.out.append("\\" + name + " ")
        elif name in DANGEROUS:
            self.out.append(r"{\vfblocked{%s}}" % name)
        else:
            self.out.append(r"{\operatorname{%s}}" % name)

    def run(self) -> str:
        s = self.s
        if "^^" in s:
            self.fail("^^ character codes are not allowed")
        while self.i < len(s):
            c = s[self.i]
            if c == "\\":
                m = _CONTROL_WORD.match(s, self.i)
                if m:
                    self.i = m.end()
                    self.control_word(m.group(1))
                    continue
                if self.i + 1 >= len(s):
                    self.fail("a lone backslash at the end")
                sym = s[self.i + 1]
                self.i += 2
                if sym == "\\":
                    self.out.append(r"\\" if self.envs else r"\quad ")
                elif sym in _CONTROL_SYMBOLS:
                    self.out.append("\\" + sym)
                else:
                    self.out.append(escape_text("\\" + sym))  # \' \^ ... are text accents
                continue
            if c == "{":
                self.depth += 1
                self.lefts.append(0)
                self.amplified.append(self.amplify_next)
                self.amplify_next = False
                if self.depth > MAX_BRACE_DEPTH:
                    self.fail(f"braces nested more than {MAX_BRACE_DEPTH} deep")
                if sum(self.amplified) > MAX_AMPLIFY_DEPTH:
                    self.fail(f"more than {MAX_AMPLIFY_DEPTH} nested \\sqrt/\\phantom-like macros")
                self.out.append("{")
            elif c == "}":
                self.depth -= 1
                if self.depth < 0:
                    self.fail("unbalanced braces")
                self.amplified.pop()
                if self.lefts.pop() != 0:
                    self.fail("\\left without \\right")
                self.out.append("}")
            elif c in "%#":
                self.out.append("\\" + c)
            elif c == "$":
                self.fail("$ inside math")
            elif c == "&":
                self.out.append("&" if self.envs else r"\;")
            elif c in "^_":
                nxt = self.peek_token_after(self.i + 1)
                if nxt in ("", "}", "^", "_", "&") or nxt == "\\\\":
                    self.fail(f"{c} without an argument")
                self.out.append(c)
            elif c.isascii() and c.isalpha():
                m = _WORD_RUN.match(s, self.i)
                before = s[: self.i].rstrip()
                prev = s[self.i - 1] if self.i else " "
                ok_before = not before or (
                    before[-1] not in "{^_\\" and not re.search(r"\\[A-Za-z]+$", before)
                )
                if m and not prev.isalpha() and ok_before and _is_prose_run(m.group(0)):
                    self.out.append(r"\;\text{%s}\;" % escape_text(m.group(0)))
                    self.i = m.end()
                    continue
                self.out.append(c)
            elif not c.isascii():
                if c in _UNICODE_MATH:
                    self.out.append(_UNICODE_MATH[c] + " ")
                else:
                    self.out.append(r"\text{%s}" % escape_text(c))
            elif ord(c) < 32 or ord(c) == 127:
                pass
            else:
                self.out.append(c)
            self.i += 1
        if self.depth != 0:
            self.fail("unbalanced braces")
        if self.envs:
            self.fail(f"\\begin{{{self.envs[-1]}}} without \\end")
        if self.lefts != [0]:
            self.fail("\\left without \\right")
        return "".join(self.out).strip()

    def peek_token_after(self, j: int) -> str:
        save = self.i
        self.i = j
        try:
            return self.peek_token()
        finally:
            self.i = save


def _count_columns(spec: str, m: _Math) -> int:
    """Columns of an array spec made of ``l``, ``c``, ``r``, ``|`` and ``*{n}{spec}``."""
    n, i = 0, 0
    while i < len(spec):
        c = spec[i]
        if c in "lcr":
            n += 1
        elif c == "|":
            pass
        elif c == "*":
            rep = re.compile(r"\*\{(\d{1,6})\}\{").match(spec, i)
            if not rep:
                m.fail("array spec: * needs {count}{columns}")
            depth, j = 1, rep.end()
            while j < len(spec) and depth:
                depth += {"{": 1, "}": -1}.get(spec[j], 0)
                j += 1
            if depth:
                m.fail("array spec: unbalanced braces")
            n += int(rep.group(1)) * _count_columns(spec[rep.end() : j - 1], m)
            if n > MAX_COLUMNS:
                return n
            i = j
            continue
        else:
            m.fail(f"array spec: {c!r} is not allowed (only l, c, r, | and *{{n}}{{...}})")
        i += 1
    return n


def sanitize_math(s: object) -> Tex:
    """Safe LaTeX for the math-mode content ``s`` (without the ``$`` delimiters).

    Raises :class:`Unsafe` when ``s`` cannot be made safe *as math* (unbalanced braces or
    environments, ``^^`` codes, a ``$`` inside); callers then show it as text.
    """
    return Tex(_Math(str(s)).run())


def math_inline(s: object) -> Tex:
    """``$...$`` around sanitized math, or the raw string as text when it is not math."""
    try:
        return Tex("$%s$" % sanitize_math(s))
    except Unsafe:
        return as_text(s)


def math_display(s: object) -> Tex:
    """A displayed formula that fits the line (it breaks or shrinks when too wide)."""
    try:
        return Tex(r"\vfdisplay{%s}" % sanitize_math(s))
    except Unsafe:
        return Tex(r"\vfdisplaytext{%s}" % as_text(s))


_DOLLAR = re.compile(r"(?<!\\)\$\$?")
# Inside prose: a few text macros with a plain argument, and escaped special characters.
_PROSE_MACRO = re.compile(r"\\(emph|textbf|textit|texttt|textsc)\{([^{}\\$]*)\}|\\([%&_#{}])")


def _prose(s: str) -> Tex:
    """Escaped text keeping ``\\emph{..}``-style markup and ``\\%``-style literals, its ASCII
    math (``sum_i r_i = 0``) typeset."""
    out: list[str] = []
    pos = 0
    for m in _PROSE_MACRO.finditer(s):
        out.append(text_with_ascii_math(s[pos : m.start()]))
        if m.group(1):
            out.append("\\%s{%s}" % (m.group(1), escape_text(m.group(2))))
        else:
            out.append(escape_text(m.group(3)))
        pos = m.end()
    out.append(text_with_ascii_math(s[pos:]))
    return Tex("".join(out))


def text_with_ascii_math(s: str, plain: Callable[[str], str] = escape_text) -> Tex:
    """Text with each span :func:`verify.report.asciimath.spans` finds as math, the rest
    given to ``plain`` (escaped text by default)."""
    out: list[str] = []
    pos = 0
    for start, end, latex in asciimath.spans(s):
        try:
            math = sanitize_math(latex)
        except Unsafe:
            continue
        out.append(plain(s[pos:start]))
        out.append("$%s$" % math)
        pos = end
    out.append(plain(s[pos:]))
    return Tex("".join(out))


def text_with_math(s: object) -> Tex:
    """Text with ``$...$`` math: text escaped, each math segment sanitized.

    An odd number of unescaped ``$`` means the string is not meant as LaTeX: all escaped.
    """
    s = "" if s is None else str(s)
    parts = _DOLLAR.split(s)
    if len(parts) % 2 == 0:
        return _prose(s)
    out = []
    for k, part in enumerate(parts):
        if k % 2 == 0:
            out.append(_prose(part.replace(r"\$", "$")))
        else:
            out.append(math_inline(part))
    return Tex("".join(out))


def _is_prose(s: str) -> bool:
    """Plain prose (no macro, at least three words), or nothing that looks like math."""
    if "\\" in s:
        return False
    if len(re.findall(r"[A-Za-z]{3,}", s)) >= 3:
        return True
    return not re.search(r"[\^_=]", s)


def statement(s: object) -> Tex:
    """A claim's statement as displayed: prose with ``$..$`` math, or a displayed formula."""
    s = "" if s is None else str(s).strip()
    if not s:
        return Tex(r"\emph{(no statement recorded)}")
    if "$" in s:
        return Tex(r"\vfprose{%s}" % text_with_math(s))
    if _is_prose(s):
        return Tex(r"\vfprose{%s}" % _prose(s))
    words = _mostly_text(s)
    if words is not None:  # a sentence written as \text{...} pieces: prose that wraps
        return Tex(r"\vfprose{%s}" % text_with_math(words))
    return math_display(s)


_TEXT_PIECE = re.compile(r"\\(?:text|textrm|mathrm)\{([^{}$]*)\}")


def _mostly_text(s: str) -> str | None:
    """A math string that is a sentence in ``\\text{}`` pieces (half of it words, or a piece
    too long for a line: math cannot break inside one), as prose with ``$..$`` math between
    the pieces; ``None`` for a formula."""
    pieces = _TEXT_PIECE.split(s)
    text = "".join(pieces[1::2])
    longest = max((len(p) for p in pieces[1::2]), default=0)
    if "$" in s or len(text) < 40 or (len(text) < 0.5 * len(s) and longest < 45):
        return None  # a formula with a few words: set as math
    out = []
    for k, piece in enumerate(pieces):
        if k % 2:
            out.append(piece)
        else:
            space = " " if re.search(r"\\[ ,;:]\s*$|\s$", piece) else ""
            lead = " " if re.match(r"^\s*\\[ ,;:]|^\s", piece) else ""
            piece = _EDGE_SPACE.sub("", piece)
            if not piece:
                out.append(lead or space)
                continue
            if not re.search(r"[A-Za-z0-9\\]", piece):  # punctuation between words
                out.append(piece + space)
                continue
            if re.search(r"\\(?:text|mbox)", piece):
                return None  # a \text{} this reading could not take apart
            try:
                sanitize_math(piece)
            except Unsafe:
                return None
            out.append("%s$%s$%s" % (lead, piece, space))
    return "".join(out)


_EDGE_SPACE = re.compile(r"^(?:\s|\\[ ,;:!]|\\q?quad)+|(?:\s|\\[ ,;:!]|\\q?quad|\\)+$")


def step(s: object) -> Tex:
    """One step of a proof or a certificate: LaTeX math, prose with ``$..$``, or text.

    Math steps are set flush left (a chain of steps reads down the left margin) and may
    break at top-level relations and operators when too long for the line.
    """
    s = "" if s is None else str(s).strip()
    if "$" in s:
        return Tex(r"\vfprose{%s}" % text_with_math(s))
    if _is_prose(s):
        return Tex(r"\vfprose{%s}" % _prose(s))
    try:
        return Tex(r"\vfstepmath{%s}" % sanitize_math(s))
    except Unsafe:
        return Tex(r"\vfprose{%s}" % as_text(s))

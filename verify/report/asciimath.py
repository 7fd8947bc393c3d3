"""ASCII math inside prose, found and typeset: ``sum_i r_i = 0``, ``O(tau^-2)``, ``(y - f)^2``.

The checks write their summaries in ASCII (``mean_k (N tau O_k/kappa - g_k)^2``,
``||R(tau)||_2``, ``|det A|^-1``, ``span{phi_k}``, ``theta = 0``); a referee's report prints
them as math. The rule:

* a *seed* starts a span: a letter with scripts (``W_o^T``, ``s_bar``, ``tau_0``, ``sum_i``,
  ``sup_{tau >= tau_0}``), a lowercase Greek letter's name standing alone (``theta``), or a
  script after a closing bracket or a bar (``(..)^2``, ``[..]^T``, ``|A|^-1``, ``||x||_2``),
  which takes the whole balanced group;
* a span grows to the brackets around it (with a function name before them: ``g(..)``,
  ``pi(..)``, ``O(..)``, ``span{..}``) while what it then holds is still all math;
* a span is typeset only when :func:`expression` reads *every* word of it as math: a
  letter, a Greek letter's name, an operator or function name, a letter with short scripts.
  One identifier's word (``worst_in_eps``, ``std_paper``, ``x_range``) makes it text.

A seed never starts inside a word, after a ``.`` (claim ids: ``nfa.exp.table1_x``) or a
backslash, and never in a path (``numerics/nfa/x_1.py``); what :func:`expression` returns
is sanitized by the caller like any math (:func:`verify.report.latex.sanitize_math`).
"""

# ruff: noqa: UP031 - %-formatting keeps LaTeX's braces readable (no {{ }} doubling)

from __future__ import annotations

import re

__all__ = ["GREEK", "expression", "greek", "spans"]

GREEK = frozenset(
    "alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda mu "
    "nu xi pi rho sigma tau upsilon phi varphi chi psi omega Gamma Delta Theta Lambda Xi Pi "
    "Sigma Upsilon Phi Psi Omega".split()
)
#: Operator and function names, as LaTeX (``mean_k`` -> ``\operatorname{mean}_k``).
OPERATORS = {
    **{n: "\\" + n for n in "sum prod max min sup inf lim log ln exp sin cos tan sinh cosh "
       "tanh det arg".split()},
    **{n: r"\operatorname{%s}" % n for n in "mean var cov tr Tr span diag rank sign softmax "
       "Softmax vec eig Re Im conj".split()},
    "argmax": r"\operatorname{arg\,max}",
    "argmin": r"\operatorname{arg\,min}",
}
#: Two- and three-letter words that are words, not a product of letters (``gx``, ``PLP``).
_NOT_PRODUCTS = frozenset(
    "in of is to at on or if be as by an so no it we do up us me my he vs ok am go eq id ie "
    "eg NOT AND THE FOR ALL ANY ONE TWO YES MSE SGD ODE PDE MLP ECA CPU GPU RNN CNN OOD SDP "
    "LP KL PE MC".split()
)
#: Decorations written as a subscript word: ``x_bar`` -> ``\bar{x}``.
DECORATIONS = {"bar": r"\bar", "hat": r"\hat", "tilde": r"\tilde", "dot": r"\dot"}
_RELATIONS = {"<=": r"\le ", ">=": r"\ge ", "!=": r"\ne ", "->": r"\to ", "==": "=",
              "||": r"\|", "{": r"\{", "}": r"\}"}
_OPEN, _CLOSE = "([{", ")]}"
_MATCH = dict(zip(_CLOSE, _OPEN, strict=True))
#: The longest span typeset as one formula; a longer one is left as text.
MAX_SPAN = 200
#: The longest ``sqrt(..)`` argument set under a root sign; a longer one is ``(..)^{1/2}``,
#: which may break across lines in a narrow table column.
SHORT_ROOT = 16


class _NotMath(Exception):
    """A word or sign that is not math: the text stays text."""


def greek(name: str) -> str:
    """``tau`` -> ``\\tau``; any other name unchanged."""
    return "\\" + name + " " if name in GREEK else name


def expression(s: str) -> str | None:
    """LaTeX of an ASCII-math expression, or ``None`` when any of it is not math.

    ``mean_k (N tau O_k/kappa - g_k)^2`` -> ``\\operatorname{mean}_{k} (N \\tau  O_{k}/...)^{2}``;
    ``sum of x_i`` -> ``None`` (``of`` is a word), ``worst_in_eps`` -> ``None``."""
    if not s.strip() or len(s) > MAX_SPAN:
        return None
    reader = _Reader(s)
    try:
        out = reader.sequence(None)
    except _NotMath:
        return None
    return " ".join(out.split())


class _Reader:
    """One left-to-right pass over an expression; raises :class:`_NotMath` on a non-math part."""

    _SPACE = re.compile(r"\s+")
    _NUMBER = re.compile(r"\d+(?:\.\d+)?(?![\d_])")  # 2N: a number times N
    _WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*'*")
    _SIGN = re.compile(r"\*\*|<=|>=|!=|->|==|\|\||[-+*/=<>,;:!|']")
    _SCRIPT_WORD = re.compile(r"-?[A-Za-z0-9]+|[*+]")
    #: A word's scripts hold a power: ``std_paper^2``, ``A^adv_ij``, ``x^2``.
    _POWERED = re.compile(r"(?:_(?:\{[^{}]*\}|\([^()]*\)|[A-Za-z0-9]+))*\^")

    def __init__(self, s: str) -> None:
        self.s = s
        self.i = 0

    def sequence(self, close: str | None) -> str:
        """Atoms up to ``close`` (not consumed) or the end."""
        parts: list[str] = []
        while self.i < len(self.s):
            c = self.s[self.i]
            if c == close:
                return "".join(parts)
            if c in _CLOSE:
                raise _NotMath("unbalanced bracket")
            parts.append(self.atom())
        if close is not None:
            raise _NotMath("unclosed bracket")
        return "".join(parts)

    def atom(self) -> str:
        s, i = self.s, self.i
        if m := self._SPACE.match(s, i):
            self.i = m.end()
            return " "
        if m := self._NUMBER.match(s, i):
            self.i = m.end()
            return m.group() + self.scripts()
        if m := self._WORD.match(s, i):
            self.i = m.end()
            return self.word(m.group())
        if s[i] in _OPEN:
            return self.group() + self.scripts()
        if m := self._SIGN.match(s, i):
            self.i = m.end()
            sign = m.group()
            if sign == "**":
                raise _NotMath("Python power")
            out = _RELATIONS.get(sign, r"\cdot " if sign == "*" else sign)
            return out + (self.scripts() if sign in ("|", "||") else "")
        raise _NotMath(f"not math: {s[i]!r}")

    def word(self, w: str) -> str:
        """A letter, a Greek name, an operator, a short product of letters (``gx``, ``PLP``):
        with its decoration and scripts. A longer word is math only as the base of a power
        (``std_paper^2``: no identifier has a ``^``)."""
        base = w.rstrip("'")
        primes = w[len(base):]
        if self.s.startswith("_", self.i):
            deco = re.match(r"_(bar|hat|tilde|dot)(?![A-Za-z0-9])", self.s[self.i:])
            if deco and (base in GREEK or re.fullmatch(r"[A-Za-z]", base)):
                self.i += deco.end()
                return r"%s{%s}" % (DECORATIONS[deco.group(1)], greek(base).strip()) + (
                    primes + self.scripts())
        if base == "sqrt" and self.s.startswith("(", self.i):
            start = self.i + 1
            self.i = start
            inner = self.sequence(")")
            self.i += 1
            if self.i - start > SHORT_ROOT:  # a root box cannot break across lines
                return r"(%s)^{1/2}" % inner + self.scripts()
            return r"\sqrt{%s}" % inner + self.scripts()
        if wedge := re.match(r"\^(d[A-Za-z])(?![A-Za-z0-9])", self.s[self.i:]):
            if re.fullmatch(r"d[A-Za-z]", base):  # dq^dp: a wedge of two differentials
                self.i += wedge.end()
                return r"%s \wedge %s" % (base, wedge.group(1))
        powered = bool(self._POWERED.match(self.s, self.i))
        decorated = re.fullmatch(r"([A-Za-z])(bar|hat|tilde)", base)
        numbered = re.fullmatch(r"([A-Za-z]+?)(\d+)", base)
        if base in GREEK:
            tex = greek(base)
        elif numbered and numbered.group(1) in GREEK:  # mu1: mu with index 1
            tex = greek(numbered.group(1)) + "_{%s}" % numbered.group(2)
        elif re.fullmatch(r"[A-Za-z]\d*", base):
            tex = base
        elif base == "inf" and not self.s.startswith("_", self.i):
            tex = r"\infty "
        elif base in OPERATORS:
            tex = OPERATORS[base] + " "
        elif decorated:  # ubar: u with a bar
            tex = r"%s{%s}" % (DECORATIONS[decorated.group(2)], decorated.group(1))
        elif re.fullmatch(r"[A-Za-z]{2}|[A-Z]{3}", base) and base not in _NOT_PRODUCTS and (
                base.lower() not in _NOT_PRODUCTS):
            tex = base
        elif powered and re.fullmatch(r"[A-Za-z]{2,12}", base):
            tex = r"\mathrm{%s}" % base
        else:
            raise _NotMath(f"a word: {base}")
        return tex + primes + self.scripts(words=powered)

    def group(self) -> str:
        """A bracketed group: ``(..)``, ``[..]``, or ``{..}`` printed as a set's braces."""
        opener = self.s[self.i]
        close = _CLOSE[_OPEN.index(opener)]
        self.i += 1
        inner = self.sequence(close)
        self.i += 1
        if opener == "{":
            return r"\{%s\}" % inner
        return opener + inner + close

    def scripts(self, words: bool = False) -> str:
        """``_i``, ``^-2``, ``^T``, ``^*``, ``_{tau >= tau_0}``, ``^(h)`` after an atom;
        ``x_i_j`` is one subscript ``i,j``. A script that is a word (``_range``) is an
        identifier's, unless ``words`` (the atom is raised to a power: ``A^adv_ij``)."""
        found: list[tuple[str, list[str]]] = []
        while self.i < len(self.s) and self.s[self.i] in "_^":
            kind = self.s[self.i]
            self.i += 1
            if self.i < len(self.s) and self.s[self.i] in "({":
                close = ")" if self.s[self.i] == "(" else "}"
                self.i += 1
                body = self.sequence(close)
                self.i += 1
            elif m := self._SCRIPT_WORD.match(self.s, self.i):
                self.i = m.end()
                body = self.script_word(kind, m.group(), words)
            else:
                raise _NotMath("an empty script")
            if found and found[-1][0] == kind:
                found[-1][1].append(body)
            else:
                found.append((kind, [body]))
        if len({k for k, _ in found}) < len(found):
            raise _NotMath("x_i^2_j: scripts out of order")
        return "".join("%s{%s}" % (k, ",".join(b.strip() for b in bodies)) for k, bodies in found)

    @staticmethod
    def script_word(kind: str, body: str, words: bool) -> str:
        if kind == "^" and body == "T":
            return r"\top"
        if body in GREEK:
            return greek(body)
        if len(body) > 12:
            raise _NotMath(f"a long script: {body}")
        if re.search(r"[A-Za-z]{3,}", body):
            if not words or not body.isalpha():  # k_max, x_range: an identifier's word
                raise _NotMath(f"a word in a script: {body}")
            return r"\mathrm{%s}" % body
        return body


# -- where math starts in a text --------------------------------------------------------------
_BOUNDARY = r"(?<![\w.\\$/~'])"
_SCRIPT_BODY = r"(?:\{[^{}$\n]*\}|\([^()$\n]*\)|-?[A-Za-z0-9]+|[*+])"
_SEED = re.compile(
    _BOUNDARY + r"(?P<word>(?:\d+(?:\.\d+)?|\d*[A-Za-z][A-Za-z0-9]*)(?:[_^]" + _SCRIPT_BODY
    + r")+)(?:(?<=[*+])|(?![\w]))"
    + "|" + _BOUNDARY + r"(?<![A-Za-z]-)(?P<greek>(?:%s))(?![\w]|-[A-Za-z])" % "|".join(
        sorted((g for g in GREEK if g.islower()), key=len, reverse=True))
    + r"|(?P<close>[)\]}])(?=[_^])"
    + r"|(?P<bar>\|\|?)(?=[_^])"
)
_TRAILING_SCRIPTS = re.compile(r"(?:[_^]" + _SCRIPT_BODY + r")*")
#: A function's name, a scripted letter (``phi_k``), a factor (``2i``) or a base (``e^``)
#: right before a bracket or a bar.
_PREFIX = re.compile(
    r"(?<![\w.\\$/~'])\d*[A-Za-z][A-Za-z0-9]*(?:[_^]" + _SCRIPT_BODY + r")*[_^]?$")
#: A whitespace-delimited chunk holding this is a path or a file name: never math.
_PATH = re.compile(r"[A-Za-z]{2}/[A-Za-z]{2}|\.(?:py|jsonl?|tex|pdf|md|txt)\b")


def spans(text: str) -> list[tuple[int, int, str]]:
    """The ASCII-math spans of ``text`` as ``(start, end, latex)``, left to right, disjoint;
    spans that touch are one."""
    protected = [(m.start(), m.end()) for m in re.finditer(r"\S+", text)
                 if _PATH.search(m.group())]
    found: list[tuple[int, int, str]] = []
    for m in _SEED.finditer(text):
        if found and m.start() < found[-1][1]:
            continue  # inside a span already typeset
        if any(a <= m.start() < b for a, b in protected):
            continue
        start = _seed_start(text, m)
        if start is None:
            continue
        end = _trailing_scripts_end(text, m.end())
        start = _with_prefix(text, start, m)
        latex = expression(text[start:end])
        if latex is None:
            continue
        if _glued(text, start):
            continue  # an identifier's call or index: my_fn(x_1)
        grown = _grown(text, start, end, latex)
        if grown is None:
            continue
        start, end, latex = grown
        while found and found[-1][0] >= start:  # swallowed by this wider span
            found.pop()
        if found and found[-1][1] > start:
            continue
        found.append((start, end, latex))
    return _joined(text, found)


def _trailing_scripts_end(text: str, pos: int) -> int:
    m = _TRAILING_SCRIPTS.match(text, pos)
    return m.end() if m else pos


def _seed_start(text: str, m: re.Match[str]) -> int | None:
    """Where a seed's span starts: the seed itself, or the opening bracket or bar of the
    group a script follows."""
    if m.group("close"):
        return _opener(text, m.start())
    if m.group("bar"):
        bar = m.group("bar")
        j = text.rfind(bar, max(0, m.start() - MAX_SPAN), m.start())
        if j < 0 or (bar == "|" and j > 0 and text[j - 1] == "|"):
            return None
        return j
    return m.start()


def _opener(text: str, close_at: int) -> int | None:
    """The index of the bracket that the one at ``close_at`` closes, or ``None``."""
    stack: list[str] = []
    for j in range(close_at, max(-1, close_at - MAX_SPAN), -1):
        c = text[j]
        if c in _CLOSE:
            stack.append(c)
        elif c in _OPEN:
            if not stack or _MATCH[stack.pop()] != c:
                return None
            if not stack:
                return j
    return None


def _with_prefix(text: str, start: int, m: re.Match[str]) -> int:
    """A group's start moved back over the function name or factor before it (``g(``,
    ``sqrt(``, ``e^(``, ``2i|x|^2``)."""
    if not (m.group("close") or m.group("bar")):
        return start
    p = _PREFIX.search(text, max(0, start - 80), start)
    return p.start() if p else start


def _grown(text: str, start: int, end: int, latex: str) -> tuple[int, int, str] | None:
    """The span grown to each bracket pair around it while it stays all math; ``None`` when
    a bracket around it belongs to an identifier (``gda_grad_prop[dW_O, db_O]``): code."""
    while True:
        opener = _enclosing_opener(text, start)
        if opener is None:
            return start, end, latex
        closer = _closer(text, opener)
        if closer is None or closer < end:
            return start, end, latex
        new_end = _trailing_scripts_end(text, closer + 1)
        p = _PREFIX.search(text, max(0, opener - 80), opener)
        new_start = p.start() if p else opener
        new_latex = expression(text[new_start:new_end])
        if new_latex is None or _glued(text, new_start):
            return None if _glued(text, new_start) or (p and "_" in p.group()) else (
                start, end, latex)
        start, end, latex = new_start, new_end, new_latex


def _glued(text: str, start: int) -> bool:
    """Whether a span starting at ``start`` would continue a word, an id or a path."""
    return start > 0 and re.match(r"[\w.\\$~']", text[start - 1]) is not None


def _enclosing_opener(text: str, start: int) -> int | None:
    depth = 0
    for j in range(start - 1, max(-1, start - MAX_SPAN), -1):
        c = text[j]
        if c in _CLOSE:
            depth += 1
        elif c in _OPEN:
            if depth == 0:
                return j
            depth -= 1
    return None


def _closer(text: str, opener: int) -> int | None:
    want, depth = _CLOSE[_OPEN.index(text[opener])], 0
    for j in range(opener, min(len(text), opener + MAX_SPAN)):
        c = text[j]
        if c in _OPEN:
            depth += 1
        elif c in _CLOSE:
            depth -= 1
            if depth == 0:
                return j if c == want else None
    return None


def _joined(text: str, found: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """Spans that touch (``phi_k`` then ``(x_i)``) as one: ``$a$$b$`` would open display math."""
    out: list[tuple[int, int, str]] = []
    for a, b, latex in found:
        if out and out[-1][1] == a:
            out[-1] = (out[-1][0], b, out[-1][2] + latex)
        else:
            out.append((a, b, latex))
    return out

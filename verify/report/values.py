"""Values and prose as a referee would print them: no Python repr reaches the page.

Evidence records hold what the checks computed, often as the text Python gave it:
``Matrix([[2/3, 1/3]])``, ``{'a': 1, 'b': 1}``, ``SetTransformer(pool='first')``,
``10000000000.0``, and summaries with ASCII math (``O(T^-2)``, ``W_o^T``, ``sum r_i = 0``).
This module turns each known pattern into typeset LaTeX and escapes everything else:

* a SymPy expression (only numbers, arithmetic, brackets, one-letter symbols and an
  allowlist of SymPy names: no attribute, no other call) is parsed in a namespace holding
  just those names and printed by ``sympy.latex``, then sanitized as any math
  (:func:`verify.report.latex.sanitize_math`);
* a dict repr becomes ``a = 1, b = 1``; an object repr ``Name(k=v)`` becomes
  ``Name (k = v)``; a float with spurious digits gets four significant digits;
* ASCII math inside prose (``sum_i r_i = 0``, ``O(T^-2)``, ``(y - f)^2``, ``theta``) is
  typeset as math by the rule of :mod:`verify.report.asciimath`; anything else, identifiers
  included, stays escaped text.
"""

# ruff: noqa: UP031 - %-formatting keeps LaTeX's braces readable (no {{ }} doubling)

from __future__ import annotations

import ast
import math
import re
from functools import lru_cache

from . import asciimath
from .latex import (
    Tex,
    Unsafe,
    escape_text,
    sanitize_math,
    text_with_ascii_math,
    text_with_math,
)

#: SymPy names a value may use; any other identifier longer than a letter (or a Greek
#: letter's name) makes the string text.
_SYMPY_NAMES = frozenset(
    "Matrix ImmutableMatrix sqrt exp log sin cos tan sinh cosh tanh atan pi E I oo zoo "
    "Rational Integer Float Abs re im conjugate nan".split()
)
_GREEK = asciimath.GREEK
_EXPR_CHARS = re.compile(r"^[\w\s+\-*/().,\[\]]+$")
_IDENT = re.compile(r"[A-Za-z_]\w*")
_SYMPY_HINT = re.compile(r"Matrix\(|sqrt\(|exp\(|\b(?:sin|cos|log)\(|\*\*|\d/\d|\bpi\b|\bI\b|\bE\b")


def _is_sympy_text(s: str) -> bool:
    if len(s) > 2000 or not _EXPR_CHARS.match(s) or "__" in s or not _SYMPY_HINT.search(s):
        return False
    if re.search(r"[A-Za-z_)\]]\s*\.", s):  # attribute access: never
        return False
    for name in _IDENT.findall(s):
        if name not in _SYMPY_NAMES and name not in _GREEK and not re.fullmatch(
            r"[A-Za-z](?:_?\d+)?", name
        ):
            return False
    try:
        tree = ast.parse(s, mode="eval")
    except SyntaxError:
        return False
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and not (
            isinstance(node.func, ast.Name) and node.func.id in _SYMPY_NAMES
        ):
            return False
        if isinstance(node, (ast.Attribute, ast.Lambda, ast.Subscript, ast.keyword)):
            return False
    return True


@lru_cache(maxsize=4096)
def sympy_latex(s: str) -> str | None:
    """LaTeX of a SymPy value printed as text (``Matrix([[2/3, 1/3]])``), or ``None``."""
    s = s.strip()
    if not _is_sympy_text(s):
        return None
    try:
        import sympy
        from sympy.parsing.sympy_parser import parse_expr, standard_transformations

        names = {n: getattr(sympy, n) for n in _SYMPY_NAMES if hasattr(sympy, n)}
        for helper in ("Integer", "Rational", "Float", "Symbol", "Mul", "Add", "Pow"):
            names[helper] = getattr(sympy, helper)  # what parse_expr's rewriting calls
        local = {n: sympy.Symbol(n) for n in _IDENT.findall(s) if n not in names}
        expr = parse_expr(s, local_dict=local, global_dict={"__builtins__": {}, **names},
                          transformations=standard_transformations)
        if isinstance(expr, (list, tuple)):  # a nested list of numbers: a matrix, else text
            nested = all(isinstance(r, (list, tuple)) for r in expr)
            rows = [list(r) for r in expr] if nested else []
            if not rows or len({len(r) for r in rows}) != 1:
                return None
            expr = sympy.Matrix(rows)
        return sympy.latex(expr)
    except Exception:
        return None


def number_text(x: float) -> Tex:
    """A float with sensible digits: four significant, powers of ten as math."""
    if math.isnan(x):
        return Tex("NaN")
    if math.isinf(x):
        return Tex(r"$\infty$" if x > 0 else r"$-\infty$")
    if x == 0:
        return Tex("0")
    if float(x).is_integer() and abs(x) < 1e6:
        return Tex("%d" % int(x))
    if 1e-3 <= abs(x) < 1e5:
        return Tex("%.4g" % x)
    mant, exp = ("%.3e" % x).split("e")
    mant = mant.rstrip("0").rstrip(".")
    if mant in ("1", "-1"):
        return Tex(r"$%s10^{%d}$" % ("-" if mant == "-1" else "", int(exp)))
    return Tex(r"$%s\times10^{%d}$" % (mant, int(exp)))


_DICT_REPR = re.compile(r"\{(\s*'[^'{}]*'\s*:\s*[^{}]*)\}")
_OBJ_REPR = re.compile(r"\b([A-Z][A-Za-z0-9]*)\((\w+)=")
_LONG_FLOAT = re.compile(r"(?<![\w.])(-?\d+\.\d{5,}|-?\d{7,}\.0|-?\d+(?:\.\d+)?e[-+]?\d+)(?![\w.])")


def _dict_repr(m: re.Match[str]) -> str:
    pairs = re.findall(r"'([^']*)'\s*:\s*((?:\([^()]*\)|[^,])+)", m.group(1))
    return "(" + ", ".join(f"{k} = {v.strip()}" for k, v in pairs) + ")" if pairs else (
        m.group(0))


#: The checks' shorthand, in the paper's words (gda's claims compare the paper's updates read
#: on free variables, "view F", and induced by a gradient step on weights, "view P").
_SHORTHAND = (
    (re.compile(r"\bview P\[QK\]"), "the step on W_Q, W_K"),
    (re.compile(r"\bview P\[all\]"), "the step on all weights"),
    (re.compile(r"\bview P\b"), "the step on the weights"),
    (re.compile(r"\bview F\b"), "free s, q, k, v"),
    (re.compile(r"\bpart main\b"), "the claim"),
)


def shorthand(s: str) -> str:
    """The checks' shorthand replaced by the paper's words."""
    for pattern, words in _SHORTHAND:
        s = pattern.sub(words, s)
    return s


def unrepr(s: str) -> str:
    """Python reprs inside a text, as words: ``{'a': 1}`` -> ``a = 1``,
    ``SetTransformer(pool='first')`` -> ``SetTransformer (pool = first)``."""
    for _ in range(8):  # innermost dicts first
        s, n = _DICT_REPR.subn(_dict_repr, s)
        if not n:
            break
    if _OBJ_REPR.search(s):
        s = re.sub(r"(\w+)='([^']*)'", r"\1 = \2", s)
        s = re.sub(r"(?<=[(,\s])(\w+)=(?=[^\s=])", r"\1 = ", s)
        s = re.sub(r"\b([A-Z][A-Za-z0-9]*)\(", r"\1 (", s)
    s = re.sub(r"\bmpmath\((\d+) digits\)", r"mpmath at \1 digits", s)
    s = re.sub(r"\bmpmath-(\d+)\b", r"mpmath at \1 digits", s)
    return s


def ascii_math(token: str) -> str | None:
    """LaTeX of one ASCII-math token with scripts (``W_o^T`` -> ``W_{o}^{\\top}``,
    ``O(T^-2)``, ``mean_k``), or ``None`` when it is an identifier rather than math
    (``worst_case``, ``entries_in_01``; see :mod:`verify.report.asciimath`)."""
    if not re.search(r"[_^]", token):
        return None
    return asciimath.expression(token)


def prose(s: object) -> Tex:
    """Text as a referee prints it: ``$...$`` math kept (sanitized), reprs as words,
    long floats with sensible digits, ASCII math typeset; all else escaped."""
    s = _sympy_in_text(unrepr(shorthand(once("" if s is None else str(s)))))
    if s.count("$") % 2 == 0 and "$" in s:
        parts = re.split(r"((?<!\\)\$[^$]*\$)", s)
        return Tex("".join(text_with_math(p) if p.startswith("$") else _plain(p)
                           for p in parts))
    return _plain(s)


def _sympy_in_text(s: str) -> str:
    """Each ``Matrix(...)`` (brackets balanced) inside a text as ``$LaTeX$``, when the text
    holds no math of its own."""
    if "Matrix(" not in s or "$" in s:
        return s
    out, pos = [], 0
    while (i := s.find("Matrix(", pos)) >= 0:
        depth, j = 0, i + len("Matrix")
        while j < len(s):
            depth += {"(": 1, ")": -1}.get(s[j], 0)
            j += 1
            if depth == 0:
                break
        latex = sympy_latex(s[i:j]) if depth == 0 else None
        out.append(s[pos:i] + (f"${latex}$" if latex else s[i:j]))
        pos = j
    out.append(s[pos:])
    return "".join(out)


def _plain(s: str) -> Tex:
    """Escaped text with its known math typeset; a line may break after a ``/`` in a word."""
    return Tex(_plain_text(s))


def _plain_text(s: str) -> str:
    """Escaped text with its ASCII math typeset and its long floats given sensible digits."""
    return text_with_ascii_math(s, _numbers_text)


def _numbers_text(s: str) -> str:
    """Escaped text whose long floats (``10000000000.0``) have sensible digits."""
    out, pos = [], 0
    for m in _LONG_FLOAT.finditer(s):
        try:
            tex = number_text(float(m.group(0)))
        except ValueError:
            continue
        out.append(_breakable_text(s[pos:m.start()]))
        out.append(tex)
        pos = m.end()
    out.append(_breakable_text(s[pos:]))
    return "".join(out)


def _breakable_text(s: str) -> str:
    """Escaped text in which a line may break after a ``/`` inside a word (not in math)."""
    return re.sub(r"/(?=\w)", r"/\\allowbreak{}", escape_text(s))


def value_text(s: str) -> Tex:
    """A string value of evidence: SymPy as math, else :func:`prose`."""
    latex = sympy_latex(s)
    if latex is not None:
        try:
            return Tex("$%s$" % sanitize_math(latex))
        except Unsafe:
            pass
    return prose(s)


_WORDS = {
    "worst_in_eps": "worst error in units of machine epsilon",
    "violation_searched_dtype": "precision searched",
    "x_range": "range of x",
    "max_err": "largest error",
    "max_rel": "largest relative error",
    "rel_err": "relative error",
    "n_seeds": "seeds",
    "paper_value": "paper's value",
    "lhs": "left-hand side",
    "rhs": "right-hand side",
    "difference": "left minus right",
}


def key_text(key: str) -> Tex:
    """A number's name in words: known internal names translated, ``_`` as spaces; a name
    that is math (``alpha_i``, ``W_o``) typeset."""
    if key in _WORDS:
        return escape_text(_WORDS[key])
    latex = ascii_math(key) if re.fullmatch(r"[A-Za-z]\w{0,6}(?:[_^]\w{1,3})+", key) else None
    if latex is not None:
        try:
            return Tex("$%s$" % sanitize_math(latex))
        except Unsafe:
            pass
    return prose(re.sub(r"(?<=\w)_(?=\w)", " ", key))  # an identifier's words, breakable


def once(s: str) -> str:
    """A text that repeats its own label, said once: ``(a): (a) W_O`` -> ``(a): W_O``,
    ``premise: premise t' <= t-1`` -> ``premise: t' <= t-1``."""
    m = re.match(r"^\s*([^:\n]{1,60}?):\s*(.*)$", s, re.S)
    if not m:
        return s
    rest = without_label(m.group(1), m.group(2))
    return s if rest == m.group(2) else f"{m.group(1)}: {rest}"


def without_label(label: str, text: str) -> str:
    """``text`` without ``label`` repeated at its start (``(a): (a) W_O`` -> ``(a): W_O``)."""
    core = label.strip().rstrip(":").strip()
    t = text.lstrip()
    if core and t.lower().startswith(core.lower()):
        rest = t[len(core):]
        if not rest or not rest[0].isalnum():
            return rest.lstrip(" :").lstrip()
    return text

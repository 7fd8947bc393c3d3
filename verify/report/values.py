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
* ASCII math inside prose (a token with ``_`` or ``^`` scripts, ``O(...)``) is typeset as
  math; anything else stays escaped text.
"""

# ruff: noqa: UP031 - %-formatting keeps LaTeX's braces readable (no {{ }} doubling)

from __future__ import annotations

import ast
import math
import re
from functools import lru_cache

from .latex import Tex, Unsafe, escape_text, sanitize_math, text_with_math

#: SymPy names a value may use; any other identifier longer than a letter (or a Greek
#: letter's name) makes the string text.
_SYMPY_NAMES = frozenset(
    "Matrix ImmutableMatrix sqrt exp log sin cos tan sinh cosh tanh atan pi E I oo zoo "
    "Rational Integer Float Abs re im conjugate nan".split()
)
_GREEK = frozenset(
    "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi pi rho sigma "
    "tau upsilon phi chi psi omega Gamma Delta Theta Lambda Xi Pi Sigma Phi Psi Omega".split()
)
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


# ASCII math in prose: a token with sub/superscripts (W_o^T, r_i, T^-2, x_{ij}), O(...) of one.
_SCRIPTED = re.compile(
    r"(?<![\\\w$])(?:O\((?:[^()$]|\([^()$]*\))*[_^](?:[^()$]|\([^()$]*\))*\)"
    r"|[A-Za-z][A-Za-z0-9]*(?:[_^](?:\{[^{}$]*\}|-?[A-Za-z0-9]+|\([^()$]*\)))+)"
    r"(?![\w$])"
)
_PROSE_WORDS = frozenset("in_eps".split())


_SCRIPT = re.compile(r"([_^])(\{[^{}]*\}|\([^()]*\)|-?[A-Za-z0-9]+)")


def ascii_math(token: str) -> str | None:
    """LaTeX of one ASCII-math token (``W_o^T`` -> ``W_{o}^{\\top}``, ``P0_0_0`` ->
    ``P0_{0,0}``), or ``None`` when it is an identifier rather than math (``worst_case``,
    ``entries_in_01``: a base longer than a letter and digits, unless a Greek letter)."""
    if token.startswith("O("):
        inner = ascii_math_inner(token[2:-1])
        return None if inner is None else "O(%s)" % inner
    return ascii_math_inner(token)


def ascii_math_inner(token: str) -> str | None:
    m = re.match(r"([A-Za-z][A-Za-z0-9]*)", token)
    if not m:
        return None if re.search(r"[_^]", token) else greek(token)
    base = m.group(1)
    if not (re.fullmatch(r"[A-Za-z]\d*", base) or base in _GREEK):
        return None
    scripts: list[tuple[str, list[str]]] = []
    pos = m.end()
    for sm in _SCRIPT.finditer(token, pos):
        if sm.start() != pos:
            return None
        body = sm.group(2)
        if body[:1] in "{(" and body[-1:] in "})":
            body = body[1:-1]
        if len(body) > 12 or re.search(r"[a-z]{3,}", body) and body not in _GREEK:
            return None  # a word in a script: an identifier (value_in_eps), not math
        if sm.group(1) == "^" and body == "T":
            body = r"\top"
        if scripts and scripts[-1][0] == sm.group(1):
            scripts[-1][1].append(body)  # x_i_j: one subscript i, j
        else:
            scripts.append((sm.group(1), [body]))
        pos = sm.end()
    if pos != len(token) or not scripts or len({k for k, _ in scripts}) < len(scripts):
        return None
    out = greek(base)
    for kind, bodies in scripts:
        out += "%s{%s}" % (kind, ",".join(greek(b) for b in bodies))
    return out


def greek(s: str) -> str:
    return re.sub(r"(?<![A-Za-z\\])(" + "|".join(sorted(_GREEK, key=len, reverse=True))
                  + r")(?![A-Za-z])", r"\\\1 ", s).replace(" }", "}").strip()


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
    return Tex(re.sub(r"/(?=\w)", r"/\\allowbreak{}", _plain_text(s)))


def _plain_text(s: str) -> str:
    out, pos = [], 0
    pattern = re.compile(_SCRIPTED.pattern + "|" + _LONG_FLOAT.pattern)
    for m in pattern.finditer(s):
        token = m.group(0)
        tex: Tex | None = None
        if _LONG_FLOAT.fullmatch(token):
            try:
                tex = number_text(float(token))
            except ValueError:
                tex = None
        else:
            latex = ascii_math(token)
            if latex is not None:
                try:
                    tex = Tex("$%s$" % sanitize_math(latex))
                except Unsafe:
                    tex = None
        if tex is None:
            continue
        out.append(escape_text(s[pos:m.start()]))
        out.append(tex)
        pos = m.end()
    out.append(escape_text(s[pos:]))
    return Tex("".join(out))


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

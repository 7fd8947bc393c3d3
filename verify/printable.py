"""Text made safe to print on a terminal: control characters shown as escapes, never sent.

A summary, an exception message, a claim id read from a results file or a ``where=`` of a
claims module can hold terminal escape sequences (clear the screen, set the window title,
write the clipboard) or bidirectional overrides that reorder what is shown. Every field the
command line prints passes through :func:`printable` first: such characters are written as
their Python escapes (``\\x1b``, ``\\u202e``), so the user sees that they are there and the
terminal never obeys them. The data itself (results file, ``--json`` output) is unchanged.
"""

from __future__ import annotations

import re

#: C0 controls but tab and newline, DEL, the C1 controls (``\\x9b`` is a one-byte CSI), and
#: the Unicode marks and overrides that change the direction text is shown in.
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_UNSAFE_ONE_LINE = re.compile("[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _escape(match: re.Match[str]) -> str:
    ch = match.group()
    return f"\\x{ord(ch):02x}" if ord(ch) < 0x100 else f"\\u{ord(ch):04x}"


def printable(text: object, *, one_line: bool = False) -> str:
    """``str(text)`` with every control character written as its escape; ``one_line`` also
    escapes newlines and tabs (for ids and other single-line fields)."""
    pattern = _UNSAFE_ONE_LINE if one_line else _UNSAFE
    return pattern.sub(_escape, str(text))


def json_printable(dumped: str) -> str:
    """JSON text (``json.dumps(..., ensure_ascii=False)``) with the characters
    :func:`printable` escapes written as ``\\uXXXX`` escapes: the same JSON value, safe to
    print. (JSON already escapes the C0 controls; this adds DEL, C1 and the direction marks,
    which can appear only inside strings.)"""
    return _UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", dumped)

"""Untrusted text made safe to print on a terminal.

Responses, error codes and messages built from them are the service's text: a
control character in them (an ANSI escape sequence, a carriage return, a bidi
override) would move the cursor, retitle the terminal or reorder what the reader
sees. `waitable wait` prints such text only through `printable`, which writes
those characters as Python escapes (`\\x1b`, `\\u202e`). `--output json` needs no
help: JSON escapes them itself.
"""

from __future__ import annotations

import unicodedata

__all__ = ["printable"]

#: Unicode categories written as escapes: controls, format characters (bidi
#: overrides, zero-width marks), surrogates, line and paragraph separators.
_ESCAPED = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})


def printable(text: str) -> str:
    """`text` with every control or format character written as its escape."""
    if text.isprintable():  # the usual case: nothing to escape
        return text
    return "".join(
        _escape(char) if unicodedata.category(char) in _ESCAPED else char
        for char in text
    )


_SHORT = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(char: str) -> str:
    if char in _SHORT:
        return _SHORT[char]
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"

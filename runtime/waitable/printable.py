"""Untrusted text made safe to print: every character `str.isprintable` refuses
(controls, ANSI escapes, carriage returns, bidi overrides, zero-width marks, lone
surrogates, line separators) written as its Python escape.

Responses, error codes and messages built from them are the service's text: a
control character in them would move the cursor, retitle the terminal or reorder
what the reader sees. `waitable wait` prints such text only through `printable`;
the generator's diagnostics (`waitable_codegen.errors.safe_text`) and string
literals use the same `code_point_escape`. JSON output needs neither: JSON
escapes such characters itself.
"""

from __future__ import annotations

__all__ = ["code_point_escape", "printable", "shortened"]

_SHORT = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def printable(text: str) -> str:
    """`text` with every character that is not printable written as its escape
    (`\\n`, `\\r`, `\\t`, else `code_point_escape`)."""
    if text.isprintable():  # the usual case: nothing to escape
        return text
    return "".join(
        char if char.isprintable() else _SHORT.get(char) or code_point_escape(char)
        for char in text
    )


def code_point_escape(char: str) -> str:
    """`\\xNN`, `\\uNNNN` or `\\UNNNNNNNN` for one character, as Python writes it."""
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def shortened(text: str, limit: int) -> str:
    """`text` cut to at most `limit` characters, its end marked `...` when cut (a
    message quotes the service's text, never all of it)."""
    return text if len(text) <= limit else text[: limit - 3] + "..."

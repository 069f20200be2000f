"""Model text as Python source: string literals and docstring bodies that only ever
hold the text, whatever quotes, backslashes, braces or unicode it contains.
"""

from __future__ import annotations

_SIMPLE_ESCAPES = {"\\": "\\\\", "\t": "\\t", "\r": "\\r", "\n": "\\n", '"': '\\"'}


def _escape_char(char: str, keep_newlines: bool) -> str:
    if char == "\n" and keep_newlines:
        return char
    if char in _SIMPLE_ESCAPES:
        return _SIMPLE_ESCAPES[char]
    if char.isprintable():
        return char
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def string_literal(text: str) -> str:
    """A double-quoted Python literal whose value is exactly `text`.

    Printable unicode is kept as is (files are UTF-8); everything else (controls,
    separators, lone surrogates) is escaped, so the literal is one line of source.
    """
    return '"' + "".join(_escape_char(char, False) for char in text) + '"'


def docstring_body(text: str) -> str:
    """The source between a docstring's triple quotes whose value is exactly `text`.

    Newlines stay real line breaks and ordinary quotes stay readable; a quote that
    starts the text, ends it or is followed by another quote is written `\\x22`, so
    nothing in `text` can close the string early (and black adds no padding). Backslashes are doubled, and tabs and
    non-printable characters escaped so that black's docstring handling (which
    expands tabs) leaves the value alone. `text` should carry no trailing spaces on
    its lines, as black strips those (see `docs.py`).
    """
    text = "".join("\ufffd" if 0xD800 <= ord(c) <= 0xDFFF else c for c in text)
    out: list[str] = []
    last = len(text) - 1
    for index, char in enumerate(text):
        if char == '"':
            risky = index in (0, last) or text[index + 1] == '"'
            out.append("\\x22" if risky else char)
        else:
            out.append(_escape_char(char, True))
    return "".join(out)


def docstring_literal(text: str, indent: int, line_length: int = 88) -> str:
    """A complete `\"\"\"...\"\"\"` docstring for `text`, laid out as black lays it out.

    Lines after the first are indented by `indent` spaces (the docstring's own
    block), and the closing quotes go on their own line when they would not fit on
    the last one, so black finds nothing to change. `text` must be normalised
    (`docs.normalize`): no trailing spaces, no common indentation.
    """
    lines = docstring_body(text).split("\n")
    prefix = " " * indent
    body = "\n".join([lines[0]] + [prefix + line if line else "" for line in lines[1:]])
    last = len(prefix + lines[-1]) if len(lines) > 1 else 0
    if len(lines) > 1 and last + 3 > line_length:
        return f'"""{body}\n{prefix}"""'
    return f'"""{body}"""'

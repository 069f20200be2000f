"""Long lines of a compiled function split the way black splits them.

The compiler writes one statement per line; a line over 88 columns is split here
into black's layout for the few statement shapes the compiler writes (a guarded
ternary, a comprehension, a call that ends the line). A shape not recognised, or
one whose pieces would still not fit, is left as it is: the renderer sees the long
line and formats that function with black instead (and counts it).
"""

from __future__ import annotations

import re

from ..widths import may_fit

_OPEN = {"(": ")", "[": "]", "{": "}"}
_CLOSE = frozenset(_OPEN.values())
_STRING = re.compile(r'"(?:\\.|[^"\\])*"')
_WORD = re.compile(r'[^ ()\[\]{}",]*')
_ASSIGN = re.compile(r"([A-Za-z_][A-Za-z_0-9]*(?:: [A-Za-z_][A-Za-z_0-9\[\], ]*)? = )")
_OPERATORS = frozenset(
    "if else for and or not == != <= >= < > is in + - * / // % | & ^ ** =".split()
)
_COMPARATORS = frozenset("== != <= >= < > is in".split())
_LOGIC = frozenset(("and", "or"))


def _operators(text: str) -> list[tuple[int, str]] | None:
    """The operators at bracket depth 0 of `text` (a comma counts as one), each
    with the position of the space before it; None when brackets do not match."""
    found: list[tuple[int, str]] = []
    depth = 0
    index = 0
    while index < len(text):
        char = text[index]
        if char == '"':
            match = _STRING.match(text, index)
            if match is None:
                return None
            index = match.end()
            continue
        if char in _OPEN:
            depth += 1
        elif char in _CLOSE:
            depth -= 1
            if depth < 0:
                return None
        elif depth == 0 and char == ",":
            found.append((index, ","))
        elif depth == 0 and char == " ":
            word = _WORD.match(text, index + 1)
            if word is not None and word.group() in _OPERATORS:
                found.append((index, word.group()))
        index += 1
    return found if depth == 0 else None


def _matching_open(text: str) -> int:
    """Where the bracket that closes `text` (its last character) opens, or -1."""
    depth = 0
    index = len(text) - 1
    in_string = False
    while index >= 0:
        char = text[index]
        if char == '"' and (index == 0 or not _escaped_quote(text, index)):
            in_string = not in_string
        elif not in_string:
            if char in _CLOSE:
                depth += 1
            elif char in _OPEN:
                depth -= 1
                if depth == 0:
                    return index
        index -= 1
    return -1


def _escaped_quote(text: str, index: int) -> bool:
    backslashes = 0
    while index - 1 - backslashes >= 0 and text[index - 1 - backslashes] == "\\":
        backslashes += 1
    return backslashes % 2 == 1


def _fits(line: str) -> bool:
    """Not certainly too long (see `widths`): kept whole, or left for black."""
    return may_fit(line)


def _delimiters(text: str) -> list[str] | None:
    """The depth-0 operators of `text`, in order (None: unbalanced)."""
    found = _operators(text)
    return None if found is None else [word for _, word in found]


def _split_at(body: str, words: frozenset[str], weaker_only: bool) -> list[str]:
    """`body` broken before each depth-0 operator in `words` (black's delimiter
    split); [] when there is none, or when `weaker_only` and a stronger kind of
    delimiter (a comma, a comprehension, a ternary) would win instead."""
    found = _operators(body) or []
    kinds = {word for _, word in found}
    if "," in kinds or (weaker_only and kinds & {"for", "if", "else"} - words):
        return []
    cuts = [position for position, word in found if word in words]
    pieces = []
    start = 0
    for cut in cuts:
        pieces.append(body[start:cut])
        start = cut + 1
    if not cuts:
        return []
    return [*pieces, body[start:]]


def _bracket_body(
    indent: str, body: str, words: frozenset[str], weaker_only: bool = True
) -> list[str] | None:
    """The lines of a bracket's content at `indent`: one line when it fits, else
    broken before `words` (each piece must then fit, or None)."""
    if _fits(indent + body):
        return [indent + body]
    pieces = _split_at(body, words, weaker_only)
    lines = [indent + piece for piece in pieces]
    return lines if lines and all(_fits(line) for line in lines) else None


def _exploded(indent: str, items: str) -> list[str] | None:
    """A list or dict display's items one per line, each with a trailing comma: black
    splits a collection it has to split this way, even when the items would fit
    on one line (None when an item does not fit)."""
    found = _operators(items) or []
    cuts = [position for position, word in found if word == ","]
    starts = [0, *(cut + 1 for cut in cuts)]
    ends = [*cuts, len(items)]
    lines = [
        indent + items[start:end].strip(" ") + "," for start, end in zip(starts, ends)
    ]
    return lines if all(_fits(line) for line in lines) else None


def _statement(text: str) -> tuple[str, str, str, bool] | None:
    """(head, expression, tail, optional parentheses?) of one compiled statement."""
    if text.startswith("return "):
        return "return ", text[7:], "", True
    if text.startswith("if ") and text.endswith(":"):
        return "if ", text[3:-1], ":", True
    if text.startswith("for ") and text.endswith(":"):
        target, found, iterable = text[4:-1].partition(" in ")
        if not found or not target.isidentifier():
            return None
        return f"for {target} in ", iterable, ":", False
    match = _ASSIGN.match(text)
    if match:
        return match.group(1), text[match.end() :], "", True
    delimiters = _delimiters(text)
    if delimiters == [] and text.endswith(")") and text[:1].isidentifier():
        return "", text, "", False
    return None


def layout_line(line: str) -> list[str]:
    """`line` as black lays it out: itself when it fits or its shape is not one
    this module knows (the renderer then formats the function with black);
    otherwise the lines of black's split."""
    if _fits(line):
        return [line]
    text = line.lstrip(" ")
    indent = line[: len(line) - len(text)]
    inner = indent + "    "
    parts = _statement(text)
    delimiters = None if parts is None else _delimiters(parts[1])
    if parts is None or delimiters is None:
        return [line]
    head, expression, tail, optional = parts
    body: list[str] | None = None
    if optional and not tail and delimiters.count("if") == 1 and "else" in delimiters:
        opened, closed = indent + head + "(", indent + ")"
        body = _bracket_body(inner, expression, frozenset(("if", "else")))
    elif (
        optional
        and not tail
        and not delimiters
        and expression[:1] in ("[", "{")
        and _matching_open(expression) == 0
        and "else" not in (_delimiters(expression[1:-1]) or ["else"])
    ):  # a list or dict display (or a list comprehension)
        opened = indent + head + expression[0]
        closed = indent + _OPEN[expression[0]]
        if "," in (_delimiters(expression[1:-1]) or []):
            body = _exploded(inner, expression[1:-1])
        else:
            words = frozenset(("for", "if"))
            body = _bracket_body(inner, expression[1:-1], words, weaker_only=False)
    elif (
        optional
        and delimiters == []
        and expression.startswith("not (")
        and _matching_open(expression) == 4
    ):
        opened, closed = indent + head + "not (", indent + ")" + tail
        body = _bracket_body(inner, expression[5:-1], _LOGIC)
    else:
        return _trailing_call(line, indent, parts, delimiters)
    if body is None or not _fits(opened):
        return [line]
    return [opened, *body, closed]


def _trailing_call(
    line: str, indent: str, parts: tuple[str, str, str, bool], delimiters: list[str]
) -> list[str]:
    """`prefix(arguments)` ending the statement: black opens that last bracket
    pair, when the optional parentheses around the expression may be left out
    (one logic or comparison operator, with brackets before the last pair)."""
    head, expression, tail, optional = parts
    start = _matching_open(expression) if expression.endswith(")") else -1
    if start <= 0 or not (
        expression[start - 1].isalnum() or expression[start - 1] == "_"
    ):
        return [line]
    prefix, arguments = expression[:start], expression[start + 1 : -1]
    if not optional and delimiters:
        return [line]
    if optional:
        strongest = [word for word in delimiters if word in _LOGIC] or delimiters
        if len(strongest) != 1 or not set(delimiters) <= _COMPARATORS | _LOGIC:
            return [line]
        if not any(char in _OPEN for char in prefix):
            return [line]
    argument_delimiters = _delimiters(arguments)
    if not arguments or argument_delimiters is None or "," in argument_delimiters:
        if argument_delimiters != [","] or not arguments:
            return [line]
    lines = [
        indent + head + prefix + "(",
        indent + "    " + arguments,
        indent + ")" + tail,
    ]
    return lines if all(_fits(piece) for piece in lines) else [line]


def layout_lines(lines: list[str]) -> list[str]:
    """Every line of a compiled function through `layout_line`."""
    out: list[str] = []
    for line in lines:
        out.extend(layout_line(line))
    return out

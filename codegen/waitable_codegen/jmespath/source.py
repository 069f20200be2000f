"""Python source text for values: literals, docstrings, local names.

String literals come from `waitable_codegen.literals`, as everywhere in the
generator.

Everything here is deterministic (same input, same text), so generated
modules are stable byte for byte.
"""

from __future__ import annotations

import keyword
import math
import re
from typing import Any

from ..literals import string_literal


def _escape_char(char: str) -> str:
    """The escape sequence for one character, lower-case hex as black writes.

    Python's own ``unicode_escape`` codec, with ``\\xNN`` for the printable
    ASCII characters it leaves alone.
    """
    escaped = char.encode("unicode_escape").decode("ascii")
    return escaped if escaped != char else f"\\x{ord(char):02x}"


def docstring(text: str) -> str:
    """A one-line triple-quoted docstring whose value is exactly ``text``.

    Black strips a docstring's surrounding whitespace and pads a leading or
    trailing quote, so those characters (and anything unprintable, and any
    ``"`` next to another ``"``) are written as escapes; everything else is
    left as is so the expression stays readable.
    """
    out = []
    last = len(text) - 1
    lead = len(text) - len(text.lstrip())
    trail = len(text) - len(text.rstrip())
    for position, char in enumerate(text):
        at_edge = position < lead or position > last - trail
        if char == "\\":
            out.append("\\\\")
        elif char == '"':
            near_quote = (position > 0 and text[position - 1] == '"') or (
                position < last and text[position + 1] == '"'
            )
            edge = position in (0, last)
            out.append("\\x22" if near_quote or edge else '"')
        elif at_edge or not char.isprintable():
            out.append(_escape_char(char))
        else:
            out.append(char)
    return '"""' + "".join(out) + '"""'


def float_literal(value: float) -> str:
    """The literal of a finite float as black writes it: `repr`, but for the `+`
    of a positive exponent, which black drops (`1e+16` is written `1e16`)."""
    return repr(value).replace("e+", "e")


def literal(value: Any) -> str:
    """Python source that builds the JSON ``value`` (a fresh object each time)."""
    if value is None or value is True or value is False:
        return repr(value)
    if isinstance(value, int):
        return repr(value)
    if isinstance(value, float):
        if math.isnan(value):
            return 'float("nan")'
        if math.isinf(value):
            return 'float("inf")' if value > 0 else '-float("inf")'
        return float_literal(value)
    if isinstance(value, str):
        return string_literal(value)
    if isinstance(value, list):
        return "[" + ", ".join(literal(item) for item in value) + "]"
    if isinstance(value, dict):
        items = ", ".join(
            f"{string_literal(str(key))}: {literal(item)}"
            for key, item in value.items()
        )
        return "{" + items + "}"
    raise TypeError(f"not a JSON value: {value!r}")


_BUILTINS = """
abs aiter all anext any ascii bin bool breakpoint bytearray bytes callable chr
classmethod compile complex copyright credits delattr dict dir divmod enumerate
eval exec exit filter float format frozenset getattr globals hasattr hash help
hex id input int isinstance issubclass iter len license list locals map max
memoryview min next object oct open ord pow print property quit range repr
reversed round set setattr slice sorted staticmethod str sum super tuple type
vars zip
""".split()
"""Python 3.11's lower-case built-in names, written out so that the names the
generator picks do not change with the Python version it runs on."""

_RESERVED = frozenset(keyword.kwlist) | {"match", "case", "_"} | frozenset(_BUILTINS)
_RESERVED |= {"value", "Any", "_jp"}


# Where snake_name puts an underscore, as zero-width matches: a capital after a
# lower-case letter or digit, and the last capital of a run before a lower-case
# letter. Fixed-width lookarounds: one step per position, never a backtrack, and
# `sub` with a plain "_" runs in C, where a group template (`\1_\2`) calls back
# into Python for every match.
_LOWER_THEN_UPPER = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_ACRONYM_END = re.compile(r"(?<=[A-Z])(?=[A-Z][a-z])")
_NOT_NAME = re.compile(r"[^a-z0-9]+")


def _split_acronyms(words: str) -> str:
    """``HTTPServer`` -> ``HTTP_Server`` in one pass.

    The same as ``re.sub(r"([A-Z]+)([A-Z][a-z])", r"\\1_\\2", words)``, whose
    backtracking is quadratic on a long run of capitals (a hostile path name): an
    underscore before each capital that follows a capital and precedes a
    lower-case letter.
    """
    return _ACRONYM_END.sub("_", words)


def snake_name(text: str) -> str:
    """A lower_snake_case identifier made from ``text`` (may be empty)."""
    # The lookaround is `re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", text)`: the
    # capital that match consumes can never start the next one, so no place is
    # skipped.
    words = _split_acronyms(_LOWER_THEN_UPPER.sub("_", text))
    name = _NOT_NAME.sub("_", words.lower()).strip("_")
    if name[:1].isdigit():
        name = "n_" + name
    return name[:32].rstrip("_")


def singular(name: str) -> str:
    """``reservations`` -> ``reservation``: a name for one element of a list."""
    if name.endswith("ies") and len(name) > 4:
        return name[:-3] + "y"
    if name.endswith("s") and not name.endswith(("ss", "us", "is")) and len(name) > 3:
        return name[:-1]
    return name + "_item" if name else "item"


class Names:
    """Unique local names for one generated function (and its nested ones)."""

    def __init__(self, *taken: str) -> None:
        self._taken = set(_RESERVED) | set(taken)
        # The number to try first for a base: those below it are taken (names are
        # never given back), so a thousand `b`s do not count from 2 each time.
        self._next: dict[str, int] = {}

    def new(self, hint: str) -> str:
        """A fresh identifier based on ``hint`` (``state``, ``state_2`` ...)."""
        base = snake_name(hint) or "result"
        if base not in self._taken:
            self._taken.add(base)
            return base
        number = self._next.get(base, 2)
        while f"{base}_{number}" in self._taken:
            number += 1
        self._next[base] = number + 1
        name = f"{base}_{number}"
        self._taken.add(name)
        return name

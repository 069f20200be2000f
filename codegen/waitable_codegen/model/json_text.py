"""JSON text to Python values, with the limits a hostile document needs.

Python's `json` module recurses once per nesting level (a document nested 100,000
deep ends in RecursionError) and refuses integers of more than 4300 digits with a
bare ValueError. Both cases end in a ModelError naming the file. Nesting is
measured after a successful parse, by a scan that runs at the speed of bytes
operations (the document is valid JSON by then), so a model nested deeper than
MAX_NESTING but within the recursion limit is refused too; the exact depth of a
document too deep to parse at all is measured, without recursion, only for the
message. Generation skips the scan and measures only the decoded values it keeps
(`check_value_nesting`: nothing else reaches code that recurses). Like Python (and unlike strict JSON), NaN and Infinity are read, as is
1e400 (infinity): whatever reads numbers copes with them.
"""

from __future__ import annotations

import gc
import json
import re
import sys
from itertools import accumulate, compress
from typing import Any

from ..errors import safe_text
from .errors import ModelError

MAX_NESTING = 200
"""The deepest nesting of arrays and objects read (AWS models reach about 40)."""

_STRING = re.compile(r'"(?:[^"\\]++|\\.)*+"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]++")
_STEP = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}
_QUOTE_OR_BACKSLASH_ESCAPE = re.compile(rb'\\[\\"]')
_ALL_BUT_QUOTES_AND_BRACKETS = bytes(range(256)).translate(None, b'"[]{}')


def nesting_depth(text: str) -> int:
    """The deepest nesting of arrays and objects in any text read as JSON (strings
    skipped); linear time, no recursion. The exact measure for messages."""
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text)).encode("ascii")
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0)


def valid_nesting_exceeds(text: str, limit: int) -> bool:
    """True when valid JSON `text` nests arrays and objects deeper than `limit`.

    Bytes operations only: the escapes `\\\\` and `\\"` are dropped (left to right,
    as JSON pairs them), then every byte but quotes and brackets;
    adjacent quotes are dropped in pairs (between two strings JSON has only `:` or
    `,`, so this only joins strings), what still lies between quotes is dropped,
    and innermost `[]` pairs are peeled off once per level.
    Only meaningful for text `json.loads` accepted.
    """
    data = text.encode("utf-8", "surrogatepass")
    if b"\\" in data:
        data = _QUOTE_OR_BACKSLASH_ESCAPE.sub(b"", data)
    kept = data.translate(None, _ALL_BUT_QUOTES_AND_BRACKETS).replace(b'""', b"")
    if b'"' in kept:
        kept = b"".join(kept.split(b'"')[::2])
    brackets = kept.replace(b"{", b"[").replace(b"}", b"]")
    for _ in range(limit):
        if not brackets:
            return False
        brackets = brackets.replace(b"[]", b"")
    return bool(brackets)


def value_nesting_depth(value: Any, limit: int | None = None) -> int:
    """The deepest nesting of arrays and objects in a decoded JSON value, measured
    level by level without recursion; with `limit`, counting stops at `limit + 1`.

    Each level's children come from one `gc.get_referents` call (the values of its
    dicts, the items of its lists: every container is among them, as it could be
    part of a cycle), the next level is the dicts and lists among them (one pass
    over the children, in C)."""
    level = [value] if type(value) in (dict, list) else []
    depth = 0
    while level:
        depth += 1
        if limit is not None and depth > limit:
            break
        children = gc.get_referents(*level)
        level = list(
            compress(children, map(_CONTAINERS.__contains__, map(type, children)))
        )
    return depth


_CONTAINERS = frozenset({dict, list})
"""The types of the decoded JSON values that nest (exact: json builds no subclass)."""


def check_value_nesting(value: Any, source: str) -> None:
    """Refuse a decoded document (or the part of one that generation keeps) that
    nests deeper than MAX_NESTING, with the message `parse_json` gives."""
    if value_nesting_depth(value, MAX_NESTING) > MAX_NESTING:
        raise _too_deep_error(source, value_nesting_depth(value))


def parse_json(text: str, source: str, *, check_nesting: bool = True) -> Any:
    """The JSON value `text` holds, or a ModelError naming the file and the line.

    With `check_nesting=False` only what json itself cannot parse is refused for
    its depth: the caller passes what it keeps to `check_value_nesting`."""
    try:
        value = json.loads(text, parse_constant=_refuse_constant)
    except _NotJson as exc:
        raise ModelError(
            f"{safe_text(source)}: holds {exc.args[0]}, which Python's json reads but "
            "JSON does not allow; a Smithy JSON AST model never holds it: check the file"
        ) from None
    except json.JSONDecodeError as exc:
        raise ModelError(
            f"{safe_text(source)}:{exc.lineno}:{exc.colno}: not valid JSON "
            f"({safe_text(exc.msg)}); generate-waiters reads Smithy JSON AST "
            "(smithy build's model.json)"
        ) from None
    except ValueError:  # an integer longer than Python converts
        raise _huge_integer(text, source) from None
    except RecursionError:  # nested deeper than the recursion limit allows
        raise _too_deep(source, text) from None
    if check_nesting and valid_nesting_exceeds(text, MAX_NESTING):
        raise _too_deep(source, text)
    return value


class _NotJson(Exception):
    """`NaN`, `Infinity` or `-Infinity`: Python's json extensions, not JSON."""


def _refuse_constant(name: str) -> float:
    raise _NotJson(name)


class _HugeInteger(ValueError):
    """An integer literal Python would refuse to convert."""

    def __init__(self, digits: int) -> None:
        super().__init__(digits)
        self.digits = digits


def _integer(literal: str) -> int:
    limit = sys.get_int_max_str_digits()
    digits = len(literal.lstrip("-"))
    if limit and digits > limit:
        raise _HugeInteger(digits)
    return int(literal)


def _huge_integer(text: str, source: str) -> ModelError:
    """The error for a document holding an integer Python refuses to convert; the
    document is parsed once more, integer by integer, to count its digits."""
    try:
        json.loads(text, parse_int=_integer)
    except _HugeInteger as exc:
        return ModelError(
            f"{safe_text(source)}: holds an integer of {exc.digits} digits (Python "
            f"reads at most {sys.get_int_max_str_digits() or 'unlimited'}); no Smithy "
            "model needs one this long: check the file"
        )
    except (ValueError, RecursionError):
        pass
    return ModelError(
        f"{safe_text(source)}: holds a number Python cannot read; check the file"
    )


def _too_deep(source: str, text: str) -> ModelError:
    return _too_deep_error(source, nesting_depth(text))


def _too_deep_error(source: str, depth: int) -> ModelError:
    shown = f"{depth} levels" if depth > MAX_NESTING else "too many levels"
    return ModelError(
        f"{safe_text(source)}: JSON nested {shown} deep (the limit is {MAX_NESTING}); "
        "a Smithy model is never this deep: check the file"
    )

"""JSON text to Python values, with the limits a hostile document needs.

Python's `json` module recurses once per nesting level (a document nested 100,000
deep ends in RecursionError) and refuses integers of more than 4300 digits with a
bare ValueError. Nesting is measured first, without recursion, and both cases end
in a ModelError naming the file. Like Python (and unlike strict JSON), NaN and
Infinity are read, as is 1e400 (infinity): whatever reads numbers copes with them.
"""

from __future__ import annotations

import json
import re
import sys
from itertools import accumulate
from typing import Any

from ..errors import safe_text
from .errors import ModelError

MAX_NESTING = 200
"""The deepest nesting of arrays and objects read (AWS models reach about 40)."""

_STRING = re.compile(r'"(?:[^"\\]++|\\.)*+"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]++")
_STEP = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}


def nesting_depth(text: str) -> int:
    """The deepest nesting of arrays and objects in JSON text (strings skipped);
    linear time, no recursion."""
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text)).encode("ascii")
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0)


def parse_json(text: str, source: str) -> Any:
    """The JSON value `text` holds, or a ModelError naming the file and the line."""
    depth = nesting_depth(text)
    if depth > MAX_NESTING:
        raise _too_deep(source, f"{depth} levels")
    try:
        return json.loads(text, parse_int=_integer)
    except json.JSONDecodeError as exc:
        raise ModelError(
            f"{safe_text(source)}:{exc.lineno}:{exc.colno}: not valid JSON "
            f"({safe_text(exc.msg)}); generate-waiters reads Smithy JSON AST "
            "(smithy build's model.json)"
        ) from None
    except _HugeInteger as exc:
        raise ModelError(
            f"{safe_text(source)}: holds an integer of {exc.digits} digits (Python "
            f"reads at most {sys.get_int_max_str_digits() or 'unlimited'}); no Smithy "
            "model needs one this long: check the file"
        ) from None
    except RecursionError:  # a stack already deep when we were called
        raise _too_deep(source, "too many levels") from None


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


def _too_deep(source: str, depth: str) -> ModelError:
    return ModelError(
        f"{safe_text(source)}: JSON nested {depth} deep (the limit is {MAX_NESTING}); "
        "a Smithy model is never this deep: check the file"
    )

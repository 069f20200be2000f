"""The four PathMatcher comparators, exactly as the Smithy waiters spec defines them.

Each takes the JMESPath result (already in the spec's data model) and the
matcher's `expected` string. A value of the wrong type never matches.

They run on every poll over arrays that can hold hundreds of items, so the
common "no match" answer comes from C-level list operations (`expected in
value`, `value.count(expected)`); the exact per-item check (a string, and
equal), which only matters when some item claims equality, runs on the rare
"match" answer alone.

Comparators never raise on a value: an item whose `==` raises is judged by the
exact check alone, which compares with `str.__eq__`. Values reach them in the
data model, where every string is exactly a `str` (the conversion turns
subclasses into plain strings), so the fast `in`/`count` answers are exact too.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from operator import countOf
from typing import Any

__all__ = [
    "COMPARATORS",
    "Comparison",
    "all_string_equals",
    "any_string_equals",
    "boolean_equals",
    "compare",
    "string_equals",
]

Comparison = Callable[[Any, str], bool]

_str_eq: Callable[[str, str], bool] = str.__eq__


def string_equals(value: Any, expected: str) -> bool:
    """`stringEquals`: the value is a string equal to `expected`."""
    if type(value) is str:  # the usual case, compared without a call
        return value == expected
    return isinstance(value, str) and _str_eq(value, expected)


def boolean_equals(value: Any, expected: str) -> bool:
    """`booleanEquals`: the value is the boolean `expected` names ("true"/"false")."""
    return value is (expected == "true")


def all_string_equals(value: Any, expected: str) -> bool:
    """`allStringEquals`: a non-empty array whose every item is the string `expected`."""
    if not isinstance(value, list) or not value:
        return False
    try:
        # The first item decides most polls (still "pending") without a full count.
        if not value[0] == expected or value.count(expected) != len(value):
            return False
    except Exception:  # an item (not a JSON value) whose `==` raises
        pass
    if countOf(map(type, value), str) == len(value):
        return True  # all equal, and all exactly strings
    return all(isinstance(item, str) and _str_eq(item, expected) for item in value)


def any_string_equals(value: Any, expected: str) -> bool:
    """`anyStringEquals`: an array with at least one item that is the string `expected`."""
    if not isinstance(value, list):
        return False
    try:
        if expected not in value:
            return False
    except Exception:  # an item (not a JSON value) whose `==` raises
        pass
    return any(isinstance(item, str) and _str_eq(item, expected) for item in value)


COMPARATORS: Mapping[str, Comparison] = {
    "stringEquals": string_equals,
    "booleanEquals": boolean_equals,
    "allStringEquals": all_string_equals,
    "anyStringEquals": any_string_equals,
}
"""Each comparator's function by its spec name (a `Comparator` is that string)."""


def compare(comparator: str, value: Any, expected: str) -> bool:
    """True when `value` satisfies `comparator` (a `Comparator`) against `expected`."""
    function = COMPARATORS.get(comparator)
    if function is None:
        raise ValueError(f"unknown comparator {comparator!r}")
    return function(value, expected)

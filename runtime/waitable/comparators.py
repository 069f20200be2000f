"""The four PathMatcher comparators, exactly as the Smithy waiters spec defines them.

Each takes the JMESPath result (already in the spec's data model) and the
matcher's `expected` string. A value of the wrong type never matches.
"""

from __future__ import annotations

from typing import Any

from .definition import Comparator

__all__ = ["compare"]


def compare(comparator: Comparator, value: Any, expected: str) -> bool:
    """True when `value` satisfies `comparator` against `expected`."""
    if comparator is Comparator.STRING_EQUALS:
        return isinstance(value, str) and value == expected
    if comparator is Comparator.BOOLEAN_EQUALS:
        return isinstance(value, bool) and value is (expected == "true")
    if comparator is Comparator.ALL_STRING_EQUALS:
        return (
            isinstance(value, list)
            and len(value) > 0
            and all(isinstance(item, str) and item == expected for item in value)
        )
    if comparator is Comparator.ANY_STRING_EQUALS:
        return isinstance(value, list) and any(
            isinstance(item, str) and item == expected for item in value
        )
    raise ValueError(f"unknown comparator {comparator!r}")

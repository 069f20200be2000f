"""The values the static analysis computes with: JSON data plus two sentinels.

A sample is plain JSON data (None, bool, int/float, str, list, dict), or `ANY` where
nothing is known (a document, a recursion cut-off, after a wrong-type access), or
`EXPREF` for an expression reference `&expr`. Type names are JMESPath's, lower-case,
as Smithy prints them. Truthiness and equality are the runtime's own
(`waitable.jmespath_runtime`), so the validator judges a path by the rules the
generated code runs.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Final

from waitable import jmespath_runtime


class Sentinel:
    """A value standing for a whole type: `ANY` or `EXPREF`."""

    def __init__(self, type_name: str) -> None:
        self.type_name = type_name

    def __repr__(self) -> str:
        return self.type_name.upper()


ANY: Final = Sentinel("any")
EXPREF: Final = Sentinel("expression")

Value = Any
"""JSON data, `ANY` or `EXPREF`."""


def type_name(value: Value) -> str:
    """The JMESPath type of a value: `string`, `number`, `boolean`, `null`, ... or `any`.

    JSON data is named by the runtime (`waitable.jmespath_runtime.type_name`); the
    sentinels carry Smithy's names for what the runtime never sees.
    """
    if isinstance(value, Sentinel):
        return value.type_name
    return jmespath_runtime.type_name(value)


is_truthy: Final = jmespath_runtime.truthy
"""JMESPath truthiness, the runtime's: false, null, "", [] and {} are false; the
sentinels `ANY` and `EXPREF` (like any number) are true."""

same_value: Final = jmespath_runtime.equal
"""JMESPath equality, the runtime's: deep, and `true` never equals `1`; a sentinel
equals only itself."""


def java_string_hash(text: str) -> int:
    """Java's `String.hashCode()` as an unsigned 32-bit number (over UTF-16 units)."""
    encoded = text.encode("utf-16-be")
    value = 0
    for i in range(0, len(encoded), 2):
        value = (value * 31 + int.from_bytes(encoded[i : i + 2], "big")) & 0xFFFFFFFF
    return value


def java_hash_order(keys: Iterable[str]) -> list[str]:
    """Keys in the order a Java `HashMap` filled in this order iterates them.

    Smithy builds map samples and object literals as HashMaps, and the order shows
    in its messages (`properties [aa1, aa0]`). The table starts at 16 buckets and
    doubles once more than 3/4 full; a bucket is `(h ^ (h >>> 16)) & (capacity - 1)`
    and keeps insertion order. (Java turns a bucket of 8 or more entries into a
    tree; samples never come near that.)
    """
    unique = list(dict.fromkeys(keys))
    capacity = 16
    while len(unique) > capacity * 3 // 4:
        capacity *= 2
    mask = capacity - 1

    def bucket(key: str) -> int:
        h = java_string_hash(key)
        return (h ^ (h >> 16)) & mask

    return sorted(unique, key=bucket)  # sorted() is stable: insertion order per bucket


def as_hash_map(value: Mapping[str, Value]) -> dict[str, Value]:
    """A copy of an object whose keys iterate in Java HashMap order."""
    return {key: value[key] for key in java_hash_order(value)}


def from_literal(value: Any) -> Value:
    """A JSON literal as Smithy holds it: every object a HashMap, at every depth."""
    if isinstance(value, dict):
        return as_hash_map({key: from_literal(item) for key, item in value.items()})
    if isinstance(value, list):
        return [from_literal(item) for item in value]
    return value

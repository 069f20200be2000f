"""The built-in functions the compiler knows: their arity and result types.

The implementations live in the runtime (`waitable.jmespath_runtime`,
``fn_<name>``); this table lets the compiler reject an unknown function or a
wrong argument count before any code is written, and tells it what type a
call can produce, so that comparisons on it can use Python's operators.
"""

from __future__ import annotations

import typing
from dataclasses import dataclass

from waitable.jmespath_runtime import FUNCTIONS

Kind = frozenset[str]
"""The JMESPath types a value may have at run time."""

NULL: Kind = frozenset({"null"})
BOOLEAN: Kind = frozenset({"boolean"})
NUMBER: Kind = frozenset({"number"})
STRING: Kind = frozenset({"string"})
ARRAY: Kind = frozenset({"array"})
OBJECT: Kind = frozenset({"object"})
EXPREF: Kind = frozenset({"expref"})
ANY: Kind = frozenset(
    {"null", "boolean", "number", "string", "array", "object", "expref"}
)


@dataclass(frozen=True)
class Signature:
    """How many arguments a function takes and the types it returns."""

    min_args: int
    max_args: int | None
    returns: Kind

    def describe_arity(self) -> str:
        """``"1 argument"``, ``"2 arguments"`` or ``"at least 1 argument"``."""
        count = self.min_args
        noun = "argument" if count == 1 else "arguments"
        if self.max_args is None:
            return f"at least {count} {noun}"
        return f"{count} {noun}"


def _fixed(count: int, returns: Kind) -> Signature:
    return Signature(count, count, returns)


SIGNATURES: dict[str, Signature] = {
    "abs": _fixed(1, NUMBER),
    "avg": _fixed(1, NUMBER | NULL),
    "ceil": _fixed(1, NUMBER),
    "contains": _fixed(2, BOOLEAN),
    "ends_with": _fixed(2, BOOLEAN),
    "floor": _fixed(1, NUMBER),
    "join": _fixed(2, STRING),
    "keys": _fixed(1, ARRAY),
    "length": _fixed(1, NUMBER),
    "map": _fixed(2, ARRAY),
    "max": _fixed(1, NUMBER | STRING | NULL),
    "max_by": _fixed(2, ANY - EXPREF),
    "merge": Signature(1, None, OBJECT),
    "min": _fixed(1, NUMBER | STRING | NULL),
    "min_by": _fixed(2, ANY - EXPREF),
    "not_null": Signature(1, None, ANY),
    "reverse": _fixed(1, STRING | ARRAY),
    "sort": _fixed(1, ARRAY),
    "sort_by": _fixed(2, ARRAY),
    "starts_with": _fixed(2, BOOLEAN),
    "sum": _fixed(1, NUMBER),
    "to_array": _fixed(1, ARRAY),
    "to_number": _fixed(1, NUMBER | NULL),
    "to_string": _fixed(1, STRING),
    "type": _fixed(1, STRING),
    "values": _fixed(1, ARRAY),
}
"""Every JMESPath built-in function, by name."""


def _typed(name: str) -> bool:
    return (
        typing.get_type_hints(FUNCTIONS[name]).get("return", typing.Any)
        is not typing.Any
    )


TYPED_RESULTS: frozenset[str] = frozenset(name for name in SIGNATURES if _typed(name))
"""Functions whose Python result type (as the runtime declares it) is not ``Any``:
mypy sees their results as ``int``, ``str``, ``list[Any]`` ..."""

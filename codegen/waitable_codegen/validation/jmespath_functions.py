"""The JMESPath built-in functions as the static analysis sees them: argument checks
and a sample return value, following Smithy's function table.

A wrong argument type is an ERROR-level problem, since JMESPath raises an error for
it whatever the input, where a wrong-type field or index access only yields null.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .jmespath_values import ANY, Value, type_name

ArgumentCheck = Callable[[Value], "str | None"]
"""Returns None when an argument is acceptable, else the reason it is not."""


def is_type(expected: str) -> ArgumentCheck:
    """An argument of one type (`any` accepts everything); ANY always passes."""

    def check(argument: Value) -> str | None:
        found = type_name(argument)
        if expected == "any" or found in ("any", expected):
            return None
        return f"Expected argument to be {expected}, but found {found}"

    return check


def one_of(*expected: str) -> ArgumentCheck:
    """An argument of any of several types; ANY always passes."""

    def check(argument: Value) -> str | None:
        found = type_name(argument)
        if found == "any" or found in expected:
            return None
        return f"Expected one of [{', '.join(expected)}], but found {found}"

    return check


def list_of(expected: str) -> ArgumentCheck:
    """An array whose every element has one type; ANY elements do not pass."""

    def check(argument: Value) -> str | None:
        found = type_name(argument)
        if found == "any":
            return None
        if found != "array":
            return f"Expected argument to be an array, but found {found}"
        for index, element in enumerate(argument):
            element_type = type_name(element)
            if element_type != expected:
                return (
                    f"Expected an array of {expected}, but found {element_type} "
                    f"at index {index}"
                )
        return None

    return check


@dataclass(frozen=True)
class FunctionSignature:
    """A function's positional argument checks, its variadic check, its result type."""

    returns: str
    positional: Sequence[ArgumentCheck]
    variadic: ArgumentCheck | None = None

    def result(self) -> Value:
        """A fresh sample of the return type (`any` gives ANY)."""
        samples: dict[str, Value] = {
            "number": 0,
            "string": "",
            "boolean": False,
            "array": [],
            "object": {},
        }
        return samples.get(self.returns, ANY)


_ANY = is_type("any")
_NUMBER = is_type("number")
_STRING = is_type("string")
_ARRAY = is_type("array")
_OBJECT = is_type("object")
_EXPRESSION = is_type("expression")

FUNCTIONS: dict[str, FunctionSignature] = {
    "abs": FunctionSignature("number", [_NUMBER]),
    "avg": FunctionSignature("number", [list_of("number")]),
    "ceil": FunctionSignature("number", [_NUMBER]),
    "contains": FunctionSignature("boolean", [one_of("array", "string"), _ANY]),
    # Smithy declares ends_with as returning a number, a slip that would report a
    # false ReturnTypeMismatch on `ends_with(...)` with booleanEquals; we say boolean.
    "ends_with": FunctionSignature("boolean", [_STRING, _STRING]),
    "floor": FunctionSignature("number", [_NUMBER]),
    "join": FunctionSignature("string", [_STRING, list_of("string")]),
    "keys": FunctionSignature("array", [_OBJECT]),
    "length": FunctionSignature("number", [one_of("string", "array", "object")]),
    "map": FunctionSignature("array", [_EXPRESSION, _ARRAY]),
    "max": FunctionSignature("number", [_ARRAY]),
    "max_by": FunctionSignature("number", [_ARRAY, _EXPRESSION]),
    "merge": FunctionSignature("object", [], _OBJECT),
    "min": FunctionSignature("number", [_ARRAY]),
    "min_by": FunctionSignature("number", [_ARRAY, _EXPRESSION]),
    "not_null": FunctionSignature("any", [_ANY], _ANY),
    "reverse": FunctionSignature("array", [one_of("array", "string")]),
    "sort": FunctionSignature("array", [_ARRAY]),
    "sort_by": FunctionSignature("array", [_ARRAY, _EXPRESSION]),
    "starts_with": FunctionSignature("boolean", [_STRING, _STRING]),
    "sum": FunctionSignature("number", [list_of("number")]),
    "to_array": FunctionSignature("array", [_ANY]),
    "to_number": FunctionSignature("number", [_ANY]),
    "to_string": FunctionSignature("string", [_ANY]),
    "type": FunctionSignature("string", [_ANY]),
    "values": FunctionSignature("array", [_OBJECT]),
}

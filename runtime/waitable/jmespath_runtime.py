"""The helpers that compiled JMESPath functions call at run time.

The generator turns each acceptor path into a plain Python function
(`waitable_codegen.jmespath`); what that function cannot say inline it asks
of this module, always through the name ``_jp``: JMESPath's truthiness,
equality and ordering (which are not Python's), flattening, and every
built-in function with its argument type checks.

Values are what ``json.loads`` produces: ``dict``, ``list``, ``str``,
``int``, ``float``, ``bool`` and ``None`` (subclasses of ``dict`` and
``list`` count as objects and arrays). An expression reference (``&expr``)
is compiled to a plain Python function; that is its JMESPath type
``expref``.

Whatever fails at run time raises `JMESPathEvaluationError`, whose ``kind``
is the error name the JMESPath specification uses (``invalid-type``,
``invalid-value``). The waiter engine treats it as "this acceptor does not
match".

Numbers are Python's, so they can be larger than a double (``10**5000``) or
not finite (``nan``, ``inf``): a function that would have to turn such a
number into a double it cannot hold (``sum``, ``avg``) raises
``invalid-value``; ``ceil`` and ``floor`` give an integer back as it is and a
non-finite float as it is; ``to_number`` reads an integer string longer than
``int()`` converts (``sys.get_int_max_str_digits``) as a double, ``inf`` when
too large for one, as the ``jmespath`` package does. Equality on
values nested deeper than Python's recursion limit raises `RecursionError`,
which the engine also reads as "does not match" (see `waitable.matching`).
"""

from __future__ import annotations

import json
import math
import re
import reprlib
from collections.abc import Callable
from operator import countOf
from types import FunctionType
from typing import Any

__all__ = [
    "JMESPathEvaluationError",
    "describe",
    "type_name",
    "truthy",
    "equal",
    "lt",
    "le",
    "gt",
    "ge",
    "flatten",
    "FUNCTIONS",
]


class JMESPathEvaluationError(Exception):
    """A JMESPath expression failed while it was evaluated.

    ``kind`` is the specification's error name, e.g. ``"invalid-type"``.
    """

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


# --- types -----------------------------------------------------------------


def _is_number(value: Any) -> bool:
    """Whether ``value`` is a JMESPath number (``bool`` is not one)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _is_string(value: Any) -> bool:
    """Whether ``value`` is a JMESPath string."""
    return isinstance(value, str)


def type_name(value: Any) -> str:
    """The JMESPath type of ``value``: ``number``, ``string``, ``array`` ...

    Raises ``invalid-type`` for a Python object that is no JMESPath value.
    """
    if value is None:
        return "null"
    if isinstance(value, str):
        return "string"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    if isinstance(value, FunctionType):
        return "expref"
    raise JMESPathEvaluationError(
        "invalid-type",
        f"a value of Python type {type(value).__name__} is not a JMESPath value "
        "(expected dict, list, str, int, float, bool or None)",
    )


_SHORT = reprlib.Repr()
_SHORT.maxlevel = 2
_SHORT.maxstring = 30
_SHORT.maxother = 30


def describe(value: Any) -> str:
    """A short description of ``value`` for error messages; never raises.

    Deep, cyclic and huge values (an int past Python's digit limit for
    ``repr``) are described by their type and size instead of their text.
    """
    try:
        name = type_name(value)
    except JMESPathEvaluationError:
        return f"Python {type(value).__name__}"
    if name == "expref":
        return "an expression reference"
    try:
        text = _SHORT.repr(value)
    except Exception:  # an int past the digit limit, a subclass's own __repr__
        text = f"({value.bit_length()}-bit integer)" if isinstance(value, int) else ""
    if len(text) > 40:
        text = text[:37] + "..."
    return f"{name} {text}".rstrip()


# --- truthiness, equality, ordering ----------------------------------------


def truthy(value: Any) -> bool:
    """JMESPath truthiness: null, false, "", [] and {} are false; 0 is true."""
    if value is None or value is False:
        return False
    if isinstance(value, (str, list, dict)):
        return len(value) > 0
    return True


def equal(left: Any, right: Any) -> bool:
    """JMESPath equality: deep, and a boolean never equals a number.

    ``1 == 1.0`` holds; ``1 == true`` and ``[0] == [false]`` do not.
    """
    if isinstance(left, str) or isinstance(right, str):
        return bool(left == right)
    if isinstance(left, bool) or isinstance(right, bool):
        return isinstance(left, bool) and isinstance(right, bool) and left == right
    if isinstance(left, list):
        if not isinstance(right, list) or len(left) != len(right):
            return False
        return all(equal(a, b) for a, b in zip(left, right))
    if isinstance(left, dict):
        if not isinstance(right, dict) or left.keys() != right.keys():
            return False
        return all(equal(item, right[key]) for key, item in left.items())
    if isinstance(right, (list, dict)):
        return False
    return bool(left == right)


def lt(left: Any, right: Any) -> bool | None:
    """``left < right`` on numbers; null when either side is not a number."""
    if _is_number(left) and _is_number(right):
        return bool(left < right)
    return None


def le(left: Any, right: Any) -> bool | None:
    """``left <= right`` on numbers; null when either side is not a number."""
    if _is_number(left) and _is_number(right):
        return bool(left <= right)
    return None


def gt(left: Any, right: Any) -> bool | None:
    """``left > right`` on numbers; null when either side is not a number."""
    if _is_number(left) and _is_number(right):
        return bool(left > right)
    return None


def ge(left: Any, right: Any) -> bool | None:
    """``left >= right`` on numbers; null when either side is not a number."""
    if _is_number(left) and _is_number(right):
        return bool(left >= right)
    return None


def flatten(array: list[Any]) -> list[Any]:
    """``array[]``'s flattening step: nested arrays spliced one level deep.

    When ``array`` holds no arrays it is returned as it is (compiled code only
    iterates over the result), so the common case copies nothing; an array of
    objects only (the usual `Reservations[]`) is known to be one by a C-level count.
    """
    if countOf(map(type, array), dict) == len(array):
        return array
    for element in array:
        if isinstance(element, list):
            break
    else:
        return array
    merged: list[Any] = []
    for element in array:
        if isinstance(element, list):
            merged.extend(element)
        else:
            merged.append(element)
    return merged


# --- argument checks for the built-in functions ----------------------------


def _too_large(function: str) -> JMESPathEvaluationError:
    return JMESPathEvaluationError(
        "invalid-value",
        f"{function}() of these numbers does not fit in a double "
        "(an integer beyond 1.8e308 met a float)",
    )


def _type_error(function: str, position: int, expected: str, got: Any) -> None:
    raise JMESPathEvaluationError(
        "invalid-type",
        f"{function}() argument {position} must be {expected}, " f"got {describe(got)}",
    )


def _number(function: str, position: int, value: Any) -> Any:
    if not _is_number(value):
        _type_error(function, position, "a number", value)
    return value


def _string(function: str, position: int, value: Any) -> str:
    if not isinstance(value, str):
        _type_error(function, position, "a string", value)
    return str(value)


def _array(function: str, position: int, value: Any) -> list[Any]:
    if not isinstance(value, list):
        _type_error(function, position, "an array", value)
    array: list[Any] = value
    return array


def _object(function: str, position: int, value: Any) -> dict[Any, Any]:
    if not isinstance(value, dict):
        _type_error(function, position, "an object", value)
    mapping: dict[Any, Any] = value
    return mapping


def _expref(function: str, position: int, value: Any) -> Callable[[Any], Any]:
    if not isinstance(value, FunctionType):
        _type_error(function, position, "an expression reference (&expr)", value)
    expression: Callable[[Any], Any] = value
    return expression


def _numbers(function: str, position: int, value: Any) -> list[Any]:
    """An array whose every element is a number."""
    if not isinstance(value, list):
        _type_error(function, position, "an array of numbers", value)
    for element in value:
        if not _is_number(element):
            raise JMESPathEvaluationError(
                "invalid-type",
                f"{function}() argument {position} must be an array of numbers, "
                f"but it holds {describe(element)}",
            )
    numbers: list[Any] = value
    return numbers


def _strings(function: str, position: int, value: Any) -> list[str]:
    """An array whose every element is a string."""
    if not isinstance(value, list):
        _type_error(function, position, "an array of strings", value)
    for element in value:
        if not isinstance(element, str):
            raise JMESPathEvaluationError(
                "invalid-type",
                f"{function}() argument {position} must be an array of strings, "
                f"but it holds {describe(element)}",
            )
    strings: list[str] = value
    return strings


def _sortable(function: str, position: int, value: Any) -> list[Any]:
    """An array of numbers only or of strings only (what sort, min, max take)."""
    if not isinstance(value, list):
        _type_error(function, position, "an array of numbers or of strings", value)
    if value and isinstance(value[0], str):
        return _strings(function, position, value)
    return _numbers(function, position, value)


def _keys(function: str, array: list[Any], expref: Callable[[Any], Any]) -> list[Any]:
    """The ``expref`` key of each element: all numbers or all strings."""
    keys = [expref(element) for element in array]
    if not keys:
        return keys
    accepts: Callable[[Any], bool] = _is_number
    expected = "a number"
    if isinstance(keys[0], str):
        accepts, expected = _is_string, "a string"
    for key in keys:
        if not accepts(key):
            raise JMESPathEvaluationError(
                "invalid-type",
                f"{function}() expression argument must give every element "
                f"{expected} key (numbers only or strings only), "
                f"got {describe(key)}",
            )
    return keys


# --- the built-in functions ------------------------------------------------


def fn_abs(value: Any) -> Any:
    """``abs(number)``."""
    return abs(_number("abs", 1, value))


def fn_avg(values: Any) -> Any:
    """``avg(array[number])``; null for an empty array."""
    numbers = _numbers("avg", 1, values)
    if not numbers:
        return None
    try:
        return sum(numbers) / len(numbers)
    except OverflowError:
        raise _too_large("avg") from None


def fn_ceil(value: Any) -> Any:
    """``ceil(number)``."""
    number = _number("ceil", 1, value)
    if isinstance(number, int) or not math.isfinite(number):
        return number  # an int of any size is its own ceiling
    return math.ceil(number)


def fn_contains(subject: Any, search: Any) -> bool:
    """``contains(array|string, any)``: element equality or substring."""
    if isinstance(subject, str):
        return isinstance(search, str) and search in subject
    if isinstance(subject, list):
        if isinstance(search, str):
            return search in subject
        return any(equal(element, search) for element in subject)
    _type_error("contains", 1, "an array or a string", subject)
    return False  # pragma: no cover - _type_error always raises


def fn_ends_with(subject: Any, suffix: Any) -> bool:
    """``ends_with(string, string)``."""
    return _string("ends_with", 1, subject).endswith(_string("ends_with", 2, suffix))


def fn_floor(value: Any) -> Any:
    """``floor(number)``."""
    number = _number("floor", 1, value)
    if isinstance(number, int) or not math.isfinite(number):
        return number  # an int of any size is its own floor
    return math.floor(number)


def fn_join(glue: Any, values: Any) -> str:
    """``join(string, array[string])``."""
    separator = _string("join", 1, glue)
    return separator.join(_strings("join", 2, values))


def fn_keys(value: Any) -> list[Any]:
    """``keys(object)``."""
    return list(_object("keys", 1, value))


def fn_length(value: Any) -> int:
    """``length(string|array|object)``; strings count code points."""
    if isinstance(value, (str, list, dict)):
        return len(value)
    _type_error("length", 1, "a string, an array or an object", value)
    return 0  # pragma: no cover - _type_error always raises


def fn_map(expref: Any, values: Any) -> list[Any]:
    """``map(&expr, array)``: ``expr`` of each element, nulls kept."""
    function = _expref("map", 1, expref)
    return [function(element) for element in _array("map", 2, values)]


def fn_max(values: Any) -> Any:
    """``max(array[number]|array[string])``; null for an empty array."""
    items = _sortable("max", 1, values)
    return max(items) if items else None


def fn_max_by(values: Any, expref: Any) -> Any:
    """``max_by(array, &expr)``: the element whose key is largest."""
    array = _array("max_by", 1, values)
    keys = _keys("max_by", array, _expref("max_by", 2, expref))
    if not array:
        return None
    best = max(range(len(array)), key=keys.__getitem__)
    return array[best]


def fn_merge(*values: Any) -> dict[Any, Any]:
    """``merge(object, ...)``: later keys win."""
    merged: dict[Any, Any] = {}
    for position, value in enumerate(values, start=1):
        merged.update(_object("merge", position, value))
    return merged


def fn_min(values: Any) -> Any:
    """``min(array[number]|array[string])``; null for an empty array."""
    items = _sortable("min", 1, values)
    return min(items) if items else None


def fn_min_by(values: Any, expref: Any) -> Any:
    """``min_by(array, &expr)``: the element whose key is smallest."""
    array = _array("min_by", 1, values)
    keys = _keys("min_by", array, _expref("min_by", 2, expref))
    if not array:
        return None
    best = min(range(len(array)), key=keys.__getitem__)
    return array[best]


def fn_not_null(*values: Any) -> Any:
    """``not_null(any, ...)``: the first argument that is not null."""
    for value in values:
        if value is not None:
            return value
    return None


def fn_reverse(value: Any) -> Any:
    """``reverse(string|array)``."""
    if isinstance(value, (str, list)):
        return value[::-1]
    _type_error("reverse", 1, "a string or an array", value)
    return None  # pragma: no cover - _type_error always raises


def fn_sort(values: Any) -> list[Any]:
    """``sort(array[number]|array[string])``; strings by code point."""
    return sorted(_sortable("sort", 1, values))


def fn_sort_by(values: Any, expref: Any) -> list[Any]:
    """``sort_by(array, &expr)``: stable, keys all numbers or all strings."""
    array = _array("sort_by", 1, values)
    keys = _keys("sort_by", array, _expref("sort_by", 2, expref))
    order = sorted(range(len(array)), key=keys.__getitem__)
    return [array[index] for index in order]


def fn_starts_with(subject: Any, prefix: Any) -> bool:
    """``starts_with(string, string)``."""
    return _string("starts_with", 1, subject).startswith(
        _string("starts_with", 2, prefix)
    )


def fn_sum(values: Any) -> Any:
    """``sum(array[number])``; 0 for an empty array."""
    numbers = _numbers("sum", 1, values)
    try:
        return sum(numbers)
    except OverflowError:  # an int beyond a double added to a float
        raise _too_large("sum") from None


def fn_to_array(value: Any) -> list[Any]:
    """``to_array(any)``: an array as is, anything else wrapped in one."""
    if isinstance(value, list):
        return value
    return [value]


_JSON_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?")


def fn_to_number(value: Any) -> Any:
    """``to_number(any)``: numbers as is, JSON-number strings parsed, else null."""
    if _is_number(value):
        return value
    if isinstance(value, str):
        match = _JSON_NUMBER.fullmatch(value)
        if match is None:
            return None
        if match.group(1) is None and match.group(2) is None:
            try:
                return int(value)
            except ValueError:  # past int()'s digit limit: a double, as jmespath does
                return float(value)
        return float(value)
    return None


def fn_to_string(value: Any) -> str:
    """``to_string(any)``: strings as is, anything else JSON-encoded."""
    if isinstance(value, str):
        return value
    try:
        return json.dumps(value, separators=(",", ":"))
    except (TypeError, ValueError, RecursionError) as error:
        raise JMESPathEvaluationError(
            "invalid-type",
            f"to_string() cannot encode {describe(value)}: {type(error).__name__}",
        ) from None


def fn_type(value: Any) -> str:
    """``type(any)``: ``number``, ``string``, ``boolean``, ``array``, ..."""
    return type_name(value)


def fn_values(value: Any) -> list[Any]:
    """``values(object)``."""
    return list(_object("values", 1, value).values())


FUNCTIONS: dict[str, Callable[..., Any]] = {
    "abs": fn_abs,
    "avg": fn_avg,
    "ceil": fn_ceil,
    "contains": fn_contains,
    "ends_with": fn_ends_with,
    "floor": fn_floor,
    "join": fn_join,
    "keys": fn_keys,
    "length": fn_length,
    "map": fn_map,
    "max": fn_max,
    "max_by": fn_max_by,
    "merge": fn_merge,
    "min": fn_min,
    "min_by": fn_min_by,
    "not_null": fn_not_null,
    "reverse": fn_reverse,
    "sort": fn_sort,
    "sort_by": fn_sort_by,
    "starts_with": fn_starts_with,
    "sum": fn_sum,
    "to_array": fn_to_array,
    "to_number": fn_to_number,
    "to_string": fn_to_string,
    "type": fn_type,
    "values": fn_values,
}
"""Every built-in function by its JMESPath name; compiled code calls ``fn_<name>``."""

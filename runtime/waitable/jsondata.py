"""Plain JSON data from what clients return, for saved waits and results sent elsewhere.

A saved wait (`waitable.steps.SavedWait`) and a result handed to another process
must survive `json.dumps`: datetimes become ISO 8601 text, bytes base64 text,
`Decimal` a number (or text when not finite), tuples and sets lists, mapping keys
text. Walked with an explicit stack, so a deeply nested response cannot exhaust
the interpreter's recursion limit; past `MAX_DEPTH` levels, or once `MAX_NODES`
values were copied (a response that holds itself), a value is replaced by its
truncated `repr`.
"""

from __future__ import annotations

import base64
import datetime
import math
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

__all__ = ["MAX_DEPTH", "MAX_NODES", "first_loss", "json_type", "to_json_data"]

#: Levels of nesting kept; anything deeper is summarised as text.
MAX_DEPTH = 200
#: Containers copied at most; the rest is summarised as text.
MAX_NODES = 1_000_000
_REPR_LIMIT = 200


def _scalar(value: Any) -> Any:
    """The JSON form of a non-container value."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        return value if abs(value).bit_length() <= 1000 else str(value)
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, Decimal):
        if not value.is_finite():
            return str(value)
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, (datetime.datetime, datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, (bytes, bytearray, memoryview)):
        return base64.b64encode(bytes(value)).decode("ascii")
    read = getattr(value, "read", None)
    if callable(read):
        return f"<{type(value).__name__}>"
    return _summary(value)


def _summary(value: Any) -> str:
    try:
        text = repr(value)
    except Exception:
        text = f"<{type(value).__name__}>"
    return text if len(text) <= _REPR_LIMIT else text[:_REPR_LIMIT] + "..."


def to_json_data(value: Any) -> Any:
    """`value` as lists, dicts, strings, numbers, booleans and None only."""
    root: list[Any] = [None]
    # Each entry: (source value, container to fill, key or index in it, depth).
    stack: list[tuple[Any, Any, Any, int]] = [(value, root, 0, 0)]
    budget = MAX_NODES
    while stack:
        item, into, key, depth = stack.pop()
        if isinstance(item, Mapping) or isinstance(item, (list, tuple, set, frozenset)):
            if depth >= MAX_DEPTH or budget <= 0:
                into[key] = _summary(item)
                continue
            budget -= 1
            if isinstance(item, Mapping):
                out: Any = {}
                into[key] = out
                for k, v in item.items():
                    name = k if isinstance(k, str) else str(_scalar(k))
                    out[name] = None
                    stack.append((v, out, name, depth + 1))
            else:
                members = (
                    sorted(item, key=repr)
                    if isinstance(item, (set, frozenset))
                    else item
                )
                out = [None] * len(members)
                into[key] = out
                for index, v in enumerate(members):
                    stack.append((v, out, index, depth + 1))
        else:
            into[key] = _scalar(item)
    return root[0]


def first_loss(value: Any, name: str) -> str | None:
    """Where `value` (called `name`) would not come back from JSON as it is, and
    what stands there ("input['When'] is a datetime"); None when it would (a
    tuple comes back a list, which clients take alike). Walked without recursion."""
    stack: list[tuple[Any, str, int]] = [(value, name, 0)]
    budget = MAX_NODES
    while stack:
        item, where, depth = stack.pop()
        if item is None or isinstance(item, (bool, str)):
            continue
        if isinstance(item, int):
            if abs(item).bit_length() > 1000:
                return f"{where} is an integer too long for JSON"
            continue
        if isinstance(item, float):
            if not math.isfinite(item):
                return f"{where} is {item!r}, which JSON does not hold"
            continue
        if isinstance(item, (Mapping, list, tuple)):
            budget -= 1
            if depth >= MAX_DEPTH or budget < 0:
                return f"{where} nests deeper or holds more than JSON data kept here"
            if isinstance(item, Mapping):
                for key, child in item.items():
                    if not isinstance(key, str):
                        return f"{where} has the key {_summary(key)}, not text"
                    stack.append((child, f"{where}[{key!r}]", depth + 1))
            else:
                for index, child in enumerate(item):
                    stack.append((child, f"{where}[{index}]", depth + 1))
            continue
        return f"{where} is a {type(item).__name__}"
    return None


def json_type(value: object) -> str:
    """The JSON type of a decoded value, with its article (`an object`, `null`),
    for saying what a document holds instead of what was expected."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    return "an array" if isinstance(value, list) else "an object"

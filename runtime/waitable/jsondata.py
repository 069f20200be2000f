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
#: A `Decimal` with more digits before its point than this is kept as text: as an
#: int it would pass the 1000 bits an int may have here (and converting 1e100000
#: would take long), as a float it would be infinite.
_DECIMAL_DIGITS = 300


def _scalar(value: Any) -> Any:
    """The JSON form of a non-container value; its summary when reading it raises."""
    try:
        return _plain_scalar(value)
    except Exception:  # a subclass's own method that raises
        return _summary(value)


def _plain_scalar(value: Any) -> Any:
    kind = type(value)
    if value is None or kind is bool or kind is str:
        return value
    if issubclass(kind, str):
        return str.__str__(value)
    if issubclass(kind, int):
        whole = int.__int__(value)  # its value: a subclass's own methods not called
        return whole if abs(whole).bit_length() <= 1000 else str(whole)
    if issubclass(kind, float):
        number = float.__float__(value)
        return number if math.isfinite(number) else str(number)
    if issubclass(kind, Decimal):
        if not value.is_finite() or value.adjusted() > _DECIMAL_DIGITS:
            return str(value)  # no JSON number: text, as an int too long is
        return int(value) if value == value.to_integral_value() else float(value)
    if issubclass(kind, (datetime.datetime, datetime.date, datetime.time)):
        return value.isoformat()
    if issubclass(kind, (bytes, bytearray, memoryview)):
        return base64.b64encode(bytes(value)).decode("ascii")
    read = getattr(value, "read", None)
    if callable(read):
        return f"<{kind.__name__}>"
    return _summary(value)


def _summary(value: Any) -> str:
    """`value`'s repr, cut to `_REPR_LIMIT` characters."""
    text = _repr(value)
    return text if len(text) <= _REPR_LIMIT else text[:_REPR_LIMIT] + "..."


def _repr(value: Any) -> str:
    """`value`'s repr as plain text; its class's name when the repr raises."""
    try:
        return str.__str__(repr(value))
    except Exception:
        return f"<{type(value).__name__}>"


def to_json_data(value: Any) -> Any:
    """`value` as lists, dicts, strings, numbers, booleans and None only; a part
    that cannot be read (its `items()`, iteration or `repr` raises) becomes its
    summary, so a response's odd objects never stop a wait from being saved."""
    root: list[Any] = [None]
    # Each entry: (source value, container to fill, key or index in it, depth).
    stack: list[tuple[Any, Any, Any, int]] = [(value, root, 0, 0)]
    budget = MAX_NODES
    while stack:
        item, into, key, depth = stack.pop()
        try:
            budget = _copy(item, into, key, depth, budget, stack)
        except Exception:  # a client's object that does not behave
            into[key] = _summary(item)
    return root[0]


def _copy(
    item: Any,
    into: Any,
    key: Any,
    depth: int,
    budget: int,
    stack: list[tuple[Any, Any, Any, int]],
) -> int:
    """Put `item`'s JSON form at `into[key]` (a container empty, its parts pushed
    on `stack`, only once all of them were read); the budget left."""
    kind = type(item)  # its class, not what its `__class__` says
    if not (issubclass(kind, Mapping) or issubclass(kind, _SEQUENCES)):
        into[key] = _scalar(item)
        return budget
    if depth >= MAX_DEPTH or budget <= 0:
        into[key] = _summary(item)
        return budget
    parts: list[tuple[Any, Any, Any, int]] = []
    out: Any
    if issubclass(kind, Mapping):
        out = {}
        for k, v in item.items():
            name = k if type(k) is str else str(_scalar(k))  # _scalar: plain types
            out[name] = None
            parts.append((v, out, name, depth + 1))
    else:
        members = list(
            sorted(item, key=_repr) if issubclass(kind, (set, frozenset)) else item
        )
        out = [None] * len(members)
        parts.extend((v, out, index, depth + 1) for index, v in enumerate(members))
    into[key] = out
    stack.extend(parts)
    return budget - 1


_SEQUENCES = (list, tuple, set, frozenset)


def first_loss(value: Any, name: str) -> str | None:
    """Where `value` (called `name`) would not come back from JSON as it is, and
    what stands there ("input['When'] is a datetime"); None when it would (a
    tuple comes back a list, which clients take alike). Walked without recursion;
    a place's path is spelled only once something is found there (spelling each
    child's path up front cost the length of a long key for every item under it)."""
    # steps[n]: (the step before it, the key or index reaching n); 0 is `value`.
    steps: list[tuple[int, str | int]] = [(-1, 0)]
    stack: list[tuple[Any, int, int]] = [(value, 0, 0)]
    budget = MAX_NODES

    def where(step: int) -> str:
        parts: list[str] = []
        while step > 0:
            step, key = steps[step]
            parts.append(f"[{key}]" if isinstance(key, int) else f"[{_key_text(key)}]")
        return name + "".join(reversed(parts))

    while stack:
        item, step, depth = stack.pop()
        if item is None or isinstance(item, (bool, str)):
            continue
        if isinstance(item, int):
            if abs(item).bit_length() > 1000:
                return f"{where(step)} is an integer too long for JSON"
            continue
        if isinstance(item, float):
            if not math.isfinite(item):
                return f"{where(step)} is {item!r}, which JSON does not hold"
            continue
        if isinstance(item, (Mapping, list, tuple)):
            budget -= 1
            if depth >= MAX_DEPTH or budget < 0:
                return (
                    f"{where(step)} nests deeper or holds more than JSON data kept here"
                )
            pairs = item.items() if isinstance(item, Mapping) else enumerate(item)
            for key, child in pairs:
                if isinstance(item, Mapping) and not isinstance(key, str):
                    return f"{where(step)} has the key {_summary(key)}, not text"
                steps.append((step, key))
                stack.append((child, len(steps) - 1, depth + 1))
            continue
        return f"{where(step)} is a {type(item).__name__}"
    return None


#: The longest key a path in a message spells out (the rest is cut, with "...").
_KEY_LIMIT = 60


def _key_text(key: str) -> str:
    """A mapping key as a message's path shows it: its repr, cut when long."""
    if len(key) <= _KEY_LIMIT:
        return repr(key)
    return repr(key[:_KEY_LIMIT]) + "..."


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

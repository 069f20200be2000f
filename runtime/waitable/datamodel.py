"""Convert an operation's input or output to the spec's JMESPath data model.

Smithy says what JMESPath sees: timestamps as epoch seconds, blobs as base64
strings, lists and sets as arrays, maps and structures as objects, big numbers
as numbers. Clients hand us Python values (botocore's `datetime`s and `bytes`,
smithy-python's dataclasses), so values are converted before matching.

Conversion is copy-on-write: a dict or list that needs nothing converted under
it comes back as the same object, and only the containers on the way to a
converted value are copied. A botocore response whose read parts hold only
dicts, lists, strings and numbers is therefore not copied at all.

Every value comes out as exactly a JSON type: subclasses of `str`, `int` and
`float` become plain values (read through the base type, so their own methods are
never called), a mapping key becomes text the same way (a str enum member its
value), and a `Decimal` becomes a float (a signalling NaN a quiet one, a huge
one infinity). Conversion recurses once per level of nesting: a value that
holds itself, or nests deeper than Python's recursion limit, raises
`RecursionError`, which the engine reads as "cannot be compared"
(`waitable.matching`).
"""

from __future__ import annotations

import base64
import dataclasses
import datetime
import enum
import math
from collections.abc import Callable, Mapping, Set
from decimal import Decimal
from itertools import islice
from typing import Any

from .reads import Reads

__all__ = [
    "PLAIN_TYPES",
    "convert_read_parts",
    "opaque_to_paths",
    "output_to_jmespath",
    "to_jmespath",
]

PLAIN_TYPES = frozenset({str, int, float, bool, type(None)})
"""The exact types that are already JMESPath scalars (subclasses such as enums are not)."""

_UTC = datetime.timezone.utc


def output_to_jmespath(output: Any, reads: Reads | None = None) -> Any:
    """Convert an operation output, dropping the `ResponseMetadata` key botocore adds.

    With `reads`, only the parts the waiter's paths can read are converted; the
    rest is left as the client returned it (no path looks at it).
    """
    if isinstance(output, Mapping) and "ResponseMetadata" in output:
        output = {k: v for k, v in output.items() if k != "ResponseMetadata"}
    if reads is None:
        return to_jmespath(output)
    return convert_read_parts(output, reads)


def convert_read_parts(value: Any, reads: Reads) -> Any:
    """Convert the parts of `value` that `reads` names, copy-on-write.

    Smithy map keys and structure member names are strings, so keys are looked
    up directly. Lists are crossed: each element is converted with the same tree.
    A non-dict mapping or a dataclass becomes a dict of the keys `reads` names.
    """
    if reads.whole:
        return to_jmespath(value)
    kind = type(value)
    if kind in PLAIN_TYPES:
        return value
    if kind is dict:
        return _convert_read_keys(value, reads)
    if kind is list:
        return _convert_items(value, lambda item: convert_read_parts(item, reads))
    if isinstance(value, Mapping):
        return {
            k: convert_read_parts(value[k], node)
            for k, node in reads.children.items()
            if k in value
        }
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        names = {f.name for f in dataclasses.fields(value)}
        return {
            k: convert_read_parts(getattr(value, k), node)
            for k, node in reads.children.items()
            if k in names
        }
    if isinstance(value, (list, tuple, Set)):
        return [convert_read_parts(v, reads) for v in value]
    return _convert_other(value)


def _convert_read_keys(value: dict[Any, Any], reads: Reads) -> dict[Any, Any]:
    """A dict with its read keys converted: itself if none changed, else a shallow copy."""
    copy: dict[Any, Any] | None = None
    for key, node in reads.children.items():
        item = value.get(key)
        new = convert_read_parts(item, node)
        if new is not item:
            if copy is None:
                copy = dict(value)
            copy[key] = new
    return value if copy is None else copy


def to_jmespath(value: Any) -> Any:
    """Return `value` as JSON-like data: dict, list, str, int/float, bool or None.

    Copy-on-write: a dict or list already in that form is returned itself.
    """
    kind = type(value)
    if kind in PLAIN_TYPES:
        return value
    if kind is dict:
        return _convert_dict(value)
    if kind is list:
        return _convert_items(value, to_jmespath)
    return _convert_other(value)


def _convert_dict(value: dict[Any, Any]) -> dict[Any, Any]:
    """A dict with string keys and converted values: itself if nothing changed.

    On the first key or value that changes, the items before it (unchanged) are
    copied and the rest converted into the copy, so later keys win a collision
    of `str(key)` exactly as a fresh dict would have it.
    """
    items = iter(value.items())
    for done, (key, item) in enumerate(items):
        new = item if type(item) in PLAIN_TYPES else to_jmespath(item)
        if new is not item or type(key) is not str:
            copy = dict(islice(value.items(), done))
            copy[_key(key)] = new
            for key, item in items:
                copy[_key(key)] = to_jmespath(item)
            return copy
    return value


def _convert_items(value: list[Any], convert: Callable[[Any], Any]) -> list[Any]:
    """A list with each item passed through `convert`: itself if no item changed."""
    for index, item in enumerate(value):
        if type(item) in PLAIN_TYPES:
            continue
        new = convert(item)
        if new is not item:
            copy = value[:index]
            copy.append(new)
            copy.extend(map(convert, islice(value, index + 1, None)))
            return copy
    return value


def _key(key: Any) -> str:
    """A mapping key as an object key: a str enum member's value and a str
    subclass's exact text (as values get), never what its `__str__` says."""
    if type(key) is str:
        return key
    if isinstance(key, enum.Enum):
        key = key.value
    return str.__str__(key) if isinstance(key, str) else str(key)


#: What `to_jmespath` converts besides JSON types, mappings and dataclasses.
_CONVERTED = (
    list,
    tuple,
    Set,
    str,
    int,
    float,
    enum.Enum,
    datetime.datetime,
    bytes,
    bytearray,
    memoryview,
    Decimal,
)


def opaque_to_paths(value: Any) -> bool:
    """True for a value JMESPath cannot look into, so that every field a path
    reads on it is null: not JSON data, a mapping, a dataclass or a value
    `to_jmespath` converts (an HTTP library's response object, say)."""
    if type(value) in PLAIN_TYPES or isinstance(value, (Mapping, *_CONVERTED)):
        return False
    return not (dataclasses.is_dataclass(value) and not isinstance(value, type))


def _convert_other(value: Any) -> Any:
    """The slower cases: subclasses and the non-JSON Smithy types."""
    if isinstance(value, enum.Enum):
        return to_jmespath(value.value)
    if isinstance(value, str):
        return str.__str__(value)  # the exact text, whatever the subclass overrides
    if isinstance(value, int):
        return int.__index__(value)
    if isinstance(value, float):
        return float.__float__(value)
    if isinstance(value, datetime.datetime):
        if value.utcoffset() is None:  # naive, also with a tzinfo that knows no offset
            value = value.replace(tzinfo=_UTC)  # a naive timestamp is read as UTC
        return value.timestamp()
    if isinstance(value, (bytes, bytearray, memoryview)):
        return base64.b64encode(bytes(value)).decode("ascii")
    if isinstance(value, Decimal):
        return math.nan if value.is_nan() else float(value)  # float() refuses sNaN
    if isinstance(value, Mapping):
        return {_key(k): to_jmespath(v) for k, v in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            f.name: to_jmespath(getattr(value, f.name))
            for f in dataclasses.fields(value)
        }
    if isinstance(value, (list, tuple, Set)):
        return [to_jmespath(v) for v in value]
    return value

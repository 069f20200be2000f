"""Convert an operation's input or output to the spec's JMESPath data model.

Smithy says what JMESPath sees: timestamps as epoch seconds, blobs as base64
strings, lists and sets as arrays, maps and structures as objects, big numbers
as numbers. Clients hand us Python values (botocore's `datetime`s and `bytes`,
smithy-python's dataclasses), so every value is converted before matching.
"""

from __future__ import annotations

import base64
import dataclasses
import datetime
import enum
from collections.abc import Mapping, Set
from decimal import Decimal
from typing import Any

from .reads import Reads

__all__ = ["output_to_jmespath", "prune", "to_jmespath"]

_PLAIN = (str, int, float, bool, type(None))
_UTC = datetime.timezone.utc


def output_to_jmespath(output: Any, reads: Reads | None = None) -> Any:
    """Convert an operation output, dropping the `ResponseMetadata` key botocore adds.

    With `reads`, only the parts the waiter's paths can read are converted.
    """
    if isinstance(output, Mapping) and "ResponseMetadata" in output:
        output = {k: v for k, v in output.items() if k != "ResponseMetadata"}
    if reads is None:
        return to_jmespath(output)
    return prune(output, reads)


def prune(value: Any, reads: Reads) -> Any:
    """Convert the parts of `value` that `reads` names; leave out object keys it does not.

    Smithy map keys and structure member names are strings, so keys are looked up
    directly. Lists keep every element, each pruned with the same tree.
    """
    if reads.whole:
        return to_jmespath(value)
    kind = type(value)
    if kind is dict:
        return {
            k: prune(value[k], node) for k, node in reads.children.items() if k in value
        }
    if kind is list:
        return [prune(v, reads) for v in value]
    if kind in _PLAIN:
        return value
    if isinstance(value, Mapping):
        return {
            k: prune(value[k], node) for k, node in reads.children.items() if k in value
        }
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        names = {f.name for f in dataclasses.fields(value)}
        return {
            k: prune(getattr(value, k), node)
            for k, node in reads.children.items()
            if k in names
        }
    if isinstance(value, (list, tuple, Set)):
        return [prune(v, reads) for v in value]
    return _convert_other(value)


def to_jmespath(value: Any) -> Any:
    """Return `value` as JSON-like data: dict, list, str, int/float, bool or None."""
    kind = type(value)
    if kind in _PLAIN:
        return value
    if kind is dict:
        return {str(k): to_jmespath(v) for k, v in value.items()}
    if kind is list:
        return [to_jmespath(v) for v in value]
    return _convert_other(value)


def _convert_other(value: Any) -> Any:
    """The slower cases: subclasses and the non-JSON Smithy types."""
    if isinstance(value, enum.Enum):
        return to_jmespath(value.value)
    if isinstance(value, _PLAIN):
        return value
    if isinstance(value, datetime.datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=_UTC)  # a naive timestamp is read as UTC
        return value.timestamp()
    if isinstance(value, (bytes, bytearray, memoryview)):
        return base64.b64encode(bytes(value)).decode("ascii")
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, Mapping):
        return {str(k): to_jmespath(v) for k, v in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            f.name: to_jmespath(getattr(value, f.name))
            for f in dataclasses.fields(value)
        }
    if isinstance(value, (list, tuple, Set)):
        return [to_jmespath(v) for v in value]
    return value

"""One definition's view of an output: the parts its paths read, in the JMESPath data model.

Converting is rarely needed: botocore returns dicts, lists, strings and numbers
everywhere except timestamps and blobs, and most waiter paths never reach those.
So before converting anything, `OutputConverter` checks the parts its paths read
for a value that is not already JSON-like, one level of the `Reads` tree at a
time (C-level `map`/`set` over every value at that level, instead of a Python
call per node). When there is none, which is the common case, the output itself
is what the paths see; otherwise `convert_read_parts` converts it, copy-on-write.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import chain, repeat
from operator import countOf
from typing import Any

from .datamodel import PLAIN_TYPES, convert_read_parts
from .reads import Reads

__all__ = ["OutputConverter", "is_json_like"]

_JSON_TYPES = PLAIN_TYPES | {dict, list}
_METADATA = "ResponseMetadata"


class OutputConverter:
    """Built once per definition from what its paths read; called once per poll."""

    __slots__ = ("reads", "_sees_metadata")

    def __init__(self, reads: Reads) -> None:
        self.reads = reads
        # botocore's `ResponseMetadata` is not part of the output; it only has to
        # be removed when some path could see it.
        self._sees_metadata = reads.whole or _METADATA in reads.children

    def __call__(self, output: Any) -> Any:
        """The output as this definition's paths must see it (the same object if possible)."""
        if self._sees_metadata and isinstance(output, Mapping) and _METADATA in output:
            output = {k: v for k, v in output.items() if k != _METADATA}
        if is_json_like([output], self.reads):
            return output
        return convert_read_parts(output, self.reads)


def is_json_like(values: list[Any], reads: Reads) -> bool:
    """True when nothing that `reads` names in any of `values` needs converting.

    Every value of `values` sits at the position `reads` describes. Lists are
    crossed (their items sit at the same position); at a `whole` position every
    key must be a `str` and every value JSON-like, all the way down.
    """
    leaf = reads.whole or not reads.children
    if leaf and _all_of(values, str):
        return True  # the usual end of a waiter's path: strings
    if not leaf and _all_of(values, dict):
        dicts = values  # the usual middle: one object per position
    else:
        found = _objects(values)
        if found is None:
            return False
        dicts = found
    if reads.whole:
        return _all_of(list(chain.from_iterable(dicts)), str) and is_json_like(
            list(chain.from_iterable(map(dict.values, dicts))), reads
        )
    for key, node in reads.children.items():
        if not is_json_like(list(map(dict.get, dicts, repeat(key))), node):
            return False
    return True


def _all_of(values: list[Any], kind: type) -> bool:
    """True when every one of `values` is exactly of type `kind` (a C-level count)."""
    return countOf(map(type, values), kind) == len(values)


def _objects(values: list[Any]) -> list[dict[Any, Any]] | None:
    """The dicts among `values`, lists crossed; None if a value needs converting."""
    while True:
        if _all_of(values, list):  # an array of objects, the usual case
            values = list(chain.from_iterable(values))
            if _all_of(values, dict):
                return values
            continue
        types = set(map(type, values))
        if not types <= _JSON_TYPES:
            return None
        if list not in types:
            return [v for v in values if type(v) is dict]
        values = [v for v in values if type(v) is not list] + list(
            chain.from_iterable(v for v in values if type(v) is list)
        )

"""One definition's view of an output: the parts its paths read, in the JMESPath data model.

Converting is rarely needed: botocore returns dicts, lists, strings and numbers
everywhere except timestamps and blobs, and most waiter paths never reach those.
So before converting anything, `OutputConverter` checks the parts its paths read
for a value that is not already JSON-like, one level of the `Reads` tree at a
time (C-level `map`/`countOf` over every value at that level, instead of a Python
call per node). When there is none, which is the common case, the output itself
is what the paths see; otherwise `convert_read_parts` converts it, copy-on-write.

At a position a path only walks through, an object may be a `dict` subclass
(`OrderedDict`, `defaultdict`): JMESPath reads it with `.get` exactly as it reads
a dict, so it is used as it is. That lets `map(dict.get, ...)`, which raises for
anything that is not a dict, stand in for a separate type check on the common
path. A position read as a whole (compared, passed to a function) must hold
exact JSON types, so a dict subclass there is converted like any other mapping.

A generated definition also knows, from the model, which read positions can only
hold plain data (`WaiterDefinition.plain_reads`: no timestamp, blob, big number
or document anywhere there). An output that is a `dict`, the form botocore's
parser builds from the model's shapes, is checked only at the other read
positions; every other output is checked everywhere, as without them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from itertools import chain, repeat
from operator import countOf
from typing import Any

from .datamodel import PLAIN_TYPES, convert_read_parts
from .reads import Position, Reads, without_positions

__all__ = ["OutputConverter", "is_json_like"]

_JSON_TYPES = PLAIN_TYPES | {dict, list}
_METADATA = "ResponseMetadata"


class OutputConverter:
    """Built once per definition from what its paths read; called once per poll.

    `plain` lists read positions the model says hold only plain data: a `dict`
    output is not checked there (a position outside `reads` changes nothing).
    """

    __slots__ = (
        "reads",
        "_sees_metadata",
        "_dict_reads",
        "_skips_dicts",
        "_leaves",
        "passes_dicts",
    )

    def __init__(self, reads: Reads, plain: Iterable[Position] = ()) -> None:
        self.reads = reads
        # botocore's `ResponseMetadata` is not part of the output; it only has to
        # be removed when some path could see it.
        self._sees_metadata = reads.whole or _METADATA in reads.children
        positions = tuple(plain)
        checked = without_positions(reads, positions) if positions else reads
        self._skips_dicts = checked is None  # nothing read can need converting
        self._dict_reads = reads if checked is None else checked
        self._leaves = _leaf_keys(self._dict_reads)
        #: A `dict` output is what the paths see, as it is (no call needed).
        self.passes_dicts = self._skips_dicts and not self._sees_metadata

    def __call__(self, output: Any) -> Any:
        """The output as this definition's paths must see it (the same object if possible)."""
        if self._sees_metadata and isinstance(output, Mapping) and _METADATA in output:
            output = {k: v for k, v in output.items() if k != _METADATA}
        if type(output) is dict:
            if self._skips_dicts:
                return output
            leaves = self._leaves  # plain values at flat reads: nothing to check below
            if leaves is not None and PLAIN_TYPES.issuperset(
                map(type, map(output.get, leaves))
            ):
                return output
            checked = self._dict_reads
        else:
            checked = self.reads
        if is_json_like([output], checked):
            return output
        return convert_read_parts(output, self.reads)


def _leaf_keys(reads: Reads) -> tuple[str, ...] | None:
    """The keys `reads` names when each is read no deeper (`State`, `length(Items)`), else None.

    A plain value (`PLAIN_TYPES`, a missing key's None) at such a key needs no
    conversion, whether it is read whole or only for its kind.
    """
    if reads.whole or not reads.children:
        return None
    if any(node.children for node in reads.children.values()):
        return None
    return tuple(reads.children)


def is_json_like(values: list[Any], reads: Reads) -> bool:
    """True when nothing that `reads` names in any of `values` needs converting.

    Every value of `values` sits at the position `reads` describes. Lists are
    crossed (their items sit at the same position); at a `whole` position every
    key must be a `str` and every value JSON-like, all the way down. The walk
    goes level by level, never one Python call per level, and answers False
    (convert) as soon as it meets a list or a whole-read dict a second time: a
    value that holds itself, or shares a part, is left to the conversion.
    """
    try:
        return _json_like(values, reads, set())
    except _Repeated:
        return False


class _Repeated(Exception):
    """A container was met twice: the value is cyclic or shares parts."""


def _json_like(values: list[Any], reads: Reads, seen: set[int]) -> bool:
    """`is_json_like`, with the ids of the containers crossed so far in `seen`."""
    if len(values) == 1 and type(values[0]) is not list:
        return _one_json_like(values[0], reads, seen)
    if reads.whole:
        return countOf(map(type, values), str) == len(values) or _whole_json_like(
            values, seen
        )
    if not reads.children:
        return _objects(values, seen) is not None  # only the kind of value matters here
    if values and type(values[0]) is list:
        values = _cross_arrays(values, seen)
    keys = reads.children.keys()
    try:  # the usual case: one object per position
        columns = [list(map(dict.get, values, repeat(key))) for key in keys]
    except TypeError:  # some value is not an object: skip nulls, or convert
        objects = _objects(values, seen)
        if objects is None:
            return False
        columns = [list(map(dict.get, objects, repeat(key))) for key in keys]
    return all(
        _json_like(column, node, seen)
        for column, node in zip(columns, reads.children.values())
    )


def _one_json_like(value: Any, reads: Reads, seen: set[int]) -> bool:
    """`is_json_like` for one value that is not a list: small outputs skip the per-level lists."""
    kind = type(value)
    if kind in PLAIN_TYPES:
        return True
    if reads.children and not reads.whole and isinstance(value, dict):
        return all(
            _json_like([dict.get(value, key)], node, seen)
            for key, node in reads.children.items()
        )
    if _objects([value], seen) is None:
        return False
    return not reads.whole or _whole_json_like([value], seen)


def _whole_json_like(values: list[Any], seen: set[int]) -> bool:
    """True when every value is exactly JSON data: str keys, JSON types all the way down.

    One loop turn per level of nesting, however deep the values go.
    """
    while True:
        objects = _objects(values, seen)
        if objects is None:
            return False
        if not objects:
            return True
        _remember(objects, seen)
        if not _all_of(list(chain.from_iterable(objects)), str):
            return False
        values = list(chain.from_iterable(map(dict.values, objects)))


def _remember(containers: list[Any], seen: set[int]) -> None:
    """Add the containers' ids to `seen`; raise `_Repeated` if one was there already."""
    before = len(seen)
    seen.update(map(id, containers))
    if len(seen) != before + len(containers):
        raise _Repeated


def _all_of(values: list[Any], kind: type) -> bool:
    """True when every one of `values` is exactly of type `kind` (a C-level count)."""
    return countOf(map(type, values), kind) == len(values)


def _cross_arrays(values: list[Any], seen: set[int]) -> list[Any]:
    """`values` with each list replaced by its items, when they are all lists (the usual case)."""
    while values and type(values[0]) is list and _all_of(values, list):
        _remember(values, seen)
        values = list(chain.from_iterable(values))
    return values


def _objects(values: list[Any], seen: set[int]) -> list[dict[Any, Any]] | None:
    """The exact dicts among `values`, lists crossed; None if some value needs converting."""
    found: list[dict[Any, Any]] = []
    while True:
        values = _cross_arrays(values, seen)
        if _all_of(values, dict):
            return found + values if found else values
        types = set(map(type, values))
        if not types <= _JSON_TYPES:
            return None
        found.extend(v for v in values if type(v) is dict)
        if list not in types:
            return found
        lists = [v for v in values if type(v) is list]
        _remember(lists, seen)
        values = list(chain.from_iterable(lists))

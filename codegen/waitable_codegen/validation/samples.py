"""One concrete sample value per shape, the data the static analysis evaluates paths on.

Follows Smithy's sample generator: numbers are 8 and strings "aa" (clamped by
`@range` / `@length` on the target shape), lists hold two copies of their member's
sample, maps two entries keyed `<key>0`, `<key>1` in Java HashMap order, structures
and unions every member in order. Documents, missing targets and recursion give ANY.

Hostile models are cut short: aggregates nested deeper than MAX_SAMPLE_DEPTH give
ANY (so the walk never nears Python's recursion limit), a `@length` bigger than
MAX_SAMPLE_LENGTH counts as that, and out-of-range numbers never raise.

Given the parts the paths read (`waitable.reads`: a tree of keys, lists crossed,
`whole` where a value is used as such), only those are built: every other member
keeps its key with ANY as its value. A member's sample depends only on the members
on its way (each aggregate takes back what it added), so the parts built are the
ones the whole sample holds, and the paths look at nothing else.
"""

from __future__ import annotations

import math
from typing import Any, TypeGuard

from waitable.reads import Reads

from ..model import Member, Model, Shape
from .jmespath_values import ANY, Value, as_hash_map

_NUMBER_TYPES = frozenset(
    {
        "byte",
        "short",
        "integer",
        "long",
        "float",
        "double",
        "bigInteger",
        "bigDecimal",
        "intEnum",
    }
)
_AGGREGATE_TYPES = frozenset({"list", "map", "structure", "union"})
UNIT = "smithy.api#Unit"
MAX_SAMPLE_DEPTH = 48
"""Aggregates nested deeper than this sample as ANY (no JMESPath path reaches them)."""
MAX_SAMPLE_LENGTH = 1024
"""The longest sample string, list or map, whatever `@length` asks for."""


def operation_sample(
    model: Model, operation: Shape, relationship: str, reads: Reads | None = None
) -> Value:
    """The sample of an operation's `input` or `output`; `{}` when it has none (Unit).
    With `reads`, only the parts read are built (the rest is ANY)."""
    return SampleBuilder(model).shape(operation.ref(relationship) or UNIT, reads)


class SampleBuilder:
    """Builds samples, cutting recursion with a set of members already on the way.

    A member already in the set becomes ANY. Each aggregate restores the set it found
    on entry when it is done, so a member is cut when it appears among its ancestors
    or among the earlier siblings of an ancestor (Smithy's rule, kept as is). The
    set holds (container, member name) pairs, and an aggregate restores it by taking
    back the members it added (a member is only ever added when it is missing).
    """

    def __init__(self, model: Model) -> None:
        self.model = model
        self._shapes = model.shapes
        self._visited: set[tuple[str, str]] = set()
        self._added: list[tuple[str, str]] = []
        self._depth = 0

    def shape(self, shape_id: str, reads: Reads | None = None) -> Value:
        """The sample of the shape with this id (ANY if the model lacks it); with
        `reads`, only the parts read (the rest ANY)."""
        shape = self._shapes.get(shape_id)
        return ANY if shape is None else self._sample(shape, reads)

    def _sample(self, shape: Shape, reads: Reads | None = None) -> Value:
        kind = shape.type
        if kind in _NUMBER_TYPES:
            bounds = shape.traits.get("smithy.api#range")
            return 8.0 if bounds is None else _clamp(8.0, bounds)
        if kind in ("string", "enum"):
            return "a" * _length(shape)
        if kind == "boolean":
            return True
        if kind == "blob":
            return "blob"
        if kind == "timestamp":
            return 0
        if kind not in _AGGREGATE_TYPES:
            return ANY  # document; services, resources and operations are never targets
        if self._depth >= MAX_SAMPLE_DEPTH:
            return ANY
        if reads is not None and reads.whole:
            reads = None
        mark = len(self._added)
        self._depth += 1
        try:
            if kind == "list":
                return self._list(shape, reads)
            if kind == "map":
                return self._map(shape, reads)
            member = self._member
            if reads is None:
                return {name: member(m) for name, m in shape.members.items()}
            read = reads.children
            return {
                name: member(m, read.get(name), name in read)
                for name, m in shape.members.items()
            }
        finally:
            self._depth -= 1
            added = self._added
            if len(added) > mark:
                self._visited.difference_update(added[mark:])
                del added[mark:]

    def _member(
        self, member: Member, reads: Reads | None = None, built: bool = True
    ) -> Value:
        """The member's sample (ANY when cut as recursive, or when not `built`: no
        path reads it; it still counts as on the way for the members after it)."""
        key = (member.container, member.name)
        if key in self._visited:
            return ANY
        self._visited.add(key)
        self._added.append(key)
        shape = self._shapes.get(member.target)
        return ANY if shape is None or not built else self._sample(shape, reads)

    def _list(self, shape: Shape, reads: Reads | None) -> Value:
        member = shape.members.get("member")
        element = ANY if member is None else self._member(member, reads)  # crossed
        return [element] * _length(shape)

    def _map(self, shape: Shape, reads: Reads | None) -> Value:
        key_member, value_member = shape.members.get("key"), shape.members.get("value")
        # The keys are always built; the values whole when any key below is read.
        read = reads is None or bool(reads.children)
        key = ANY if key_member is None else self._member(key_member)
        value = ANY if value_member is None else self._member(value_member, None, read)
        if not isinstance(key, str):
            # A key cut off as recursive: Smithy's generator fails here; we give up
            # on this map's contents instead.
            return ANY
        return as_hash_map({f"{key}{i}": value for i in range(_length(shape))})


def _length(shape: Shape) -> int:
    bounds = shape.traits.get("smithy.api#length")
    if bounds is None:
        return 2
    length = _clamp(2, bounds)
    return int(min(max(length, 0), MAX_SAMPLE_LENGTH)) if math.isfinite(length) else 2


def _clamp(value: float, bounds: Any) -> float:
    """`value` raised to the trait's `min`, then lowered to its `max` (NaN bounds are
    ignored; an integer too large for a float gives an infinity)."""
    if isinstance(bounds, dict):
        low, high = bounds.get("min"), bounds.get("max")
        if _is_number(low) and not _is_nan(low):
            value = max(value, low)
        if _is_number(high) and not _is_nan(high):
            value = min(value, high)
    try:
        return float(value)
    except OverflowError:
        return math.inf if value > 0 else -math.inf


def _is_nan(value: float) -> bool:
    return isinstance(value, float) and math.isnan(value)


def _is_number(value: Any) -> TypeGuard[float]:
    return isinstance(value, (int, float)) and not isinstance(value, bool)

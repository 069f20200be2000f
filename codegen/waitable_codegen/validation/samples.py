"""One concrete sample value per shape, the data the static analysis evaluates paths on.

Follows Smithy's sample generator: numbers are 8 and strings "aa" (clamped by
`@range` / `@length` on the target shape), lists hold two copies of their member's
sample, maps two entries keyed `<key>0`, `<key>1` in Java HashMap order, structures
and unions every member in order. Documents, missing targets and recursion give ANY.

Hostile models are cut short: aggregates nested deeper than MAX_SAMPLE_DEPTH give
ANY (so the walk never nears Python's recursion limit), a `@length` bigger than
MAX_SAMPLE_LENGTH counts as that, and out-of-range numbers never raise.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, TypeGuard

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
UNIT = "smithy.api#Unit"
MAX_SAMPLE_DEPTH = 48
"""Aggregates nested deeper than this sample as ANY (no JMESPath path reaches them)."""
MAX_SAMPLE_LENGTH = 1024
"""The longest sample string, list or map, whatever `@length` asks for."""


def operation_sample(model: Model, operation: Shape, relationship: str) -> Value:
    """The sample of an operation's `input` or `output`; `{}` when it has none (Unit)."""
    return SampleBuilder(model).shape(operation.ref(relationship) or UNIT)


class SampleBuilder:
    """Builds samples, cutting recursion with a set of members already on the way.

    A member already in the set becomes ANY. Each aggregate restores the set it found
    on entry when it is done, so a member is cut when it appears among its ancestors
    or among the earlier siblings of an ancestor (Smithy's rule, kept as is).
    """

    def __init__(self, model: Model) -> None:
        self.model = model
        self._visited: set[str] = set()
        self._depth = 0

    def shape(self, shape_id: str) -> Value:
        """The sample of the shape with this id (ANY if the model lacks it)."""
        shape = self.model.get(shape_id)
        return ANY if shape is None else self._sample(shape)

    def _sample(self, shape: Shape) -> Value:
        kind = shape.type
        if kind in _NUMBER_TYPES:
            return _clamp(8.0, shape.traits.get("smithy.api#range"))
        if kind in ("string", "enum"):
            return "a" * _length(shape)
        if kind == "boolean":
            return True
        if kind == "blob":
            return "blob"
        if kind == "timestamp":
            return 0
        if kind == "list":
            return self._scoped(lambda: self._list(shape))
        if kind == "map":
            return self._scoped(lambda: self._map(shape))
        if kind in ("structure", "union"):
            return self._scoped(
                lambda: {name: self._member(m) for name, m in shape.members.items()}
            )
        return ANY  # document; services, resources and operations are never targets

    def _member(self, member: Member) -> Value:
        if member.id in self._visited:
            return ANY
        self._visited.add(member.id)
        return self.shape(member.target)

    def _scoped(self, build: Callable[[], Value]) -> Value:
        if self._depth >= MAX_SAMPLE_DEPTH:
            return ANY
        saved = set(self._visited)
        self._depth += 1
        try:
            return build()
        finally:
            self._visited = saved
            self._depth -= 1

    def _list(self, shape: Shape) -> Value:
        member = shape.members.get("member")
        element = ANY if member is None else self._member(member)
        return [element] * _length(shape)

    def _map(self, shape: Shape) -> Value:
        key_member, value_member = shape.members.get("key"), shape.members.get("value")
        key = ANY if key_member is None else self._member(key_member)
        value = ANY if value_member is None else self._member(value_member)
        if not isinstance(key, str):
            # A key cut off as recursive: Smithy's generator fails here; we give up
            # on this map's contents instead.
            return ANY
        return as_hash_map({f"{key}{i}": value for i in range(_length(shape))})


def _length(shape: Shape) -> int:
    length = _clamp(2, shape.traits.get("smithy.api#length"))
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

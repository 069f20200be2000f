"""The shapes of a loaded Smithy model: plain records the validator and planner read."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, get_args

SimpleType = Literal[
    "blob",
    "boolean",
    "string",
    "byte",
    "short",
    "integer",
    "long",
    "float",
    "double",
    "bigInteger",
    "bigDecimal",
    "timestamp",
    "document",
    "enum",
    "intEnum",
]
AggregateType = Literal["list", "set", "map", "structure", "union"]
ServiceType = Literal["service", "resource", "operation"]
ShapeType = Literal[SimpleType, AggregateType, ServiceType]
"""Every shape type of the JSON AST (the text reader's outline is typed with it,
so msgspec refuses any other as it reads)."""
SIMPLE_TYPES = frozenset(get_args(SimpleType))
AGGREGATE_TYPES = frozenset(get_args(AggregateType))
SERVICE_TYPES = frozenset(get_args(ServiceType))
SHAPE_TYPES = frozenset(get_args(ShapeType))

WAITABLE_TRAIT = "smithy.waiters#waitable"

UNREAD_TRAITS = frozenset(
    {
        "smithy.api#documentation",
        "smithy.api#examples",
        "smithy.rules#endpointRuleSet",
        "smithy.rules#endpointTests",
    }
)
"""Shape traits whose values generation never reads (only whether a shape has
them): the text reader leaves their values raw JSON, checked but not decoded (the
rule sets and their tests are 40% of what the AWS models' kept shapes hold)."""


def shape_name(shape_id: str) -> str:
    """The name part of a shape id: `ns#Name$member` gives `Name`."""
    return shape_id.split("#", 1)[-1].split("$", 1)[0]


def shape_namespace(shape_id: str) -> str:
    """The namespace part of an absolute shape id (empty for a relative one)."""
    return shape_id.split("#", 1)[0] if "#" in shape_id else ""


@dataclass(slots=True)
class Member:
    """A member of an aggregate shape: its name, target shape id and traits
    (slotted: a large model holds tens of thousands)."""

    name: str
    target: str
    container: str
    traits: dict[str, Any] = field(default_factory=dict)

    @property
    def id(self) -> str:
        """The member's shape id, `ns#Container$name`."""
        return f"{self.container}${self.name}"

    @property
    def required(self) -> bool:
        """True when the member carries `@required`."""
        return "smithy.api#required" in self.traits


@dataclass(slots=True)
class Shape:
    """One shape as the JSON AST defines it, after mixins and `apply` are resolved.

    `members` holds structure, union and enum members in definition order; a list's
    `member`, and a map's `key` and `value`, under those names. `refs` holds the
    relationship properties of services, resources and operations as the AST spells
    them (`input`, `output`, `errors`, `operations`, `resources`, `create`, ...), each as
    a tuple of target shape ids.
    """

    id: str
    type: str
    source: str
    traits: dict[str, Any] = field(default_factory=dict)
    members: dict[str, Member] = field(default_factory=dict)
    refs: dict[str, tuple[str, ...]] = field(default_factory=dict)
    mixins: tuple[str, ...] = ()
    properties: dict[str, Any] = field(default_factory=dict)

    @property
    def name(self) -> str:
        """The shape's name without its namespace."""
        return shape_name(self.id)

    @property
    def namespace(self) -> str:
        """The shape's namespace."""
        return shape_namespace(self.id)

    def ref(self, key: str) -> str | None:
        """The single target of a relationship (`input`, `output`, `read`, ...), if any."""
        targets = self.refs.get(key, ())
        return targets[0] if targets else None

    @property
    def input(self) -> str | None:
        """An operation's input structure, or None when it has none (or `smithy.api#Unit`)."""
        target = self.ref("input")
        return None if target in (None, "smithy.api#Unit") else target

    @property
    def output(self) -> str | None:
        """An operation's output structure, or None when it has none (or `smithy.api#Unit`)."""
        target = self.ref("output")
        return None if target in (None, "smithy.api#Unit") else target

    @property
    def errors(self) -> tuple[str, ...]:
        """The error structures an operation (or a service) declares."""
        return self.refs.get("errors", ())

    @property
    def is_mixin(self) -> bool:
        """True for a shape marked `@mixin`."""
        return "smithy.api#mixin" in self.traits

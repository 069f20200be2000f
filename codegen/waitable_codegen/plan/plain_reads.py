"""The read positions of a waiter's output that the model says hold only plain data.

Before matching, the runtime checks the parts of an output its paths read for
values the JMESPath data model converts (timestamps, blobs, big numbers,
documents). The output shape already says where none can be: those positions go
into the definition as `plain_reads`, and the runtime skips them when it checks
an output given as a dict (botocore's form of the shapes). A position is where
a path reads a whole value: the keys from the output's root, lists crossed, the
same `Reads` tree the runtime builds (`waitable.reads.output_reads_of`).
"""

from __future__ import annotations

from collections.abc import Iterable

from waitable.reads import Position, Reads, output_reads_of

from ..literals import Source, compose, join, string_literal
from ..model import Model, Shape
from ..naming import identifier
from .layout import tuple_argument
from .trait import AcceptorSpec

__all__ = ["PLAIN_TYPES", "PlainShapes", "plain_positions", "plain_reads_argument"]

PLAIN_TYPES = frozenset(
    {
        "string",
        "enum",
        "boolean",
        "byte",
        "short",
        "integer",
        "long",
        "float",
        "double",
        "intEnum",
    }
)
"""Simple shapes a client hands over as `str`, `int`, `float` or `bool` (JSON already).

Not here, so never plain: `timestamp`, `blob`, `bigInteger`, `bigDecimal`, `document`,
and any `@streaming` shape (an event stream is an object, not data).
"""

_CONTAINERS = frozenset({"list", "set", "map", "structure", "union"})
_STREAMING = "smithy.api#streaming"
_PLAIN_READS = identifier("plain_reads")


class PlainShapes:
    """Answers "can anything under this shape need converting?", once per shape id."""

    def __init__(self, model: Model) -> None:
        self.model = model
        self._known: dict[str, bool] = {}

    def all_plain(self, shape: Shape) -> bool:
        """True when no shape reachable from `shape` (itself included) is converted."""
        known = self._known.get(shape.id)
        if known is not None:
            return known
        seen = {shape.id}
        stack = [shape]
        plain = True
        while stack and plain:
            current = stack.pop()
            if _STREAMING in current.traits:  # botocore hands over a stream object
                plain = False
                break
            if current.type in PLAIN_TYPES:
                continue
            if current.type not in _CONTAINERS:
                plain = False
                break
            for member in current.members.values():
                target = self.model.get(member.target)
                if target is None:
                    plain = False
                    break
                if target.id not in seen:
                    seen.add(target.id)
                    stack.append(target)
        self._known[shape.id] = plain
        return plain

    def member(self, shape: Shape, key: str) -> Shape | None:
        """The shape a path's `key` reads below `shape` (lists crossed), if the model has one."""
        shape = self.element(shape)
        if shape.type in ("structure", "union"):
            member = shape.members.get(key)
        elif shape.type == "map":
            member = shape.members.get("value")
        else:
            return None
        return None if member is None else self.model.get(member.target)

    def element(self, shape: Shape) -> Shape:
        """`shape`, or for a list (of lists...) its innermost member's shape."""
        seen = {shape.id}
        while shape.type in ("list", "set") and "member" in shape.members:
            target = self.model.get(shape.members["member"].target)
            if target is None or target.id in seen:
                break
            seen.add(target.id)
            shape = target
        return shape


def plain_positions(
    shapes: PlainShapes, output: Shape | None, acceptors: Iterable[AcceptorSpec]
) -> tuple[Position, ...]:
    """Every position the acceptors' paths and messages read whole that is plain, sorted."""
    if output is None:
        return ()
    reads = Reads()
    for acceptor in acceptors:
        both = acceptor.kind == "inputOutput"
        if acceptor.path_matcher is not None:
            reads.merge(output_reads_of(acceptor.path_matcher.path, both))
        if acceptor.message is not None:
            reads.merge(output_reads_of(acceptor.message, both))
    found: list[Position] = []
    stack: list[tuple[Reads, Shape, Position]] = [(reads, output, ())]
    while stack:
        node, shape, position = stack.pop()
        if node.whole:
            if shapes.all_plain(shape):
                found.append(position)
            continue
        for key, child in node.children.items():
            target = shapes.member(shape, key)
            if target is not None:  # not in the model: checked at run time
                stack.append((child, target, position + (key,)))
    return tuple(sorted(found))


def plain_reads_argument(positions: tuple[Position, ...]) -> Source | None:
    """The definition's `plain_reads=(...)` argument, laid out; None when there are none."""
    if not positions:
        return None
    items = []
    for position in positions:
        keys = join(", ", [string_literal(key) for key in position])
        items.append(
            compose("({},)", keys) if len(position) == 1 else compose("({})", keys)
        )
    return tuple_argument(_PLAIN_READS, items, 4)

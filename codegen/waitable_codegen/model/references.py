"""Every reference of a resolved model checked: it exists and names the right kind.

Smithy's rules (JSON AST and TargetValidator): a member targets a plain shape, never
a service, resource, operation or mixin; an operation's input, output and errors are
structures; services and resources bind operations and resources. A list or map that
contains itself with no structure or union in between is an error too (Smithy's
ShapeRecursionValidator), and so is nesting lists and maps deeper than
MAX_COLLECTION_NESTING, past which generated type annotations make no sense.
"""

from __future__ import annotations

from collections.abc import Mapping

from .errors import Location, model_error
from .shapes import Member, Shape

MAX_COLLECTION_NESTING = 32
"""The deepest chain of lists and maps (list of list of ...) a model may hold."""

_SERVICE_TYPES = frozenset({"service", "resource", "operation"})
_MIXIN = "smithy.api#mixin"
_REFERENCE_KINDS = {
    "input": "structure",
    "output": "structure",
    "errors": "structure",
    "operations": "operation",
    "collectionOperations": "operation",
    "create": "operation",
    "put": "operation",
    "read": "operation",
    "update": "operation",
    "delete": "operation",
    "list": "operation",
    "resources": "resource",
}
_SINGLE = frozenset(
    {"input", "output", "create", "put", "read", "update", "delete", "list"}
)
_COLLECTIONS = frozenset({"list", "map"})


def check_references(shapes: Mapping[str, Shape]) -> None:
    """A ModelError for the first reference that is missing or of the wrong kind."""
    get = shapes.get
    for shape in shapes.values():
        for member in shape.members.values():
            target = get(member.target)
            if (
                target is None
                or target.type in _SERVICE_TYPES
                or _MIXIN in target.traits
            ):
                _check_member_target(
                    shapes,
                    shape,
                    member.target,
                    _member_where(shape, member),
                    f"member {member.id}",
                )
        if shape.properties:  # most shapes have none
            for key in ("identifiers", "properties"):
                named = shape.properties.get(key, _NO_NAMES)
                for name, target_id in named.items():
                    where = ("shapes", shape.id, key, name, "target")
                    _check_member_target(
                        shapes, shape, target_id, where, f"{shape.id} {key} {name}"
                    )
        for key, targets in shape.refs.items():
            at: Location = (
                ("shapes", shape.id, key, "target")
                if key in _SINGLE
                else ("shapes", shape.id, key)
            )
            for target_id in targets:
                _check_reference(shapes, shape, key, target_id, at)
    check_collection_nesting(shapes)


_NO_NAMES: Mapping[str, str] = {}


def _member_where(shape: Shape, member: Member) -> Location:
    if shape.type in _COLLECTIONS:
        return ("shapes", shape.id, member.name, "target")
    return ("shapes", shape.id, "members", member.name, "target")


def _missing(shape: Shape, where: Location, subject: str, target: str) -> None:
    raise model_error(
        shape.source,
        where,
        f"{subject} {target}, which is not defined in the model "
        "(missing a model file?)",
    )


def _check_member_target(
    shapes: Mapping[str, Shape],
    shape: Shape,
    target_id: str,
    where: Location,
    subject: str,
) -> None:
    target = shapes.get(target_id)
    if target is None:
        _missing(shape, where, f"{subject} targets", target_id)
        return
    if target.type in _SERVICE_TYPES or _MIXIN in target.traits:
        what = "a mixin" if _MIXIN in target.traits else f"the {target.type}"
        raise model_error(
            shape.source,
            where,
            f"{subject} targets {what} {target_id}; a member must target a "
            "simple shape, a list, a map, a structure or a union",
        )


def _check_reference(
    shapes: Mapping[str, Shape], shape: Shape, key: str, target_id: str, where: Location
) -> None:
    target = shapes.get(target_id)
    if target is None:
        _missing(shape, where, f"shape {shape.id} {key} refers to", target_id)
        return
    wanted = _REFERENCE_KINDS.get(key)
    if wanted is None:
        return
    if target.type != wanted or _MIXIN in target.traits:
        found = f"a mixin {target.type}" if _MIXIN in target.traits else target.type
        raise model_error(
            shape.source,
            where,
            f"the {key} of {shape.type} {shape.id} must be a {wanted} shape, but "
            f"{target_id} is {'an' if found[0] in 'aeiou' else 'a'} {found}: "
            f"point it at a {wanted}",
        )


def check_collection_nesting(shapes: Mapping[str, Shape]) -> None:
    """A ModelError for a list or map that holds itself without a structure or union
    in between, or for lists and maps nested deeper than MAX_COLLECTION_NESTING.
    Iterative: each collection is visited once."""
    height: dict[str, int] = {}
    for root in sorted(s.id for s in shapes.values() if s.type in _COLLECTIONS):
        if root in height:
            continue
        path = [root]
        on_path = {root}
        pending = [_inner_collections(shapes, shapes[root])]
        while pending:
            if not pending[-1]:
                pending.pop()
                finished = path.pop()
                on_path.discard(finished)
                inner = _inner_collections(shapes, shapes[finished])
                height[finished] = 1 + max((height[i] for i in inner), default=0)
                if height[finished] > MAX_COLLECTION_NESTING:
                    _too_deep(shapes[finished])
                continue
            child = pending[-1].pop()
            if child in height:
                continue
            if child in on_path:
                _recursive(shapes[path[-1]], [*path[path.index(child) :], child])
            path.append(child)
            on_path.add(child)
            pending.append(_inner_collections(shapes, shapes[child]))


def _inner_collections(shapes: Mapping[str, Shape], shape: Shape) -> list[str]:
    return [
        member.target
        for member in shape.members.values()
        if member.target in shapes and shapes[member.target].type in _COLLECTIONS
    ]


def _recursive(shape: Shape, cycle: list[str]) -> None:
    raise model_error(
        shape.source,
        ("shapes", shape.id),
        f"{' -> '.join(cycle)} contains itself with no structure or union in "
        "between; Smithy allows recursion only through a structure or union member",
    )


def _too_deep(shape: Shape) -> None:
    raise model_error(
        shape.source,
        ("shapes", shape.id),
        f"{shape.id} nests lists and maps more than {MAX_COLLECTION_NESTING} deep; "
        "the generator types no deeper collections: put a structure in between",
    )

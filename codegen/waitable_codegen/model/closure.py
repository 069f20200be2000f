"""Service closures: the operations and shapes a service reaches."""

from __future__ import annotations

from collections.abc import Mapping

from .shapes import Shape

_RESOURCE_OPERATIONS = (
    "create",
    "put",
    "read",
    "update",
    "delete",
    "list",
    "operations",
    "collectionOperations",
)


def service_operations(shapes: Mapping[str, Shape], service_id: str) -> list[str]:
    """Every operation bound to a service, directly or through (nested) resources, sorted."""
    return sorted(bound_operations(shapes, service_id))


def bound_operations(shapes: Mapping[str, Shape], service_id: str) -> set[str]:
    """Every operation bound to a service, directly or through (nested) resources,
    unordered: for callers that group them (sorting thousands of ids costs more
    than finding them)."""
    found: set[str] = set()
    pending = [service_id]
    visited: set[str] = set()
    while pending:
        container = shapes[pending.pop()]
        if container.id in visited:
            continue
        visited.add(container.id)
        keys = ("operations",) if container.type == "service" else _RESOURCE_OPERATIONS
        for key in keys:
            found.update(container.refs.get(key, ()))
        pending.extend(container.refs.get("resources", ()))
    return {op for op in found if shapes[op].type == "operation"}


def shape_closure(shapes: Mapping[str, Shape], root_id: str) -> set[str]:
    """Every shape reachable from `root_id` through members and relationships."""
    seen: set[str] = set()
    pending = [root_id]
    while pending:
        shape_id = pending.pop()
        if shape_id in seen or shape_id not in shapes:
            continue
        seen.add(shape_id)
        shape = shapes[shape_id]
        pending.extend(member.target for member in shape.members.values())
        for targets in shape.refs.values():
            pending.extend(targets)
    return seen

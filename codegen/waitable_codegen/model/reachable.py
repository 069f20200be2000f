"""The part of parsed JSON AST documents that generation reads, found before the
shapes are loaded, so that most of a large model is never turned into shapes.

Generation reads the shapes that carry `smithy.waiters#waitable`, every service,
and what these reach: members' targets, inputs, outputs, errors, resources and
their identifiers. An operation a service or resource binds that carries no
waiter is only counted as an operation (a service's closure lists it), so it is
kept as a bare `{"type": "operation"}`. Every kept shape is then loaded and
checked exactly as `load_model` checks it; a shape left out can reach neither
generated code nor a message.

The cut is made only for documents whose outline is plain (every shape key a
valid id, every body an object of a known type with an object of traits, no
mixins, no `apply`, no shape defined twice or over the prelude) and that hold a
waiter; anything else is loaded whole, so its errors are reported as before.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from .prelude import prelude_shapes
from .shape_ids import KNOWN_MEMBER_IDS, is_member_id
from .shapes import SHAPE_TYPES, WAITABLE_TRAIT

_MIXIN = "smithy.api#mixin"
_MEMBER_TYPES = frozenset({"structure", "union", "enum", "intEnum"})
_FIXED_MEMBERS = {"list": ("member",), "set": ("member",), "map": ("key", "value")}
_SINGLE = ("input", "output")
_BINDINGS_SINGLE = ("create", "put", "read", "update", "delete", "list")
_BINDINGS_LIST = ("operations", "collectionOperations")
_PRELUDE_IDS = frozenset(prelude_shapes())
_NO_TRAITS: dict[str, Any] = {}


def reachable_documents(documents: Sequence[Any]) -> list[dict[str, Any]] | None:
    """Each document (parsed JSON) with only the shapes generation reads, in their
    order; None when the documents must be loaded whole."""
    bodies: dict[str, dict[str, Any]] = {}
    roots: list[str] = []
    for data in documents:
        shapes = _plain_outline(data, roots)
        if shapes is None:
            return None
        if not (bodies.keys().isdisjoint(shapes) and _PRELUDE_IDS.isdisjoint(shapes)):
            return None
        bodies.update(shapes)
    if not any(WAITABLE_TRAIT in bodies[root].get("traits", ()) for root in roots):
        return None
    kept, bare = _closure(bodies, roots)
    return [_cut(data, kept, bare) for data in documents]


def _plain_outline(data: Any, roots: list[str]) -> dict[str, Any] | None:
    """The shapes of a document whose outline is plain, or None; its services and
    shapes with waiters are added to `roots` (one pass: each body is touched once,
    as the bodies lie scattered in memory)."""
    if type(data) is not dict:
        return None
    version = data.get("smithy")
    if type(version) is not str or not (
        version in ("1", "2") or version.startswith(("1.", "2."))
    ):
        return None
    shapes = data.get("shapes", {})
    if type(shapes) is not dict or type(data.get("metadata", {})) is not dict:
        return None
    for shape_id, body in shapes.items():
        if shape_id not in KNOWN_MEMBER_IDS and not is_member_id(shape_id):
            return None
        if "$" in shape_id or type(body) is not dict or "mixins" in body:
            return None
        kind = body.get("type")
        if type(kind) is not str or kind not in SHAPE_TYPES:
            return None
        traits = body.get("traits", _NO_TRAITS)
        if type(traits) is not dict:
            return None
        if kind == "service" or WAITABLE_TRAIT in traits:
            roots.append(shape_id)
    return shapes


def _closure(
    bodies: dict[str, dict[str, Any]], roots: list[str]
) -> tuple[set[str], set[str]]:
    """The shapes kept whole, and the bound operations kept bare."""
    kept: set[str] = set()
    bare: set[str] = set()
    pending = list(roots)
    while pending:
        shape_id = pending.pop()
        if shape_id in kept:
            continue
        kept.add(shape_id)
        body = bodies[shape_id]
        for target in _targets(body):
            if type(target) is str and target in bodies and target not in kept:
                pending.append(target)
        for target in _bindings(body):
            if type(target) is not str or target not in bodies:
                continue
            if target in bare or target in kept:
                continue
            bound = bodies[target]
            traits = bound.get("traits", {})
            if bound["type"] == "operation" and not (
                WAITABLE_TRAIT in traits or _MIXIN in traits
            ):
                bare.add(target)
            else:
                pending.append(target)
    return kept, bare - kept


def _targets(body: dict[str, Any]) -> list[Any]:
    """The shape ids a body refers to, other than bound operations (malformed
    slots are skipped: loading the shape reports them)."""
    found: list[Any] = []
    kind = body["type"]
    if kind in _MEMBER_TYPES:
        members = body.get("members")
        if type(members) is dict:
            found += map(_target, members.values())
    for name in _FIXED_MEMBERS.get(kind, ()):
        found.append(_target(body.get(name)))
    for name in _SINGLE:
        found.append(_target(body.get(name)))
    for name in ("errors", "resources"):
        references = body.get(name)
        if type(references) is list:
            found += map(_target, references)
    for name in ("identifiers", "properties"):
        named = body.get(name)
        if type(named) is dict:
            found += map(_target, named.values())
    return found


def _bindings(body: dict[str, Any]) -> Iterator[Any]:
    """The operations a service or resource binds."""
    if body["type"] not in ("service", "resource"):
        return
    for name in _BINDINGS_SINGLE:
        yield _target(body.get(name))
    for name in _BINDINGS_LIST:
        yield from _target_list(body.get(name))


def _target(reference: Any) -> Any:
    return reference.get("target") if type(reference) is dict else None


def _target_list(references: Any) -> Iterator[Any]:
    if type(references) is list:
        for reference in references:
            yield _target(reference)


def _cut(data: dict[str, Any], kept: set[str], bare: set[str]) -> dict[str, Any]:
    """`data` with only the kept shapes and bare bound operations, in order."""
    shapes: dict[str, Any] = {}
    every = data.get("shapes", {})
    for shape_id in filter((kept | bare).__contains__, every):
        shapes[shape_id] = (
            every[shape_id] if shape_id in kept else {"type": "operation"}
        )
    cut = {key: value for key, value in data.items() if key != "shapes"}
    cut["shapes"] = shapes
    return cut

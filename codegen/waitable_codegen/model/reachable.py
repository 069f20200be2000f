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

from collections.abc import Callable, Container, Iterable, Iterator, Sequence
from typing import Any

from .prelude import prelude_shapes
from .shape_ids import are_shape_ids
from .shapes import SHAPE_TYPES, WAITABLE_TRAIT

MIXIN_TRAIT = "smithy.api#mixin"
_MEMBER_TYPES = frozenset({"structure", "union", "enum", "intEnum"})
_FIXED_MEMBERS = {"list": ("member",), "set": ("member",), "map": ("key", "value")}
_SINGLE = ("input", "output")
_BINDINGS_SINGLE = ("create", "put", "read", "update", "delete", "list")
_BINDINGS_LIST = ("operations", "collectionOperations")
_BINDERS = frozenset({"service", "resource"})
_REFERRING = frozenset(
    {"member", "key", "value", "input", "output", "errors", "resources"}
    | {"identifiers", "properties"}
)
"""The keys `_targets` reads besides `members`."""
PRELUDE_IDS = frozenset(prelude_shapes())
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
        if not (bodies.keys().isdisjoint(shapes) and PRELUDE_IDS.isdisjoint(shapes)):
            return None
        bodies.update(shapes)
    if not any(WAITABLE_TRAIT in bodies[root].get("traits", ()) for root in roots):
        return None
    kept, bare = closure(roots, bodies, bodies.__getitem__, _bare_in(bodies))
    return [cut_document(data, kept, bare) for data in documents]


def _bare_in(bodies: dict[str, dict[str, Any]]) -> Callable[[str], bool]:
    def bare(shape_id: str) -> bool:
        body = bodies[shape_id]
        traits = body.get("traits", _NO_TRAITS)
        return is_bare_operation(
            body["type"], WAITABLE_TRAIT in traits or MIXIN_TRAIT in traits
        )

    return bare


def _plain_outline(data: Any, roots: list[str]) -> dict[str, Any] | None:
    """The shapes of a document whose outline is plain, or None; its services and
    shapes with waiters are added to `roots` (one pass: each body is touched once,
    as the bodies lie scattered in memory)."""
    if type(data) is not dict:
        return None
    if not is_plain_version(data.get("smithy")):
        return None
    shapes = data.get("shapes", {})
    if type(shapes) is not dict or type(data.get("metadata", {})) is not dict:
        return None
    if not are_shape_ids(shapes):
        return None
    for shape_id, body in shapes.items():
        if type(body) is not dict or "mixins" in body:
            return None
        kind = body.get("type")
        if not is_plain_kind(kind):
            return None
        traits = body.get("traits", _NO_TRAITS)
        if type(traits) is not dict:
            return None
        if kind == "service" or WAITABLE_TRAIT in traits:
            roots.append(shape_id)
    return shapes


def is_plain_version(version: object) -> bool:
    """A `smithy` version the cut reads: "1", "2" or one of their minors."""
    return type(version) is str and (
        version in ("1", "2") or version.startswith(("1.", "2."))
    )


def is_plain_kind(kind: object) -> bool:
    """The type of a shape the cut reads (whose id must also be a valid absolute
    id without a member part: `are_shape_ids` checks a document's ids at once)."""
    return type(kind) is str and kind in SHAPE_TYPES


def closure(
    roots: Iterable[str],
    known: Container[str],
    body_of: Callable[[str], dict[str, Any]],
    bare: Callable[[str], bool],
) -> tuple[set[str], set[str]]:
    """The shapes kept whole, and the bound operations kept bare: what `roots`
    reach among the `known` shape ids. `body_of` gives a shape's parsed body (only
    kept shapes are asked for), `bare` whether a bound operation is kept bare."""
    kept: set[str] = set()
    bared: set[str] = set()
    pending = list(roots)
    while pending:
        shape_id = pending.pop()
        if shape_id in kept:
            continue
        kept.add(shape_id)
        body = body_of(shape_id)
        for target in _targets(body):
            if type(target) is str and target in known and target not in kept:
                pending.append(target)
        if body["type"] not in _BINDERS:
            continue
        for target in _bindings(body):
            if type(target) is not str or target not in known:
                continue
            if target in bared or target in kept:
                continue
            if bare(target):
                bared.add(target)
            else:
                pending.append(target)
    return kept, bared - kept


def is_bare_operation(kind: str, marked: bool) -> bool:
    """Whether a bound shape is kept as a bare `{"type": "operation"}`: an
    operation not `marked` with a waiter or as a mixin (a mixin is kept whole, so
    loading reports it)."""
    return kind == "operation" and not marked


def _targets(body: dict[str, Any]) -> list[Any]:
    """The shape ids a body refers to, other than bound operations (malformed
    slots are skipped: loading the shape reports them). Most bodies hold none of
    the `_REFERRING` keys (a structure: its type, traits and members), and are
    done after their members."""
    found: list[Any] = []
    kind = body["type"]
    if kind in _MEMBER_TYPES:
        members = body.get("members")
        if type(members) is dict:
            found = [  # `_target` of each, without a call each
                member.get("target") if type(member) is dict else None
                for member in members.values()
            ]
    if _REFERRING.isdisjoint(body):
        return found
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
    """The operations a service or resource (`_BINDERS`) binds."""
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


def cut_document(
    data: dict[str, Any], kept: set[str], bare: set[str]
) -> dict[str, Any]:
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

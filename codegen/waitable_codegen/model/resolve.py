"""Merge parsed documents into one set of shapes: mixins flattened, `apply` entries
applied, then every reference checked to exist and to name the right kind of shape.

Every walk here uses an explicit stack, so a long mixin chain or a deep graph of
shapes costs time in proportion to its size and never Python's recursion limit.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..errors import safe_text
from .errors import json_type, model_error
from .loader import Document
from .prelude import prelude_shapes
from .references import check_references
from .shape_ids import check_shape_id
from .shapes import Member, Shape

MIXIN_TRAIT = "smithy.api#mixin"
MAX_MIXIN_DEPTH = 100
"""The longest chain of mixins flattened (one mixing in the next)."""
MAX_FLATTENED_MEMBERS = 1_000_000
"""How many members flattening mixins may create in a whole model."""


def build_shapes(
    documents: Iterable[Document],
) -> tuple[dict[str, Shape], dict[str, Any]]:
    """Merge documents, resolve mixins and `apply`, and check every reference."""
    shapes = prelude_shapes()
    prelude = set(shapes)
    metadata: dict[str, Any] = {}
    applies: list[tuple[str, dict[str, Any], str]] = []
    for document in documents:
        for shape_id, shape in document.shapes.items():
            previous = shapes.get(shape_id)
            if previous is not None and shape_id not in prelude:
                if not _same_definition(previous, shape):
                    raise model_error(
                        document.source,
                        ("shapes", shape_id),
                        f"shape {shape_id} conflicts with its definition in "
                        f"{safe_text(previous.source)}; define it once or make both "
                        "identical",
                    )
                continue
            if previous is not None and previous.type != shape.type:
                raise model_error(
                    document.source,
                    ("shapes", shape_id, "type"),
                    f"shape {shape_id} redefines the prelude shape as {shape.type}, "
                    f"but it is {previous.type}; rename the shape",
                )
            shapes[shape_id] = shape
            prelude.discard(shape_id)
        applies.extend(
            (sid, traits, document.source) for sid, traits in document.applies
        )
        _merge_metadata(metadata, document.metadata)
    resolve_mixins(shapes)
    for shape_id, traits, source in applies:
        _apply(shapes, shape_id, traits, source)
    check_references(shapes)
    return shapes, metadata


def _same_definition(first: Shape, second: Shape) -> bool:
    """True when two files define a shape alike (as loaded, before mixins and
    `apply`): the same type, traits, members, references, mixins and properties."""
    return (
        first.type == second.type
        and first.traits == second.traits
        and first.members == second.members
        and first.refs == second.refs
        and first.mixins == second.mixins
        and first.properties == second.properties
    )


def _merge_metadata(into: dict[str, Any], new: Mapping[str, Any]) -> None:
    for key, value in new.items():
        if isinstance(value, list) and isinstance(into.get(key), list):
            into[key] = [*into[key], *value]
        else:
            into.setdefault(key, value)


def _apply(
    shapes: dict[str, Shape], target: str, traits: dict[str, Any], source: str
) -> None:
    shape_id, _, member_name = target.partition("$")
    shape = shapes.get(shape_id)
    if shape is None or (member_name and member_name not in shape.members):
        raise model_error(
            source,
            ("shapes", target),
            f"apply targets {target}, which is not in the model; fix the id or add "
            "the model file that defines it",
        )
    holder = shape.members[member_name].traits if member_name else shape.traits
    holder.update(traits)


def resolve_mixins(shapes: dict[str, Shape]) -> None:
    """Flatten every shape's mixins into it, mixins first (Smithy's order), checking
    that each mixin exists, is marked `@mixin`, has the same type and is no cycle."""
    budget = [MAX_FLATTENED_MEMBERS]
    for shape_id in _mixin_order(shapes):
        _flatten(shapes, shapes[shape_id], budget)


def _mixin_order(shapes: Mapping[str, Shape]) -> list[str]:
    """Shapes with mixins, each after all of its mixins (an iterative depth-first
    post-order); a cycle or a chain past MAX_MIXIN_DEPTH is a ModelError."""
    order: list[str] = []
    done: set[str] = set()
    for root in sorted(s.id for s in shapes.values() if s.mixins):
        if root in done:
            continue
        path: list[str] = [root]
        on_path = {root}
        pending: list[list[str]] = [list(reversed(shapes[root].mixins))]
        while pending:
            holder = shapes[path[-1]]
            if not pending[-1]:
                pending.pop()
                on_path.discard(path.pop())
                done.add(holder.id)
                order.append(holder.id)
                continue
            mixin_id = pending[-1].pop()
            _check_mixin(shapes, holder, mixin_id)
            if mixin_id in done:
                continue
            if mixin_id in on_path:
                cycle = " -> ".join([*path[path.index(mixin_id) :], mixin_id])
                raise model_error(
                    holder.source,
                    ("shapes", holder.id, "mixins"),
                    f"mixins form a cycle ({cycle}); Smithy forbids mixin cycles: "
                    "remove one of them",
                )
            if len(path) >= MAX_MIXIN_DEPTH:
                raise model_error(
                    holder.source,
                    ("shapes", holder.id, "mixins"),
                    f"a chain of more than {MAX_MIXIN_DEPTH} mixins starts at {root}; "
                    "the generator flattens no longer chains: shorten it",
                )
            path.append(mixin_id)
            on_path.add(mixin_id)
            pending.append(list(reversed(shapes[mixin_id].mixins)))
    return order


def _check_mixin(shapes: Mapping[str, Shape], holder: Shape, mixin_id: str) -> None:
    where = ("shapes", holder.id, "mixins")
    mixin = shapes.get(mixin_id)
    if mixin is None:
        raise model_error(
            holder.source,
            where,
            f"shape {holder.id} uses missing mixin {mixin_id}; add the model file "
            "that defines it",
        )
    if MIXIN_TRAIT not in mixin.traits:
        raise model_error(
            holder.source,
            where,
            f"shape {holder.id} uses {mixin_id} as a mixin, but it has no @mixin "
            "trait; mark it @mixin or remove it from mixins",
        )
    if mixin.type != holder.type:
        raise model_error(
            holder.source,
            where,
            f"{holder.type} {holder.id} uses the {mixin.type} {mixin_id} as a mixin; "
            "a mixin must have the type of the shape that uses it",
        )


def _local_traits(mixin: Shape) -> set[str]:
    """The `localTraits` of a mixin: trait ids it keeps to itself."""
    where = ("shapes", mixin.id, "traits", MIXIN_TRAIT)
    value = mixin.traits[MIXIN_TRAIT]
    if not isinstance(value, dict):
        raise model_error(
            mixin.source, where, f"expected an object, found {json_type(value)}"
        )
    local = value.get("localTraits", [])
    if not isinstance(local, list):
        raise model_error(
            mixin.source,
            (*where, "localTraits"),
            f"expected an array of trait shape ids, found {json_type(local)}",
        )
    return {
        check_shape_id(trait_id, mixin.source, (*where, "localTraits", index))
        for index, trait_id in enumerate(local)
    }


def _flatten(shapes: Mapping[str, Shape], shape: Shape, budget: list[int]) -> None:
    """Fold `shape`'s (already flattened) mixins into it."""
    members: dict[str, Member] = {}
    traits: dict[str, Any] = {}
    refs: dict[str, dict[str, None]] = {}
    for mixin_id in dict.fromkeys(shape.mixins):
        mixin = shapes[mixin_id]
        local = _local_traits(mixin)
        for key, value in mixin.traits.items():
            if key != MIXIN_TRAIT and key not in local:
                traits[key] = value
        for name, member in mixin.members.items():
            _check_same_target(shape, members.get(name), member)
            members[name] = Member(name, member.target, shape.id, dict(member.traits))
        for key, targets in mixin.refs.items():
            refs.setdefault(key, {}).update(dict.fromkeys(targets))
    budget[0] -= len(members)
    if budget[0] < 0:
        raise model_error(
            shape.source,
            ("shapes", shape.id, "mixins"),
            f"flattening mixins makes more than {MAX_FLATTENED_MEMBERS} members in "
            "the model; the generator reads no larger models: use fewer mixins",
        )
    for name, member in shape.members.items():
        inherited = members.get(name)
        _check_same_target(shape, inherited, member)
        merged = dict(inherited.traits) if inherited else {}
        merged.update(member.traits)
        members[name] = Member(name, member.target, shape.id, merged)
    traits.update(shape.traits)
    for key, targets in shape.refs.items():
        refs.setdefault(key, {}).update(dict.fromkeys(targets))
    shape.members = members
    shape.traits = traits
    shape.refs = {key: tuple(targets) for key, targets in refs.items()}
    shape.mixins = ()


def _check_same_target(shape: Shape, inherited: Member | None, member: Member) -> None:
    if inherited is not None and inherited.target != member.target:
        raise model_error(
            shape.source,
            ("shapes", shape.id, "members", member.name),
            f"member {shape.id}${member.name} targets both {inherited.target} and "
            f"{member.target} through its mixins; Smithy forbids conflicting mixin "
            "members: give them one target",
        )

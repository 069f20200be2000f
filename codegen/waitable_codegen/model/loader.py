"""Read one Smithy JSON AST document (version 1.0 or 2.0) into shapes.

Every slot is checked for its JSON type, and every shape id, member name, target,
mixin, trait id and `rename` entry against Smithy's grammar, before anything else
reads it: an error names the file, the JSON location and the bad value. Merging
documents, mixins, `apply` and references are `resolve.py`'s job.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..errors import safe_text
from .errors import Location, json_type, model_error
from .json_text import parse_json
from .shape_ids import (
    KNOWN_IDENTIFIERS,
    KNOWN_MEMBER_IDS,
    KNOWN_SHAPE_IDS,
    are_identifiers,
    check_identifier,
    check_shape_id,
)
from .shapes import SHAPE_TYPES, Member, Shape

_SINGLE_REFS = {
    "operation": ("input", "output"),
    "resource": ("create", "put", "read", "update", "delete", "list"),
}
_LIST_REFS = {
    "service": ("operations", "resources", "errors"),
    "resource": ("operations", "collectionOperations", "resources"),
    "operation": ("errors",),
}
_NAMED_REFS = {"resource": ("identifiers", "properties")}
_MEMBER_TYPES = frozenset({"structure", "union", "enum", "intEnum"})
_FIXED_MEMBERS = {"list": ("member",), "set": ("member",), "map": ("key", "value")}
_SERVICE_TYPES = frozenset({"service", "resource", "operation"})
_NO_MEMBERS: dict[str, Any] = {}
_ONLY_STR = frozenset({str})


@dataclass
class Document:
    """One parsed file: its shapes, `apply` entries and metadata. The JSON bodies
    are not kept: each shape holds what the generator reads of it (its trait
    values are the parsed JSON's own)."""

    source: str
    shapes: dict[str, Shape] = field(default_factory=dict)
    applies: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    metadata: dict[str, Any] = field(default_factory=dict)


def parse_document(text: str, source: str) -> Document:
    """Parse one JSON AST document, checking every part the generator reads."""
    return read_document(parse_json(text, source), source)


def read_document(data: Any, source: str) -> Document:
    """One JSON AST document already parsed from JSON, checking every part the
    generator reads."""
    if not isinstance(data, dict) or "smithy" not in data:
        raise model_error(
            source,
            (),
            'not a Smithy JSON AST model (no top-level "smithy" version); '
            "convert IDL files with `smithy ast` first",
        )
    version = data["smithy"]
    if not isinstance(version, str) or not (
        version in ("1", "2") or version.startswith(("1.", "2."))
    ):
        shown = repr(version) if isinstance(version, str) else safe_text(version)
        raise model_error(
            source,
            ("smithy",),
            f"unsupported Smithy version {safe_text(shown, 40)}; "
            'expected "1.0" or "2.0"',
        )
    shapes = _object(data.get("shapes", {}), source, ("shapes",), "shape id to shape")
    metadata = _object(data.get("metadata", {}), source, ("metadata",), "metadata")
    document = Document(source, metadata=metadata)
    for shape_id, body in shapes.items():
        _parse_entry(document, shape_id, body)
    return document


def _object(value: Any, source: str, where: Location, what: str) -> dict[str, Any]:
    if isinstance(value, dict):
        return value
    raise model_error(
        source, where, f"expected an object of {what}, found {json_type(value)}"
    )


def _parse_entry(document: Document, shape_id: str, body: Any) -> None:
    source = document.source
    where = ("shapes", shape_id)
    if shape_id not in KNOWN_MEMBER_IDS and shape_id not in KNOWN_SHAPE_IDS:
        check_shape_id(shape_id, source, where, member=True)  # (a shape id is one)
    if type(body) is not dict:
        raise model_error(
            source, where, f"expected a shape object, found {json_type(body)}"
        )
    kind = body.get("type")
    if type(kind) is str and kind in SHAPE_TYPES and "$" not in shape_id:
        document.shapes[shape_id] = _parse_shape(shape_id, kind, body, source)
        return
    if not isinstance(kind, str):
        raise model_error(
            source,
            (*where, "type"),
            f'expected a shape "type" string, found '
            f"{json_type(kind) if 'type' in body else 'none'}",
        )
    if kind == "apply":
        document.applies.append((shape_id, _traits(body, source, where)))
        return
    if "$" in shape_id:
        raise model_error(
            source,
            where,
            f"shape id {shape_id} names a member; only an apply entry may "
            "(define members inside their shape)",
        )
    raise model_error(
        source,
        (*where, "type"),
        f"unknown shape type {safe_text(repr(kind), 40)}; expected one of "
        f"{', '.join(sorted(SHAPE_TYPES))}",
    )


def _traits(body: dict[str, Any], source: str, where: Location) -> dict[str, Any]:
    """The `traits` object of a shape, member or apply entry, ids checked (the
    parsed JSON's own dict: nothing else holds it)."""
    if "traits" not in body:
        return {}
    value = body["traits"]  # (the location is built only for a bad value:)
    traits: dict[str, Any] = (
        value
        if type(value) is dict
        else _object(value, source, (*where, "traits"), "traits")
    )
    if not traits.keys() <= KNOWN_SHAPE_IDS:
        for trait_id in traits:
            check_shape_id(trait_id, source, (*where, "traits", trait_id))
    return traits


def _reference(value: Any, source: str, where: Location) -> str:
    """The target of an AST shape reference `{"target": "ns#Shape"}`."""
    if type(value) is dict:  # the common case: a target already found valid
        target = value.get("target")
        if type(target) is str and target in KNOWN_SHAPE_IDS:
            return target
    if not isinstance(value, dict) or "target" not in value:
        raise model_error(
            source,
            where,
            f'expected a shape reference {{"target": "ns#Shape"}}, '
            f"found {json_type(value)}",
        )
    return check_shape_id(value["target"], source, (*where, "target"))


def _references(value: Any, source: str, where: Location) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise model_error(
            source,
            where,
            f"expected an array of shape references, found {json_type(value)}",
        )
    targets: tuple[Any, ...] = tuple(
        item.get("target") if type(item) is dict else None for item in value
    )
    if _ONLY_STR.issuperset(map(type, targets)) and KNOWN_SHAPE_IDS.issuperset(
        targets
    ):  # the common case: every target already found valid, no location built
        return targets
    return tuple(
        _reference(item, source, (*where, index)) for index, item in enumerate(value)
    )


def _member(
    shape_id: str, name: str, value: Any, source: str, parent: Location
) -> Member:
    """The member `name` of `shape_id`, whose location is `parent` and `name`
    (built only when the member is checked the long way)."""
    if type(value) is dict:  # the common case, checked without building locations
        target = value.get("target")
        if type(target) is str and target in KNOWN_SHAPE_IDS:
            traits = value.get("traits")
            if type(traits) is dict and traits.keys() <= KNOWN_SHAPE_IDS:
                return Member(name, target, shape_id, traits)
            if "traits" not in value:
                return Member(name, target, shape_id, {})
    where = (*parent, name)
    target = _reference(value, source, where)
    return Member(name, target, shape_id, _traits(value, source, where))


def _parse_shape(shape_id: str, kind: str, body: dict[str, Any], source: str) -> Shape:
    if len(body) == 1 and kind not in _FIXED_MEMBERS:  # nothing to check: a type
        return Shape(shape_id, kind, source, {})
    where = ("shapes", shape_id)
    shape = Shape(
        shape_id,
        "list" if kind == "set" else kind,
        source,
        _traits(body, source, where),
    )
    if kind == "set":
        shape.properties["set"] = True
    if kind in _MEMBER_TYPES:
        members = body.get("members", _NO_MEMBERS)
        if type(members) is not dict:
            _object(members, source, (*where, "members"), "member name to member")
        held = shape.members
        named = are_identifiers(members)  # all at once; else each, in order
        parent = (*where, "members")
        for name, value in members.items():
            if not named and name not in KNOWN_IDENTIFIERS:
                check_identifier(name, source, (*parent, name), "member name")
            held[name] = _member(shape_id, name, value, source, parent)
    else:
        for name in _FIXED_MEMBERS.get(kind, ()):
            value = body.get(name)
            shape.members[name] = _member(shape_id, name, value, source, where)
    if kind in _SERVICE_TYPES:
        _relationships(shape, kind, body, source, where)
    if "mixins" in body:
        shape.mixins = _references(body["mixins"], source, (*where, "mixins"))
    if kind == "service":
        _service_properties(shape, body, source, where)
    return shape


def _relationships(
    shape: Shape, kind: str, body: dict[str, Any], source: str, where: Location
) -> None:
    """The references of a service, resource or operation."""
    for key in _SINGLE_REFS.get(kind, ()):
        if key in body:
            shape.refs[key] = (_reference(body[key], source, (*where, key)),)
    for key in _LIST_REFS.get(kind, ()):
        if key in body:
            shape.refs[key] = _references(body[key], source, (*where, key))
    for key in _NAMED_REFS.get(kind, ()):
        if key in body:
            shape.properties[key] = _named_references(body[key], source, (*where, key))


def _named_references(value: Any, source: str, where: Location) -> dict[str, str]:
    """A resource's `identifiers` or `properties`: name → target shape id."""
    entries = _object(value, source, where, "name to shape reference")
    named: dict[str, str] = {}
    for name, reference in entries.items():
        check_identifier(name, source, (*where, name), "name")
        named[name] = _reference(reference, source, (*where, name))
    return named


def _service_properties(
    shape: Shape, body: dict[str, Any], source: str, where: Location
) -> None:
    if "version" in body:
        version = body["version"]
        if not isinstance(version, str):
            raise model_error(
                source,
                (*where, "version"),
                f"expected a version string, found {json_type(version)}",
            )
        shape.properties["version"] = version
    if "rename" in body:
        at = (*where, "rename")
        rename = _object(body["rename"], source, at, "shape id to new name")
        for shape_id, name in rename.items():
            check_shape_id(shape_id, source, (*at, shape_id))
            check_identifier(name, source, (*at, shape_id), "rename")
        shape.properties["rename"] = dict(rename)

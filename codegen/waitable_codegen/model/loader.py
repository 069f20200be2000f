"""Read Smithy JSON AST documents (versions 1.0 and 2.0) into shapes.

Several documents merge into one model: the same shape defined identically twice is
fine, defined differently it is an error naming both files. `apply` entries and mixins
are resolved once every document is read, then every reference is checked.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import ModelError
from .prelude import prelude_shapes
from .shapes import SHAPE_TYPES, Member, Shape

_SINGLE_REFS = ("input", "output", "create", "put", "read", "update", "delete", "list")
_LIST_REFS = ("errors", "operations", "collectionOperations", "resources")
_MEMBER_TYPES = frozenset({"structure", "union", "enum", "intEnum"})


@dataclass
class _Document:
    """One parsed file: its shapes, `apply` entries and metadata."""

    source: str
    shapes: dict[str, tuple[Shape, Any]] = field(default_factory=dict)
    applies: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    metadata: dict[str, Any] = field(default_factory=dict)


def expand_paths(paths: Iterable[str | Path]) -> list[Path]:
    """Files to read: each file as given, each directory's `*.json` in sorted order."""
    files: list[Path] = []
    for entry in paths:
        path = Path(entry)
        if path.is_dir():
            found = sorted(path.glob("*.json"))
            if not found:
                raise ModelError(f"{path}: directory holds no *.json model files")
            files.extend(found)
        else:
            files.append(path)
    return files


def read_file(path: Path) -> str:
    """The text of a model file, or a ModelError saying why it cannot be read."""
    return decode_text(read_bytes(path), str(path))


def read_bytes(path: Path) -> bytes:
    """The bytes of a model file, or a ModelError saying why it cannot be read."""
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise ModelError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise ModelError(f"{path}: is a directory, expected a JSON AST file") from None
    except OSError as exc:
        raise ModelError(f"{path}: cannot read model file ({exc.strerror})") from None


def decode_text(data: bytes, source: str) -> str:
    """Model bytes as text: JSON AST files are UTF-8 (a BOM is tolerated)."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ModelError(
            f"{source}: not UTF-8 text (byte {exc.start}); "
            "Smithy JSON AST files are UTF-8 JSON"
        ) from None


def parse_document(text: str, source: str) -> _Document:
    """Parse one JSON AST document, checking its outline."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ModelError(
            f"{source}:{exc.lineno}:{exc.colno}: not valid JSON ({exc.msg}); "
            "generate-waiters reads Smithy JSON AST (smithy build's model.json)"
        ) from None
    if not isinstance(data, dict) or "smithy" not in data:
        raise ModelError(
            f'{source}: not a Smithy JSON AST model (no top-level "smithy" version); '
            "convert IDL files with `smithy ast` first"
        )
    version = str(data["smithy"])
    if not (version in ("1", "2") or version.startswith(("1.", "2."))):
        raise ModelError(
            f'{source}: unsupported Smithy version {version!r}; expected "1.0" or "2.0"'
        )
    shapes = data.get("shapes", {})
    if not isinstance(shapes, dict):
        raise ModelError(f'{source}: "shapes" must be an object of shape id to shape')
    metadata = data.get("metadata", {})
    if not isinstance(metadata, dict):
        raise ModelError(f'{source}: "metadata" must be an object')
    document = _Document(source, metadata=metadata)
    for shape_id, body in shapes.items():
        _parse_entry(document, shape_id, body)
    return document


def _parse_entry(document: _Document, shape_id: str, body: Any) -> None:
    source = document.source
    if "#" not in shape_id:
        raise ModelError(
            f"{source}: shape id {shape_id!r} is not absolute (namespace#Name)"
        )
    if not isinstance(body, dict) or not isinstance(body.get("type"), str):
        raise ModelError(f'{source}: shape {shape_id} has no "type"')
    kind = body["type"]
    if kind == "apply":
        traits = body.get("traits", {})
        if not isinstance(traits, dict):
            raise ModelError(f'{source}: apply {shape_id}: "traits" must be an object')
        document.applies.append((shape_id, traits))
        return
    if "$" in shape_id:
        raise ModelError(
            f"{source}: shape id {shape_id!r} names a member; only apply may"
        )
    if kind not in SHAPE_TYPES:
        raise ModelError(f"{source}: shape {shape_id} has unknown type {kind!r}")
    document.shapes[shape_id] = (_parse_shape(shape_id, kind, body, source), body)


def _target(value: Any, where: str, source: str) -> str:
    if isinstance(value, dict) and isinstance(value.get("target"), str):
        return str(value["target"])
    raise ModelError(
        f'{source}: {where}: expected a reference {{"target": "ns#Shape"}}'
    )


def _parse_shape(shape_id: str, kind: str, body: dict[str, Any], source: str) -> Shape:
    traits = body.get("traits", {})
    if not isinstance(traits, dict):
        raise ModelError(f'{source}: shape {shape_id}: "traits" must be an object')
    shape = Shape(shape_id, "list" if kind == "set" else kind, source, dict(traits))
    if kind == "set":
        shape.properties["set"] = True
    members: dict[str, Any] = {}
    if kind in _MEMBER_TYPES:
        members = body.get("members", {})
        if not isinstance(members, dict):
            raise ModelError(f'{source}: shape {shape_id}: "members" must be an object')
    elif kind in ("list", "set"):
        members = {"member": body.get("member")}
    elif kind == "map":
        members = {"key": body.get("key"), "value": body.get("value")}
    for name, member in members.items():
        target = _target(member, f"member {shape_id}${name}", source)
        member_traits = member.get("traits", {})
        if not isinstance(member_traits, dict):
            raise ModelError(
                f'{source}: member {shape_id}${name}: "traits" must be an object'
            )
        shape.members[name] = Member(name, target, shape_id, dict(member_traits))
    for key in _SINGLE_REFS:
        if key in body:
            shape.refs[key] = (_target(body[key], f"shape {shape_id} {key}", source),)
    for key in _LIST_REFS:
        if key in body:
            values = body[key]
            if not isinstance(values, list):
                raise ModelError(f'{source}: shape {shape_id}: "{key}" must be a list')
            shape.refs[key] = tuple(
                _target(v, f"shape {shape_id} {key}", source) for v in values
            )
    shape.mixins = tuple(
        _target(v, f"shape {shape_id} mixins", source) for v in body.get("mixins", [])
    )
    for key in ("version", "rename", "identifiers", "properties"):
        if key in body:
            shape.properties[key] = body[key]
    return shape


def build_shapes(
    documents: Iterable[_Document],
) -> tuple[dict[str, Shape], dict[str, Any]]:
    """Merge documents, resolve `apply` and mixins, and check every reference."""
    shapes = prelude_shapes()
    bodies: dict[str, Any] = {}
    metadata: dict[str, Any] = {}
    applies: list[tuple[str, dict[str, Any], str]] = []
    for document in documents:
        for shape_id, (shape, body) in document.shapes.items():
            previous = shapes.get(shape_id)
            if previous is not None and shape_id in bodies:
                if bodies[shape_id] != body:
                    raise ModelError(
                        f"{document.source}: shape {shape_id} conflicts with its definition "
                        f"in {previous.source}; define it once or make both identical"
                    )
                continue
            if previous is not None and previous.type != shape.type:
                raise ModelError(
                    f"{document.source}: shape {shape_id} redefines the prelude shape as "
                    f"{shape.type}, but it is {previous.type}"
                )
            shapes[shape_id] = shape
            bodies[shape_id] = body
        applies.extend(
            (sid, traits, document.source) for sid, traits in document.applies
        )
        _merge_metadata(metadata, document.metadata)
    for shape_id in list(shapes):
        _resolve_mixins(shapes, shape_id, ())
    for shape_id, traits, source in applies:
        _apply(shapes, shape_id, traits, source)
    _check_references(shapes)
    return shapes, metadata


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
        raise ModelError(f"{source}: apply targets {target}, which is not in the model")
    holder = shape.members[member_name].traits if member_name else shape.traits
    holder.update(traits)


def _resolve_mixins(
    shapes: dict[str, Shape], shape_id: str, seen: tuple[str, ...]
) -> None:
    shape = shapes[shape_id]
    if not shape.mixins:
        return
    if shape_id in seen:
        raise ModelError(
            f"{shape.source}: shape {shape_id} takes part in a mixin cycle"
        )
    members: dict[str, Member] = {}
    traits: dict[str, Any] = {}
    refs: dict[str, tuple[str, ...]] = {}
    for mixin_id in shape.mixins:
        mixin = shapes.get(mixin_id)
        if mixin is None:
            raise ModelError(
                f"{shape.source}: shape {shape_id} uses missing mixin {mixin_id}"
            )
        if not mixin.is_mixin:
            raise ModelError(
                f"{shape.source}: shape {shape_id} uses {mixin_id} as a mixin, "
                "but it has no @mixin trait"
            )
        _resolve_mixins(shapes, mixin_id, (*seen, shape_id))
        local = set(mixin.traits.get("smithy.api#mixin", {}).get("localTraits", []))
        for key, value in mixin.traits.items():
            if key != "smithy.api#mixin" and key not in local:
                traits[key] = value
        for name, member in mixin.members.items():
            members[name] = Member(name, member.target, shape_id, dict(member.traits))
        for key, targets in mixin.refs.items():
            refs[key] = tuple(dict.fromkeys((*refs.get(key, ()), *targets)))
    for name, member in shape.members.items():
        inherited = members.get(name)
        merged = dict(inherited.traits) if inherited else {}
        merged.update(member.traits)
        members[name] = Member(name, member.target, shape_id, merged)
    traits.update(shape.traits)
    for key, targets in shape.refs.items():
        refs[key] = tuple(dict.fromkeys((*refs.get(key, ()), *targets)))
    shape.members, shape.traits, shape.refs, shape.mixins = members, traits, refs, ()


def _check_references(shapes: Mapping[str, Shape]) -> None:
    for shape in shapes.values():
        for member in shape.members.values():
            if member.target not in shapes:
                raise ModelError(
                    f"{shape.source}: member {member.id} targets {member.target}, "
                    "which is not defined in the model (missing a model file?)"
                )
        for key, targets in shape.refs.items():
            for target in targets:
                if target not in shapes:
                    raise ModelError(
                        f"{shape.source}: shape {shape.id} {key} refers to {target}, "
                        "which is not defined in the model (missing a model file?)"
                    )

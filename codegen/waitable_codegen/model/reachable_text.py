"""The cut of `model.reachable` made from the JSON text itself, so that the shapes
generation leaves out are checked but never built.

msgspec reads each document once, every shape into its outline: its type and the
names of its traits as values, everything else (each trait's value, its members,
its references) left as raw JSON (msgspec still checks that the whole text is
JSON). The closure decodes only the raw parts of the bodies it keeps, with
msgspec, to the values `json.loads` gives (floats bit for bit; where the two
would differ, msgspec refuses), but for the values of the traits generation never
reads (`UNREAD_TRAITS`: documentation, examples, endpoint rule sets and their
tests), which stay `msgspec.Raw` in the cut documents. Anything the plain cut
does not read (see `model.reachable`), a shape key the loader does not know, any text msgspec
refuses, and any text without a waiter, ends in None: the caller parses the
documents with json as before, and its errors are the ones reported. The cut
documents hold `smithy`, `metadata` and `shapes` in that order, and a kept body
its type first and then its keys in the loader's order, whatever the file's
order (nothing reads their order).

Left-out shapes, those raw trait values and a value that a repeated key shadows
(JSON gives a key its last value, both ways) are checked as JSON but never
converted, so two things json refuses in them are not refused: an integer too
long for Python, and nesting in the few levels by which msgspec's recursion limit
exceeds json's (their nesting is not measured either way: nothing recurses into
them).
"""

from __future__ import annotations

import codecs
from collections.abc import Sequence
from typing import Any

import msgspec
from msgspec import UNSET, Raw, Struct, UnsetType

from .reachable import (
    MIXIN_TRAIT,
    PRELUDE_IDS,
    closure,
    is_bare_operation,
    is_plain_version,
)
from .shape_ids import are_shape_ids
from .shapes import UNREAD_TRAITS, WAITABLE_TRAIT, ShapeType

_Raw = Raw | UnsetType


class _Shape(Struct, forbid_unknown_fields=True):
    """A shape as the cut reads it: its type and its traits' names; each trait's
    value and every other key left as raw JSON. The keys are those the JSON AST
    gives shapes; a body with another key is declined (json reads it), and so is
    one with `mixins` (not plain, see `model.reachable`) or a type other than the
    `ShapeType`s: msgspec refuses them as it reads, so no pass over the shapes has to.
    """

    type: ShapeType
    traits: dict[str, Raw] | UnsetType = UNSET
    members: _Raw = UNSET
    member: _Raw = UNSET
    key: _Raw = UNSET
    value: _Raw = UNSET
    input: _Raw = UNSET
    output: _Raw = UNSET
    errors: _Raw = UNSET
    version: _Raw = UNSET
    operations: _Raw = UNSET
    resources: _Raw = UNSET
    rename: _Raw = UNSET
    identifiers: _Raw = UNSET
    properties: _Raw = UNSET
    create: _Raw = UNSET
    put: _Raw = UNSET
    read: _Raw = UNSET
    update: _Raw = UNSET
    delete: _Raw = UNSET
    list: _Raw = UNSET
    collectionOperations: _Raw = UNSET


_RAW_KEYS = _Shape.__struct_fields__[2:]
"""The keys of a body other than its type and traits, in the loader's order."""


class _Document(Struct, forbid_unknown_fields=True):
    """A JSON AST document with its shapes outlined and its metadata left raw."""

    smithy: object
    shapes: dict[str, _Shape] = {}
    metadata: Raw | UnsetType = UNSET


_DOCUMENT = msgspec.json.Decoder(_Document)
_ANY = msgspec.json.Decoder()
_NOT_READ = (msgspec.DecodeError, RecursionError)


class _Refused(Exception):
    """Text the cut does not read: the caller loads the documents whole."""


def reachable_texts(datas: Sequence[bytes]) -> list[dict[str, Any]] | None:
    """The documents of `datas` (JSON AST files' bytes) cut as `reachable_documents`
    cuts their parsed JSON, or None when they must be parsed and loaded as before."""
    if not any(map(_may_have_waiter, datas)):
        return None  # no cut without a waiter: json reads it once, not twice
    try:
        return _cut(datas)
    except _Refused:
        return None


def _may_have_waiter(data: bytes) -> bool:
    """False only when the bytes cannot hold the waiter trait's name (written
    plainly, or with a JSON escape)."""
    return _WAITABLE_BYTES in data or b"\\u" in data


_WAITABLE_BYTES = WAITABLE_TRAIT.encode()


def _cut(datas: Sequence[bytes]) -> list[dict[str, Any]]:
    documents: list[_Document] = []
    shapes: dict[str, _Shape] = {}
    roots: list[str] = []
    for data in datas:
        document = _document(data)
        if not (
            shapes.keys().isdisjoint(document.shapes)
            and PRELUDE_IDS.isdisjoint(document.shapes)
        ):
            raise _Refused
        _find_roots(document.shapes, roots)
        shapes.update(document.shapes)
        documents.append(document)
    if not any(WAITABLE_TRAIT in _traits(shapes[root]) for root in roots):
        raise _Refused
    decoded: dict[str, dict[str, Any]] = {}

    def body_of(shape_id: str) -> dict[str, Any]:
        body = decoded[shape_id] = _body(shapes[shape_id])
        return body

    def bare(shape_id: str) -> bool:
        shape = shapes[shape_id]
        traits = _traits(shape)
        marked = WAITABLE_TRAIT in traits or MIXIN_TRAIT in traits
        return is_bare_operation(shape.type, marked)

    kept, bared = closure(roots, shapes, body_of, bare)
    cut = kept | bared
    return [_parsed(document, decoded, cut) for document in documents]


def with_unread_decoded(documents: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Cut `documents` with the raw values of their unread traits decoded, in place:
    the documents the json way gives (to compare the two ways)."""
    for document in documents:
        for body in document["shapes"].values():
            traits = body.get("traits", _NO_TRAITS)
            for trait_id in UNREAD_TRAITS.intersection(traits):
                traits[trait_id] = _ANY.decode(traits[trait_id])
    return documents


def _find_roots(shapes: dict[str, _Shape], roots: list[str]) -> None:
    """Add the services and shapes with waiters among `shapes` to `roots`; refused
    when a shape id is not plain (the rest of the outline msgspec checked, see
    `_Shape`)."""
    if not are_shape_ids(shapes):
        raise _Refused
    for shape_id, shape in shapes.items():
        traits = shape.traits
        if shape.type == "service" or (
            traits is not UNSET and WAITABLE_TRAIT in traits
        ):
            roots.append(shape_id)


_NO_TRAITS: dict[str, Raw] = {}


def _traits(shape: _Shape) -> dict[str, Raw]:
    """A shape's traits by id (empty when it has none), each value still raw."""
    traits = shape.traits
    return _NO_TRAITS if traits is UNSET else traits


def _body(shape: _Shape) -> dict[str, Any]:
    """A kept shape's body as json parses it: its raw parts decoded, but for the
    values of its `UNREAD_TRAITS`, which stay raw."""
    body: dict[str, Any] = {"type": shape.type}
    if shape.traits is not UNSET:
        body["traits"] = {
            trait_id: value if trait_id in UNREAD_TRAITS else _decode(_ANY, value)
            for trait_id, value in shape.traits.items()
        }
    for key in _RAW_KEYS:
        value = getattr(shape, key)
        if value is not UNSET:
            body[key] = _decode(_ANY, value)
    return body


def _document(data: bytes) -> _Document:
    """The document of one file's bytes, its version plain."""
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8) :]
    if not data.isascii():
        try:
            data.decode("utf-8")  # msgspec leaves the bytes it skips unchecked
        except UnicodeDecodeError:
            raise _Refused from None
    document: _Document = _decode(_DOCUMENT, data)
    if not is_plain_version(document.smithy):
        raise _Refused
    return document


def _parsed(
    document: _Document, decoded: dict[str, dict[str, Any]], cut: set[str]
) -> dict[str, Any]:
    """The document as json would have parsed it, cut as `cut_document` cuts it:
    only the shapes in `cut`, in the document's order, each kept one's decoded
    body and a bare `{"type": "operation"}` for each bound operation kept bare
    (the shapes `decoded` lacks)."""
    parsed: dict[str, Any] = {"smithy": document.smithy}
    if document.metadata is not UNSET:
        metadata = _object(document.metadata)
        parsed["metadata"] = metadata
    parsed["shapes"] = {
        key: decoded[key] if key in decoded else {"type": "operation"}
        for key in filter(cut.__contains__, document.shapes)
    }
    return parsed


def _decode(decoder: msgspec.json.Decoder[Any], data: bytes | Raw) -> Any:
    try:
        return decoder.decode(data)
    except _NOT_READ:
        raise _Refused from None


def _object(raw: Raw) -> dict[str, Any]:
    """A raw object decoded as Python's json decodes it: msgspec builds the same
    values (floats bit for bit); where the two differ (a number too large for a
    float, which json reads as infinity) msgspec refuses, and so does the cut."""
    value = _decode(_ANY, raw)
    if type(value) is not dict:
        raise _Refused
    decoded: dict[str, Any] = value
    return decoded

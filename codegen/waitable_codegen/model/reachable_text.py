"""The cut of `model.reachable` made from the JSON text itself, so that the shapes
generation leaves out are checked but never built.

msgspec reads each document once with every shape body left as raw JSON (it still
checks that the whole text is JSON), then each body's outline (its type, whether
it has the waiter or mixin trait, whether it has mixins); the closure decodes only
the bodies it keeps, with msgspec, to the values `json.loads` gives (floats bit for
bit; where the two would differ, msgspec refuses). Anything the plain cut does not
read (see `model.reachable`), any text msgspec refuses, and any text without a
waiter, ends in None: the caller parses the documents with json as before, and its
errors are the ones reported. The cut documents hold `smithy`, `metadata` and
`shapes` in that order, whatever the file's order (nothing reads their order).

Left-out shapes are checked as JSON but never converted, so two things json
refuses in them are not refused: an integer too long for Python, and nesting in
the few levels by which msgspec's recursion limit exceeds json's (a left-out
shape's nesting is not measured either way).
"""

from __future__ import annotations

import codecs
from collections.abc import Sequence
from typing import Any

import msgspec
from msgspec import UNSET, Raw, Struct, UnsetType, field

from .reachable import (
    MIXIN_TRAIT,
    PRELUDE_IDS,
    cut_document,
    closure,
    is_bare_operation,
    is_plain_shape,
    is_plain_version,
)
from .shapes import WAITABLE_TRAIT


class _Document(Struct, forbid_unknown_fields=True):
    """A JSON AST document with its shapes and metadata left as raw JSON."""

    smithy: object
    shapes: dict[str, Raw] = {}
    metadata: Raw | UnsetType = UNSET


class _Traits(Struct, frozen=True):
    """The two traits the cut looks for; the others are only checked."""

    waitable: Raw | UnsetType = field(name=WAITABLE_TRAIT, default=UNSET)
    mixin: Raw | UnsetType = field(name=MIXIN_TRAIT, default=UNSET)


_NO_TRAITS = _Traits()


class _Outline(Struct):
    """What the cut reads of every shape; the rest of its body is only checked."""

    type: str
    traits: _Traits = _NO_TRAITS
    mixins: Raw | UnsetType = UNSET


_DOCUMENT = msgspec.json.Decoder(_Document)
_OUTLINE = msgspec.json.Decoder(_Outline)
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
    outlines: dict[str, _Outline] = {}
    bodies: dict[str, Raw] = {}
    roots: list[str] = []
    for data in datas:
        document = _document(data)
        shapes = document.shapes
        if not (bodies.keys().isdisjoint(shapes) and PRELUDE_IDS.isdisjoint(shapes)):
            raise _Refused
        _outline(shapes, outlines, roots)
        bodies.update(shapes)
        documents.append(document)
    if all(outlines[root].traits.waitable is UNSET for root in roots):
        raise _Refused
    decoded: dict[str, dict[str, Any]] = {}

    def body_of(shape_id: str) -> dict[str, Any]:
        body = decoded[shape_id] = _object(bodies[shape_id])
        return body

    def bare(shape_id: str) -> bool:
        outline = outlines[shape_id]
        traits = outline.traits
        marked = traits.waitable is not UNSET or traits.mixin is not UNSET
        return is_bare_operation(outline.type, marked)

    kept, bared = closure(roots, bodies, body_of, bare)
    return [
        cut_document(_parsed(document, decoded), kept, bared) for document in documents
    ]


def _outline(
    shapes: dict[str, Raw], outlines: dict[str, _Outline], roots: list[str]
) -> None:
    """Outline every shape into `outlines`, its services and shapes with waiters
    into `roots`; refused when a shape is not plain (see `model.reachable`)."""
    decode = _OUTLINE.decode
    try:
        for shape_id, body in shapes.items():
            outline = outlines[shape_id] = decode(body)
            if outline.mixins is not UNSET or not is_plain_shape(
                shape_id, outline.type
            ):
                raise _Refused
            if outline.type == "service" or outline.traits.waitable is not UNSET:
                roots.append(shape_id)
    except _NOT_READ:
        raise _Refused from None


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


def _parsed(document: _Document, decoded: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The document as json would have parsed it, with the decoded bodies only
    (`cut_document` keeps just these)."""
    parsed: dict[str, Any] = {"smithy": document.smithy}
    if document.metadata is not UNSET:
        metadata = _object(document.metadata)
        parsed["metadata"] = metadata
    parsed["shapes"] = {key: decoded.get(key) for key in document.shapes}
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

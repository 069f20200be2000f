"""Load Smithy JSON AST models and answer the questions the generator asks of them.

The model API:

- `load_model(paths)` / `load_text(text, source)` / `load_sources([(source, text)])`
  → `Model`; bad input of any kind raises `ModelError` (never another exception),
  whose one-line message names the file, the JSON location (`shapes["ns#A"].input`)
  and the shape, with model text escaped (`waitable_codegen.errors.safe_text`).
- Reading: `expand_paths`, `read_bytes` (regular files only, never blocking, at most
  `MAX_MODEL_BYTES`), `read_capped` (a stream, such as standard input), `decode_text`.
- Generation loads less: `reachable_text.reachable_texts` makes the cut from the
  files' bytes, building only the shapes the waiters and services reach (bound
  operations without waiters as bare operations); when it declines, each file goes
  through `json_text.parse_json` and `reachable.reachable_documents` makes the
  same cut from the parsed documents (None: load them whole). Then
  `loader.read_document` and `resolve.build_shapes` check what is kept exactly as
  `load_model` checks everything.
- Shape ids are checked against Smithy's grammar at load (`is_shape_id`,
  `is_member_id`, `is_identifier`), so every id in a `Model` is ASCII
  `namespace#Name` and every member name an identifier.
- `Model.shapes`: shape id → `Shape` (prelude included, mixins and `apply` resolved;
  `set` is read as `list` with `properties["set"] = True`).
- `Shape`: `id`, `type`, `source` (file), `traits`, `members` (name → `Member`),
  `refs` (relationship → target ids), `input`/`output` (None for none or Unit),
  `errors`, `properties` (`version`, `rename`, ...).
- `Member`: `name`, `target`, `container`, `traits`, `id`, `required`.
- `Model.services()`, `Model.service_operations(service_id)` (sorted; unordered:
  `Model.bound_operations(service_id)`),
  `Model.waitable_operations()`, `Model.closure(root_id)`, `Model.target(member)`.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from .closure import bound_operations, service_operations, shape_closure
from .errors import ModelError
from .files import (
    MAX_MODEL_BYTES,
    decode_text,
    expand_paths,
    file_name,
    read_bytes,
    read_capped,
    read_file,
)
from .loader import parse_document
from .resolve import build_shapes
from .shape_ids import is_identifier, is_member_id, is_shape_id
from .prelude import PRELUDE_SOURCE
from .shapes import WAITABLE_TRAIT, Member, Shape, shape_name, shape_namespace

__all__ = [
    "MAX_MODEL_BYTES",
    "Member",
    "Model",
    "ModelError",
    "PRELUDE_SOURCE",
    "Shape",
    "WAITABLE_TRAIT",
    "decode_text",
    "expand_paths",
    "file_name",
    "is_identifier",
    "is_member_id",
    "is_shape_id",
    "load_model",
    "load_sources",
    "load_text",
    "read_bytes",
    "read_capped",
    "shape_name",
    "shape_namespace",
]


class Model:
    """A merged, resolved Smithy model."""

    def __init__(
        self,
        shapes: dict[str, Shape],
        metadata: dict[str, Any],
        sources: tuple[str, ...],
    ) -> None:
        self.shapes = shapes
        self.metadata = metadata
        self.sources = sources

    def get(self, shape_id: str) -> Shape | None:
        """The shape with this id, or None."""
        return self.shapes.get(shape_id)

    def __getitem__(self, shape_id: str) -> Shape:
        return self.shapes[shape_id]

    def target(self, member: Member) -> Shape:
        """The shape a member targets."""
        return self.shapes[member.target]

    def services(self) -> list[Shape]:
        """Every service shape, sorted by id."""
        return sorted(
            (s for s in self.shapes.values() if s.type == "service"), key=lambda s: s.id
        )

    def service_operations(self, service_id: str) -> list[str]:
        """The operations in a service's closure, sorted by id."""
        return service_operations(self.shapes, service_id)

    def bound_operations(self, service_id: str) -> set[str]:
        """The operations in a service's closure, unordered."""
        return bound_operations(self.shapes, service_id)

    def closure(self, root_id: str) -> set[str]:
        """Every shape reachable from a shape (a service's closure, for a service)."""
        return shape_closure(self.shapes, root_id)

    def waitable_operations(self) -> list[Shape]:
        """Every shape carrying `smithy.waiters#waitable`, sorted by id (any type)."""
        return sorted(
            (s for s in self.shapes.values() if WAITABLE_TRAIT in s.traits),
            key=lambda s: s.id,
        )


def load_text(text: str, source: str = "<stdin>") -> Model:
    """A model from one JSON AST document held in memory (standard input, a test)."""
    shapes, metadata = build_shapes([parse_document(text, source)])
    return Model(shapes, metadata, (source,))


def load_model(paths: Iterable[str | Path]) -> Model:
    """A model merged from files and directories (each directory's `*.json`)."""
    files = expand_paths(paths)
    if not files:
        raise ModelError("no model files given")
    documents = [parse_document(read_file(path), str(path)) for path in files]
    shapes, metadata = build_shapes(documents)
    return Model(shapes, metadata, tuple(str(path) for path in files))


def load_sources(sources: Iterable[tuple[str, str]]) -> Model:
    """A model merged from (source name, JSON AST text) pairs already read."""
    pairs = list(sources)
    if not pairs:
        raise ModelError("no model files given")
    documents = [parse_document(text, source) for source, text in pairs]
    shapes, metadata = build_shapes(documents)
    return Model(shapes, metadata, tuple(source for source, _ in pairs))

"""The one error the model loader raises, and how its messages name a place.

A message reads `FILE: LOCATION: problem; what to do`, where LOCATION is the JSON
path inside the file (`shapes["ex#Foo"].members.bar.target`). Every piece of model
text in it passes through `safe_text`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from waitable.jsondata import (
    json_type as json_type,
)  # re-exported: the loader reads it here

from ..errors import safe_text

Location = Sequence[str | int]
"""A JSON path inside one document: object keys and array indexes, outermost first."""

_PLAIN_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_KEY_LIMIT = 80


class ModelError(Exception):
    """A model file cannot be read as a Smithy JSON AST model; str() says where and why."""


def model_error(source: str, where: Location, problem: str) -> ModelError:
    """A ModelError reading `FILE: LOCATION: problem` (no LOCATION for the root)."""
    place = json_location(where)
    prefix = f"{safe_text(source)}: {place}: " if place else f"{safe_text(source)}: "
    return ModelError(prefix + problem)


def json_location(where: Location) -> str:
    """`shapes["ex#Foo"].members.bar.target`: plain keys dotted, others quoted JSON."""
    parts: list[str] = []
    for part in where:
        if isinstance(part, int):
            parts.append(f"[{part}]")
        elif _PLAIN_KEY.fullmatch(part) and len(part) <= _KEY_LIMIT:
            parts.append(f".{part}" if parts else part)
        else:
            parts.append(f"[{safe_text(json.dumps(part), _KEY_LIMIT)}]")
    return "".join(parts)

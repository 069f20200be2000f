"""Errors the generator reports to a person: one line saying where and what to do.

Model text inside a message always goes through `safe_text`, so that a hostile
model cannot write control characters, terminal escapes or bidi overrides to the
terminal of whoever runs the generator, nor flood it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from waitable.printable import code_point_escape

TEXT_LIMIT = 120
"""How many characters of one model value a diagnostic shows before cutting it."""

_LARGE_INTEGER_BITS = 3000  # str() of a larger int may exceed Python's digit limit


class GenerationError(Exception):
    """Generation stopped before anything was written; str() is the one-line reason.

    `exit_status` is what the CLI exits with: 1 for bad input, 2 for bad usage.
    """

    exit_status = 1


class UsageError(GenerationError):
    """The arguments do not make sense together (an unknown --service, no model)."""

    exit_status = 2


class ValidationFailed(GenerationError):
    """Validation found ERROR events (or DANGER ones, unless they are allowed)."""

    def __init__(self, message: str, events: Sequence[Any]) -> None:
        super().__init__(message)
        self.events = tuple(events)


def safe_text(value: object, limit: int = TEXT_LIMIT) -> str:
    """`value` as a diagnostic may print it: cut to `limit` characters with an
    ellipsis, every non-printable character (controls, ESC, newlines, bidi
    overrides, lone surrogates) escaped as `repr` escapes it; never raises."""
    text = value if isinstance(value, str) else _describe(value)
    if len(text) > limit:
        text = f"{text[:limit]}... ({len(text)} characters)"
    if text.isprintable():
        return text
    return "".join(
        char if char.isprintable() else code_point_escape(char) for char in text
    )


def _describe(value: object) -> str:
    """A short, non-recursive rendering of a JSON value that is not a string."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        if value.bit_length() > _LARGE_INTEGER_BITS:
            return f"an integer of about {int(value.bit_length() * 0.30103)} digits"
        return str(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, list):
        return f"an array of {len(value)} items"
    if isinstance(value, dict):
        return f"an object of {len(value)} keys"
    return f"a {type(value).__name__}"

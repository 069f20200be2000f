"""The model member name a smithy-python union member writes, read from its own schema.

A union member is a dataclass `<Union><Member>` with one field, `value`; which
member it is cannot be told from the class name alone when the name was never
seen in a waiter's path (`AttributeValueN`: is the member `N`?). smithy-python's
generated `serialize_members(serializer)` writes the value under the member's
schema, whose `member_name` is the model's name: a stand-in serializer that
stops at the first write reads it without serializing anything.
smithy-core is never imported; any other object gives None.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NoReturn

__all__ = ["serialized_member_name"]


class _Written(Exception):
    """Raised by the stand-in serializer at the first member written."""

    def __init__(self, member_name: object) -> None:
        super().__init__()
        self.member_name = member_name


class _FirstMemberRecorder:
    """A stand-in `ShapeSerializer` whose every `write_*` stops with the member's name."""

    def __getattr__(self, method: str) -> Callable[..., NoReturn]:
        def write(schema: Any, *args: Any, **kwargs: Any) -> NoReturn:
            raise _Written(getattr(schema, "member_name", None))

        return write


def serialized_member_name(value: object) -> str | None:
    """The member name `value.serialize_members` writes first, or None if it has none."""
    serialize_members = getattr(value, "serialize_members", None)
    if not callable(serialize_members):
        return None
    try:
        serialize_members(_FirstMemberRecorder())
    except _Written as written:
        name = written.member_name
        return name if isinstance(name, str) and name else None
    except Exception:  # not smithy-python's shape of method: use the other rules
        return None
    return None

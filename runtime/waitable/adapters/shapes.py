"""Convert between model-keyed mappings and smithy-python's dataclasses.

A waiter's input is a mapping keyed by the model's member names; a
smithy-python operation takes a dataclass with snake_case fields and returns
one. `to_dataclass` builds the input (nested structures included, their types
read from the dataclass annotations); `to_member_dict` turns an output back into
plain dicts keyed by the model's member names, which is what waiter paths
select from. Scalars (datetimes, bytes, numbers) pass through unchanged: the
runtime's data-model conversion handles them for every kind of client alike.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping
from typing import Any, TypeVar

from .naming import python_member_name

__all__ = ["ShapeConversionError", "to_dataclass", "to_member_dict"]

T = TypeVar("T")

# smithy-python generates each union member as its own dataclass with one
# field, `value`, named `<Union><Member>`.
_UNION_VALUE_FIELD = "value"


class ShapeConversionError(TypeError):
    """A value that does not fit the smithy-python dataclass it must become."""


def to_dataclass(cls: type[T], value: Mapping[str, Any]) -> T:
    """Build `cls` from a mapping keyed by model member names (nested structures too)."""
    if not isinstance(value, Mapping):
        raise ShapeConversionError(
            f"{cls.__name__} needs a mapping of model member names, "
            f"got {type(value).__name__}"
        )
    fields = {field.name for field in dataclasses.fields(cls)}  # type: ignore[arg-type]
    hints = typing.get_type_hints(cls)
    arguments: dict[str, Any] = {}
    for member_name, member_value in value.items():
        attribute = python_member_name(member_name)
        if attribute not in fields:
            raise ShapeConversionError(
                f"{cls.__name__} has no member {member_name!r} (looked for the "
                f"attribute {attribute!r}); check the input's member names "
                "against the model"
            )
        arguments[attribute] = _convert(hints.get(attribute, Any), member_value)
    return cls(**arguments)


def _convert(annotation: Any, value: Any) -> Any:
    """Shape `value` after `annotation`: a dataclass, a list or dict of them, or as is."""
    if value is None:
        return None
    origin = typing.get_origin(annotation)
    arguments = typing.get_args(annotation)
    if origin is typing.Union or origin is types.UnionType:
        if isinstance(value, Mapping):
            for arm in arguments:
                if dataclasses.is_dataclass(arm):
                    return to_dataclass(arm, value)  # type: ignore[arg-type]
        for arm in arguments:
            if arm is not type(None):
                converted = _convert(arm, value)
                if converted is not value:
                    return converted
        return value
    if dataclasses.is_dataclass(annotation) and isinstance(value, Mapping):
        return to_dataclass(annotation, value)  # type: ignore[arg-type]
    if origin is list and arguments and isinstance(value, list):
        return [_convert(arguments[0], item) for item in value]
    if origin is dict and len(arguments) == 2 and isinstance(value, Mapping):
        return {key: _convert(arguments[1], item) for key, item in value.items()}
    return value


def to_member_dict(value: Any, member_names: Mapping[str, str]) -> Any:
    """Turn dataclasses in `value` into dicts keyed by model member names.

    `member_names` maps a Python attribute name to its model member name;
    attributes it does not know keep their Python name. Unset (``None``)
    attributes are left out, as an absent member is on the wire. A union
    member's dataclass (one ``value`` field, class named ``<Union><Member>``)
    becomes ``{Member: value}`` when its class name ends with a known member.
    """
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = dataclasses.fields(value)
        if len(fields) == 1 and fields[0].name == _UNION_VALUE_FIELD:
            member = _union_member(type(value).__name__, member_names)
            if member is not None:
                return {member: to_member_dict(value.value, member_names)}  # type: ignore[attr-defined]
        result: dict[str, Any] = {}
        for field in fields:
            item = getattr(value, field.name)
            if item is not None:
                name = member_names.get(field.name, field.name)
                result[name] = to_member_dict(item, member_names)
        return result
    if isinstance(value, (list, tuple)):
        return [to_member_dict(item, member_names) for item in value]
    if isinstance(value, Mapping):
        return {key: to_member_dict(item, member_names) for key, item in value.items()}
    return value


def _union_member(class_name: str, member_names: Mapping[str, str]) -> str | None:
    """The known member name a union-member class is named after (longest match wins)."""
    matches = [
        name
        for name in member_names.values()
        if name
        and class_name.endswith(name[0].upper() + name[1:])
        and len(name) < len(class_name)
    ]
    return max(matches, key=len) if matches else None

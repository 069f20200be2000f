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
import functools
import types
import typing
from collections.abc import Iterable, Mapping
from typing import Any, TypeVar

from .naming import python_member_name
from .schema_names import serialized_member_name

__all__ = ["ShapeConversionError", "to_dataclass", "to_member_dict"]

T = TypeVar("T")

# smithy-python generates each union member as its own dataclass with one
# field, `value`, named `<Union><Member>`.
_UNION_VALUE_FIELD = "value"

_NO_NAMES: Mapping[str, str] = types.MappingProxyType({})


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
    missing = [name for name in _required_fields(cls) if name not in arguments]
    if missing:
        raise ShapeConversionError(
            f"{cls.__name__} needs its required member(s) for the attribute(s) "
            f"{', '.join(map(repr, missing))}; add them to the input under the "
            "model's member names"
        )
    return cls(**arguments)


def _required_fields(cls: type) -> list[str]:
    """The init fields of dataclass `cls` that have no default (the model's required members).

    smithy-python leaves every top-level input member optional, but keeps the
    required members of nested structures required.
    """
    return [
        field.name
        for field in dataclasses.fields(cls)
        if field.init
        and field.default is dataclasses.MISSING
        and field.default_factory is dataclasses.MISSING
    ]


def _convert(annotation: Any, value: Any) -> Any:
    """Shape `value` after `annotation`: a dataclass, a list or dict of them, or as is."""
    if value is None:
        return None
    origin = typing.get_origin(annotation)
    arguments = typing.get_args(annotation)
    if origin is typing.Union or origin is types.UnionType:
        if isinstance(value, Mapping):
            member = _union_input(arguments, value)
            if member is not None:
                return member
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


def _union_input(arms: tuple[Any, ...], value: Mapping[str, Any]) -> Any:
    """`{Member: v}` as the union-member dataclass `<Union><Member>(value=v)`, if one fits."""
    if len(value) != 1:
        return None
    [(member, item)] = value.items()
    fitting = [
        arm
        for arm in arms
        if isinstance(arm, type)
        and dataclasses.is_dataclass(arm)
        and [field.name for field in dataclasses.fields(arm)] == [_UNION_VALUE_FIELD]
        and _union_member(arm.__name__, [member]) == member
    ]
    if not fitting:
        return None
    # All arms are `<Union><Member>`: of those ending in the member's name
    # (`S` fits AttributeValueS and AttributeValueNS), the shortest is its own.
    arm = min(fitting, key=lambda candidate: len(candidate.__name__))
    hint = typing.get_type_hints(arm).get(_UNION_VALUE_FIELD, Any)
    return arm(**{_UNION_VALUE_FIELD: _convert(hint, item)})


def to_member_dict(
    value: Any, member_names: Mapping[str, str] = _NO_NAMES, shape: Any = None
) -> Any:
    """Turn dataclasses in `value` into dicts keyed by model member names.

    `shape` is the output's TypedDict as the generator emits it (keys are the
    model's member names): when given, each structure is named back from its
    own TypedDict, nested ones included. Otherwise, and for anything the
    TypedDict does not cover, `member_names` (Python name -> model name) is
    used, and an attribute neither knows keeps its Python name. Unset
    (``None``) attributes are left out, as an absent member is on the wire.
    A union member's dataclass (one ``value`` field, class named
    ``<Union><Member>``) becomes ``{Member: value}``: the member's name is the
    one its own `serialize_members` writes (smithy-python's schema), else the
    class name's ending among the known names.
    """
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        keys = _typed_dict_keys(shape)
        fields = dataclasses.fields(value)
        if len(fields) == 1 and fields[0].name == _UNION_VALUE_FIELD:
            # A structure whose one member is `Value` reads the same either way.
            candidates = [name for name, _ in keys.values()] or member_names.values()
            member = serialized_member_name(value) or _union_member(
                type(value).__name__, candidates
            )
            if member is not None:
                inner = keys.get(python_member_name(member), (member, None))[1]
                return {member: to_member_dict(value.value, member_names, inner)}  # type: ignore[attr-defined]
        result: dict[str, Any] = {}
        for field in fields:
            item = getattr(value, field.name)
            if item is None:
                continue
            name, inner = keys.get(field.name) or (
                member_names.get(field.name, field.name),
                None,
            )
            result[name] = to_member_dict(item, member_names, inner)
        return result
    if isinstance(value, (list, tuple)):
        inner = _argument(shape, list, 0)
        return [to_member_dict(item, member_names, inner) for item in value]
    if isinstance(value, Mapping):
        inner = _argument(shape, dict, 1)
        return {
            key: to_member_dict(item, member_names, inner)
            for key, item in value.items()
        }
    return value


def _without_none(shape: Any) -> Any:
    """`X` for `X | None` (and for `X`); anything else unchanged."""
    if typing.get_origin(shape) in (typing.Union, types.UnionType):
        arms = [arm for arm in typing.get_args(shape) if arm is not type(None)]
        if len(arms) == 1:
            return arms[0]
    return shape


def _argument(shape: Any, origin: type, index: int) -> Any:
    """The element (list) or value (dict) type of `shape`, or None if it is not one."""
    shape = _without_none(shape)
    arguments = typing.get_args(shape)
    if typing.get_origin(shape) is origin and len(arguments) > index:
        return arguments[index]
    return None


@functools.lru_cache(maxsize=512)
def _typed_dict_members(shape: Any) -> Mapping[str, tuple[str, Any]]:
    try:
        hints = typing.get_type_hints(shape)
    except NameError:  # an unresolvable forward reference: fall back to names
        return {}
    return {python_member_name(name): (name, hint) for name, hint in hints.items()}


def _typed_dict_keys(shape: Any) -> Mapping[str, tuple[str, Any]]:
    """Python name -> (model member name, member type) for a TypedDict `shape`."""
    shape = _without_none(shape)
    if shape is None or not typing.is_typeddict(shape):
        return {}
    return _typed_dict_members(shape)


def _union_member(class_name: str, member_names: Iterable[str]) -> str | None:
    """The member name a union-member class is named after (longest match wins)."""
    matches = [
        name
        for name in member_names
        if name
        and len(name) < len(class_name)
        and class_name.endswith(name[0].upper() + name[1:])
    ]
    return max(matches, key=len) if matches else None

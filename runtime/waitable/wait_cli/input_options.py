"""The waiter's input given as AWS CLI-style options (`--instance-ids i-1 i-2`), read
against the operation's input shape in botocore's service model.

Lists take several values (or one JSON array), scalars one value, booleans are flags
(`--no-NAME` for false), structures and maps one JSON value or the AWS CLI's
shorthand (`--filters Name=instance-state-name,Values=running,pending`), whose
strings are then read as the members' types say.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Sequence
from typing import Any

from .shorthand import ShorthandError, parse_shorthand

__all__ = [
    "InputError",
    "input_shape",
    "load_json",
    "option_names",
    "parse_input_options",
]

SCALAR_TYPES = ("string", "integer", "long", "float", "double", "timestamp", "blob")


class InputError(ValueError):
    """An input option is unknown, misses its value or has a wrong one; says which and what to do."""


def load_json(text: str) -> Any:
    """`json.loads(text)`, with any way the text is not usable JSON a `ValueError`.

    Python's parser raises `RecursionError` (not a `ValueError`) on arrays or objects
    nested deeper than the interpreter's recursion limit: text on a command line or in
    a user's file is bad input then, not a failure of the wait.
    """
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError(
            "nested too deeply: arrays and objects nest deeper than the JSON "
            "parser can follow"
        ) from None


def input_shape(service: str, operation: str) -> Any | None:
    """The input shape of `operation` in botocore's model of `service`, None when unknown."""
    session = importlib.import_module("botocore.session")
    exceptions = importlib.import_module("botocore.exceptions")
    botocore_model = importlib.import_module("botocore.model")
    try:
        model = session.Session().get_service_model(service)
        shape: Any = model.operation_model(operation).input_shape
        return shape
    except (
        exceptions.BotoCoreError,
        botocore_model.OperationNotFoundError,  # not a BotoCoreError
        KeyError,
        ValueError,
    ):
        return None


def option_names(shape: Any | None) -> dict[str, str]:
    """`--kebab-name` → member name, for each member of the input shape."""
    from .sources import kebab

    if shape is None:
        return {}
    return {f"--{kebab(member)}": member for member in shape.members}


def parse_input_options(
    args: Sequence[str], shape: Any | None, where: str
) -> dict[str, Any]:
    """The input the options `args` spell, checked against `shape` (`where` names the waiter)."""
    names = option_names(shape)
    known = ", ".join(sorted(names)) if names else "none here"
    result: dict[str, Any] = {}
    index = 0
    while index < len(args):
        word = args[index]
        if not word.startswith("--"):
            raise InputError(
                f"{where}: unexpected argument {word!r}; input options start with -- "
                f"(its options: {known}; or pass --input JSON)"
            )
        option, equals, inline = word.partition("=")
        values: list[str] = [inline] if equals else []
        index += 1
        while not equals and index < len(args) and not args[index].startswith("--"):
            values.append(args[index])
            index += 1
        negated = option.startswith("--no-") and option not in names
        member = names.get("--" + option[5:] if negated else option)
        if member is None:
            raise InputError(
                f"{where}: unknown option {option}; its options: {known} "
                "(or pass the input as --input JSON / --input-file FILE)"
            )
        member_shape = shape.members[member]  # type: ignore[union-attr]
        if negated and member_shape.type_name != "boolean":
            raise InputError(f"{where}: {option} is not a flag; {known}")
        result[member] = _value(member_shape, values, option, where, negated)
    return result


def _value(
    shape: Any, values: list[str], option: str, where: str, negated: bool
) -> Any:
    kind = shape.type_name
    if kind == "boolean":
        if negated or not values:
            if values:
                raise InputError(f"{where}: {option} takes no value")
            return not negated
        if len(values) == 1 and values[0].lower() in ("true", "false"):
            return values[0].lower() == "true"
        raise InputError(f"{where}: {option} is a flag; give it alone, or true/false")
    if not values:
        raise InputError(f"{where}: {option} needs a value")
    if kind == "list":
        if len(values) == 1 and values[0].lstrip().startswith("["):
            return _json(values[0], option, where)
        return [_one(shape.member, value, option, where) for value in values]
    if len(values) != 1:
        raise InputError(
            f"{where}: {option} takes one value, got {len(values)}: {' '.join(values)}"
        )
    return _one(shape, values[0], option, where)


def _one(shape: Any, text: str, option: str, where: str) -> Any:
    kind = shape.type_name
    if kind in ("structure", "map") and not text.lstrip().startswith("{"):
        try:
            written = parse_shorthand(text)
        except ShorthandError as exc:
            raise InputError(
                f"{where}: {option}: {exc} in the shorthand {text!r}; write "
                f"Key=value,Other=a,b or JSON, e.g. {option} '{{...}}'"
            ) from None
        return _typed(shape, written, option, where)
    if kind in ("structure", "map", "list"):
        return _json(text, option, where)
    if kind == "boolean":
        if text.lower() not in ("true", "false"):
            raise InputError(f"{where}: {option} wants true or false, got {text!r}")
        return text.lower() == "true"
    try:
        if kind in ("integer", "long"):
            return int(text)
        if kind in ("float", "double"):
            return float(text)
    except ValueError:
        raise InputError(
            f"{where}: {option} wants a number ({kind}), got {text!r}"
        ) from None
    return text


def _json(text: str, option: str, where: str) -> Any:
    try:
        return load_json(text)
    except ValueError as exc:
        raise InputError(
            f"{where}: {option} wants JSON here ({exc}); e.g. {option} '[{{...}}]'"
        ) from None


def _typed(shape: Any, value: Any, option: str, where: str, label: str = "") -> Any:
    """A shorthand value (strings, lists, dicts) as `shape` types it: numbers and
    booleans from their text, one value where a list is wanted as that list.
    `label` names the member being read, for errors."""
    kind = shape.type_name
    label = label or shape.name
    if kind in ("structure", "map"):
        if not isinstance(value, dict):
            raise InputError(
                f"{where}: {option}: {label} is a structure, got {value!r}; write "
                "{Key=value,...} there"
            )
        if kind == "map":
            return {
                key: _typed(shape.value, item, option, where, f"{label}.{key}")
                for key, item in value.items()
            }
        unknown = sorted(set(value) - set(shape.members))
        if unknown:
            raise InputError(
                f"{where}: {option}: no member {unknown[0]!r} in {label}; "
                f"its members: {', '.join(shape.members)}"
            )
        return {
            key: _typed(shape.members[key], item, option, where, key)
            for key, item in value.items()
        }
    if kind == "list":
        items = value if isinstance(value, list) else [value]
        return [_typed(shape.member, item, option, where, label) for item in items]
    if not isinstance(value, str):
        raise InputError(
            f"{where}: {option}: {label} takes one {kind} value, got {value!r}"
        )
    return _one(shape, value, f"{option} ({label})", where)

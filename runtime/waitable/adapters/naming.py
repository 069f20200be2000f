"""How smithy-python names things, so a waiter can translate between its names and the model's.

Waiter paths and inputs use the model's member names (``TableStatus``); a
smithy-python client uses snake_case attribute and method names
(``table_status``, ``describe_table``). The rule below is smithy-python's own:
Smithy's snake_case conversion, then a trailing ``_`` on Python keywords and on
the few built-in type names its generated code refers to.
"""

from __future__ import annotations

import keyword
import re
from collections.abc import Iterable, Mapping

__all__ = ["NameClash", "python_member_name", "member_names_by_python_name"]

_ACRONYM_THEN_WORD = re.compile(r"([A-Z]+)([A-Z][a-z])")
_LOWER_OR_DIGIT_THEN_UPPER = re.compile(r"([a-z\d])([A-Z])")
_SPACE_OR_DASH = re.compile(r"[\s-]")

# Built-in names that smithy-python's generated classes would shadow; it
# escapes them like keywords.
_SHADOWED_BUILTINS = frozenset(
    {"bool", "bytes", "bytearray", "dict", "float", "int", "list", "str", "datetime"}
)


def snake_case(name: str) -> str:
    """Smithy's snake_case: ``TableStatus`` -> ``table_status``, ``SSEKMSKeyId`` -> ``ssekms_key_id``."""
    name = _ACRONYM_THEN_WORD.sub(r"\1_\2", name)
    name = _LOWER_OR_DIGIT_THEN_UPPER.sub(r"\1_\2", name)
    return _SPACE_OR_DASH.sub("_", name).lower()


def python_member_name(member_name: str) -> str:
    """The attribute (or method) name smithy-python gives a model member (or operation)."""
    name = snake_case(member_name)
    if keyword.iskeyword(name) or name in _SHADOWED_BUILTINS:
        return name + "_"
    return name


class NameClash(ValueError):
    """Two model member names that smithy-python would give the same Python name."""


def member_names_by_python_name(
    member_names: Iterable[str], *, strict: bool = True
) -> Mapping[str, str]:
    """Map each Python attribute name back to the model member name it came from.

    Two distinct model names sharing a Python name cannot be told apart by name
    alone: `strict` raises `NameClash` for them, otherwise both are left out.
    """
    table: dict[str, str] = {}
    clashes: set[str] = set()
    for member_name in member_names:
        python_name = python_member_name(member_name)
        known = table.setdefault(python_name, member_name)
        if known != member_name:
            if strict:
                raise NameClash(
                    f"model members {known!r} and {member_name!r} both become the "
                    f"Python attribute {python_name!r}, so it cannot be named back "
                    "without knowing which structure it belongs to"
                )
            clashes.add(python_name)
    for python_name in clashes:
        del table[python_name]
    return table

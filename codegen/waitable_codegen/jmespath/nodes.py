"""The syntax tree the compiler works on: one small frozen record per construct.

`waitable_codegen.jmespath.syntax` builds it from the dict tree of
`waitable_codegen.jmespath.parser`. Subexpressions (``a.b``), index expressions (``a[0]``) and pipes
(``a | b``) all mean "apply each step to the result of the one before", so
they become one `Chain`; ``@`` and the implicit identity become `Current`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Union


@dataclass(frozen=True)
class Current:
    """``@``: the value being evaluated."""


@dataclass(frozen=True, eq=False)
class Literal:
    """A JSON literal (`` `[1, 2]` ``) or raw string (``'text'``)."""

    value: Any


@dataclass(frozen=True)
class Field:
    """``name``: the member ``name`` of an object, else null."""

    name: str


@dataclass(frozen=True)
class Index:
    """``[i]``: element ``i`` of an array (negative counts from the end)."""

    index: int


@dataclass(frozen=True)
class Slice:
    """``[start:stop:step]`` of an array; ``step`` is never 0."""

    start: int | None
    stop: int | None
    step: int | None


@dataclass(frozen=True)
class Chain:
    """``a.b``, ``a[0]``, ``a | b``: each step applied to the previous result."""

    steps: tuple[Node, ...]


@dataclass(frozen=True)
class Projection:
    """``base[*].body`` (and ``base[].body`` with a `Flatten` base).

    ``body`` runs on each element of the array ``base``; null results drop.
    """

    base: Node
    body: Node


@dataclass(frozen=True)
class ValueProjection:
    """``base.*.body``: ``body`` on each value of the object ``base``."""

    base: Node
    body: Node


@dataclass(frozen=True)
class FilterProjection:
    """``base[?condition].body``: a projection over the elements that pass."""

    base: Node
    body: Node
    condition: Node


@dataclass(frozen=True)
class Flatten:
    """``base[]``'s first step: nested arrays spliced one level deep."""

    base: Node


@dataclass(frozen=True)
class MultiSelectList:
    """``[a, b]``: a new array, null when evaluated on null."""

    items: tuple[Node, ...]


@dataclass(frozen=True)
class MultiSelectHash:
    """``{k: a, ...}``: a new object, null when evaluated on null."""

    pairs: tuple[tuple[str, Node], ...]


@dataclass(frozen=True)
class Or:
    """``left || right``: ``left`` when it is truthy, else ``right``."""

    left: Node
    right: Node


@dataclass(frozen=True)
class And:
    """``left && right``: ``left`` when it is falsy, else ``right``."""

    left: Node
    right: Node


@dataclass(frozen=True)
class Not:
    """``!operand``: true when ``operand`` is falsy."""

    operand: Node


@dataclass(frozen=True)
class Comparison:
    """``left OP right`` with OP one of ``== != < <= > >=``."""

    op: str
    left: Node
    right: Node


@dataclass(frozen=True)
class FunctionCall:
    """``name(args...)``, a built-in function (checked at compile time)."""

    name: str
    args: tuple[Node, ...]


@dataclass(frozen=True)
class ExpRef:
    """``&body``: the expression itself, passed to ``sort_by`` and friends."""

    body: Node


Node = Union[
    Current,
    Literal,
    Field,
    Index,
    Slice,
    Chain,
    Projection,
    ValueProjection,
    FilterProjection,
    Flatten,
    MultiSelectList,
    MultiSelectHash,
    Or,
    And,
    Not,
    Comparison,
    FunctionCall,
    ExpRef,
]

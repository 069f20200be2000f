"""Source layout decided up front the way black would decide it.

Generated files are not run through black: the line-length-dependent constructs
the templates place are laid out here as black lays them out (`render` checks each
file cheaply and hands one it cannot vouch for to black, counted). Every piece is
composed from safe parts (`literals.compose`), never from raw text.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from ..literals import SafePart, Source, compose, join, pad
from ..naming import Identifier
from ..widths import LINE_LENGTH, may_fit

__all__ = [
    "EMPTY",
    "LINE_LENGTH",
    "Expression",
    "call_value",
    "class_attribute",
    "class_header",
    "plain",
    "subscript",
    "subscript_line",
    "tuple_argument",
]
EMPTY = compose("")


class Expression(NamedTuple):
    """An expression's source, and its two parts when it is a subscript
    `outer[inner]` (black opens the last bracket pair of a long line). A named
    tuple: thousands are made per package, and it is only read."""

    text: Source
    outer: Source | None = None
    inner: Source | None = None


def plain(text: Source) -> Expression:
    """An expression that does not end in a subscript."""
    return Expression(text)


def subscript(outer: Source, inner: Source) -> Expression:
    """`outer[inner]`."""
    return Expression(compose("{}[{}]", outer, inner), outer, inner)


def class_header(
    name: Identifier, generic: Source, arguments: Sequence[Source] = ()
) -> Source:
    """`class Name(Generic[A, B]):` (or `(Base):` without arguments), split the way
    black splits it when it is too long for one line."""
    base = compose("{}[{}]", generic, join(", ", arguments)) if arguments else generic
    one_line = compose("class {}({}):", name, base)
    if may_fit(one_line):
        return one_line
    if may_fit(f"    {base}") or not arguments:
        return compose("class {}(\n    {}\n):", name, base)
    joined = join(", ", arguments)
    if may_fit(f"        {joined}"):
        inner = compose("        {}\n", joined)
    else:
        inner = join("", [compose("        {},\n", a) for a in arguments])
    return compose("class {}(\n    {}[\n{}    ]\n):", name, generic, inner)


def subscript_line(
    prefix: Source,
    expression: Expression,
    indent: int,
    suffix: Source = EMPTY,
    *,
    parenthesize: bool = False,
) -> Source:
    """`prefix + expression + suffix` at `indent`; when too long and `expression`
    is a subscript, its last bracket pair is opened over three lines (a bare
    name or string is wrapped in parentheses instead, when `parenthesize`: a type
    hint, as black does when that makes it fit)."""
    space = pad(indent)
    line = compose("{}{}{}{}", space, prefix, expression.text, suffix)
    if may_fit(line):
        return line
    if expression.outer is None or expression.inner is None:
        text = expression.text
        if (
            parenthesize
            and (text.isidentifier() or _is_string(text))
            and may_fit(text, LINE_LENGTH - indent - 4)
        ):
            return compose(
                "{}{}(\n{}    {}\n{}){}",
                space,
                prefix,
                space,
                expression.text,
                space,
                suffix,
            )
        return line
    return compose(
        "{}{}{}[\n{}    {}\n{}]{}",
        space,
        prefix,
        expression.outer,
        space,
        expression.inner,
        space,
        suffix,
    )


def _is_string(text: str) -> bool:
    """Whether `text` is one double-quoted string literal with no quote inside
    (a quoted type hint: a class name, or `list[Name]`)."""
    return len(text) >= 2 and text[0] == text[-1] == '"' and '"' not in text[1:-1]


def tuple_argument(keyword: Identifier, items: Sequence[Source], indent: int) -> Source:
    """`keyword=(a, b),` as a call argument at `indent`: a one-item tuple on one
    line when it fits, otherwise one item per line with a trailing comma."""
    space = pad(indent)
    if len(items) == 1:
        one_line = compose("{}{}=({},),", space, keyword, items[0])
        if may_fit(one_line):
            return one_line
    inner = join("", [compose("{}    {},\n", space, item) for item in items])
    return compose("{}{}=(\n{}{}),", space, keyword, inner, space)


def call_value(
    line_start: int, callee: Source, arguments: Sequence[SafePart], indent: int
) -> Source:
    """`callee(a, b, c)` as the value of an exploded call's argument line that
    starts with `line_start` columns (indent and `keyword=`) and ends in `,`:
    on one line when it fits, else black's split of its last bracket pair (the
    arguments on one line, or one per line with a trailing comma)."""
    joined = join(", ", arguments)
    one_line = compose("{}({})", callee, joined)
    if may_fit(one_line, LINE_LENGTH - line_start - 1):
        return one_line
    space = pad(indent)
    if may_fit(joined, LINE_LENGTH - indent - 4):
        return compose("{}(\n{}    {}\n{})", callee, space, joined, space)
    inner = join("", [compose("{}    {},\n", space, part) for part in arguments])
    return compose("{}(\n{}{})", callee, inner, space)


def class_attribute(target: Source, value: Source) -> Source:
    """`    target = value` in a class body; when too long, the value in black's
    parentheses (if it then fits: otherwise left long, for black to settle)."""
    one_line = compose("    {} = {}", target, value)
    if may_fit(one_line) or not may_fit(value, LINE_LENGTH - 8):
        return one_line
    return compose("    {} = (\n        {}\n    )", target, value)

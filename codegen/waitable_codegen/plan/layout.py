"""Source layout decided up front the way black would decide it.

black formats every generated file; laying out the few line-length-dependent
constructs the same way beforehand means black finds the file already formatted
and makes one pass instead of two. A construct laid out differently costs only
time: black still has the last word.
"""

from __future__ import annotations

from collections.abc import Sequence

LINE_LENGTH = 88


def class_header(name: str, generic: str, arguments: Sequence[str] = ()) -> str:
    """`class Name(Generic[A, B]):` (or `(Base):` without arguments), split the way
    black splits it when it is too long for one line."""
    base = f"{generic}[{', '.join(arguments)}]" if arguments else generic
    one_line = f"class {name}({base}):"
    if len(one_line) <= LINE_LENGTH:
        return one_line
    if len(f"    {base}") <= LINE_LENGTH or not arguments:
        return f"class {name}(\n    {base}\n):"
    joined = ", ".join(arguments)
    if len(f"        {joined}") <= LINE_LENGTH:
        inner = f"        {joined}\n"
    else:
        inner = "".join(f"        {argument},\n" for argument in arguments)
    return f"class {name}(\n    {generic}[\n{inner}    ]\n):"


def subscript_line(
    prefix: str,
    expression: str,
    indent: int,
    suffix: str = "",
    *,
    parenthesize: bool = False,
) -> str:
    """`prefix + expression + suffix` at `indent`; when too long and `expression`
    ends in a subscript, its last bracket pair is opened over three lines (a bare
    name is wrapped in parentheses instead, when `parenthesize`: a type hint)."""
    pad = " " * indent
    line = f"{pad}{prefix}{expression}{suffix}"
    if len(line) <= LINE_LENGTH:
        return line
    if not expression.endswith("]"):
        if parenthesize and expression.isidentifier():
            return f"{pad}{prefix}(\n{pad}    {expression}\n{pad}){suffix}"
        return line
    depth = 0
    for index in range(len(expression) - 1, -1, -1):
        char = expression[index]
        if char == "]":
            depth += 1
        elif char == "[":
            depth -= 1
            if depth == 0:
                outer, inner = expression[:index], expression[index + 1 : -1]
                return f"{pad}{prefix}{outer}[\n{pad}    {inner}\n{pad}]{suffix}"
    return line


def tuple_argument(keyword: str, items: Sequence[str], indent: int) -> str:
    """`keyword=(a, b),` as a call argument at `indent`: a one-item tuple on one
    line when it fits, otherwise one item per line with a trailing comma."""
    pad = " " * indent
    if len(items) == 1:
        one_line = f"{pad}{keyword}=({items[0]},),"
        if len(one_line) <= LINE_LENGTH:
            return one_line
    inner = "".join(f"{pad}    {item},\n" for item in items)
    return f"{pad}{keyword}=(\n{inner}{pad}),"

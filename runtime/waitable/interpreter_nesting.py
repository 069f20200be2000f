"""How deep an expression the `jmespath` package's interpreter can evaluate.

The interpreter walks the expression's tree recursively: two to four Python frames
per level of nesting (`visit` and the node's method; a projection or a filter
more), and a few more where a function evaluates an expression reference
(`sort_by(a, &b)`). An expression nested too deeply would raise `RecursionError`
on every response, which acceptor evaluation reads as "does not match": the
waiter would never match, silently. So a path nested deeper than
`MAX_INTERPRETED_NESTING` is refused when the waiter is defined (and by the
generator in `--jmespath interpreted` mode); compiled paths have no such limit.
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["MAX_INTERPRETED_NESTING", "interpreted_nesting"]

MAX_INTERPRETED_NESTING = 100
"""Levels of nesting the interpreter is given: at four frames a level, 400 of
Python's default 1,000, leaving the rest to the caller's own stack."""

#: An expression reference's nodes are evaluated through the function that
#: takes it (its call, the key function, the reference's own visit): counted as
#: this many levels.
_EXPREF_LEVELS = 3


def interpreted_nesting(tree: Mapping[str, object]) -> int:
    """Levels of the deepest chain of nested nodes in a `jmespath` parse tree
    (`jmespath.compile(text).parsed`), an expression reference counted as
    `_EXPREF_LEVELS`; walked without recursion, so any tree can be measured."""
    deepest = 0
    pending: list[tuple[object, int]] = [(tree, 0)]
    while pending:
        node, above = pending.pop()
        if not isinstance(node, Mapping):
            continue
        level = above + (_EXPREF_LEVELS if node.get("type") == "expref" else 1)
        deepest = max(deepest, level)
        children = node.get("children")
        if isinstance(children, list):
            pending.extend((child, level) for child in children)
    return deepest

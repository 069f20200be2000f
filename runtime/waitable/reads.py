"""Which parts of an output a JMESPath expression can read, found from its syntax tree.

Converting a large output to the spec's data model costs more than evaluating the
acceptors' paths on it, and even checking all of it for values that need
converting costs as much as a path. Most waiter paths only walk a few fields
(`Reservations[].Instances[].State.Name`), so the engine looks only at the parts
some path can read: a `Reads` tree of object keys, where lists are crossed
transparently (every element gets the same tree) and a `whole` node is taken
completely. Anything a path uses as a value (compares, passes to a function, tests
for truth, wildcards over) is `whole`, so a path evaluated on data whose read
parts are converted gives exactly the result it gives on the fully converted data.
"""

from __future__ import annotations

from collections.abc import Generator, Iterable, Mapping
from typing import Any

from jmespath import parser
from jmespath.exceptions import JMESPathError

from .legacy_literals import legacy_literals_allowed

__all__ = ["Position", "Reads", "output_reads_of", "reads_of", "without_positions"]

Position = tuple[str, ...]
"""A place in an output: the object keys from its root, lists crossed (`()` is the root)."""


class Reads:
    """A node of the tree: the keys read below an object, or the whole value."""

    __slots__ = ("children", "whole")

    def __init__(self, whole: bool = False) -> None:
        self.whole = whole
        self.children: dict[str, Reads] = {}

    def child(self, key: str) -> Reads:
        """The node for `key`, created on first use."""
        node = self.children.get(key)
        if node is None:
            node = self.children[key] = Reads()
        return node

    def merge(self, other: Reads) -> None:
        """Add everything `other` reads to this node (walked with a stack: a path
        of a thousand segments is a thousand levels)."""
        pending = [(self, other)]
        while pending:
            mine, theirs = pending.pop()
            if theirs.whole:
                mine.whole = True
            if mine.whole:
                mine.children.clear()
                continue
            for key, node in theirs.children.items():
                pending.append((mine.child(key), node))

    def __repr__(self) -> str:
        if self.whole:
            return "Reads(whole)"
        return f"Reads({self.children!r})"


def output_reads_of(expression: str, input_output: bool = False) -> Reads:
    """The parts of an output one path can read; an `inputOutput` path's `output` part.

    The runtime and the generator both ask this, so they agree on every position.
    """
    reads = reads_of(expression)
    if input_output and not reads.whole:
        reads = reads.children.get("output", Reads())
    return reads


def without_positions(reads: Reads, positions: Iterable[Position]) -> Reads | None:
    """`reads` without the parts at `positions` (each taken with all it holds).

    A node whose every child was taken goes too; None when nothing is left. A
    position `reads` does not hold changes nothing. `reads` itself is not changed.
    """
    taken: dict[str, Any] = {}  # a trie of the positions; `True` marks one's end
    for position in positions:
        if not position:
            return None
        node = taken
        for key in position[:-1]:
            child = node.setdefault(key, {})
            if child is True:
                break
            node = child
        else:
            node[position[-1]] = True
    return _without(reads, taken)


def _without(reads: Reads, taken: dict[str, Any]) -> Reads | None:
    """`without_positions` below one node, walked with a stack of `_node_without`
    steps: a plain read of a thousand fields is a thousand levels, and a recursive
    walk stopped the generated module's import with RecursionError."""
    stack = [_node_without(reads, taken)]
    answer: Reads | None = None
    while stack:
        try:
            below = stack[-1].send(answer)
        except StopIteration as done:
            stack.pop()
            answer = done.value
            continue
        stack.append(_node_without(*below))
        answer = None
    return answer


_Without = Generator[tuple[Reads, dict[str, Any]], Reads | None, Reads | None]


def _node_without(reads: Reads, taken: dict[str, Any]) -> _Without:
    """`without_positions` below one node; `reads` itself when nothing was taken.
    Yields (child, what is taken below it) for `_without` to answer."""
    if reads.whole or not reads.children or not taken:
        return reads
    kept = Reads()
    changed = False
    for key, child in reads.children.items():
        below = taken.get(key)
        if below is True:
            left = None
        elif below is None:
            left = child
        else:
            left = yield child, below
        if left is not None:
            kept.children[key] = left
        changed = changed or left is not child
    if not changed:
        return reads
    return kept if kept.children else None


def reads_of(expression: str) -> Reads:
    """The parts of the data `expression` can read; the whole data if unsure."""
    try:
        tree = legacy_literals_allowed(parser.Parser().parse, expression).parsed
        root = Reads()
        _mark_whole(_walk(tree, [root]))
    except (JMESPathError, _Unknown, RecursionError, ValueError):
        return Reads(whole=True)
    return root


class _Unknown(Exception):
    """A syntax node this analysis does not know: fall back to converting everything."""


def _mark_whole(positions: Iterable[Reads]) -> None:
    for node in positions:
        node.whole = True
        node.children.clear()


def _walk(node: Mapping[str, Any], positions: list[Reads]) -> list[Reads]:
    """Record what `node` reads from `positions`; return where its result lies in the data.

    An empty list means the result is a new value (a boolean, a function's result,
    a multiselect) or lies inside parts already marked whole.
    """
    kind = node["type"]
    children = node.get("children", [])
    if kind == "field":
        return [p.child(node["value"]) for p in positions if not p.whole]
    if kind == "subexpression":  # `a.b.c` is one node with three children
        for child in children:
            positions = _walk(child, positions)
        return positions
    if kind in ("pipe", "projection", "index_expression"):
        return _walk(children[1], _walk(children[0], positions))
    if kind == "flatten":
        return _walk(children[0], positions)
    if kind in ("identity", "current", "index", "slice"):
        return positions
    if kind == "filter_projection":
        base = _walk(children[0], positions)
        _mark_whole(_walk(children[2], base))
        return _walk(children[1], base)
    if kind == "value_projection":
        _mark_whole(_walk(children[0], positions))
        return []
    if kind in ("comparator", "and_expression", "or_expression", "not_expression"):
        for child in children:
            _mark_whole(_walk(child, positions))
        return []
    if kind in ("multi_select_list", "multi_select_dict", "function_expression"):
        for child in children:
            if child["type"] != "expref":  # applied to elements of a whole argument
                _mark_whole(_walk(child, positions))
        return []
    if kind == "key_val_pair":
        return _walk(children[0], positions)
    if kind == "literal":
        return []
    raise _Unknown(kind)

"""Parse a JMESPath expression into the compiler's tree, with static checks.

`waitable_codegen.jmespath.parser` (the project's one parser, shared with the
validator) reads the text; this module turns its dict tree into
`waitable_codegen.jmespath.nodes` records and rejects, before any code is
generated, what is wrong whatever the data: a syntax error, an unknown
function, a wrong number of arguments, a slice step of 0.
"""

from __future__ import annotations

from typing import Any

from .errors import JMESPathCompileError
from .functions import SIGNATURES
from . import nodes
from .nodes import Node
from .parser import ExpressionSyntaxError, ExpressionTooDeepError
from .parser import parse as parse_tree

_COMPARATORS = {"eq": "==", "ne": "!=", "lt": "<", "lte": "<=", "gt": ">", "gte": ">="}


def parse(expression: str) -> Node:
    """The tree of ``expression``; `JMESPathCompileError` when it is invalid."""
    if not isinstance(expression, str):
        raise TypeError(
            f"a JMESPath expression must be a str, got {type(expression).__name__}"
        )
    try:
        tree = parse_tree(expression)
    except ExpressionTooDeepError:
        raise too_deep(expression) from None
    except ExpressionSyntaxError as error:
        raise JMESPathCompileError(
            "syntax",
            expression,
            f"invalid JMESPath expression {expression!r}: {error}; "
            "fix its syntax (see https://jmespath.org/specification.html)",
        ) from None
    try:
        return _Converter(expression).convert(tree)
    except RecursionError:
        raise too_deep(expression) from None


def too_deep(expression: str) -> JMESPathCompileError:
    """The error for an expression nested beyond what can be compiled."""
    return JMESPathCompileError(
        "syntax",
        expression,
        f"JMESPath expression {expression[:60]!r}... nests too deeply to compile; "
        "split it into smaller expressions",
    )


class _Converter:
    """One pass over the parser's dict tree, building `Node` records."""

    def __init__(self, expression: str) -> None:
        self._expression = expression

    def convert(self, node: dict[str, Any]) -> Node:
        """The record for one dict node (and, recursively, its children)."""
        kind = node["type"]
        children = node.get("children", [])
        if kind in ("current", "identity"):
            return nodes.Current()
        if kind == "literal":
            return nodes.Literal(node["value"])
        if kind == "field":
            return nodes.Field(node["value"])
        if kind == "index":
            return nodes.Index(node["value"])
        if kind == "slice":
            start, stop, step = children
            if step == 0:
                raise JMESPathCompileError(
                    "invalid-value",
                    self._expression,
                    f"slice step cannot be 0 in JMESPath expression "
                    f"{self._expression!r}; use a positive or negative step",
                )
            return nodes.Slice(start, stop, step)
        if kind in ("subexpression", "index_expression", "pipe"):
            return _chain([self.convert(child) for child in children])
        if kind == "projection":
            return nodes.Projection(
                self.convert(children[0]), self.convert(children[1])
            )
        if kind == "value_projection":
            return nodes.ValueProjection(
                self.convert(children[0]), self.convert(children[1])
            )
        if kind == "filter_projection":
            return nodes.FilterProjection(
                self.convert(children[0]),
                self.convert(children[1]),
                self.convert(children[2]),
            )
        if kind == "flatten":
            return nodes.Flatten(self.convert(children[0]))
        if kind == "multi_select_list":
            return nodes.MultiSelectList(
                tuple(self.convert(child) for child in children)
            )
        if kind == "multi_select_dict":
            return nodes.MultiSelectHash(
                tuple(
                    (pair["value"], self.convert(pair["children"][0]))
                    for pair in children
                )
            )
        if kind == "or_expression":
            return nodes.Or(self.convert(children[0]), self.convert(children[1]))
        if kind == "and_expression":
            return nodes.And(self.convert(children[0]), self.convert(children[1]))
        if kind == "not_expression":
            return nodes.Not(self.convert(children[0]))
        if kind == "comparator":
            return nodes.Comparison(
                _COMPARATORS[node["value"]],
                self.convert(children[0]),
                self.convert(children[1]),
            )
        if kind == "expref":
            return nodes.ExpRef(self.convert(children[0]))
        if kind == "function_expression":
            return self._function(node["value"], children)
        raise JMESPathCompileError(
            "syntax",
            self._expression,
            f"JMESPath expression {self._expression!r} uses a construct this "
            f"compiler does not know ({kind!r})",
        )

    def _function(
        self, name: str, children: list[dict[str, Any]]
    ) -> nodes.FunctionCall:
        signature = SIGNATURES.get(name)
        if signature is None:
            known = ", ".join(sorted(SIGNATURES))
            raise JMESPathCompileError(
                "unknown-function",
                self._expression,
                f"unknown function {name}() in JMESPath expression "
                f"{self._expression!r}; the built-in functions are: {known}",
            )
        count = len(children)
        too_many = signature.max_args is not None and count > signature.max_args
        if count < signature.min_args or too_many:
            raise JMESPathCompileError(
                "invalid-arity",
                self._expression,
                f"{name}() takes {signature.describe_arity()} but {count} "
                f"{'was' if count == 1 else 'were'} given, in JMESPath expression "
                f"{self._expression!r}",
            )
        return nodes.FunctionCall(
            name, tuple(self.convert(child) for child in children)
        )


def _chain(steps: list[Node]) -> Node:
    """One `Chain` of ``steps``: nested chains inlined, ``@`` steps dropped."""
    flat: list[Node] = []
    for step in steps:
        if isinstance(step, nodes.Chain):
            flat.extend(step.steps)
        elif not isinstance(step, nodes.Current):
            flat.append(step)
    if not flat:
        return nodes.Current()
    if len(flat) == 1:
        return flat[0]
    return nodes.Chain(tuple(flat))

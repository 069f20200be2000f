"""Static analysis of a JMESPath expression against one sample value, as Smithy does it.

The expression is evaluated over a sample built from the model (`samples.py`) with
type-level rules instead of JMESPath's runtime ones: reading a field that the sample
lacks, or extracting from the wrong type, is a DANGER problem; an ordering
comparison of non-numbers is a WARNING; a wrong function call is an ERROR. The
value the walk ends on gives the expression's static return type.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .events import Severity
from .jmespath_functions import FUNCTIONS
from ..jmespath.parser import ExpressionTooDeepError
from .jmespath_syntax import Node, line_column, parse
from .jmespath_values import (
    ANY,
    EXPREF,
    Value,
    from_literal,
    is_truthy,
    same_value,
    type_name,
)

_SYMBOLS = {"eq": "==", "ne": "!=", "lt": "<", "lte": "<=", "gt": ">", "gte": ">="}


@dataclass(frozen=True)
class ExpressionProblem:
    """One problem found in an expression, at a 1-based line and column."""

    severity: Severity
    message: str
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.message} ({self.line}:{self.column})"


@dataclass(frozen=True)
class LintResult:
    """The sample value an expression evaluates to, and the problems found on the way."""

    value: Value
    problems: tuple[ExpressionProblem, ...]

    @property
    def return_type(self) -> str:
        """The static return type: `string`, `array`, ..., `null`, or `any`."""
        return type_name(self.value)


def lint(expression: str, current: Value) -> LintResult:
    """Analyse `expression` over the sample `current`; ExpressionSyntaxError if it
    does not parse, or nests too deeply to check."""
    checker = _Checker(expression)
    tree = parse(expression)
    try:
        value = checker.visit(tree, current, ANY)
    except RecursionError:  # the parser nests by other rules than the checker
        raise ExpressionTooDeepError(
            1, 1, "the expression nests too deeply to check"
        ) from None
    problems = sorted(
        checker.problems,
        key=lambda p: (-p.severity, p.line, p.column, p.message),
    )
    return LintResult(value, tuple(problems))


def compare(left: Value, right: Value, operator: str) -> Value:
    """A comparison's sample result; None (null) where the operator does not apply."""
    kind = type_name(left)
    if kind == "any":
        return True
    if kind != type_name(right):
        return False
    if kind == "number":
        return {
            "eq": left == right,
            "ne": left != right,
            "lt": left < right,
            "lte": left <= right,
            "gt": left > right,
            "gte": left >= right,
        }[operator]
    if kind == "expression" or operator not in ("eq", "ne"):
        return None
    equal = same_value(left, right)
    return equal if operator == "eq" else not equal


class _Checker:
    """One walk over an expression: the problems found so far, by severity and place.

    `visit(node, current, known)` evaluates `node` over `current`. `known` is the
    value an expression reference `&e` met on this path is checked against: the
    current value of the enclosing function call, ANY elsewhere. Like Smithy, it
    carries over to the nodes that evaluate on the same value, and resets where an
    expression moves to a new value (the right side of `.`, `|` and projections).
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self.problems: set[ExpressionProblem] = set()
        #: Each literal converted once (by node id; values are never changed): a
        #: projection evaluates its right side once per element, and converting an
        #: object literal hashes every key, so a big literal under a big projection
        #: cost their product.
        self._literals: dict[int, Value] = {}

    def visit(self, node: Node, current: Value, known: Value) -> Value:
        """The sample value of `node` evaluated over `current`."""
        visitor = _VISITORS.get(node["type"])
        if visitor is None:  # a node type from a newer jmespath: learn nothing
            return ANY
        return visitor(self, node, current, known)

    def _report(self, severity: Severity, node: Node, message: str) -> None:
        line, column = line_column(self.text, node["pos"])
        self.problems.add(ExpressionProblem(severity, message, line, column))

    def _danger(self, node: Node, message: str) -> None:
        self._report(Severity.DANGER, node, message)

    # Values and access.

    def _current(self, node: Node, current: Value, known: Value) -> Value:
        return current

    def _literal(self, node: Node, current: Value, known: Value) -> Value:
        converted = self._literals.get(id(node))
        if converted is None:
            converted = self._literals[id(node)] = from_literal(node["value"])
        return converted

    def _field(self, node: Node, current: Value, known: Value) -> Value:
        name = node["value"]
        if isinstance(current, dict):
            if name in current:
                return current[name]
            properties = ", ".join(current)
            self._danger(
                node,
                f"Object field '{name}' does not exist in object with properties "
                f"[{properties}]",
            )
            return None
        if current is not ANY:
            self._danger(
                node,
                f"Object field '{name}' extraction performed on {type_name(current)}",
            )
        return ANY

    def _index(self, node: Node, current: Value, known: Value) -> Value:
        index = node["value"]
        if isinstance(current, list):
            if -len(current) <= index < len(current):
                return current[index]
            return None
        if current is not ANY:
            self._danger(
                node,
                f"Array index '{index}' extraction performed on {type_name(current)}",
            )
        return ANY

    def _slice(self, node: Node, current: Value, known: Value) -> Value:
        if isinstance(current, list):
            return current
        if current is not ANY:
            self._danger(node, f"Slice performed on {type_name(current)}")
        return []

    def _chain(self, node: Node, current: Value, known: Value) -> Value:
        """`a.b.c`, `a | b`, `a[0][1]`: each step evaluated on the previous result."""
        first, *rest = node["children"]
        value = self.visit(first, current, known)
        for step in rest:
            value = self.visit(step, value, ANY)
        return value

    # Projections.

    def _projection(self, node: Node, current: Value, known: Value) -> Value:
        left_node, right_node = node["children"]
        left = self.visit(left_node, current, known)
        if not isinstance(left, list) or not left:
            if not isinstance(left, list) and left is not ANY:
                self._danger(node, f"Array projection performed on {type_name(left)}")
            self.visit(right_node, ANY, ANY)
            return []
        return [self.visit(right_node, element, ANY) for element in left]

    def _object_projection(self, node: Node, current: Value, known: Value) -> Value:
        left_node, right_node = node["children"]
        left = self.visit(left_node, current, known)
        if not isinstance(left, dict):
            if left is not ANY:
                self._danger(node, f"Object projection performed on {type_name(left)}")
            self.visit(right_node, ANY, ANY)
            return {}
        return [self.visit(right_node, value, ANY) for value in left.values()]

    def _filter_projection(self, node: Node, current: Value, known: Value) -> Value:
        left_node, right_node, condition = node["children"]
        left = self.visit(left_node, current, known)
        if not isinstance(left, list) or not left:
            if not isinstance(left, list) and left is not ANY:
                self._danger(node, f"Filter projection performed on {type_name(left)}")
            self.visit(condition, ANY, ANY)
            self.visit(right_node, ANY, ANY)
            return []
        result = []
        for element in left:
            if is_truthy(self.visit(condition, element, ANY)):
                value = self.visit(right_node, element, ANY)
                if value is not None:
                    result.append(value)
        return result

    def _flatten(self, node: Node, current: Value, known: Value) -> Value:
        value = self.visit(node["children"][0], current, known)
        if not isinstance(value, list):
            if value is not ANY:
                self._danger(node, f"Array flatten performed on {type_name(value)}")
            return []
        flattened: list[Value] = []
        for element in value:
            if isinstance(element, list):
                flattened.extend(element)
            elif element is not None:
                flattened.append(element)
        return flattened

    # Operators.

    def _comparator(self, node: Node, current: Value, known: Value) -> Value:
        left_node, right_node = node["children"]
        left = self.visit(left_node, current, known)
        right = self.visit(right_node, current, known)
        result = compare(left, right, node["value"])
        if result is None:
            self._report(
                Severity.WARNING,
                node,
                f"Invalid comparator '{_SYMBOLS[node['value']]}' for {type_name(left)}",
            )
        return result

    def _and(self, node: Node, current: Value, known: Value) -> Value:
        left = self.visit(node["children"][0], current, known)
        right = self.visit(node["children"][1], current, known)
        return right if is_truthy(left) else left

    def _or(self, node: Node, current: Value, known: Value) -> Value:
        left = self.visit(node["children"][0], current, known)
        right = self.visit(node["children"][1], current, known)
        return left if is_truthy(left) else right

    def _not(self, node: Node, current: Value, known: Value) -> Value:
        return not is_truthy(self.visit(node["children"][0], current, known))

    def _multi_select_list(self, node: Node, current: Value, known: Value) -> Value:
        return [self.visit(child, current, known) for child in node["children"]]

    def _multi_select_dict(self, node: Node, current: Value, known: Value) -> Value:
        return {
            pair["value"]: self.visit(pair["children"][0], current, known)
            for pair in node["children"]
        }

    # Functions.

    def _expref(self, node: Node, current: Value, known: Value) -> Value:
        self.visit(node["children"][0], known, ANY)
        return EXPREF

    def _function(self, node: Node, current: Value, known: Value) -> Value:
        name = node["value"]
        arguments = node["children"]
        values = [self.visit(argument, current, current) for argument in arguments]
        signature = FUNCTIONS.get(name)
        if signature is None:
            self._report(Severity.ERROR, node, f"Unknown function: {name}")
            return ANY
        expected = len(signature.positional)
        if len(values) < expected or (
            signature.variadic is None and len(values) > expected
        ):
            self._report(
                Severity.ERROR,
                node,
                f"{name} function expected {expected} arguments, but was given "
                f"{len(values)}",
            )
            return signature.result()
        for index, (argument, value) in enumerate(zip(arguments, values)):
            check = (
                signature.positional[index] if index < expected else signature.variadic
            )
            reason = check(value) if check is not None else None
            if reason is not None:
                self._report(
                    Severity.ERROR,
                    argument,
                    f"{name} function argument {index} error: {reason}",
                )
        return signature.result()


_VISITORS: dict[str, Callable[[_Checker, Node, Value, Value], Value]] = {
    "and_expression": _Checker._and,
    "comparator": _Checker._comparator,
    "current": _Checker._current,
    "expref": _Checker._expref,
    "field": _Checker._field,
    "filter_projection": _Checker._filter_projection,
    "flatten": _Checker._flatten,
    "function_expression": _Checker._function,
    "identity": _Checker._current,
    "index": _Checker._index,
    "index_expression": _Checker._chain,
    "literal": _Checker._literal,
    "multi_select_dict": _Checker._multi_select_dict,
    "multi_select_list": _Checker._multi_select_list,
    "not_expression": _Checker._not,
    "or_expression": _Checker._or,
    "pipe": _Checker._chain,
    "projection": _Checker._projection,
    "slice": _Checker._slice,
    "subexpression": _Checker._chain,
    "value_projection": _Checker._object_projection,
}
"""The method that evaluates each node type (one table, not one per checker)."""

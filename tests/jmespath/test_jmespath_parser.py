"""The one parser: the `jmespath` package's grammar, the spec's tree shapes, Smithy's
positions."""

from __future__ import annotations

import json
from typing import Any

import jmespath.exceptions
import pytest
from shared_corpora import shared_path
from hypothesis import given
from hypothesis import strategies as st
from jmespath.parser import Parser

from jmespath_cases import CONFORMANCE
from waitable_codegen.jmespath.parser import (
    ExpressionSyntaxError,
    ExpressionTooDeepError,
    Node,
    line_column,
    parse,
)

COMPLIANCE = sorted(CONFORMANCE.glob("*.json"))


def compliance_expressions() -> list[str]:
    expressions: list[str] = []
    for path in COMPLIANCE:
        if path.name == "benchmarks.json":
            continue
        for group in json.loads(path.read_text(encoding="utf-8")):
            expressions.extend(case["expression"] for case in group["cases"])
    return expressions


EXPRESSIONS = compliance_expressions()


def without_positions(node: Any) -> Any:
    if isinstance(node, dict):
        return {k: without_positions(v) for k, v in node.items() if k != "pos"}
    if isinstance(node, list):
        return [without_positions(item) for item in node]
    return node


def positions(node: Node) -> list[int]:
    found = [node["pos"]]
    for child in node.get("children", ()):
        if isinstance(child, dict):
            found.extend(positions(child))
    return found


def test_the_compliance_suite_is_there() -> None:
    shared_path("conformance", "jmespath")
    assert len(EXPRESSIONS) > 800


@pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")  # `foo` literals
def test_same_trees_and_same_verdicts_as_the_jmespath_package() -> None:
    """Over the compliance suite our parser only adds positions: it accepts, rejects
    and builds what jmespath does."""
    for expression in EXPRESSIONS:
        try:
            reference = Parser().parse(expression).parsed
        except jmespath.exceptions.JMESPathError:
            with pytest.raises(ExpressionSyntaxError):
                parse(expression)
            continue
        tree = parse(expression)
        assert without_positions(tree) == reference, expression
        assert all(0 <= p <= len(expression) for p in positions(tree)), expression


def test_an_object_projection_takes_the_whole_path_after_it() -> None:
    # jmespath 1.1 reads `(a.*.b).c`, which is always null (jmespath.py issue #182).
    assert Parser().parse("a.*.b.c").parsed["type"] == "subexpression"
    assert without_positions(parse("a.*.b.c")) == {
        "type": "value_projection",
        "children": [
            {"type": "field", "value": "a", "children": []},
            {
                "type": "subexpression",
                "children": [
                    {"type": "field", "value": "b", "children": []},
                    {"type": "field", "value": "c", "children": []},
                ],
            },
        ],
    }
    # A pipe or a flatten still ends it.
    assert parse("a.*.b | c")["type"] == "pipe"
    assert parse("a.*.b[]")["type"] == "projection"


def test_a_slice_after_an_index_projects() -> None:
    # jmespath 1.1 appends the slice to the index expression, with no projection.
    assert Parser().parse("a[0][1:2].c").parsed["type"] == "subexpression"
    tree = parse("a[0][1:2].c")
    assert tree["type"] == "projection"
    sliced, right = tree["children"]
    assert [child["type"] for child in sliced["children"]] == [
        "index_expression",
        "slice",
    ]
    assert right["type"] == "field"
    assert without_positions(parse("a[0][1]")) == Parser().parse("a[0][1]").parsed


def node_at(tree: Node, kind: str, value: Any = None) -> Node:
    """The first node of a type (and value) in a tree, depth first."""
    if tree["type"] == kind and (value is None or tree.get("value") == value):
        return tree
    for child in tree.get("children", ()):
        if isinstance(child, dict):
            try:
                return node_at(child, kind, value)
            except LookupError:
                pass
    raise LookupError(kind)


@pytest.mark.parametrize(
    ("expression", "kind", "value", "column"),
    [
        ("`10`.foo", "field", "foo", 6),  # a field: its name
        ("`true` < `false`", "comparator", "lt", 10),  # first token of the right side
        ("a ==  b.c", "comparator", "eq", 7),
        ("input.foop == output.bazz", "field", "bazz", 22),
        ("length(`10`)", "literal", 10, 8),  # a literal: its opening tick
        ("length(`10`)", "function_expression", "length", 1),  # a function: its name
        ("a.b", "subexpression", None, 2),  # `.`
        ("a | b", "pipe", None, 3),
        ("a && b", "and_expression", None, 3),
        ("a || b", "or_expression", None, 3),
        ("!a", "not_expression", None, 1),
        ("f(&a)", "expref", None, 3),
        ("a[12]", "index", 12, 3),  # the token after `[`
        ("a[1:2]", "slice", None, 3),
        ("a[*].b", "projection", None, 3),  # `*`
        ("a[].b", "flatten", None, 1),  # the node to its left
        ("a.*.b", "value_projection", None, 3),  # the next token's column - 1
        ("a[?b == 'x']", "filter_projection", None, 9),  # its condition's position
        ("[a, b]", "multi_select_list", None, 1),
        ("x.{k: a}", "multi_select_dict", None, 3),
        ("'hi'", "literal", "hi", 1),
        ("@", "current", None, 1),
    ],
)
def test_positions_follow_smithys_parser(
    expression: str, kind: str, value: Any, column: int
) -> None:
    node = node_at(parse(expression), kind, value)
    assert line_column(expression, node["pos"]) == (1, column)


def test_lines_and_utf16_columns() -> None:
    text = "a.\n  \U0001f600b"
    assert line_column(text, 0) == (1, 1)
    assert line_column(text, 3) == (2, 1)
    assert line_column(text, len(text) - 1) == (2, 5)  # the emoji is two UTF-16 units


@pytest.mark.parametrize(
    ("expression", "message"),
    [
        ("||", "Syntax error at line 1 column 1: Unexpected token, found '||'"),
        (
            "foo.@@invalid",
            "Syntax error at line 1 column 5: Expected ['[', '{', '*', 'A-Z|a-z|_'], "
            "but found '@'",
        ),
        ("foo[", "Syntax error at line 1 column 5: Unexpected end of expression"),
        ("a = b", "Syntax error at line 1 column 3: Unknown token '='"),
        ("{a b}", "Syntax error at line 1 column 4: Expected [':'], but found 'b'"),
        (
            "a\n.@",
            "Syntax error at line 2 column 2: Expected ['[', '{', '*', "
            "'A-Z|a-z|_'], but found '@'",
        ),
        ("", "Syntax error at line 1 column 1: the expression is empty"),
    ],
)
def test_syntax_errors_say_where_and_what(expression: str, message: str) -> None:
    with pytest.raises(ExpressionSyntaxError) as raised:
        parse(expression)
    assert str(raised.value) == message


@given(st.text(max_size=12))
def test_any_text_parses_or_raises_a_syntax_error(text: str) -> None:
    try:
        tree = parse(text)
    except ExpressionSyntaxError as exc:
        assert exc.line >= 1 and exc.column >= 1
    else:
        assert all(0 <= p <= len(text) for p in positions(tree))


def test_nesting_beyond_the_recursion_limit_is_a_syntax_error_not_a_crash() -> None:
    with pytest.raises(ExpressionTooDeepError) as raised:
        parse("[" * 600 + "a" + "]" * 600)
    assert isinstance(raised.value, ExpressionSyntaxError)
    assert str(raised.value) == (
        "Syntax error at line 1 column 1: the expression nests too deeply to parse"
    )

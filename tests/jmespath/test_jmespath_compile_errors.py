"""What the compiler rejects, and how it says so."""

from __future__ import annotations

import pytest

from waitable_codegen.jmespath import JMESPathCompileError, compile, compile_to_source


@pytest.mark.parametrize(
    ("expression", "kind", "says"),
    [
        ("foo[", "syntax", "line 1 column 5: Unexpected end of expression"),
        ("", "syntax", "the expression is empty"),
        ('a.`"b"`', "syntax", "line 1 column 3"),
        ("a.\n  @", "syntax", "line 2 column 3"),
        ('"\\u"', "syntax", "escape"),
        ("nope(@)", "unknown-function", "the built-in functions are: abs, avg"),
        ("abs()", "invalid-arity", "abs() takes 1 argument but 0 were given"),
        ("abs(`1`, `2`)", "invalid-arity", "abs() takes 1 argument but 2 were given"),
        ("not_null()", "invalid-arity", "takes at least 1 argument"),
        ("sort_by(@)", "invalid-arity", "sort_by() takes 2 arguments but 1 was given"),
        ("foo[::0]", "invalid-value", "slice step cannot be 0"),
        ("a || foo[1:2:0]", "invalid-value", "slice step cannot be 0"),
    ],
)
def test_static_errors_name_the_expression_and_the_fix(
    expression: str, kind: str, says: str
) -> None:
    with pytest.raises(JMESPathCompileError) as caught:
        compile_to_source(expression, "path")
    assert caught.value.kind == kind
    assert caught.value.expression == expression
    assert says in str(caught.value)
    assert repr(expression) in str(caught.value)
    if kind == "syntax":
        assert "fix its syntax" in str(caught.value)
    assert "\n" not in str(caught.value)


def test_a_compile_error_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        compile("foo[")


def test_unknown_functions_are_found_anywhere_in_the_tree() -> None:
    """Even where the data would never lead evaluation."""
    with pytest.raises(JMESPathCompileError, match="nope"):
        compile("`true` || a[?b].nope(@)")


def test_expressions_nested_beyond_the_limit_are_a_clear_error() -> None:
    expression = "[" * 600 + "a" + "]" * 600
    with pytest.raises(JMESPathCompileError, match="nests too deeply"):
        compile_to_source(expression, "path")


@pytest.mark.parametrize(
    "name", ["1path", "class", "with space", "", "_jp", "value", "Any"]
)
def test_function_names_must_be_usable(name: str) -> None:
    with pytest.raises(ValueError, match="name"):
        compile_to_source("a", name)


def test_an_expression_must_be_text() -> None:
    with pytest.raises(TypeError, match="must be a str"):
        compile_to_source(b"a", "path")  # type: ignore[arg-type]

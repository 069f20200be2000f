"""Model text placed in code: literals and docstrings that hold only the text."""

from __future__ import annotations

import ast
import inspect

import black
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from waitable_codegen.docs import normalize
from waitable_codegen.literals import (
    Source,
    compiled_function,
    compose,
    docstring_literal,
    escaped,
    join,
    number_literal,
    string_literal,
)
from waitable_codegen.naming import identifier
from waitable_codegen.render import BLACK_MODE

tricky = st.lists(
    st.one_of(
        st.sampled_from(['"', "'", '"""', "\\", "{{", "}}", "\n", "\r", "\t", "\x00"]),
        st.text(max_size=5),
    ),
    max_size=15,
).map("".join)


@given(tricky)
@example('"""; import os; """')
@example("\\")
@example("\u2028\ud800")
def test_a_string_literal_evaluates_to_the_text(text: str) -> None:
    source = string_literal(text)
    assert "\n" not in source
    assert ast.literal_eval(source) == text
    formatted = black.format_str(f"x = {source}\n", mode=BLACK_MODE)
    assert ast.literal_eval(formatted.split(" = ", 1)[1]) == text


def docstring_of(source: str) -> str | None:
    module = ast.parse(source)
    cls = module.body[0]
    assert isinstance(cls, ast.ClassDef)
    return ast.get_docstring(cls, clean=True)


@settings(max_examples=150, deadline=None)
@given(tricky)
@example('ends with a quote"')
@example('"starts with one')
@example('a """ b')
@example("trailing backslash \\")
@example("line\n\n  indented\n\tx")
def test_a_docstring_survives_black_and_reads_back_as_the_normalised_text(
    text: str,
) -> None:
    wanted = normalize(text)
    if not wanted:
        return
    source = f"class X:\n    {docstring_literal(wanted, 4)}\n"
    assert docstring_of(source) == wanted
    formatted = black.format_str(source, mode=BLACK_MODE)
    assert formatted == source, "laid out as black lays it out"
    assert docstring_of(formatted) == wanted


def test_closing_quotes_move_to_their_own_line_when_the_last_line_is_full() -> None:
    text = "first\n\n" + "x" * 84
    literal = docstring_literal(text, 4)
    assert literal.endswith('\n    """')
    source = f"class X:\n    {literal}\n"
    assert black.format_str(source, mode=BLACK_MODE) == source
    assert inspect.cleandoc(ast.literal_eval(literal)) == text


@given(tricky)
@example("\u2028\x0c\r\n#")
def test_escaped_text_is_safe_in_a_comment(text: str) -> None:
    """The `# From:` header places file names with `escaped`: one comment line,
    whatever the name holds, reading back as the name's string-literal body."""
    line = f"# {escaped(text)}\nx = 1\n"
    assert len(line.splitlines()) == 2
    tree = ast.parse(line)
    assert [type(node) for node in tree.body] == [ast.Assign]
    assert ast.literal_eval(f'"{escaped(text)}"') == text


def test_a_compiled_function_must_be_one_function_of_the_given_name() -> None:
    name = identifier("_search_a_0")
    source = "def _search_a_0(value: Any) -> Any:\n    return value\n"
    assert compiled_function(source, name) == source
    for bad in (
        source + "import os\n",
        "import os\n" + source,
        source.replace("_search_a_0", "other"),
    ):
        with pytest.raises(ValueError, match="internal error"):
            compiled_function(bad, name)


def test_numbers_and_composed_code() -> None:
    assert number_literal(True) == "True" and number_literal(120) == "120"
    with pytest.raises(TypeError):
        number_literal("1")  # type: ignore[arg-type]
    joined = join(", ", [string_literal("a{}"), identifier("b")])
    assert joined == '"a{}", b' and type(joined) is Source


TEMPLATE_BITS = st.sampled_from(
    ["{}", "{}", "{{", "}}", "x", " ", "(", "[", "{0}", "%", "%s"]
)


@settings(max_examples=300)
@given(st.lists(TEMPLATE_BITS, max_size=12).map("".join), st.lists(tricky, max_size=8))
def test_compose_gives_the_text_str_format_gives(
    template: str, texts: list[str]
) -> None:
    """`compose` fills a `%s` form of the template (made once) instead of calling
    `str.format`, slow on `str` subclasses: the same text, and the same errors."""
    parts = [string_literal(text) for text in texts]
    try:
        expected = template.format(*parts)
    except (IndexError, ValueError) as exc:
        with pytest.raises(type(exc)):
            compose(template, *parts)
        return
    composed = compose(template, *parts)
    assert composed == expected and type(composed) is Source


def test_join_places_only_safe_parts_between_its_separator() -> None:
    parts = [string_literal("a{}"), identifier("b")]
    assert join(", {} ", parts) == '"a{}", {} b'
    assert join("", []) == ""
    with pytest.raises(TypeError, match="only Source or Identifier"):
        join(", ", ["raw"])  # type: ignore[list-item]

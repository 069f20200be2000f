"""Model text placed in code: literals and docstrings that hold only the text."""

from __future__ import annotations

import ast
import inspect

import black
from hypothesis import example, given, settings
from hypothesis import strategies as st

from waitable_codegen.docs import normalize
from waitable_codegen.literals import docstring_literal, string_literal
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

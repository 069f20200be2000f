"""The JSON limits of the loader without a pre-pass over the text: the nesting scan
that runs after a successful parse agrees with the exact depth on any JSON value
(brackets, quotes and backslashes inside strings included), and every way past
the limits ends in a ModelError naming the file."""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from waitable_codegen.model import ModelError, load_text
from waitable_codegen.model.json_text import (
    MAX_NESTING,
    nesting_depth,
    parse_json,
    valid_nesting_exceeds,
)

TRICKY_TEXT = st.text(
    alphabet=st.sampled_from(['"', "\\", "[", "]", "{", "}", "a", "\n", "\u2028", "é"]),
    max_size=12,
)
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | TRICKY_TEXT,
    lambda children: st.lists(children, max_size=3)
    | st.dictionaries(TRICKY_TEXT, children, max_size=3),
    max_leaves=30,
)


def depth_of(value: Any) -> int:
    """The nesting depth of arrays and objects in a decoded value (iterative)."""
    deepest = 0
    pending = [(value, 1)]
    while pending:
        item, level = pending.pop()
        if isinstance(item, (list, dict)):
            deepest = max(deepest, level)
            children = item.values() if isinstance(item, dict) else item
            pending.extend((child, level + 1) for child in children)
    return deepest


@settings(max_examples=400)
@given(JSON_VALUES, st.booleans(), st.integers(min_value=0, max_value=8))
def test_the_scan_after_parsing_agrees_with_the_exact_depth(
    value: Any, ascii_only: bool, limit: int
) -> None:
    text = json.dumps(value, ensure_ascii=ascii_only)
    depth = depth_of(value)
    assert nesting_depth(text) == depth
    assert valid_nesting_exceeds(text, limit) is (depth > limit)


@pytest.mark.parametrize("depth", [MAX_NESTING - 3, MAX_NESTING - 2])
def test_nesting_up_to_the_limit_is_read(depth: int) -> None:
    text = '{"smithy": "2.0", "metadata": {"x": ' + "[" * depth + "]" * depth + "}}"
    assert depth_of(parse_json(text, "m.json")) == depth + 2


@pytest.mark.parametrize("depth", [MAX_NESTING - 1, 500, 100_000])
def test_nesting_past_the_limit_is_a_clear_error_with_the_depth(depth: int) -> None:
    """Past the limit but within the recursion limit (parsed, then refused) and far
    past it (json's RecursionError): the same message with the exact depth."""
    text = '{"smithy": "2.0", "metadata": {"x": ' + "[" * depth + "]" * depth + "}}"
    with pytest.raises(ModelError, match=rf"m\.json: JSON nested {depth + 2} levels"):
        load_text(text, "m.json")


def test_brackets_in_strings_and_escapes_do_not_count() -> None:
    shallow = json.dumps({"smithy": "2.0", "metadata": {"x": '\\"[[[{{' * 300}})
    assert load_text(shallow, "m.json").metadata["x"] == '\\"[[[{{' * 300


def test_an_integer_past_pythons_digit_limit_names_its_digits() -> None:
    digits = sys.get_int_max_str_digits() + 7
    text = '{"smithy": "2.0", "metadata": {"x": [1, -' + "9" * digits + "]}}"
    with pytest.raises(ModelError, match=rf"m\.json: holds an integer of {digits} "):
        load_text(text, "m.json")


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_pythons_json_extensions_are_refused(constant: str) -> None:
    text = '{"smithy": "2.0", "metadata": {"x": [1, ' + constant + "]}}"
    with pytest.raises(ModelError, match=rf"m\.json: holds {constant}, which"):
        load_text(text, "m.json")


def test_the_words_in_strings_are_only_text() -> None:
    text = '{"smithy": "2.0", "metadata": {"x": ["NaN", "Infinity"]}}'
    assert load_text(text, "m.json").metadata["x"] == ["NaN", "Infinity"]

"""The JSON limits of the loader without a pre-pass over the text: the nesting scan
that runs after a successful parse, and the measure of decoded values that
generation applies to what it keeps, agree with the exact depth on any JSON value
(brackets, quotes and backslashes inside strings included), and every way past
the limits ends in a ModelError naming the file."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import waitable_codegen
from waitable_codegen.errors import GenerationError
from waitable_codegen.model import ModelError, load_text
from waitable_codegen.model.json_text import (
    MAX_NESTING,
    check_value_nesting,
    nesting_depth,
    parse_json,
    valid_nesting_exceeds,
    value_nesting_depth,
)

from .helpers import smithy_model, thing_shapes

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


@settings(max_examples=400)
@given(JSON_VALUES, st.integers(min_value=0, max_value=8))
def test_the_measure_of_decoded_values_agrees_with_the_exact_depth(
    value: Any, limit: int
) -> None:
    depth = depth_of(value)
    assert value_nesting_depth(value) == depth
    assert value_nesting_depth(value, limit) == min(depth, limit + 1)
    assert value_nesting_depth(json.loads(json.dumps(value))) == depth


def test_a_decoded_value_past_the_limit_is_refused_with_its_depth() -> None:
    value: Any = []
    for _ in range(MAX_NESTING - 1):
        value = [value, "x", {}]
    check_value_nesting({"x": value[0]}, "m.json")  # MAX_NESTING levels in all
    with pytest.raises(ModelError, match=rf"m\.json: JSON nested {MAX_NESTING + 1} "):
        check_value_nesting({"x": value}, "m.json")


def nested_model(where: str, depth: int) -> str:
    """A model with one waiter whose `where` (a trait of the operation with the
    waiter, metadata, or a shape nothing reaches) holds arrays nested `depth`
    deep; `depth` plus the levels around it is the document's depth."""
    shapes = thing_shapes()
    deep = "[" * depth + "]" * depth
    if where == "kept trait":
        traits = shapes["smithy.example#GetThing"]["traits"]
        traits["smithy.example#deep"] = "DEEP"  # doc, shapes, body, traits: 4
    elif where == "unreachable shape":
        shapes["smithy.example#Unused"] = {"type": "string", "x": "DEEP"}  # 3
    document: dict[str, Any] = smithy_model(shapes)
    if where == "metadata":
        document["metadata"] = {"x": "DEEP"}  # doc, metadata: 2
    return json.dumps(document).replace('"DEEP"', deep)


@pytest.mark.parametrize(("where", "around"), [("kept trait", 4), ("metadata", 2)])
@pytest.mark.parametrize("total", [MAX_NESTING + 1, 500, 100_000])
def test_generation_refuses_what_it_keeps_nested_past_the_limit(
    tmp_path: Path, where: str, around: int, total: int
) -> None:
    """Generation measures only the shapes it keeps (and the metadata), with the
    message of the whole-document scan, at depths json parses and beyond."""
    path = tmp_path / "m.json"
    path.write_text(nested_model(where, total - around))
    with pytest.raises(ModelError, match=rf"m\.json: JSON nested {total} levels"):
        load_text(path.read_text(), str(path))
    with pytest.raises(GenerationError) as refused:
        waitable_codegen.generate(path, tmp_path / "out")
    assert str(refused.value).endswith(
        f"m.json: JSON nested {total} levels deep (the limit is "
        f"{MAX_NESTING}); a Smithy model is never this deep: check the file"
    )
    assert not (tmp_path / "out").exists()


def test_generation_reads_what_it_keeps_up_to_the_limit(tmp_path: Path) -> None:
    path = tmp_path / "m.json"
    path.write_text(nested_model("kept trait", MAX_NESTING - 4))
    assert waitable_codegen.generate(path, tmp_path / "out").waiters == 1


def test_a_shape_generation_leaves_out_is_not_measured(tmp_path: Path) -> None:
    """Nesting past the limit (but within what json parses) in a shape no waiter
    or service reaches: the loader refuses the document, generation never reads
    the shape, as it never reads anything else in it."""
    path = tmp_path / "m.json"
    path.write_text(nested_model("unreachable shape", MAX_NESTING + 50))
    with pytest.raises(ModelError, match=r"JSON nested 253 levels deep"):
        load_text(path.read_text(), str(path))
    assert waitable_codegen.generate(path, tmp_path / "out").waiters == 1


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

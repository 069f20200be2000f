"""The nesting scan that runs after a successful parse (`valid_nesting_exceeds`)
agrees with the exact depth however the JSON text is laid out: compact or
indented, strings side by side, escapes written as `\\uXXXX`."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from waitable_codegen.model.json_text import valid_nesting_exceeds

from .test_json_limits import depth_of

TRICKY_TEXT = st.text(
    alphabet=st.sampled_from(['"', "\\", "[", "]", "{", "}", "a", "\n", "é"]),
    max_size=8,
)
JSON_VALUES = st.recursive(
    st.none() | st.integers() | TRICKY_TEXT,
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(TRICKY_TEXT, children, max_size=4),
    max_leaves=40,
)
LAYOUTS = st.sampled_from(
    [
        {"separators": (",", ":")},
        {"separators": (", ", ": ")},
        {"indent": 1},
        {"indent": "\t", "separators": (" ,", " :")},
    ]
)


def unicode_escaped(text: str) -> str:
    """`text` with every backslash escape of a quote or a backslash written as
    `\\u0022` / `\\u005c` (still the same JSON value)."""
    out: list[str] = []
    index = 0
    while index < len(text):
        if text[index] == "\\" and text[index + 1] in '"\\':
            out.append("\\u0022" if text[index + 1] == '"' else "\\u005c")
            index += 2
        else:
            out.append(text[index])
            index += 1
    return "".join(out)


@settings(max_examples=400)
@given(JSON_VALUES, LAYOUTS, st.booleans(), st.integers(min_value=0, max_value=8))
def test_the_scan_agrees_with_the_exact_depth_in_any_layout(
    value: Any, layout: dict[str, Any], unicode_escapes: bool, limit: int
) -> None:
    text = json.dumps(value, ensure_ascii=False, **layout)
    if unicode_escapes:
        text = unicode_escaped(text)
    assert json.loads(text) == value
    assert valid_nesting_exceeds(text, limit) is (depth_of(value) > limit)


def test_strings_side_by_side_hide_no_brackets() -> None:
    """Adjacent strings (a key and its value with nothing between the quotes but
    `:`) do not pair up a closing quote with the next opening one."""
    text = '{"a":"]","b":"[","c":[[["x","{"]]]}'
    assert valid_nesting_exceeds(text, 3) is True
    assert valid_nesting_exceeds(text, 4) is False

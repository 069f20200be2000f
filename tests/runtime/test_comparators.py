"""The four comparators, with the spec's exact semantics and no type coercion."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from waitable import Comparator
from waitable.comparators import compare

S, B, ALL, ANY = (
    Comparator.STRING_EQUALS,
    Comparator.BOOLEAN_EQUALS,
    Comparator.ALL_STRING_EQUALS,
    Comparator.ANY_STRING_EQUALS,
)

TABLE = [
    (S, "running", "running", True),
    (S, "Running", "running", False),
    (S, ["running"], "running", False),
    (S, None, "running", False),
    (S, 1, "1", False),
    (B, True, "true", True),
    (B, False, "false", True),
    (B, False, "true", False),
    (B, "true", "true", False),
    (B, 1, "true", False),
    (B, 0, "false", False),
    (B, None, "false", False),
    (ALL, ["a", "a"], "a", True),
    (ALL, ["a"], "a", True),
    (ALL, [], "a", False),  # needs at least one element
    (ALL, ["a", "b"], "a", False),
    (ALL, ["a", None], "a", False),
    (ALL, "a", "a", False),
    (ALL, None, "a", False),
    (ANY, ["b", "a"], "a", True),
    (ANY, [], "a", False),
    (ANY, ["b"], "a", False),
    (ANY, [1, "a"], "a", True),
    (ANY, ["A"], "a", False),
    (ANY, "a", "a", False),
    (ANY, {"a": "a"}, "a", False),
]


@pytest.mark.parametrize(("comparator", "value", "expected", "matches"), TABLE)
def test_comparator_table(
    comparator: Comparator, value: Any, expected: str, matches: bool
) -> None:
    assert compare(comparator, value, expected) is matches


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False)
    | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=10,
)


@given(
    items=st.lists(json_values, max_size=6), expected=st.sampled_from(["a", "b", ""])
)
def test_all_and_any_over_arrays(items: list[Any], expected: str) -> None:
    equal = [isinstance(item, str) and item == expected for item in items]
    assert compare(ALL, items, expected) is (bool(items) and all(equal))
    assert compare(ANY, items, expected) is any(equal)
    if compare(ALL, items, expected):
        assert compare(ANY, items, expected)


@given(value=json_values, expected=st.text(max_size=4))
def test_string_equals_only_matches_the_same_string(value: Any, expected: str) -> None:
    assert compare(S, value, expected) is (isinstance(value, str) and value == expected)


@given(value=json_values)
def test_boolean_equals_only_matches_booleans(value: Any) -> None:
    assert compare(B, value, "true") is (value is True)
    assert compare(B, value, "false") is (value is False)


class ClaimsEquality:
    """Not a string, but says it equals anything (`list.count`/`in` would believe it)."""

    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = object.__hash__


class RefusesComparison:
    """Not a string, and comparing it raises (as a numpy array's truth value does)."""

    def __eq__(self, other: object) -> bool:
        raise ValueError("ambiguous")

    __hash__ = object.__hash__


@given(
    items=st.lists(
        json_values
        | st.builds(ClaimsEquality)
        | st.builds(RefusesComparison)
        | st.sampled_from(["a", "b"]),
        max_size=6,
    ),
    expected=st.sampled_from(["a", "b"]),
)
def test_only_real_strings_count_in_arrays(items: list[Any], expected: str) -> None:
    """The built-in fast paths never let a non-string item match, nor raise."""
    equal = [isinstance(item, str) and item == expected for item in items]
    assert compare(ALL, items, expected) is (bool(items) and all(equal))
    assert compare(ANY, items, expected) is any(equal)


def test_unknown_comparators_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown comparator 'stringIs'"):
        compare("stringIs", "a", "a")

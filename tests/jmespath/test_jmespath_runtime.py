"""The runtime helpers: JMESPath's truthiness, equality, ordering, functions."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from jmespath_cases import same_json

from waitable import jmespath_runtime as jp
from waitable.jmespath_runtime import JMESPathEvaluationError

# Values biased towards the cases where Python and JMESPath part ways:
# 0/1 against false/true, 1 against 1.0, empty containers.
scalars = (
    st.none()
    | st.booleans()
    | st.sampled_from([0, 1, -1, 2, 0.0, 1.0, 1.5, -0.5])
    | st.sampled_from(["", "a", "b", "0", "1", "true"])
)
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.sampled_from(["a", "b", "c"]), inner, max_size=3),
    max_leaves=10,
)
numbers = st.integers(-10, 10) | st.floats(-10, 10, allow_nan=False)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (None, False),
        (False, False),
        ("", False),
        ([], False),
        ({}, False),
        (True, True),
        (0, True),
        (0.0, True),
        (-1, True),
        ("0", True),
        (" ", True),
        ([0], True),
        ([None], True),
        ({"a": None}, True),
    ],
)
def test_truthiness_is_jmespaths(value: Any, expected: bool) -> None:
    assert jp.truthy(value) is expected


@given(json_values, json_values)
def test_equality_is_typed_deep_json_equality(left: Any, right: Any) -> None:
    assert jp.equal(left, right) is same_json(left, right)
    assert jp.equal(left, right) is jp.equal(right, left)


@given(json_values)
def test_equality_is_reflexive(value: Any) -> None:
    assert jp.equal(value, value)
    assert jp.equal(value, json.loads(json.dumps(value)))


@pytest.mark.parametrize(
    ("left", "right"),
    [
        (1, True),
        (0, False),
        ([1], [True]),
        ({"a": 0}, {"a": False}),
        ("1", 1),
        (None, []),
    ],
)
def test_values_python_calls_equal_are_not(left: Any, right: Any) -> None:
    assert not jp.equal(left, right)


@given(numbers, numbers)
def test_ordering_on_numbers_is_pythons(left: float, right: float) -> None:
    assert jp.lt(left, right) is (left < right)
    assert jp.le(left, right) is (left <= right)
    assert jp.gt(left, right) is (left > right)
    assert jp.ge(left, right) is (left >= right)


@given(json_values, json_values)
def test_ordering_anything_but_two_numbers_is_null(left: Any, right: Any) -> None:
    def number(value: Any) -> bool:
        return isinstance(value, (int, float)) and not isinstance(value, bool)

    if number(left) and number(right):
        return
    for compare in (jp.lt, jp.le, jp.gt, jp.ge):
        assert compare(left, right) is None


def test_strings_are_not_ordered() -> None:
    assert jp.lt("a", "b") is None
    assert jp.gt(True, False) is None


@given(st.lists(json_values, max_size=5))
def test_flatten_splices_one_level(array: list[Any]) -> None:
    flat = jp.flatten(array)
    assert len(flat) == sum(len(e) if isinstance(e, list) else 1 for e in array)
    assert jp.flatten([array]) == array


# --- argument types, as the specification's signatures state them ------------


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _all(test: Any) -> Any:
    return lambda value: isinstance(value, list) and all(test(e) for e in value)


def _string(value: Any) -> bool:
    return isinstance(value, str)


ACCEPTS = {
    "abs": _number,
    "avg": _all(_number),
    "ceil": _number,
    "floor": _number,
    "keys": lambda value: isinstance(value, dict),
    "values": lambda value: isinstance(value, dict),
    "length": lambda value: isinstance(value, (str, list, dict)),
    "max": lambda value: _all(_number)(value) or _all(_string)(value),
    "min": lambda value: _all(_number)(value) or _all(_string)(value),
    "sort": lambda value: _all(_number)(value) or _all(_string)(value),
    "sum": _all(_number),
    "reverse": lambda value: isinstance(value, (str, list)),
    "merge": lambda value: isinstance(value, dict),
    "to_array": lambda value: True,
    "to_number": lambda value: True,
    "to_string": lambda value: True,
    "type": lambda value: True,
    "not_null": lambda value: True,
}
one_argument_values = (
    json_values
    | st.lists(numbers, max_size=3)
    | st.lists(st.sampled_from(["a", "b", "c"]), max_size=3)
)


@pytest.mark.parametrize("name", sorted(ACCEPTS))
@given(value=one_argument_values)
def test_one_argument_functions_check_their_argument_type(
    name: str, value: Any
) -> None:
    function = jp.FUNCTIONS[name]
    if ACCEPTS[name](value):
        function(value)
        return
    with pytest.raises(JMESPathEvaluationError) as caught:
        function(value)
    assert caught.value.kind == "invalid-type"
    assert f"{name}() argument 1" in str(caught.value)


@given(json_values, json_values)
def test_two_argument_string_functions(subject: Any, other: Any) -> None:
    for name in ("starts_with", "ends_with"):
        if isinstance(subject, str) and isinstance(other, str):
            assert isinstance(jp.FUNCTIONS[name](subject, other), bool)
        else:
            with pytest.raises(JMESPathEvaluationError, match=f"{name}\\(\\)"):
                jp.FUNCTIONS[name](subject, other)


@given(json_values, json_values)
def test_contains_uses_jmespath_equality(subject: Any, search: Any) -> None:
    if isinstance(subject, list):
        expected = any(same_json(element, search) for element in subject)
        assert jp.fn_contains(subject, search) is expected
    elif isinstance(subject, str):
        expected = isinstance(search, str) and search in subject
        assert jp.fn_contains(subject, search) is expected
    else:
        with pytest.raises(JMESPathEvaluationError, match="contains"):
            jp.fn_contains(subject, search)


@given(json_values, json_values)
def test_join_wants_a_string_and_an_array_of_strings(glue: Any, values: Any) -> None:
    if isinstance(glue, str) and _all(_string)(values):
        assert jp.fn_join(glue, values) == glue.join(values)
    else:
        with pytest.raises(JMESPathEvaluationError, match="join"):
            jp.fn_join(glue, values)


def key_a(element: Any) -> Any:
    """An expression reference: the member ``a``."""
    return element.get("a") if isinstance(element, dict) else None


@given(st.lists(st.fixed_dictionaries({"a": st.integers(0, 3), "n": st.integers()})))
def test_sort_by_is_stable(array: list[dict[str, int]]) -> None:
    result = jp.fn_sort_by(array, key_a)
    assert result == sorted(array, key=lambda element: element["a"])
    assert [e["a"] for e in result] == sorted(e["a"] for e in array)


@given(st.lists(st.fixed_dictionaries({"a": st.integers(0, 3) | st.text(max_size=2)})))
def test_by_functions_want_keys_of_one_type(array: list[dict[str, Any]]) -> None:
    one_type = all(isinstance(e["a"], int) for e in array) or all(
        isinstance(e["a"], str) for e in array
    )
    for name in ("sort_by", "min_by", "max_by"):
        if one_type:
            jp.FUNCTIONS[name](array, key_a)
        else:
            with pytest.raises(JMESPathEvaluationError, match=name):
                jp.FUNCTIONS[name](array, key_a)


def test_functions_that_take_an_expression_reject_a_value() -> None:
    for name in ("sort_by", "min_by", "max_by"):
        with pytest.raises(JMESPathEvaluationError, match="expression reference"):
            jp.FUNCTIONS[name]([{"a": 1}], "a")
    with pytest.raises(JMESPathEvaluationError, match="expression reference"):
        jp.fn_map([1], [1])
    assert jp.fn_map(key_a, [{"a": 1}, 2]) == [1, None]
    assert jp.fn_type(key_a) == "expref"


@given(st.integers() | st.floats(allow_nan=False, allow_infinity=False))
def test_to_number_reads_json_numbers(number: float) -> None:
    assert jp.fn_to_number(json.dumps(number)) == number
    assert jp.fn_to_number(number) == number


@pytest.mark.parametrize(
    "text",
    [
        "",
        " 1",
        "1 ",
        "+1",
        ".5",
        "1.",
        "1_000",
        "0x10",
        "inf",
        "NaN",
        "01",
        "1e",
        "--1",
    ],
)
def test_to_number_rejects_what_is_not_a_json_number(text: str) -> None:
    assert jp.fn_to_number(text) is None


@given(json_values)
def test_to_string_is_compact_json(value: Any) -> None:
    text = jp.fn_to_string(value)
    if isinstance(value, str):
        assert text == value
    else:
        assert same_json(json.loads(text), value)
        assert "\n" not in text and ", " not in text


def test_values_that_are_not_json_are_reported() -> None:
    with pytest.raises(JMESPathEvaluationError, match="Python type object") as caught:
        jp.fn_type(object())
    assert caught.value.kind == "invalid-type"
    with pytest.raises(JMESPathEvaluationError, match="to_string"):
        jp.fn_to_string({"a": object()})


def test_ceil_and_floor_give_integers() -> None:
    assert jp.fn_ceil(1.2) == 2 and isinstance(jp.fn_ceil(1.2), int)
    assert jp.fn_floor(-1.2) == -2
    assert math.isinf(jp.fn_ceil(math.inf))


def test_empty_arrays() -> None:
    assert jp.fn_avg([]) is None
    assert jp.fn_max([]) is None
    assert jp.fn_min([]) is None
    assert jp.fn_sum([]) == 0
    assert jp.fn_max_by([], key_a) is None
    assert jp.fn_sort([]) == []


def test_every_builtin_has_an_implementation() -> None:
    from waitable_codegen.jmespath.functions import SIGNATURES

    assert set(jp.FUNCTIONS) == set(SIGNATURES)
    for name, function in jp.FUNCTIONS.items():
        assert getattr(jp, f"fn_{name}") is function

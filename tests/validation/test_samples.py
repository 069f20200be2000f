"""The sample value built for each kind of shape (Smithy's sample generator)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from waitable_codegen.validation.jmespath_values import ANY
from waitable_codegen.validation.samples import SampleBuilder, operation_sample

from .builders import NS, model, ref, structure


def sample(shapes: dict[str, Any], root: str = "Root") -> Any:
    return SampleBuilder(model(shapes)).shape(f"{NS}#{root}")


@pytest.mark.parametrize(
    ("shape", "expected"),
    [
        ({"type": "integer"}, 8.0),
        ({"type": "bigDecimal"}, 8.0),
        ({"type": "intEnum", "members": {}}, 8.0),
        ({"type": "string"}, "aa"),
        ({"type": "enum", "members": {"A": {"target": "smithy.api#Unit"}}}, "aa"),
        ({"type": "boolean"}, True),
        ({"type": "blob"}, "blob"),
        ({"type": "timestamp"}, 0),
        ({"type": "document"}, ANY),
    ],
)
def test_simple_shapes(shape: dict[str, Any], expected: Any) -> None:
    value = sample({"Root": shape})
    assert value is expected if expected is ANY else value == expected
    assert type(value) is type(expected)


_bound = st.none() | st.integers(0, 20)


@settings(deadline=None)  # each example loads a model
@given(_bound, _bound)
def test_numbers_are_8_raised_to_min_then_lowered_to_max(
    low: int | None, high: int | None
) -> None:
    bounds = {k: v for k, v in (("min", low), ("max", high)) if v is not None}
    shape = {"type": "long", "traits": {"smithy.api#range": bounds}}
    expected = 8.0 if low is None else max(8.0, low)
    expected = expected if high is None else min(expected, high)
    assert sample({"Root": shape}) == expected


@settings(deadline=None)  # each example loads a model
@given(_bound, _bound)
def test_lengths_are_2_raised_to_min_then_lowered_to_max(
    low: int | None, high: int | None
) -> None:
    bounds = {k: v for k, v in (("min", low), ("max", high)) if v is not None}
    expected = 2 if low is None else max(2, low)
    expected = expected if high is None else min(expected, high)
    string = {"type": "string", "traits": {"smithy.api#length": bounds}}
    assert sample({"Root": string}) == "a" * expected
    listing = {"type": "list", "member": ref("smithy.api#Boolean")}
    listing["traits"] = {"smithy.api#length": bounds}
    assert sample({"Root": listing}) == [True] * expected


def test_a_member_trait_does_not_change_the_sample() -> None:
    shapes = {
        "Root": {
            "type": "structure",
            "members": {
                "s": {
                    "target": "smithy.api#String",
                    "traits": {"smithy.api#length": {"min": 5}},
                }
            },
        }
    }
    assert sample(shapes) == {"s": "aa"}


def test_maps_have_keys_in_java_hash_map_order() -> None:
    shapes = {
        "Root": {
            "type": "map",
            "key": ref("smithy.api#String"),
            "value": ref("smithy.api#Integer"),
        }
    }
    value = sample(shapes)
    assert value == {"aa0": 8.0, "aa1": 8.0}
    assert list(value) == ["aa1", "aa0"]


def test_structures_and_unions_hold_every_member_in_order() -> None:
    shapes = {
        "Root": structure({"z": "U", "a": "smithy.api#String", "m": "smithy.api#Unit"}),
        "U": {
            "type": "union",
            "members": {"x": ref("smithy.api#Boolean"), "y": ref("smithy.api#Blob")},
        },
    }
    value = sample(shapes)
    assert value == {"z": {"x": True, "y": "blob"}, "a": "aa", "m": {}}
    assert list(value) == ["z", "a", "m"]


def test_recursion_is_cut_at_a_member_already_on_the_way() -> None:
    shapes = {"Root": structure({"next": "Root", "value": "smithy.api#String"})}
    assert sample(shapes) == {"next": {"next": ANY, "value": "aa"}, "value": "aa"}


def test_an_earlier_sibling_of_an_ancestor_is_cut_too() -> None:
    # Smithy's rule, kept: after `a` was visited, `b`'s subtree sees `Root$a` taken.
    shapes = {"Root": structure({"a": "Root", "b": "Root"})}
    assert sample(shapes) == {
        "a": {"a": ANY, "b": {"a": ANY, "b": ANY}},
        "b": {"a": ANY, "b": ANY},
    }


def test_a_shape_reused_in_two_places_is_not_taken_for_recursion() -> None:
    shapes = {
        "Root": structure({"first": "Pair", "second": "Pair"}),
        "Pair": structure({"left": "smithy.api#String"}),
    }
    assert sample(shapes) == {"first": {"left": "aa"}, "second": {"left": "aa"}}


def test_a_missing_shape_is_any() -> None:
    assert SampleBuilder(model({})).shape(f"{NS}#Nope") is ANY


def test_an_operation_without_output_samples_as_an_empty_object() -> None:
    loaded = model(
        {
            "Op": {"type": "operation", "input": ref("In")},
            "In": structure({"name": "smithy.api#String"}),
        }
    )
    operation = loaded[f"{NS}#Op"]
    assert operation_sample(loaded, operation, "output") == {}
    assert operation_sample(loaded, operation, "input") == {"name": "aa"}

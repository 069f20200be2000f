"""Sample-value helpers: JMESPath types and truthiness (the runtime's, with the
validator's sentinels), and Java's HashMap order."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from waitable_codegen.validation.jmespath_values import (
    ANY,
    EXPREF,
    from_literal,
    is_truthy,
    java_hash_order,
    java_string_hash,
    same_value,
    type_name,
)


def test_type_names() -> None:
    values: tuple[Any, ...] = ("", 0, 1.5, True, None, [], {}, ANY, EXPREF)
    assert [type_name(v) for v in values] == [
        "string",
        "number",
        "number",
        "boolean",
        "null",
        "array",
        "object",
        "any",
        "expression",
    ]


def test_truthiness() -> None:
    falsy: tuple[Any, ...] = (False, None, "", [], {})
    truthy: tuple[Any, ...] = (0, 0.0, "a", [0], {"a": 0}, True, ANY, EXPREF)
    assert [is_truthy(v) for v in falsy] == [False] * 5
    assert [is_truthy(v) for v in truthy] == [True] * 8


def test_equality_keeps_booleans_and_numbers_apart() -> None:
    assert not same_value(True, 1) and not same_value([0], [False])
    assert same_value(8, 8.0)
    assert same_value({"a": [1, {"b": None}]}, {"a": [1, {"b": None}]})
    assert not same_value({"a": 1}, {"a": 1, "b": 2})
    assert same_value(ANY, ANY) and not same_value(ANY, EXPREF)


samples = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-2, 2)
    | st.floats(-2, 2, allow_nan=False)
    | st.text("ab", max_size=2)
    | st.sampled_from([ANY, EXPREF]),
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.text("ab", max_size=2), inner, max_size=3),
    max_leaves=10,
)


@given(samples, samples)
def test_equality_holds_with_sentinels_anywhere_in_a_sample(
    left: Any, right: Any
) -> None:
    """The runtime's equality, given samples: reflexive, symmetric, and a sentinel
    equal only to itself, however deep it sits."""
    assert same_value(left, left)
    assert same_value(left, right) == same_value(right, left)
    assert not same_value([left, ANY], [left, EXPREF])


def test_java_string_hashes() -> None:
    assert java_string_hash("") == 0
    assert java_string_hash("hello") == 99162322
    assert java_string_hash("Aa") == java_string_hash("BB") == 2112
    assert java_string_hash("polygenelubricants") == 2**31  # Integer.MIN_VALUE
    assert java_string_hash("\U0001f600") == (0xD83D * 31 + 0xDE00)  # UTF-16 units


def test_a_default_map_sample_iterates_aa1_first() -> None:
    assert java_hash_order(["aa0", "aa1"]) == ["aa1", "aa0"]


def test_colliding_keys_keep_insertion_order() -> None:
    assert java_hash_order(["Aa", "BB"]) == ["Aa", "BB"]
    assert java_hash_order(["BB", "Aa"]) == ["BB", "Aa"]


def simulated_hash_map(keys: list[str]) -> list[str]:
    """A literal Java 8 HashMap: put one key at a time, resize past 3/4 full by
    splitting each bucket into its low and high halves, in order."""
    table: list[list[str]] = [[] for _ in range(16)]
    size = 0

    def bucket(key: str, capacity: int) -> int:
        h = java_string_hash(key)
        return (h ^ (h >> 16)) & (capacity - 1)

    for key in keys:
        chain = table[bucket(key, len(table))]
        if key in chain:
            continue
        chain.append(key)
        size += 1
        if size > len(table) * 3 // 4:
            old, capacity = table, len(table) * 2
            table = [[] for _ in range(capacity)]
            for index, entries in enumerate(old):
                for entry in entries:
                    high = java_string_hash(entry) ^ (java_string_hash(entry) >> 16)
                    table[index + (len(old) if high & len(old) else 0)].append(entry)
    return [key for chain in table for key in chain]


@given(st.lists(st.text(max_size=4), max_size=60))
def test_hash_order_is_what_a_java_hash_map_iterates(keys: list[str]) -> None:
    assert java_hash_order(keys) == simulated_hash_map(keys)


def test_object_literals_become_hash_maps_at_every_depth() -> None:
    literal = {"b": 1, "a": {"aa0": 1, "aa1": 2}, "c": [{"b": 0, "a": 0}]}
    converted = from_literal(literal)
    assert list(converted) == ["a", "b", "c"]
    assert list(converted["a"]) == ["aa1", "aa0"]
    assert list(converted["c"][0]) == ["a", "b"]

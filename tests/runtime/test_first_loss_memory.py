"""`jsondata.first_loss` (run on every saved wait's input and outputs) spells a
path only where it finds something: spelling each child's path up front cost the
length of a long key for every item under it, so a 1 MB record asked for ~20 GB."""

from __future__ import annotations

import datetime
import tracemalloc
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from waitable.jsondata import first_loss


def test_a_long_key_above_a_long_list_costs_no_memory_per_item() -> None:
    value = {"name": "x", "k" * 1_000_000: [0] * 20_000}
    tracemalloc.start()
    try:
        assert first_loss(value, "input") is None
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 20_000_000  # the path texts alone were 20 GB


def test_a_place_is_still_named_with_its_whole_path() -> None:
    value = {"a": [1, {"b": datetime.date(2026, 1, 1)}]}
    assert first_loss(value, "input") == "input['a'][1]['b'] is a date"
    assert (
        first_loss([0, float("nan")], "output")
        == "output[1] is nan, which JSON does not hold"
    )
    assert first_loss({"a": {1: 2}}, "input") == "input['a'] has the key 1, not text"


def test_a_long_key_is_cut_in_the_message() -> None:
    found = first_loss({"k" * 10_000: object()}, "input")
    assert found == f"input[{'k' * 60!r}...] is a object"


@given(
    st.recursive(
        st.none() | st.booleans() | st.integers(-(2**60), 2**60) | st.text(),
        lambda inner: st.lists(inner, max_size=4)
        | st.dictionaries(st.text("abc[]'", max_size=5), inner, max_size=4),
        max_leaves=15,
    ),
    st.data(),
)
def test_the_path_named_leads_to_what_was_found(
    value: Any, data: st.DataObject
) -> None:
    """Plant a set somewhere in JSON data: the path named is the way to it."""
    holder: Any = {"root": value}
    parent, key, path = holder, "root", ""
    while (
        isinstance(parent[key], (list, dict))
        and parent[key]
        and data.draw(st.booleans())
    ):
        parent = parent[key]
        keys = list(range(len(parent))) if isinstance(parent, list) else list(parent)
        key = data.draw(st.sampled_from(keys))
        path += f"[{key!r}]"
    parent[key] = {1.5j}
    assert first_loss(holder["root"], "input") == f"input{path} is a set"

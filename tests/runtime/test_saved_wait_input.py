"""A saved wait's input comes back from JSON as it is, or the record is not made:
a wait resumed from JSON calls the client with what JSON gives back, and bytes
came back as base64 text, datetimes as ISO text, NaN as "nan", a too-deep input
as its truncated repr, each silently."""

from __future__ import annotations

import datetime
import math
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from waitable import SavedWait, WaiterConfigurationError
from waitable.testing import VirtualClock

from .harness import THING_EXISTS, Script, waiter_class

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20,
)


def started(input: Any) -> tuple[Any, SavedWait]:
    clock = VirtualClock(wall_start=1000)
    waiter = waiter_class(THING_EXISTS)(
        Script(clock, [{"status": "pending"}]), clock=clock
    )
    return waiter, waiter.start(input, max_wait_time=60)


@given(JSON)
def test_json_input_comes_back_as_it_is(input: Any) -> None:
    _, saved = started({"Name": input})
    assert SavedWait.from_json(saved.to_json()).input == {"Name": input}


@pytest.mark.parametrize(
    ("value", "said"),
    [
        (b"\x00key", "input['Key'] is a bytes"),
        (datetime.datetime(2026, 11, 27), "input['Key'] is a datetime"),
        (Decimal("1.5"), "input['Key'] is a Decimal"),
        (float("nan"), "input['Key'] is nan"),
        ({1: "x"}, "input['Key'] has the key 1, not text"),
        ({"x", "y"}, "input['Key'] is a set"),
        (2**1001, "input['Key'] is an integer too long"),
    ],
)
def test_input_that_json_would_change_is_refused_when_saved(
    value: Any, said: str
) -> None:
    waiter, saved = started({"Key": value})
    with pytest.raises(WaiterConfigurationError) as refused:
        saved.to_json()
    message = str(refused.value)
    assert said in message and "ISO 8601" in message
    assert "ThingExists" in message
    # Polled in this process without saving, the input is the caller's own.
    assert not waiter.poll_once(saved).done


def test_a_tuple_comes_back_as_a_list() -> None:
    _, saved = started({"Ids": ("a", "b")})
    assert SavedWait.from_json(saved.to_json()).input == {"Ids": ["a", "b"]}


def test_too_deep_an_input_is_refused() -> None:
    deep: Any = "leaf"
    for _ in range(300):
        deep = [deep]
    _, saved = started({"Deep": deep})
    with pytest.raises(WaiterConfigurationError, match="nests deeper"):
        saved.to_json()
    assert math.isfinite(saved.deadline)

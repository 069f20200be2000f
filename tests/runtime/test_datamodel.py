"""Outputs and inputs in the spec's JMESPath data model, and matching on them."""

from __future__ import annotations

import base64
import datetime
import enum
import json
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from waitable import (
    Acceptor,
    AcceptorState,
    Comparator,
    OutputMatcher,
    WaiterDefinition,
)
from waitable.datamodel import output_to_jmespath, to_jmespath

from .harness import SUCCESS, run_sync


class Colour(str, enum.Enum):
    RED = "red"


@dataclass
class Instance:
    instance_id: str
    launched: datetime.datetime
    tags: tuple[str, ...] = ()
    data: bytes = b""
    extra: dict[str, Any] = field(default_factory=dict)


def test_smithy_types_become_jmespath_types() -> None:
    launched = datetime.datetime(
        2024, 1, 2, 3, 4, 5, 500000, tzinfo=datetime.timezone.utc
    )
    value = {
        "when": launched,
        "naive": datetime.datetime(1970, 1, 1, 0, 1),
        "blob": b"\x00\xffhi",
        "buffer": bytearray(b"ab"),
        "big": Decimal("12.5"),
        "items": ("a", "b"),
        "set": frozenset({"x"}),
        "colour": Colour.RED,
        "nested": Instance("i-1", launched, ("t",), b"z", {"k": [Decimal(1)]}),
        "plain": [1, 2.5, True, None, "s"],
    }
    assert to_jmespath(value) == {
        "when": launched.timestamp(),
        "naive": 60.0,
        "blob": base64.b64encode(b"\x00\xffhi").decode(),
        "buffer": "YWI=",
        "big": 12.5,
        "items": ["a", "b"],
        "set": ["x"],
        "colour": "red",
        "nested": {
            "instance_id": "i-1",
            "launched": 1704164645.5,
            "tags": ["t"],
            "data": "eg==",
            "extra": {"k": [1.0]},
        },
        "plain": [1, 2.5, True, None, "s"],
    }
    assert to_jmespath(value)["plain"][2] is True  # booleans stay booleans


def test_response_metadata_is_dropped_and_the_input_is_left_alone() -> None:
    output = {"ResponseMetadata": {"HTTPStatusCode": 200}, "Status": "ok"}
    assert output_to_jmespath(output) == {"Status": "ok"}
    assert output == {"ResponseMetadata": {"HTTPStatusCode": 200}, "Status": "ok"}
    assert to_jmespath({"ResponseMetadata": 1}) == {
        "ResponseMetadata": 1
    }  # only at the top of an output


json_like = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False)
    | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(max_size=4), inner, max_size=4),
    max_leaves=20,
)


@given(json_like)
def test_json_data_is_unchanged(value: Any) -> None:
    assert to_jmespath(value) is value  # nothing to convert: no copy either


def _json_default(value: Any) -> Any:
    """How json.dumps should see the non-JSON types (an oracle independent of ours)."""
    if isinstance(value, datetime.datetime):
        return value.timestamp()
    if isinstance(value, bytes):
        return base64.b64encode(value).decode()
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, frozenset):
        return list(value)
    if isinstance(value, Instance):
        return {f: getattr(value, f) for f in Instance.__dataclass_fields__}
    raise TypeError(value)


smithy_like = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=3)
    | st.sampled_from([Colour.RED, Decimal("2.5"), b"\x00a"])
    | st.datetimes(timezones=st.just(datetime.timezone.utc)),
    lambda inner: st.lists(inner, max_size=3)
    | st.lists(inner, max_size=3).map(tuple)
    | st.frozensets(st.text(max_size=2), max_size=2)
    | st.dictionaries(st.text(max_size=2) | st.integers(0, 3), inner, max_size=3)
    | st.builds(
        Instance,
        st.text(max_size=2),
        st.datetimes(timezones=st.just(datetime.timezone.utc)),
        data=st.binary(max_size=3),
    ),
    max_leaves=12,
)


@given(smithy_like)
def test_conversion_agrees_with_a_json_round_trip_and_changes_nothing_in_place(
    value: Any,
) -> None:
    before = repr(value)
    expected = json.loads(json.dumps(value, default=_json_default))
    converted = to_jmespath(value)
    assert converted == expected
    assert json.dumps(converted) == json.dumps(expected)  # same key order too
    assert repr(value) == before


def test_a_later_key_wins_when_two_keys_read_the_same() -> None:
    assert to_jmespath({"1": "a", 1: "b"}) == {"1": "b"}
    assert to_jmespath({1: "b", "1": "a"}) == {"1": "a"}


def test_only_the_containers_above_a_converted_value_are_copied() -> None:
    when = datetime.datetime(2025, 1, 1, tzinfo=datetime.timezone.utc)
    untouched = {"Name": "x", "Tags": ["a"]}
    value: dict[str, Any] = {"A": untouched, "B": [{"When": when}], "C": [1, 2]}
    converted = to_jmespath(value)
    assert converted == {"A": untouched, "B": [{"When": when.timestamp()}], "C": [1, 2]}
    assert converted["A"] is untouched and converted["C"] is value["C"]
    assert value["B"][0]["When"] is when


def test_waiters_match_timestamps_as_epoch_seconds_and_blobs_as_base64() -> None:
    definition = WaiterDefinition(
        "Ready",
        "ns#Get",
        (
            Acceptor(
                AcceptorState.SUCCESS,
                OutputMatcher(
                    "created > `1700000000` && blob == 'aGk='",
                    "true",
                    Comparator.BOOLEAN_EQUALS,
                ),
            ),
        ),
    )
    old = {
        "created": datetime.datetime(2020, 1, 1, tzinfo=datetime.timezone.utc),
        "blob": b"hi",
    }
    new = {
        "created": datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc),
        "blob": b"hi",
    }
    run = run_sync(definition, [old, new], max_wait_time=60)
    assert [a.state for a in run.outcome.history][-1] is SUCCESS
    assert run.outcome.attempts == 2
    assert run.outcome.output is new  # the raw output, as the client returned it


@pytest.mark.parametrize("wrapper", [tuple, list])
def test_tuples_match_like_lists(wrapper: Any) -> None:
    definition = WaiterDefinition(
        "AllDone",
        "ns#List",
        (
            Acceptor(
                AcceptorState.SUCCESS,
                OutputMatcher("items[].s", "done", Comparator.ALL_STRING_EQUALS),
            ),
        ),
    )
    run = run_sync(
        definition,
        [{"items": wrapper([{"s": "done"}, {"s": "done"}])}],
        max_wait_time=10,
    )
    assert run.outcome.state is SUCCESS

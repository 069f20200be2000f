"""Edge values in the JMESPath data model, found by review (2026-12).

Mapping keys: an object key is the key's text as the data model gives text
values (a str enum member's value, a str subclass's exact text), and converting
only the read parts (`convert_read_parts`, `OutputConverter`) finds the same
keys as converting everything. Timestamps: a datetime whose tzinfo knows no
offset is naive, and naive timestamps are read as UTC.
"""

from __future__ import annotations

import datetime
import enum
from collections import OrderedDict
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from waitable import Acceptor, AcceptorState, Comparator, OutputMatcher
from waitable import WaiterDefinition
from waitable.datamodel import convert_read_parts, to_jmespath
from waitable.jmespath_runtime import JMESPathEvaluationError
from waitable.outputs import OutputConverter
from waitable.reads import reads_of

from waitable_codegen.jmespath import compile as compile_path

from .harness import run_sync


class Region(str, enum.Enum):
    """A str enum as clients and users write them (`str` mixin, not `StrEnum`)."""

    WEST = "us-west-2"


class Loud(str):
    """A str subclass whose own `__str__` must not be what a path sees."""

    def __str__(self) -> str:
        return "LOUD"


class NoOffset(datetime.tzinfo):
    """A tzinfo that knows no offset: Python counts its datetimes as naive."""

    def utcoffset(self, dt: datetime.datetime | None) -> None:
        return None

    def dst(self, dt: datetime.datetime | None) -> None:
        return None


@pytest.mark.parametrize("mapping", [dict, OrderedDict])
@pytest.mark.parametrize(
    ("key", "text"), [(Region.WEST, "us-west-2"), (Loud("k"), "k"), (7, "7")]
)
def test_a_key_is_the_text_a_value_would_be(mapping: Any, key: Any, text: str) -> None:
    assert to_jmespath(mapping({key: 1, "other": 2})) == {text: 1, "other": 2}
    # the same rule as for values
    if isinstance(key, str):
        assert to_jmespath([key]) == [text]


PATHS = [
    '"us-west-2"',
    '"us-west-2".b',
    'a."us-west-2"',
    "a.k",
    "a[].k",
    "k",
    "length(a.k)",
]
keys = st.sampled_from(["a", "b", Region.WEST, Loud("k"), "k", "us-west-2"])
scalars = st.none() | st.integers(0, 2) | st.sampled_from(["x", Region.WEST])
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(keys, inner, max_size=3)
    | st.dictionaries(keys, inner, max_size=2).map(OrderedDict),
    max_leaves=8,
)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(PATHS), st.dictionaries(keys, values, max_size=3))
def test_read_parts_find_the_keys_converting_everything_finds(
    path: str, data: dict[Any, Any]
) -> None:
    compiled = compile_path(path)

    def search(value: Any) -> Any:
        try:
            return compiled(value)
        except JMESPathEvaluationError as error:
            return error.kind

    reads = reads_of(path)
    full = search(to_jmespath(data))
    assert search(convert_read_parts(data, reads)) == full
    assert search(OutputConverter(reads)(data)) == full


def test_a_datetime_whose_tzinfo_knows_no_offset_is_read_as_utc() -> None:
    when = datetime.datetime(1970, 1, 1, 0, 1, tzinfo=NoOffset())
    assert to_jmespath({"When": when}) == {"When": 60.0}
    assert to_jmespath([when]) == [60.0]


def test_such_a_timestamp_is_compared_not_a_crash() -> None:
    definition = WaiterDefinition(
        "Late",
        "ns#Get",
        (
            Acceptor(
                AcceptorState.SUCCESS,
                OutputMatcher("When > `30`", "true", Comparator.BOOLEAN_EQUALS),
            ),
        ),
    )
    output = {"When": datetime.datetime(1970, 1, 1, 0, 1, tzinfo=NoOffset())}
    run = run_sync(definition, [output], max_wait_time=10)
    assert run.error is None and run.outcome.state is AcceptorState.SUCCESS

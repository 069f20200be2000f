"""`OutputConverter`'s flat case: keys read no deeper than the output's top level.

A `dict` output whose values at those keys are plain is used as it is without the
level-by-level check; every other value still gets the full check. The property:
the converter answers exactly what the full check (`is_json_like`, then
`convert_read_parts`) answers, for any values at those keys.
"""

from __future__ import annotations

import collections
import datetime
import decimal
import enum
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from waitable.datamodel import convert_read_parts
from waitable.outputs import OutputConverter, is_json_like
from waitable.reads import reads_of


class Color(str, enum.Enum):
    RED = "red"


FLAT_PATHS = ["State", "length(Items)", "[State, Code]", "State == Code", "Items[0]"]
KEYS = ["State", "Code", "Items", "Other"]

leaf_values = st.one_of(
    st.text(max_size=3),
    st.integers(),
    st.floats(allow_nan=False),
    st.booleans(),
    st.none(),
    st.just(Color.RED),
    st.just(datetime.datetime(2024, 1, 1, tzinfo=datetime.UTC)),
    st.just(decimal.Decimal("1.5")),
    st.just(b"blob"),
)
values = st.recursive(
    leaf_values,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(st.sampled_from(KEYS), inner, max_size=3),
        st.dictionaries(st.sampled_from(KEYS), inner, max_size=2).map(
            collections.OrderedDict
        ),
    ),
    max_leaves=6,
)


@given(
    path=st.sampled_from(FLAT_PATHS),
    output=st.dictionaries(st.sampled_from(KEYS), values, max_size=4),
)
def test_flat_reads_answer_what_the_full_check_answers(
    path: str, output: dict[str, Any]
) -> None:
    reads = reads_of(path)
    seen = OutputConverter(reads)(output)
    if is_json_like([output], reads):
        assert seen is output
    else:
        assert seen is not output
        assert seen == convert_read_parts(output, reads)


def test_a_plain_value_at_a_flat_read_is_not_converted_and_a_timestamp_is() -> None:
    reads = reads_of("State")
    converter = OutputConverter(reads)
    plain = {"State": "running", "Launched": datetime.datetime(2024, 1, 1)}
    assert converter(plain) is plain  # only State is read
    stamped = {"State": datetime.datetime(2024, 1, 1, tzinfo=datetime.UTC)}
    assert converter(stamped) == {"State": 1704067200.0}
    assert converter({"State": Color.RED}) == {"State": "red"}

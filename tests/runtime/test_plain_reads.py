"""`WaiterDefinition.plain_reads`: the read positions the data-model check skips.

The generator records them from the output shape (tests/codegen/test_plain_reads.py
holds the property that they never change a match); here: which parts of a `Reads`
tree they take away, that only dict outputs skip them, and the argument's checks.
"""

from __future__ import annotations

import collections
import dataclasses
import datetime
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
    WaiterDefinitionError,
)
from waitable.matching import match_output
from waitable.outputs import OutputConverter
from waitable.reads import Position, Reads, reads_of, without_positions

LAUNCHED = datetime.datetime(2024, 1, 1, tzinfo=datetime.UTC)
EPOCH = 1704067200.0


def leaves(reads: Reads, position: Position = ()) -> set[Position]:
    """Every whole or childless node's position."""
    if reads.whole or not reads.children:
        return {position}
    found: set[Position] = set()
    for key, child in reads.children.items():
        found |= leaves(child, position + (key,))
    return found


def under(position: Position, taken: list[Position]) -> bool:
    return any(position[: len(p)] == p for p in taken)


def test_a_taken_position_goes_with_all_it_holds_and_empty_parents_go_too() -> None:
    reads = reads_of("Reservations[].Instances[].State.Name")
    assert (
        without_positions(reads, [("Reservations", "Instances", "State", "Name")])
        is None
    )
    assert without_positions(reads, [("Reservations", "Instances")]) is None
    assert without_positions(reads, [()]) is None
    both = reads_of("[a.b, a.c.d]")
    left = without_positions(both, [("a", "b")])
    assert left is not None and leaves(left) == {("a", "c", "d")}
    assert leaves(both) == {("a", "b"), ("a", "c", "d")}  # not changed in place


def test_a_position_thousands_of_keys_long_is_taken_without_recursion() -> None:
    """A generated waiter's `plain_reads` for a path of 3,000 fields made
    `without_positions` recurse past the limit: the generated module failed to
    import with RecursionError (review of 2026-11-28, s24)."""
    path = "a" + ".b" * 3000
    reads = reads_of(path)
    position = ("a",) + ("b",) * 3000
    assert without_positions(reads, [position]) is None
    left = without_positions(reads_of(f"[{path}, a.c]"), [position])
    assert left is not None and leaves(left) == {("a", "c")}
    assert without_positions(reads, [position[:-1] + ("x",)]) is reads


def test_positions_it_does_not_hold_change_nothing() -> None:
    reads = reads_of("length(a) > `0`")  # `a` is read whole
    assert without_positions(reads, [("b",)]) is reads
    # Below a whole read: the whole value is still read, so still checked.
    assert without_positions(reads, [("a", "x")]) is reads


keys = st.sampled_from("abc")
positions = st.lists(keys, max_size=3).map(tuple)
expressions = st.lists(positions, min_size=1, max_size=4).map(
    lambda paths: "[" + ", ".join(".".join(p) if p else "@" for p in paths) + "]"
)


@given(expressions, st.lists(positions, max_size=3))
def test_what_is_left_is_exactly_what_was_read_outside_the_taken_positions(
    expression: str, taken: list[Position]
) -> None:
    reads = reads_of(expression)
    left = without_positions(reads, taken)
    kept = set() if left is None else leaves(left)
    before = leaves(reads)
    assert kept == {p for p in before if not under(p, taken)}


def test_a_dict_output_is_not_checked_at_plain_positions() -> None:
    reads = reads_of("Items[].Name")
    skipping = OutputConverter(reads, [("Items", "Name")])
    wrong = {"Items": [{"Name": LAUNCHED}]}  # the model promised a plain value here
    assert skipping(wrong) is wrong
    assert OutputConverter(reads)(wrong) == {"Items": [{"Name": EPOCH}]}


def test_other_outputs_are_checked_everywhere_as_before() -> None:
    skipping = OutputConverter(reads_of("Items[].Name"), [("Items", "Name")])
    ordered = collections.OrderedDict(Items=[{"Name": LAUNCHED}])
    assert skipping(ordered) == {"Items": [{"Name": EPOCH}]}

    @dataclasses.dataclass
    class Item:
        Name: Any

    @dataclasses.dataclass
    class Output:
        Items: list[Item]

    assert skipping(Output([Item(LAUNCHED)])) == {"Items": [{"Name": EPOCH}]}


def test_positions_that_are_not_plain_are_still_checked_and_converted() -> None:
    reads = reads_of("Items[].Name")
    reads.merge(reads_of("Items[].Created"))
    converter = OutputConverter(reads, [("Items", "Name")])
    output = {"Items": [{"Name": "on", "Created": LAUNCHED}]}
    assert converter(output) == {"Items": [{"Name": "on", "Created": EPOCH}]}
    plain = {"Items": [{"Name": "on", "Created": 5}]}
    assert converter(plain) is plain


def definition(plain_reads: Any = ()) -> WaiterDefinition:
    return WaiterDefinition(
        "Ready",
        "Get",
        (
            Acceptor(
                AcceptorState.SUCCESS,
                OutputMatcher(
                    "to_string(Items[0].Name)", "x", Comparator.STRING_EQUALS
                ),
            ),
        ),
        plain_reads=plain_reads,
    )


def test_a_definition_without_them_converts_every_read_position() -> None:
    output = {"Items": [{"Name": LAUNCHED}]}
    checked, wrong = definition(), definition((("Items", "Name"),))
    assert checked.plain_reads == () and checked == wrong
    assert checked.output_converter(output) == {"Items": [{"Name": EPOCH}]}
    assert wrong.output_converter(output) is output
    assert match_output(checked, {"Items": [{"Name": "x"}]}, {}).acceptor_index == 0
    assert match_output(wrong, {"Items": [{"Name": "x"}]}, {}).acceptor_index == 0


@pytest.mark.parametrize(
    "bad", [["Items"], ("Items",), (("Items", 1),), ((b"Items",),), "Items"]
)
def test_a_malformed_argument_is_one_clear_error(bad: Any) -> None:
    with pytest.raises(WaiterDefinitionError) as raised:
        definition(bad)
    message = str(raised.value)
    assert message.startswith("waiter 'Ready' of operation 'Get': plain_reads must be")
    assert "regenerate the waiters" in message

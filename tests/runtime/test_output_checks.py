"""`match_output`'s plain path (`output_checks`) judges every response exactly as the
general path does; definitions it cannot serve go down the general path only.
"""

from __future__ import annotations

import dataclasses
import datetime
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from waitable import (
    Acceptor,
    AcceptorState,
    Comparator,
    ErrorTypeMatcher,
    InputOutputMatcher,
    OutputMatcher,
    SuccessMatcher,
    WaiterDefinition,
)
from waitable.matching import Verdict, match_output, output_checks

PATHS = [
    "a",
    "a.b",
    "a[].b",
    "a[0]",
    "length(a)",
    "a == `1`",
    "to_string(a)",
    "contains(a, 'x')",
    "a[?b == 'x'].b",
    "keys(a)",
]
COMPARED = [
    (Comparator.STRING_EQUALS, ["x", "1", ""]),
    (Comparator.BOOLEAN_EQUALS, ["true", "false"]),
    (Comparator.ALL_STRING_EQUALS, ["x"]),
    (Comparator.ANY_STRING_EQUALS, ["x"]),
]
STATES = list(AcceptorState)


class Sneaky(str):
    """A string subclass that claims to equal anything (a hostile client's output)."""

    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = str.__hash__


leaves = st.one_of(
    st.sampled_from(["x", "1", "", "y"]),
    st.sampled_from([Sneaky("x"), Sneaky("nope")]),
    st.booleans(),
    st.integers(-2, 2),
    st.floats(allow_nan=True),
    st.none(),
    st.just(datetime.datetime(2024, 1, 1, tzinfo=datetime.UTC)),
    st.just(b"x"),
)
values = st.recursive(
    leaves,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(st.sampled_from(["a", "b", 1]), inner, max_size=3),
    ),
    max_leaves=8,
)
outputs = st.one_of(
    st.dictionaries(st.sampled_from(["a", "b"]), values, max_size=2), values
)


@st.composite
def output_acceptors(draw: st.DrawFn) -> Acceptor:
    if draw(st.integers(0, 4)) == 0:
        return Acceptor(draw(st.sampled_from(STATES)), ErrorTypeMatcher("Nope"))
    comparator, expected = draw(st.sampled_from(COMPARED))
    matcher = OutputMatcher(
        draw(st.sampled_from(PATHS)), draw(st.sampled_from(expected)), comparator
    )
    return Acceptor(draw(st.sampled_from(STATES)), matcher)


definitions = st.lists(output_acceptors(), min_size=1, max_size=4).map(
    lambda acceptors: WaiterDefinition("Ready", "Get", tuple(acceptors))
)


def general(definition: WaiterDefinition) -> WaiterDefinition:
    """The same definition with the plain path turned off."""
    copy = dataclasses.replace(definition)
    object.__setattr__(copy, "output_checks", ())
    return copy


def outcome(definition: WaiterDefinition, output: Any) -> Any:
    try:
        return match_output(definition, output, None)
    except Exception as error:  # the error's kind and text must agree too
        return (type(error), str(error))


@given(definitions, outputs)
def test_the_plain_path_judges_as_the_general_path(
    definition: WaiterDefinition, output: Any
) -> None:
    reads_output = any(
        isinstance(a.matcher, OutputMatcher) for a in definition.acceptors
    )
    assert (output_checks(definition) is not None) == reads_output
    assert outcome(definition, output) == outcome(general(definition), output)


def test_a_verdict_is_made_once_per_definition_not_per_poll() -> None:
    definition = WaiterDefinition(
        "Ready",
        "Get",
        (
            Acceptor(AcceptorState.FAILURE, ErrorTypeMatcher("Gone")),
            Acceptor(
                AcceptorState.SUCCESS,
                OutputMatcher("State", "on", Comparator.STRING_EQUALS),
            ),
        ),
    )
    first = match_output(definition, {"State": "on"}, None)
    assert first == Verdict(AcceptorState.SUCCESS, 1)
    assert match_output(definition, {"State": "on"}, None) is first
    assert match_output(definition, {"State": "off"}, None).state is AcceptorState.RETRY


def test_acceptors_the_plain_path_cannot_serve_leave_it_to_the_general_path() -> None:
    plain = Acceptor(
        AcceptorState.SUCCESS, OutputMatcher("a", "x", Comparator.STRING_EQUALS)
    )
    others = [
        Acceptor(
            AcceptorState.SUCCESS,
            InputOutputMatcher("input.a", "x", Comparator.STRING_EQUALS),
        ),
        Acceptor(AcceptorState.SUCCESS, SuccessMatcher(True)),
        Acceptor(
            AcceptorState.FAILURE,
            OutputMatcher("a", "x", Comparator.STRING_EQUALS),
            message="a",
        ),
    ]
    for other in others:
        definition = WaiterDefinition("Ready", "Get", (plain, other))
        assert output_checks(definition) is None
        verdict = match_output(definition, {"a": "y"}, {"a": "x"})
        assert verdict == match_output(general(definition), {"a": "y"}, {"a": "x"})


def test_a_path_shared_by_acceptors_runs_once_per_response() -> None:
    """InstanceRunning's four acceptors read one path over every instance: once, not four times."""
    runs: list[Any] = []

    def names(data: Any) -> Any:
        runs.append(data)
        return [i["State"] for i in data["Items"]]

    path = "Items[].State"
    definition = WaiterDefinition(
        "Running",
        "Describe",
        tuple(
            Acceptor(state, OutputMatcher(path, expected, comparator, search=names))
            for state, expected, comparator in [
                (AcceptorState.SUCCESS, "running", Comparator.ALL_STRING_EQUALS),
                (AcceptorState.FAILURE, "gone", Comparator.ANY_STRING_EQUALS),
                (AcceptorState.FAILURE, "stopping", Comparator.ANY_STRING_EQUALS),
            ]
        ),
    )
    output = {"Items": [{"State": "pending"}, {"State": "running"}]}
    assert match_output(definition, output, None).state is AcceptorState.RETRY
    assert len(runs) == 1
    output = {"Items": [{"State": "stopping"}]}
    assert match_output(definition, output, None).acceptor_index == 2
    assert len(runs) == 2

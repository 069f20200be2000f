"""A malformed trait value gives TraitValue ERRORs naming the waiter and acceptor,
never a crash; waiter names follow the spec's ABNF."""

from __future__ import annotations

import string
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from waitable_codegen.validation import Severity, ValidationEvent, validate
from waitable.trait_keys import is_waiter_name

from .builders import (
    NS,
    model,
    one_waiter,
    path_acceptor,
    success_acceptor,
    waitable_operation,
)

PREFIX = "Error validating trait `smithy.waiters#waitable`"


def trait_events(waiters: Any) -> list[ValidationEvent]:
    return validate(waitable_operation(waiters, output={"name": "smithy.api#String"}))


def errors(waiters: Any) -> list[str]:
    """The message of each ERROR, checking every event is a TraitValue on `Op`."""
    events = trait_events(waiters)
    assert all(e.event_id == "TraitValue" and e.shape_id == f"{NS}#Op" for e in events)
    return [e.message for e in events if e.severity is Severity.ERROR]


@pytest.mark.parametrize(
    ("waiters", "message"),
    [
        (
            [],
            f"{PREFIX}: Expected object value for map shape, `smithy.waiters#waitable`;"
            " found array value",
        ),
        ("Ready", f"{PREFIX}: Expected object value for map shape"),
        (
            {},
            f"{PREFIX}: Value provided for `smithy.waiters#waitable` must have at least",
        ),
        ({"Ready": 3}, f"{PREFIX}.Ready: Expected object value for structure shape"),
        (
            {"Ready": {}},
            f"{PREFIX}.Ready: Missing required structure member `acceptors` for "
            "`smithy.waiters#Waiter`",
        ),
        (one_waiter({}), f"{PREFIX}.Ready.acceptors: Expected array value for list"),
        (one_waiter([]), f"{PREFIX}.Ready.acceptors: Value provided for "),
        (one_waiter(["x"]), f"{PREFIX}.Ready.acceptors.0: Expected object value"),
        (
            one_waiter([{"matcher": {"success": True}}]),
            f"{PREFIX}.Ready.acceptors.0: Missing required structure member `state`",
        ),
        (
            one_waiter([{"state": "success"}]),
            f"{PREFIX}.Ready.acceptors.0: Missing required structure member `matcher`",
        ),
        (
            one_waiter([{"state": "done", "matcher": {"success": True}}]),
            f"{PREFIX}.Ready.acceptors.0.state: String value provided for "
            "`smithy.waiters#AcceptorState` must be one of the following values: "
            "`success`, `failure`, `retry`; found `done`",
        ),
        (
            one_waiter([{"state": "success", "matcher": {}}]),
            f"{PREFIX}.Ready.acceptors.0.matcher: A matcher must set exactly one of",
        ),
        (
            one_waiter(
                [{"state": "success", "matcher": {"success": True, "errorType": "E"}}]
            ),
            f"{PREFIX}.Ready.acceptors.0.matcher: union values can contain a value for "
            "only a single member",
        ),
        (
            one_waiter([{"state": "success", "matcher": {"status": 200}}]),
            f"{PREFIX}.Ready.acceptors.0.matcher: Invalid union member `status` found",
        ),
        (
            one_waiter([{"state": "success", "matcher": {"success": "yes"}}]),
            f"{PREFIX}.Ready.acceptors.0.matcher.success: Expected boolean value for "
            "boolean shape, `smithy.api#Boolean`; found string value, `yes`",
        ),
        (
            one_waiter([{"state": "success", "matcher": {"errorType": 404}}]),
            f"{PREFIX}.Ready.acceptors.0.matcher.errorType: Expected string value",
        ),
        (
            one_waiter([path_acceptor("name", comparator="equals")]),
            f"{PREFIX}.Ready.acceptors.0.matcher.output.comparator: String value "
            "provided for `smithy.waiters#PathComparator` must be one of the following "
            "values: `stringEquals`, `booleanEquals`, `allStringEquals`, "
            "`anyStringEquals`; found `equals`",
        ),
        (
            one_waiter(
                [
                    {
                        "state": "success",
                        "matcher": {"output": {"path": "a", "expected": "b"}},
                    }
                ]
            ),
            f"{PREFIX}.Ready.acceptors.0.matcher.output: Missing required structure "
            "member `comparator`",
        ),
        (
            one_waiter([path_acceptor(["name"])]),
            f"{PREFIX}.Ready.acceptors.0.matcher.output.path: Expected string value",
        ),
        (
            one_waiter([path_acceptor("name", state="failure", message=3)]),
            f"{PREFIX}.Ready.acceptors.0.message: Expected string value",
        ),
        (
            one_waiter([success_acceptor()], minDelay=0),
            f"{PREFIX}.Ready.minDelay: Value provided for `smithy.waiters#WaiterDelay` "
            "must be greater than or equal to 1, but found 0",
        ),
        (
            one_waiter([success_acceptor()], maxDelay=2.5),
            f"{PREFIX}.Ready.maxDelay: Expected an integer value",
        ),
        (
            one_waiter([success_acceptor()], minDelay=True),
            f"{PREFIX}.Ready.minDelay: Expected number value for integer shape",
        ),
        (
            one_waiter([success_acceptor()], maxDelay=2**31),
            f"{PREFIX}.Ready.maxDelay: Value provided for `smithy.waiters#WaiterDelay` "
            "must be at most 2147483647",
        ),
        (
            one_waiter([success_acceptor()], tags=["ok", ""]),
            f"{PREFIX}.Ready.tags.1: String value provided for "
            "`smithy.waiters#NonEmptyString` must be at least 1 characters long",
        ),
        (
            one_waiter([success_acceptor()], deprecated="yes"),
            f"{PREFIX}.Ready.deprecated: Expected boolean value",
        ),
        (
            {"ready": {"acceptors": [success_acceptor()]}},
            f"{PREFIX}.ready (map-key): String value provided for "
            "`smithy.waiters#WaiterName` must match regular expression: "
            "^[A-Z]+[A-Za-z0-9]*$",
        ),
    ],
)
def test_malformed_values_are_errors_naming_the_place(
    waiters: Any, message: str
) -> None:
    found = errors(waiters)
    assert len(found) == 1, found
    assert found[0].startswith(message)


def test_every_problem_of_a_waiter_is_reported() -> None:
    found = errors(
        {
            "Ready": {
                "acceptors": [{"state": "x", "matcher": {}}, {"matcher": []}],
                "minDelay": -1,
            }
        }
    )
    assert len(found) == 5


def test_an_unknown_member_is_a_warning_and_the_waiter_is_still_checked() -> None:
    events = trait_events(one_waiter([path_acceptor("name == 'x'")], description="d"))
    assert [(e.severity.name, e.event_id) for e in events] == [
        ("WARNING", "TraitValue")
    ]
    assert events[0].message == (
        f"{PREFIX}.Ready: Invalid structure member `description` found for "
        "`smithy.waiters#Waiter`"
    )
    events = trait_events(one_waiter([path_acceptor("nope == 'x'")], description="d"))
    assert {e.event_id.split(".")[0] for e in events} == {
        "TraitValue",
        "WaitableTraitJmespathProblem",
    }


def test_a_trait_value_error_anywhere_stops_the_waiter_checks_everywhere() -> None:
    """As in Smithy: TraitValue is critical, the waiter validators then do not run."""
    loaded = model(
        {
            "Broken": {
                "type": "operation",
                "traits": {"smithy.waiters#waitable": {"lower": {"acceptors": []}}},
            },
            "Fine": {
                "type": "operation",
                "traits": {
                    "smithy.waiters#waitable": one_waiter([path_acceptor("nope")])
                },
            },
        }
    )
    events = validate(loaded)
    assert {e.event_id for e in events} == {"TraitValue"}
    assert {e.shape_id for e in events} == {f"{NS}#Broken"}


def abnf_waiter_name(name: str) -> bool:
    """`waiter-name: upper-alpha *(ALPHA / DIGIT)`, read character by character."""
    upper = set(string.ascii_uppercase)
    rest = upper | set(string.ascii_lowercase) | set(string.digits)
    return bool(name) and name[0] in upper and all(ch in rest for ch in name[1:])


_names = st.text(string.ascii_letters + string.digits + "_-\n éÅ٣", max_size=8) | (
    st.from_regex(r"[A-Z][A-Za-z0-9]*", fullmatch=True)
)


@given(_names)
def test_the_waiter_name_rule_is_the_abnf(name: str) -> None:
    assert is_waiter_name(name) == abnf_waiter_name(name)


@settings(max_examples=50, deadline=None)
@given(_names)
def test_a_name_off_the_abnf_is_a_trait_value_error(name: str) -> None:
    events = trait_events({name: {"acceptors": [success_acceptor()]}})
    expected = [] if abnf_waiter_name(name) else [f"{PREFIX}.{name} (map-key)"]
    assert [e.message.split(":")[0] for e in events] == expected


_json = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 3)
    | st.floats(allow_nan=False, allow_infinity=False)  # JSON has neither
    | st.sampled_from(["success", "failure", "retry", "stringEquals", "a", ""]),
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(
        st.sampled_from(
            [
                "Ready",
                "acceptors",
                "state",
                "matcher",
                "output",
                "inputOutput",
                "success",
                "errorType",
                "path",
                "expected",
                "comparator",
                "message",
                "minDelay",
                "maxDelay",
                "tags",
                "x",
            ]
        ),
        inner,
        max_size=4,
    ),
    max_leaves=15,
)


@settings(max_examples=200, deadline=None)
@given(_json)
def test_any_json_as_the_trait_value_gives_events_never_a_crash(value: Any) -> None:
    for event in trait_events(value):
        assert event.shape_id == f"{NS}#Op"
        assert str(event)


@settings(max_examples=200, deadline=None)
@given(_json)
def test_any_json_as_an_acceptor_gives_events_never_a_crash(value: Any) -> None:
    for event in trait_events(one_waiter([success_acceptor(), value])):
        assert event.shape_id == f"{NS}#Op"

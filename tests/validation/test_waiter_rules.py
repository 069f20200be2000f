"""Smithy's waiter checks: delays, a success acceptor, paths and their return types,
`booleanEquals` values, error types and acceptor messages."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from waitable_codegen.validation import Severity, validate

from .builders import (
    NS,
    model,
    one_waiter,
    path_acceptor,
    ref,
    structure,
    success_acceptor,
    waitable_operation,
)

OP = f"{NS}#Op"
OUTPUT = {
    "name": "smithy.api#String",
    "count": "smithy.api#Integer",
    "ready": "smithy.api#Boolean",
    "names": "Names",
    "flags": "Flags",
    "doc": "smithy.api#Document",
}
SHAPES = {
    "Names": {"type": "list", "member": ref("smithy.api#String")},
    "Flags": {"type": "list", "member": ref("smithy.api#Boolean")},
}


def check(
    acceptors: list[dict[str, Any]],
    errors: list[str] | None = None,
    waiter: dict[str, Any] | None = None,
) -> list[str]:
    """The events, as printed, for one waiter `Ready` of `Op` (output: OUTPUT)."""
    loaded = waitable_operation(
        one_waiter(acceptors, **(waiter or {})),
        output=OUTPUT,
        input={"id": "smithy.api#String"},
        errors=errors,
        extra_shapes=SHAPES,
    )
    return [str(event) for event in validate(loaded)]


# Delays and the success acceptor.


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 300) | st.none(), st.integers(1, 300) | st.none())
def test_min_delay_above_max_delay_is_an_error(
    min_delay: int | None, max_delay: int | None
) -> None:
    delays = {k: v for k, v in (("minDelay", min_delay), ("maxDelay", max_delay)) if v}
    effective = (min_delay or 2, max_delay or 120)
    found = check([success_acceptor()], waiter=delays)
    if effective[0] > effective[1]:
        assert found == [
            f"[ERROR] {OP}: `smithy.waiters#waitable` trait waiter named `Ready` has a "
            f"`minDelay` value of {effective[0]} that is greater than its `maxDelay` "
            f"value of {effective[1]} | WaitableTrait"
        ]
    else:
        assert found == []


def test_a_waiter_needs_a_success_acceptor() -> None:
    expected = (
        f"[ERROR] {OP}: No success state matcher found for `smithy.waiters#waitable` "
        "trait waiter named `Ready` | WaitableTrait"
    )
    assert check([success_acceptor("failure"), success_acceptor("retry")]) == [expected]
    assert check([success_acceptor("retry"), success_acceptor("success")]) == []


# Path matchers.


@settings(max_examples=40, deadline=None)
@given(st.text(max_size=6) | st.sampled_from(["true", "false", "True", " true"]))
def test_boolean_equals_expects_exactly_true_or_false(expected: str) -> None:
    found = check([path_acceptor("ready", expected=expected)])
    if expected in ("true", "false"):
        assert found == []
    else:
        assert found == [
            f"[ERROR] {OP}: Waiter `Ready`, acceptor 0: Waiter acceptors with a "
            "booleanEquals comparator must set their `expected` value to 'true' or "
            f"'false', but found '{expected}'. | WaitableTrait"
        ]


@pytest.mark.parametrize(
    ("path", "comparator", "returns"),
    [
        ("ready", "booleanEquals", None),
        ("name == 'x'", "booleanEquals", None),
        ("name", "stringEquals", None),
        ("names", "allStringEquals", None),
        ("flags", "anyStringEquals", None),  # elements are not checked
        ("doc.anything", "stringEquals", None),  # ANY: nothing is known
        ("not_null(name)", "booleanEquals", None),
        ("count", "booleanEquals", "number"),
        ("ready", "stringEquals", "boolean"),
        ("name", "allStringEquals", "string"),
        ("names[0]", "anyStringEquals", "string"),
        ("names[5]", "stringEquals", "null"),
        ("{a: name}", "stringEquals", "object"),
    ],
)
def test_the_return_type_must_suit_the_comparator(
    path: str, comparator: str, returns: str | None
) -> None:
    wanted = {"booleanEquals": "boolean", "stringEquals": "string"}.get(
        comparator, "array"
    )
    expected = "true" if comparator == "booleanEquals" else "x"
    found = check([path_acceptor(path, expected=expected, comparator=comparator)])
    if returns is None:
        assert found == []
    else:
        assert found == [
            f"[DANGER] {OP}: Waiter `Ready`, acceptor 0: Waiter acceptors with a "
            f"{comparator} comparator must return a `{wanted}` type, but this acceptor "
            f"was statically determined to return a `{returns}` type. | "
            "WaitableTraitJmespathProblem.ReturnTypeMismatch.Ready.0"
        ]


def test_path_problems_carry_their_severity_waiter_and_acceptor() -> None:
    found = check(
        [
            success_acceptor(),
            path_acceptor("nope == 'x'", state="retry"),
            path_acceptor("name < 'b'", state="retry"),
            path_acceptor("length(count) == `1`", state="retry"),
        ]
    )
    assert found == [
        f"[ERROR] {OP}: Waiter `Ready`, acceptor 3: Problem found in JMESPath "
        "expression (length(count) == `1`): length function argument 0 error: Expected "
        "one of [string, array, object], but found number (1:8) | WaitableTrait",
        f"[DANGER] {OP}: Waiter `Ready`, acceptor 1: Problem found in JMESPath "
        "expression (nope == 'x'): Object field 'nope' does not exist in object with "
        "properties [name, count, ready, names, flags, doc] (1:1) | "
        "WaitableTraitJmespathProblem.JmespathEventDanger.Ready.1",
        f"[DANGER] {OP}: Waiter `Ready`, acceptor 2: Waiter acceptors with a "
        "booleanEquals comparator must return a `boolean` type, but this acceptor was "
        "statically determined to return a `null` type. | "
        "WaitableTraitJmespathProblem.ReturnTypeMismatch.Ready.2",
        f"[WARNING] {OP}: Waiter `Ready`, acceptor 2: Problem found in JMESPath "
        "expression (name < 'b'): Invalid comparator '<' for string (1:8) | "
        "WaitableTraitJmespathProblem.JmespathEventWarning.Ready.2",
    ]


def test_a_path_that_does_not_parse_is_an_error_and_nothing_more() -> None:
    assert check([path_acceptor("name ==")]) == [
        f"[ERROR] {OP}: Waiter `Ready`, acceptor 0: Invalid JMESPath expression "
        "(name ==): Syntax error at line 1 column 8: Unexpected end of expression | "
        "WaitableTrait"
    ]


def test_input_output_paths_see_input_and_output() -> None:
    assert check([path_acceptor("input.id == output.name", kind="inputOutput")]) == []
    found = check([path_acceptor("input.name == output.id", kind="inputOutput")])
    danger = "WaitableTraitJmespathProblem.JmespathEventDanger.Ready.0"
    start = (
        f"[DANGER] {OP}: Waiter `Ready`, acceptor 0: Problem found in JMESPath "
        "expression (input.name == output.id): Object field"
    )
    assert found == [
        f"{start} 'id' does not exist in object with properties [name, count, ready, "
        f"names, flags, doc] (1:22) | {danger}",
        f"{start} 'name' does not exist in object with properties [id] (1:7) | {danger}",
    ]
    assert check([path_acceptor("foo", kind="inputOutput")])[0].endswith(
        "Object field 'foo' does not exist in object with properties [input, output] "
        f"(1:1) | {danger}"
    )


def test_an_operation_without_input_has_an_empty_input() -> None:
    loaded = model(
        {
            "Op": {
                "type": "operation",
                "output": ref("Out"),
                "traits": {
                    "smithy.waiters#waitable": one_waiter(
                        [path_acceptor("input.id == output.name", kind="inputOutput")]
                    )
                },
            },
            "Out": structure({"name": "smithy.api#String"}),
        }
    )
    (event,) = validate(loaded)
    assert event.severity is Severity.DANGER
    assert "Object field 'id' does not exist in object with properties [] (1:7)" in (
        event.message
    )


# Error types.


@pytest.mark.parametrize("error_type", ["Gone", f"{NS}#Gone"])
def test_an_error_type_matches_by_name_or_by_id(error_type: str) -> None:
    acceptor = {"state": "success", "matcher": {"errorType": error_type}}
    assert check([acceptor], errors=["Gone"]) == []


@pytest.mark.parametrize(
    ("errors", "listed"), [(["Gone", "Busy"], f"{NS}#Gone, {NS}#Busy"), ([], "")]
)
def test_an_unknown_error_type_is_a_warning_listing_the_operations_errors(
    errors: list[str], listed: str
) -> None:
    acceptor = {"state": "success", "matcher": {"errorType": "other.ns#Gone2"}}
    assert check([acceptor], errors=errors) == [
        f"[WARNING] {OP}: Waiter `Ready`, acceptor 0: errorType 'other.ns#Gone2' not "
        "found on operation. This operation defines the following errors: "
        f"[{listed}] | WaitableTraitInvalidErrorType.Ready.0"
    ]


def test_a_service_error_is_not_an_operation_error() -> None:
    loaded = model(
        {
            "Svc": {
                "type": "service",
                "version": "1",
                "operations": [ref("Op")],
                "errors": [ref("Throttled")],
            },
            "Throttled": structure(traits={"smithy.api#error": "client"}),
            "Op": {
                "type": "operation",
                "traits": {
                    "smithy.waiters#waitable": one_waiter(
                        [{"state": "success", "matcher": {"errorType": "Throttled"}}]
                    )
                },
            },
        }
    )
    assert [e.event_id for e in validate(loaded)] == [
        "WaitableTraitInvalidErrorType.Ready.0"
    ]


# Messages.


def failure(message: str, matcher: dict[str, Any] | None = None) -> dict[str, Any]:
    return {
        "state": "failure",
        "matcher": matcher or {"errorType": "Gone"},
        "message": message,
    }


@pytest.mark.parametrize(
    "message", ["name", "names", "to_string(count)", "[name, name]"]
)
def test_a_message_may_be_a_string_or_an_array_of_strings(message: str) -> None:
    assert check([success_acceptor(), failure(message)], errors=["Gone"]) == []


@pytest.mark.parametrize(
    ("message", "problem"),
    [
        ("count", "was statically determined to return a `number` type."),
        ("nope", "was statically determined to return a `null` type."),
        ("doc", "was statically determined to return a `any` type."),
        ("flags", "resolves to an array of `boolean`."),
        ("[count]", "resolves to an array of `number`."),
        # Smithy reads the element type from the text `<message>[0]`.
        ("names[*]", "resolves to an array of `array`."),
    ],
)
def test_a_message_of_another_type_is_an_error(message: str, problem: str) -> None:
    assert check([success_acceptor(), failure(message)], errors=["Gone"]) == [
        f"[ERROR] {OP}: Waiter `Ready`, acceptor 1: The `message` JMESPath expression "
        f"must resolve to a string or an array of strings, but this expression "
        f"{problem} | WaitableTrait"
    ]


def test_a_message_that_does_not_parse_is_an_error() -> None:
    assert check([success_acceptor(), failure("name.")], errors=["Gone"]) == [
        f"[ERROR] {OP}: Waiter `Ready`, acceptor 1: Invalid JMESPath expression in "
        "`message` (name.): Syntax error at line 1 column 6: Expected ['[', '{', '*', "
        "'A-Z|a-z|_'], but found the end of the expression | WaitableTrait"
    ]


@pytest.mark.parametrize("state", ["success", "retry"])
def test_a_message_belongs_on_failure_acceptors_only(state: str) -> None:
    acceptor = {"state": state, "matcher": {"success": True}, "message": "count"}
    found = check([success_acceptor(), acceptor])
    assert found == [
        f"[ERROR] {OP}: Waiter `Ready`, acceptor 1: The `message` property is only "
        f"valid on acceptors with a `failure` state, but found state `{state}`. | "
        "WaitableTrait"
    ]


def test_matcher_events_are_reported_once_when_a_message_is_present() -> None:
    acceptor = failure("name", path_acceptor("nope == 'x'")["matcher"])
    found = check([success_acceptor(), acceptor])
    assert len(found) == 1 and "JmespathEventDanger.Ready.1" in found[0]


# The whole list.


def test_events_are_sorted_by_shape_then_worst_first_and_repeatable() -> None:
    shapes: dict[str, Any] = {
        name: {
            "type": "operation",
            "traits": {
                "smithy.waiters#waitable": one_waiter(
                    [
                        {"state": "retry", "matcher": {"errorType": "Nope"}},
                        path_acceptor("x", expected="maybe"),
                    ]
                )
            },
        }
        for name in ("B", "A")
    }
    loaded = model(shapes)
    events = validate(loaded)
    assert events == validate(loaded)
    assert [(e.shape_id[-1], e.severity.name) for e in events] == [
        ("A", "ERROR"),
        ("A", "DANGER"),
        ("A", "DANGER"),
        ("A", "WARNING"),
        ("B", "ERROR"),
        ("B", "DANGER"),
        ("B", "DANGER"),
        ("B", "WARNING"),
    ]

"""Errors: each carries the result, and its message is actionable."""

from __future__ import annotations

import pickle
from typing import Any

import pytest

from waitable import (
    Acceptor,
    AcceptorState,
    Comparator,
    ErrorTypeMatcher,
    InputOutputMatcher,
    OutputMatcher,
    WaiterDefinition,
    WaiterError,
    WaiterFailureStateError,
    WaiterMaxAttemptsError,
    WaiterOperationError,
    WaiterTimeoutError,
)

from .harness import DRIVERS, SUCCESS, THING_EXISTS, ServiceError, run_async, run_sync

FAILED = AcceptorState.FAILURE


def failing(message: str | None, matcher: Any = None) -> WaiterDefinition:
    return WaiterDefinition(
        "JobDone",
        "ns#GetJob",
        (
            Acceptor(
                FAILED,
                matcher or OutputMatcher("state", "FAILED", Comparator.STRING_EQUALS),
                message,
            ),
            Acceptor(SUCCESS, OutputMatcher("state", "DONE", Comparator.STRING_EQUALS)),
        ),
    )


@pytest.mark.parametrize(
    ("message", "output", "reason"),
    [
        ("reason", {"state": "FAILED", "reason": "disk full"}, "disk full"),
        (
            "reasons",
            {"state": "FAILED", "reasons": ["disk full", "quota"]},
            "disk full; quota",
        ),
        (
            "reasons[].text",
            {"state": "FAILED", "reasons": [{"text": "a"}, {"text": "b"}]},
            "a; b",
        ),
        (
            "reason",
            {"state": "FAILED"},
            None,
        ),  # a message that resolves to null is left out
        ("reason", {"state": "FAILED", "reason": 42}, None),  # not a string: left out
        (
            "length(missing)",
            {"state": "FAILED"},
            None,
        ),  # fails to evaluate: left out, no crash
        (None, {"state": "FAILED", "reason": "x"}, None),
    ],
)
def test_failure_acceptor_message(
    message: str | None, output: dict[str, Any], reason: str | None
) -> None:
    run = run_sync(failing(message), [output], max_wait_time=60)
    error = run.error
    assert isinstance(error, WaiterFailureStateError)
    assert error.reason == reason
    if reason:
        assert f"reached a failure state: {reason} (acceptor 0" in str(error)
    else:
        assert "reached a failure state (acceptor 0" in str(error)


def test_message_on_an_input_output_acceptor_reads_the_output() -> None:
    """The spec: the message "extracts a human-readable message from the operation
    output" (the validator checks it against the output too)."""
    matcher = InputOutputMatcher(
        "output.state == 'FAILED'", "true", Comparator.BOOLEAN_EQUALS
    )
    definition = failing("join(' ', [state, why])", matcher)
    run = run_sync(
        definition,
        [{"state": "FAILED", "why": "broke"}],
        {"name": "job-1"},
        max_wait_time=60,
    )
    assert isinstance(run.error, WaiterFailureStateError)
    assert run.error.reason == "FAILED broke"


def test_message_on_an_error_type_acceptor_reads_the_error_response() -> None:
    definition = failing("Error.Message", ErrorTypeMatcher("Gone"))
    run = run_sync(
        definition, [ServiceError("Gone", "job was deleted")], max_wait_time=60
    )
    assert isinstance(run.error, WaiterFailureStateError)
    assert run.error.reason == "job was deleted"


def outcomes() -> dict[str, WaiterError]:
    found = {
        "failure": run_sync(
            failing("reason"),
            [{"state": "RUNNING"}, {"state": "FAILED", "reason": "oom"}],
            max_wait_time=60,
        ).error,
        "operation": run_sync(
            THING_EXISTS,
            [{"status": "x"}, ServiceError("AccessDenied")],
            max_wait_time=60,
        ).error,
        "timeout": run_sync(THING_EXISTS, [{"status": "x"}], max_wait_time=30).error,
        "attempts": run_async(
            THING_EXISTS, [{"status": "x"}], max_wait_time=30, max_attempts=2
        ).error,
    }
    assert all(isinstance(error, WaiterError) for error in found.values())
    return found  # type: ignore[return-value]


def test_every_error_is_a_waiter_error_with_the_result() -> None:
    errors = outcomes()
    kinds = {
        "failure": WaiterFailureStateError,
        "operation": WaiterOperationError,
        "timeout": WaiterTimeoutError,
        "attempts": WaiterMaxAttemptsError,
    }
    for name, error in errors.items():
        assert type(error) is kinds[name]
        assert error.result.state is FAILED
        assert error.result.waiter in ("JobDone", "ThingExists")
        assert error.result.attempts == len(error.result.history) >= 1


def test_messages_name_the_waiter_attempts_elapsed_and_last_state() -> None:
    errors = outcomes()
    assert str(errors["failure"]).startswith(
        "waiter JobDone reached a failure state: oom"
    )
    assert "after 2 attempts in 2.0s, last state failure" in str(errors["failure"])
    assert "the operation raised AccessDenied" in str(errors["operation"])
    assert "after 2 attempts in 2.0s, last error AccessDenied" in str(
        errors["operation"]
    )
    assert "timed out" in str(errors["timeout"]) and "max_wait_time=30s" in str(
        errors["timeout"]
    )
    assert "in 30.0s, last state retry" in str(errors["timeout"])
    assert "pass a larger max_wait_time" in str(errors["timeout"])
    assert "max_attempts=2 reached after 2 attempts" in str(errors["attempts"])
    for error in errors.values():
        assert "terminal failure state" not in str(error)


def test_errors_survive_pickling() -> None:
    for error in outcomes().values():
        copy = pickle.loads(pickle.dumps(error))
        assert type(copy) is type(error)
        assert str(copy) == str(error)
        assert copy.result == error.result


def test_the_last_output_is_kept_when_the_wait_fails() -> None:
    """botocore#2913: the caller gets the last response back."""
    error = outcomes()["operation"]
    assert error.result.output == {"status": "x"}
    assert error.result.history[-1].error_type == "AccessDenied"


@pytest.mark.parametrize("driver", sorted(DRIVERS))
def test_both_limits_at_once_say_so(driver: str) -> None:
    """The final poll, at the deadline, is also the max_attempts-th: the message
    said time was left and advised raising max_attempts alone."""
    run = DRIVERS[driver](
        THING_EXISTS,
        [{"status": "pending"}],
        max_wait_time=4,
        max_attempts=2,
        min_delay=2,
    )
    assert isinstance(run.error, WaiterMaxAttemptsError)
    assert run.clock_end == 4.0 and len(run.calls) == 2
    assert run.error.remaining == 0.0
    message = str(run.error)
    assert "max_wait_time=4s ran out too; raise both" in message
    assert "still left" not in message


def test_a_failure_reason_is_cut_to_the_reason_limit() -> None:
    """A response's message is its text, but a megabyte of it is no error message."""
    from waitable.matching import REASON_LIMIT

    output = {"state": "FAILED", "reason": "x" * 10**6}
    run = run_sync(failing("reason"), [output], max_wait_time=60)
    assert isinstance(run.error, WaiterFailureStateError)
    assert run.error.reason == "x" * (REASON_LIMIT - 3) + "..."
    assert len(str(run.error)) < 2 * REASON_LIMIT

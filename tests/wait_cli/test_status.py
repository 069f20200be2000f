"""What `waitable wait` shows while waiting, on a virtual clock: the live line and its
countdown, log lines, and the exit status of each `WaiterError`."""

from __future__ import annotations

import io
from typing import Any

import pytest

from waitable import (
    Acceptor,
    AcceptorState,
    Attempt,
    Comparator,
    OutputMatcher,
    WaiterDefinition,
    WaiterResult,
)
from waitable.errors import (
    WaiterError,
    WaiterFailureStateError,
    WaiterMaxAttemptsError,
    WaiterOperationError,
    WaiterTimeoutError,
)
from waitable.testing import VirtualClock
from waitable.wait_cli.exit_codes import ExitCode, exit_code_of
from waitable.wait_cli.status import Status, StatusClock, seen

DEFINITION = WaiterDefinition(
    name="InstanceRunning",
    operation="DescribeInstances",
    acceptors=(
        Acceptor(
            AcceptorState.SUCCESS,
            OutputMatcher(
                "Reservations[].Instances[].State.Name",
                "running",
                Comparator.ALL_STRING_EQUALS,
            ),
        ),
    ),
)


def attempt(number: int, output: Any = None, error: str | None = None) -> Attempt[Any]:
    return Attempt(
        number=number,
        started_at=10.0 * (number - 1),
        delay=0 if number == 1 else 10,
        duration=0.25,
        state=AcceptorState.RETRY,
        acceptor_index=None,
        output=output,
        error_type=error,
    )


def instances(*states: str) -> dict[str, Any]:
    return {"Reservations": [{"Instances": [{"State": {"Name": s}} for s in states]}]}


def test_seen_shows_the_error_or_what_the_path_reads() -> None:
    assert seen(DEFINITION, attempt(1, error="InvalidInstanceID.NotFound")) == (
        "InvalidInstanceID.NotFound"
    )
    assert seen(DEFINITION, attempt(1, instances("pending", "running", "pending"))) == (
        "pending,running"
    )
    assert seen(DEFINITION, attempt(1, instances())) == "[]"
    assert (
        len(seen(DEFINITION, attempt(1, instances(*(["x" * 30] * 1 + ["y" * 30])))))
        == 48
    )


def test_live_line_counts_down_the_next_poll() -> None:
    stream = io.StringIO()
    status = Status(stream, "ec2 instance-running", DEFINITION, live=True, columns=120)
    clock = VirtualClock()
    sleeper = StatusClock(status, clock)
    status.attempt(attempt(1, instances("pending")))
    sleeper.sleep(2.5)
    assert clock.now() == pytest.approx(2.5)
    status.attempt(attempt(2, instances("running")))
    status.finish()
    frames = stream.getvalue().split("\r")[1:]
    base = "ec2 instance-running: attempt 1, 0.2 s elapsed, retry: pending"
    assert frames[:4] == [
        base,
        base + ", next poll in 3 s",
        base + ", next poll in 2 s",
        base + ", next poll in 1 s",
    ]
    # A shorter line pads over the longer one before it; the wait ends with a newline.
    last = "ec2 instance-running: attempt 2, 10.2 s elapsed, retry: running"
    assert frames[4] == last + " " * (len(base) + 18 - len(last)) + "\n"
    assert len(frames) == 5


def test_live_line_fits_the_terminal() -> None:
    stream = io.StringIO()
    status = Status(stream, "ec2 instance-running", DEFINITION, live=True, columns=40)
    status.attempt(attempt(1, instances("pending")))
    assert (
        stream.getvalue() == "\r" + "ec2 instance-running: attempt 1, 0.2 s "[:38] + "…"
    )


def test_log_lines_when_not_a_terminal() -> None:
    stream = io.StringIO()
    status = Status(stream, "ec2 instance-running", DEFINITION, live=False)
    clock = VirtualClock()
    sleeper = StatusClock(status, clock)
    status.attempt(attempt(1, error="InvalidInstanceID.NotFound"))
    sleeper.sleep(10)
    status.attempt(attempt(2, instances("running")))
    status.finish()
    status.finish()
    assert stream.getvalue().splitlines() == [
        "waitable wait: ec2 instance-running: attempt 1, 0.2 s elapsed, "
        "retry: InvalidInstanceID.NotFound; next poll in 10.0 s",
        "waitable wait: ec2 instance-running: attempt 2, 10.2 s elapsed, retry: running",
    ]


def test_quiet_sleeps_without_a_status() -> None:
    clock = VirtualClock()
    StatusClock(None, clock).sleep(7)
    assert clock.now() == pytest.approx(7)


def test_interrupted_is_one_line() -> None:
    stream = io.StringIO()
    status = Status(stream, "s3 bucket-exists", DEFINITION, live=True)
    status.attempt(attempt(1, error="NotFound"))
    status.interrupted(3.04)
    assert stream.getvalue().split("\n")[1:] == [
        "waitable wait: s3 bucket-exists: interrupted after 1 attempt (3.0 s)",
        "",
    ]


RESULT: WaiterResult[Any] = WaiterResult(
    "InstanceRunning", AcceptorState.FAILURE, None, 1, 0.0, ()
)


@pytest.mark.parametrize(
    ("error", "code"),
    [
        (
            WaiterFailureStateError(RESULT, acceptor_index=0, matcher="m"),
            ExitCode.FAILURE_STATE,
        ),
        (WaiterTimeoutError(RESULT, max_wait_time=1, why="w"), ExitCode.TIMEOUT),
        (
            WaiterMaxAttemptsError(
                RESULT, max_attempts=1, max_wait_time=1, remaining=0
            ),
            ExitCode.ATTEMPTS_EXHAUSTED,
        ),
        (
            WaiterOperationError(RESULT, error_code="E", advice="a"),
            ExitCode.OPERATION_ERROR,
        ),
        (WaiterError("other", RESULT), ExitCode.UNEXPECTED_ERROR),
    ],
)
def test_exit_code_of_each_error(error: WaiterError, code: ExitCode) -> None:
    assert exit_code_of(error) == code


def test_exit_codes_are_distinct_and_documented() -> None:
    from waitable.wait_cli.command import EPILOG

    assert len({int(c) for c in ExitCode}) == len(ExitCode)
    for code in ExitCode:
        assert f"{int(code)} " in EPILOG


def test_the_help_says_when_a_wait_times_out_without_max_wait() -> None:
    """`--help` said exit 3 was "--max-wait passed", yet a botocore waiter run without
    --max-wait times out (exit 3) at botocore's delay × max attempts, as the README
    says (found by review s23)."""
    from waitable.wait_cli.command import EPILOG

    text = " ".join(EPILOG.split())
    assert "3 timeout (the deadline passed: --max-wait, else botocore's delay × " in (
        text
    )


def test_the_help_fits_a_terminal() -> None:
    """The epilog is printed as written (click's `\\b`): a line of 110 characters
    added today wrapped in an 80-column terminal (review of today's diff, s24)."""
    from waitable.wait_cli.command import EPILOG

    assert all(len(line) <= 78 for line in EPILOG.splitlines())
    text = " ".join(EPILOG.split())
    assert "2 bad usage (also input botocore refuses before sending it)" in text

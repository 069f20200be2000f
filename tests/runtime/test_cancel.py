"""Cancelling a sync wait (`wait(cancel=threading.Event())`): seed 003's context
cancel for blocking code. A set event ends the wait at its next sleep or before
its next request, with `WaiterCancelledError` holding what the wait saw."""

from __future__ import annotations

import pickle
import random
import threading
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from waitable import (
    SystemClock,
    WaiterCancelledError,
    WaiterConfigurationError,
    WaiterError,
    WaiterTimeoutError,
)
from waitable.custom import custom_waiter, path, success
from waitable.retry import StandardRetryStrategy
from waitable.testing import VirtualClock

from .harness import RETRY, THING_EXISTS, Script, waiter_class

PENDING = {"status": "pending"}
DONE = {"status": "success"}


class CancellingScript(Script):
    """A scripted client that sets `cancel` during its `at`-th call."""

    def __init__(
        self, clock: VirtualClock, steps: list[Any], cancel: threading.Event, at: int
    ) -> None:
        super().__init__(clock, steps)
        self.cancel, self.at = cancel, at

    def __call__(self, input: Any) -> Any:
        if len(self.calls) + 1 == self.at:
            self.cancel.set()
        return super().__call__(input)


def waiter(script: Script, clock: VirtualClock) -> Any:
    return waiter_class(THING_EXISTS)(script, clock=clock, rng=random.Random(3))


def test_a_set_event_stops_the_wait_before_its_first_request() -> None:
    clock, cancel = VirtualClock(), threading.Event()
    cancel.set()
    script = Script(clock, [DONE])
    with pytest.raises(WaiterCancelledError) as raised:
        waiter(script, clock).wait({}, max_wait_time=600, cancel=cancel)
    assert script.calls == []
    assert raised.value.result.attempts == 0
    assert "waiter ThingExists was cancelled" in str(raised.value)
    assert "after 0 attempts" in str(raised.value)


@settings(max_examples=40, deadline=None)
@given(at=st.integers(min_value=1, max_value=12))
def test_no_request_follows_the_one_during_which_the_event_was_set(at: int) -> None:
    """The request running when the event is set is answered and recorded; the
    wait then ends at its sleep, long before its deadline."""
    clock, cancel = VirtualClock(), threading.Event()
    script = CancellingScript(clock, [PENDING], cancel, at)
    with pytest.raises(WaiterCancelledError) as raised:
        waiter(script, clock).wait({}, max_wait_time=3600, cancel=cancel)
    assert len(script.calls) == at
    result = raised.value.result
    assert result.attempts == at
    assert [attempt.state for attempt in result.history] == [RETRY] * at
    assert result.output == PENDING
    assert clock.now() < 3600


def test_the_answer_of_the_request_in_flight_still_counts() -> None:
    """Success that arrives in the request during which the event is set ends the
    wait as a success: the answer is in, nothing is left to cancel."""
    clock, cancel = VirtualClock(), threading.Event()
    script = CancellingScript(clock, [PENDING, DONE], cancel, 2)
    result = waiter(script, clock).wait({}, max_wait_time=600, cancel=cancel)
    assert result.attempts == 2 and result.output == DONE


def test_without_an_event_set_the_wait_is_the_same() -> None:
    runs = []
    for cancel in (None, threading.Event()):
        clock = VirtualClock()
        script = Script(clock, [PENDING, PENDING, DONE])
        result = waiter(script, clock).wait({}, max_wait_time=600, cancel=cancel)
        runs.append(([a.started_at for a in result.history], clock.now()))
    assert runs[0] == runs[1]


def test_a_retry_backoff_inside_a_poll_is_cancelled_too() -> None:
    """The seed-001 retries of one poll's call sleep through the same driver."""
    clock, cancel = VirtualClock(), threading.Event()
    calls = []

    class Throttled(Exception):
        """A throttling error the standard policy retries."""

        code = "ThrottlingException"

    def operation(input: Any) -> Any:
        calls.append(input)
        if len(calls) == 2:
            cancel.set()
        raise Throttled()

    operation_waiter = waiter_class(THING_EXISTS)(
        operation,
        clock=clock,
        rng=random.Random(3),
        retry=StandardRetryStrategy(max_attempts=5),
    )
    with pytest.raises(WaiterCancelledError) as raised:
        operation_waiter.wait({}, max_wait_time=600, cancel=cancel)
    assert len(calls) == 2
    # The poll cut short between its tries is kept: both tries, the one retry
    # made, and why no more were made.
    result = raised.value.result
    assert result.attempts == 1
    attempt = result.history[0]
    assert attempt.error_type == "ThrottlingException"
    assert [retry.number for retry in attempt.retries] == [1]
    assert attempt.retry_stopped == "cancelled"
    assert "last error ThrottlingException" in str(raised.value)


def test_an_event_set_from_another_thread_wakes_a_real_sleep() -> None:
    """On the real clock the sleep is the event's own wait: a wait that would
    sleep an hour between polls ends as soon as another thread sets the event."""
    cancel, polled = threading.Event(), threading.Event()

    def operation(input: Any) -> Any:
        polled.set()
        return PENDING

    def canceller() -> None:
        polled.wait()
        cancel.set()

    real = waiter_class(THING_EXISTS)(operation, clock=SystemClock())
    thread = threading.Thread(target=canceller)
    thread.start()
    try:
        with pytest.raises(WaiterCancelledError) as raised:
            real.wait(
                {}, max_wait_time=7200, min_delay=3600, max_delay=3600, cancel=cancel
            )
    finally:
        polled.set()  # the canceller ends even if the wait failed before polling
        thread.join()
    assert raised.value.result.attempts == 1


def test_custom_waiters_take_the_event() -> None:
    Ready = custom_waiter("Ready", acceptors=[success(path("ready") == True)])
    clock, cancel = VirtualClock(), threading.Event()
    answers = iter([{"ready": False}, {"ready": False}])

    def check() -> Any:
        cancel.set()
        return next(answers)

    with pytest.raises(WaiterCancelledError) as raised:
        Ready(check, clock=clock).wait(max_wait_time=60, cancel=cancel)
    assert raised.value.result.attempts == 1


def test_the_error_is_a_waiter_error_and_survives_pickling() -> None:
    clock, cancel = VirtualClock(), threading.Event()
    script = CancellingScript(clock, [PENDING], cancel, 1)
    with pytest.raises(WaiterError) as raised:
        waiter(script, clock).wait({}, max_wait_time=600, cancel=cancel)
    error = raised.value
    assert isinstance(error, WaiterCancelledError)
    assert not isinstance(error, WaiterTimeoutError)
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is WaiterCancelledError and str(copy) == str(error)
    assert copy.result.attempts == 1
    assert error.to_data()["type"] == "WaiterCancelledError"


@pytest.mark.parametrize("cancel", [True, "stop", object()])
def test_something_that_is_not_an_event_is_refused_before_any_request(
    cancel: Any,
) -> None:
    clock = VirtualClock()
    script = Script(clock, [DONE])
    with pytest.raises(
        WaiterConfigurationError, match="^waiter ThingExists: cancel= takes a threading"
    ):
        waiter(script, clock).wait({}, max_wait_time=600, cancel=cancel)
    assert script.calls == []

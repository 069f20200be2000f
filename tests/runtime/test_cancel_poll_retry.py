"""`cancel=` on seed 002's pollers and seed 001's retries: the same event as a
sync waiter's, read by the same driver. A cancelled poller session can go on; a
cancelled retry ends with `RetryCancelledError`, its retry token resolved. And
`cancel_saved`, which ends a saved wait between polls the same way."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from waitable import (
    AsyncWaiter,
    RateLimiter,
    SystemClock,
    WaiterCancelledError,
    WaiterConfigurationError,
    WaiterTimeoutError,
)
from waitable.poller import NotReady, Poller, PollStatus, Ready
from waitable.retry import (
    RetryCancelledError,
    RetryStrategyError,
    RetryToken,
    StandardRetryPolicy,
    StandardRetryStrategy,
    StandardRetryTokenBucket,
)
from waitable.testing import VirtualClock

from .harness import THING_EXISTS, Script, waiter_class

PENDING = {"status": "pending"}


class Throttled(Exception):
    """A throttling error the standard policy retries."""

    code = "ThrottlingException"


class KeptTokens(StandardRetryTokenBucket):
    """The standard bucket, keeping every token it hands out."""

    def __init__(self) -> None:
        super().__init__()
        self.handed_out: list[RetryToken] = []

    def acquire_token(self, now: float) -> RetryToken:
        token = super().acquire_token(now)
        self.handed_out.append(token)
        return token


class SetsAt:
    """A check or block that sets `cancel` during its `at`-th call and answers
    `answer(n)` to its n-th (raising it when it is an exception)."""

    def __init__(
        self, cancel: threading.Event, at: int, answer: Callable[[int], Any]
    ) -> None:
        self.cancel, self.at, self.answer = cancel, at, answer
        self.calls = 0

    def __call__(self) -> Any:
        self.calls += 1
        if self.calls == self.at:
            self.cancel.set()
        answer = self.answer(self.calls)
        if isinstance(answer, Exception):
            raise answer
        return answer


def test_a_poller_with_the_event_set_makes_no_attempt() -> None:
    checks: list[int] = []
    cancel = threading.Event()
    cancel.set()

    def check() -> bool:
        checks.append(1)
        return True

    poller: Poller[Any] = Poller(check, clock=VirtualClock())
    with pytest.raises(WaiterCancelledError) as raised:
        poller.poll(cancel=cancel)
    assert checks == []
    assert raised.value.result.attempts == 0
    assert poller.state.attempt_num == 0


@settings(max_examples=30, deadline=None)
@given(at=st.integers(min_value=1, max_value=7), more=st.integers(1, 5))
def test_a_cancelled_session_stops_after_the_check_running_and_can_go_on(
    at: int, more: int
) -> None:
    """The event set during check `at` ends `poll()` at the sleep after it; the
    session is not over: `poll()` again goes on with attempt `at + 1` and keeps
    one history, numbered without a gap."""
    clock, cancel = VirtualClock(), threading.Event()
    check = SetsAt(cancel, at, lambda n: Ready(n) if n == at + more else NotReady(n))
    poller: Poller[Any] = Poller(check, delay=1.0, max_attempts=None, clock=clock)
    with pytest.raises(WaiterCancelledError) as raised:
        poller.poll(cancel=cancel)
    assert check.calls == at and raised.value.result.attempts == at
    assert poller.state.status is PollStatus.ATTEMPT_FAILED
    assert poller.state.attempt_num == at and poller.state.value == at

    final = poller.poll(cancel=threading.Event())
    assert final.fulfilled and final.value == at + more
    assert [a.attempt_num for a in final.history] == list(range(1, at + more + 1))
    assert clock.now() == pytest.approx(at + more - 1)  # one second between checks


def test_a_cancelled_session_still_counts_its_attempts_against_max_attempts() -> None:
    clock, cancel = VirtualClock(), threading.Event()

    def check() -> bool:
        cancel.set()
        return False

    poller: Poller[Any] = Poller(check, delay=1.0, max_attempts=2, clock=clock)
    with pytest.raises(WaiterCancelledError):
        poller.poll(cancel=cancel)
    final = poller.poll()
    assert final.status is PollStatus.RETRIES_EXHAUSTED
    assert final.attempt_num == 2


def test_poll_or_raise_takes_the_event_too() -> None:
    cancel = threading.Event()

    def check() -> bool:
        cancel.set()
        return False

    with pytest.raises(WaiterCancelledError, match="was cancelled"):
        Poller(check, clock=VirtualClock()).poll_or_raise(cancel=cancel)


def test_a_poller_on_the_real_clock_is_woken_by_another_thread() -> None:
    """An hour's delay between checks ends as soon as another thread sets the event."""
    cancel, checked = threading.Event(), threading.Event()

    def check() -> bool:
        checked.set()
        return False

    def canceller() -> None:
        checked.wait()
        cancel.set()

    poller: Poller[Any] = Poller(check, delay=3600.0, clock=SystemClock())
    thread = threading.Thread(target=canceller)
    thread.start()
    try:
        with pytest.raises(WaiterCancelledError):
            poller.poll(cancel=cancel)
    finally:
        checked.set()
        thread.join()
    assert poller.state.attempt_num == 1


@pytest.mark.parametrize("cancel", [True, "stop", object()])
def test_something_that_is_not_an_event_is_refused_before_any_check_or_try(
    cancel: Any,
) -> None:
    calls: list[int] = []
    with pytest.raises(WaiterConfigurationError, match="cancel= takes a threading"):
        Poller(lambda: calls.append(1), clock=VirtualClock()).poll(cancel=cancel)
    strategy = StandardRetryStrategy(clock=VirtualClock())
    with pytest.raises(WaiterConfigurationError, match="cancel= takes a threading"):
        strategy.retry(StandardRetryPolicy(), lambda: calls.append(1), cancel=cancel)
    assert calls == []


@settings(max_examples=20, deadline=None)
@given(at=st.integers(min_value=1, max_value=4))
def test_a_retry_cancelled_during_try_n_makes_no_further_try(at: int) -> None:
    """The try running when the event is set fails and would be retried; the
    backoff before the retry is where the cancel ends it. Its token is resolved
    (as a failure), as every call's token is."""
    bucket = KeptTokens()
    strategy = StandardRetryStrategy(
        max_attempts=5, token_bucket=bucket, clock=VirtualClock()
    )
    cancel = threading.Event()
    block = SetsAt(cancel, at, lambda n: Throttled())
    with pytest.raises(RetryCancelledError) as raised:
        strategy.retry(StandardRetryPolicy(), block, cancel=cancel)
    assert block.calls == at
    assert isinstance(raised.value, RetryStrategyError)
    assert raised.value.attempts == at
    assert "retry was cancelled" in str(raised.value)
    assert "ThrottlingException" in str(raised.value)
    assert [token.resolved for token in bucket.handed_out] == [True]


def test_a_retry_with_the_event_set_makes_no_try() -> None:
    strategy = StandardRetryStrategy(clock=VirtualClock())
    cancel = threading.Event()
    cancel.set()
    tries: list[int] = []
    with pytest.raises(RetryCancelledError, match="after 0 tries") as raised:
        strategy.retry(StandardRetryPolicy(), lambda: tries.append(1), cancel=cancel)
    assert tries == [] and raised.value.attempts == 0


def test_a_retry_whose_event_is_never_set_is_unchanged() -> None:
    answers: list[Exception | str] = [Throttled(), Throttled(), "done"]

    def block() -> str:
        answer = answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer

    strategy = StandardRetryStrategy(clock=VirtualClock())
    done = strategy.retry(StandardRetryPolicy(), block, cancel=threading.Event())
    assert done == "done"


def test_an_async_retry_cancelled_during_its_backoff_resolves_its_token() -> None:
    """Cancelling the task of `retry_async` closes the flow at the backoff; the
    call's token ends as a failure instead of staying open."""
    bucket = KeptTokens()
    clock = VirtualClock()
    strategy = StandardRetryStrategy(max_attempts=5, token_bucket=bucket, clock=clock)
    tries = 0

    async def block() -> str:
        nonlocal tries
        tries += 1
        if tries == 2:
            task = asyncio.current_task()
            assert task is not None
            task.cancel()
        raise Throttled()

    async def main() -> None:
        with pytest.raises(asyncio.CancelledError):
            await strategy.retry_async(StandardRetryPolicy(), block)

    asyncio.run(main())
    assert tries == 2
    assert [token.resolved for token in bucket.handed_out] == [True]


def test_a_poller_task_cancelled_during_its_sleep_can_go_on_too() -> None:
    """The asyncio twin: cancelling the task of `poll_async` leaves the session
    where it stood, as the event does for `poll`."""
    clock = VirtualClock()

    def answer(n: int) -> Any:
        if n == 2:
            task = asyncio.current_task()
            assert task is not None
            task.cancel()
        return Ready(n) if n == 4 else NotReady(n)

    check = SetsAt(threading.Event(), 0, answer)
    poller: Poller[Any] = Poller(check, delay=1.0, max_attempts=None, clock=clock)

    async def main() -> None:
        with pytest.raises(asyncio.CancelledError):
            await poller.poll_async()
        assert poller.state.attempt_num == 2
        final = await poller.poll_async()
        assert final.fulfilled and final.value == 4
        assert [a.attempt_num for a in final.history] == [1, 2, 3, 4]

    asyncio.run(main())
    assert check.calls == 4


# --- a saved wait cancelled between polls (`cancel_saved`) -----------------------


@settings(max_examples=20, deadline=None)
@given(polls=st.integers(min_value=0, max_value=5))
def test_a_saved_wait_cancelled_between_polls_keeps_its_attempts(polls: int) -> None:
    """`cancel_saved` ends a saved wait as the engine ends a cancelled one: no
    request, the attempts so far in the error's result (sync and async classes)."""
    clock = VirtualClock(wall_start=1_700_000_000.0)
    script = Script(clock, [PENDING])
    for kind in (waiter_class(THING_EXISTS), waiter_class(THING_EXISTS, AsyncWaiter)):
        saved = kind(script, clock=clock).start({}, max_wait_time=600, seed=1)
        sync = waiter_class(THING_EXISTS)(script, clock=clock)
        for _ in range(polls):
            saved = sync.poll_once(saved).state
        before = len(script.calls)
        error = kind(script, clock=clock).cancel_saved(saved)
        assert isinstance(error, WaiterCancelledError)
        assert len(script.calls) == before
        assert error.result.attempts == polls
        assert [a.number for a in error.result.history] == list(range(1, polls + 1))


def test_a_saved_wait_past_its_deadline_ends_as_a_timeout_instead() -> None:
    clock = VirtualClock(wall_start=1_700_000_000.0)
    script = Script(clock, [PENDING])
    waiter = waiter_class(THING_EXISTS)(script, clock=clock)
    saved = waiter.poll_once(waiter.start({}, max_wait_time=60, seed=1)).state
    clock.advance(3600)
    error = waiter.cancel_saved(saved)
    assert isinstance(error, WaiterTimeoutError) and error.result.attempts == 1
    assert len(script.calls) == 1


def test_cancelling_a_saved_wait_with_call_retries_resolves_no_token_twice() -> None:
    """Under `retry=` the engine takes the first try's token before the poll it
    does not make; the cancel resolves it (as a failure), once."""
    bucket = KeptTokens()
    clock = VirtualClock(wall_start=1_700_000_000.0)
    script = Script(clock, [PENDING])
    waiter = waiter_class(THING_EXISTS)(
        script, clock=clock, retry=StandardRetryStrategy(token_bucket=bucket)
    )
    error = waiter.cancel_saved(waiter.start({}, max_wait_time=60, seed=1))
    assert isinstance(error, WaiterCancelledError) and script.calls == []
    assert all(token.resolved for token in bucket.handed_out)


def test_cancelling_a_saved_wait_takes_nothing_from_shared_limits() -> None:
    """The poll it does not make takes no rate-limit token and costs the retry
    bucket nothing: both are shared with the waits that do poll."""
    clock = VirtualClock(wall_start=1_700_000_000.0)
    script = Script(clock, [PENDING])
    limiter = RateLimiter(1, per=60)
    bucket = StandardRetryTokenBucket(initial_try_cost=3)
    waiter = waiter_class(THING_EXISTS)(
        script,
        clock=clock,
        rate_limit=limiter,
        retry=StandardRetryStrategy(token_bucket=bucket),
    )
    saved = waiter.start({}, max_wait_time=600, seed=1)
    for _ in range(3):
        assert isinstance(waiter.cancel_saved(saved), WaiterCancelledError)
    assert bucket.tokens(clock.wall()) == bucket.capacity
    assert limiter.try_acquire(clock.wall()) == 0, "the limiter's one token is left"
    assert script.calls == []


def test_a_call_ended_by_an_error_resolves_its_token() -> None:
    """A backoff that raises ends the call (a configuration error): its token is
    resolved as a failure, not left open."""
    bucket = KeptTokens()
    strategy = StandardRetryStrategy(
        token_bucket=bucket, clock=VirtualClock(), backoff=lambda context: -1
    )
    block = SetsAt(threading.Event(), 0, lambda n: Throttled())
    with pytest.raises(WaiterConfigurationError, match="backoff"):
        strategy.retry(StandardRetryPolicy(), block)
    assert block.calls == 1
    assert [token.resolved for token in bucket.handed_out] == [True]

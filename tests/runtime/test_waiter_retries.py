"""Waiters with `retry=` (seed 001) and `rate_limit=` (seed 002), on the one engine.

A throttled or transient call is retried inside its poll, never past the wait's
deadline; a shared token bucket rations retries; a shared rate limiter keeps many
waiters under one call rate. Everything runs on `VirtualClock`, sync and async.
"""

from __future__ import annotations

import asyncio
import math
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from waitable import (
    AcceptorState,
    RateLimiter,
    WaiterOperationError,
    WaiterTimeoutError,
)
from waitable.flow import START_TOLERANCE
from waitable.retry import StandardRetryStrategy, StandardRetryTokenBucket
from waitable.testing import VirtualClock

from .harness import (
    BUCKET_EXISTS,
    DRIVERS,
    THING_EXISTS,
    AsyncWaiter,
    Script,
    ServiceError,
    Step,
    waiter_class,
)

THROTTLED = ServiceError("ThrottlingException")
UNAVAILABLE = ServiceError("RequestTimeout")


def strategy(clock: VirtualClock, **kwargs: Any) -> StandardRetryStrategy:
    return StandardRetryStrategy(clock=clock, rng=random.Random(1), **kwargs)


@pytest.mark.parametrize("driver", sorted(DRIVERS))
def test_a_throttled_call_is_retried_inside_its_poll(driver: str) -> None:
    clock = VirtualClock()
    run = DRIVERS[driver](
        THING_EXISTS,
        [THROTTLED, THROTTLED, {"status": "creating"}, {"status": "success"}],
        waiter_kwargs={"retry": strategy(clock)},
        max_wait_time=300,
    )
    history = run.outcome.history
    assert [a.state for a in history] == [AcceptorState.RETRY, AcceptorState.SUCCESS]
    first = history[0]
    assert [(r.number, r.error_type, r.reason) for r in first.retries] == [
        (1, "ThrottlingException", "Throttling"),
        (2, "ThrottlingException", "Throttling"),
    ]
    assert all(0 <= r.delay <= 20 for r in first.retries)
    assert len(run.calls) == 4


@pytest.mark.parametrize("driver", sorted(DRIVERS))
def test_without_retry_one_throttle_ends_the_wait(driver: str) -> None:
    run = DRIVERS[driver](THING_EXISTS, [THROTTLED], max_wait_time=300)
    assert isinstance(run.error, WaiterOperationError)


@pytest.mark.parametrize("driver", sorted(DRIVERS))
def test_retries_exhausted_fail_the_wait_and_say_so(driver: str) -> None:
    run = DRIVERS[driver](
        THING_EXISTS,
        [UNAVAILABLE],
        waiter_kwargs={"retry": strategy(VirtualClock(), max_attempts=4)},
        max_wait_time=300,
    )
    assert isinstance(run.error, WaiterOperationError)
    last = run.outcome.history[-1]
    assert len(last.retries) == 3 and last.retry_stopped == "max_attempts"
    assert "3 retries" in str(run.error)
    assert len(run.calls) == 4


@pytest.mark.parametrize("driver", sorted(DRIVERS))
def test_an_error_an_acceptor_names_is_not_retried(driver: str) -> None:
    run = DRIVERS[driver](
        BUCKET_EXISTS,
        [ServiceError("NotFound"), {}],
        waiter_kwargs={"retry": strategy(VirtualClock())},
        max_wait_time=300,
    )
    assert run.result is not None
    assert all(not a.retries for a in run.result.history)


def test_a_circuit_breaker_bucket_stops_retrying_when_short() -> None:
    bucket = StandardRetryTokenBucket(
        capacity=20,
        retry_cost=5,
        timeout_retry_cost=10,
        circuit_breaker=True,
        refill_units_per_second=0,
    )
    run = DRIVERS["sync"](
        THING_EXISTS,
        [UNAVAILABLE],
        waiter_kwargs={
            "retry": strategy(VirtualClock(), max_attempts=10, token_bucket=bucket)
        },
        max_wait_time=300,
    )
    last = run.outcome.history[-1]
    assert len(last.retries) == 2 and last.retry_stopped == "capacity"


@settings(max_examples=60, deadline=None)
@given(
    max_wait_time=st.floats(min_value=1, max_value=120),
    latency=st.floats(min_value=0, max_value=5),
    seed=st.integers(0, 2**16),
    driver=st.sampled_from(sorted(DRIVERS)),
)
def test_a_retry_never_starts_after_the_deadline(
    max_wait_time: float, latency: float, seed: int, driver: str
) -> None:
    clock = VirtualClock()
    starts: list[float] = []

    class Recording(Script):
        def _next(self, input: Any) -> Step:
            starts.append(self.clock.now())
            return super()._next(input)

    script = Recording(clock, [Step(error=UNAVAILABLE, latency=latency)])
    retry = StandardRetryStrategy(clock=clock, rng=random.Random(seed), max_attempts=50)
    cls = (
        waiter_class(THING_EXISTS, AsyncWaiter)
        if driver == "async"
        else waiter_class(THING_EXISTS)
    )
    waiter = cls(
        script.call_async if driver == "async" else script,
        clock=clock,
        rng=random.Random(seed),
        retry=retry,
    )
    try:
        if driver == "async":
            asyncio.run(waiter.wait({}, max_wait_time=max_wait_time))
        else:
            waiter.wait({}, max_wait_time=max_wait_time)
    except (WaiterOperationError, WaiterTimeoutError):
        pass
    assert starts and all(t <= max_wait_time + START_TOLERANCE for t in starts)


@settings(max_examples=25, deadline=None)
@given(
    waiters=st.integers(1, 12),
    capacity=st.integers(10, 60),
    refill=st.sampled_from([0.5, 1.0, 2.0]),
    seed=st.integers(0, 1000),
)
def test_strategies_sharing_a_bucket_never_retry_beyond_its_capacity(
    waiters: int, capacity: int, refill: float, seed: int
) -> None:
    clock = VirtualClock()
    bucket = StandardRetryTokenBucket(
        capacity=capacity, retry_cost=5, refill_units_per_second=refill
    )
    retries = 0
    for index in range(waiters):
        script = Script(clock, [UNAVAILABLE])
        waiter = waiter_class(THING_EXISTS)(
            script,
            clock=clock,
            rng=random.Random(seed + index),
            retry=StandardRetryStrategy(
                clock=clock,
                rng=random.Random(seed),
                token_bucket=bucket,
                max_attempts=100,
            ),
        )
        with pytest.raises((WaiterOperationError, WaiterTimeoutError)) as caught:
            waiter.wait({}, max_wait_time=30)
        retries += sum(len(a.retries) for a in caught.value.result.history)
    # Every retry paid 5 units; the bucket started with `capacity` and refilled
    # `refill` units a second for the time that passed, no more.
    assert retries * 5 <= capacity + refill * clock.now() + 1e-6


def test_a_thousand_async_waiters_share_a_rate_limit() -> None:
    """10 calls a second, no bursts: never more than 10 in any one-second window."""
    clock = VirtualClock()
    limiter = RateLimiter(1, per=0.1)
    calls: list[float] = []

    async def get(input: Any) -> Any:
        calls.append(clock.now())
        return {"status": "success" if len(calls) % 3 else "creating"}

    async def main() -> None:
        cls = waiter_class(THING_EXISTS, AsyncWaiter)
        waiters = [
            cls(get, clock=clock, rng=random.Random(i), rate_limit=limiter)
            for i in range(1000)
        ]
        results = await asyncio.gather(
            *(w.wait({}, max_wait_time=600) for w in waiters), return_exceptions=True
        )
        assert all(not isinstance(r, BaseException) for r in results), results[:3]

    asyncio.run(main())
    assert len(calls) >= 1000
    ordered = sorted(calls)
    for i, start in enumerate(ordered):
        window = [t for t in ordered[i : i + 12] if t < start + 1.0 - 1e-9]
        assert len(window) <= 10, (start, window)


def test_a_rate_limit_never_delays_a_poll_past_the_deadline() -> None:
    clock = VirtualClock()
    limiter = RateLimiter(1, per=100.0)
    limiter.try_acquire(clock.now())  # someone else took the only token
    script = Script(clock, [{"status": "creating"}])
    waiter = waiter_class(THING_EXISTS)(script, clock=clock, rate_limit=limiter)
    with pytest.raises(WaiterTimeoutError, match="after the deadline"):
        waiter.wait({}, max_wait_time=10)
    assert script.calls == []
    assert clock.now() <= 10 + START_TOLERANCE + 1e-6


def test_retry_and_rate_limit_arguments_are_checked() -> None:
    cls = waiter_class(THING_EXISTS)
    with pytest.raises(ValueError, match="retry must be a retry strategy"):
        cls(lambda i: {}, retry=3)
    with pytest.raises(ValueError, match="rate_limit must be a limiter"):
        cls(lambda i: {}, rate_limit="10/s")
    with pytest.raises(ValueError, match="history_limit"):
        cls(lambda i: {}, history_limit=0)
    assert math.isfinite(RateLimiter(10).try_acquire(0.0) + 0)


class RecordingBucket:
    """A token bucket whose tokens note how each call's token ended."""

    def __init__(self) -> None:
        self.ended: list[str] = []

    def acquire_token(self, now: float) -> Any:
        bucket = self

        class Token:
            wait = 0.0

            def schedule_retry(self, reason: Any, now: float) -> float:
                return 0.0

            def notify_success(self, now: float) -> None:
                bucket.ended.append("success")

            def notify_failure(self, now: float) -> None:
                bucket.ended.append("failure")

        return Token()


def test_a_call_the_rate_limit_kept_from_starting_ends_its_token() -> None:
    """Seed 001: every token ends in success, failure or a retry; a try that the
    rate limit pushed past the deadline is not made, and its token fails."""
    from waitable import RateLimiter, WaiterTimeoutError
    from waitable.retry import StandardRetryStrategy
    from waitable.testing import VirtualClock

    from .harness import THING_EXISTS, Script, waiter_class

    clock = VirtualClock()
    bucket = RecordingBucket()
    limiter = RateLimiter(1, per=1000)
    limiter.try_acquire(clock.wall())  # the only token, taken by someone else
    waiter = waiter_class(THING_EXISTS)(
        Script(clock, [{"status": "success"}]),
        clock=clock,
        retry=StandardRetryStrategy(token_bucket=bucket),  # type: ignore[arg-type]
        rate_limit=limiter,
    )
    with pytest.raises(WaiterTimeoutError):
        waiter.wait({}, max_wait_time=10)
    assert bucket.ended == ["failure"]

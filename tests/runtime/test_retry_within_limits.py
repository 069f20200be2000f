"""A poll's retries stay within seed 001's limits (found by review, 2026-11-27):
no retries without the first try's token, no retry started after `max_time` or
the deadline while it waits for a rate-limit token, and a retry that is not
made is not recorded as made."""

from __future__ import annotations

from typing import Any

import pytest

from waitable import FixedDelay, RateLimiter
from waitable.custom import custom_waiter, path, success
from waitable.errors import WaiterError
from waitable.retry import (
    RetryStrategyError,
    StandardRetryPolicy,
    StandardRetryStrategy,
    StandardRetryTokenBucket,
)
from waitable.testing import VirtualClock

from .harness import ServiceError

W = custom_waiter(
    "W",
    acceptors=[success(path("s") == "ok")],
    min_delay=1,
    max_delay=1,
    backoff=FixedDelay(),
)


def throttled(clock: VirtualClock, calls: list[float]) -> Any:
    def operation(request: Any) -> Any:
        calls.append(clock.now())
        raise ServiceError("ThrottlingException")

    return operation


def test_no_retries_when_the_first_try_had_no_token() -> None:
    """Seed 001: the first try is always made; without its token, no retries."""
    clock = VirtualClock()
    bucket = StandardRetryTokenBucket(
        capacity=10,
        initial_try_cost=10,
        retry_cost=5,
        refill_units_per_second=0,
        circuit_breaker=True,
    )
    strategy = StandardRetryStrategy(
        token_bucket=bucket, clock=clock, backoff=FixedDelay(1), max_attempts=5
    )
    strategy.retry(StandardRetryPolicy(), lambda: "ok")  # 10 paid, 1 back
    tries: list[float] = []

    def block() -> Any:
        tries.append(clock.now())
        raise ConnectionError("connection reset")

    with pytest.raises(RetryStrategyError):
        strategy.retry(StandardRetryPolicy(), block)
    assert tries == [0.0]
    assert bucket.tokens(clock.wall()) == 1.0


@pytest.mark.parametrize(
    ("max_time", "max_wait_time", "per", "backoff"),
    [(3, 100, 5, 1), (None, 10, 10.03, 9.99)],
    ids=["past max_time", "past the deadline"],
)
def test_a_retry_waiting_for_a_rate_token_does_not_start_late(
    max_time: float | None, max_wait_time: float, per: float, backoff: float
) -> None:
    clock = VirtualClock()
    calls: list[float] = []
    strategy = StandardRetryStrategy(
        max_attempts=5, max_time=max_time, backoff=FixedDelay(backoff), clock=clock
    )
    waiter = W(
        throttled(clock, calls),
        clock=clock,
        rate_limit=RateLimiter(1, per=per),
        retry=strategy,
    )
    with pytest.raises(WaiterError) as caught:
        waiter.wait({}, max_wait_time=max_wait_time, max_attempts=1)
    assert calls == [0.0]
    [attempt] = caught.value.result.history
    assert attempt.retries == () and attempt.retry_stopped == "max_time"
    assert attempt.error_type == "ThrottlingException"


def test_a_retry_not_made_for_want_of_a_rate_token_is_not_recorded() -> None:
    clock = VirtualClock()
    calls: list[float] = []
    bucket = StandardRetryTokenBucket(
        capacity=100, refill_units_per_second=0, circuit_breaker=True
    )
    strategy = StandardRetryStrategy(
        backoff=FixedDelay(1), token_bucket=bucket, clock=clock
    )
    waiter = W(
        throttled(clock, calls),
        clock=clock,
        rate_limit=RateLimiter(1, per=20),
        retry=strategy,
    )
    with pytest.raises(WaiterError) as caught:
        waiter.wait({}, max_wait_time=15)
    assert calls == [0.0]
    attempt = caught.value.result.history[-1]
    assert attempt.retries == () and attempt.retry_stopped == "max_time"
    assert attempt.error_type == "ThrottlingException"

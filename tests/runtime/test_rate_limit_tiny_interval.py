"""A tiny `per` / `interval`, or a huge gap between readings, never overflows a rate limit.

`limit_rate` counts the whole intervals since the bucket's timestamp only up to
`burst_limit` (that many refill any bucket), so a quotient that overflows to inf
(`RateLimiter(1, per=5e-324)`, `interval=1e-300` after a wall-clock gap) gives a
full refill instead of an `OverflowError` inside `wait()`; every other result is
the one the uncapped count gives. The retry token bucket, whose waits are
`cost / refill_units_per_second`, refuses a refill rate so slow that an empty
bucket would take more than `MAX_SECONDS` to refill. All on the virtual clock.
"""

from __future__ import annotations

import math
import random
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from waitable import RateLimiter, limit_rate
from waitable.custom import custom_waiter, path, success
from waitable.rate_limit import TOLERANCE
from waitable.retry import (
    RetryAttemptsExceededError,
    StandardRetryPolicy,
    StandardRetryStrategy,
    StandardRetryTokenBucket,
)
from waitable.seconds import MAX_SECONDS
from waitable.testing import VirtualClock

from .harness import ServiceError

TINY = [5e-324, sys.float_info.min, 1e-300, 1e-200, 1e-30]
WALL = 1_700_000_000.0


def thing_waiter() -> Any:
    return custom_waiter(
        "Thing", acceptors=[success(path("status") == "ok")], min_delay=2, max_delay=120
    )


@pytest.mark.parametrize("per", TINY)
def test_a_waiter_with_a_tiny_per_waits_as_without_a_limit(per: float) -> None:
    replies = iter([{"status": "pending"}] * 3 + [{"status": "ok"}])
    clock = VirtualClock(wall_start=WALL)
    limiter = RateLimiter(1, per=per)
    waiter = thing_waiter()(
        lambda request: next(replies), clock=clock, rate_limit=limiter
    )
    result = waiter.wait({}, max_wait_time=300)
    assert len(result.history) == 4
    assert clock.now() == pytest.approx(2 + 2 + 2, abs=20)  # only the backoff waited


@pytest.mark.parametrize("per", TINY)
def test_a_tiny_per_grants_every_call_and_never_overflows(per: float) -> None:
    limiter = RateLimiter(3, per=per)
    now = 0.0
    for gap in [0.0, 0.0, 0.0, 1e-9, 1.0, WALL, 1e300, 0.0]:
        now += gap
        assert limiter.try_acquire(now) == 0.0
    assert limiter.bucket is not None


@pytest.mark.parametrize("interval", TINY)
def test_limit_rate_with_a_tiny_interval_refills_after_a_wall_clock_gap(
    interval: float,
) -> None:
    allowed, bucket, limiter = limit_rate(
        (0, 0.0), refill_rate=2, interval=interval, burst_limit=5, now=WALL
    )
    assert allowed
    assert bucket == (4, WALL)
    assert limiter.refilled_tokens == 5
    assert limiter.next_refill_at == WALL + interval


def test_a_huge_gap_between_finite_readings_refills_instead_of_overflowing() -> None:
    allowed, bucket, limiter = limit_rate(
        (0, -1e308), refill_rate=1, interval=1.0, burst_limit=3, now=1e308
    )
    assert (allowed, bucket, limiter.refilled_tokens) == (True, (2, 1e308), 3)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"interval": 0}, "interval must be more than 0 seconds"),
        ({"interval": -5e-324}, "interval must be more than 0 seconds"),
        ({"interval": float("inf")}, "interval must be a finite number"),
    ],
)
def test_the_existing_refusals_stand(kwargs: dict[str, Any], match: str) -> None:
    with pytest.raises(ValueError, match=match):
        limit_rate(None, **kwargs)
    with pytest.raises(ValueError, match=match.replace("interval", "per")):
        RateLimiter(1, kwargs["interval"])


def reference(
    tokens: int,
    updated_at: float,
    refill_rate: int,
    interval: float,
    burst: int,
    cost: int,
    now: float,
) -> tuple[bool, tuple[int, float], int]:
    """Seed 002's rule with an uncapped count of whole intervals (inf allowed)."""
    quotient = (now - updated_at + TOLERANCE) / interval
    intervals = math.inf if math.isinf(quotient) else math.floor(quotient)
    gained = intervals * refill_rate
    after = max(tokens, min(tokens + gained, burst)) if gained > 0 else tokens
    after = int(after)
    paid = cost if after >= cost else 0
    return paid > 0, (after - paid, now if after > tokens else updated_at), after


INTERVALS = st.one_of(
    st.sampled_from(TINY),
    st.floats(5e-324, 1e-3, allow_subnormal=True),
    st.floats(1e-3, 1e6),
)
READINGS = st.one_of(
    st.floats(-1e308, 1e308, allow_nan=False, allow_infinity=False),
    st.floats(0, 4e9),
)


@settings(max_examples=300, deadline=None)
@given(
    tokens=st.integers(0, 20),
    updated_at=READINGS,
    gap=st.one_of(st.floats(0, 10), READINGS.map(abs)),
    refill_rate=st.integers(1, 5),
    interval=INTERVALS,
    burst=st.integers(1, 20),
    cost=st.integers(1, 20),
)
def test_limit_rate_never_overflows_and_agrees_with_the_uncapped_count(
    tokens: int,
    updated_at: float,
    gap: float,
    refill_rate: int,
    interval: float,
    burst: int,
    cost: int,
) -> None:
    cost = min(cost, burst)
    now = updated_at + gap
    if not math.isfinite(now):
        now = updated_at
    allowed, bucket, limiter = limit_rate(
        (tokens, updated_at),
        refill_rate=refill_rate,
        interval=interval,
        burst_limit=burst,
        cost=cost,
        now=now,
    )
    expected_allowed, expected_bucket, after = reference(
        tokens, updated_at, refill_rate, interval, burst, cost, now
    )
    assert (allowed, bucket) == (expected_allowed, expected_bucket)
    assert limiter.tokens_after_refill == after
    assert 0 <= bucket[0] <= max(tokens, burst)


@settings(max_examples=100, deadline=None)
@given(
    per=INTERVALS,
    calls=st.integers(1, 5),
    gaps=st.lists(st.one_of(st.floats(0, 1.0), st.floats(0, 1e12)), max_size=20),
)
def test_a_rate_limiter_never_overflows_whatever_its_per(
    per: float, calls: int, gaps: list[float]
) -> None:
    limiter = RateLimiter(calls, per=per)
    now = WALL
    for gap in gaps:
        now += gap
        wait = limiter.try_acquire(now)
        assert 0.0 <= wait <= per + 1e-6 * max(1.0, now)


# --- the retry token bucket: the same family ----------------------------------------


@pytest.mark.parametrize("rate", [5e-324, 1e-300, 1e-12, 500 / MAX_SECONDS / 2])
def test_a_retry_bucket_too_slow_to_ever_refill_is_refused(rate: float) -> None:
    with pytest.raises(ValueError, match="refill_units_per_second=.* is too slow"):
        StandardRetryTokenBucket(refill_units_per_second=rate)
    # A circuit breaker never asks to wait, so any rate >= 0 will do.
    StandardRetryTokenBucket(refill_units_per_second=rate, circuit_breaker=True)


def test_the_slowest_retry_bucket_accepted_asks_for_waits_a_clock_can_take() -> None:
    rate = 10 / MAX_SECONDS * 1.000001
    bucket = StandardRetryTokenBucket(
        capacity=10, retry_cost=10, timeout_retry_cost=10, refill_units_per_second=rate
    )
    clock = VirtualClock()
    strategy = StandardRetryStrategy(
        max_attempts=3,
        token_bucket=bucket,
        clock=clock,
        rng=random.Random(0),
    )

    def block() -> Any:
        raise ServiceError("ThrottlingException")

    with pytest.raises(RetryAttemptsExceededError):
        strategy.retry(StandardRetryPolicy(), block)
    # The second retry waited for the whole capacity to come back: under 100 years.
    assert 0 < clock.now() <= 2 * MAX_SECONDS + 40

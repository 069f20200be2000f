"""Shared token buckets and rate limiters see one clock, the wall clock, whether
the wait runs on the monotonic clock (`wait`) or on the wall clock (`poll_once`).

They were fed each wait's own clock: after one `poll_once` (wall seconds, ~1.7e9)
a bucket never refilled from `wait()`'s monotonic readings, and two hosts sharing
a stored limiter with different uptimes starved the one with the smaller uptime.
The virtual clocks here read a monotonic time far from their wall time, as real
ones do.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from waitable import RateLimiter
from waitable.custom import custom_waiter, path, success
from waitable.retry import StandardRetryStrategy, StandardRetryTokenBucket
from waitable.testing import VirtualClock

from .test_rate_limiter import stored

WALL = 1_700_000_000.0
Thing = custom_waiter(
    "Thing", acceptors=[success(path("status") == "ok")], min_delay=1, max_delay=1
)


class ThrottlingException(Exception):
    """A throttling error, by botocore's code list (retried, retry cost 5)."""


def scripted(clock: VirtualClock, answers: list[Any]) -> Any:
    def client(request: Any) -> Any:
        answer = answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer

    return client


def test_a_bucket_refills_for_wait_after_poll_once_spent_it() -> None:
    clock = VirtualClock(100.0, wall_start=WALL)
    bucket = StandardRetryTokenBucket(
        capacity=10, retry_cost=5, timeout_retry_cost=10, refill_units_per_second=1.0
    )
    answers: list[Any] = []
    waiter = Thing(
        scripted(clock, answers),
        clock=clock,
        retry=StandardRetryStrategy(token_bucket=bucket, max_attempts=3),
    )
    answers[:] = [ThrottlingException(), ThrottlingException(), {"status": "ok"}]
    assert waiter.poll_once(waiter.start({}, max_wait_time=600)).done
    clock.advance(3600)  # an hour: full again
    assert bucket.tokens(clock.wall()) == 10
    answers[:] = [ThrottlingException(), ThrottlingException(), {"status": "ok"}]
    result = waiter.wait({}, max_wait_time=600)
    assert [len(attempt.retries) for attempt in result.history] == [2]
    assert result.history[0].retry_stopped is None  # was "capacity", after 598 s


@pytest.mark.parametrize("driver", ["sync", "async"])
def test_a_limiter_shared_by_wait_and_poll_once_grants_by_one_clock(
    driver: str,
) -> None:
    clock = VirtualClock(100.0, wall_start=WALL)
    limiter = RateLimiter(1, per=10)
    calls: list[float] = []

    def client(request: Any) -> Any:
        calls.append(clock.now())
        return {"status": "ok"}

    async def client_async(request: Any) -> Any:
        return client(request)

    if driver == "sync":
        waiter: Any = Thing(client, clock=clock, rate_limit=limiter)
        assert waiter.poll_once(waiter.start({}, max_wait_time=60)).done
        waiter.wait({}, max_wait_time=60)
        clock.advance(60)
        waiter.wait({}, max_wait_time=60)
    else:

        async def run() -> None:
            waiter = Thing.Async(client_async, clock=clock, rate_limit=limiter)
            assert (await waiter.poll_once(waiter.start({}, max_wait_time=60))).done
            await waiter.wait({}, max_wait_time=60)
            clock.advance(60)
            await waiter.wait({}, max_wait_time=60)

        asyncio.run(run())
    # one call per 10 s: the wait after the poll waits out the interval; an
    # idle minute later the next call goes at once
    assert calls == [100.0, 110.0, 170.0]


def test_hosts_with_different_uptimes_share_a_stored_limiter() -> None:
    store: dict[str, Any] = {}

    host_a = VirtualClock(900_000.0, wall_start=WALL)  # up for ten days
    host_b = VirtualClock(3_600.0, wall_start=WALL)  # up for an hour
    answers = {"status": "ok"}
    on_a = Thing(lambda request: answers, clock=host_a, rate_limit=stored(store, 1))
    on_b = Thing(lambda request: answers, clock=host_b, rate_limit=stored(store, 1))
    on_a.wait({}, max_wait_time=60)
    host_a.advance(600)
    host_b.advance(600)
    result = on_b.wait({}, max_wait_time=60)
    assert result.elapsed == 0  # a token was there: ten minutes passed for both

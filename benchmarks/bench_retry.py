"""What retries and rate limits cost when nothing goes wrong, side by side in one run.

1. A poll with `retry=StandardRetryStrategy()` (no retry happening: the token is
   acquired and returned on every call) against the same poll without it. The
   waiter is DynamoDB-style `TableExists` (`Table.TableStatus == "ACTIVE"`), the
   client a function returning a prepared "CREATING" response, time a
   `VirtualClock`, so what is measured is the engine's bookkeeping per poll.
   Also with `rate_limit=RateLimiter(...)` that always has a token.
2. `limit_rate` per call against a hand-written token-bucket check of the same
   rule (the least such a check can cost in Python), and `RateLimiter.try_acquire`.

Rounds alternate between the contenders and the best round of each counts.
Run: `.venv/bin/python benchmarks/bench_retry.py` (figures vary by machine).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

from waitable import (
    Acceptor,
    AcceptorState,
    Comparator,
    OutputMatcher,
    RateLimiter,
    Waiter,
    WaiterDefinition,
    WaiterMaxAttemptsError,
    limit_rate,
)
from waitable.retry import StandardRetryStrategy
from waitable.testing import VirtualClock

TABLE_EXISTS = WaiterDefinition(
    name="TableExists",
    operation="com.amazonaws.dynamodb#DescribeTable",
    acceptors=(
        Acceptor(
            AcceptorState.SUCCESS,
            OutputMatcher("Table.TableStatus", "ACTIVE", Comparator.STRING_EQUALS),
        ),
    ),
    min_delay=1,
    max_delay=1,
)
CREATING = {"Table": {"TableName": "t", "TableStatus": "CREATING"}}


class TableExistsWaiter(Waiter[Any, Any]):
    definition = TABLE_EXISTS
    operation_method = "describe_table"


def poll_cost(polls: int, **options: Any) -> float:
    """Microseconds per poll of a wait that makes `polls` polls and gives up."""
    clock = VirtualClock()
    waiter = TableExistsWaiter(lambda input: CREATING, clock=clock, **options)
    start = time.perf_counter()
    try:
        waiter.wait({"TableName": "t"}, max_wait_time=10 * polls, max_attempts=polls)
    except WaiterMaxAttemptsError:
        pass
    return (time.perf_counter() - start) / polls * 1e6


def hand_written_bucket(
    bucket: tuple[float, float] | None, now: float
) -> tuple[bool, tuple[float, float]]:
    """The same rule as `limit_rate(refill_rate=1, interval=1.0)`, minimal."""
    if bucket is None:
        return True, (0.0, now)
    tokens, updated = bucket
    whole = int((now - updated) // 1.0)
    if whole:
        tokens, updated = min(1.0, tokens + whole), now
    if tokens >= 1:
        return True, (tokens - 1, updated)
    return False, (tokens, updated)


def per_call(calls: int, check: Callable[[Any, float], Any]) -> float:
    bucket: Any = None
    start = time.perf_counter()
    for i in range(calls):
        answer = check(bucket, i * 0.5)
        bucket = answer[1]
    return (time.perf_counter() - start) / calls * 1e6


def best(rounds: int, contenders: dict[str, Callable[[], float]]) -> dict[str, float]:
    results = {name: float("inf") for name in contenders}
    for _ in range(rounds):
        for name, run in contenders.items():
            results[name] = min(results[name], run())
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--polls", type=int, default=2000)
    parser.add_argument("--calls", type=int, default=200_000)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()

    polls = best(
        args.rounds,
        {
            "without retry": lambda: poll_cost(args.polls),
            "retry=StandardRetryStrategy()": lambda: poll_cost(
                args.polls, retry=StandardRetryStrategy()
            ),
            "rate_limit=RateLimiter(10**9)": lambda: poll_cost(
                args.polls, rate_limit=RateLimiter(10**9)
            ),
        },
    )
    base = polls["without retry"]
    print(f"1. a poll, {args.polls} polls per wait, best of {args.rounds} rounds")
    for name, micros in polls.items():
        print(f"   {name:32} {micros:7.2f} us/poll   {micros / base:5.2f}x")

    limiter = RateLimiter(10**9)
    calls = best(
        args.rounds,
        {
            "hand-written bucket": lambda: per_call(args.calls, hand_written_bucket),
            "limit_rate": lambda: per_call(
                args.calls, lambda bucket, now: limit_rate(bucket, now=now)[:2]
            ),
            "RateLimiter.try_acquire": lambda: per_call(
                args.calls, lambda bucket, now: (limiter.try_acquire(now), None)
            ),
        },
    )
    base = calls["hand-written bucket"]
    print(f"2. a rate-limit check, {args.calls} calls, best of {args.rounds} rounds")
    for name, micros in calls.items():
        print(f"   {name:32} {micros:7.3f} us/call   {micros / base:5.2f}x")


if __name__ == "__main__":
    main()

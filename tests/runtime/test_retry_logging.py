"""Each retry of a poll's call is logged at DEBUG as it happens, naming the waiter,
the poll (attempt) and the try, why it is retried and after what backoff, or
why the retry its policy asked for is not made.

Before, a call's retries showed only in its poll's line, written once the call
had ended: with retries backing off up to 20 s each, DEBUG said nothing for a
minute. On the virtual clock.
"""

from __future__ import annotations

import logging

import pytest

from waitable.retry import StandardRetryStrategy, StandardRetryTokenBucket

from .harness import DRIVERS, THING_EXISTS, ServiceError


@pytest.mark.parametrize("driver", sorted(DRIVERS))
def test_every_retry_and_the_stop_are_logged_before_the_polls_line(
    driver: str, caplog: pytest.LogCaptureFixture
) -> None:
    throttled = ServiceError("ThrottlingException")
    steps = [{"status": "pending"}, throttled, throttled, throttled]
    with caplog.at_level(logging.DEBUG, logger="waitable"):
        run = DRIVERS[driver](
            THING_EXISTS,
            steps,
            waiter_kwargs={"retry": StandardRetryStrategy(max_attempts=3)},
            max_wait_time=600,
        )
    assert run.error is not None and len(run.calls) == 4
    lines = [r.getMessage() for r in caplog.records if r.name == "waitable"]
    retried = [line for line in lines if "retry 2 after" in line or "try 2" in line]
    assert retried[0].startswith(
        "waiter ThingExists attempt 2: try 1 raised ThrottlingException "
        "(Throttling); retry 2 after a "
    )
    assert (
        "waiter ThingExists attempt 2: try 3 raised ThrottlingException "
        "(Throttling); not retried (max_attempts)"
    ) in lines
    first_retry = lines.index(retried[0])
    polls_line = next(i for i, line in enumerate(lines) if "attempt 2 at" in line)
    assert first_retry < polls_line
    assert sum("; retry " in line for line in lines) == 2


def test_nothing_is_formatted_without_debug(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger="waitable"):
        DRIVERS["sync"](
            THING_EXISTS,
            [ServiceError("ThrottlingException"), {"status": "success"}],
            waiter_kwargs={"retry": StandardRetryStrategy()},
            max_wait_time=600,
        )
    assert not any("retry 2 after" in r.getMessage() for r in caplog.records)


def test_a_retry_the_bucket_cannot_pay_is_logged_as_not_made(
    caplog: pytest.LogCaptureFixture,
) -> None:
    bucket = StandardRetryTokenBucket(
        capacity=10,
        retry_cost=10,
        timeout_retry_cost=10,
        refill_units_per_second=0,
        circuit_breaker=True,
    )
    throttled = ServiceError("ThrottlingException")
    with caplog.at_level(logging.DEBUG, logger="waitable"):
        run = DRIVERS["sync"](
            THING_EXISTS,
            [throttled],
            waiter_kwargs={"retry": StandardRetryStrategy(token_bucket=bucket)},
            max_wait_time=600,
        )
    assert run.error is not None and len(run.calls) == 2
    lines = [r.getMessage() for r in caplog.records if r.name == "waitable"]
    assert (
        "waiter ThingExists attempt 1: try 2 raised ThrottlingException "
        "(Throttling); not retried (capacity)"
    ) in lines

"""`StandardRetryStrategy.retry` logs its ending at INFO in its own words.

It logged the engine's line for a wait instead: "waiter retry succeeded after 1
attempt(s)" for a block that took three tries, and on failure "waiter retry
stopped: the operation raised TimeoutError, which acceptors do not judge ...
the retries of this poll's call stopped ...", an error about acceptors and polls
that the caller never sees (it gets `RetryAttemptsExceededError`). Now one INFO
line: how many tries succeeded, or the very error raised. On the virtual clock.
"""

from __future__ import annotations

import asyncio
import logging

import pytest

from waitable.retry import (
    RetryStrategyError,
    StandardRetryPolicy,
    StandardRetryStrategy,
)
from waitable.testing import VirtualClock


def infos(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [
        record.getMessage()
        for record in caplog.records
        if record.name == "waitable" and record.levelno == logging.INFO
    ]


def run(kind: str, fail_first: int) -> str:
    """Retry a block that times out `fail_first` times; its value, or it raises."""
    strategy = StandardRetryStrategy(clock=VirtualClock())
    tries: list[int] = []

    def block() -> str:
        tries.append(1)
        if len(tries) <= fail_first:
            raise TimeoutError("the connection timed out")
        return "done"

    async def block_async() -> str:
        return block()

    if kind == "sync":
        return strategy.retry(StandardRetryPolicy(), block)
    return asyncio.run(strategy.retry_async(StandardRetryPolicy(), block_async))


@pytest.mark.parametrize("kind", ["sync", "async"])
def test_a_success_is_one_line_counting_the_tries(
    kind: str, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO, logger="waitable"):
        assert run(kind, fail_first=2) == "done"
    (line,) = infos(caplog)
    assert line.startswith("retry succeeded after 3 tries in ")


@pytest.mark.parametrize("kind", ["sync", "async"])
def test_a_failure_is_one_line_the_error_raised(
    kind: str, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO, logger="waitable"):
        with pytest.raises(RetryStrategyError) as caught:
            run(kind, fail_first=5)
    assert infos(caplog) == [str(caught.value)]
    assert "acceptor" not in str(caught.value)

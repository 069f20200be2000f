"""`delay_before_first_attempt` waits the backoff's delays in order, each drawn once.

The first check waits the backoff's delay for retry 1, the second its delay for
retry 2, and so on: seed 002's delayed checks are `delay_before` 10, 20, 30, 40,
50 ms for attempts 1 to 5 (one rule, one value per attempt), and seed 003's loop
asks `Delay(attempt)` once per attempt. So a delayed wait makes the checks an
undelayed wait makes after its first one, at the same times, from the same draws.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from waitable import WaiterMaxAttemptsError, WaiterTimeoutError
from waitable.backoff import (
    Backoff,
    DecorrelatedJitter,
    ExponentialFullJitter,
    ExponentialHalfJitter,
    FixedDelayWithJitter,
    IncrementalDelay,
    RetryContext,
    SmithyBackoff,
)
from waitable.custom import custom_waiter, path, success
from waitable.testing import VirtualClock

ACCEPTORS = [success(path("status") == "done")]


class Recorder:
    """A backoff recording what it is asked: attempt n waits n × 10 s."""

    def __init__(self) -> None:
        self.asked: list[tuple[int, float | None]] = []

    def __call__(self, retry: RetryContext) -> float:
        self.asked.append((retry.attempt, retry.previous_delay))
        return retry.attempt * 10.0


def build(delayed: bool, backoff: Backoff, **settings: Any) -> Any:
    return custom_waiter(
        "Build",
        acceptors=ACCEPTORS,
        delay_before_first_attempt=delayed,
        backoff=backoff,
        **settings,
    )


def starts(
    waiter_class: Any, polls: int, seed: int = 0, max_wait_time: float = 100_000
) -> list[float]:
    """When the checks of a wait that is never done begin (at most `polls` of them)."""
    clock = VirtualClock()
    seen: list[float] = []

    def check() -> Any:
        seen.append(clock.now())
        return {"status": "running"}

    waiter = waiter_class(check, clock=clock, rng=random.Random(seed))
    with pytest.raises((WaiterMaxAttemptsError, WaiterTimeoutError)):
        waiter.wait(max_wait_time=max_wait_time, max_attempts=polls)
    return seen


def test_each_retry_is_asked_once_and_in_order() -> None:
    recorder = Recorder()
    seen = starts(build(True, recorder), polls=4)
    assert recorder.asked == [(1, None), (2, 10.0), (3, 20.0), (4, 30.0)]
    assert seen == [10.0, 30.0, 60.0, 100.0]


def test_the_async_class_asks_the_same() -> None:
    recorder = Recorder()
    clock = VirtualClock()
    seen: list[float] = []

    async def check() -> Any:
        seen.append(clock.now())
        return {"status": "done" if len(seen) == 3 else "running"}

    Build = build(True, recorder)
    asyncio.run(Build.Async(check, clock=clock).wait(max_wait_time=1000))
    assert recorder.asked == [(1, None), (2, 10.0), (3, 20.0)]
    assert seen == [10.0, 30.0, 60.0]


def test_a_saved_wait_resumed_poll_by_poll_asks_the_same() -> None:
    recorder = Recorder()
    clock = VirtualClock(wall_start=1000)
    waiter = build(True, recorder)(lambda: {"status": "running"}, clock=clock)
    saved = waiter.start(max_wait_time=1000, seed=1)
    delays = [saved.next_delay]
    for _ in range(3):
        step = waiter.poll_once(saved)
        assert step.state is not None and step.next_delay is not None
        saved = step.state
        delays.append(step.next_delay)
    assert delays == [10.0, 20.0, 30.0, 40.0]
    assert [attempt for attempt, _ in recorder.asked] == [1, 2, 3, 4]


STRATEGIES: list[Backoff] = [
    SmithyBackoff(),
    ExponentialFullJitter(),
    ExponentialHalfJitter(),
    DecorrelatedJitter(),
    FixedDelayWithJitter(),
    IncrementalDelay(),
]


@settings(max_examples=120, deadline=None)
@given(
    strategy=st.sampled_from(STRATEGIES),
    seed=st.integers(0, 2**32 - 1),
    polls=st.integers(1, 8),
    min_delay=st.integers(1, 10),
)
def test_a_delayed_wait_checks_when_an_undelayed_one_checks_again(
    strategy: Backoff, seed: int, polls: int, min_delay: int
) -> None:
    bounds = {"min_delay": min_delay, "max_delay": 120}
    delayed = starts(build(True, strategy, **bounds), polls, seed)
    undelayed = starts(build(False, strategy, **bounds), polls + 1, seed)
    assert delayed == undelayed[1:]

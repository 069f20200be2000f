"""A poller's `timeout` bounds when checks start, not when they answer.

Seed 002 has no deadline: a check's answer is its attempt's outcome, and a limit
is consulted only after a failed attempt, to decide whether to try again. So a
check that starts before the timeout and answers `True` after it is a success,
on the sync and asyncio drivers alike (neither cuts a started check off).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from waitable.flow import START_TOLERANCE
from waitable.poller import FINAL_CHECK_TIME, Poller, PollerState, PollStatus, Ready
from waitable.testing import VirtualClock


def sync_check(
    clock: VirtualClock, durations: list[float], met_at: int | None, starts: list[float]
) -> Callable[[], Any]:
    """A check taking `durations[i]` virtual seconds on call i, met on call `met_at`."""

    def check() -> Any:
        starts.append(clock.now())
        clock.advance(durations[(len(starts) - 1) % len(durations)])
        return Ready(len(starts)) if len(starts) == met_at else False

    return check


def async_check(
    clock: VirtualClock, durations: list[float], met_at: int | None, starts: list[float]
) -> Callable[[], Awaitable[Any]]:
    """`sync_check`'s twin that awaits its duration on the clock."""

    async def check() -> Any:
        starts.append(clock.now())
        await clock.sleep_async(durations[(len(starts) - 1) % len(durations)])
        return Ready(len(starts)) if len(starts) == met_at else False

    return check


def test_a_check_that_answers_true_after_the_timeout_is_a_success() -> None:
    clock = VirtualClock()
    starts: list[float] = []
    poller: Poller[Any] = Poller(
        sync_check(clock, [1.5], 1, starts), max_attempts=None, timeout=1, clock=clock
    )
    state = poller.poll()
    assert state.status is PollStatus.OK and state.fulfilled
    assert state.value == 1 and state.attempt_num == 1
    assert state.history[0].fulfilled
    assert starts == [0.0] and clock.now() == pytest.approx(1.5)
    assert poller.poll_or_raise() == 1


def test_the_async_driver_lets_the_check_answer_too() -> None:
    clock = VirtualClock()
    starts: list[float] = []
    poller: Poller[Any] = Poller(
        async_check(clock, [1.5], 1, starts), max_attempts=None, timeout=1, clock=clock
    )
    state = asyncio.run(poller.poll_async())
    assert state.status is PollStatus.OK and state.value == 1
    assert starts == [0.0] and clock.now() == pytest.approx(1.5)


def test_poll_once_counts_a_late_true_on_both_drivers() -> None:
    clock = VirtualClock()
    starts: list[float] = []
    sync: Poller[Any] = Poller(
        sync_check(clock, [3.0], 1, starts), timeout=1, clock=clock
    )
    assert sync.poll_once().status is PollStatus.OK

    clock = VirtualClock()
    poller: Poller[Any] = Poller(
        async_check(clock, [3.0], 1, []), timeout=1, clock=clock
    )
    assert asyncio.run(poller.poll_once_async()).status is PollStatus.OK


def test_the_check_at_the_deadline_may_take_longer_than_the_final_check_time() -> None:
    clock = VirtualClock()
    starts: list[float] = []
    # Checks at 0, 0.3, 0.6, 0.9 and 1.0 (the deadline); the last takes 1 s.
    durations = [0.0, 0.0, 0.0, 0.0, 10 * FINAL_CHECK_TIME]
    poller: Poller[Any] = Poller(
        sync_check(clock, durations, 5, starts),
        delay=0.3,
        max_attempts=None,
        timeout=1,
        clock=clock,
    )
    state = poller.poll()
    assert state.status is PollStatus.OK and state.value == 5
    assert starts[-1] == pytest.approx(1.0)


def test_a_late_false_ends_the_session_without_another_check() -> None:
    clock = VirtualClock()
    starts: list[float] = []
    poller: Poller[Any] = Poller(
        sync_check(clock, [1.5], None, starts),
        max_attempts=None,
        timeout=1,
        clock=clock,
    )
    state = poller.poll()
    assert state.status is PollStatus.RETRIES_EXHAUSTED and state.attempt_num == 1
    assert starts == [0.0]


def test_a_late_exception_propagates_as_one_in_time_does() -> None:
    clock = VirtualClock()

    def check() -> bool:
        clock.advance(2)
        raise KeyError("gone")

    with pytest.raises(KeyError):
        Poller(check, timeout=1, clock=clock).poll()
    clock = VirtualClock()
    retried = Poller(check, timeout=1, retry_on=(KeyError,), clock=clock).poll()
    assert retried.status is PollStatus.RETRIES_EXHAUSTED and retried.attempt_num == 1


def run_both(
    durations: list[float], met_at: int | None, delay: float, timeout: float
) -> tuple[PollerState, list[float], PollerState, list[float]]:
    """The same session on the sync and the asyncio driver: states and check starts."""
    clock = VirtualClock()
    sync_starts: list[float] = []
    sync_state = Poller(
        sync_check(clock, durations, met_at, sync_starts),
        delay=delay,
        max_attempts=None,
        timeout=timeout,
        clock=clock,
    ).poll()
    clock = VirtualClock()
    async_starts: list[float] = []
    async_state = asyncio.run(
        Poller(
            async_check(clock, durations, met_at, async_starts),
            delay=delay,
            max_attempts=None,
            timeout=timeout,
            clock=clock,
        ).poll_async()
    )
    return sync_state, sync_starts, async_state, async_starts


@settings(max_examples=150, deadline=None)
@given(
    durations=st.lists(st.integers(0, 300).map(lambda cs: cs / 100), min_size=1),
    met_at=st.none() | st.integers(1, 12),
    delay=st.integers(1, 100).map(lambda cs: cs / 100),
    timeout=st.integers(1, 300).map(lambda cs: cs / 100),
)
def test_a_check_started_in_time_decides_its_attempt_on_both_drivers(
    durations: list[float], met_at: int | None, delay: float, timeout: float
) -> None:
    sync_state, starts, async_state, async_starts = run_both(
        durations, met_at, delay, timeout
    )
    assert sync_state == async_state and starts == async_starts
    assert all(start <= timeout + START_TOLERANCE for start in starts)
    assert sync_state.attempt_num == len(starts)
    if met_at is not None and len(starts) >= met_at:
        # The met check was made (it started in time): it decides, however late it answered.
        assert sync_state.status is PollStatus.OK and sync_state.value == met_at
        assert len(starts) == met_at
    else:
        assert sync_state.status is PollStatus.RETRIES_EXHAUSTED

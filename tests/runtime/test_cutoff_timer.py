"""The async driver's cut-off: one timer per wait, cancelling only a poll, undone afterwards.

Real-clock cases use cut-offs that are already due (the loop's next turn) or an
hour away, so nothing sleeps; `VirtualClock` cases run its timers in virtual time.
"""

from __future__ import annotations

import asyncio
import random
from functools import partial
from collections.abc import Generator
from time import monotonic
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from waitable import AsyncWaiter, RetryImmediately, SystemClock, WaiterResult
from waitable.actions import Action, CutOff, Outcome, Poll, Returned, Sleep
from waitable.definition import AcceptorState
from waitable.drivers import run_async
from waitable.testing import VirtualClock

from .harness import THING_EXISTS, waiter_class

HOUR = 3600.0


def scripted_flow(
    actions: list[Action], received: list[Any]
) -> Generator[Action, Outcome | None, WaiterResult[Any]]:
    """A stand-in engine: yields `actions` in turn, noting what the driver sends back."""
    for action in actions:
        received.append((yield action))
    return WaiterResult("Scripted", AcceptorState.SUCCESS, None, 0, 0.0, ())


def counting_timers(loop: asyncio.AbstractEventLoop) -> list[asyncio.TimerHandle]:
    """Record every `call_at` timer the loop makes from now on."""
    made: list[asyncio.TimerHandle] = []
    call_at = loop.call_at

    def counted(when: float, callback: Any, *args: Any, **kwargs: Any) -> Any:
        handle = call_at(when, callback, *args, **kwargs)
        made.append(handle)
        return handle

    loop.call_at = counted  # type: ignore[method-assign,assignment]
    return made


@pytest.mark.parametrize("polls", [1, 2, 5, 20])
def test_one_timer_serves_every_poll_of_a_wait_on_the_real_clock(polls: int) -> None:
    calls = 0

    async def client(input: Any) -> dict[str, str]:
        nonlocal calls
        calls += 1
        await asyncio.sleep(0)
        return {"status": "success" if calls == polls else "pending"}

    async def main() -> list[asyncio.TimerHandle]:
        timers = counting_timers(asyncio.get_running_loop())
        waiter = waiter_class(THING_EXISTS, AsyncWaiter)(
            client, backoff=RetryImmediately()
        )
        result = await waiter.wait({}, max_wait_time=HOUR)
        assert result.attempts == polls
        return timers

    timers = asyncio.run(main())
    assert len(timers) == 1
    assert timers[0].cancelled()  # called off when the wait ended


def test_a_poll_with_another_cut_off_gets_a_timer_of_its_own() -> None:
    received: list[Any] = []

    async def client() -> str:
        return "out"

    async def main() -> list[asyncio.TimerHandle]:
        timers = counting_timers(asyncio.get_running_loop())
        deadline = monotonic() + HOUR
        actions: list[Action] = [
            Poll(1, HOUR, HOUR, cut_at=deadline),
            Sleep(0),
            Poll(2, HOUR, HOUR, cut_at=deadline),
            Sleep(0),
            Poll(3, 0.0, 2.0, cut_at=deadline + 2),  # the final poll
        ]
        await run_async(scripted_flow(actions, received), client, SystemClock())
        return timers

    timers = asyncio.run(main())
    # Each timer is set `cut_at - now()` from the loop's own reading of the time,
    # taken a moment later: under load the two readings are microseconds apart.
    assert [t.when() for t in timers][1] - timers[0].when() == pytest.approx(
        2, abs=0.01
    )
    assert received == [Returned("out"), None, Returned("out"), None, Returned("out")]


def test_a_hanging_request_is_cut_off_and_the_task_uncancelled() -> None:
    cleaned: list[bool] = []
    received: list[Any] = []

    async def hang() -> None:
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            cleaned.append(True)
            raise

    async def main() -> None:
        task = asyncio.current_task()
        assert task is not None
        due = monotonic()  # already due: the timer goes off at the loop's next turn
        await run_async(
            scripted_flow([Poll(1, 0.0, 0.0, cut_at=due)], received),
            hang,
            SystemClock(),
        )
        assert task.cancelling() == 0  # the cut-off's cancellation was undone
        await asyncio.sleep(0)  # and none is left pending for the next await

    asyncio.run(main())
    assert cleaned == [True]
    assert received == [CutOff()]


def test_cancelling_the_waiter_during_a_poll_is_not_taken_for_a_cut_off() -> None:
    async def hang(input: Any) -> None:
        await asyncio.Event().wait()

    async def main() -> None:
        timers = counting_timers(asyncio.get_running_loop())
        waiter = waiter_class(THING_EXISTS, AsyncWaiter)(hang, rng=random.Random(1))
        task = asyncio.create_task(waiter.wait({}, max_wait_time=HOUR))
        for _ in range(3):
            await asyncio.sleep(0)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert len(timers) == 1 and timers[0].cancelled()
        assert asyncio.all_tasks() == {asyncio.current_task()}

    asyncio.run(main())


async def _keep_a_cancel_request() -> asyncio.Task[Any]:
    """Cancel the running task and catch it without `uncancel()`: a request it keeps."""
    task = asyncio.current_task()
    assert task is not None
    task.cancel()
    try:
        await asyncio.sleep(0)
    except asyncio.CancelledError:
        pass
    assert task.cancelling() == 1
    return task


def test_a_task_that_kept_a_cancel_request_still_has_its_polls_cut_off() -> None:
    # The driver counts the task's cancel requests once, as the wait begins: the
    # cut-offs of later polls are still its own, undone, and not raised.
    received: list[Any] = []

    async def hang() -> None:
        await asyncio.Event().wait()

    async def main() -> None:
        task = await _keep_a_cancel_request()
        due = monotonic()
        actions: list[Action] = [
            Poll(1, 0.0, 0.0, cut_at=due),
            Sleep(0),
            Poll(2, 0.0, 0.0, cut_at=due),
            Sleep(0),
            Poll(3, 0.0, 0.0, cut_at=due),
        ]
        await run_async(scripted_flow(actions, received), hang, SystemClock())
        assert task.cancelling() == 1  # the kept request, and none of the cut-offs'

    asyncio.run(main())
    assert received == [CutOff(), None, CutOff(), None, CutOff()]


def test_a_task_that_kept_a_cancel_request_is_still_cancelled_during_a_poll() -> None:
    polls = 0

    async def hang(input: Any) -> None:
        nonlocal polls
        polls += 1
        await asyncio.Event().wait()

    async def main() -> None:
        async def wait() -> None:
            await _keep_a_cancel_request()
            waiter = waiter_class(THING_EXISTS, AsyncWaiter)(hang, rng=random.Random(1))
            await waiter.wait({}, max_wait_time=HOUR)

        task = asyncio.create_task(wait())
        while polls == 0:
            await asyncio.sleep(0)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert task.cancelling() == 2
        assert asyncio.all_tasks() == {asyncio.current_task()}

    asyncio.run(main())


def test_the_timer_going_off_between_polls_cancels_nothing() -> None:
    """On VirtualClock: the cut-off at 5 passes while the wait sleeps, the next poll is whole."""
    clock = VirtualClock()
    received: list[Any] = []

    async def client() -> str:
        await clock.sleep_async(1)
        return "out"

    async def main() -> None:
        actions: list[Action] = [
            Poll(1, 5.0, 5.0, cut_at=5.0),
            Sleep(6),  # past the cut-off of the first poll
            Poll(2, 5.0, 5.0, cut_at=12.0),
        ]
        await run_async(scripted_flow(actions, received), client, clock)

    asyncio.run(main())
    assert received == [Returned("out"), None, Returned("out")]
    assert clock.now() == 8


@settings(max_examples=25, deadline=None)
@given(
    st.lists(st.floats(0.5, 50), min_size=1, max_size=15),
    st.lists(st.floats(0.5, 50), max_size=15),
)
def test_virtual_timers_run_at_their_time_unless_called_off(
    kept: list[float], called_off: list[float]
) -> None:
    clock = VirtualClock()
    ran: list[tuple[float, float]] = []

    async def main() -> None:
        for delay in kept:
            clock.call_later(
                delay, partial(lambda d: ran.append((d, clock.now())), delay)
            )
        for delay in called_off:
            clock.call_later(delay, lambda: ran.append((-1, -1))).cancel()
        await clock.sleep_async(100)  # every timer is due before this wakes

    asyncio.run(main())
    assert sorted(ran) == sorted((d, d) for d in kept)


def test_a_pending_timer_lets_virtual_time_jump_to_it() -> None:
    """A task stuck on something else is reached by the timer, as a stuck request is cut off."""
    clock = VirtualClock()

    async def main() -> None:
        unstuck = asyncio.Event()
        clock.call_later(30, unstuck.set)
        await unstuck.wait()
        assert clock.now() == 30

    asyncio.run(main())


def test_called_off_timers_do_not_pile_up_on_a_long_lived_clock() -> None:
    clock = VirtualClock()

    async def client(input: Any) -> dict[str, str]:
        return {"status": "success"}

    async def main() -> None:
        clock.call_later(HOUR / 2, lambda: None)  # an earlier timer stays at the front
        waiter = waiter_class(THING_EXISTS, AsyncWaiter)(client, clock=clock)
        for _ in range(2000):
            await waiter.wait({}, max_wait_time=HOUR)

    asyncio.run(main())
    # Each wait leaves one called-off cut-off timer an hour ahead; they are dropped.
    assert len(clock._sleepers) < 200


class Throttled(Exception):
    """A client error raised before any awaitable exists."""


@pytest.mark.parametrize("virtual", [False, True])
def test_a_call_that_raises_before_awaiting_is_an_outcome_like_any_other(
    virtual: bool,
) -> None:
    """The checked async call returns the client's awaitable itself, so an error the
    call raises at once reaches the driver directly: it is judged, not lost."""
    calls = 0

    def client(input: Any) -> Any:
        nonlocal calls
        calls += 1
        if calls < 3:
            raise Throttled("slow down")

        async def answer() -> dict[str, str]:
            return {"status": "success"}

        return answer()

    clock = VirtualClock() if virtual else None
    waiter = waiter_class(THING_EXISTS, AsyncWaiter)(
        client,
        clock=clock,
        retry_on=(Throttled,),
        backoff=RetryImmediately(),
    )
    result = asyncio.run(waiter.wait({}, max_wait_time=HOUR))
    assert [a.state for a in result.history] == [
        AcceptorState.RETRY,
        AcceptorState.RETRY,
        AcceptorState.SUCCESS,
    ]
    assert [a.error_type for a in result.history][:2] == ["Throttled", "Throttled"]

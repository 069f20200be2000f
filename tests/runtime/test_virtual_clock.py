"""`waitable.testing.VirtualClock`: time moves only when something sleeps."""

from __future__ import annotations

import asyncio
import math
from typing import Any

import pytest

from waitable.testing import VirtualClock


def test_sync_sleep_and_advance_move_time_at_once() -> None:
    clock = VirtualClock(start=100)
    assert clock.now() == 100
    clock.sleep(2.5)
    clock.advance(7)
    assert clock.now() == 109.5
    assert clock.now() == 109.5  # reading does not move it


@pytest.mark.parametrize("bad", [-1, float("nan"), "1", math.inf, -math.inf])
def test_nonsense_durations_are_refused(bad: Any) -> None:
    """Infinity too: time would stand at infinity for good, past every deadline."""
    clock = VirtualClock(100)
    for move in (clock.sleep, clock.advance, lambda s: clock.call_later(s, print)):
        with pytest.raises(ValueError, match="cannot sleep or advance"):
            move(bad)
    with pytest.raises(ValueError, match="cannot sleep or advance"):
        asyncio.run(clock.sleep_async(bad))
    assert clock.now() == 100


def test_async_sleepers_wake_in_order_of_their_deadlines() -> None:
    async def main() -> list[tuple[str, float]]:
        clock = VirtualClock()
        woke: list[tuple[str, float]] = []

        async def sleeper(name: str, seconds: float) -> None:
            await clock.sleep_async(seconds)
            woke.append((name, clock.now()))

        await asyncio.gather(
            sleeper("c", 30), sleeper("a", 10), sleeper("b", 20), sleeper("z", 0)
        )
        return woke

    assert asyncio.run(main()) == [("z", 0), ("a", 10), ("b", 20), ("c", 30)]


def test_a_cancelled_sleeper_does_not_move_time() -> None:
    async def main() -> None:
        clock = VirtualClock()
        task = asyncio.create_task(clock.sleep_async(1000))
        await asyncio.sleep(0)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        await clock.sleep_async(1)
        assert clock.now() == 1

    asyncio.run(main())


def test_advance_wakes_async_sleepers_that_are_due() -> None:
    async def main() -> None:
        clock = VirtualClock()
        task = asyncio.create_task(clock.sleep_async(5))
        await asyncio.sleep(0)
        clock.advance(5)
        await asyncio.wait_for(task, timeout=1)
        assert clock.now() == 5

    asyncio.run(main())


def test_two_clocks_in_one_loop_do_not_wait_on_each_other() -> None:
    async def main() -> None:
        first, second = VirtualClock(), VirtualClock()
        await asyncio.gather(first.sleep_async(3), second.sleep_async(50))
        assert (first.now(), second.now()) == (3, 50)
        leftover = asyncio.create_task(first.sleep_async(10))
        await asyncio.sleep(0)
        leftover.cancel()
        await second.sleep_async(1)
        assert (first.now(), second.now()) == (3, 51)

    asyncio.run(main())


def test_a_clock_survives_its_event_loop() -> None:
    clock = VirtualClock()
    asyncio.run(clock.sleep_async(2))
    asyncio.run(clock.sleep_async(3))
    assert clock.now() == 5


def test_a_sleeper_of_a_closed_loop_does_not_stop_the_clock_in_the_next() -> None:
    """A loop closed with a task asleep on the clock left its future in the queue;
    waking it raised "Event loop is closed" inside the idle watcher, the other
    sleepers due then were dropped, and the next loop's waits hung."""
    clock = VirtualClock()
    old = asyncio.new_event_loop()
    old.create_task(clock.sleep_async(5))
    old.run_until_complete(asyncio.sleep(0))
    old.close()  # with that sleeper still pending

    async def main() -> list[float]:
        woke: list[float] = []

        async def sleeper(seconds: float) -> None:
            await clock.sleep_async(seconds)
            woke.append(clock.now())

        await asyncio.wait_for(asyncio.gather(sleeper(5), sleeper(7)), timeout=5)
        return woke

    assert asyncio.run(main()) == [5, 7]

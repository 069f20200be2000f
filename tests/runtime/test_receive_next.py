"""Seed 002's `receive_next` for asyncio queues (`waitable.receive`), on virtual time."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from waitable import WaiterConfigurationError
from waitable.receive import DEFAULT_RECEIVE_TIMEOUT, ReceiveTimeoutError, receive_next
from waitable.testing import VirtualClock


async def put_after(
    clock: VirtualClock, delay: float, queue: asyncio.Queue[Any], item: Any
) -> None:
    await clock.sleep_async(delay)
    queue.put_nowait(item)


def test_seed_002_messages_already_sent_come_back_in_order() -> None:
    async def scenario() -> list[str]:
        queue: asyncio.Queue[str] = asyncio.Queue()
        queue.put_nowait("hello")
        queue.put_nowait("hi")
        return await receive_next(queue, 2)

    assert asyncio.run(scenario()) == ["hello", "hi"]


def test_messages_sent_later_within_the_timeout_are_received() -> None:
    clock = VirtualClock()

    async def scenario() -> list[int]:
        queue: asyncio.Queue[int] = asyncio.Queue()
        for n, delay in enumerate([0.02, 0.05, 0.09]):
            asyncio.create_task(put_after(clock, delay, queue, n))
        return await receive_next(queue, 3, clock=clock)

    assert asyncio.run(scenario()) == [0, 1, 2]
    assert clock.now() == pytest.approx(0.09)


def test_the_timeout_counts_over_all_messages_and_keeps_what_arrived() -> None:
    clock = VirtualClock()

    async def scenario() -> tuple[ReceiveTimeoutError, asyncio.Queue[int]]:
        queue: asyncio.Queue[int] = asyncio.Queue()
        asyncio.create_task(put_after(clock, 0.06, queue, 1))
        late = asyncio.create_task(put_after(clock, 0.12, queue, 2))
        with pytest.raises(ReceiveTimeoutError) as caught:
            await receive_next(queue, 2, clock=clock)
        await late
        return caught.value, queue

    error, queue = asyncio.run(scenario())
    assert error.received == [1] and error.wanted == 2
    assert isinstance(error, TimeoutError)
    assert "received 1 of 2 message(s) within 0.1s" in str(error)
    assert clock.now() == pytest.approx(0.12)
    assert queue.get_nowait() == 2  # the get that timed out took nothing


def test_the_default_timeout_is_seed_002s_100_ms() -> None:
    clock = VirtualClock()

    async def scenario() -> None:
        with pytest.raises(ReceiveTimeoutError):
            await receive_next(asyncio.Queue(), clock=clock)

    asyncio.run(scenario())
    assert DEFAULT_RECEIVE_TIMEOUT == 0.1 and clock.now() == pytest.approx(0.1)


def test_no_timeout_waits_as_long_as_it_takes() -> None:
    clock = VirtualClock()

    async def scenario() -> list[str]:
        queue: asyncio.Queue[str] = asyncio.Queue()
        asyncio.create_task(put_after(clock, 3600, queue, "late"))
        return await receive_next(queue, timeout=None, clock=clock)

    assert asyncio.run(scenario()) == ["late"]
    assert clock.now() == 3600


@pytest.mark.parametrize(
    "count, timeout, message",
    [(0, 0.1, "count"), (True, 0.1, "count"), (1, -1, "timeout"), (1, "1s", "timeout")],
)
def test_bad_arguments_are_refused(count: Any, timeout: Any, message: str) -> None:
    async def scenario() -> None:
        await receive_next(asyncio.Queue(), count, timeout=timeout)

    with pytest.raises(WaiterConfigurationError, match=message):
        asyncio.run(scenario())

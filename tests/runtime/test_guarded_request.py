"""A request awaited in the waiter's own task on a clock with timers (`VirtualClock`).

The first cancellation reaches the request; any further one (the waiter's task
cancelled again, or the cut-off timer) waits until the request's cleanup has run
to its end, whatever the cleanup awaits (bare yields or futures), and then ends
the wait. No task is made for the request, so none can be left behind.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from waitable import WaiterTimeoutError
from waitable.testing import VirtualClock

from .harness import THING_EXISTS, AsyncWaiter, waiter_class


async def _future_step() -> None:
    """One cleanup step that waits on a future (closing a connection's transport)."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[None] = loop.create_future()
    loop.call_soon(future.set_result, None)
    await future


async def _cleanup(steps: list[bool]) -> None:
    for on_future in steps:
        if on_future:
            await _future_step()
        else:
            await asyncio.sleep(0)


@settings(max_examples=60, deadline=None)
@given(
    steps=st.lists(st.booleans(), max_size=6),
    cancels=st.integers(min_value=1, max_value=4),
    turns_between=st.integers(min_value=0, max_value=3),
    returns=st.booleans(),
)
def test_a_request_cancelled_repeatedly_finishes_its_cleanup(
    steps: list[bool], cancels: int, turns_between: int, returns: bool
) -> None:
    cleaned: list[bool] = []

    async def request(input: Any) -> Any:
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            await _cleanup(steps)
            cleaned.append(True)
            if returns:
                return {"status": "success"}  # a request that swallows it
            raise

    waiter = waiter_class(THING_EXISTS, AsyncWaiter)(request, clock=VirtualClock())

    async def main() -> None:
        task = asyncio.ensure_future(waiter.wait({}, max_wait_time=300))
        for _ in range(3):
            await asyncio.sleep(0)
        for _ in range(cancels):
            task.cancel()
            for _ in range(turns_between):
                await asyncio.sleep(0)
        if not returns:
            with pytest.raises(asyncio.CancelledError):
                await task
        elif cancels == 1:  # the request took its one cancellation
            assert (await task).attempts == 1
        else:  # a later cancellation ends the wait unless it came after the end
            try:
                assert (await task).attempts == 1
            except asyncio.CancelledError:
                pass
        assert asyncio.all_tasks() == {asyncio.current_task()}, "a task leaked"

    asyncio.run(main())
    assert cleaned == [True]


@pytest.mark.parametrize("on_future", [False, True])
def test_cancelled_during_the_cleanup_of_a_cut_off_request_is_a_cancellation(
    on_future: bool,
) -> None:
    clock = VirtualClock()
    cleaned: list[bool] = []
    cut_off = asyncio.Event()

    async def request(input: Any) -> Any:
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            cut_off.set()
            await _cleanup([on_future] * 4)
            cleaned.append(True)
            raise

    waiter = waiter_class(THING_EXISTS, AsyncWaiter)(request, clock=clock)

    async def main() -> None:
        task = asyncio.ensure_future(waiter.wait({}, max_wait_time=10))
        await cut_off.wait()  # the deadline's timer cut the request off
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert asyncio.all_tasks() == {asyncio.current_task()}, "a task leaked"

    asyncio.run(main())
    assert cleaned == [True]
    assert clock.now() == 10


def test_a_cut_off_request_whose_cleanup_waits_on_futures_is_a_timeout() -> None:
    clock = VirtualClock()
    cleaned: list[bool] = []

    async def request(input: Any) -> Any:
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            await _cleanup([True, False, True])
            cleaned.append(True)
            raise

    waiter = waiter_class(THING_EXISTS, AsyncWaiter)(request, clock=clock)
    with pytest.raises(WaiterTimeoutError):
        asyncio.run(waiter.wait({}, max_wait_time=10))
    assert cleaned == [True]


def test_a_request_that_is_a_future_not_a_coroutine_is_awaited() -> None:
    clock = VirtualClock()

    def request(input: Any) -> asyncio.Future[Any]:
        future = asyncio.get_running_loop().create_future()
        future.get_loop().call_soon(future.set_result, {"status": "success"})
        return future

    waiter = waiter_class(THING_EXISTS, AsyncWaiter)(request, clock=clock)
    result = asyncio.run(waiter.wait({}, max_wait_time=10))
    assert result.attempts == 1

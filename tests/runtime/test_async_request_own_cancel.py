"""A request that takes its own cancellation back (its `asyncio.timeout` or
`wait_for` went off, or aiohttp's connect timeout, and it carried on, as an SDK's
retry does) left the guard holding every later cancellation: the waiter's
deadline, the caller's `task.cancel()` and the request's own later timeouts were
all held until the request ended by itself, so a hung retry hung the wait for good.

The requests here do what `asyncio.timeout` does when it goes off inside the
request (cancel the task, catch the `CancelledError`, `uncancel()`), without
real time."""

from __future__ import annotations

import asyncio
import random
import threading
from typing import Any

import pytest

from waitable import AsyncWaiter, WaiterTimeoutError
from waitable.testing import VirtualClock

from .harness import THING_EXISTS, waiter_class


async def _own_timeout_goes_off() -> None:
    """What an expiring `asyncio.timeout` inside the request does: cancel the
    task, then take the cancellation back once it arrived."""
    task = asyncio.current_task()
    assert task is not None
    task.cancel()
    try:
        await asyncio.sleep(0)
    except asyncio.CancelledError:
        task.uncancel()
    else:  # pragma: no cover - the cancellation always arrives at that await
        raise AssertionError("the request's own cancellation never came")


def _run(main: Any) -> None:
    """`asyncio.run(main())` in a thread given 10 s: a held cancellation hangs the
    loop's shutdown too, and a hung test should fail, not stop the suite."""
    failures: list[BaseException] = []

    def run() -> None:
        try:
            asyncio.run(main())
        except BaseException as error:  # handed to the test's thread
            failures.append(error)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(10)
    assert not thread.is_alive(), "the wait hung: a cancellation was held for good"
    if failures:
        raise failures[0]


def _waiter(clock: VirtualClock, call: Any) -> Any:
    cls = waiter_class(THING_EXISTS, AsyncWaiter)
    return cls(call, clock=clock, rng=random.Random(1))


def test_the_deadline_cuts_off_a_request_that_hangs_after_its_own_timeout() -> None:
    async def call(input: Any) -> Any:
        await _own_timeout_goes_off()
        await asyncio.Event().wait()  # its retry hangs

    async def main() -> None:
        clock = VirtualClock()
        task = asyncio.create_task(_waiter(clock, call).wait({}, max_wait_time=30))
        done, _ = await asyncio.wait({task}, timeout=5)  # a hang, not a slow test
        assert done, "the wait ignored its deadline"
        with pytest.raises(WaiterTimeoutError, match="cut off at the deadline"):
            task.result()
        assert clock.now() == 30
        assert task.cancelling() == 0

    _run(main)


def test_the_caller_can_cancel_a_request_that_carried_on_after_its_own_timeout() -> (
    None
):
    reached = asyncio.Event()

    async def call(input: Any) -> Any:
        await _own_timeout_goes_off()
        reached.set()
        await asyncio.Event().wait()

    async def main() -> None:
        clock = VirtualClock()
        task = asyncio.create_task(_waiter(clock, call).wait({}, max_wait_time=300))
        await reached.wait()
        task.cancel()
        done, _ = await asyncio.wait({task}, timeout=5)
        assert done, "the caller's cancellation was held"
        assert task.cancelled()

    _run(main)


def test_a_cancellation_that_comes_while_the_request_handles_its_own_is_held() -> None:
    """The caller cancels while the request is still handling its own timeout:
    whose cancellation the request then takes back cannot be told from the count,
    so the guard holds the caller's until the request ends, and the wait ends
    cancelled then (never a cancellation delivered twice)."""
    outcome: list[str] = []

    async def call(input: Any) -> Any:
        task = asyncio.current_task()
        assert task is not None
        task.cancel()  # its own timeout goes off
        try:
            await asyncio.sleep(0)
        except asyncio.CancelledError:
            task.cancel()  # the caller cancels now, during the handling
            await asyncio.sleep(0)
            task.uncancel()  # the request takes its own back
        await asyncio.sleep(0)
        outcome.append("finished")
        return {"status": "pending"}

    async def main() -> None:
        clock = VirtualClock()
        task = asyncio.create_task(_waiter(clock, call).wait({}, max_wait_time=300))
        done, _ = await asyncio.wait({task}, timeout=5)
        assert done
        assert task.cancelled() and outcome == ["finished"]

    _run(main)


def test_cleanup_after_the_callers_cancel_gets_no_second_cancellation() -> None:
    """The caller's cancellation reaches the request; its cleanup runs an
    `asyncio.timeout` that goes off (held: the request is being cancelled) and
    takes its own cancellation back. That drop is no sign the request took the
    caller's back: the rest of the cleanup runs, and the wait ends cancelled."""
    log: list[str] = []

    async def call(input: Any) -> Any:
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            task = asyncio.current_task()
            assert task is not None
            try:
                task.cancel()  # the cleanup's own timeout goes off...
                await asyncio.sleep(0)  # (held: no CancelledError here)
                task.uncancel()  # ... and its __aexit__ takes it back
                await asyncio.sleep(0)  # the rest of the cleanup
                log.append("cleanup finished")
            except asyncio.CancelledError:
                log.append("cleanup interrupted")
            raise

    async def main() -> None:
        clock = VirtualClock()
        task = asyncio.create_task(_waiter(clock, call).wait({}, max_wait_time=300))
        for _ in range(5):
            await asyncio.sleep(0)
        task.cancel()
        done, _ = await asyncio.wait({task}, timeout=5)
        assert done and task.cancelled()
        assert log == ["cleanup finished"]

    _run(main)

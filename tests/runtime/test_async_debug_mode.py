"""Async waits under asyncio's debug mode (`python -X dev`, `PYTHONASYNCIODEBUG=1`,
`asyncio.run(..., debug=True)`): the request's cut-off timer was the driver's
awaitable object itself, which debug mode refuses as a callback ("coroutines
cannot be used with call_at()"), so every async wait on the real clock failed."""

from __future__ import annotations

import asyncio
import random
import warnings
from typing import Any

from waitable import AsyncWaiter, SavedWait
from waitable.testing import VirtualClock

from .harness import SUCCESS, THING_EXISTS, Script, waiter_class

PENDING = {"status": "pending"}
DONE = {"status": "success"}


def _run_in_debug_mode(main: Any) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a never-awaited coroutine would show here
        return asyncio.run(main(), debug=True)


def test_an_async_wait_on_the_real_clock_runs_in_debug_mode() -> None:
    cls = waiter_class(THING_EXISTS, AsyncWaiter)

    async def call(input: Any) -> Any:
        await asyncio.sleep(0)
        return DONE

    async def main() -> Any:
        return await cls(call).wait({}, max_wait_time=30)

    result = _run_in_debug_mode(main)
    assert result.state is SUCCESS and result.attempts == 1


def test_async_poll_once_on_the_real_clock_runs_in_debug_mode() -> None:
    cls = waiter_class(THING_EXISTS, AsyncWaiter)

    async def call(input: Any) -> Any:
        return PENDING

    async def main() -> Any:
        waiter = cls(call)
        saved = waiter.start({}, max_wait_time=600)
        return await waiter.poll_once(SavedWait.from_json(saved.to_json()))

    step = _run_in_debug_mode(main)
    assert not step.done and step.next_delay is not None


def test_a_virtual_clock_wait_with_cut_offs_runs_in_debug_mode() -> None:
    async def main() -> Any:
        clock = VirtualClock()
        script = Script(clock, [PENDING, PENDING, DONE])
        waiter = waiter_class(THING_EXISTS, AsyncWaiter)(
            script.call_async, clock=clock, rng=random.Random(1)
        )
        return await waiter.wait({}, max_wait_time=300)

    result = _run_in_debug_mode(main)
    assert result.state is SUCCESS and result.attempts == 3

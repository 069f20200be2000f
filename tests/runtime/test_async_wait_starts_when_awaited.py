"""`AsyncWaiter.wait` returns the engine's coroutine: nothing starts until it is awaited.

The deadline and the first poll count from the first step of the awaited
coroutine, not from the call; bad arguments are raised when it is awaited, as
from an `async def`; on Python 3.12+ `inspect` still sees a coroutine function.
"""

from __future__ import annotations

import asyncio
import inspect
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from waitable import WaiterConfigurationError, WaiterTimeoutError
from waitable.testing import VirtualClock

from .harness import THING_EXISTS, AsyncWaiter, waiter_class


@settings(max_examples=30, deadline=None)
@given(
    later=st.floats(min_value=0, max_value=1000),
    max_wait_time=st.floats(min_value=1, max_value=100),
)
def test_the_deadline_counts_from_when_the_wait_is_awaited(
    later: float, max_wait_time: float
) -> None:
    clock = VirtualClock()
    starts: list[float] = []

    async def never_done(input: Any) -> Any:
        starts.append(clock.now())
        return {"status": "creating"}

    waiter = waiter_class(THING_EXISTS, AsyncWaiter)(never_done, clock=clock)
    pending = waiter.wait({}, max_wait_time=max_wait_time, min_delay=1)
    clock.advance(later)
    with pytest.raises(WaiterTimeoutError) as caught:
        asyncio.run(pending)
    assert starts[0] == later
    assert max(starts) <= later + max_wait_time + 0.05
    assert caught.value.result.history[0].started_at == 0
    assert clock.now() >= later + max_wait_time - 1


def test_bad_arguments_are_raised_when_awaited_not_when_called() -> None:
    waiter = waiter_class(THING_EXISTS, AsyncWaiter)(
        lambda input: asyncio.sleep(0), clock=VirtualClock()
    )
    pending = waiter.wait({})  # no max_wait_time anywhere
    assert inspect.iscoroutine(pending)
    with pytest.raises(WaiterConfigurationError, match="max_wait_time"):
        asyncio.run(pending)


def test_wait_is_a_coroutine_function_to_inspect_from_python_3_12() -> None:
    """3.12 added `inspect.markcoroutinefunction`; on 3.11 `wait` is a plain
    function returning a coroutine (the README says so), which awaits the same."""
    marked = inspect.iscoroutinefunction(waiter_class(THING_EXISTS, AsyncWaiter).wait)
    assert marked == (sys.version_info >= (3, 12))

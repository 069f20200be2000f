"""An `async def` `on_attempt` hook was called and its coroutine dropped: the
hook never ran, and the only sign was a "never awaited" RuntimeWarning. The
engine calls hooks between polls without awaiting them, so such a hook is refused
when the waiter is made, and a hook that returns an awaitable anyway (a partial
of a coroutine function, set after construction) fails the wait at once."""

from __future__ import annotations

import asyncio
import functools
import random
import warnings
from typing import Any

import pytest

from waitable import AsyncWaiter, Attempt, Waiter, WaiterConfigurationError
from waitable.testing import VirtualClock

from .harness import THING_EXISTS, Script, waiter_class

PENDING = {"status": "pending"}
DONE = {"status": "success"}


async def async_hook(attempt: Attempt[Any]) -> None:
    raise AssertionError("never runs")


class AsyncCallableHook:
    async def __call__(self, attempt: Attempt[Any]) -> None:
        raise AssertionError("never runs")


@pytest.mark.parametrize("base", [Waiter, AsyncWaiter])
@pytest.mark.parametrize("hook", [async_hook, AsyncCallableHook()])
def test_an_async_hook_is_refused_when_the_waiter_is_made(base: Any, hook: Any) -> None:
    with pytest.raises(WaiterConfigurationError, match="on_attempt is async"):
        waiter_class(THING_EXISTS, base)(lambda input: DONE, on_attempt=hook)


def test_a_hook_that_is_not_callable_is_refused() -> None:
    with pytest.raises(WaiterConfigurationError, match="on_attempt must be a callable"):
        waiter_class(THING_EXISTS)(lambda input: DONE, on_attempt="print")


def test_a_hook_returning_an_awaitable_fails_the_wait_without_a_warning() -> None:
    clock = VirtualClock()
    script = Script(clock, [PENDING, DONE])
    waiter = waiter_class(THING_EXISTS, AsyncWaiter)(
        script.call_async, clock=clock, rng=random.Random(1)
    )
    waiter.on_attempt = functools.partial(async_hook)  # not a coroutine function

    async def main() -> None:
        await waiter.wait({}, max_wait_time=60)

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(WaiterConfigurationError, match="ThingExists: on_attempt"):
            asyncio.run(main())
    assert len(script.calls) == 1


def test_a_plain_hook_still_sees_every_attempt() -> None:
    seen: list[int] = []
    clock = VirtualClock()
    script = Script(clock, [PENDING, DONE])
    waiter = waiter_class(THING_EXISTS)(
        script,
        clock=clock,
        rng=random.Random(1),
        on_attempt=lambda attempt: seen.append(attempt.number),
    )
    waiter.wait({}, max_wait_time=60)
    assert seen == [1, 2]

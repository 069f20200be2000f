"""The two drivers of the engine: they call the client and sleep, nothing more.

Both run the same `flow` generator (see `waitable.flow`), so the sync and asyncio
waiters cannot drift apart. The async driver cuts a request off when its
`Poll.timeout` runs out, and a cancelled waiter task leaves no task behind.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Awaitable, Callable, Generator
from typing import Any

from .clock import Clock, SystemClock
from .errors import WaiterConfigurationError
from .actions import Action, CutOff, Late, Outcome, Poll, Raised, Returned, Sleep
from .results import WaiterResult

__all__ = [
    "call_async",
    "call_sync",
    "poll_with_cutoff",
    "run_async",
    "run_sync",
]

Flow = Generator[Action, Outcome | None, WaiterResult[Any]]


def run_sync(
    actions: Flow,
    poll: Callable[[], Any],
    clock: Clock,
    polls: Callable[[], int] | None = None,
) -> Any:
    """Drive `actions` with blocking calls and `clock.sleep`; returns the `WaiterResult`.

    With `polls` (a reading of the state's poll count) it runs one turn for
    `poll_once` instead: a pause left from a saved state is skipped (the caller
    chose when to poll), sleeps within the poll (retry backoff, rate limit) are
    slept, and the first sleep after a poll was recorded is returned, not slept.
    """
    start = polls() if polls is not None else 0
    try:
        action = next(actions)
        if polls is not None and isinstance(action, Sleep):
            action = actions.send(None)
        while True:
            if isinstance(action, Sleep):
                if polls is not None and polls() > start:
                    return action.seconds
                clock.sleep(action.seconds)
                action = actions.send(None)
            else:
                action = actions.send(call_sync(action, poll, clock))
    except StopIteration as stop:
        result: WaiterResult[Any] = stop.value
        return result
    finally:
        actions.close()


def call_sync(action: Poll, poll: Callable[[], Any], clock: Clock) -> Outcome:
    """Make one blocking call, unless the clock already reads past `action.start_by`."""
    if clock.now() > action.start_by:
        return Late()
    try:
        return Returned(poll())
    except WaiterConfigurationError:
        raise
    except Exception as error:
        return Raised(error)


async def run_async(
    actions: Flow,
    poll: Callable[[], Awaitable[Any]],
    clock: Clock,
    polls: Callable[[], int] | None = None,
) -> Any:
    """`run_sync` for asyncio: awaited calls and `clock.sleep_async`."""
    start = polls() if polls is not None else 0
    try:
        action = next(actions)
        if polls is not None and isinstance(action, Sleep):
            action = actions.send(None)
        while True:
            if isinstance(action, Sleep):
                if polls is not None and polls() > start:
                    return action.seconds
                await clock.sleep_async(action.seconds)
                action = actions.send(None)
            else:
                action = actions.send(await call_async(action, poll, clock))
    except StopIteration as stop:
        result: WaiterResult[Any] = stop.value
        return result
    finally:
        actions.close()


async def call_async(
    action: Poll, poll: Callable[[], Awaitable[Any]], clock: Clock
) -> Outcome:
    """Await one call, unless the clock already reads past `action.start_by`."""
    if clock.now() > action.start_by:
        return Late()
    return await poll_with_cutoff(poll, clock, action.timeout)


async def poll_with_cutoff(
    poll: Callable[[], Awaitable[Any]], clock: Clock, timeout: float
) -> Outcome:
    """Await one request, cancelling it if it is still running after `timeout` seconds.

    On the real clock this is `asyncio.timeout` (the loop reads the same monotonic
    time); on any other clock the request races `clock.sleep_async(timeout)`.
    """
    if isinstance(clock, SystemClock) or timeout == math.inf:
        scope = asyncio.timeout(None if timeout == math.inf else timeout)
        try:
            async with scope:
                output = await poll()
        except WaiterConfigurationError:
            raise
        except Exception as error:
            return CutOff() if scope.expired() else Raised(error)
        return Returned(output)
    request = asyncio.ensure_future(poll())
    alarm = asyncio.ensure_future(clock.sleep_async(timeout))
    try:
        await asyncio.wait((request, alarm), return_when=asyncio.FIRST_COMPLETED)
    finally:
        await _settle(request, alarm)
    if request.cancelled():
        return CutOff()
    failure = request.exception()
    if failure is None:
        return Returned(request.result())
    if isinstance(failure, WaiterConfigurationError) or not isinstance(
        failure, Exception
    ):
        raise failure
    return Raised(failure)


async def _settle(*tasks: asyncio.Future[Any]) -> None:
    """Cancel `tasks` and wait until all are done, even if this task is cancelled again.

    A second cancellation during the wait is held back until every task has
    finished, then re-raised, so no request task outlives its waiter.
    """
    for task in tasks:
        task.cancel()
    cancelled = False
    while not all(task.done() for task in tasks):
        try:
            await asyncio.wait(tasks)
        except asyncio.CancelledError:
            cancelled = True  # already cancelled once: let their cleanup finish
    if cancelled:
        raise asyncio.CancelledError

"""The two drivers of the engine: they call the client and sleep, nothing more.

Both run the same `flow` generator (see `waitable.flow`), so the sync and asyncio
waiters cannot drift apart. The async driver cuts a request off when its
`Poll.timeout` runs out, and a cancelled waiter task leaves no task behind.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Generator
from typing import Any

from .clock import Clock, SystemClock
from .errors import WaiterConfigurationError
from .flow import Action, CutOff, Outcome, Raised, Returned, Sleep
from .results import WaiterResult

__all__ = ["run_async", "run_sync"]

Flow = Generator[Action, Outcome | None, WaiterResult[Any]]


def run_sync(actions: Flow, poll: Callable[[], Any], clock: Clock) -> WaiterResult[Any]:
    """Drive `actions` with blocking calls and `clock.sleep`."""
    try:
        action = next(actions)
        while True:
            if isinstance(action, Sleep):
                clock.sleep(action.seconds)
                action = actions.send(None)
                continue
            try:
                outcome: Outcome = Returned(poll())
            except WaiterConfigurationError:
                raise
            except Exception as error:
                outcome = Raised(error)
            action = actions.send(outcome)
    except StopIteration as stop:
        result: WaiterResult[Any] = stop.value
        return result
    finally:
        actions.close()


async def run_async(
    actions: Flow, poll: Callable[[], Awaitable[Any]], clock: Clock
) -> WaiterResult[Any]:
    """Drive `actions` with awaited calls and `clock.sleep_async`."""
    try:
        action = next(actions)
        while True:
            if isinstance(action, Sleep):
                await clock.sleep_async(action.seconds)
                action = actions.send(None)
            else:
                action = actions.send(
                    await poll_with_cutoff(poll, clock, action.timeout)
                )
    except StopIteration as stop:
        result: WaiterResult[Any] = stop.value
        return result
    finally:
        actions.close()


async def poll_with_cutoff(
    poll: Callable[[], Awaitable[Any]], clock: Clock, timeout: float
) -> Outcome:
    """Await one request, cancelling it if it is still running after `timeout` seconds.

    On the real clock this is `asyncio.timeout` (the loop reads the same monotonic
    time); on any other clock the request races `clock.sleep_async(timeout)`.
    """
    if isinstance(clock, SystemClock):
        scope = asyncio.timeout(timeout)
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
        for task in (request, alarm):
            task.cancel()
        await asyncio.wait((request, alarm))
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

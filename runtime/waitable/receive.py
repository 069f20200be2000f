"""Seed 002's `receive_next` for asyncio: the next messages of a queue, within a timeout.

`await receive_next(queue, 2, timeout=0.1)` returns the next two items of an
`asyncio.Queue` in order, or raises `ReceiveTimeoutError` (a `TimeoutError`
holding what did arrive) when the timeout, counted over all of them, runs out.
Handy in tests, with `waitable.testing.VirtualClock` as `clock=`, to collect
what `poll_once` callbacks scheduled. A get that times out takes no item.
"""

from __future__ import annotations

import asyncio
import math
from typing import Any, TypeVar

from .clock import Clock, SystemClock
from .drivers import poll_with_cutoff
from .errors import WaiterConfigurationError
from .actions import CutOff, Late, Raised, Returned
from .options import seconds_option

__all__ = ["DEFAULT_RECEIVE_TIMEOUT", "ReceiveTimeoutError", "receive_next"]

T = TypeVar("T")

#: Seed 002's default timeout: 100 ms.
DEFAULT_RECEIVE_TIMEOUT = 0.1


class ReceiveTimeoutError(TimeoutError):
    """Fewer than the wanted messages arrived in time; `.received` holds those that did."""

    def __init__(self, received: list[Any], wanted: int, timeout: float) -> None:
        super().__init__(
            f"received {len(received)} of {wanted} message(s) within {timeout:g}s; "
            "pass a larger timeout= if they come later"
        )
        self.received = received
        self.wanted = wanted
        self.timeout = timeout


async def receive_next(
    queue: asyncio.Queue[T],
    count: int = 1,
    *,
    timeout: float | None = DEFAULT_RECEIVE_TIMEOUT,
    clock: Clock | None = None,
) -> list[T]:
    """The next `count` items of `queue` in order, all within `timeout` seconds (None: no limit)."""
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise WaiterConfigurationError(
            f"receive_next: count must be an integer >= 1, got {count!r}"
        )
    limit = (
        math.inf
        if timeout is None
        else seconds_option("receive_next", "timeout", timeout)
    )
    clock = SystemClock() if clock is None else clock
    deadline = clock.now() + limit
    received: list[T] = []
    while len(received) < count:
        if not queue.empty():
            received.append(queue.get_nowait())
            continue
        remaining = deadline - clock.now()
        if remaining <= 0:
            raise ReceiveTimeoutError(received, count, limit)
        outcome = await poll_with_cutoff(queue.get, clock, remaining)
        if isinstance(outcome, Returned):
            received.append(outcome.output)
        elif isinstance(outcome, Raised):
            raise outcome.error
        elif isinstance(outcome, (CutOff, Late)):
            raise ReceiveTimeoutError(received, count, limit)
    return received

"""Time control for tests: `VirtualClock`, for our tests and our users'.

Hand it to a waiter as `clock=` and no test sleeps for real: a five-minute wait
runs in milliseconds, and every delay and deadline is exact.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import math

__all__ = ["VirtualClock"]

# Event loops without asyncio's `_ready` queue: jump after this many idle hops.
_FALLBACK_HOPS = 16


def _check(seconds: float) -> None:
    if not isinstance(seconds, (int, float)) or math.isnan(seconds) or seconds < 0:
        raise ValueError(f"cannot sleep or advance by {seconds!r} seconds")


class VirtualClock:
    """A clock whose time moves only when something sleeps on it, or `advance()` is called.

    `sleep(s)` moves time forward by `s` at once. `await sleep_async(s)` suspends
    the task until virtual time reaches `now() + s`; when every task of the event
    loop is waiting, time jumps to the earliest wake-up, so concurrent waiters on
    one clock interleave exactly as they would in real time. Tasks waiting on
    anything but this clock (real timers, sockets) do not hold time back.
    """

    def __init__(self, start: float = 0.0) -> None:
        self._now = float(start)
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._order = itertools.count()
        self._jump: asyncio.Handle | None = None
        self._jump_loop: asyncio.AbstractEventLoop | None = None
        self._hops = 0

    def now(self) -> float:
        """The current virtual time in seconds."""
        return self._now

    def sleep(self, seconds: float) -> None:
        """Move time forward by `seconds` (a blocking sleep that takes no real time)."""
        self.advance(seconds)

    def advance(self, seconds: float) -> None:
        """Move time forward by `seconds` and wake the async sleepers that are due."""
        _check(seconds)
        self._now += seconds
        self._wake_due()

    async def sleep_async(self, seconds: float) -> None:
        """Suspend the calling task until virtual time has moved on by `seconds`."""
        _check(seconds)
        if seconds == 0:
            await asyncio.sleep(0)
            return
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        heapq.heappush(self._sleepers, (self._now + seconds, next(self._order), future))
        self._schedule_jump(loop)
        await future

    def _wake_due(self) -> None:
        while self._sleepers and self._sleepers[0][0] <= self._now:
            future = heapq.heappop(self._sleepers)[2]
            if not future.done():
                future.set_result(None)

    def _drop_cancelled(self) -> None:
        while self._sleepers and self._sleepers[0][2].done():
            heapq.heappop(self._sleepers)

    def _schedule_jump(self, loop: asyncio.AbstractEventLoop) -> None:
        if self._jump is not None and self._jump_loop is loop and not loop.is_closed():
            return
        self._hops = 0
        self._jump_loop = loop
        self._jump = loop.call_soon(self._maybe_jump, loop)

    def _maybe_jump(self, loop: asyncio.AbstractEventLoop) -> None:
        """Jump to the earliest wake-up once nothing else in the loop is ready to run."""
        self._jump = None
        ready = getattr(loop, "_ready", None)
        self._hops += 1
        busy = len(ready) > 0 if ready is not None else self._hops < _FALLBACK_HOPS
        if busy:
            self._jump = loop.call_soon(self._maybe_jump, loop)
            return
        self._hops = 0
        self._drop_cancelled()
        if not self._sleepers:
            return
        self._now = max(self._now, self._sleepers[0][0])
        self._wake_due()
        self._drop_cancelled()
        if self._sleepers:
            self._jump = loop.call_soon(self._maybe_jump, loop)

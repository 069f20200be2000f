"""The clock a waiter reads and sleeps on.

Waiters never call `time` or `asyncio.sleep` directly: they use a `Clock`, so a
test can hand them `waitable.testing.VirtualClock` and a five-minute wait runs in
milliseconds. `now()` is monotonic seconds; only differences between readings mean
anything.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Protocol, TypeAlias

__all__ = [
    "CallLater",
    "CancelEvent",
    "Clock",
    "SystemClock",
    "TimerHandle",
    "sleep_unless_set",
    "wall_reading",
]


class Clock(Protocol):
    """Monotonic time, and sleeping for both kinds of waiter."""

    def now(self) -> float:
        """Seconds on a monotonic clock."""
        ...

    def sleep(self, seconds: float) -> None:
        """Block the calling thread for `seconds`."""
        ...

    async def sleep_async(self, seconds: float) -> None:
        """Suspend the calling task for `seconds`."""
        ...


class CancelEvent(Protocol):
    """What a sync wait's `cancel=` takes: `threading.Event` is one. Set from any
    thread, it ends the wait at its next sleep or poll."""

    def is_set(self) -> bool: ...

    def wait(self, timeout: float | None = None) -> bool: ...


def sleep_unless_set(clock: Clock, seconds: float, event: CancelEvent) -> bool:
    """Sleep `seconds` on `clock`, ending early when `event` is set; True when it
    was set. On the real clock the sleep is the event's own `wait`, so setting it
    from another thread wakes the sleeper at once; another clock (a virtual one)
    sleeps its own way, with the event read before and after."""
    if type(clock) is SystemClock:
        return event.wait(seconds)
    if event.is_set():
        return True
    clock.sleep(seconds)
    return event.is_set()


class TimerHandle(Protocol):
    """A scheduled callback that can be called off (`asyncio.TimerHandle` is one)."""

    def cancel(self) -> None: ...


#: A clock's optional timers: `call_later(seconds, callback)` runs `callback` once
#: that many seconds have passed on the clock. The async driver cuts requests off
#: with them; a clock without them still works (each request races a sleep).
CallLater: TypeAlias = Callable[[float, Callable[[], object]], TimerHandle]


class SystemClock:
    """The real clock: `time.monotonic`, `time.sleep` and `asyncio.sleep`.

    `time.monotonic` is also what asyncio's default event loop reads, so the async
    driver can cut off a request with `asyncio.timeout` on this clock.
    """

    def now(self) -> float:
        """Seconds on `time.monotonic`."""
        return time.monotonic()

    def sleep(self, seconds: float) -> None:
        """`time.sleep(seconds)`."""
        time.sleep(seconds)

    async def sleep_async(self, seconds: float) -> None:
        """`await asyncio.sleep(seconds)`."""
        await asyncio.sleep(seconds)

    def wall(self) -> float:
        """Seconds on `time.time` (the clock processes and hosts share)."""
        return time.time()

    def call_later(self, seconds: float, callback: Callable[[], object]) -> TimerHandle:
        """Run `callback` on the running event loop after `seconds`."""
        return asyncio.get_running_loop().call_later(seconds, callback)


def wall_reading(clock: Clock) -> Callable[[], float]:
    """The wall-clock reading that goes with `clock`: its `wall()` when it has one
    (`SystemClock`, `VirtualClock`), else `time.time`."""
    wall = getattr(clock, "wall", None)
    return wall if callable(wall) else time.time

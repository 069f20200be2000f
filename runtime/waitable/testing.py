"""Time control for tests: `VirtualClock`, for our tests and our users'.

Hand it to a waiter as `clock=` and no test sleeps for real: a five-minute wait
runs in milliseconds, and every delay and deadline is exact.
"""

from __future__ import annotations

import asyncio
import heapq
import math
import weakref
from collections.abc import Callable

__all__ = ["VirtualClock"]

# Event loops without asyncio's `_ready` queue: jump after this many idle hops.
_FALLBACK_HOPS = 16


def _check(seconds: float) -> None:
    """Refuse what would break virtual time: not a number, negative, or infinite
    (time would stand at infinity, past every deadline and timer, for good)."""
    if not isinstance(seconds, (int, float)) or not 0 <= seconds < math.inf:
        raise ValueError(
            f"cannot sleep or advance by {seconds!r} seconds: give a finite, "
            "non-negative number"
        )


class _IdleWatcher:
    """One per event loop: once nothing else is ready to run, every virtual clock jumps.

    A single watcher per loop (not one per clock) so that two clocks in one loop
    never see each other's pending check as work and wait on each other forever.
    """

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.clocks: set[VirtualClock] = set()
        self.handle: asyncio.Handle | None = None
        self.hops = 0

    def watch(self, clock: VirtualClock) -> None:
        self.clocks.add(clock)
        if self.handle is None:
            self.hops = 0
            self.handle = self.loop.call_soon(self.check)

    def check(self) -> None:
        self.handle = None
        self.clocks = {clock for clock in self.clocks if clock._has_sleepers()}
        if not self.clocks:
            return
        ready = getattr(self.loop, "_ready", None)
        self.hops += 1
        busy = len(ready) > 0 if ready is not None else self.hops < _FALLBACK_HOPS
        if not busy:
            self.hops = 0
            for clock in list(self.clocks):
                clock._jump()
        self.handle = self.loop.call_soon(self.check)


_watchers: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _IdleWatcher] = (
    weakref.WeakKeyDictionary()
)


def _watcher(loop: asyncio.AbstractEventLoop) -> _IdleWatcher:
    watcher = _watchers.get(loop)
    if watcher is None:
        watcher = _watchers[loop] = _IdleWatcher(loop)
    return watcher


class _Timer:
    """A callback due at a virtual time (`VirtualClock.call_later`)."""

    __slots__ = ("callback", "clock", "ended")

    def __init__(self, callback: Callable[[], object], clock: VirtualClock) -> None:
        self.callback: Callable[[], object] | None = callback
        self.clock: VirtualClock | None = clock
        self.ended = False

    def done(self) -> bool:
        """True once it has run or been cancelled."""
        return self.ended

    def cancel(self) -> None:
        """Call it off (nothing happens if it has run already)."""
        if not self.ended:
            self.ended = True
            clock, self.clock, self.callback = self.clock, None, None
            if clock is not None:
                clock._forget_cancelled()

    def fire(self) -> None:
        """Run the callback once."""
        callback = self.callback
        self.ended, self.clock, self.callback = True, None, None
        if callback is not None:
            callback()


#: What waits on a virtual time: an async sleeper's future, or a timer.
_Waiting = asyncio.Future[None] | _Timer


def _entries(entry: _Waiting | list[_Waiting]) -> list[_Waiting] | tuple[_Waiting]:
    """The sleepers and timers of one wake-up time, in the order they were added."""
    return entry if type(entry) is list else (entry,)  # type: ignore[return-value]


class VirtualClock:
    """A clock whose time moves only when something sleeps on it, or `advance()` is called.

    `sleep(s)` moves time forward by `s` at once. `await sleep_async(s)` suspends
    the task until virtual time reaches `now() + s`; when every task of the event
    loop is waiting, time jumps to the earliest wake-up, so concurrent waiters on
    one clock interleave exactly as they would in real time; a timer (`call_later`)
    due at the same time as a sleeper fires once the sleeper's task has run. A
    task that never waits (a busy loop of `asyncio.sleep(0)`) holds time still;
    tasks waiting on anything but this clock (real timers, sockets) do not hold it back.
    """

    def __init__(self, start: float = 0.0, *, wall_start: float | None = None) -> None:
        self._now = float(start)
        self._wall_offset = (
            self._now if wall_start is None else float(wall_start)
        ) - self._now
        #: Each wake-up time once (a heap of floats), and what waits for it, in
        #: order: one future or timer, or a list of them (no record per sleeper).
        self._times: list[float] = []
        self._due: dict[float, _Waiting | list[_Waiting]] = {}
        self._size = 0
        self._cancelled = 0
        self._watcher: _IdleWatcher | None = None

    def now(self) -> float:
        """The current virtual time in seconds."""
        return self._now

    def wall(self) -> float:
        """Virtual wall-clock seconds (`wall_start`, default `start`, plus time moved)."""
        return self._now + self._wall_offset

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
        self._add(self._now + seconds, future)
        self._watcher_of(loop).watch(self)
        await future

    def _add(self, when: float, waiting: _Waiting) -> None:
        """Wake `waiting` at `when`, after everything added for that time before it."""
        self._size += 1
        entry = self._due.get(when)
        if entry is None:
            self._due[when] = waiting
            heapq.heappush(self._times, when)
        elif type(entry) is list:
            entry.append(waiting)
        else:
            self._due[when] = [entry, waiting]  # type: ignore[list-item]

    @property
    def _sleepers(self) -> list[_Waiting]:
        """Every sleeper and timer not yet woken or dropped, earliest first."""
        return [w for when in sorted(self._due) for w in _entries(self._due[when])]

    def _watcher_of(self, loop: asyncio.AbstractEventLoop) -> _IdleWatcher:
        """The loop's idle watcher, remembered for the loop this clock last slept in."""
        watcher = self._watcher
        if watcher is None or watcher.loop is not loop:
            watcher = self._watcher = _watcher(loop)
        return watcher

    def call_later(self, seconds: float, callback: Callable[[], object]) -> _Timer:
        """Run `callback` once virtual time has moved on by `seconds`; `.cancel()` it to call it off.

        A pending timer is a wake-up like a sleeper's: when every task waits, time
        may jump to it (a request stuck past its cut-off is cut off).
        """
        _check(seconds)
        timer = _Timer(callback, self)
        self._add(self._now + seconds, timer)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return timer  # no event loop: `advance()` runs it
        self._watcher_of(loop).watch(self)
        return timer

    def _wake_due(self) -> None:
        # Not cached: a timer's callback may call timers off, which may rebuild both.
        while self._times and self._times[0] <= self._now:
            entry = self._due.pop(heapq.heappop(self._times))
            waiting_ones = _entries(entry)
            self._size -= len(waiting_ones)
            for waiting in waiting_ones:
                if not waiting.done():
                    if isinstance(waiting, _Timer):
                        waiting.fire()
                    elif not waiting.get_loop().is_closed():
                        # (a sleeper of a loop closed meanwhile has no one to wake)
                        waiting.set_result(None)

    def _forget_cancelled(self) -> None:
        """Drop called-off timers once they are most of the queue (they never reach its front)."""
        self._cancelled += 1
        if self._cancelled > 64 and self._cancelled * 2 > self._size:
            due: dict[float, _Waiting | list[_Waiting]] = {}
            for when, entry in self._due.items():
                kept = [w for w in _entries(entry) if not w.done()]
                if kept:
                    due[when] = kept if len(kept) > 1 else kept[0]
            self._due, self._times = due, list(due)
            heapq.heapify(self._times)
            self._size = sum(len(_entries(entry)) for entry in due.values())
            self._cancelled = 0

    def _has_sleepers(self) -> bool:
        """Drop woken or cancelled sleepers from the front; True if any sleeper is left."""
        times, due = self._times, self._due
        while times:
            entry = due[times[0]]
            waiting_ones = _entries(entry)
            if not all(waiting.done() for waiting in waiting_ones):
                return True
            del due[heapq.heappop(times)]
            self._size -= len(waiting_ones)
        return False

    def _jump(self) -> None:
        """Move time to the earliest wake-up and wake everything due then.

        Sleepers due then wake first and timers of the same time fire at the next
        jump, once the woken tasks have run: a request whose sleep ends exactly at
        its cut-off timer is answered in time, as the sync driver judges it.
        """
        if self._has_sleepers():
            self._now = max(self._now, self._times[0])
            if not self._wake_sleepers_before_timers():
                self._wake_due()

    def _wake_sleepers_before_timers(self) -> bool:
        """Wake the sleepers of the earliest entry and keep its timers for later, when it
        holds both (what `_has_sleepers` left at the front); False, changing nothing, else.
        """
        when = self._times[0]
        waiting_ones = _entries(self._due[when])
        sleepers = [w for w in waiting_ones if type(w) is not _Timer and not w.done()]
        timers: list[_Waiting] = [
            w for w in waiting_ones if type(w) is _Timer and not w.done()
        ]
        if not (sleepers and timers):
            return False
        self._due[when] = timers if len(timers) > 1 else timers[0]
        self._size -= len(waiting_ones) - len(timers)
        for sleeper in sleepers:
            if isinstance(sleeper, asyncio.Future):
                sleeper.set_result(None)
        return True

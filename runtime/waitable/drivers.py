"""The two drivers of the engine: they call the client and sleep, nothing more.

Both run the same `flow` generator (see `waitable.flow`), so the sync and asyncio
waiters cannot drift apart. The async driver cuts a request off at its
`Poll.cut_at` with one timer per wait (re-armed only for a poll with another
cut-off: the final one), and a cancelled waiter task leaves no task behind.
"""

from __future__ import annotations

import asyncio
import contextvars
import math
from functools import partial
from types import CoroutineType
from time import monotonic
from collections.abc import Awaitable, Callable, Generator
from typing import Any

from .actions import (
    Action,
    Cancel,
    CutOff,
    Late,
    Outcome,
    Poll,
    Raised,
    Returned,
    SavedPause,
    Sleep,
    ReturnedDraft,
    new_returned,
)
from .calls import CUT_OFF
from .clock import (
    CallLater,
    CancelEvent,
    Clock,
    SystemClock,
    TimerHandle,
    sleep_unless_set,
)
from .errors import WaiterConfigurationError
from .results import WaiterResult

__all__ = [
    "call_async",
    "call_sync",
    "poll_with_cutoff",
    "run_async",
    "run_sync",
]

Flow = Generator[Action, Outcome | None, WaiterResult[Any]]

#: `asyncio.sleep` as the driver calls it (one argument).
_sleep: Callable[[float], Awaitable[None]] = asyncio.sleep

#: `run_async` without `input`: the poll takes no argument.
_NO_INPUT: Any = object()


def run_sync(
    actions: Flow,
    poll: Callable[[], Any],
    clock: Clock,
    polls: Callable[[], int] | None = None,
    cancel: CancelEvent | None = None,
) -> Any:
    """Drive `actions` with blocking calls and `clock.sleep`; returns the `WaiterResult`.

    With `polls` (a reading of the state's poll count) it runs one turn for
    `poll_once` instead: a pause left from a saved state (`SavedPause`) is skipped
    (the caller chose when to poll), sleeps within the poll (retry backoff, rate
    limit) are slept, and the first sleep after a poll was recorded is returned,
    not slept. With `cancel`, a set event ends the wait before the next call or
    during a sleep: `Cancel` is thrown into the flow, which raises the error.
    """
    if cancel is not None:
        check_cancel_event(cancel)
    start = polls() if polls is not None else 0
    try:
        action = next(actions)
        if polls is not None and type(action) is SavedPause:
            action = actions.send(None)
        while True:
            if isinstance(action, Sleep):
                if polls is not None and polls() > start:
                    return action.seconds
                if cancel is None:
                    clock.sleep(action.seconds)
                elif sleep_unless_set(clock, action.seconds, cancel):
                    action = actions.throw(Cancel())
                    continue
                action = actions.send(None)
            elif cancel is not None and cancel.is_set():
                action = actions.throw(Cancel())
            else:
                action = actions.send(call_sync(action, poll, clock))
    except StopIteration as stop:
        result: WaiterResult[Any] = stop.value
        return result
    finally:
        actions.close()


def check_cancel_event(cancel: object, owner: str = "") -> None:
    """Refuse a `cancel=` that is not an event, before any request (naming the
    `owner` whose wait was given it, "waiter NAME" or "poller NAME", when there is one).
    """
    if not (
        callable(getattr(cancel, "is_set", None))
        and callable(getattr(cancel, "wait", None))
    ):
        whose = f"{owner}: " if owner else ""
        raise WaiterConfigurationError(
            f"{whose}cancel= takes a threading.Event (anything with is_set() and "
            f"wait(timeout)), not {type(cancel).__name__}; set the event from "
            "another thread to cancel"
        )


def call_sync(action: Poll, poll: Callable[[], Any], clock: Clock) -> Outcome:
    """Make one blocking call, unless the clock already reads past `action.start_by`."""
    if clock.now() > action.start_by:
        return Late()
    try:
        return new_returned(poll())
    except WaiterConfigurationError:
        raise
    except Exception as error:
        return Raised(error)


async def run_async(
    actions: Flow,
    poll: Callable[..., Awaitable[Any]],
    clock: Clock,
    polls: Callable[[], int] | None = None,
    *,
    input: Any = _NO_INPUT,
    awaitable: Callable[[Any], Awaitable[Any]] | None = None,
) -> Any:
    """`run_sync` for asyncio: awaited calls and `clock.sleep_async`.

    With `input`, each call is `poll(input)` (one object less per wait than a
    closure over it), else `poll()`. With `awaitable`, a call's result that is
    not a coroutine goes through it first (it returns an awaitable or raises: a
    waiter's check that its client is async), with no wrapper call per poll.

    A poll is cut off at its `Poll.cut_at` by one timer per wait (the deadline
    serves every poll but the final one) on the clock's timers (`call_later`;
    the event loop's own on the real clock). A clock without timers races each
    request against its sleep instead (`poll_with_cutoff`).
    """
    start = polls() if polls is not None else 0
    if type(clock) is SystemClock:
        now, sleep = monotonic, _sleep
    else:
        now, sleep = clock.now, clock.sleep_async
    cutoff = _Cutoff.of(clock)
    if cutoff is None:
        if input is not _NO_INPUT:
            poll = partial(poll, input)
        if awaitable is not None:
            poll = partial(_checked_call, poll, awaitable)
    try:
        action = next(actions)
        if polls is not None and type(action) is SavedPause:
            action = actions.send(None)
        while True:
            if type(action) is not Poll and isinstance(action, Sleep):
                if polls is not None and polls() > start:
                    return action.seconds
                await sleep(action.seconds)
                action = actions.send(None)
                continue
            # The Poll is not kept while the call runs (one object less per pending wait).
            # Its `start_by` is not read again: the flow made it from a clock reading
            # taken as it yielded it (`poll_for` refuses a poll past `start_by`), and
            # nothing runs between that and the call.
            if cutoff is None:
                outcome: Outcome = await poll_with_cutoff(poll, clock, action.timeout)
            else:
                cut_at = action.cut_at
                if cut_at is None:
                    cut_at = now() + action.timeout
                del action
                if cut_at != cutoff.armed_at:
                    cutoff.arm(cut_at, now)
                cutoff.phase = _POLLING
                try:
                    # Guarded on every clock: a cancel that comes while the request
                    # cleans up after an earlier one waits for that cleanup to end.
                    # The cut-off takes the request's steps here (no call per poll):
                    # `awaitable` checks a result that is not a coroutine first.
                    pending = poll() if input is _NO_INPUT else poll(input)
                    if type(pending) is not CoroutineType:
                        pending = _awaited(
                            pending if awaitable is None else awaitable(pending)
                        )
                    cutoff.request = pending.__await__()
                    cutoff.__next__ = cutoff.request.__next__  # type: ignore[method-assign]
                    cutoff.guarding = _OPEN
                    del pending  # only the cut-off holds the request while it runs
                    # `new_returned(await cutoff)` without the call (in locals the
                    # frame has anyway: one more would be kept per pending wait).
                    pending = await cutoff
                    outcome = ReturnedDraft()
                    outcome.output = pending  # type: ignore[union-attr, misc]
                    outcome.__class__ = Returned
                    del pending
                except WaiterConfigurationError:
                    cutoff.take()
                    raise
                except asyncio.CancelledError:
                    if cutoff.phase != _FIRED or cutoff.take() > cutoff.before:
                        raise  # cancelled from outside (too)
                    outcome = CUT_OFF
                except Exception as error:
                    outcome = CUT_OFF if cutoff.take() >= 0 else Raised(error)
                else:
                    if cutoff.phase == _FIRED:
                        cutoff.take()
                finally:
                    cutoff.phase = _IDLE
                    cutoff.request = cutoff.__next__ = None  # type: ignore[assignment]
            action = actions.send(outcome)
            del outcome  # not kept while the wait sleeps (nor the output, in `action`)
    except StopIteration as stop:
        return stop.value  # the WaiterResult
    finally:
        if cutoff is not None:
            cutoff.disarm()
        actions.close()


def _checked_call(
    poll: Callable[[], Any], awaitable: Callable[[Any], Awaitable[Any]]
) -> Awaitable[Any]:
    """`poll()`, through `awaitable` unless it is a coroutine (`run_async`'s check)."""
    pending = poll()
    return pending if type(pending) is CoroutineType else awaitable(pending)


class _Shield(asyncio.Future[None]):
    """What the waiter's task waits on for a cancelled request: done with the request's
    own future, and not cancellable (a further cancellation is held by the guard, `_Cutoff`).
    """

    __slots__ = ()

    def cancel(self, msg: Any = None) -> bool:
        """Refuse: the request already has its cancellation."""
        return False

    def release(self, _: Any) -> None:
        """The request's future is done: wake the waiter's task."""
        if not self.done():
            self.set_result(None)


async def _awaited(pending: Awaitable[Any]) -> Any:
    """Any awaitable as a coroutine, stepped by `_Cutoff`'s guard."""
    return await pending


#: The context the cut-off timer runs in: it only cancels a task, so it needs no
#: copy of the waiter's (which `loop.call_at` would otherwise make per timer).
_CONTEXT = contextvars.Context()


#: `_Cutoff.phase`: no poll running, a poll running, a poll the timer cut off.
_IDLE, _POLLING, _FIRED = 0, 1, 2

#: `_Cutoff.guarding`: the request has no cancellation yet; has one; has one and
#: another is held until it ends.
_OPEN, _DELIVERED, _HELD = 0, 1, 2


class _Cutoff(Generator[Any, Any, Any]):
    """The timer that cancels a wait's task when a poll runs past its `cut_at`, and
    the guard the poll's request is awaited through.

    One timer is kept armed while consecutive polls share their `cut_at` (the
    deadline); it cancels the task only during a poll, and `take()` undoes that
    cancellation once the poll has ended, as `asyncio.timeout` does. This one
    runs on the event loop's timers (the real clock); `_ClockCutoff` on a clock's.

    The guard (the driver sets `request` and `__next__`, then awaits it) lets the
    first cancellation (the waiter's or the timer's) reach the request and holds
    later ones until the request has ended, so its cleanup runs to the end; no
    task is made per request. Until a cancellation comes, `__next__` is the
    request's own C-level step: a request that ends leaves through no Python
    frame (one would keep the driver's frame object alive, about 300 bytes per
    pending wait).
    """

    __slots__ = (
        "task",
        "handle",
        "armed_at",
        "phase",
        "before",
        "request",
        "__next__",
        "guarding",
        "seen",
    )

    def __init__(self, task: asyncio.Task[Any]) -> None:
        self.task = task
        self.handle: TimerHandle | None = None
        self.armed_at: float | None = None
        #: `_IDLE`, `_POLLING`, or `_FIRED` (the timer cut the running poll off).
        self.phase = _IDLE
        #: The task's cancel requests when the wait began (others than the timer's).
        #: Taken once: a cancel request ends the wait (it is raised, or held and
        #: then raised), and one made between polls is delivered in the sleep, so
        #: every poll of the wait begins with this count.
        self.before = task.cancelling()
        #: The running request's steps (`__await__()` of its coroutine), or None.
        self.request: Generator[Any, Any, Any] | None = None
        #: `_OPEN`, `_DELIVERED` (the request has its cancellation) or `_HELD`.
        self.guarding = _OPEN
        #: The task's cancel requests when the guard last saw a cancellation: fewer
        #: later means the request took one back itself (its own `asyncio.timeout`).
        self.seen = 0

    @staticmethod
    def of(clock: Clock) -> _Cutoff | None:
        """The cut-off timer for the running task on `clock`; None if the clock has no timers."""
        task = asyncio.current_task()
        if task is None:
            return None
        if type(clock) is SystemClock:  # the loop's timers; the request in this task
            return _Cutoff(task)
        later = getattr(clock, "call_later", None)
        if not callable(later):
            return None
        return _ClockCutoff(task, later)

    def arm(self, when: float, now: Callable[[], float]) -> None:
        """Cut the next poll off at clock time `when` (`math.inf`: never); `now` reads the clock."""
        if when == self.armed_at:
            return
        if self.handle is not None:
            self.handle.cancel()
            self.handle = None
        self.armed_at = when
        if when == math.inf:
            return
        self.handle = self._schedule(max(when - now(), 0.0))

    def _schedule(self, delay: float) -> TimerHandle:
        """Call `fire` in `delay` seconds: in the loop's own time (uvloop's is coarser).

        A bound method, not this object: it is an awaitable generator, which
        asyncio's debug mode refuses as a callback ("coroutines cannot be used")."""
        return self.task.get_loop().call_later(delay, self.fire, context=_CONTEXT)

    def fire(self) -> None:
        """The timer went off: cut the poll off if one is running."""
        self.handle = None
        self.armed_at = None
        if self.phase == _POLLING:
            self.phase = _FIRED
            self.task.cancel()

    def take(self) -> int:
        """After a poll: -1 if the timer did not cut it off, else the task's remaining cancel requests."""
        if self.phase != _FIRED:
            return -1
        self.phase = _POLLING
        return self.task.uncancel()

    def disarm(self) -> None:
        """Cancel the timer: the wait is over (or paused between `poll_once` turns)."""
        if self.handle is not None:
            self.handle.cancel()
            self.handle = None

    def __await__(self) -> Generator[Any, Any, Any]:
        return self

    def send(self, value: Any) -> Any:
        """Resume the request; once it was cancelled, guard what it waits on."""
        if self.guarding != _OPEN:
            return self._step(value, None)
        assert self.request is not None
        return self.request.send(value)

    def throw(
        self, kind: Any, value: Any = None, traceback: Any = None
    ) -> Any:  # the generator protocol's three forms
        """Pass an error to the request, or hold a cancellation it already has."""
        error = kind if isinstance(kind, BaseException) else None
        if error is None:
            error = value if isinstance(value, BaseException) else kind(value)
        if isinstance(error, asyncio.CancelledError):
            self.seen = self.task.cancelling()
            if self.guarding != _OPEN:
                self.guarding = _HELD
                return self._step(None, None)
            # Requests since the last step: one goes to the request, the rest are held.
            held = self.seen > self.before + 1
            self.guarding = _HELD if held else _DELIVERED
            self.__next__ = self._guarded_next  # type: ignore[method-assign]
        return self._step(None, error)

    def close(self) -> None:
        """Close the request (the driver's coroutine is closed while it runs)."""
        if self.request is not None:
            self.request.close()

    def _guarded_next(self) -> Any:
        """`__next__` once the request has its cancellation."""
        return self._step(None, None)

    def _step(self, value: Any, error: BaseException | None) -> Any:
        """One step of a cancelled request: what it waits on cannot be cancelled again.

        A request that took back the one cancellation it was given (its own
        `asyncio.timeout` or `wait_for` went off, and it carried on) is no longer
        being cancelled: the guard opens again, so the deadline and the caller can
        cancel it. Once a second cancellation was held, whose was taken back cannot
        be told from the count, so the guard holds on until the request ends."""
        request = self.request
        assert request is not None
        try:
            if error is None:
                waits_on = request.send(value)
            else:
                waits_on = request.throw(error)
        except (StopIteration, Exception):
            if self.guarding == _HELD:
                raise asyncio.CancelledError from None
            raise
        if self.guarding == _DELIVERED and self.task.cancelling() < self.seen:
            self.guarding = _OPEN
            self.__next__ = request.__next__  # type: ignore[method-assign]
            return waits_on
        if getattr(waits_on, "_asyncio_future_blocking", False):
            waits_on._asyncio_future_blocking = False
            shield = _Shield(loop=waits_on.get_loop())
            waits_on.add_done_callback(shield.release)
            shield._asyncio_future_blocking = True
            return shield
        return waits_on


class _ClockCutoff(_Cutoff):
    """`_Cutoff` on a clock's own timers (`call_later`, as `VirtualClock` has)."""

    __slots__ = ("later",)

    def __init__(self, task: asyncio.Task[Any], later: CallLater) -> None:
        super().__init__(task)
        #: The clock's `call_later`.
        self.later = later

    def _schedule(self, delay: float) -> TimerHandle:
        return self.later(delay, self.fire)


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
    try:  # a call that raises before it returns an awaitable is a failed poll too
        request = asyncio.ensure_future(poll())
    except WaiterConfigurationError:
        raise
    except Exception as error:
        return Raised(error)
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

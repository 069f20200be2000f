"""Seed 002's pollers: check a condition until it holds, keeping the history of every attempt.

`Poller(check, delay=..., max_attempts=5)` is one polling session (seed 002's
`new_poller`): `poll()` runs it to the end and returns a `PollerState` (value,
history, delays), `poll_or_raise()` (seed 002's `poll!`) returns the value or
raises `RetriesExhaustedError`, whose text prints the history, and
`poll_once()` makes one attempt and says when to make the next (`next_delay`),
so your own scheduler does the waiting. `poll_async()` and friends are the
asyncio forms. A finished session keeps answering with its final state.

`check()` takes no argument and returns `True`/`False`, or `Ready(value)` /
`NotReady(value)` to carry a value. An exception it raises propagates out of
`poll()` unchanged, as in seed 002 (list its type in `retry_on=` to count it as
an unmet attempt instead); the attempt is still counted.

Defaults are seed 002's, in seconds: the delay after attempt `n` fails is
`n * 0.010`; 5 attempts. The first attempt is made at once. A poller is the
waiter engine (`waitable.flow`) with a judge mapping the check's answer to
success or retry, the delay rule as its backoff, `max_attempts` as the attempts
cap (or, given as a function, as the plan's stop rule), and no deadline unless
`timeout=` is given; that deadline bounds when checks start, not when they answer.
"""

from __future__ import annotations

import enum
import inspect
import math
import random
import reprlib
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeAlias, TypeVar, cast

from .backoff import RetryContext
from .clock import CancelEvent, Clock, SystemClock
from .custom import PredicateMatcher
from .definition import Acceptor, AcceptorState, Matcher, WaiterDefinition
from .drivers import check_cancel_event, run_async, run_sync
from .errors import (
    WaiterCancelledError,
    WaiterConfigurationError,
    WaiterError,
    WaiterMaxAttemptsError,
    WaiterOperationError,
    WaiterTimeoutError,
)
from .flow import Raised, Returned, WaitPlan, WaitState, flow, start
from .history import History
from .matching import Verdict
from .options import (
    WaitOptions,
    attempts_cap,
    exception_types,
    seconds_option,
)
from .results import Attempt, WaiterResult
from .seconds import MAX_SECONDS, describe_value
from .wording import Wording

__all__ = [
    "FINAL_CHECK_TIME",
    "NotReady",
    "PollAttempt",
    "PollStatus",
    "Poller",
    "PollerState",
    "Ready",
    "RetriesExhaustedError",
    "default_delay",
]

T = TypeVar("T")

if TYPE_CHECKING:
    from typing_extensions import TypeVar as DefaultedTypeVar

    #: What a `Poller`'s check carries in `Ready(value)`. Nothing the poller is
    #: given names it, so a type checker defaults it to `Any`: else
    #: `poller = Poller(check)`, as the README writes it, fails `mypy --strict`
    #: with "Need type annotation". (Type checkers know typing_extensions; at run
    #: time, where Python 3.11's TypeVar has no default, a plain TypeVar serves.)
    ValueT = DefaultedTypeVar("ValueT", default=Any)
else:
    ValueT = TypeVar("ValueT")

#: With `timeout=`, a delay that would leave less than this (seconds) before the
#: deadline is stretched to it: the last check is made at the deadline.
FINAL_CHECK_TIME = 0.1

#: A poller's words in the engine's messages and log lines: "poller NAME", its
#: `timeout` and `retry_on`, its check met or not (no acceptors), and no
#: `cancel_saved` / `cancel_wait`, which a poller does not have.
POLLER_WORDING = Wording(
    "poller",
    deadline_option="timeout",
    cancelled_by="its cancel event was set",
    verdicts=("condition met", "condition not met"),
    call="the check",
    attempt="check",
    going_on="polling",
    raised_advice=(
        "an exception the check raises ends the poll; pass retry_on=({name},) to "
        "count it as an unmet attempt"
    ),
    unlisted="which retry_on does not list",
)

_READY = Verdict(AcceptorState.SUCCESS, 0)
_NOT_READY = Verdict(AcceptorState.RETRY, None)


@dataclass(frozen=True, slots=True)
class Ready(Generic[T]):
    """What `check` returns when the condition is met, carrying a value."""

    value: T


@dataclass(frozen=True, slots=True)
class NotReady(Generic[T]):
    """What `check` returns when the condition is not met yet, carrying what it saw."""

    value: T | None = None


class PollStatus(str, enum.Enum):
    """The status of a session, as seed 002 names it."""

    OK = "ok"
    ATTEMPT_FAILED = "attempt_failed"
    RETRIES_EXHAUSTED = "retries_exhausted"


@dataclass(frozen=True, slots=True)
class PollAttempt:
    """One attempt: its number, the delay before it (seconds), whether it was met, its value."""

    attempt_num: int
    delay_before: float
    fulfilled: bool
    value: Any


@dataclass(frozen=True, slots=True)
class PollerState:
    """Seed 002's Poller struct: where a session stands, handed to delay and max_attempts rules.

    `status` is None before the first attempt. `next_delay` is the delay before
    the next attempt (None when none is due); `total_delay` the sum of the
    delays so far, that one included; `history` every attempt.
    """

    status: PollStatus | None
    attempt_num: int
    value: Any
    next_delay: float | None
    total_delay: float
    history: tuple[PollAttempt, ...]

    @property
    def fulfilled(self) -> bool:
        """True once an attempt met the condition."""
        return self.status == PollStatus.OK


def default_delay(state: PollerState) -> float:
    """Seed 002's default: attempt number × 10 ms."""
    return state.attempt_num / 100


DelayRule: TypeAlias = float | Callable[[PollerState], float]
MaxAttempts: TypeAlias = int | None | Callable[[PollerState], bool]


class RetriesExhaustedError(WaiterError):
    """Seed 002's `RetriesExhausted`: the condition was never met; `.state` has the history."""

    def __init__(
        self, state: PollerState, result: WaiterResult[Any], timeout: float | None
    ) -> None:
        within = "" if timeout is None else f" within the timeout of {_ms(timeout)}"
        plural = "" if state.attempt_num == 1 else "s"
        lines = [
            f"Tried {state.attempt_num} time{plural} over {_ms(state.total_delay)}, "
            f"but condition was never met{within}."
        ]
        lines += [
            f"  attempt {a.attempt_num}: after {_ms(a.delay_before)}, "
            f"{'met' if a.fulfilled else 'not met'}, value {_short(a.value)}"
            for a in state.history
        ]
        super().__init__("\n".join(lines), result)
        self.state = state


def _ms(seconds: float) -> str:
    return f"{round(seconds * 1000, 3):g}ms"


def _short(value: Any) -> str:
    try:
        return reprlib.repr(value)
    except Exception:  # a value whose repr fails
        return f"<{type(value).__name__}>"


def _value(output: Any) -> Any:
    """The value an attempt carries: `Ready`/`NotReady`'s, else None (True/False)."""
    return output.value if isinstance(output, (Ready, NotReady)) else None


class Poller(Generic[ValueT]):
    """One polling session over `check` (seed 002's poller); see the module docstring.

    `delay`: seconds, or a function of the `PollerState` after a failed attempt.
    `max_attempts`: a number, None for no limit, or a function of the state
    saying whether to try again. `timeout`: seconds after which no attempt
    starts (none by default); a check already started is never cut off, and its
    answer counts even when it comes after the timeout (seed 002: a met attempt is
    a success). `clock`: e.g. `waitable.testing.VirtualClock()`.
    """

    def __init__(
        self,
        check: Callable[[], Any],
        *,
        delay: DelayRule = default_delay,
        max_attempts: MaxAttempts = 5,
        timeout: float | None = None,
        retry_on: tuple[type[BaseException], ...] = (),
        clock: Clock | None = None,
        name: str | None = None,
    ) -> None:
        if not callable(check):
            raise WaiterConfigurationError(
                f"Poller needs a callable check, got {type(check).__name__}"
            )
        self.name = name or getattr(check, "__qualname__", None) or "poller"
        self.check = check
        self.delay = _delay_rule(self.name, delay)
        self.timeout = (
            None
            if timeout is None
            else seconds_option(f"poller {self.name}", "timeout", timeout)
        )
        cap: int | None = None
        stop: Callable[[WaitState], bool] | None = None
        if callable(max_attempts):
            stop = self._stop_rule(max_attempts)
        else:
            cap = attempts_cap(f"poller {self.name}", max_attempts)
        self.retry_on = exception_types(f"poller {self.name}", retry_on)
        self.clock: Clock = SystemClock() if clock is None else clock
        self._definition = WaiterDefinition(
            name=self.name,
            operation="check",
            acceptors=(
                Acceptor(
                    AcceptorState.SUCCESS,
                    cast(
                        Matcher, PredicateMatcher(_met, "check returned True or Ready")
                    ),
                ),
            ),
        )
        allowance = 0.0 if self.timeout is None else min(FINAL_CHECK_TIME, self.timeout)
        self._options = WaitOptions(
            max_wait_time=math.inf if self.timeout is None else self.timeout,
            min_delay=allowance,
            max_delay=math.inf,
            max_attempts=cap,
            backoff=self._backoff,
        )
        self._stop = stop
        self._wait: WaitState | None = None
        # The session's attempts as `PollAttempt`s, converted once each (`_history`).
        self._source: History | None = None
        self._seen: list[PollAttempt] = []
        self._seen_tuple: tuple[PollAttempt, ...] = ()
        self._final: PollerState | None = None
        self._error: RetriesExhaustedError | None = None
        self._polling = threading.Lock()  # held by the one call polling the session

    @property
    def state(self) -> PollerState:
        """Where the session stands now."""
        if self._final is not None:
            return self._final
        if self._wait is None:
            return PollerState(None, 0, None, None, 0.0, ())
        return self._view(self._wait, PollStatus.ATTEMPT_FAILED, self._wait.next_delay)

    def poll(self, *, cancel: CancelEvent | None = None) -> PollerState:
        """Attempt until the condition is met or retries run out; the final state.

        `cancel` (a `threading.Event`, set from any thread) stops the session at
        its next sleep or before its next attempt with `WaiterCancelledError`; the
        session is not ended by it (`state` says where it stands, and a later
        `poll()` goes on from there).
        """
        if self._final is not None:
            return self._final
        if cancel is not None:  # refused in the poller's name, not the engine's
            check_cancel_event(cancel, POLLER_WORDING.owner(self.name))
        with self._one_call("poll"):
            return self._poll_sync(cancel)

    def _poll_sync(self, cancel: CancelEvent | None) -> PollerState:
        plan, state = self._session()
        try:
            run_sync(
                flow(plan, state, self.clock.now),
                self._call_sync,
                self.clock,
                cancel=cancel,
            )
        except WaiterCancelledError:
            raise
        except WaiterError as error:
            ended = self._ended(state, error)
        else:
            return self._finish(state, PollStatus.OK)
        return _state_or_raise(ended)

    def poll_or_raise(self, *, cancel: CancelEvent | None = None) -> Any:
        """Seed 002's `poll!`: the value once met, else `RetriesExhaustedError`
        (`WaiterCancelledError` once `cancel` is set, as in `poll`)."""
        return self._value_or_raise(self.poll(cancel=cancel))

    def poll_once(self) -> PollerState:
        """Make one attempt now; `status` says `ok`, `attempt_failed` (see `next_delay`) or `retries_exhausted`."""
        if self._final is not None:
            return self._final
        with self._one_call("poll_once"):
            return self._poll_once_sync()

    def _poll_once_sync(self) -> PollerState:
        plan, state = self._session()
        try:
            turn = run_sync(
                flow(plan, state, self.clock.now),
                self._call_sync,
                self.clock,
                lambda: state.attempts,
            )
        except WaiterError as error:
            return _state_or_raise(self._ended(state, error))
        return self._turn(state, turn)

    async def poll_async(self) -> PollerState:
        """`poll()` on asyncio; `check` may be sync or async."""
        if self._final is not None:
            return self._final
        with self._one_call("poll_async"):
            return await self._poll_async()

    async def _poll_async(self) -> PollerState:
        plan, state = self._session()
        try:
            await run_async(
                flow(plan, state, self.clock.now), self._call_async, self.clock
            )
        except WaiterError as error:
            ended = self._ended(state, error)
        else:
            return self._finish(state, PollStatus.OK)
        return _state_or_raise(ended)

    async def poll_or_raise_async(self) -> Any:
        """`poll_or_raise()` on asyncio."""
        return self._value_or_raise(await self.poll_async())

    async def poll_once_async(self) -> PollerState:
        """`poll_once()` on asyncio."""
        if self._final is not None:
            return self._final
        with self._one_call("poll_once_async"):
            return await self._poll_once_async()

    async def _poll_once_async(self) -> PollerState:
        plan, state = self._session()
        try:
            turn = await run_async(
                flow(plan, state, self.clock.now),
                self._call_async,
                self.clock,
                lambda: state.attempts,
            )
        except WaiterError as error:
            return _state_or_raise(self._ended(state, error))
        return self._turn(state, turn)

    def __getstate__(self) -> dict[str, Any]:
        """The session for `pickle`/`copy`, without its one-call lock (a lock
        cannot be copied; the copy gets its own, free)."""
        state = self.__dict__.copy()
        del state["_polling"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._polling = threading.Lock()

    @contextmanager
    def _one_call(self, method: str) -> Iterator[None]:
        """Hold the session for one polling call. A Poller is one session with one
        attempt count: a second call while one is under way (another thread or
        task, or the check itself) is refused, as asyncio refuses a second reader,
        rather than let the two together make more attempts than `max_attempts`."""
        if not self._polling.acquire(blocking=False):
            raise RuntimeError(
                f"poller {self.name}: {method}() was called while another call is "
                "polling this Poller; a Poller is one polling session: wait for "
                "that call to return first, or make one Poller per concurrent session"
            )
        try:
            yield
        finally:
            self._polling.release()

    # The engine's side: plan, judge, backoff, stop rule, calls.

    def _session(self) -> tuple[WaitPlan, WaitState]:
        plan = WaitPlan(
            self._definition,
            self._options,
            random.Random(0),
            self.retry_on,
            judge=self._judge,
            stop=self._stop,
            deadline_bounds_starts=True,
            wording=POLLER_WORDING,
        )
        if self._wait is None:
            self._wait = start(plan, self.clock.now())
        return plan, self._wait

    def _judge(
        self,
        plan: WaitPlan,
        outcome: Returned | Raised,
        input_data: Any,
        code: str | None,
    ) -> Verdict | None:
        if isinstance(outcome, Raised):
            return _NOT_READY if isinstance(outcome.error, self.retry_on) else None
        answer = outcome.output
        if _met(answer):
            return _READY
        if answer is False or isinstance(answer, NotReady):
            return _NOT_READY
        raise WaiterConfigurationError(
            f"poller {self.name}: the check returned {_short(answer)}; return True or "
            "False, or Ready(value) / NotReady(value) to carry a value"
        )

    def _backoff(self, retry: RetryContext) -> float:
        assert self._wait is not None
        rule = self.delay
        if not callable(rule):
            return rule
        delay = rule(self._view(self._wait, PollStatus.ATTEMPT_FAILED, None))
        number = not isinstance(delay, bool) and isinstance(delay, (int, float))
        if not number or not 0 <= delay <= MAX_SECONDS:  # NaN fails both comparisons
            # Checked here, not left to the engine, so the error names the user's
            # function rather than this method standing in for it as the backoff.
            shown = describe_value(delay) if number else _short(delay)
            raise WaiterConfigurationError(
                f"poller {self.name}: the delay= function {_rule_name(rule)} returned "
                f"{shown} after attempt {retry.attempt}; return a finite number of "
                f"seconds from 0 to {MAX_SECONDS} (100 years)"
            )
        return delay

    def _stop_rule(
        self, may_retry: Callable[[PollerState], bool]
    ) -> Callable[[WaitState], bool]:
        def stop(state: WaitState) -> bool:
            answer = may_retry(self._view(state, PollStatus.ATTEMPT_FAILED, None))
            if not isinstance(answer, bool):
                raise WaiterConfigurationError(
                    f"poller {self.name}: max_attempts as a function must return True "
                    f"(try again) or False (stop), got {_short(answer)}"
                )
            return not answer

        return stop

    def _call_sync(self) -> Any:
        answer = self.check()
        if inspect.isawaitable(answer):
            close = getattr(answer, "close", None)
            if callable(close):
                close()
            raise WaiterConfigurationError(
                f"poller {self.name}: the check is async; use await poller.poll_async() "
                "(or poll_once_async / poll_or_raise_async)"
            )
        return answer

    async def _call_async(self) -> Any:
        answer = self.check()
        if inspect.isawaitable(answer):
            answer = await answer
        return answer

    # Engine records → seed 002's records.

    def _view(
        self, state: WaitState, status: PollStatus, next_delay: float | None
    ) -> PollerState:
        history = self._history(state)
        value = history[-1].value if history else None
        return PollerState(
            status, state.attempts, value, next_delay, state.total_delay, history
        )

    def _history(self, state: WaitState) -> tuple[PollAttempt, ...]:
        """The session's attempts as `PollAttempt`s, each converted once.

        A delay or max_attempts function is called after every attempt; converting
        the whole history each time made a session quadratic in its attempts. The
        engine's history only grows (a poller keeps every attempt), so only the
        attempts new since the last call are converted; a tuple handed out earlier
        is never changed, and the same one is returned until an attempt is added.
        """
        history = state.history
        seen = self._seen
        count = len(history)
        if history is not self._source or count < len(seen):
            self._source, self._seen_tuple = history, ()
            seen.clear()
        if count > len(seen):
            seen.extend(_attempt(history[at]) for at in range(len(seen), count))
            self._seen_tuple = tuple(seen)
        return self._seen_tuple

    def _turn(self, state: WaitState, turn: Any) -> PollerState:
        if isinstance(turn, WaiterResult):
            return self._finish(state, PollStatus.OK)
        return self._view(state, PollStatus.ATTEMPT_FAILED, float(turn))

    def _finish(self, state: WaitState, status: PollStatus) -> PollerState:
        self._final = self._view(state, status, None)
        return self._final

    def _ended(self, state: WaitState, error: WaiterError) -> PollerState | Exception:
        """A session the engine ended: its final state, or the exception to raise.

        The check's own exception is returned to be raised outside the `except`
        block, so it propagates as the check raised it (no chained engine error).
        """
        if isinstance(error, (WaiterMaxAttemptsError, WaiterTimeoutError)):
            final = self._finish(state, PollStatus.RETRIES_EXHAUSTED)
            self._error = RetriesExhaustedError(final, error.result, self.timeout)
            return final
        if isinstance(error, WaiterOperationError) and isinstance(
            error.__cause__, Exception
        ):
            return error.__cause__
        return error

    def _value_or_raise(self, final: PollerState) -> Any:
        if final.fulfilled:
            return final.value
        assert self._error is not None
        raise self._error


def _state_or_raise(ended: PollerState | Exception) -> PollerState:
    if isinstance(ended, Exception):
        raise ended
    return ended


def _met(answer: Any) -> bool:
    """The poller's one acceptor: the check's answer says the condition is met."""
    return answer is True or isinstance(answer, Ready)


def _attempt(attempt: Attempt[Any]) -> PollAttempt:
    return PollAttempt(
        attempt.number,
        attempt.delay,
        attempt.state is AcceptorState.SUCCESS,
        _value(attempt.output),
    )


def _rule_name(rule: Callable[..., Any]) -> str:
    """The user's function as an error message names it: its qualified name, else its repr."""
    name = getattr(rule, "__qualname__", None)
    return name if isinstance(name, str) else describe_value(rule)


def _delay_rule(name: str, delay: DelayRule) -> DelayRule:
    if callable(delay):
        return delay
    if isinstance(delay, bool) or not isinstance(delay, (int, float)):
        raise WaiterConfigurationError(
            f"poller {name}: delay must be seconds (a number >= 0) or a function of "
            f"the PollerState, got {_short(delay)}"
        )
    if not 0 <= delay <= MAX_SECONDS:  # NaN fails both comparisons
        raise WaiterConfigurationError(
            f"poller {name}: delay must be a finite number of seconds from 0 to "
            f"{MAX_SECONDS} (100 years), got {describe_value(delay)}"
        )
    return delay

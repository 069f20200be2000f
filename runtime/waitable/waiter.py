"""`Waiter` and `AsyncWaiter`: the base classes every generated waiter extends.

A generated class sets only `definition` and `operation_method`; construction
binds the client, and `wait()` runs the engine (`waitable.flow`) through the sync
or the asyncio driver. `start()` and `poll_once()` are the step API over the
same engine (`waitable.steps`): one poll at a time, the wait saved as JSON.
"""

from __future__ import annotations

import dataclasses
import inspect
import math
import random
import sys
import threading
import warnings
from collections.abc import Awaitable, Callable, Coroutine
from time import monotonic
from typing import Any, ClassVar, Generic, TypeVar

from .backoff import Backoff, SmithyBackoff
from .clock import CancelEvent, Clock, SystemClock, wall_reading
from .config import WaiterConfig, checked_config
from .definition import WaiterDefinition
from .drivers import check_cancel_event, run_async, run_sync
from .errors import NOT_AWAITED_HOOK, WaiterConfigurationError, WaiterError
from .flow import (
    NOT_YET,
    CallRetry,
    Judge,
    RateLimit,
    WaitPlan,
    WaitState,
    flow,
    start,
)
from .invoke import (
    Invoker,
    OperationCall,
    awaitable_check,
    bind_operation,
    refuse_async,
    refuse_blocking,
)
from .options import (
    WaitOptions,
    exception_types,
    refuse_class,
    resolve_options,
    validate_backoff,
)
from .results import Attempt, WaiterResult
from .steps import (
    DEFAULT_HISTORY_LIMIT,
    PollDone,
    PollPending,
    SavedWait,
    WallClock,
    rng_state,
)

__all__ = ["AsyncWaiter", "Waiter"]

InputT = TypeVar("InputT")
OutputT = TypeVar("OutputT")

_DEFAULT_BACKOFF = SmithyBackoff()


class _WaiterBase(Generic[InputT, OutputT]):
    """What both waiter kinds share: the bound client, clock, randomness and hooks."""

    definition: ClassVar[WaiterDefinition]
    operation_method: ClassVar[str] = ""
    #: How outcomes are decided; None means the definition's acceptors.
    judge: ClassVar[Judge | None] = None
    #: Whether `max_attempts` alone may bound a wait (no `max_wait_time`: no
    #: deadline), as for custom waiters and botocore's (boto3's `MaxAttempts`). A
    #: spec waiter requires `max_wait_time` (the spec's MUST).
    attempts_bound_alone: ClassVar[bool] = False
    _blocking: ClassVar[bool] = False

    @classmethod
    def _async_twin(cls) -> str | None:
        """The asyncio class an async client's refusal names; None: the generated
        twin, `Async{name}`."""
        return None

    @classmethod
    def _sync_twin(cls) -> str | None:
        """The synchronous class a sync client's refusal names: for `Async{name}`,
        the class `{name}` of the same module and waiter (the generated twin);
        None, a general wording, when there is no such class."""
        name = cls.__name__
        if not name.startswith("Async"):
            return None
        twin = getattr(sys.modules.get(cls.__module__), name[len("Async") :], None)
        if (
            isinstance(twin, type)
            and issubclass(twin, Waiter)
            and getattr(twin, "definition", None) is getattr(cls, "definition", None)
        ):
            return twin.__name__
        return None

    def __init__(
        self,
        client: object,
        *,
        clock: Clock | None = None,
        rng: random.Random | None = None,
        on_attempt: Callable[[Attempt[OutputT]], object] | None = None,
        backoff: Backoff | None = None,
        retry_on: tuple[type[BaseException], ...] = (),
        invoker: Invoker | None = None,
        retry: Any = None,
        rate_limit: RateLimit | None = None,
        history_limit: int | None = None,
        config: WaiterConfig | None = None,
    ) -> None:
        definition = getattr(type(self), "definition", None)
        if not isinstance(definition, WaiterDefinition):
            raise TypeError(
                f"{type(self).__name__} must set the class variable "
                "`definition: ClassVar[WaiterDefinition]`"
            )
        if definition.deprecated:
            warnings.warn(
                f"waiter {definition.name} of {definition.operation} is deprecated; "
                "see its documentation for what replaces it",
                DeprecationWarning,
                stacklevel=2,
            )
        retry_on = exception_types(f"waiter {definition.name}", retry_on)
        self.clock: Clock = SystemClock() if clock is None else clock
        self.rng = random.Random() if rng is None else rng
        self.on_attempt = _checked_hook(definition.name, on_attempt)
        self.config = (
            WaiterConfig()
            if config is None
            else checked_config(definition.name, config)
        )
        given = backoff is not None
        if backoff is None:
            backoff = self.config.strategy
        elif self.config.strategy is not None and self.config.strategy != backoff:
            raise WaiterConfigurationError(
                f"waiter {definition.name}: both backoff= and config.backoff are set; "
                "pass the strategy in one of them"
            )
        self.backoff: Backoff = _backoff_or_default(definition.name, backoff)
        #: Whether `backoff` was the caller's own: else it follows `config`'s
        #: strategy, also when `config` is set later (see `__setattr__`).
        self._backoff_given = given
        self.retry_on = retry_on
        self.retry: CallRetry | None = _call_retry(definition.name, retry)
        refuse_class(
            f"waiter {definition.name}", "rate_limit", rate_limit, "try_acquire"
        )
        if rate_limit is not None and not callable(
            getattr(rate_limit, "try_acquire", None)
        ):
            raise WaiterConfigurationError(
                f"waiter {definition.name}: rate_limit must be a limiter such as "
                f"waitable.RateLimiter(10, per=1.0), got {rate_limit!r}"
            )
        self.rate_limit = rate_limit
        self.history_limit = _checked_history_limit(definition.name, history_limit)
        bind = bind_operation if invoker is None else invoker
        self._call: OperationCall = bind(
            client, type(self).operation_method, definition.name
        )
        if type(self)._blocking:
            cls = type(self)
            self._call = refuse_async(
                self._call,
                client,
                cls.operation_method,
                cls.__name__,
                cls._async_twin(),
            )
        else:
            refuse_blocking(
                client,
                type(self).operation_method,
                definition.name,
                type(self)._sync_twin(),
            )

    def _options(
        self,
        max_wait_time: float | None,
        min_delay: float | None,
        max_delay: float | None,
        max_attempts: int | None,
        backoff: Backoff | None,
    ) -> WaitOptions:
        """The caller's overrides, then the config, merged with the definition;
        `max_attempts` and no `max_wait_time` is no deadline where the class allows
        it (`attempts_bound_alone`)."""
        return self._options_under(
            self.config, max_wait_time, min_delay, max_delay, max_attempts, backoff
        )

    def _options_under(
        self,
        config: WaiterConfig,
        max_wait_time: float | None,
        min_delay: float | None,
        max_delay: float | None,
        max_attempts: int | None,
        backoff: Backoff | None,
    ) -> WaitOptions:
        """`_options` with `config` in place of the waiter's own."""
        max_wait_time, min_delay, max_delay, max_attempts = config.fill(
            max_wait_time, min_delay, max_delay, max_attempts
        )
        unbounded = (
            max_wait_time is None
            and max_attempts is not None
            and type(self).attempts_bound_alone
        )
        options = resolve_options(
            self.definition,
            max_wait_time=1 if unbounded else max_wait_time,
            min_delay=min_delay,
            max_delay=max_delay,
            max_attempts=max_attempts,
            backoff=self.backoff if backoff is None else backoff,
        )
        if unbounded:
            options = dataclasses.replace(options, max_wait_time=math.inf)
        return options

    def _options_for(
        self,
        max_wait_time: float | None,
        min_delay: float | None,
        max_delay: float | None,
        max_attempts: int | None,
        backoff: Backoff | None,
    ) -> WaitOptions:
        """`_options`, remembered for the last arguments (a `WaitOptions` is immutable).

        Waits started alike (thousands at once, say) share one record instead
        of checking and building the same one each time. The key holds each
        argument's type too: an `int` delay means whole-second jitter.
        """
        last: Any = self.__dict__.get("_last_options")
        alike = (
            last is not None
            and last[2] is backoff
            and last[3] is self.backoff
            and last[4] is self.config
            and last[5] is self.definition
        )
        if alike:
            was = last[0]
            if (  # the very same objects (the usual case): equal, of the same types
                was[0] is max_wait_time
                and was[1] is min_delay
                and was[2] is max_delay
                and was[3] is max_attempts
            ):
                same: WaitOptions = last[6]
                return same
        given = (max_wait_time, min_delay, max_delay, max_attempts)
        kinds = tuple(map(type, given))
        if alike and last[0] == given and last[1] == kinds:
            options: WaitOptions = last[6]
            return options
        options = self._options(
            max_wait_time, min_delay, max_delay, max_attempts, backoff
        )
        self.__dict__["_last_options"] = (
            given,
            kinds,
            backoff,
            self.backoff,
            self.config,
            self.definition,
            options,
        )
        return options

    def _first_delay(
        self, options: WaitOptions, rng: random.Random
    ) -> tuple[float, bool]:
        """The delay before the first poll (jitter drawn from `rng`) and whether
        that poll is the final one.

        None for waiters of the spec (the first poll is at once); custom waiters
        may wait first (seed 003's `ExecuteAfterFirstDelay`).
        """
        return 0.0, False

    def _plan_with(self, options: WaitOptions, rng: random.Random) -> WaitPlan:
        """The plan of this waiter's waits with `options`, drawing jitter from `rng`.

        Waits started alike share one (a `WaitPlan` is immutable): the last one
        made is kept while the waiter's policies and the arguments stay the same.
        """
        judge = type(self).judge
        last = self.__dict__.get("_last_plan")
        if (
            last is not None
            and last.options is options
            and last.rng is rng
            and last.retry_on is self.retry_on
            and last.on_attempt is self.on_attempt
            and last.judge is judge
            and last.call_retry is self.retry
            and last.rate_limit is self.rate_limit
            and last.definition is self.definition
        ):
            plan: WaitPlan = last
            return plan
        plan = self.__dict__["_last_plan"] = WaitPlan(
            self.definition,
            options,
            rng,
            self.retry_on,
            self.on_attempt,
            judge=judge,
            call_retry=self.retry,
            rate_limit=self.rate_limit,
            wall=(
                None
                if self.retry is None and self.rate_limit is None
                else wall_reading(self.clock)
            ),
        )
        return plan

    def _wait_plan(
        self,
        max_wait_time: float | None,
        min_delay: float | None,
        max_delay: float | None,
        max_attempts: int | None,
        backoff: Backoff | None,
    ) -> WaitPlan:
        """The plan of a wait started with these arguments (`_options_for`, `_plan_with`).

        The last one is reused while the arguments are the very same objects and no
        attribute of the waiter was set since (`__setattr__` forgets it): thousands
        of waits started alike pay a few identity checks, not both look-ups.
        """
        last = self.__dict__.get("_last_wait")
        if (
            last is not None
            and last[0] is max_wait_time
            and last[1] is min_delay
            and last[2] is max_delay
            and last[3] is max_attempts
            and last[4] is backoff
            and last[5] is self.definition
            and last[6] is type(self).judge
        ):
            same: WaitPlan = last[7]
            return same
        options = self._options_for(
            max_wait_time, min_delay, max_delay, max_attempts, backoff
        )
        plan = self._plan_with(options, self.rng)
        self.__dict__["_last_wait"] = (
            max_wait_time,
            min_delay,
            max_delay,
            max_attempts,
            backoff,
            self.definition,
            type(self).judge,
            plan,
        )
        return plan

    def __setattr__(self, name: str, value: Any) -> None:
        """Set an attribute, and forget the plan made from the old ones (`_wait_plan`).

        A `config` set later brings its strategy along, as one given at
        construction does (unless `backoff` is the caller's own)."""
        self.__dict__.pop("_last_wait", None)
        if name == "config" and "_backoff_given" in self.__dict__:
            waiter = self.definition.name
            value = checked_config(waiter, value)
            if not self._backoff_given:
                backoff = _backoff_or_default(waiter, value.strategy)
                object.__setattr__(self, "backoff", backoff)
        elif name == "backoff" and "_backoff_given" in self.__dict__:
            object.__setattr__(self, "_backoff_given", True)
        object.__setattr__(self, name, value)

    def _begin(self, plan: WaitPlan, now: float) -> WaitState:
        """The fresh engine state of a wait with `plan` starting at clock time `now`."""
        state = start(plan, now, self.history_limit)
        if type(self)._first_delay is _NO_FIRST_DELAY:  # the spec's: poll at once
            return state
        delay, final = self._first_delay(plan.options, plan.rng)
        if delay:
            state.next_delay, state.final = delay, final
            state.next_poll_at = now + delay
            state.total_delay = delay
        return state

    def start(
        self,
        input: InputT,
        *,
        max_wait_time: float | None = None,
        min_delay: float | None = None,
        max_delay: float | None = None,
        max_attempts: int | None = None,
        seed: int | None = None,
        history_limit: int | None = None,
    ) -> SavedWait:
        """A new wait saved before its first poll; no request is made.

        Pass the record to `poll_once()` (here or in another process). `seed`
        fixes the jitter, so a resumed wait repeats an uninterrupted one's delays.
        When the first poll is not due at once, `next_poll_at` says when it is.
        """
        return self._start(
            input,
            max_wait_time,
            min_delay,
            max_delay,
            max_attempts,
            seed,
            history_limit,
        )

    def _start(
        self,
        input: InputT,
        max_wait_time: float | None,
        min_delay: float | None,
        max_delay: float | None,
        max_attempts: int | None,
        seed: int | None,
        history_limit: int | None,
    ) -> SavedWait:
        options = self._options(max_wait_time, min_delay, max_delay, max_attempts, None)
        history_limit = _checked_history_limit(self.definition.name, history_limit)
        now = WallClock(self.clock).now()
        rng = random.Random(seed)
        delay, final = self._first_delay(options, rng)
        return SavedWait(
            waiter=self.definition.name,
            input=input,
            max_wait_time=options.max_wait_time,
            min_delay=options.min_delay,
            max_delay=options.max_delay,
            max_attempts=options.max_attempts,
            started_at=now,
            deadline=now + options.max_wait_time,
            rng_state=rng_state(rng),
            next_delay=delay,
            next_poll_at=now + delay if delay else None,
            final=final,
            total_delay=delay,
            history_limit=history_limit or self.history_limit or DEFAULT_HISTORY_LIMIT,
        )

    def _resume(self, saved: SavedWait) -> tuple[WaitPlan, Any, random.Random]:
        """The plan and engine state that continue `saved`."""
        if not isinstance(saved, SavedWait):
            raise WaiterConfigurationError(
                f"waiter {self.definition.name}: poll_once() takes the SavedWait that "
                f"start() returned (or SavedWait.from_json(text)), got {type(saved).__name__}"
            )
        if saved.waiter != self.definition.name:
            raise WaiterConfigurationError(
                f"waiter {self.definition.name} cannot resume a saved wait of waiter "
                f"{saved.waiter!r}; use that waiter's class"
            )
        saved.check_waiter(
            len(self.definition.acceptors),
            allows_no_deadline=saved.max_wait_time != math.inf
            or self._allows_no_deadline(saved),
        )
        rng = saved.rng()
        options = WaitOptions(
            saved.max_wait_time,
            saved.min_delay,
            saved.max_delay,
            saved.max_attempts,
            self.backoff,
        )
        return self._plan_with(options, rng), saved.wait_state(), rng

    def _allows_no_deadline(self, saved: SavedWait) -> bool:
        """Whether this waiter's `start()` writes a wait without a deadline for the
        record's settings (a custom waiter's `max_attempts` and no `max_wait_time`)."""
        try:
            options = self._options(
                None, saved.min_delay, saved.max_delay, saved.max_attempts, None
            )
        except WaiterConfigurationError:
            return False  # a spec waiter: max_wait_time is required
        return options.max_wait_time == math.inf

    def cancel_saved(self, saved: SavedWait) -> WaiterError:
        """The error that ends `saved` when it is cancelled before its next poll:
        `WaiterCancelledError` with its attempts so far (or, when no poll may start
        any more, the `WaiterTimeoutError` the next `poll_once` would raise). No
        request is made.

        For schedulers that keep waits as `SavedWait` records (`waitable.celery`'s
        `cancel_wait`): the engine ends the wait as a sync wait's `cancel=` does.
        """
        plan, state, _ = self._resume(saved)
        # Without its call's retries and rate limit: the poll it does not make
        # takes no token from a bucket or limiter that real waits share.
        plan = dataclasses.replace(plan, call_retry=None, rate_limit=None)
        clock = WallClock(
            self.clock
        )  # a saved wait's times are wall-clock, as in poll_once
        try:
            run_sync(
                flow(plan, state, clock.now, saved.input),
                _never_called,
                clock,
                lambda: state.attempts,
                cancel=_CANCELLED,
            )
        except WaiterError as error:
            return error
        raise AssertionError("a cancelled wait made a poll")  # pragma: no cover

    def _step(
        self, saved: SavedWait, state: Any, rng: random.Random, turn: Any
    ) -> PollDone[OutputT] | PollPending[OutputT]:
        if isinstance(turn, WaiterResult):
            return PollDone(saved.advanced(state, rng), turn, None)
        return PollPending(saved.advanced(state, rng), None, float(turn))


#: The event of `cancel_saved`: set from the start, so the engine polls nothing.
_CANCELLED = threading.Event()
_CANCELLED.set()


def _never_called() -> Any:
    raise AssertionError("cancel_saved makes no request")  # pragma: no cover


#: The base class's `_first_delay` (none): `_begin` skips the call when a class keeps it.
_NO_FIRST_DELAY = _WaiterBase._first_delay


class Waiter(_WaiterBase[InputT, OutputT]):
    """A synchronous waiter: `wait()` blocks until success, failure or the deadline.

    Construct with a boto3-style client (or a callable taking the input); pass
    `clock=`/`rng=` to control time and randomness, `on_attempt=` to watch each
    poll, `backoff=` to change the delay strategy, `retry_on=` to retry
    transport errors instead of failing on them, `retry=` (a
    `waitable.retry.StandardRetryStrategy`) to retry throttled and transient
    calls with backoff, and `rate_limit=` (a `waitable.RateLimiter`) to share a
    call rate among waiters. An async client is refused with a `TypeError`.
    """

    _blocking: ClassVar[bool] = True

    def wait(
        self,
        input: InputT,
        *,
        max_wait_time: float | None = None,
        min_delay: float | None = None,
        max_delay: float | None = None,
        max_attempts: int | None = None,
        backoff: Backoff | None = None,
        cancel: CancelEvent | None = None,
    ) -> WaiterResult[OutputT]:
        """Poll until an acceptor says success; raise a `WaiterError` otherwise.

        `max_wait_time` (seconds) is required, here or as the waiter's
        `config=WaiterConfig(wait_timeout=...)`. Each request's time counts against it.
        `cancel` (a `threading.Event`, set from any thread) ends the wait with
        `WaiterCancelledError` at its next sleep or before its next request; a
        request already running is answered first (Python cannot interrupt it).
        """
        return self._wait(
            input, max_wait_time, min_delay, max_delay, max_attempts, backoff, cancel
        )

    def _wait(
        self,
        input: InputT,
        max_wait_time: float | None,
        min_delay: float | None,
        max_delay: float | None,
        max_attempts: int | None,
        backoff: Backoff | None,
        cancel: CancelEvent | None = None,
    ) -> WaiterResult[OutputT]:
        plan = self._wait_plan(
            max_wait_time, min_delay, max_delay, max_attempts, backoff
        )
        if cancel is not None:
            check_cancel_event(cancel, plan.wording.owner(plan.definition.name))
        clock, call = self.clock, self._call
        state = self._begin(plan, clock.now())
        result: WaiterResult[OutputT] = run_sync(
            flow(plan, state, clock.now, input),
            lambda: call(input),
            clock,
            cancel=cancel,
        )
        return result

    def poll_once(self, saved: SavedWait) -> PollDone[OutputT] | PollPending[OutputT]:
        """Make exactly one poll of the saved wait (its call retried under `retry=`).

        Returns the final result, or the new record and `next_delay`; raises the
        wait's `WaiterError` when it ends otherwise (also when called after the
        deadline, without polling). A record whose wait has ended (the one
        returned with a final result) or whose attempts reached `max_attempts` is
        refused with `WaiterConfigurationError`, before any request.
        """
        plan, state, rng = self._resume(saved)
        saved.check_pollable()
        clock = WallClock(self.clock)
        call, input = self._call, saved.input
        turn = run_sync(
            flow(plan, state, clock.now, input),
            lambda: call(input),
            clock,
            lambda: state.attempts,
        )
        return self._step(saved, state, rng, turn)


class AsyncWaiter(_WaiterBase[InputT, OutputT]):
    """An asyncio waiter: `await wait()`; cancelling the task stops it at once.

    Construct with an async client (aiobotocore) or an async callable taking the
    input; the other arguments are those of `Waiter`. A request still running at
    the deadline is cancelled.
    """

    def wait(
        self,
        input: InputT,
        *,
        max_wait_time: float | None = None,
        min_delay: float | None = None,
        max_delay: float | None = None,
        max_attempts: int | None = None,
        backoff: Backoff | None = None,
    ) -> Coroutine[Any, Any, WaiterResult[OutputT]]:
        """Poll until an acceptor says success; raise a `WaiterError` otherwise (`await` it).

        `max_wait_time` (seconds) is required, here or as the waiter's
        `config=WaiterConfig(wait_timeout=...)`. Each request's time counts against it.
        It returns the engine's own coroutine (no frame of its own per pending wait);
        bad arguments are raised when it is awaited, as from an `async def`.
        """
        try:
            return self._wait(
                input, max_wait_time, min_delay, max_delay, max_attempts, backoff
            )
        except Exception as error:
            return _raising(error)

    def _wait(
        self,
        input: InputT,
        max_wait_time: float | None,
        min_delay: float | None,
        max_delay: float | None,
        max_attempts: int | None,
        backoff: Backoff | None,
    ) -> Coroutine[Any, Any, WaiterResult[OutputT]]:
        """The wait as the driver's coroutine (no frame of its own in between)."""
        plan = self._wait_plan(
            max_wait_time, min_delay, max_delay, max_attempts, backoff
        )
        clock = self.clock
        now = monotonic if type(clock) is SystemClock else clock.now
        state = self._begin(plan, NOT_YET)  # starts when awaited
        return run_async(
            flow(plan, state, now, input),
            self._call,
            clock,
            input=input,
            awaitable=self._awaitable_check,
        )

    @property
    def _awaitable_check(self) -> Callable[[Any], Awaitable[Any]]:
        """`invoke.awaitable_check` for this waiter (made once per waiter): the
        driver applies it to a call's result that is not a coroutine."""
        check: Callable[[Any], Awaitable[Any]] | None = self.__dict__.get("_check")
        if check is None:
            check = self.__dict__["_check"] = awaitable_check(
                self.definition.name, sync_class=type(self)._sync_twin()
            )
        return check

    async def poll_once(
        self, saved: SavedWait
    ) -> PollDone[OutputT] | PollPending[OutputT]:
        """`Waiter.poll_once` for asyncio: one awaited poll of the saved wait."""
        plan, state, rng = self._resume(saved)
        saved.check_pollable()
        clock = WallClock(self.clock)
        call, input = self._call, saved.input
        turn = await run_async(
            flow(plan, state, clock.now, input),
            lambda: call(input),
            clock,
            lambda: state.attempts,
            awaitable=self._awaitable_check,
        )
        return self._step(saved, state, rng, turn)


def _backoff_or_default(waiter: str, backoff: Backoff | None) -> Backoff:
    """`backoff`, checked, or the spec's algorithm when there is none."""
    return _DEFAULT_BACKOFF if backoff is None else validate_backoff(waiter, backoff)


def _checked_hook(
    waiter: str, on_attempt: Callable[[Attempt[Any]], object] | None
) -> Callable[[Attempt[Any]], object] | None:
    """`on_attempt` when it is None or a plain callable: the engine calls it between
    two polls and does not await it, so an `async def` hook would never run."""
    if on_attempt is None:
        return None
    if not callable(on_attempt):
        raise WaiterConfigurationError(
            f"waiter {waiter}: on_attempt must be a callable taking the Attempt, "
            f"got {type(on_attempt).__name__}"
        )
    if inspect.iscoroutinefunction(on_attempt) or inspect.iscoroutinefunction(
        getattr(on_attempt, "__call__", None)
    ):
        raise WaiterConfigurationError(NOT_AWAITED_HOOK.format(waiter=waiter))
    return on_attempt


def _checked_history_limit(waiter: str, history_limit: int | None) -> int | None:
    """`history_limit` when it is an integer >= 1 or None (keep every attempt)."""
    if history_limit is not None and (
        isinstance(history_limit, bool)
        or not isinstance(history_limit, int)
        or history_limit < 1
    ):
        raise WaiterConfigurationError(
            f"waiter {waiter}: history_limit must be an integer >= 1 "
            f"(or None to keep every attempt), got {history_limit!r}"
        )
    return history_limit


async def _raising(error: Exception) -> Any:
    """A coroutine that raises `error` when awaited (what an `async def` would do)."""
    raise error


if hasattr(inspect, "markcoroutinefunction"):  # Python 3.12+
    inspect.markcoroutinefunction(AsyncWaiter.wait)


def _call_retry(waiter: str, retry: Any) -> CallRetry | None:
    """The engine's `CallRetry` for a `retry=` argument (a retry strategy), or None."""
    if retry is None:
        return None
    if isinstance(retry, CallRetry):
        return retry
    refuse_class(f"waiter {waiter}", "retry", retry, "call_retry")
    build = getattr(retry, "call_retry", None)
    if not callable(build):
        raise WaiterConfigurationError(
            f"waiter {waiter}: retry must be a retry strategy such as "
            f"waitable.retry.StandardRetryStrategy(), got {retry!r}"
        )
    built = build()
    if not isinstance(built, CallRetry):
        raise WaiterConfigurationError(
            f"waiter {waiter}: {retry!r}.call_retry() must return a CallRetry"
        )
    return built

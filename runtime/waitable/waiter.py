"""`Waiter` and `AsyncWaiter`: the base classes every generated waiter extends.

A generated class sets only `definition` and `operation_method`; construction
binds the client, and `wait()` runs the engine (`waitable.flow`) through the sync
or the asyncio driver.
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Callable
from typing import ClassVar, Generic, TypeVar

from .backoff import Backoff, SmithyBackoff
from .clock import Clock, SystemClock
from .definition import WaiterDefinition
from .drivers import run_async, run_sync
from .errors import WaiterConfigurationError
from .flow import WaitPlan, flow, start
from .invoke import Invoker, OperationCall, awaiting, bind_operation
from .options import resolve_options
from .results import Attempt, WaiterResult

__all__ = ["AsyncWaiter", "Waiter"]

InputT = TypeVar("InputT")
OutputT = TypeVar("OutputT")

_DEFAULT_BACKOFF = SmithyBackoff()


class _WaiterBase(Generic[InputT, OutputT]):
    """What both waiter kinds share: the bound client, clock, randomness and hooks."""

    definition: ClassVar[WaiterDefinition]
    operation_method: ClassVar[str] = ""

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
        if not isinstance(retry_on, tuple) or not all(
            isinstance(t, type) and issubclass(t, BaseException) for t in retry_on
        ):
            raise WaiterConfigurationError(
                f"waiter {definition.name}: retry_on must be a tuple of exception types, "
                f"got {retry_on!r}"
            )
        self.clock: Clock = SystemClock() if clock is None else clock
        self.rng = random.Random() if rng is None else rng
        self.on_attempt = on_attempt
        self.backoff: Backoff = _DEFAULT_BACKOFF if backoff is None else backoff
        self.retry_on = retry_on
        bind = bind_operation if invoker is None else invoker
        self._call: OperationCall = bind(
            client, type(self).operation_method, definition.name
        )

    def _plan(
        self,
        input: InputT,
        max_wait_time: float | None,
        min_delay: float | None,
        max_delay: float | None,
        max_attempts: int | None,
        backoff: Backoff | None,
    ) -> WaitPlan:
        options = resolve_options(
            self.definition,
            max_wait_time=max_wait_time,
            min_delay=min_delay,
            max_delay=max_delay,
            max_attempts=max_attempts,
            backoff=self.backoff if backoff is None else backoff,
        )
        return WaitPlan(
            self.definition, input, options, self.rng, self.retry_on, self.on_attempt
        )


class Waiter(_WaiterBase[InputT, OutputT]):
    """A synchronous waiter: `wait()` blocks until success, failure or the deadline.

    Construct with a boto3-style client (or a callable taking the input); pass
    `clock=`/`rng=` to control time and randomness, `on_attempt=` to watch each
    poll, `backoff=` to change the delay strategy, and `retry_on=` to retry
    transport errors instead of failing on them.
    """

    def wait(
        self,
        input: InputT,
        *,
        max_wait_time: float,
        min_delay: float | None = None,
        max_delay: float | None = None,
        max_attempts: int | None = None,
        backoff: Backoff | None = None,
    ) -> WaiterResult[OutputT]:
        """Poll until an acceptor says success; raise a `WaiterError` otherwise.

        `max_wait_time` (seconds) is required. Each request's time counts against it.
        """
        plan = self._plan(
            input, max_wait_time, min_delay, max_delay, max_attempts, backoff
        )
        clock, call = self.clock, self._call
        state = start(plan, clock.now())
        return run_sync(flow(plan, state, clock.now), lambda: call(input), clock)


class AsyncWaiter(_WaiterBase[InputT, OutputT]):
    """An asyncio waiter: `await wait()`; cancelling the task stops it at once.

    Construct with an async client (aiobotocore) or an async callable taking the
    input; the other arguments are those of `Waiter`. A request still running at
    the deadline is cancelled.
    """

    async def wait(
        self,
        input: InputT,
        *,
        max_wait_time: float,
        min_delay: float | None = None,
        max_delay: float | None = None,
        max_attempts: int | None = None,
        backoff: Backoff | None = None,
    ) -> WaiterResult[OutputT]:
        """Poll until an acceptor says success; raise a `WaiterError` otherwise.

        `max_wait_time` (seconds) is required. Each request's time counts against it.
        """
        plan = self._plan(
            input, max_wait_time, min_delay, max_delay, max_attempts, backoff
        )
        clock, call = self.clock, awaiting(self._call, self.definition.name)
        state = start(plan, clock.now())
        return await run_async(flow(plan, state, clock.now), lambda: call(input), clock)

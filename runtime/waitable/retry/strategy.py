"""Seed 001's `RetryStrategy` and the standard one, run by the waiter engine itself.

`StandardRetryStrategy.retry(policy, block)` runs `block` at least once and
retries it while `policy` says `RetryError`, with a token bucket and a backoff,
up to `max_attempts` tries and `max_time` seconds. It is no second loop: it is
the engine (`waitable.flow`) with one poll whose call is retried, the policy as
its judge, driven by the same sync and asyncio drivers as every waiter. Given to
a waiter as `retry=`, the same strategy retries each poll's call.

Defaults follow the AWS SDKs' "standard" retry mode: 3 tries, full-jitter
exponential backoff `random(0, min(20, 2 ** (n - 1)))` seconds before retry `n`,
and a `StandardRetryTokenBucket` (500 units, 5 per retry, 10 per timeout or
throttling retry, 1 back per success).

The backoff is asked with a `RetryContext` whose `min_delay` is the strategy's
base delay `b` (`min_backoff`, 1 s by default: the base of that formula) and
whose `max_delay` is its cap `c` (`max_backoff`, 20 s), so every strategy of
`waitable.backoff` works as a retry backoff, those that take `b` from the
context (`SmithyBackoff()`, `FixedDelay()`, ...) included.
"""

from __future__ import annotations

import logging
import math
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from ..backoff import Backoff, ExponentialFullJitter
from ..clock import CancelEvent, Clock, SystemClock, wall_reading
from ..definition import (
    Acceptor,
    AcceptorState,
    SuccessMatcher,
    WaiterDefinition,
)
from ..drivers import check_cancel_event, run_async, run_sync
from ..error_codes import error_code
from ..errors import (
    WaiterCancelledError,
    WaiterConfigurationError,
    WaiterError,
    WaiterFailureStateError,
    WaiterTimeoutError,
    service_text,
)
from ..flow import CallRetry, CutOff, Raised, Returned, WaitPlan, flow, start
from ..invoke import awaitable_check, refuse_awaitable, refuse_coroutine_function
from ..matching import Verdict
from ..options import WaitOptions, given_backoff, makes_strategies, refuse_class
from ..results import WaiterResult
from ..seconds import MAX_SECONDS, describe_value
from ..wording import Wording
from .directives import RetryDirective, TerminateAndSucceed
from .policy import RetryPolicy, StandardRetryPolicy
from .token_bucket import StandardRetryTokenBucket

__all__ = [
    "RetryAttemptsExceededError",
    "RetryCancelledError",
    "RetryFailedError",
    "RetryStrategy",
    "RetryStrategyError",
    "RetryTimeoutError",
    "StandardRetryStrategy",
]

T = TypeVar("T")

logger = logging.getLogger("waitable")

_SUCCESS = Verdict(AcceptorState.SUCCESS, None)
#: AWS standard mode: the backoff before a retry never exceeds 20 seconds.
MAX_BACKOFF = 20.0
#: AWS standard mode's base delay: retry `n` backs off up to `1 * 2 ** (n - 1)` s.
BASE_BACKOFF = 1.0

#: Why `retry` refuses an async block, and `retry_async` a synchronous one (as a
#: waiter refuses a client of the other kind: `waitable.invoke`).
_ASYNC_BLOCK = (
    "StandardRetryStrategy.retry is synchronous but the block is async; use "
    "await strategy.retry_async(policy, block) for a coroutine function"
)
_SYNC_BLOCK = (
    "StandardRetryStrategy.retry_async needs an async block (a coroutine function), "
    "but the block returned {returned}; use strategy.retry(policy, block) for a "
    "synchronous block"
)


class RetryStrategyError(Exception):
    """A retried block did not succeed; `.result` holds every try, `__cause__` the last error."""

    def __init__(self, message: str, result: WaiterResult[Any]) -> None:
        super().__init__(message)
        self.result = result

    @property
    def attempts(self) -> int:
        """How many tries were made."""
        last = self.result.last_attempt
        return 0 if last is None else len(last.retries) + 1


class RetryAttemptsExceededError(RetryStrategyError):
    """Every try failed with a retryable error and no more could be made."""


class RetryTimeoutError(RetryStrategyError):
    """`max_time` passed before a try succeeded."""


class RetryCancelledError(RetryStrategyError):
    """The `cancel` event was set before a try succeeded."""


class RetryFailedError(RetryStrategyError):
    """The policy said the last outcome is final (`TerminateAndFail`)."""


class RetryStrategy(Protocol):
    """Seed 001's `RetryStrategy`: run a block, evaluate, succeed, fail or retry."""

    def retry(self, policy: RetryPolicy[Any], block: Callable[[], T]) -> T:
        """Run `block` until `policy` says succeed (or raise)."""
        ...

    async def retry_async(
        self, policy: RetryPolicy[Any], block: Callable[[], Awaitable[T]]
    ) -> T:
        """`retry` for a coroutine function."""
        ...

    def call_retry(self) -> CallRetry:
        """How a waiter retries each poll's call under this strategy."""
        ...


@dataclass(frozen=True)
class StandardRetryStrategy:
    """The standard strategy: `max_attempts` tries within `max_time` seconds.

    `token_bucket` is shared by every call this strategy retries (and may be
    shared among strategies, threads and tasks); `backoff` is any strategy of
    `waitable.backoff`; `policy` classifies outcomes when the strategy retries a
    waiter's calls (`retry(policy, block)` takes its own).

    The backoff sees `min_backoff` as its context's `min_delay` (the base `b`
    of a strategy given no base of its own) and `max_backoff` as `max_delay`
    (the cap `c`). `min_backoff` defaults to 1 s, or to `max_backoff` when
    that is smaller; given, it must be more than 0 and at most `max_backoff`.
    A backoff given delays of its own (`FixedDelay(30)`) is used as given, as a
    waiter's is: `max_backoff` caps only the formulas that take `c`. Both are given
    as floats, so jitter is continuous (AWS standard mode) even for `max_backoff=3`.
    """

    max_attempts: int = 3
    max_time: float | None = None
    token_bucket: StandardRetryTokenBucket | None = field(
        default_factory=StandardRetryTokenBucket
    )
    # No base of its own: it takes `b` from the context, so `min_backoff` applies
    # (the default `b`, 1 s capped at `max_backoff`, keeps AWS standard mode's delays).
    backoff: Backoff = ExponentialFullJitter()
    max_backoff: float = MAX_BACKOFF
    min_backoff: float | None = field(default=None, kw_only=True)
    policy: RetryPolicy[Any] = field(default_factory=StandardRetryPolicy)
    clock: Clock = field(default_factory=SystemClock)
    rng: random.Random = field(default_factory=random.Random, compare=False)

    def __post_init__(self) -> None:
        if (
            isinstance(self.max_attempts, bool)
            or not isinstance(self.max_attempts, int)
            or self.max_attempts < 1
        ):
            raise WaiterConfigurationError(
                f"max_attempts must be an integer >= 1 (tries, the first included), "
                f"got {self.max_attempts!r}"
            )
        if self.max_time is not None and (
            isinstance(self.max_time, bool)
            or not isinstance(self.max_time, (int, float))
            or not 0 < self.max_time < math.inf
        ):
            raise WaiterConfigurationError(
                f"max_time must be a positive, finite number of seconds (or None), "
                f"got {self.max_time!r}"
            )
        refuse_class("StandardRetryStrategy", "policy", self.policy, "evaluate")
        refuse_class(
            "StandardRetryStrategy", "token_bucket", self.token_bucket, "acquire_token"
        )
        if not callable(getattr(self.policy, "evaluate", None)):
            raise WaiterConfigurationError(
                f"policy must be a RetryPolicy such as StandardRetryPolicy() (an object "
                f"with evaluate(outcome)), got {self.policy!r}"
            )
        if self.token_bucket is not None and not callable(
            getattr(self.token_bucket, "acquire_token", None)
        ):
            raise WaiterConfigurationError(
                f"token_bucket must be a token bucket such as StandardRetryTokenBucket() "
                f"(an object with acquire_token(now)), or None for no bucket, got "
                f"{self.token_bucket!r}"
            )
        backoff = self.backoff
        if isinstance(backoff, type) and makes_strategies(backoff):
            raise WaiterConfigurationError(
                f"backoff must be a strategy, got the class {backoff.__name__}; pass "
                f"an instance: {backoff.__name__}()"
            )
        if not callable(backoff) or isinstance(backoff, type):
            raise WaiterConfigurationError(
                f"backoff must be a strategy such as ExponentialFullJitter(), "
                f"got {given_backoff(backoff)}"
            )
        if (
            isinstance(self.max_backoff, bool)
            or not isinstance(self.max_backoff, (int, float))
            or not 0 <= self.max_backoff <= MAX_SECONDS
        ):
            # At most MAX_SECONDS, as a waiter's max_delay: the engine refuses a
            # longer backoff, which a larger cap let through only at the retry
            # whose exponential first passed it, blaming the backoff strategy.
            raise WaiterConfigurationError(
                f"max_backoff must be a number of seconds from 0 to {MAX_SECONDS} "
                f"(100 years; the cap of the retry backoff), got "
                f"{describe_value(self.max_backoff)}"
            )
        if self.min_backoff is not None:
            if (
                isinstance(self.min_backoff, bool)
                or not isinstance(self.min_backoff, (int, float))
                or not 0 < self.min_backoff < math.inf
            ):
                raise WaiterConfigurationError(
                    f"min_backoff must be a positive, finite number of seconds (the "
                    f"base delay of the retry backoff, or None for "
                    f"{BASE_BACKOFF:g}), got {self.min_backoff!r}"
                )
            if self.min_backoff > self.max_backoff:
                raise WaiterConfigurationError(
                    f"min_backoff={self.min_backoff!r} is greater than "
                    f"max_backoff={self.max_backoff!r}: the base delay of the retry "
                    "backoff must not exceed its cap; lower min_backoff or raise "
                    "max_backoff"
                )

    @property
    def _base_backoff(self) -> float:
        """The base delay `b` the backoff sees as `RetryContext.min_delay`:
        `min_backoff`, or 1 s capped at `max_backoff` when it is None."""
        if self.min_backoff is not None:
            return self.min_backoff
        return min(BASE_BACKOFF, self.max_backoff)

    def call_retry(self) -> CallRetry:
        """This strategy as the engine's per-call retry settings."""
        return CallRetry(
            policy=self.policy,
            backoff=self.backoff,
            max_attempts=self.max_attempts,
            max_time=math.inf if self.max_time is None else self.max_time,
            bucket=self.token_bucket,
            min_delay=float(self._base_backoff),
            max_delay=float(self.max_backoff),
        )

    def retry(
        self,
        policy: RetryPolicy[Any],
        block: Callable[[], T],
        *,
        cancel: CancelEvent | None = None,
    ) -> T:
        """Run `block` at least once, retrying while `policy` says `RetryError`.

        `cancel` (a `threading.Event`, set from any thread) stops the retries
        before the next try or during a backoff with `RetryCancelledError`. An
        async block is refused (`WaiterConfigurationError`), as a sync waiter
        refuses an async client: its coroutine is no result.
        """
        refuse_coroutine_function(block, _ASYNC_BLOCK)
        if cancel is not None:
            check_cancel_event(cancel, RETRY_WORDING.owner(""))
        plan, once = self._plan(policy)

        def call() -> Any:
            # A sync try is never cut off: one that raises after max_time is not
            # judged, so its error is kept here, to be chained.
            try:
                answer = block()
            except Exception as error:
                once.last_error = error
                raise
            return refuse_awaitable(answer, _ASYNC_BLOCK)

        state = start(plan, self.clock.now())
        try:
            result = run_sync(
                flow(plan, state, self.clock.now), call, self.clock, cancel=cancel
            )
        except WaiterError as error:
            raise _logged(_translate(error, once.last_error, cut_off=False)) from (
                _cause(error, once.last_error)
            )
        _log_success(result)
        value: T = result.output
        return value

    async def retry_async(
        self, policy: RetryPolicy[Any], block: Callable[[], Awaitable[T]]
    ) -> T:
        """`retry` for a coroutine function, on asyncio; a block that returns no
        awaitable is refused (`WaiterConfigurationError`), as an async waiter
        refuses a synchronous client."""
        plan, once = self._plan(policy)
        state = start(plan, self.clock.now())
        try:
            result = await run_async(
                flow(plan, state, self.clock.now),
                block,
                self.clock,
                awaitable=awaitable_check("retry", _SYNC_BLOCK),
            )
        except WaiterError as error:
            raise _logged(_translate(error, once.last_error, cut_off=True)) from (
                _cause(error, once.last_error)
            )
        _log_success(result)
        value: T = result.output
        return value

    def _plan(self, policy: RetryPolicy[Any]) -> tuple[WaitPlan, _EvaluatedOnce]:
        refuse_class("StandardRetryStrategy.retry", "policy", policy, "evaluate")
        if not callable(getattr(policy, "evaluate", None)):
            raise WaiterConfigurationError(
                f"policy must be a RetryPolicy (an object with evaluate(outcome)), "
                f"got {policy!r}"
            )

        once = _EvaluatedOnce(policy)

        def judge(
            plan: WaitPlan,
            outcome: Returned | Raised,
            input_data: Any,
            code: str | None,
        ) -> Verdict | None:
            directive = once.evaluate(outcome)
            return _SUCCESS if isinstance(directive, TerminateAndSucceed) else None

        max_time = math.inf if self.max_time is None else float(self.max_time)
        options = WaitOptions(max_time, 0.0, self.max_backoff, 1, self.backoff)
        retrying = CallRetry(
            policy=once,
            backoff=self.backoff,
            max_attempts=self.max_attempts,
            max_time=max_time,
            bucket=self.token_bucket,
            min_delay=float(self._base_backoff),
            max_delay=float(self.max_backoff),
        )
        plan = WaitPlan(
            _RETRY_DEFINITION,
            options,
            self.rng,
            judge=judge,
            call_retry=retrying,
            own_log=True,
            wording=RETRY_WORDING,
            wall=None if self.token_bucket is None else wall_reading(self.clock),
        )
        return plan, once


class _EvaluatedOnce:
    """The user's policy asked once per outcome: the judge asks first (success
    ends the retries), then the retry step asks the same outcome again and is
    given the same directive (seed 001 evaluates each try once). It keeps the
    last error a try raised, which a timeout chains (seed 001's `previousResult`)."""

    def __init__(self, policy: RetryPolicy[Any]) -> None:
        self.policy = policy
        self.outcome: object = None
        self.directive: RetryDirective | None = None
        self.last_error: Exception | None = None

    def evaluate(self, outcome: Returned | Raised | CutOff) -> RetryDirective:
        """The policy's directive for `outcome`, asked only the first time."""
        if self.directive is None or outcome is not self.outcome:
            if isinstance(outcome, Raised):
                self.last_error = outcome.error
            self.directive = self.policy.evaluate(outcome)
            self.outcome = outcome
        return self.directive

    def __repr__(self) -> str:
        """The user's policy, as errors about its answers name it."""
        return repr(self.policy)


#: `retry`'s words in the engine's messages and DEBUG lines: it names itself,
#: not "waiter retry" (its definition's internal name), and its policy judges.
RETRY_WORDING = Wording(
    "StandardRetryStrategy.retry",
    named=False,
    deadline_option="max_time",
    cancelled_by="its cancel event was set",
    verdicts=("the retry policy said succeed", "the retry policy did not say succeed"),
    call="the block",
    attempt="try",
    going_on="retrying",
)


_RETRY_DEFINITION = WaiterDefinition(
    name="retry",
    operation="block",
    acceptors=(Acceptor(AcceptorState.SUCCESS, SuccessMatcher(True)),),
    documentation="A block retried by a StandardRetryStrategy.",
)


def _tries(result: WaiterResult[Any]) -> str:
    """How many tries a retried block's result holds: "1 try", "3 tries"."""
    last = result.last_attempt
    tries = 0 if last is None else len(last.retries) + 1
    return f"{tries} tr{'y' if tries == 1 else 'ies'}"


def _log_success(result: WaiterResult[Any]) -> None:
    """Log at INFO that a retried block succeeded, in the strategy's words (the
    engine's line would speak of a waiter, its acceptors and one attempt)."""
    if logger.isEnabledFor(logging.INFO):
        logger.info("retry succeeded after %s in %.3fs", _tries(result), result.elapsed)


def _logged(error: RetryStrategyError) -> RetryStrategyError:
    """`error`, logged at INFO as the engine logs a wait's ending error."""
    logger.info("%s", error)
    return error


def _cause(error: WaiterError, last_error: Exception | None) -> BaseException | None:
    """What the strategy's error chains: the engine's cause (the last try's error),
    else, for a last try that ended too late, the last error a try raised."""
    if error.__cause__ is None and isinstance(error, WaiterTimeoutError):
        return last_error
    return error.__cause__


def _translate(
    error: WaiterError, last_error: Exception | None, *, cut_off: bool
) -> RetryStrategyError:
    """The engine's ending of a retried block as the strategy's own error;
    `last_error` is the last error a try raised, `cut_off` says whether a try
    still running at max_time is cut off (asyncio) or answers late (sync)."""
    result = error.result
    last = result.last_attempt
    tries = 0 if last is None else len(last.retries) + 1
    seen = (
        f"last error {last.error_type}"
        if last is not None and last.error_type is not None
        else "last outcome a value the policy rejected"
    )
    if isinstance(error, WaiterTimeoutError):
        # The engine ends on a try that did not end by max_time: it was not judged.
        if last is None:
            seen = "no try ended before max_time"
        elif last.error_type is not None:
            seen = f"the last try raised {last.error_type} after max_time"
        elif cut_off:
            seen = "the last try was cut off at max_time"
        else:
            seen = "the last try returned after max_time, too late to count"
        if last is not None and last.error_type is None and last_error is not None:
            code = service_text(error_code(last_error))
            seen += f" (the last error, {code}, is chained)"
    stopped = None if last is None else last.retry_stopped
    if isinstance(error, WaiterCancelledError):
        return RetryCancelledError(
            f"retry was cancelled (its cancel event was set) after {tries} "
            f"tr{'y' if tries == 1 else 'ies'} in {result.elapsed:.1f}s"
            + ("" if tries == 0 else f", {seen}"),
            result,
        )
    if isinstance(error, WaiterTimeoutError):
        return RetryTimeoutError(
            f"retry gave up: max_time ran out after {tries} tr{'y' if tries == 1 else 'ies'} "
            f"in {result.elapsed:.1f}s, {seen}; raise max_time to allow more retries",
            result,
        )
    if stopped == "max_time":
        # Stopped early: the next try would only have begun (after its backoff)
        # past max_time, so it was not waited for.
        return RetryTimeoutError(
            f"retry gave up after {tries} tr{'y' if tries == 1 else 'ies'} in "
            f"{result.elapsed:.1f}s: the next retry would have begun past max_time, "
            f"after its backoff, {seen}; raise max_time (or lower the backoff) to "
            "allow more retries",
            result,
        )
    if stopped == "max_attempts":
        return RetryAttemptsExceededError(
            f"retry gave up after {tries} tr{'y' if tries == 1 else 'ies'} "
            f"(max_attempts), {seen}; raise max_attempts, or look at why every try "
            "failed",
            result,
        )
    if stopped == "capacity":
        return RetryAttemptsExceededError(
            f"retry gave up after {tries} tr{'y' if tries == 1 else 'ies'}: the token "
            f"bucket had no capacity for another retry, {seen}; the service is failing "
            "often, so retries are being rationed",
            result,
        )
    what = (
        "a value"
        if isinstance(error, WaiterFailureStateError)
        else (last.error_type if last is not None and last.error_type else "an error")
    )
    return RetryFailedError(
        f"retry stopped after {tries} tr{'y' if tries == 1 else 'ies'}: the policy "
        f"says {what} is final (not retryable); the original error is chained",
        result,
    )

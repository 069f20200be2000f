"""One poll's call: the shared rate limit first, then the call, retried under seed 001.

`make_call` is the part of the engine (`waitable.flow`) that makes one poll's call:
it takes a token from `plan.rate_limit` if there is one, yields the `Poll`, and,
when the poll's verdict would end the wait on an error the retry policy calls
retryable, backs off, pays the token bucket and calls again, all inside the wait's
deadline. Each retry is a `Retry` record; the poll's `Attempt` lists them.
"""

from __future__ import annotations

import logging
import math
import numbers
from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias

from .actions import (
    EPSILON,
    START_TOLERANCE,
    Action,
    Cancel,
    CutOff,
    Late,
    NoRetryCapacity,
    Outcome,
    Poll,
    Raised,
    Returned,
    Sleep,
    PollDraft,
)
from .backoff import Backoff, RetryContext
from .error_codes import error_code
from .errors import WaiterConfigurationError, WaiterEvaluationError, service_text
from .matching import Verdict
from .results import Retry
from .seconds import MAX_SECONDS, describe_value, is_plain_delay

if TYPE_CHECKING:
    from .flow import WaitPlan, WaitState
    from .retry.directives import RetryDirective

__all__ = [
    "CUT_OFF",
    "CallJudge",
    "CallRecord",
    "CallRetry",
    "RateLimit",
    "checked_delay",
    "LATE",
    "arrived_late",
    "make_call",
    "poll_for",
    "retry_reason",
    "poll_timeout",
]

#: The outcomes without fields, made once.
CUT_OFF = CutOff()
LATE = Late()

logger = logging.getLogger("waitable")
#: The earliest `remaining` a poll may start with (`START_TOLERANCE` past the deadline).
_LATEST = -START_TOLERANCE

#: Decides one outcome of a call (with its error code): the verdict, or the
#: acceptor that could not be evaluated.
CallJudge: TypeAlias = Callable[
    [Returned | Raised, str | None],
    tuple[Verdict | None, WaiterEvaluationError | None],
]


class RetryPolicyLike(Protocol):
    """Seed 001's `RetryPolicy`: an outcome in, a `RetryDirective` out."""

    def evaluate(self, outcome: Any, /) -> RetryDirective: ...


class RetryTokenLike(Protocol):
    """Seed 001's `RetryToken`: resolved by exactly one of its three methods."""

    def notify_success(self, now: float) -> None: ...

    def notify_failure(self, now: float) -> None: ...

    def schedule_retry(self, reason: Any, now: float) -> Any: ...


class TokenBucketLike(Protocol):
    """Seed 001's `RetryTokenBucket`: a token before the first try of a call."""

    def acquire_token(self, now: float) -> Any: ...


class RateLimit(Protocol):
    """A shared limiter: 0.0 when a call may go now, else seconds until it may."""

    def try_acquire(self, now: float) -> float: ...


@dataclass(frozen=True, slots=True)
class CallRetry:
    """How one poll's call is retried (seed 001): policy, bucket, backoff, attempts.

    `max_attempts` counts tries of one call (the first included); `max_time` caps
    when its retries may start (a backoff or a wait for capacity that would end past
    it stops the retries; the wait's deadline caps it too). A try already running is
    cut off at the wait's deadline only (`StandardRetryStrategy.retry_async` runs
    with `max_time` as its deadline, so there it cuts a try off too; the sync
    `retry` cannot interrupt a try, and judges none that ends past `max_time`).
    """

    policy: RetryPolicyLike
    backoff: Backoff
    max_attempts: int = 3
    max_time: float = math.inf
    bucket: TokenBucketLike | None = None
    min_delay: float = 0.0
    max_delay: float = 20.0


@dataclass(slots=True)
class CallRecord:
    """One poll's call after its retries: the last outcome, when it ran, what was decided."""

    outcome: Outcome
    started: float
    finished: float
    retries: list[Retry]
    verdict: Verdict | None = None
    judged: bool = False
    late: bool = False
    retry_stopped: str | None = None
    broken: WaiterEvaluationError | None = None


def make_call(
    plan: WaitPlan, state: WaitState, now: Callable[[], float], judge: CallJudge
) -> Generator[Action, Outcome | None, CallRecord]:
    """Make one poll's call, retrying it under `plan.call_retry`, all within the deadline.

    Seed 001's order: a token before the first try; after each try exactly one of
    success, failure or schedule-retry; the backoff before each retry, then its
    cost to the bucket (sleeping for capacity when the bucket is short).
    """
    retrying = plan.call_retry
    first = now()
    limit = state.deadline
    token = None
    # Shared buckets and limiters read the wall clock, whatever clock the flow runs
    # on (monotonic for `wait`, wall for `poll_once`): one clock for every wait.
    shift = _wall_shift(plan, first)
    if retrying is not None:
        limit = min(limit, first + retrying.max_time)
        if retrying.bucket is not None:
            bucket = retrying.bucket
            token = _first_token_now(bucket, first + shift)
            if token is None or _token_wait(plan, bucket, token) > 0:
                token = yield from _first_token(plan, bucket, now, limit, shift)
    # Seed 001: the first try is always made; without its token, no retries.
    tokenless = retrying is not None and retrying.bucket is not None and token is None
    retries: list[Retry] = []
    call: CallRecord | None = None  # the last try's record, once one is judged
    try:
        while True:
            # A poll may start up to the deadline (with the drivers' slack); a
            # retry of its call, only up to `limit` (max_time or the deadline).
            by = state.deadline + START_TOLERANCE if call is None else limit
            took = True
            if plan.rate_limit is not None:
                took = yield from _take_rate_token(
                    plan, plan.rate_limit, by, now, shift
                )
            started = now()
            poll = poll_for(plan, state, started) if took else None
            if call is not None and (poll is None or started > by + START_TOLERANCE):
                # The retry scheduled is not made: the call ends with its last try.
                _not_made(plan, state, retries.pop(), "max_time")
                _resolve(token, started + shift, success=False)
                call.retry_stopped = "max_time"
                return call
            if poll is None:  # the try is not made: its token ends as a failure
                _resolve(token, started + shift, success=False)
                return CallRecord(LATE, started, started, retries, late=True)
            outcome: Any = yield poll
            finished = now()
            if arrived_late(outcome, started, finished, poll.timeout):
                _resolve(token, finished + shift, success=False)
                return CallRecord(outcome, started, finished, retries, late=True)
            if retrying is None:
                return CallRecord(outcome, started, finished, retries)
            code = (
                error_code(outcome.error, plan.definition.errors)
                if isinstance(outcome, Raised)
                else None
            )
            verdict, broken = judge(outcome, code)
            call = CallRecord(
                outcome, started, finished, retries, verdict, judged=True, broken=broken
            )
            if verdict is not None or broken is not None:
                _resolve(token, finished + shift, success=True)
                return call
            reason = retry_reason(plan, retrying.policy, outcome)
            tries = len(retries) + 1
            stopped = None
            delay = 0.0
            if reason is None:
                pass
            elif tries >= retrying.max_attempts:
                stopped = "max_attempts"
            elif tokenless:
                stopped = "capacity"
            else:
                previous = retries[-1].delay if retries else None
                delay = _retry_delay(plan, retrying, tries, limit - finished, previous)
                if finished + delay > limit:
                    stopped = "max_time"
            if reason is None or stopped is not None:
                _resolve(token, finished + shift, success=False)
                call.retry_stopped = stopped
                if stopped is not None and logger.isEnabledFor(logging.DEBUG):
                    _log_retry(plan, state, tries, code, reason, None, stopped)
                return call
            retries.append(
                Retry(tries, code, str(getattr(reason, "value", reason)), delay)
            )
            if logger.isEnabledFor(logging.DEBUG):
                _log_retry(plan, state, tries, code, reason, delay, None)
            if delay > 0:
                yield Sleep(delay)
            if token is not None:
                stopped = yield from _pay_retry(plan, token, reason, now, limit, shift)
                if stopped is not None:
                    _not_made(plan, state, retries.pop(), stopped)
                    call.retry_stopped = stopped
                    return call
    except BaseException as stop:
        # The call ends here without a resolution: cancelled at one of the yields
        # above, or an error (a backoff or policy that raised). An open token ends
        # as a failure (seed 001: one resolution per call), so a bucket that counts
        # open tokens is not left one short.
        _fail_open_token(token, now, shift)
        if call is not None and isinstance(stop, Cancel):
            retries.pop()  # the retry that was scheduled was not made
            call.retry_stopped = "cancelled"
            stop.call = call
        raise


def retry_reason(plan: WaitPlan, policy: RetryPolicyLike, outcome: Any) -> Any:
    """The `RetryErrorType` of the `RetryError` that `policy` answers for `outcome`,
    or None when it answers `TerminateAndSucceed` or `TerminateAndFail`.

    Any other answer is refused with a `WaiterConfigurationError` naming it: read
    as "no retry", a hook that answered True or None (meaning "retry", or
    forgetting to return) ended the call with an error saying the policy called
    it final, and a `RetryError` of an unknown reason raised a bare `ValueError`
    from the token bucket.
    """
    from .retry.directives import (  # the retry package imports the engine
        RetryError,
        RetryErrorType,
        TerminateAndFail,
        TerminateAndSucceed,
    )

    directive = policy.evaluate(outcome)
    if isinstance(directive, (TerminateAndSucceed, TerminateAndFail)):
        return None
    if isinstance(directive, RetryError):
        reason = directive.reason
        if isinstance(reason, RetryErrorType):
            return reason
        try:
            return RetryErrorType(reason)
        except ValueError:
            pass
    kinds = ", ".join(f"RetryErrorType.{kind.name}" for kind in RetryErrorType)
    raise WaiterConfigurationError(
        f"{_owner(plan)}: the retry policy {describe_value(policy)} "
        f"answered {describe_value(directive)} for {describe_value(outcome)}; a "
        "policy (its evaluate_other_exceptions or other= hook included) must "
        "answer TerminateAndSucceed(), TerminateAndFail() or RetryError(reason) "
        f"with a reason of {kinds}"
    )


def _owner(plan: WaitPlan) -> str:
    """Who an error about a policy's or bucket's answer names, in the plan's
    words: "waiter NAME", or `StandardRetryStrategy.retry` for its own calls
    ("waiter retry" named none the caller has)."""
    return plan.wording.owner(plan.definition.name)


def poll_for(plan: WaitPlan, state: WaitState, started: float) -> Poll | None:
    """The `Poll` of a call starting at clock time `started`, or None: too late to start.

    Every poll but the final one is cut off at the deadline; the final one may
    run `min_delay` seconds (the spec's allowance for it).
    """
    deadline = state.deadline
    remaining = deadline - started
    if state.final or remaining <= 0.0:
        if remaining < _LATEST:
            return None
        timeout = max(remaining, plan.options.min_delay)
        cut_at = started + timeout
    else:
        timeout, cut_at = remaining, deadline
    poll = PollDraft()  # the engine's fast way (`waitable.records`): one per poll
    poll.attempt = state.attempts + 1
    poll.remaining = remaining
    poll.timeout = timeout
    poll.start_by = deadline + START_TOLERANCE
    poll.cut_at = cut_at
    poll.__class__ = Poll
    made: Poll = poll
    return made


def poll_timeout(plan: WaitPlan, state: WaitState, started: float) -> float:
    """`poll_for(...).timeout` again, from the same state (it does not change during a poll).

    So the engine need not keep the `Poll` while the call runs: with many waits
    pending, an object per pending call counts.
    """
    remaining = state.deadline - started
    if state.final or remaining <= 0.0:
        return max(remaining, plan.options.min_delay)
    return remaining


def arrived_late(outcome: Any, started: float, finished: float, timeout: float) -> bool:
    """Whether a poll's `outcome` came too late to count; a `TypeError` for a non-`Outcome`."""
    kind = type(outcome)
    if kind is Returned or kind is Raised:
        return finished - started > timeout + EPSILON
    if isinstance(outcome, (Returned, Raised)):
        return finished - started > timeout + EPSILON
    if isinstance(outcome, (CutOff, Late)):
        return True
    raise TypeError(f"a driver sent {outcome!r} in answer to Poll; send an Outcome")


def _log_retry(
    plan: WaitPlan,
    state: WaitState,
    tries: int,
    code: str | None,
    reason: Any,
    delay: float | None,
    stopped: str | None,
) -> None:
    """Log at DEBUG, as it happens, that try `tries` of a poll's call is retried
    after `delay` seconds, or why the retry its policy asked for is not made
    (`stopped`): the poll's own line comes only once its call has ended."""
    seen = (
        "returned an output the retry policy retries"
        if code is None
        else f"raised {service_text(code)}"
    )
    then = (
        f"retry {tries + 1} after a {delay:.3f}s backoff"
        if stopped is None
        else f"not retried ({stopped})"
    )
    logger.debug(
        "%s: try %d %s (%s); %s",
        plan.wording.attempt_of(plan.definition.name, state.attempts + 1),
        tries,
        seen,
        getattr(reason, "value", reason),
        then,
    )


def _not_made(plan: WaitPlan, state: WaitState, dropped: Retry, stopped: str) -> None:
    """Log at DEBUG that the retry `dropped`, scheduled (and logged) after its
    backoff, was not made after all, and why (`stopped`)."""
    if logger.isEnabledFor(logging.DEBUG):
        _log_retry(
            plan,
            state,
            dropped.number,
            dropped.error_type,
            dropped.reason,
            None,
            stopped,
        )


def _resolve(token: Any, now: float, *, success: bool) -> None:
    """Resolve a call's retry token, if it has one: success or failure."""
    if token is None:
        return
    if success:
        token.notify_success(now)
    else:
        token.notify_failure(now)


def _fail_open_token(token: Any, now: Callable[[], float], shift: float) -> None:
    """Resolve `token` as a failure unless it is None or resolved, while another
    exception propagates: an error of the bucket's own here is logged, not raised
    in place of that one."""
    if token is None or getattr(token, "resolved", False):
        return
    try:
        token.notify_failure(now() + shift)
    except Exception:
        logger.exception("resolving the retry token of an ended call failed")


def _first_token_now(bucket: TokenBucketLike, now: float) -> Any:
    """The first try's token when it can be had at once (the usual case), else None."""
    try:
        return bucket.acquire_token(now)
    except NoRetryCapacity:
        return None


def _wall_shift(plan: WaitPlan, reading: float) -> float:
    """What to add to the flow's clock `reading` to get the wall clock's, which
    shared buckets and limiters are fed (0 without either, or without a wall)."""
    wall = plan.wall
    if wall is None:
        return 0.0
    retrying = plan.call_retry
    if plan.rate_limit is None and (retrying is None or retrying.bucket is None):
        return 0.0
    return float(wall()) - reading


def _first_token(
    plan: WaitPlan,
    bucket: TokenBucketLike,
    now: Callable[[], float],
    limit: float,
    shift: float,
) -> Generator[Action, Outcome | None, Any]:
    """The token for a call's first try, sleeping while the bucket asks to wait."""
    while True:
        try:
            token = bucket.acquire_token(now() + shift)
        except NoRetryCapacity as short:
            logger.debug("first try made without a retry token: %s", short)
            return None  # the first try is always made (seed 001); no retries then
        wait = _token_wait(plan, bucket, token)
        if wait <= 0:
            return token
        if now() + wait > limit:
            return None
        yield Sleep(wait)


def _pay_retry(
    plan: WaitPlan,
    token: Any,
    reason: Any,
    now: Callable[[], float],
    limit: float,
    shift: float,
) -> Generator[Action, Outcome | None, str | None]:
    """Pay a retry's cost, sleeping for capacity; why it could not be paid, or None.

    A bucket in circuit-breaker mode raises when it is short: that ends the
    retries at once ("capacity"); so does a wait for capacity past `limit`.
    """
    while True:
        try:
            wait = token.schedule_retry(reason, now() + shift)
        except NoRetryCapacity as short:  # the circuit breaker: fail fast
            logger.debug("retry not made: %s", short)
            token.notify_failure(now() + shift)
            return "capacity"
        if type(wait) is not float or wait != wait:
            wait = _seconds_answer(plan, token, "schedule_retry", wait)
        if wait <= 0:
            return None
        if now() + wait > limit:
            token.notify_failure(now() + shift)
            return "capacity"
        yield Sleep(wait)


def _seconds_answer(plan: WaitPlan, source: object, method: str, answer: Any) -> float:
    """`answer`, the seconds to wait that `source.method()` gave (a rate limiter's
    `try_acquire`, a retry token's `schedule_retry` or `wait`), as a float.

    Any real number but NaN is taken (0 or less: go now; a huge one: never in
    time), a `fractions.Fraction` too, as the engine took one before answers were
    checked. Anything else, from a limiter or bucket of the user's own, is a
    `WaiterConfigurationError` naming it: it was a `TypeError` from a comparison
    inside the engine, or a NaN sleep that the clock refused.
    """
    real = isinstance(answer, numbers.Real) and not isinstance(answer, bool)
    if real:  # (a flag: typeshed's `Real` has no comparisons for mypy)
        try:
            seconds = float(answer)
        except OverflowError:  # a number too large for a float
            seconds = math.inf if answer > 0 else -math.inf
        if seconds == seconds:
            return seconds
    raise WaiterConfigurationError(
        f"{_owner(plan)}: {describe_value(source)}.{method} answered "
        f"{describe_value(answer)}; a rate limiter or retry token bucket answers "
        "the seconds to wait as a number (0 or less: go now), as "
        "waitable.RateLimiter and StandardRetryTokenBucket do"
    )


def _token_wait(plan: WaitPlan, bucket: TokenBucketLike, token: Any) -> float:
    """The seconds a first try's `token` asks to wait before it holds anything
    (its `wait`; 0.0 for a token without one), checked by `_seconds_answer`."""
    wait = getattr(token, "wait", 0.0)
    if type(wait) is float and wait == wait:
        return wait
    return _seconds_answer(plan, bucket, "acquire_token(now).wait", wait)


#: Below this, a rate limiter's wait is the rounding of a wall-clock time (floats
#: near an epoch time are 1e-7 s apart), not time: the token is taken at once.
_ROUNDING = 1e-6


def _take_rate_token(
    plan: WaitPlan,
    limiter: RateLimit,
    by: float,
    now: Callable[[], float],
    shift: float,
) -> Generator[Action, Outcome | None, bool]:
    """Sleep until the shared rate limiter lets this call go; False at once when
    its next token comes only after clock time `by` (tokens come at refills, so
    no call can be made in time: the wait need not sleep to `by` to say so)."""
    while True:
        at = now()
        wall = at + shift
        wait = limiter.try_acquire(wall)
        if type(wait) is not float or wait != wait:
            wait = _seconds_answer(plan, limiter, "try_acquire", wait)
        if 0 < wait <= _ROUNDING:  # due now, but for the rounding of `wall`
            wait = limiter.try_acquire(wall + wait)
            if type(wait) is not float or wait != wait:
                wait = _seconds_answer(plan, limiter, "try_acquire", wait)
        if wait <= 0:
            return True
        if at + wait > by:
            return False
        # Wake at the refill as this clock reads it (`refill - shift`), not `at +
        # wait`: near an epoch time wall-clock floats are 1e-7 s apart, and a wait
        # whose `wall` rounded down woke that much after every other wait due at
        # the refill, found the bucket empty, and was last again at each refill.
        delay = (wall + wait - shift) - at
        yield Sleep(delay if delay > 0 else wait)


def _retry_delay(
    plan: WaitPlan,
    retrying: CallRetry,
    tries: int,
    remaining: float,
    previous: float | None,
) -> float:
    """The backoff before retry `tries` of one call (seed 001's delayer);
    `previous` is the backoff before the retry before it (None before the first),
    which strategies such as `DecorrelatedJitter` build on."""
    context = RetryContext(
        attempt=tries,
        remaining=remaining,
        min_delay=retrying.min_delay,
        max_delay=retrying.max_delay,
        previous_delay=previous,
        rng=plan.rng,
    )
    return checked_delay(plan, retrying.backoff, context)


def checked_delay(plan: WaitPlan, backoff: Backoff, retry: RetryContext) -> float:
    """`backoff(retry)`, refused unless it is a finite number of seconds >= 0."""
    delay = backoff(retry)
    if is_plain_delay(delay):
        return delay  # the usual case, checked without the isinstance calls below
    owner = plan.wording.owner(plan.definition.name)
    return refused_unless_valid(owner, backoff, retry, delay)


def refused_unless_valid(
    owner: str, backoff: Backoff, retry: RetryContext, delay: Any
) -> float:
    """`delay`, as `backoff` answered `retry` for `owner` (who the error names:
    "waiter NAME"), if it is a number of seconds >= 0; else a
    `WaiterConfigurationError` that says what it returned."""
    if (
        isinstance(delay, bool)
        or not isinstance(delay, (int, float))
        or not 0 <= delay <= MAX_SECONDS
    ):
        raise WaiterConfigurationError(
            f"{owner}: backoff {backoff!r} returned {delay!r} "
            f"for retry {retry.attempt}; a strategy must return a number of seconds "
            f">= 0 (and at most {MAX_SECONDS})"
        )
    return delay

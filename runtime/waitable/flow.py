"""The waiter engine, written once and free of I/O: a generator of actions.

`flow(plan, state, now)` yields `Poll` ("call the operation now") and `Sleep`
("wait this long") and receives each poll's outcome through `.send()`:
`Returned(output)`, `Raised(error)`, or `CutOff()` when the driver cancelled a
request at its time limit. It returns the `WaiterResult` on success and raises a
`WaiterError` otherwise. The drivers (`waitable.drivers`) only call the client
and sleep, so sync and asyncio waiters share every decision made here.

Everything the loop remembers lives in one `WaitState` record, so a wait can be
saved between polls and resumed by a fresh `flow` on the same clock.

The steps are the spec's: the first poll happens at once; acceptors are tried in
order; an error no acceptor matched fails the wait; a response no acceptor matched
is a retry; a response that arrives after the deadline fails the wait (step 2).
The retry delay comes from the backoff strategy and then the last-attempt rule:
`remaining - delay <= min_delay` → `delay = remaining`, so the final poll starts
at the deadline and none comes after it. That final poll may run for up to
`min_delay` seconds (the allowance the spec's older rule reserved for it) before
a driver cuts it off.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from typing import Any, NoReturn, TypeAlias

from .backoff import RetryContext
from .datamodel import to_jmespath
from .definition import AcceptorState, WaiterDefinition
from .error_codes import error_code, is_transport_error
from .errors import (
    WaiterConfigurationError,
    WaiterFailureStateError,
    WaiterMaxAttemptsError,
    WaiterOperationError,
    WaiterTimeoutError,
)
from .matching import Verdict, match_error, match_output
from .options import WaitOptions
from .results import Attempt, WaiterResult

__all__ = [
    "Action",
    "CutOff",
    "Outcome",
    "Poll",
    "Raised",
    "Returned",
    "Sleep",
    "WaitPlan",
    "WaitState",
    "flow",
    "start",
]

logger = logging.getLogger("waitable")

# Clock readings within this many seconds of a limit count as on it (float rounding).
_EPSILON = 1e-9

# The verdicts no acceptor chose, made once rather than on every poll.
_IMPLICIT_RETRY = Verdict(AcceptorState.RETRY, None)
_IMPLICIT_FAILURE = Verdict(AcceptorState.FAILURE, None)


@dataclass(frozen=True, slots=True)
class Poll:
    """Call the operation now. Cut the request off after `timeout` seconds if you can."""

    attempt: int
    remaining: float
    timeout: float


@dataclass(frozen=True, slots=True)
class Sleep:
    """Wait `seconds` before the next action."""

    seconds: float


@dataclass(frozen=True, slots=True)
class Returned:
    """The operation returned `output`."""

    output: Any


@dataclass(frozen=True, slots=True)
class Raised:
    """The operation raised `error`."""

    error: Exception


@dataclass(frozen=True, slots=True)
class CutOff:
    """The driver cancelled the request when its `Poll.timeout` ran out."""


Action: TypeAlias = Poll | Sleep
Outcome: TypeAlias = Returned | Raised | CutOff


@dataclass(frozen=True, slots=True)
class WaitPlan:
    """Everything fixed for one wait: the waiter, its input, the settings, the hooks."""

    definition: WaiterDefinition
    input: Any
    options: WaitOptions
    rng: random.Random
    retry_on: tuple[type[BaseException], ...] = ()
    on_attempt: Callable[[Attempt[Any]], object] | None = None


@dataclass(slots=True)
class WaitState:
    """The loop's memory, in clock seconds: enough to resume a wait between polls."""

    started_at: float
    deadline: float
    history: list[Attempt[Any]] = field(default_factory=list)
    next_delay: float = 0
    next_poll_at: float | None = None
    final: bool = False
    last_output: Any = None


def start(plan: WaitPlan, now: float) -> WaitState:
    """A fresh state for a wait beginning at clock time `now`."""
    return WaitState(started_at=now, deadline=now + plan.options.max_wait_time)


def flow(
    plan: WaitPlan, state: WaitState, now: Callable[[], float]
) -> Generator[Action, Outcome | None, WaiterResult[Any]]:
    """Yield the actions of one wait; see the module docstring for the protocol."""
    definition, options = plan.definition, plan.options
    input_data = to_jmespath(plan.input)
    if state.next_poll_at is not None:
        pause = state.next_poll_at - now()
        if pause > 0:
            yield Sleep(pause)
    while True:
        poll_start = now()
        remaining = state.deadline - poll_start
        final = state.final or remaining <= 0
        timeout = max(remaining, options.min_delay) if final else remaining
        outcome = yield Poll(len(state.history) + 1, remaining, timeout)
        finished = now()
        if isinstance(outcome, Returned):
            state.last_output = outcome.output
        late = isinstance(outcome, CutOff) or finished - poll_start > timeout + _EPSILON
        code = (
            error_code(outcome.error, definition.errors)
            if isinstance(outcome, Raised)
            else None
        )
        if late:
            verdict: Verdict | None = _IMPLICIT_FAILURE
        else:
            verdict = _judge(plan, outcome, input_data, code)
        attempt = Attempt(
            number=len(state.history) + 1,
            started_at=poll_start - state.started_at,
            delay=state.next_delay,
            duration=finished - poll_start,
            state=AcceptorState.FAILURE if verdict is None else verdict.state,
            acceptor_index=None if verdict is None else verdict.acceptor_index,
            output=outcome.output if isinstance(outcome, Returned) else None,
            error_type=code,
        )
        state.history.append(attempt)
        _report(plan, attempt)
        if late:
            why = (
                "the request was cut off at the deadline"
                if isinstance(outcome, CutOff)
                else "the response arrived after the deadline"
            )
            _fail(
                WaiterTimeoutError(
                    _result(state, definition, finished),
                    max_wait_time=options.max_wait_time,
                    why=why,
                )
            )
        if verdict is None:
            assert isinstance(outcome, Raised) and code is not None
            _fail_operation(plan, state, finished, outcome.error, code)
        assert verdict is not None
        if verdict.state is AcceptorState.SUCCESS:
            result = _result(state, definition, finished, AcceptorState.SUCCESS)
            if logger.isEnabledFor(logging.INFO):
                logger.info(
                    "waiter %s succeeded after %d attempt(s) in %.3fs",
                    definition.name,
                    result.attempts,
                    result.elapsed,
                )
            return result
        if verdict.state is AcceptorState.FAILURE:
            assert verdict.acceptor_index is not None
            _fail(
                WaiterFailureStateError(
                    _result(state, definition, finished),
                    acceptor_index=verdict.acceptor_index,
                    matcher=definition.acceptors[
                        verdict.acceptor_index
                    ].matcher.describe(),
                    reason=verdict.reason,
                )
            )
        decided_at = now()
        state.next_delay, state.final = _next_delay(plan, state, decided_at)
        state.next_poll_at = decided_at + state.next_delay
        yield Sleep(state.next_delay)


def _judge(
    plan: WaitPlan, outcome: Outcome | None, input_data: Any, code: str | None
) -> Verdict | None:
    """Acceptors on a response or error; None means the wait fails with the error."""
    definition = plan.definition
    if isinstance(outcome, Returned):
        return match_output(definition, outcome.output, input_data)
    if not isinstance(outcome, Raised):
        raise TypeError(f"a driver sent {outcome!r} in answer to Poll; send an Outcome")
    error = outcome.error
    if is_transport_error(error):
        return _IMPLICIT_RETRY if isinstance(error, plan.retry_on) else None
    assert code is not None
    verdict = match_error(definition, error, code)
    if verdict is None and isinstance(error, plan.retry_on):
        return _IMPLICIT_RETRY
    return verdict


def _next_delay(plan: WaitPlan, state: WaitState, now: float) -> tuple[float, bool]:
    """The delay before the next poll, and whether that poll is the final one.

    Raises when the attempt cap or the deadline leaves no room for another poll.
    """
    definition, options = plan.definition, plan.options
    remaining = state.deadline - now
    polls = len(state.history)
    if options.max_attempts is not None and polls >= options.max_attempts:
        _fail(
            WaiterMaxAttemptsError(
                _result(state, definition, now),
                max_attempts=options.max_attempts,
                max_wait_time=options.max_wait_time,
                remaining=max(remaining, 0.0),
            )
        )
    if state.final or remaining <= _EPSILON:
        _fail(
            WaiterTimeoutError(
                _result(state, definition, now),
                max_wait_time=options.max_wait_time,
                why="no acceptor reached success or failure by the deadline",
            )
        )
    retry = RetryContext(
        attempt=polls,
        remaining=remaining,
        min_delay=options.min_delay,
        max_delay=options.max_delay,
        previous_delay=state.next_delay if polls > 1 else None,
        rng=plan.rng,
    )
    delay = options.backoff(retry)
    if isinstance(delay, bool) or not isinstance(delay, (int, float)) or not delay >= 0:
        raise WaiterConfigurationError(
            f"waiter {definition.name}: backoff {options.backoff!r} returned {delay!r} "
            f"for retry {polls}; a strategy must return a number of seconds >= 0"
        )
    if remaining - delay <= options.min_delay:
        return remaining, True
    return delay, False


def _result(
    state: WaitState,
    definition: WaiterDefinition,
    now: float,
    final_state: AcceptorState = AcceptorState.FAILURE,
) -> WaiterResult[Any]:
    history = tuple(state.history)
    last = history[-1] if history else None
    elapsed = (last.started_at + last.duration) if last else now - state.started_at
    return WaiterResult(
        waiter=definition.name,
        state=final_state,
        output=state.last_output,
        attempts=len(history),
        elapsed=elapsed,
        history=history,
    )


def _report(plan: WaitPlan, attempt: Attempt[Any]) -> None:
    """Log one attempt at DEBUG and hand it to the `on_attempt` hook."""
    if logger.isEnabledFor(logging.DEBUG):
        if attempt.acceptor_index is None:
            decided = "no acceptor matched"
        else:
            matcher = plan.definition.acceptors[attempt.acceptor_index].matcher
            decided = (
                f"acceptor {attempt.acceptor_index} ({matcher.describe()}) matched"
            )
        seen = "output" if attempt.error_type is None else f"error {attempt.error_type}"
        logger.debug(
            "waiter %s attempt %d at %.3fs (after %.3fs delay, took %.3fs): %s; %s -> %s",
            plan.definition.name,
            attempt.number,
            attempt.started_at,
            attempt.delay,
            attempt.duration,
            seen,
            decided,
            attempt.state.value,
        )
    if plan.on_attempt is not None:
        plan.on_attempt(attempt)


def _fail(error: Exception) -> NoReturn:
    logger.info("%s", error)
    raise error


def _fail_operation(
    plan: WaitPlan, state: WaitState, now: float, cause: Exception, code: str
) -> NoReturn:
    if is_transport_error(cause):
        advice = (
            f"{type(cause).__name__} is a transport error, not a service error; "
            f"pass retry_on=({type(cause).__name__},) to retry it"
        )
    else:
        advice = (
            "an error that no acceptor matches ends the wait (the spec's implicit "
            "failure); check the input, or pass retry_on= to retry this error type"
        )
    error = WaiterOperationError(
        _result(state, plan.definition, now), error_code=code, advice=advice
    )
    logger.info("%s", error)
    raise error from cause

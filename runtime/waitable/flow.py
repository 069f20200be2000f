"""The one engine, written once and free of I/O: a generator of actions.

`flow(plan, state, now, input)` yields `Poll` ("call the operation now") and `Sleep`
("wait this long") and receives each poll's outcome through `.send()`:
`Returned(output)`, `Raised(error)`, `CutOff()` when the driver cancelled a
request at its time limit, or `Late()` when the driver found, just before the
call, that the poll would start after `Poll.start_by`. It returns the
`WaiterResult` on success and raises a `WaiterError` otherwise. The drivers
(`waitable.drivers`) only call the client and sleep, so sync and asyncio waiters,
retries, pollers and `poll_once` share every decision made here.

Everything the loop remembers lives in one `WaitState` record, so a wait can be
saved between polls and resumed by a fresh `flow` (`waitable.steps`).

The steps are the spec's: the first poll happens at once; acceptors are tried in
order; an error no acceptor matched fails the wait; a response no acceptor matched
is a retry; a response that arrives after the deadline fails the wait (step 2).
The retry delay comes from the backoff strategy and then the last-attempt rule:
`remaining - delay <= min_delay` → `delay = remaining`, so the final poll starts
at the deadline and none comes after it. That final poll may run for up to
`min_delay` seconds (the allowance the spec's older rule reserved for it) before
a driver cuts it off. A poll that would start more than `START_TOLERANCE`
seconds after the deadline (a slow client, a busy event loop, a long wait for a
rate-limit token) is not made: the wait ends as a timeout instead.

The seed systems are policies of this one loop, not loops of their own:

- `plan.judge` decides an outcome. By default it is the waiter's acceptors; a
  poller's predicate and a retry strategy's `RetryPolicy` are other judges.
- `plan.call_retry` retries one poll's call under a retry policy, a token bucket
  and a backoff (seed 001), inside the wait's deadline; `Attempt.retries`
  records them. A standalone `StandardRetryStrategy` is this loop with one poll
  whose call is retried.
- `plan.rate_limit` makes each call first take a token from a shared limiter
  (seed 002's `limit_rate`), sleeping until one is free, within the deadline.

The actions and outcomes live in `waitable.actions`, one poll's call (rate
limit, retries) in `waitable.calls`; both are re-exported here.
- `plan.stop` lets a front end end the wait after a failed poll (a poller's
  `max_attempts` given as a function).
- `plan.deadline_bounds_starts` makes the deadline bound only when polls start
  (a poller's `timeout`): a poll is not cut off and its late answer is judged.
"""

from __future__ import annotations

import inspect
import logging
import math
import random
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from typing import Any, NoReturn, Protocol, cast

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
    SavedPause,
    Sleep,
    new_sleep,
)
from .backoff import constant_delay, new_context
from .calls import (
    LATE,
    CallJudge,
    CallRecord,
    CallRetry,
    RateLimit,
    arrived_late,
    checked_delay,
    make_call,
    poll_for,
    poll_timeout,
)
from .datamodel import opaque_to_paths
from .definition import (
    AcceptorState,
    BotocorePathMatcher,
    InputOutputMatcher,
    OutputMatcher,
    WaiterDefinition,
)
from .crt_errors import crt_network_failure
from .error_codes import error_code, is_transport_error
from .errors import (
    NOT_AWAITED_HOOK,
    WaiterCancelledError,
    WaiterConfigurationError,
    service_text,
    WaiterEvaluationError,
    WaiterFailureStateError,
    WaiterMaxAttemptsError,
    WaiterOperationError,
    WaiterTimeoutError,
)
from .matching import Verdict, input_to_jmespath, match_error, match_output
from .options import WaitOptions
from .history import STATE_CODES, WIDTH, History
from .results import Attempt, Retry, WaiterResult, new_result
from .wording import WAITER, Wording

__all__ = [
    "Action",
    "CallRetry",
    "CutOff",
    "Judge",
    "Late",
    "NOT_YET",
    "NoRetryCapacity",
    "Outcome",
    "Poll",
    "RateLimit",
    "Raised",
    "Returned",
    "START_TOLERANCE",
    "SavedPause",
    "Sleep",
    "WaitPlan",
    "WaitState",
    "flow",
    "start",
]

logger = logging.getLogger("waitable")
#: The logger's own memo of `isEnabledFor` answers (CPython's `Logger._cache`, emptied
#: whenever a level changes): a remembered False answers "not enabled" without the
#: call, which costs about 1% of a poll. Any other answer still asks the logger.
_LEVELS: dict[int, bool] = getattr(logger, "_cache", {})
_DEBUG, _INFO = logging.DEBUG, logging.INFO

_EPSILON = EPSILON

# The verdicts no acceptor chose, made once rather than on every poll.
_IMPLICIT_RETRY = Verdict(AcceptorState.RETRY, None)
_IMPLICIT_FAILURE = Verdict(AcceptorState.FAILURE, None)
# A state made without its `__init__` (`start`).
_new = object.__new__
# `RetryImmediately`'s sleep, made once (a `Sleep` is immutable).
_NO_SLEEP = Sleep(0)


class Judge(Protocol):
    """Decides one outcome: a verdict, or None for "the wait fails with this error"."""

    def __call__(
        self,
        plan: WaitPlan,
        outcome: Returned | Raised,
        input_data: Any,
        code: str | None,
    ) -> Verdict | None: ...


@dataclass(frozen=True, slots=True)
class WaitPlan:
    """Everything fixed for the waits of one waiter with one set of settings: the
    definition, the settings, the policies (shared by those waits; the input is
    each wait's own, given to `flow`)."""

    definition: WaiterDefinition
    options: WaitOptions
    rng: random.Random
    retry_on: tuple[type[BaseException], ...] = ()
    on_attempt: Callable[[Attempt[Any]], object] | None = None
    judge: Judge | None = None
    call_retry: CallRetry | None = None
    rate_limit: RateLimit | None = None
    stop: Callable[[WaitState], bool] | None = None
    #: The deadline bounds only when polls start (a poller's `timeout`): no poll is
    #: cut off, and an answer counts however late it comes, as seed 002's attempts
    #: do. Applies to the flow's own polls (a plan without `call_retry`/`rate_limit`).
    deadline_bounds_starts: bool = False
    #: The first poll waited the backoff's delay for retry 1 (a custom waiter's
    #: `delay_before_first_attempt`): the delay after poll n is retry n + 1's, so
    #: the backoff's delays are waited in order and none is drawn twice.
    delayed_start: bool = False
    #: The front end logs how the wait ended itself (`StandardRetryStrategy.retry`,
    #: whose errors are its own): the engine's INFO lines, in a waiter's words
    #: (acceptors, polls), are left out. Attempts are still logged at DEBUG.
    own_log: bool = False
    #: How the engine's messages and log lines name the front end and what to
    #: do (`waitable.wording`): a waiter's words unless the front end gives its own.
    wording: Wording = WAITER
    #: The wall clock (`Clock.wall`, else `time.time`) that shared token buckets
    #: and rate limiters are fed, whichever clock a wait runs on; None: the flow's.
    wall: Callable[[], float] | None = None
    #: The backoff's delay when it is the same for every retry (`constant_delay`),
    #: and its `Sleep`: the flow then neither builds a `RetryContext` nor asks.
    fixed_delay: float | None = field(init=False, repr=False, compare=False)
    fixed_sleep: Sleep | None = field(init=False, repr=False, compare=False)
    #: A fixed delay, no attempt cap and no `stop`: a retry's delay needs no `_schedule`.
    plain_retry: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        fixed = constant_delay(self.options.backoff, self.options.min_delay)
        object.__setattr__(self, "fixed_delay", fixed)
        zero = fixed == 0 and type(fixed) is int
        sleep = None if fixed is None else _NO_SLEEP if zero else Sleep(fixed)
        object.__setattr__(self, "fixed_sleep", sleep)
        plain = fixed is not None and self.options.max_attempts is None
        object.__setattr__(self, "plain_retry", plain and self.stop is None)


@dataclass(slots=True)
class WaitState:
    """The loop's memory, in clock seconds: enough to resume a wait between polls.

    `attempts` counts polls; `history` keeps the last `history_limit` of them
    (all when None), compactly (`waitable.history.History`; a list of
    `Attempt`s given here is converted).
    """

    started_at: float
    deadline: float
    history: History = field(default_factory=History)
    next_delay: float = 0
    next_poll_at: float | None = None
    final: bool = False
    last_output: Any = None
    attempts: int = 0
    history_limit: int | None = None
    total_delay: float = 0.0

    def __post_init__(self) -> None:
        if type(self.history) is not History:
            self.history = History(self.history, self.history_limit)
        elif self.history_limit is not None:
            self.history.limit = self.history_limit


#: The start time of a wait that starts at its flow's first step (`start(plan, NOT_YET)`).
NOT_YET = math.nan


def start(plan: WaitPlan, now: float, history_limit: int | None = None) -> WaitState:
    """A fresh state for a wait beginning at clock time `now` (`NOT_YET`: at its first step).

    Built slot by slot, as `WaitState(started_at=now, deadline=..., history_limit=...)`
    would build it, without the dataclass's keyword `__init__`, its `__post_init__`
    and `History.__init__` (one state per wait; thousands of waits start at once).
    """
    state: WaitState = _new(WaitState)
    state.started_at = now
    state.deadline = now + plan.options.max_wait_time
    history: History = _new(History)  # `History((), history_limit)`, without `__init__`
    history.items = []
    history.limit = history_limit
    state.history = history
    state.next_delay = 0
    state.next_poll_at = None
    state.final = False
    state.last_output = None
    state.attempts = 0
    state.history_limit = history_limit
    state.total_delay = 0.0
    return state


def flow(
    plan: WaitPlan, state: WaitState, now: Callable[[], float], input: Any = None
) -> Generator[Action, Outcome | None, WaiterResult[Any]]:
    """Yield the actions of one wait; see the module docstring for the protocol.

    The generator keeps few locals (its frame lives as long as the wait); the
    decisions after each poll are made by `_decide`. A state started at `NOT_YET`
    (`AsyncWaiter.wait`, made before it is awaited) starts at the first step.
    """
    if state.started_at != state.started_at:  # NaN: NOT_YET
        _start_now(plan, state, now())
    # The input in the JMESPath data model when an acceptor reads it (in the input's
    # own local: one local less in a frame kept per wait).
    if plan.judge is None and plan.definition.reads_input:
        input = input_to_jmespath(plan.definition, input)
    judge = (
        None
        if plan.call_retry is None and plan.rate_limit is None
        else _call_judge(plan, input)
    )
    try:
        if state.next_poll_at is not None and state.next_poll_at > (started := now()):
            yield SavedPause(state.next_poll_at - started)
            if state.final and now() < state.next_poll_at - START_TOLERANCE:
                state.final = False  # polled early (`poll_once`): time is left after it
        while True:
            if judge is None:  # one try, no limiter: the call without `make_call`
                started = now()
                result = (
                    _decide(  # the outcome is not kept in a local while the wait sleeps
                        plan,
                        state,
                        input,
                        (
                            yield (
                                poll_for(plan, state, started)
                                if not plan.deadline_bounds_starts
                                else _uncut_poll(plan, state, started)
                            )
                            or _too_late_at(plan, state, started)
                        ),
                        started,
                        now(),
                    )
                )
            else:
                call = yield from make_call(plan, state, now, judge)
                result = _decide_in_general(
                    plan,
                    state,
                    input,
                    call.outcome,
                    call.started,
                    call.finished,
                    call,
                )
            if result is None:
                yield _schedule(plan, state, now())
            elif type(result) is Sleep:
                yield result
            else:
                return cast("WaiterResult[Any]", result)
    except Cancel as cancel:  # thrown in by the sync driver: its event is set
        if cancel.call is not None:  # between retries: the poll's tries are kept
            _record_cancelled(plan, state, input, cancel.call)
        result = _result(state, plan.definition, now())
        _fail(plan, WaiterCancelledError(result, plan.wording))


def _record_cancelled(
    plan: WaitPlan, state: WaitState, input_data: Any, call: CallRecord
) -> None:
    """Record a poll whose call was retrying when the wait was cancelled: its
    last try's outcome, its retries, `retry_stopped="cancelled"`, decided as a
    retry (the policy had asked for another try)."""
    call.verdict, call.judged = _IMPLICIT_RETRY, True
    _decide_in_general(
        plan, state, input_data, call.outcome, call.started, call.finished, call
    )


def _start_now(plan: WaitPlan, state: WaitState, now: float) -> None:
    """Start a state made at `NOT_YET` at clock time `now` (its first delay, if any, from now)."""
    state.started_at = now
    state.deadline = now + plan.options.max_wait_time
    if state.next_poll_at is not None:
        state.next_poll_at = now + state.next_delay


def _call_judge(plan: WaitPlan, input_data: Any) -> CallJudge:
    """The judge `make_call` uses to decide whether a try of the call is retried."""

    def judge(
        outcome: Returned | Raised, code: str | None
    ) -> tuple[Verdict | None, WaiterEvaluationError | None]:
        return _judge_safely(plan, outcome, input_data, code)

    return judge


def _uncut_poll(plan: WaitPlan, state: WaitState, started: float) -> Poll | None:
    """`poll_for` for a plan whose deadline bounds starts only: the same poll, never cut off."""
    poll = poll_for(plan, state, started)
    if poll is None:
        return None
    return Poll(poll.attempt, poll.remaining, math.inf, poll.start_by, math.inf)


def _too_late_at(plan: WaitPlan, state: WaitState, started: float) -> NoReturn:
    """End the wait as a timeout: a poll starting at `started` would come too late."""
    _too_late(plan, state, started, LATE)


def _too_late(
    plan: WaitPlan, state: WaitState, now: float, outcome: Outcome
) -> NoReturn:
    """End the wait as a timeout: the poll came (or would have come) too late."""
    _fail(
        plan,
        WaiterTimeoutError(
            _result(state, plan.definition, now),
            max_wait_time=plan.options.max_wait_time,
            why=_late_reason(
                outcome,
                now - state.deadline if state.final else 0.0,
                plan.wording.attempt,
            ),
            wording=plan.wording,
        ),
    )


def _decide(
    plan: WaitPlan,
    state: WaitState,
    input_data: Any,
    outcome: Any,
    started: float,
    finished: float,
) -> WaiterResult[Any] | Sleep | None:
    """Judge and record one poll made without `make_call`: the result on success,
    the `Sleep` before the next poll or None to schedule it; else raise."""
    if (
        type(outcome) is Returned
        and plan.judge is None
        and not state.final
        and (remaining := state.deadline - started) > 0.0
        and finished - started <= remaining + EPSILON
    ):
        # The usual poll: a response in time, judged by the acceptors.
        output = state.last_output = outcome.output
        try:
            verdict = match_output(plan.definition, output, input_data)
        except WaiterEvaluationError:
            pass  # the general path below judges it again and reports it
        else:
            state.attempts += 1
            history = state.history
            history.items += (  # `history.record(...)`, without the call
                state.attempts,
                started - state.started_at,
                state.next_delay,
                finished - started,
                STATE_CODES[verdict.state]
                + 3
                * (0 if verdict.acceptor_index is None else verdict.acceptor_index + 1),
                output,
                None,
            )
            if history.limit is not None:
                history.trim()
            if plan.on_attempt is not None or (
                _LEVELS.get(_DEBUG) is not False and logger.isEnabledFor(_DEBUG)
            ):
                # (a hook or a log handler ran: `_schedule` reads the clock afresh)
                _report(plan, history[-1])
            elif verdict.state is AcceptorState.RETRY and plan.plain_retry:
                # `_schedule` for a fixed delay with no cap and no stop, at `finished`.
                remaining = state.deadline - finished
                delay = plan.fixed_delay
                assert delay is not None
                if remaining > _EPSILON and remaining - delay > plan.options.min_delay:
                    state.next_delay = delay
                    state.next_poll_at = finished + delay
                    if delay:
                        state.total_delay += delay
                    return plan.fixed_sleep
            if verdict.state is AcceptorState.RETRY:
                return None
            return _conclude(plan, state, verdict, finished)
    return _decide_in_general(plan, state, input_data, outcome, started, finished, None)


def _decide_in_general(
    plan: WaitPlan,
    state: WaitState,
    input_data: Any,
    outcome: Any,
    started: float,
    finished: float,
    call: CallRecord | None,
) -> WaiterResult[Any] | None:
    """`_decide` for any outcome, any judge and any call record (`make_call`'s:
    retries, and maybe a verdict already; without one the outcome is checked
    against the poll's timeout here). None means: schedule the next poll."""
    definition = plan.definition
    verdict: Verdict | None = None
    broken: WaiterEvaluationError | None = None
    if call is None:
        kind = type(outcome)
        remaining = state.deadline - started
        if plan.deadline_bounds_starts:
            # The poll started in time (else it is `Late`): its answer counts.
            late = arrived_late(outcome, started, finished, math.inf)
            if isinstance(outcome, Late):
                _too_late(plan, state, finished, outcome)
        elif (
            (kind is Returned or kind is Raised) and remaining > 0.0 and not state.final
        ):
            # `arrived_late` with `poll_timeout`'s limit for every poll but the final one
            late = finished - started > remaining + EPSILON
        else:
            late = arrived_late(
                outcome, started, finished, poll_timeout(plan, state, started)
            )
            if isinstance(outcome, Late):
                # No call was made: the history records polls, and this was none.
                _too_late(plan, state, finished, outcome)
        judged = False
        retries: tuple[Retry, ...] = ()
        retry_stopped = None
    else:
        if isinstance(outcome, Late) and not call.retries:
            _too_late(plan, state, finished, outcome)
        late, judged, broken = call.late, call.judged, call.broken
        verdict = call.verdict
        retries, retry_stopped = tuple(call.retries), call.retry_stopped
    returned = type(outcome) is Returned or isinstance(outcome, Returned)
    code = None
    if returned:
        state.last_output = outcome.output
    elif isinstance(outcome, Raised):
        code = error_code(outcome.error, definition.errors)
    if late:
        verdict = _IMPLICIT_FAILURE
    elif not judged:
        try:
            if returned and plan.judge is None:
                verdict = match_output(definition, outcome.output, input_data)
            else:
                verdict = _judge(plan, outcome, input_data, code)
        except WaiterEvaluationError as unevaluated:
            broken = unevaluated
    if broken is not None:
        verdict = Verdict(AcceptorState.FAILURE, broken.acceptor_index)
    state.attempts += 1
    accepted = AcceptorState.FAILURE if verdict is None else verdict.state
    index = None if verdict is None else verdict.acceptor_index
    output = outcome.output if returned else None
    history = state.history
    history.record(
        state.attempts,
        started - state.started_at,
        state.next_delay,
        finished - started,
        accepted,
        index,
        output,
        code,
        retries,
        retry_stopped,
    )
    if plan.on_attempt is not None or (
        _LEVELS.get(_DEBUG) is not False and logger.isEnabledFor(_DEBUG)
    ):
        # the Attempt, read back (history_limit >= 1)
        past = finished - state.deadline if state.final else 0.0
        why = _late_reason(outcome, past, plan.wording.attempt) if late else None
        _report(plan, history[-1], why, not isinstance(outcome, CutOff))
    if broken is not None:
        error = broken.with_result(_result(state, definition, finished))
        if not plan.own_log:
            logger.info("%s", error)
        raise error from broken.__cause__
    if late:
        _too_late(plan, state, finished, outcome)
    if verdict is None:
        if isinstance(outcome, Raised):
            assert code is not None
            _fail_operation(plan, state, finished, outcome.error, code)
        verdict = _IMPLICIT_FAILURE
    return _conclude(plan, state, verdict, finished)


def _conclude(
    plan: WaitPlan, state: WaitState, verdict: Verdict, finished: float
) -> WaiterResult[Any] | None:
    """The wait's end on a success or failure verdict (raised), None on a retry."""
    definition = plan.definition
    if verdict.state is AcceptorState.SUCCESS:
        result = _result(state, definition, finished, AcceptorState.SUCCESS)
        if (
            _LEVELS.get(_INFO) is not False
            and not plan.own_log
            and logger.isEnabledFor(_INFO)
        ):
            logger.info(
                "%s succeeded after %d attempt(s) in %.3fs",
                plan.wording.owner(definition.name),
                result.attempts,
                result.elapsed,
            )
        return result
    if verdict.state is AcceptorState.FAILURE:
        index = verdict.acceptor_index
        _fail(
            plan,
            WaiterFailureStateError(
                _result(state, definition, finished),
                acceptor_index=-1 if index is None else index,
                matcher=(
                    "the check rejected the outcome"
                    if index is None
                    else definition.acceptors[index].matcher.describe()
                ),
                reason=verdict.reason,
                wording=plan.wording,
            ),
        )
    return None


def _schedule(plan: WaitPlan, state: WaitState, now: float) -> Sleep:
    """Settle the delay before the next poll and whether that poll is the final one.

    Raises when the attempt cap or the deadline leaves no room for another poll;
    otherwise records the delay in `state` and returns the `Sleep` for it.
    """
    options = plan.options
    remaining = state.deadline - now
    if (
        options.max_attempts is not None
        or plan.stop is not None
        or state.final
        or remaining <= _EPSILON
    ):
        _check_room(plan, state, now, remaining)
    delay = plan.fixed_delay
    if delay is None:
        retry = state.attempts + 1 if plan.delayed_start else state.attempts
        delay = checked_delay(
            plan,
            options.backoff,
            new_context(
                retry,
                remaining,
                options.min_delay,
                options.max_delay,
                state.next_delay if retry > 1 else None,
                plan.rng,
            ),
        )
        sleep = None
    else:
        sleep = plan.fixed_sleep
    if remaining - delay <= options.min_delay:  # the final poll, at the deadline
        delay, sleep = remaining, None
        state.final = True
    state.next_delay = delay
    state.next_poll_at = now + delay
    if delay:  # (adding 0 would make another float to keep per pending wait)
        state.total_delay += delay
    if sleep is not None:
        return sleep
    return _NO_SLEEP if delay == 0 and type(delay) is int else new_sleep(delay)


def _check_room(plan: WaitPlan, state: WaitState, now: float, remaining: float) -> None:
    """Raise when the attempt cap, the front end's `stop` or the deadline leaves no
    room for another poll (`_schedule` asks only when one of them could)."""
    options = plan.options
    polls = state.attempts
    cap = options.max_attempts
    if (cap is not None and polls >= cap) or (
        plan.stop is not None and plan.stop(state)
    ):
        result = _result(state, plan.definition, now)
        _fail(
            plan,
            WaiterMaxAttemptsError(
                result,
                max_attempts=polls if cap is None else cap,
                max_wait_time=options.max_wait_time,
                remaining=0.0 if state.final else max(remaining, 0.0),
                hint=_opaque_output_hint(plan.definition, result),
                wording=plan.wording,
                by_rule=cap is None,
            ),
        )
    if state.final or remaining <= _EPSILON:
        result = _result(state, plan.definition, now)
        _fail(
            plan,
            WaiterTimeoutError(
                result,
                max_wait_time=options.max_wait_time,
                why=_not_decided(plan.wording),
                hint=_opaque_output_hint(plan.definition, result),
                wording=plan.wording,
            ),
        )


def _not_decided(wording: Wording) -> str:
    """Why a wait timed out at its deadline: no acceptor (or judge) ended it."""
    if wording.verdicts is None:
        return "no acceptor reached success or failure by the deadline"
    return f"{wording.verdict(False)} by the deadline"


_PATH_MATCHERS = (OutputMatcher, InputOutputMatcher, BotocorePathMatcher)


def _opaque_output_hint(definition: WaiterDefinition, result: WaiterResult[Any]) -> str:
    """For a wait that ran out while its output was an object JMESPath cannot look
    into (an HTTP response, say), whose every path reads null: what to return."""
    output = result.output
    if output is None or not opaque_to_paths(output):
        return ""
    if not any(isinstance(a.matcher, _PATH_MATCHERS) for a in definition.acceptors):
        return ""
    return (
        f" (the operation returned a {type(output).__name__}, an object JMESPath "
        "cannot look into, so every path read null: have it return the "
        "response's data, e.g. response.json())"
    )


def _judge(
    plan: WaitPlan, outcome: Returned | Raised, input_data: Any, code: str | None
) -> Verdict | None:
    """The plan's judge, or the acceptors; None means the wait fails with the error."""
    if plan.judge is not None:
        return plan.judge(plan, outcome, input_data, code)
    definition = plan.definition
    if isinstance(outcome, Returned):
        return match_output(definition, outcome.output, input_data)
    if not isinstance(outcome, Raised):
        raise TypeError(f"a driver sent {outcome!r} in answer to Poll; send an Outcome")
    error = outcome.error
    if is_transport_error(error):
        return _IMPLICIT_RETRY if issubclass(type(error), plan.retry_on) else None
    assert code is not None
    verdict = match_error(definition, error, code)
    if verdict is None and issubclass(type(error), plan.retry_on):
        return _IMPLICIT_RETRY
    return verdict


def _judge_safely(
    plan: WaitPlan, outcome: Returned | Raised, input_data: Any, code: str | None
) -> tuple[Verdict | None, WaiterEvaluationError | None]:
    """`_judge`, with an acceptor that could not be evaluated handed back, not raised."""
    try:
        return _judge(plan, outcome, input_data, code), None
    except WaiterEvaluationError as broken:
        return None, broken


def _late_reason(outcome: Outcome, past: float, attempt: str = "poll") -> str:
    """Why a poll that ended (or would have begun) too late decided nothing; `past`:
    how long after the deadline the final poll, which may run up to its
    `min_delay` allowance past it, was cut off (0 for any other poll: it is cut
    off at the deadline, however late the event loop ran the cut); `attempt`:
    what the front end calls a poll (`Wording.attempt`)."""
    if isinstance(outcome, CutOff):
        if past > EPSILON:
            return (
                f"the final poll's request was cut off {past:g}s after the deadline, "
                "at the end of its allowance (min_delay)"
            )
        return "the request was cut off at the deadline"
    if isinstance(outcome, Late):
        return (
            f"the next {attempt} could only start after the deadline, so it was "
            "not made"
        )
    return "the response arrived after the deadline"


def _result(
    state: WaitState,
    definition: WaiterDefinition,
    now: float,
    final_state: AcceptorState = AcceptorState.FAILURE,
) -> WaiterResult[Any]:
    history = state.history
    items = history.items
    kept: History = _new(History)  # `history.snapshot()`, without the call
    kept.items = items[:]
    kept.limit = history.limit
    return new_result(
        definition.name,
        final_state,
        state.last_output,
        state.attempts,
        # the newest poll's end (`history.last_end()`), else the time so far
        items[1 - WIDTH] + items[3 - WIDTH] if items else now - state.started_at,
        kept,
    )


def _report(
    plan: WaitPlan,
    attempt: Attempt[Any],
    late: str | None = None,
    answered: bool = True,
) -> None:
    """Log one attempt at DEBUG and hand it to the `on_attempt` hook; `late` says
    why a poll that ended past the deadline was not judged (`_late_reason`), and
    `answered` is False for a request cut off before any answer came."""
    if logger.isEnabledFor(logging.DEBUG):
        wording = plan.wording
        if late is not None:
            decided = f"not judged: {late}"
        elif wording.verdicts is not None:
            decided = wording.verdict(attempt.state is AcceptorState.SUCCESS)
        elif attempt.acceptor_index is None:
            decided = "no acceptor matched"
        else:
            matcher = plan.definition.acceptors[attempt.acceptor_index].matcher
            decided = (
                f"acceptor {attempt.acceptor_index} ({matcher.describe()}) matched"
            )
        if attempt.error_type is not None:
            seen = f"error {service_text(attempt.error_type)}"
        elif not answered:
            seen = "no answer"
        else:
            seen = "output"
        logger.debug(
            "%s at %.3fs (after %.3fs delay, took %.3fs, %d retries): %s; %s -> %s",
            wording.attempt_of(plan.definition.name, attempt.number),
            attempt.started_at,
            attempt.delay,
            attempt.duration,
            len(attempt.retries),
            seen,
            decided,
            attempt.state.value,
        )
    if plan.on_attempt is not None:
        returned = plan.on_attempt(attempt)
        if returned is not None and inspect.isawaitable(returned):
            close = getattr(returned, "close", None)
            if callable(close):
                close()  # no "never awaited" warning: the error says it instead
            raise WaiterConfigurationError(
                NOT_AWAITED_HOOK.format(waiter=plan.definition.name)
            )


def _fail(plan: WaitPlan, error: Exception) -> NoReturn:
    """Log the error that ends the wait at INFO (unless `plan.own_log`), and raise it."""
    if not plan.own_log:
        logger.info("%s", error)
    raise error


def _fail_operation(
    plan: WaitPlan, state: WaitState, now: float, cause: Exception, code: str
) -> NoReturn:
    wording = plan.wording
    name = type(cause).__name__
    if wording.raised_advice is not None:  # a front end with its own retry_on advice
        unmatched, advice = wording.unlisted, wording.raised_advice.format(name=name)
    else:
        unmatched, advice = _operation_advice(plan, state, cause, name)
    error = WaiterOperationError(
        _result(state, plan.definition, now),
        error_code=code,
        advice=advice,
        unmatched=unmatched,
        wording=wording,
    )
    if not plan.own_log:
        logger.info("%s", error)
    raise error from cause


def _operation_advice(
    plan: WaitPlan, state: WaitState, cause: Exception, name: str
) -> tuple[str, str]:
    """Why a waiter's acceptors did not decide the error `cause` (class `name`)
    that ended the wait, and what to do about it."""
    crt = crt_network_failure(cause)
    last = state.history[-1] if state.history else None
    unmatched = "which acceptors do not judge"  # a transport error: no answer to judge
    if crt is not None:
        # awscrt raises one class for every failure: retry_on=(AwsCrtError,) would
        # retry its programming errors too; the strategy's policy reads the name.
        advice = (
            f"{name} is a transport error ({crt} failure), not a service error; "
            + (
                "it does not pass by itself (check the endpoint and its certificate)"
                if crt == "lasting"
                else _retry_advice(
                    plan,
                    last,
                    unset="pass retry= a waitable.retry.StandardRetryStrategy() to "
                    "retry it with backoff (it retries awscrt's network failures by "
                    "name)",
                    declined="give the retry strategy a StandardRetryPolicy(), which "
                    "retries awscrt's network failures by name",
                )
            )
        )
    elif is_transport_error(cause):
        advice = f"{name} is a transport error, not a service error; " + _retry_advice(
            plan,
            last,
            unset=(
                f"pass retry_on=({name},) to retry it, or retry= a "
                "waitable.retry.StandardRetryStrategy() to retry it with backoff"
                if _standard_policy_retries(cause)
                else f"pass retry_on=({name},) to retry it (retry= would not: the "
                "standard retry policy does not retry this error)"
            ),
            declined=f"pass retry_on=({name},) to retry it",
        )
    else:
        unmatched = "which no acceptor matches"
        check = "check the input, or pass retry_on= to retry this error type"
        advice = (
            "an error that no acceptor matches ends the wait (the spec's implicit "
            "failure); " + _retry_advice(plan, last, unset=check, declined=check)
        )
    return unmatched, advice


def _retry_advice(
    plan: WaitPlan, last: Attempt[Any] | None, *, unset: str, declined: str
) -> str:
    """What to do about the error a poll's call ended with: `unset` without `retry=`;
    with it, why its retries stopped (`Attempt.retry_stopped`, worded as the
    strategy's own errors word it), or that its policy does not retry the error,
    then `declined`."""
    retrying = plan.call_retry
    if retrying is None:
        return unset
    made = 0 if last is None else len(last.retries)
    stopped = None if last is None else last.retry_stopped
    retries = f"{made} retr{'y' if made == 1 else 'ies'}"
    tries = f"{made + 1} tr{'y' if made == 0 else 'ies'} ({retries})"
    if stopped == "max_attempts":
        return (
            f"the retries of this poll's call stopped at the retry strategy's "
            f"max_attempts: {tries} failed; raise max_attempts, or look at why "
            "every try failed"
        )
    if stopped == "capacity":
        return (
            f"the retries of this poll's call stopped after {tries}: the token "
            "bucket had no capacity for another retry (the service is failing "
            "often, so retries are being rationed); retry later, or give the "
            "strategy a larger bucket"
        )
    if stopped == "max_time":
        if retrying.max_time == math.inf:
            past, larger = "the wait's deadline", "max_wait_time"
        else:
            past = (
                f"the retry strategy's max_time ({retrying.max_time:g}s) or the "
                "wait's deadline"
            )
            larger = "max_time (or max_wait_time)"
        return (
            f"the retries of this poll's call stopped after {tries}: the next "
            f"retry would have started past {past}; raise {larger} to allow more "
            "retries"
        )
    after = f" (after {retries} of this poll's call)" if made else ""
    return f"the retry strategy's policy does not retry it{after}; {declined}"


def _standard_policy_retries(error: Exception) -> bool:
    """Whether `retry=` a `StandardRetryStrategy()` would retry `error` at all: its
    standard policy's directive is a `RetryError` (not `TerminateAndFail`)."""
    from .retry.directives import RetryError  # retry's strategy imports flow
    from .retry.policy import StandardRetryPolicy

    return isinstance(StandardRetryPolicy().evaluate_error(error), RetryError)

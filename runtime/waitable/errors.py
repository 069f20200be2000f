"""The errors a wait raises. Each carries the wait's `WaiterResult` as `.result`.

Every message names the waiter, the number of attempts, the time spent and the
last state or error code, and says what the caller can do about it.
"""

from __future__ import annotations

import math
from typing import Any

from .definition import AcceptorState
from .printable import printable, shortened
from .results import WaiterResult
from .wording import WAITER, Wording

__all__ = [
    "WaiterCancelledError",
    "WaiterConfigurationError",
    "WaiterError",
    "WaiterEvaluationError",
    "WaiterFailureStateError",
    "WaiterMaxAttemptsError",
    "WaiterOperationError",
    "WaiterTimeoutError",
]


class WaiterConfigurationError(ValueError):
    """A wait was asked for with arguments it cannot honour; raised before any request."""


#: The error for an `on_attempt` hook that is a coroutine function (or returns an
#: awaitable): the engine calls hooks between polls and never awaits them.
NOT_AWAITED_HOOK = (
    "waiter {waiter}: on_attempt is async, but the engine calls it between two "
    "polls without awaiting it, so it would never run; pass a plain function (it "
    "may start a task with asyncio.get_running_loop().create_task(...))"
)


#: The longest error code a message quotes (the rest is cut, with "...").
CODE_LIMIT = 200


def service_text(text: str, limit: int = CODE_LIMIT) -> str:
    """Service text (an error code, a failure reason) as a message or log line
    quotes it: at most `limit` characters, control characters escaped, so a
    response can neither forge log lines nor flood them."""
    return printable(shortened(text, limit))


def _summary(result: WaiterResult[Any], wording: Wording = WAITER) -> str:
    """`after N attempt(s) in T s, last <state or error code>`; a front end with
    its own judge (`wording.verdicts`) says the judge's answer, not a state."""
    plural = "" if result.attempts == 1 else "s"
    last = result.last_attempt
    if last is None:
        seen = "no response"
    elif last.error_type is not None:
        seen = f"last error {service_text(last.error_type)}"
    elif wording.verdicts is not None:
        seen = f"last {wording.verdict(last.state is AcceptorState.SUCCESS)}"
    else:
        seen = f"last state {last.state.value}"
    return f"after {result.attempts} attempt{plural} in {result.elapsed:.1f}s, {seen}"


def _rebuild(
    cls: type[WaiterError], message: str, state: dict[str, Any]
) -> WaiterError:
    error = cls.__new__(cls)
    Exception.__init__(error, message)
    error.__dict__.update(state)
    return error


class WaiterError(Exception):
    """The waiter stopped without reaching success; `.result` holds everything it saw."""

    result: WaiterResult[Any]

    def __init__(self, message: str, result: WaiterResult[Any]) -> None:
        super().__init__(message)
        self.result = result

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (type(self), str(self), dict(self.__dict__)))

    def to_data(self) -> dict[str, Any]:
        """This error as JSON data: its type name, message and result."""
        return {
            "type": type(self).__name__,
            "message": str(self),
            "result": self.result.to_data(),
        }


class WaiterFailureStateError(WaiterError):
    """A failure acceptor matched: the resource will not reach the desired state."""

    def __init__(
        self,
        result: WaiterResult[Any],
        *,
        acceptor_index: int,
        matcher: str,
        reason: str | None = None,
        wording: Wording = WAITER,
    ) -> None:
        because = f": {service_text(reason, len(reason))}" if reason else ""
        super().__init__(
            f"{wording.owner(result.waiter)} reached a failure state{because} "
            f"(acceptor {acceptor_index}, {matcher}) {_summary(result, wording)}",
            result,
        )
        self.acceptor_index = acceptor_index
        self.reason = reason


class WaiterOperationError(WaiterError):
    """The operation raised an error that no acceptor matched (the original is `__cause__`)."""

    def __init__(
        self,
        result: WaiterResult[Any],
        *,
        error_code: str,
        advice: str,
        unmatched: str = "which no acceptor matches",
        wording: Wording = WAITER,
    ) -> None:
        super().__init__(
            f"{wording.owner(result.waiter)} stopped: {wording.call} raised "
            f"{service_text(error_code)}, "
            f"{unmatched}, {_summary(result, wording)}; {advice}",
            result,
        )
        self.error_code = error_code


class WaiterTimeoutError(WaiterError):
    """`max_wait_time` passed before any acceptor reached success or failure."""

    def __init__(
        self,
        result: WaiterResult[Any],
        *,
        max_wait_time: float,
        why: str,
        hint: str = "",
        wording: Wording = WAITER,
    ) -> None:
        option = wording.deadline_option
        super().__init__(
            f"{wording.owner(result.waiter)} timed out: {why} "
            f"({option}={max_wait_time:g}s) {_summary(result, wording)}; "
            f"pass a larger {option} to wait longer{hint}",
            result,
        )
        self.max_wait_time = max_wait_time


class WaiterCancelledError(WaiterError):
    """The wait's `cancel` event was set before any acceptor reached success or
    failure (the sync twin of cancelling an async waiter's task)."""

    def __init__(self, result: WaiterResult[Any], wording: Wording = WAITER) -> None:
        super().__init__(
            f"{wording.owner(result.waiter)} was cancelled ({wording.cancelled_by}) "
            f"{_summary(result, wording)}",
            result,
        )


class WaiterMaxAttemptsError(WaiterError):
    """`max_attempts` polls were made; says how much of `max_wait_time` was left unused.

    `by_rule`: the front end's own stop rule ended the wait (a poller's
    `max_attempts` given as a function), not a cap of `max_attempts` polls.
    """

    def __init__(
        self,
        result: WaiterResult[Any],
        *,
        max_attempts: int,
        max_wait_time: float,
        remaining: float,
        hint: str = "",
        wording: Wording = WAITER,
        by_rule: bool = False,
    ) -> None:
        reached = (
            "its max_attempts function said stop"
            if by_rule
            else f"max_attempts={max_attempts} reached"
        )
        left = _room_left(max_wait_time, remaining, wording, by_rule)
        super().__init__(
            f"{wording.owner(result.waiter)} gave up: {reached} "
            f"{_summary(result, wording)}, {left}{hint}",
            result,
        )
        self.max_attempts = max_attempts
        self.max_wait_time = max_wait_time
        self.remaining = remaining


def _room_left(
    max_wait_time: float, remaining: float, wording: Wording, by_rule: bool
) -> str:
    """What was left of the deadline when the attempts ran out, and what to raise
    (in the front end's words: a poller's deadline is its `timeout`)."""
    option, going_on = wording.deadline_option, wording.going_on
    more = (
        "have the max_attempts function allow more attempts"
        if by_rule
        else "raise max_attempts"
    )
    if math.isinf(max_wait_time):
        return f"with no {option}; {more} to keep {going_on}"
    if remaining <= 0.0:  # the last poll was also the deadline's final one
        both = f"{more} and {option}" if by_rule else "raise both"
        return f"as {option}={max_wait_time:g}s ran out too; {both} to keep {going_on}"
    return (
        f"with {remaining:.1f}s of {option}={max_wait_time:g}s still left; "
        f"{more} to use the whole {option}"
    )


class WaiterEvaluationError(WaiterError):
    """An acceptor could not be evaluated for a reason that is not the response's data.

    Raised when evaluating acceptor `acceptor_index` raised something other than
    the evaluation errors that mean "does not match" (see `waitable.matching`):
    typically an exception from a client's own objects (a mapping subclass whose
    `get` raises) or a bug in waitable. The original exception is `__cause__`,
    its class name `cause_type`.

    `waitable.matching` raises it before the engine knows the wait's history, with
    an empty `result`; the engine attaches the real one with `with_result`.
    """

    def __init__(
        self,
        waiter: str,
        *,
        acceptor_index: int,
        matcher: str,
        cause_type: str,
        result: WaiterResult[Any] | None = None,
        advice: str | None = None,
    ) -> None:
        if result is None:
            result = WaiterResult(waiter, AcceptorState.FAILURE, None, 0, 0.0, ())
        seen = f" {_summary(result)}" if result.history else ""
        super().__init__(
            f"waiter {waiter} could not evaluate acceptor {acceptor_index} "
            f"({matcher}): {cause_type} was raised while evaluating it{seen}; "
            + (
                advice
                or "this is not a verdict on the response: check what the client "
                "returns (custom mapping or string types) or report it as a "
                "waitable bug"
            ),
            result,
        )
        self.waiter = waiter
        self.acceptor_index = acceptor_index
        self.matcher = matcher
        self.cause_type = cause_type
        #: What to do, when the raiser is known (a custom waiter's own predicate);
        #: None for the default advice.
        self.advice = advice

    def with_result(self, result: WaiterResult[Any]) -> WaiterEvaluationError:
        """The same error carrying the wait's real `result`; `__cause__` is kept."""
        error = WaiterEvaluationError(
            self.waiter,
            acceptor_index=self.acceptor_index,
            matcher=self.matcher,
            cause_type=self.cause_type,
            result=result,
            advice=self.advice,
        )
        error.__cause__ = self.__cause__
        return error

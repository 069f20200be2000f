"""The errors a wait raises. Each carries the wait's `WaiterResult` as `.result`.

Every message names the waiter, the number of attempts, the time spent and the
last state or error code, and says what the caller can do about it.
"""

from __future__ import annotations

from typing import Any

from .results import WaiterResult

__all__ = [
    "WaiterConfigurationError",
    "WaiterError",
    "WaiterFailureStateError",
    "WaiterMaxAttemptsError",
    "WaiterOperationError",
    "WaiterTimeoutError",
]


class WaiterConfigurationError(ValueError):
    """A wait was asked for with arguments it cannot honour; raised before any request."""


def _summary(result: WaiterResult[Any]) -> str:
    """`after N attempt(s) in T s, last <state or error code>`."""
    plural = "" if result.attempts == 1 else "s"
    last = result.last_attempt
    if last is None:
        seen = "no response"
    elif last.error_type is not None:
        seen = f"last error {last.error_type}"
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


class WaiterFailureStateError(WaiterError):
    """A failure acceptor matched: the resource will not reach the desired state."""

    def __init__(
        self,
        result: WaiterResult[Any],
        *,
        acceptor_index: int,
        matcher: str,
        reason: str | None = None,
    ) -> None:
        because = f": {reason}" if reason else ""
        super().__init__(
            f"waiter {result.waiter} reached a failure state{because} "
            f"(acceptor {acceptor_index}, {matcher}) {_summary(result)}",
            result,
        )
        self.acceptor_index = acceptor_index
        self.reason = reason


class WaiterOperationError(WaiterError):
    """The operation raised an error that no acceptor matched (the original is `__cause__`)."""

    def __init__(
        self, result: WaiterResult[Any], *, error_code: str, advice: str
    ) -> None:
        super().__init__(
            f"waiter {result.waiter} stopped: the operation raised {error_code}, "
            f"which no acceptor matches, {_summary(result)}; {advice}",
            result,
        )
        self.error_code = error_code


class WaiterTimeoutError(WaiterError):
    """`max_wait_time` passed before any acceptor reached success or failure."""

    def __init__(
        self, result: WaiterResult[Any], *, max_wait_time: float, why: str
    ) -> None:
        super().__init__(
            f"waiter {result.waiter} timed out: {why} (max_wait_time={max_wait_time:g}s) "
            f"{_summary(result)}; pass a larger max_wait_time to wait longer",
            result,
        )
        self.max_wait_time = max_wait_time


class WaiterMaxAttemptsError(WaiterError):
    """`max_attempts` polls were made; says how much of `max_wait_time` was left unused."""

    def __init__(
        self,
        result: WaiterResult[Any],
        *,
        max_attempts: int,
        max_wait_time: float,
        remaining: float,
    ) -> None:
        super().__init__(
            f"waiter {result.waiter} gave up: max_attempts={max_attempts} reached "
            f"{_summary(result)}, with {remaining:.1f}s of max_wait_time={max_wait_time:g}s "
            "still left; raise or drop max_attempts to use the whole max_wait_time",
            result,
        )
        self.max_attempts = max_attempts
        self.max_wait_time = max_wait_time
        self.remaining = remaining

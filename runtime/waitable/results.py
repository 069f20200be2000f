"""What a wait returns: the final state, the last output, and every attempt's record."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import FrozenInstanceError, dataclass
from typing import Any, Generic, TypeVar

from .definition import AcceptorState
from .records import draft_class

__all__ = ["Attempt", "Retry", "WaiterResult", "new_result"]

OutputT = TypeVar("OutputT")


@dataclass(frozen=True, slots=True)
class Retry:
    """One retry of a poll's call under a retry strategy (seed 001): why, and the backoff.

    `number` is the try it retried (1 = the first call of the poll), `error_type`
    the error code that try raised (None when a response was retried), `reason`
    the `RetryErrorType` value, `delay` the backoff slept before the next try.
    """

    number: int
    error_type: str | None
    reason: str
    delay: float


@dataclass(frozen=True, slots=True)
class Attempt(Generic[OutputT]):
    """One poll: when it started, the delay before it, what it saw, and what it decided.

    `started_at` and `duration` are seconds on the waiter's clock, `started_at`
    counted from the start of the wait. `output` is what the client returned (None
    when it raised); `error_type` is the error code the call raised, if any.
    `acceptor_index` is the 0-based index of the acceptor that matched, None when an
    implicit rule decided (no acceptor matched, or the deadline passed).
    `retries` lists the retries of this poll's call made under `retry=`;
    `retry_stopped` says why no further retry was made when the policy wanted one:
    `"max_attempts"`, `"max_time"` (the retry's backoff would pass the deadline or
    the strategy's `max_time`), `"capacity"` (the token bucket was short) or
    `"cancelled"` (the wait's cancel event was set between two tries).
    """

    number: int
    started_at: float
    delay: float
    duration: float
    state: AcceptorState
    acceptor_index: int | None
    output: OutputT | None
    error_type: str | None
    retries: tuple[Retry, ...] = ()
    retry_stopped: str | None = None


class WaiterResult(Generic[OutputT]):
    """The outcome of a wait, returned on success and carried by every `WaiterError`.

    `output` is the last output the client returned during the wait, as the
    client returned it (None if no call succeeded). `elapsed` is seconds from the
    start of the wait to the end of its last poll. `history` is a tuple of
    `Attempt`s, built from the engine's compact record when first read.
    Immutable, compared and hashed by value like a frozen dataclass.
    """

    __slots__ = ("waiter", "state", "output", "attempts", "elapsed", "_history")
    __match_args__ = ("waiter", "state", "output", "attempts", "elapsed", "history")

    waiter: str
    state: AcceptorState
    output: OutputT | None
    attempts: int
    elapsed: float
    _history: Iterable[Attempt[OutputT]]

    def __init__(
        self,
        waiter: str,
        state: AcceptorState,
        output: OutputT | None,
        attempts: int,
        elapsed: float,
        history: Iterable[Attempt[OutputT]],
    ) -> None:
        setattr_ = object.__setattr__
        setattr_(self, "waiter", waiter)
        setattr_(self, "state", state)
        setattr_(self, "output", output)
        setattr_(self, "attempts", attempts)
        setattr_(self, "elapsed", elapsed)
        setattr_(self, "_history", history)

    @property
    def history(self) -> tuple[Attempt[OutputT], ...]:
        """Every kept poll's `Attempt`, oldest first."""
        history = self._history
        if type(history) is not tuple:
            history = tuple(history)
            object.__setattr__(self, "_history", history)
        return history

    @property
    def last_attempt(self) -> Attempt[OutputT] | None:
        """The record of the final poll, if there was one."""
        history = self.history
        return history[-1] if history else None

    def to_data(self) -> dict[str, Any]:
        """This result as JSON data (outputs made JSON-safe), to send to another process."""
        from .steps import result_to_data

        return result_to_data(self)

    def _fields(self) -> tuple[Any, ...]:
        return (
            self.waiter,
            self.state,
            self.output,
            self.attempts,
            self.elapsed,
            self.history,
        )

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, WaiterResult)
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return (
            f"{type(self).__qualname__}(waiter={self.waiter!r}, state={self.state!r}, "
            f"output={self.output!r}, attempts={self.attempts!r}, "
            f"elapsed={self.elapsed!r}, history={self.history!r})"
        )

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), self._fields())


_ResultDraft: Any = draft_class(WaiterResult)


def new_result(
    waiter: str,
    state: AcceptorState,
    output: Any,
    attempts: int,
    elapsed: float,
    history: Iterable[Attempt[Any]],
) -> WaiterResult[Any]:
    """`WaiterResult(waiter, state, output, attempts, elapsed, history)`, built the
    engine's fast way (`waitable.records`): the flow makes one per wait."""
    result = _ResultDraft()
    result.waiter = waiter
    result.state = state
    result.output = output
    result.attempts = attempts
    result.elapsed = elapsed
    result._history = history
    result.__class__ = WaiterResult
    made: WaiterResult[Any] = result
    return made

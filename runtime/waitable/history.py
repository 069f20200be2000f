"""A wait's history kept compactly: seven slots of one flat list per poll, `Attempt`s built on reading.

The engine records every poll, but most waits never read their history, and with
100,000 waits in one process an object per poll adds up. So `History` stores a
poll's fields in one shared list (no record object, no tuple) and makes the
`Attempt` only when someone reads it; what is read equals what was recorded.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any, overload

from .definition import AcceptorState
from .results import Attempt, Retry

__all__ = ["History", "STATE_CODES", "WIDTH"]

#: Slots per poll in `History.items`: number, started_at, delay, duration, verdict
#: (`STATE_CODES[state] + 3 * (acceptor_index + 1)`, 0 in place of index + 1 for
#: None), output, error (its type, or `(type, retries, retry_stopped)` when the
#: poll's call was retried).
WIDTH = 7
_STATES = (AcceptorState.SUCCESS, AcceptorState.FAILURE, AcceptorState.RETRY)
#: Each acceptor state's code in a recorded verdict.
STATE_CODES = {state: code for code, state in enumerate(_STATES)}
_new = object.__new__


def _attempt(items: list[Any], at: int) -> Attempt[Any]:
    """The `Attempt` whose slots start at `items[at]`."""
    number, started_at, delay, duration, verdict, output, error = items[at : at + WIDTH]
    index = verdict // 3 - 1
    if type(error) is tuple:
        error_type, retries, retry_stopped = error
    else:
        error_type, retries, retry_stopped = error, (), None
    return Attempt(
        number,
        started_at,
        delay,
        duration,
        _STATES[verdict % 3],
        None if index < 0 else index,
        output,
        error_type,
        retries,
        retry_stopped,
    )


class History(Sequence[Attempt[Any]]):
    """The newest `limit` polls of a wait (all when None), read as `Attempt`s.

    `record` appends a poll from its fields, `append` from an `Attempt`; both drop
    the oldest poll beyond `limit`. The engine's usual poll appends its `WIDTH`
    slots to `items` itself, then calls `trim()` if there is a limit. Indexing and iteration build equal `Attempt`s
    afresh; `snapshot()` is an unchanging copy for a `WaiterResult`.
    """

    __slots__ = ("items", "limit")

    def __init__(
        self, attempts: Iterable[Attempt[Any]] = (), limit: int | None = None
    ) -> None:
        self.items: list[Any] = []
        self.limit = limit
        for attempt in attempts:
            self.append(attempt)

    def record(
        self,
        number: int,
        started_at: float,
        delay: float,
        duration: float,
        state: AcceptorState,
        acceptor_index: int | None,
        output: Any,
        error_type: str | None,
        retries: tuple[Retry, ...] = (),
        retry_stopped: str | None = None,
    ) -> None:
        """Append one poll, given as the fields of its `Attempt`."""
        items = self.items
        items += (
            number,
            started_at,
            delay,
            duration,
            STATE_CODES[state]
            + 3 * (0 if acceptor_index is None else acceptor_index + 1),
            output,
            (
                (error_type, retries, retry_stopped)
                if retries or retry_stopped is not None
                else error_type
            ),
        )
        if self.limit is not None:
            self.trim()

    def trim(self) -> None:
        """Drop the oldest polls beyond `limit` (after `items` was appended to)."""
        items, limit = self.items, self.limit
        if limit is not None and len(items) > limit * WIDTH:
            del items[: len(items) - limit * WIDTH]

    def append(self, attempt: Attempt[Any]) -> None:
        """Append one poll's `Attempt`."""
        self.record(
            attempt.number,
            attempt.started_at,
            attempt.delay,
            attempt.duration,
            attempt.state,
            attempt.acceptor_index,
            attempt.output,
            attempt.error_type,
            tuple(attempt.retries),
            attempt.retry_stopped,
        )

    def snapshot(self) -> History:
        """A copy that later polls do not change."""
        copy = _new(History)
        copy.items = self.items[:]
        copy.limit = self.limit
        return copy

    def last_end(self) -> float | None:
        """`started_at + duration` of the newest poll (None when empty), without building it."""
        items = self.items
        if not items:
            return None
        end: float = items[-WIDTH + 1] + items[-WIDTH + 3]
        return end

    def __len__(self) -> int:
        return len(self.items) // WIDTH

    @overload
    def __getitem__(self, index: int) -> Attempt[Any]: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Attempt[Any], ...]: ...

    def __getitem__(
        self, index: int | slice
    ) -> Attempt[Any] | tuple[Attempt[Any], ...]:
        if isinstance(index, slice):
            return tuple(self)[index]
        count = len(self)
        if index < 0:
            index += count
        if not 0 <= index < count:
            raise IndexError("history index out of range")
        return _attempt(self.items, index * WIDTH)

    def __iter__(self) -> Iterator[Attempt[Any]]:
        items = self.items
        return (_attempt(items, at) for at in range(0, len(items), WIDTH))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, History):
            return self.items == other.items
        if isinstance(other, (list, tuple)):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"History({list(self)!r}, limit={self.limit!r})"

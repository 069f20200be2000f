"""The step API: a wait saved between polls as plain JSON, and one poll at a time.

`waiter.start(input, max_wait_time=...)` returns a `SavedWait`;
`waiter.poll_once(saved)` makes exactly one call (with its retries, if any) by
running the engine (`waitable.flow`) for one turn from the saved record, and
returns a `PollStep`: the final result, or the new record and `next_delay`, the
seconds after which the caller should poll again (seed 002's `poll_once`). The
caller does the sleeping: a scheduler, a task queue (`waitable.celery`), another
process.

Times in a `SavedWait` are wall-clock seconds (`time.time()` on the real clock),
so a wait resumed in another process, or after a restart, still ends at its
deadline. The jitter's random state travels in the record, so a resumed wait
makes the same decisions an uninterrupted one would.
"""

from __future__ import annotations

import base64
import binascii
import json
import math
import random
import struct
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from .clock import CallLater, Clock, wall_reading
from .definition import AcceptorState
from .errors import WaiterConfigurationError
from .flow import WaitState
from .history import History
from .jsondata import first_loss, to_json_data
from .results import Attempt, Retry, WaiterResult
from .seconds import MAX_SECONDS, SecondsError, describe_value, parse_seconds

__all__ = [
    "DEFAULT_HISTORY_LIMIT",
    "PollStep",
    "SavedWait",
    "WallClock",
    "attempt_from_data",
    "attempt_to_data",
    "result_to_data",
]

OutputT = TypeVar("OutputT")

#: Attempts a saved wait keeps in its history (the newest); the count goes on.
DEFAULT_HISTORY_LIMIT = 50
_VERSION = 1


class WallClock:
    """A view of a clock that reads wall-clock seconds, for waits saved across processes.

    `now()` is `clock.wall()` when the clock has one (`VirtualClock` does), else
    `time.time()`; sleeping is the clock's own.
    """

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self._wall = wall_reading(clock)
        later = getattr(clock, "call_later", None)
        #: The clock's timers (see `waitable.clock.CallLater`), if it has them.
        self.call_later: CallLater | None = later if callable(later) else None

    def now(self) -> float:
        """Wall-clock seconds."""
        value: float = self._wall()
        return value

    def sleep(self, seconds: float) -> None:
        """The underlying clock's blocking sleep."""
        self.clock.sleep(seconds)

    async def sleep_async(self, seconds: float) -> None:
        """The underlying clock's asyncio sleep."""
        await self.clock.sleep_async(seconds)


def attempt_to_data(attempt: Attempt[Any]) -> dict[str, Any]:
    """An `Attempt` as JSON data (its output made JSON-safe)."""
    return {
        "number": attempt.number,
        "started_at": attempt.started_at,
        "delay": attempt.delay,
        "duration": attempt.duration,
        "state": attempt.state.value,
        "acceptor_index": attempt.acceptor_index,
        "output": to_json_data(attempt.output),
        "error_type": attempt.error_type,
        "retries": [
            {
                "number": r.number,
                "error_type": r.error_type,
                "reason": r.reason,
                "delay": r.delay,
            }
            for r in attempt.retries
        ],
    }


def attempt_from_data(data: dict[str, Any]) -> Attempt[Any]:
    """The `Attempt` that `attempt_to_data` wrote."""
    return Attempt(
        number=int(data["number"]),
        started_at=float(data["started_at"]),
        delay=float(data["delay"]),
        duration=float(data["duration"]),
        state=AcceptorState(data["state"]),
        acceptor_index=data["acceptor_index"],
        output=data["output"],
        error_type=data["error_type"],
        retries=tuple(
            Retry(
                int(r["number"]), r["error_type"], str(r["reason"]), float(r["delay"])
            )
            for r in data["retries"]
        ),
    )


def result_to_data(result: WaiterResult[Any]) -> dict[str, Any]:
    """A `WaiterResult` as JSON data: waiter, state, attempts, elapsed, output, history."""
    return {
        "waiter": result.waiter,
        "state": result.state.value,
        "attempts": result.attempts,
        "elapsed": result.elapsed,
        "output": to_json_data(result.output),
        "history": [attempt_to_data(a) for a in result.history],
    }


@dataclass(slots=True)
class SavedWait:
    """A wait between two polls, as plain data that round-trips through JSON.

    `started_at`, `deadline` and `next_poll_at` are wall-clock seconds. `rng_state`
    is the jitter's `random.Random` state; `history` the newest `history_limit`
    attempts as data; `attempts` the number of polls made so far.
    """

    waiter: str
    input: Any
    max_wait_time: float
    min_delay: float
    max_delay: float
    max_attempts: int | None
    started_at: float
    deadline: float
    rng_state: Any
    attempts: int = 0
    next_delay: float = 0.0
    next_poll_at: float | None = None
    final: bool = False
    total_delay: float = 0.0
    last_output: Any = None
    history: list[dict[str, Any]] = field(default_factory=list)
    history_limit: int = DEFAULT_HISTORY_LIMIT

    def to_json(self) -> str:
        """This record as a JSON document."""
        return json.dumps(self.to_data(), separators=(",", ":"), allow_nan=False)

    def to_data(self) -> dict[str, Any]:
        """This record as JSON data (a dict). Its input must come back from JSON as
        it is: a wait resumed elsewhere calls the client with what JSON gives back."""
        loss = first_loss(self.input, "input")
        if loss is not None:
            raise WaiterConfigurationError(
                f"waiter {self.waiter}: a saved wait's input must be JSON data as it "
                f"is (a wait resumed from JSON calls the client with what JSON gives "
                f"back), but {loss}; pass it as text or numbers the client takes "
                "(a timestamp as ISO 8601 text), or keep polling in this process "
                "without saving the record"
            )
        return {
            "version": _VERSION,
            "waiter": self.waiter,
            "input": to_json_data(self.input),
            "max_wait_time": _finite_or_none(self.max_wait_time),
            "min_delay": self.min_delay,
            "max_delay": self.max_delay,
            "max_attempts": self.max_attempts,
            "started_at": self.started_at,
            "deadline": _finite_or_none(self.deadline),
            "rng_state": self.rng_state,
            "attempts": self.attempts,
            "next_delay": self.next_delay,
            "next_poll_at": self.next_poll_at,
            "final": self.final,
            "total_delay": self.total_delay,
            "last_output": to_json_data(self.last_output),
            "history": self.history,
            "history_limit": self.history_limit,
        }

    @classmethod
    def from_json(cls, text: str | bytes) -> SavedWait:
        """The record `to_json` wrote; a clear `WaiterConfigurationError` for anything else."""
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as error:
            raise WaiterConfigurationError(
                f"a saved wait must be the JSON that SavedWait.to_json() wrote: {error}"
            ) from None
        return cls.from_data(data)

    @classmethod
    def from_data(cls, data: Any) -> SavedWait:
        """The record `to_data` wrote, checked field by field.

        Settings are held to the rules `start()` applied to them (`waitable.options`),
        so a tampered record is refused here, before `poll_once` sends a request.
        """
        if not isinstance(data, dict) or data.get("version") != _VERSION:
            raise WaiterConfigurationError(
                "a saved wait must be a JSON object written by SavedWait.to_json() "
                f"(version {_VERSION}); got {str(data)[:80]!r}"
            )
        try:
            saved = cls(
                waiter=_text(data["waiter"]),
                input=data["input"],
                max_wait_time=_seconds_or_inf("max_wait_time", data["max_wait_time"]),
                min_delay=_seconds("min_delay", data["min_delay"]),
                max_delay=_seconds("max_delay", data["max_delay"]),
                max_attempts=_max_attempts(data["max_attempts"]),
                started_at=_number(data["started_at"]),
                deadline=_number_or_inf(data["deadline"]),
                rng_state=data["rng_state"],
                attempts=_count(data["attempts"]),
                next_delay=_delay("next_delay", data["next_delay"], MAX_NEXT_DELAY),
                next_poll_at=(
                    None
                    if data["next_poll_at"] is None
                    else _number(data["next_poll_at"])
                ),
                final=bool(data["final"]),
                total_delay=_delay("total_delay", data["total_delay"], math.inf),
                last_output=data["last_output"],
                history=list(data["history"]),
                history_limit=_history_limit(data["history_limit"]),
            )
            if saved.min_delay > saved.max_delay:
                raise _refused(
                    "min_delay",
                    saved.min_delay,
                    f"at most the record's max_delay ({saved.max_delay!r})",
                )
            if saved.max_wait_time == math.inf and saved.max_attempts is None:
                # A wait without a deadline is one that a cap ends (`custom_waiter`).
                raise _refused(
                    "max_wait_time", None, "given when max_attempts is null (no cap)"
                )
            if (saved.deadline == math.inf) != (saved.max_wait_time == math.inf):
                raise _refused(
                    "deadline",
                    data["deadline"],
                    "null exactly when max_wait_time is null (no deadline)",
                )
            saved.rng()
            for entry in saved.history:
                attempt_from_data(entry)
        except WaiterConfigurationError:
            raise
        except (
            KeyError,
            TypeError,
            ValueError,
            ArithmeticError,  # e.g. int(1e400) in a history entry
            binascii.Error,
            struct.error,
        ) as error:
            raise WaiterConfigurationError(
                f"a saved wait has a missing or malformed field: {error!r}; pass the "
                "JSON that SavedWait.to_json() wrote, unchanged"
            ) from None
        return saved

    def rng(self) -> random.Random:
        """A `random.Random` in the saved state."""
        rng = random.Random()
        version, internal, gauss = self.rng_state
        if isinstance(internal, str):
            packed = base64.b64decode(internal.encode("ascii"), validate=True)
            words = struct.unpack(f"<{len(packed) // 4}I", packed)
        else:
            words = tuple(int(x) for x in internal)
        if gauss is not None:
            gauss = float(gauss)
        rng.setstate((int(version), words, gauss))
        return rng

    def wait_state(self) -> WaitState:
        """The engine's `WaitState` for this record (times stay wall-clock)."""
        return WaitState(
            started_at=self.started_at,
            deadline=self.deadline,
            history=History(
                (attempt_from_data(entry) for entry in self.history),
                self.history_limit,
            ),
            next_delay=self.next_delay,
            next_poll_at=self.next_poll_at,
            final=self.final,
            last_output=self.last_output,
            attempts=self.attempts,
            history_limit=self.history_limit,
            total_delay=self.total_delay,
        )

    def advanced(self, state: WaitState, rng: random.Random) -> SavedWait:
        """A new record: this one's settings with the engine's state after a poll."""
        return SavedWait(
            waiter=self.waiter,
            input=self.input,
            max_wait_time=self.max_wait_time,
            min_delay=self.min_delay,
            max_delay=self.max_delay,
            max_attempts=self.max_attempts,
            started_at=state.started_at,
            deadline=state.deadline,
            rng_state=rng_state(rng),
            attempts=state.attempts,
            next_delay=state.next_delay,
            next_poll_at=state.next_poll_at,
            final=state.final,
            total_delay=state.total_delay,
            last_output=to_json_data(state.last_output),
            history=[attempt_to_data(a) for a in state.history],
            history_limit=self.history_limit,
        )


def rng_state(rng: random.Random) -> list[Any]:
    """`rng.getstate()` as compact JSON data: the Mersenne Twister's 625 words base64'd.

    About 3.4 KB instead of the 7 KB of the words written out as numbers: it
    travels in every saved wait (a Celery message, a database row).
    """
    version, internal, gauss = rng.getstate()
    packed = struct.pack(f"<{len(internal)}I", *internal)
    return [version, base64.b64encode(packed).decode("ascii"), gauss]


@dataclass(frozen=True, slots=True)
class PollStep(Generic[OutputT]):
    """What one `poll_once` did: the final `result`, or the `state` to resume after `next_delay`."""

    state: SavedWait
    result: WaiterResult[OutputT] | None = None
    next_delay: float | None = None

    @property
    def done(self) -> bool:
        """True when the wait reached success (`result` is set)."""
        return self.result is not None


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"expected text, got {type(value).__name__}")
    return value


def _number(value: Any) -> float:
    """A finite number, kept as it was written (an int stays an int: whole-second jitter)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"expected a number, got {type(value).__name__}")
    if not math.isfinite(value):
        raise ValueError(f"expected a finite number, got {value!r}")
    return value


def _count(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise TypeError(f"expected a count, got {value!r}")
    return value


#: The largest `next_delay` a record may hold. The engine's delays are at most
#: `MAX_SECONDS`, but the final one is the time left to the deadline, which
#: rounding (or a wall clock set back between processes) can stretch past it.
MAX_NEXT_DELAY = 2 * MAX_SECONDS


def _refused(name: str, value: Any, allowed: str) -> WaiterConfigurationError:
    """The error for a saved wait's field `name` holding `value`, saying what is `allowed`."""
    return WaiterConfigurationError(
        f"a saved wait's {name} must be {allowed}, got {describe_value(value)}; pass "
        "the JSON that SavedWait.to_json() wrote, unchanged"
    )


def _seconds(name: str, value: Any) -> float:
    """A delay bound or time limit, held to the options' rule (`parse_seconds`)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _refused(name, value, "a number of seconds")
    try:
        return parse_seconds(value)
    except SecondsError:
        raise _refused(
            name,
            value,
            f"a positive, finite number of seconds, at most {MAX_SECONDS} (100 years)",
        ) from None


def _seconds_or_inf(name: str, value: Any) -> float:
    """`_seconds`, or infinity for the null that a wait without a deadline writes."""
    return math.inf if value is None else _seconds(name, value)


def _delay(name: str, value: Any, most: float) -> float:
    """A delay the engine computed (or a sum of them): finite, from 0 to `most` seconds."""
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or not 0 <= value <= most  # NaN fails both comparisons
        or not math.isfinite(value)
    ):
        allowed = "a finite number of seconds >= 0"
        if math.isfinite(most):
            allowed = f"a number of seconds from 0 to {most}"
        raise _refused(name, value, allowed)
    return value


def _max_attempts(value: Any) -> int | None:
    """The poll cap, as `validate_max_attempts` allows it: an integer >= 1 or null."""
    if value is None or (
        not isinstance(value, bool) and isinstance(value, int) and value >= 1
    ):
        return value
    raise _refused("max_attempts", value, "an integer >= 1, or null for no cap")


def _history_limit(value: Any) -> int:
    """The history's bound, as the waiter's constructor allows it: an integer >= 1."""
    if not isinstance(value, bool) and isinstance(value, int) and value >= 1:
        return value
    raise _refused("history_limit", value, "an integer >= 1")


def _finite_or_none(value: float) -> float | None:
    """JSON has no infinity: a wait without a deadline writes null."""
    return value if math.isfinite(value) else None


def _number_or_inf(value: Any) -> float:
    return math.inf if value is None else _number(value)

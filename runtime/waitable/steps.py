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
import hashlib
import hmac
import json
import math
import random
import struct
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar

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
    "PollDone",
    "PollPending",
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
        # only when set: a record of a wait that never stopped retrying is unchanged
        **({"retry_stopped": attempt.retry_stopped} if attempt.retry_stopped else {}),
    }


def attempt_from_data(
    data: Any, *, name: str = "history entry", most: int | None = None
) -> Attempt[Any]:
    """The `Attempt` that `attempt_to_data` wrote, checked field by field.

    Every field must have the type `attempt_to_data` writes (a count a real
    `int`, a time a finite JSON number, never text); anything else is a
    `WaiterConfigurationError` naming the field (`name.field`). `most` bounds
    `number` (a saved wait's `attempts`; `MAX_POLLS` when None).
    """
    if not isinstance(data, dict):
        raise _refused(name, data, "a JSON object as attempt_to_data() writes it")
    where = f"{name}."
    retries = _field(data, "retries", where)
    if not isinstance(retries, list):
        raise _refused(f"{name}.retries", retries, "a JSON array")
    return Attempt(
        number=_whole(
            f"{name}.number",
            _field(data, "number", where),
            1,
            MAX_POLLS if most is None else most,
        ),
        started_at=_time(f"{name}.started_at", _field(data, "started_at", where)),
        delay=_delay(f"{name}.delay", _field(data, "delay", where), MAX_NEXT_DELAY),
        duration=_time(f"{name}.duration", _field(data, "duration", where)),
        state=_acceptor_state(f"{name}.state", _field(data, "state", where)),
        acceptor_index=_acceptor_index(
            f"{name}.acceptor_index", _field(data, "acceptor_index", where)
        ),
        output=_json_data(f"{name}.output", _field(data, "output", where)),
        error_type=_text_or_none(
            f"{name}.error_type", _field(data, "error_type", where)
        ),
        retries=tuple(
            _retry_from_data(entry, f"{name}.retries[{index}]")
            for index, entry in enumerate(retries)
        ),
        retry_stopped=_retry_stopped(f"{name}.retry_stopped", data),
    )


#: Why a poll's retries stopped while its policy wanted another (`Attempt.retry_stopped`).
RETRY_STOPPED = frozenset({"max_attempts", "max_time", "capacity", "cancelled"})


def _retry_stopped(name: str, data: dict[str, Any]) -> str | None:
    """An attempt's `retry_stopped`: absent (records before it was saved, and
    attempts whose retries did not stop early) or one of `RETRY_STOPPED`."""
    value = data.get("retry_stopped")
    if value is None:
        return None
    if not isinstance(value, str) or value not in RETRY_STOPPED:
        raise _refused(name, value, f"one of {', '.join(sorted(RETRY_STOPPED))}")
    return str.__str__(value)


def _retry_from_data(data: Any, name: str) -> Retry:
    """The `Retry` that `attempt_to_data` wrote as one of an attempt's `retries`."""
    if not isinstance(data, dict):
        raise _refused(name, data, "a JSON object as attempt_to_data() writes it")
    where = f"{name}."
    reason = _field(data, "reason", where)
    if not isinstance(reason, str):
        raise _refused(f"{name}.reason", reason, "text")
    return Retry(
        _whole(f"{name}.number", _field(data, "number", where), 1, MAX_POLLS),
        _text_or_none(f"{name}.error_type", _field(data, "error_type", where)),
        reason,
        _delay(f"{name}.delay", _field(data, "delay", where), MAX_NEXT_DELAY),
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

    def to_json(self, *, key: bytes | None = None) -> str:
        """This record as a JSON document; with `key`, signed (HMAC-SHA256) so that
        `from_json(text, key=key)` refuses it if anything in it was changed: for a
        record that travels through hands that should not steer the wait (a client
        that hands it back with its next request)."""
        data = self.to_data()
        if key is not None:
            data["signature"] = _signature(data, _checked_key(key))
        return json.dumps(data, separators=(",", ":"), allow_nan=False)

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
    def from_json(cls, text: str | bytes, *, key: bytes | None = None) -> SavedWait:
        """The record `to_json` wrote; a clear `WaiterConfigurationError` for anything
        else. With `key`, the record must carry the signature `to_json(key=key)`
        gave it, over exactly its content (checked before anything else of it)."""
        checked_key = None if key is None else _checked_key(key)
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as error:
            raise WaiterConfigurationError(
                f"a saved wait must be the JSON that SavedWait.to_json() wrote: {error}"
            ) from None
        if checked_key is not None:
            _verify(data, checked_key)
        elif isinstance(data, dict):
            data.pop("signature", None)  # signed, read by one who does not check
        return cls.from_data(data)

    @classmethod
    def from_data(cls, data: Any) -> SavedWait:
        """The record `to_data` wrote, checked field by field.

        Settings are held to the rules `start()` applied to them (`waitable.options`),
        so a tampered record is refused here, before `poll_once` sends a request:
        every field must have the type `to_data` writes, counts and times stay in
        the range a real wait reaches, the deadline is `started_at + max_wait_time`
        as `start()` computed it, and the input is JSON data `to_json()` would save.
        The history is built here too, so nothing of the record fails inside
        `poll_once`. What a waiter itself must allow is `check_waiter`'s.
        """
        version = data.get("version") if isinstance(data, dict) else None
        if type(version) is not int or version != _VERSION:
            raise WaiterConfigurationError(
                "a saved wait must be a JSON object written by SavedWait.to_json() "
                f"(version {_VERSION}); got {describe_value(data)}"
            )
        try:
            saved = cls._checked(data)
        except WaiterConfigurationError:
            raise
        except (
            KeyError,
            TypeError,
            ValueError,
            ArithmeticError,
            RecursionError,
            binascii.Error,
            struct.error,
        ) as error:  # a safety net: every field is checked above
            raise WaiterConfigurationError(
                f"a saved wait has a missing or malformed field: {error!r}; pass the "
                "JSON that SavedWait.to_json() wrote, unchanged"
            ) from None
        return saved

    @classmethod
    def _checked(cls, data: dict[str, Any]) -> SavedWait:
        """`from_data`'s checks, in the order one field's rule reads another's."""
        waiter = _field(data, "waiter")
        if not isinstance(waiter, str):
            raise _refused("waiter", waiter, "text (the waiter's name)")
        input = _field(data, "input")
        loss = first_loss(input, "input")
        if loss is not None:
            raise WaiterConfigurationError(
                f"a saved wait's input must be JSON data as SavedWait.to_json() "
                f"writes it, but {loss}; pass the JSON that SavedWait.to_json() "
                "wrote, unchanged"
            )
        max_wait_time = _seconds_or_inf("max_wait_time", _field(data, "max_wait_time"))
        min_delay = _seconds("min_delay", _field(data, "min_delay"))
        max_delay = _seconds("max_delay", _field(data, "max_delay"))
        if min_delay > max_delay:
            raise _refused(
                "min_delay",
                min_delay,
                f"at most the record's max_delay ({max_delay!r})",
            )
        max_attempts = _max_attempts(_field(data, "max_attempts"))
        if max_wait_time == math.inf and max_attempts is None:
            # A wait without a deadline is one that a cap ends (`custom_waiter`).
            raise _refused(
                "max_wait_time", None, "given when max_attempts is null (no cap)"
            )
        started_at = _time("started_at", _field(data, "started_at"))
        deadline = _deadline(_field(data, "deadline"), started_at, max_wait_time)
        rng_state = _field(data, "rng_state")
        _random(rng_state)
        cap = MAX_POLLS if max_attempts is None else min(max_attempts, MAX_POLLS)
        attempts = _whole("attempts", _field(data, "attempts"), 0, cap)
        next_poll_at = _field(data, "next_poll_at")
        final = _field(data, "final")
        if type(final) is not bool:
            raise _refused("final", final, "true or false")
        history = _field(data, "history")
        if not isinstance(history, list):
            raise _refused("history", history, "a JSON array of attempts")
        history_limit = _history_limit(_field(data, "history_limit"))
        # Built as `wait_state` builds it, so no entry fails inside `poll_once`.
        History(
            (
                attempt_from_data(entry, name=f"history[{index}]", most=attempts)
                for index, entry in enumerate(history)
            ),
            history_limit,
        )
        return cls(
            waiter=waiter,
            input=input,
            max_wait_time=max_wait_time,
            min_delay=min_delay,
            max_delay=max_delay,
            max_attempts=max_attempts,
            started_at=started_at,
            deadline=deadline,
            rng_state=rng_state,
            attempts=attempts,
            next_delay=_delay("next_delay", _field(data, "next_delay"), MAX_NEXT_DELAY),
            next_poll_at=(
                None if next_poll_at is None else _time("next_poll_at", next_poll_at)
            ),
            final=final,
            total_delay=_delay("total_delay", _field(data, "total_delay"), math.inf),
            last_output=_json_data("last_output", _field(data, "last_output")),
            history=list(history),
            history_limit=history_limit,
        )

    def check_waiter(self, acceptors: int, *, allows_no_deadline: bool = True) -> None:
        """Refuse this record for the waiter resuming it when that waiter's `start()`
        could not have written it; `from_data` checked the rest, but it does not
        know the waiter.

        `acceptors` is the number of the waiter's acceptors: every history entry's
        `acceptor_index` must name one of them. `allows_no_deadline` is False for
        a waiter whose `start()` refuses to run without `max_wait_time` (a spec
        waiter, or one whose config sets a wait timeout): then a record without a
        deadline is refused, as the spec requires every wait to have one.
        """
        if self.max_wait_time == math.inf and not allows_no_deadline:
            raise WaiterConfigurationError(
                f"a saved wait's max_wait_time must be a number of seconds for waiter "
                f"{self.waiter}, whose start() never writes a wait without a deadline "
                "(the spec's waiters require max_wait_time; a default or a config's "
                "wait_timeout fills it in), got None; pass the JSON that "
                "SavedWait.to_json() wrote, unchanged"
            )
        for number, entry in enumerate(self.history):
            index = entry.get("acceptor_index") if isinstance(entry, dict) else None
            if index is not None and not (
                isinstance(index, int) and 0 <= index < acceptors
            ):
                allowed = (
                    f"null or an index of waiter {self.waiter}'s acceptors "
                    f"(0 to {acceptors - 1})"
                    if acceptors
                    else f"null (waiter {self.waiter} has no acceptors)"
                )
                raise _refused(f"history[{number}].acceptor_index", index, allowed)

    def check_pollable(self) -> None:
        """Refuse this record before `poll_once` makes a request when its wait has
        ended: its newest poll reached success or failure (the record `poll_once`
        returns with its final result), or its `attempts` reached `max_attempts`
        (or `MAX_POLLS`, the most a record counts), so no poll may follow.

        A pending record the engine writes always has fewer attempts than its cap:
        after the last allowed poll the wait ends with `WaiterMaxAttemptsError`.
        """
        newest = self.history[-1] if self.history else None
        state = newest.get("state") if isinstance(newest, dict) else None
        if self.attempts and state in _ENDED_STATES:
            raise WaiterConfigurationError(
                f"waiter {self.waiter}: this saved wait has ended (its poll "
                f"{self.attempts} reached {state}), so poll_once() makes no request "
                "for it; start a new wait with start() to poll again"
            )
        cap = MAX_POLLS if self.max_attempts is None else self.max_attempts
        if self.attempts >= min(cap, MAX_POLLS):
            most = (
                f"max_attempts {self.max_attempts}"
                if self.max_attempts is not None and self.max_attempts <= MAX_POLLS
                else "2**53, the most a saved wait counts"
            )
            raise WaiterConfigurationError(
                f"waiter {self.waiter}: this saved wait's attempts are used up "
                f"({self.attempts} polls made, {most}), so poll_once() makes no "
                "request for it; start a new wait with start() to poll again"
            )

    def rng(self) -> random.Random:
        """A `random.Random` in the saved state."""
        return _random(self.rng_state)

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

    def __post_init__(self) -> None:
        # A `PollDone`/`PollPending` holds what its type says (also one made by
        # `dataclasses.replace`), so the narrowing type checkers rely on is true.
        kind = type(self)
        if kind is PollDone and (self.result is None or self.next_delay is not None):
            raise WaiterConfigurationError(
                "a PollDone has a result and no next_delay; make a PollPending "
                "(or a PollStep) for a wait that goes on"
            )
        if kind is PollPending and (self.result is not None or self.next_delay is None):
            raise WaiterConfigurationError(
                "a PollPending has a next_delay and no result; make a PollDone "
                "(or a PollStep) for a wait that reached success"
            )

    @property
    def done(self) -> bool:
        """True when the wait reached success (`result` is set); `state` is then
        the ended wait's record, which `poll_once` refuses to poll again."""
        return self.result is not None


class PollDone(PollStep[OutputT]):
    """A `PollStep` whose wait reached success: `result` is set, `next_delay` None.

    `poll_once` returns this or a `PollPending`, so `if step.done:` narrows the
    step for a type checker (`step.result.attempts` checks under mypy --strict).
    """

    __slots__ = ()

    if TYPE_CHECKING:
        result: WaiterResult[OutputT]
        next_delay: None

        @property
        def done(self) -> Literal[True]: ...


class PollPending(PollStep[OutputT]):
    """A `PollStep` whose wait goes on: poll `state` again after `next_delay` seconds."""

    __slots__ = ()

    if TYPE_CHECKING:
        result: None
        next_delay: float

        @property
        def done(self) -> Literal[False]: ...


#: The most polls a saved wait may count, and the highest try number of a
#: poll's call: 2**53, beyond any real wait (a poll every microsecond for 285
#: years) and exact as a float, so a backoff's arithmetic on the count cannot
#: overflow. A smaller `max_attempts` bounds `attempts` further.
MAX_POLLS = 2**53

#: The largest clock reading, or time since a wait started, a saved wait may
#: hold (either sign): 2**53 seconds, beyond any wall clock (285 million
#: years), so sums of a few of them stay finite. A history's times may be
#: negative: a wall clock can be set back between two processes.
MAX_TIME = 2**53


def _field(data: dict[str, Any], key: str, where: str = "") -> Any:
    """`data[key]`, or the error for a record without it (`where`: the entry's name and a dot)."""
    try:
        return data[key]
    except KeyError:
        raise WaiterConfigurationError(
            f"a saved wait has no {where}{key}; pass the JSON that "
            "SavedWait.to_json() wrote, unchanged"
        ) from None


def _whole(name: str, value: Any, least: int, most: int) -> int:
    """A count: a real `int` (never a `bool`, a float or text) from `least` to `most`."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise _refused(name, value, f"an integer from {least} to {most}")
    if not least <= value <= most:
        raise _refused(name, value, f"an integer from {least} to {most}")
    return value


def _time(name: str, value: Any) -> float:
    """A clock reading or a time offset: a finite JSON number (never text) within
    `MAX_TIME`, kept as it was written (an int stays an int: whole-second jitter)."""
    if not _is_number(value) or not -MAX_TIME <= value <= MAX_TIME:  # NaN fails
        raise _refused(
            name, value, "a finite number of seconds, at most 2**53 either way"
        )
    return value  # type: ignore[no-any-return]


def _is_number(value: Any) -> bool:
    """True for what JSON reads as a number: an int or a float, never a `bool` or text."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _deadline(value: Any, started_at: float, max_wait_time: float) -> float:
    """The deadline `start()` computed: `started_at + max_wait_time`, or null
    (infinity) for a wait without one."""
    if (value is None) != (max_wait_time == math.inf):
        raise _refused(
            "deadline", value, "null exactly when max_wait_time is null (no deadline)"
        )
    if value is None:
        return math.inf
    # The very float `start()` computed from these two (`now + max_wait_time`):
    # started_at is bounded, so the deadline is at most MAX_SECONDS after it.
    expected = started_at + max_wait_time
    if not _is_number(value) or value != expected:
        raise _refused(
            "deadline",
            value,
            f"the record's started_at + max_wait_time ({expected!r})",
        )
    return value  # type: ignore[no-any-return]


def _random(state: Any) -> random.Random:
    """A `random.Random` in `state`, the `[version, words, gauss]` that `rng_state`
    writes (the words base64'd, or as a list of integers)."""
    if not isinstance(state, (list, tuple)) or len(state) != 3:
        raise _refused(
            "rng_state", state, "the [version, state, gauss] that to_json() writes"
        )
    version, internal, gauss = state
    if isinstance(version, bool) or not isinstance(version, int):
        raise _refused("rng_state version", version, "an integer")
    if gauss is not None and (not isinstance(gauss, float) or not math.isfinite(gauss)):
        raise _refused("rng_state gauss", gauss, "null or a finite number")
    rng = random.Random()
    try:
        if isinstance(internal, str):
            packed = base64.b64decode(internal.encode("ascii"), validate=True)
            words = struct.unpack(f"<{len(packed) // 4}I", packed)
        elif isinstance(internal, list) and all(
            isinstance(x, int) and not isinstance(x, bool) for x in internal
        ):
            words = tuple(internal)
        else:
            raise TypeError("neither base64 text nor integers")
        rng.setstate((version, words, gauss))
    except (ValueError, TypeError, OverflowError, struct.error):  # binascii.Error too
        raise _refused(
            "rng_state",
            state,
            "the random state that to_json() writes (version, base64 text, gauss)",
        ) from None
    return rng


_STATE_NAMES = {state.value: state for state in AcceptorState}

#: A history entry's state that ends the wait: its record is not polled again.
_ENDED_STATES = frozenset({AcceptorState.SUCCESS.value, AcceptorState.FAILURE.value})


def _acceptor_state(name: str, value: Any) -> AcceptorState:
    if not isinstance(value, str) or value not in _STATE_NAMES:
        allowed = ", ".join(repr(state) for state in _STATE_NAMES)
        raise _refused(name, value, f"one of {allowed}")
    return _STATE_NAMES[value]


def _acceptor_index(name: str, value: Any) -> int | None:
    """An acceptor's index as `attempt_to_data` writes it: null or an int >= 0
    (`SavedWait.check_waiter` holds it to the waiter's acceptors)."""
    if value is None or (
        isinstance(value, int) and not isinstance(value, bool) and value >= 0
    ):
        return value
    raise _refused(name, value, "null or an acceptor's index (an integer >= 0)")


def _text_or_none(name: str, value: Any) -> str | None:
    if value is None or isinstance(value, str):
        return value
    raise _refused(name, value, "null or text")


def _json_data(name: str, value: Any) -> Any:
    """`value` when it is JSON data that `to_json()` writes as it is (`first_loss`)."""
    loss = first_loss(value, name)
    if loss is not None:
        raise WaiterConfigurationError(
            f"a saved wait's {name} must be JSON data as SavedWait.to_json() "
            f"writes it, but {loss}; pass the JSON that SavedWait.to_json() "
            "wrote, unchanged"
        )
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


def _checked_key(key: object) -> bytes:
    """`key` as bytes for HMAC-SHA256: a secret of at least 16 bytes."""
    if not isinstance(key, (bytes, bytearray)) or len(key) < 16:
        raise WaiterConfigurationError(
            f"a saved wait's signing key must be bytes, at least 16 of them (a "
            f"secret, e.g. secrets.token_bytes(32)), got {describe_value(key)}"
            if not isinstance(key, (bytes, bytearray))
            else f"a saved wait's signing key must be at least 16 bytes, got "
            f"{len(key)}; use a secret such as secrets.token_bytes(32)"
        )
    return bytes(key)


def _signature(data: dict[str, Any], key: bytes) -> str:
    """The HMAC-SHA256 of the record's content, in one canonical JSON spelling
    (sorted keys, no spaces): what `json.loads` gives back spells the same."""
    content = json.dumps(data, sort_keys=True, separators=(",", ":"), allow_nan=False)
    return hmac.new(key, content.encode(), hashlib.sha256).hexdigest()


def _verify(data: Any, key: bytes) -> None:
    """Refuse a record without the signature `key` gives its content."""
    signature = data.pop("signature", None) if isinstance(data, dict) else None
    if not isinstance(signature, str):
        raise WaiterConfigurationError(
            "a saved wait read with a key must be signed: pass the JSON that "
            "SavedWait.to_json(key=...) wrote, unchanged"
        )
    try:
        expected = _signature(data, key)
    except (ValueError, TypeError, RecursionError):
        expected = ""
    if not (signature.isascii() and hmac.compare_digest(signature, expected)):
        raise WaiterConfigurationError(
            "a saved wait's signature does not match its content: it was changed "
            "since SavedWait.to_json(key=...) signed it, or signed with another key; "
            "start a new wait"
        )

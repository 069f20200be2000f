"""The engine's vocabulary: the actions it yields and the outcomes a driver sends back.

`Poll` ("call the operation now, unless the clock reads past `start_by`") and
`Sleep` go out; `Returned`, `Raised`, `CutOff` (the driver cancelled the request at
its time limit) and `Late` (the driver did not call: too late) come back.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from collections.abc import Callable
from typing import Any, TypeAlias

from .records import draft_class

__all__ = [
    "Action",
    "Cancel",
    "CutOff",
    "EPSILON",
    "Late",
    "NoRetryCapacity",
    "Outcome",
    "Poll",
    "PollDraft",
    "Raised",
    "Returned",
    "ReturnedDraft",
    "START_TOLERANCE",
    "SavedPause",
    "Sleep",
    "new_returned",
    "new_sleep",
]

#: Clock readings within this many seconds of a limit count as on it (float rounding).
EPSILON = 1e-9

#: How late after the deadline the spec's final poll may still start: the slack of
#: a real sleep that was asked to end exactly at the deadline. Any later, no poll.
START_TOLERANCE = 0.05


def _setter(cls: type, name: str) -> Callable[[Any, Any], None]:
    """Set slot `name` of a `cls` directly (bypassing a frozen class's refusal)."""
    setter: Callable[[Any, Any], None] = cls.__dict__[name].__set__
    return setter


@dataclass(frozen=True, slots=True, init=False)
class Poll:
    """Call the operation now, unless the clock already reads past `start_by`.

    Cut the request off after `timeout` seconds if you can (`math.inf`: no limit);
    `cut_at`, when set, is that moment as a clock reading (the engine sets it: the
    deadline for every poll but the final one, so one timer can serve them all).
    """

    attempt: int
    remaining: float
    timeout: float
    start_by: float = math.inf
    cut_at: float | None = field(default=None, compare=False)

    def __init__(
        self,
        attempt: int,
        remaining: float,
        timeout: float,
        start_by: float = math.inf,
        cut_at: float | None = None,
    ) -> None:
        # The slots set directly: one Poll per poll, and a frozen dataclass's
        # own __init__ goes through object.__setattr__ for every field.
        _poll_attempt(self, attempt)
        _poll_remaining(self, remaining)
        _poll_timeout(self, timeout)
        _poll_start_by(self, start_by)
        _poll_cut_at(self, cut_at)


@dataclass(frozen=True, slots=True, init=False)
class Sleep:
    """Wait `seconds` before the next action."""

    seconds: float

    def __init__(self, seconds: float) -> None:
        _sleep_seconds(self, seconds)


@dataclass(frozen=True, slots=True, init=False)
class SavedPause(Sleep):
    """The pause a saved state left before its next poll (the first action of a
    resumed flow): `poll_once` skips it, as its caller chose when to poll; every
    other `Sleep` (retry backoff, a wait for a rate-limit token) is slept."""


@dataclass(frozen=True, slots=True, init=False)
class Returned:
    """The operation returned `output`."""

    output: Any

    def __init__(self, output: Any) -> None:
        _returned_output(self, output)


@dataclass(frozen=True, slots=True)
class Raised:
    """The operation raised `error`."""

    error: Exception


@dataclass(frozen=True, slots=True)
class CutOff:
    """The driver cancelled the request when its `Poll.timeout` ran out."""


@dataclass(frozen=True, slots=True)
class Late:
    """The driver did not make the call: the clock read past `Poll.start_by`."""


#: `Poll`'s unfrozen twin (`waitable.records`), filled by `waitable.calls.poll_for`,
#: which makes the engine's one `Poll` per poll.
PollDraft: Any = draft_class(Poll)
#: `Returned`'s unfrozen twin, filled by `new_returned` and the async driver.
ReturnedDraft: Any = draft_class(Returned)
_SleepDraft: Any = draft_class(Sleep)


def new_sleep(seconds: float) -> Sleep:
    """`Sleep(seconds)`, built the engine's fast way: the flow makes one per delay."""
    sleep = _SleepDraft()
    sleep.seconds = seconds
    sleep.__class__ = Sleep
    made: Sleep = sleep
    return made


def new_returned(output: Any) -> Returned:
    """`Returned(output)`, built the engine's fast way: a driver makes one per poll."""
    returned = ReturnedDraft()
    returned.output = output
    returned.__class__ = Returned
    made: Returned = returned
    return made


_poll_attempt = _setter(Poll, "attempt")
_poll_remaining = _setter(Poll, "remaining")
_poll_timeout = _setter(Poll, "timeout")
_poll_start_by = _setter(Poll, "start_by")
_poll_cut_at = _setter(Poll, "cut_at")
_sleep_seconds = _setter(Sleep, "seconds")
_returned_output = _setter(Returned, "output")

Action: TypeAlias = Poll | Sleep
Outcome: TypeAlias = Returned | Raised | CutOff | Late


class Cancel(BaseException):
    """Thrown into the flow by the sync driver when the wait's cancel event is set;
    the flow ends the wait with `WaiterCancelledError`. A `BaseException`, as
    `GeneratorExit` is, so no handler of ordinary errors on its way takes it.
    `call` is set by the call it stopped between the retries of one poll (the
    record of the tries made), so the wait's history keeps them."""

    call: Any = None


class NoRetryCapacity(Exception):
    """A token bucket in circuit-breaker mode has no capacity: make no retry, fail fast.

    `waitable.retry.RetryCapacityExceededError` is the standard bucket's kind of it.
    """

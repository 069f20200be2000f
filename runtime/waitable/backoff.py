"""Backoff strategies: how long to wait before each retry.

A strategy is anything callable as `strategy(retry: RetryContext) -> seconds`:
the small frozen objects below, or a plain function. The engine applies the
spec's last-attempt rule afterwards (`remaining - delay <= min_delay` →
`delay = remaining`), so every strategy respects the deadline.

Notation in the formulas: `n` is the retry attempt (1 before the second poll),
`b` the base delay (`min_delay` unless given), `c` the cap (`max_delay`),
`random(x, y)` a draw from `[x, y]` inclusive: whole seconds (`rng.randint`)
when both ends are `int`, continuous (`rng.uniform`) otherwise. Before a retry
of a `StandardRetryStrategy`, `min_delay` and `max_delay` are its `min_backoff`
(1 s by default) and `max_backoff` (20 s).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any, Protocol

from .records import draft_class
from .seconds import is_plain_delay

__all__ = [
    "Backoff",
    "DecorrelatedJitter",
    "ExponentialDelay",
    "ExponentialEqualJitter",
    "ExponentialFullJitter",
    "ExponentialHalfJitter",
    "FixedDelay",
    "FixedDelayWithJitter",
    "IncrementalDelay",
    "RetryContext",
    "RetryImmediately",
    "SmithyBackoff",
    "constant_delay",
    "longest_delay",
]


@dataclass(frozen=True, slots=True, init=False)
class RetryContext:
    """What a strategy may look at: the retry attempt, the time left, the delay bounds."""

    attempt: int
    remaining: float
    min_delay: float
    max_delay: float
    previous_delay: float | None
    rng: random.Random

    def __init__(
        self,
        attempt: int,
        remaining: float,
        min_delay: float,
        max_delay: float,
        previous_delay: float | None,
        rng: random.Random,
    ) -> None:
        # The slots set directly: the engine makes one per poll, and a frozen
        # dataclass's own __init__ goes through object.__setattr__ per field.
        _set_attempt(self, attempt)
        _set_remaining(self, remaining)
        _set_min_delay(self, min_delay)
        _set_max_delay(self, max_delay)
        _set_previous_delay(self, previous_delay)
        _set_rng(self, rng)


_ContextDraft: Any = draft_class(RetryContext)


def new_context(
    attempt: int,
    remaining: float,
    min_delay: float,
    max_delay: float,
    previous_delay: float | None,
    rng: random.Random,
) -> RetryContext:
    """`RetryContext(...)`, built the engine's fast way (`waitable.records`): the flow
    makes one per poll."""
    context = _ContextDraft()
    context.attempt = attempt
    context.remaining = remaining
    context.min_delay = min_delay
    context.max_delay = max_delay
    context.previous_delay = previous_delay
    context.rng = rng
    context.__class__ = RetryContext
    made: RetryContext = context
    return made


_set_attempt = RetryContext.__dict__["attempt"].__set__
_set_remaining = RetryContext.__dict__["remaining"].__set__
_set_min_delay = RetryContext.__dict__["min_delay"].__set__
_set_max_delay = RetryContext.__dict__["max_delay"].__set__
_set_previous_delay = RetryContext.__dict__["previous_delay"].__set__
_set_rng = RetryContext.__dict__["rng"].__set__


class Backoff(Protocol):
    """The one protocol: the delay, in seconds, before retry `retry.attempt`."""

    def __call__(self, retry: RetryContext, /) -> float: ...


def _between(rng: random.Random, low: float, high: float) -> float:
    """A draw from `[low, high]`, in whole seconds when both ends are ints."""
    if isinstance(low, int) and isinstance(high, int):
        return rng.randint(low, high)
    return rng.uniform(low, high)


def _capped_exponential(base: float, cap: float, attempt: int) -> float:
    """`min(cap, base * 2 ** (attempt - 1))` without overflowing for large attempts."""
    exponent = attempt - 1
    if exponent >= 1000:
        return cap
    return min(cap, base * (1 << max(exponent, 0)))


@dataclass(frozen=True, slots=True)
class SmithyBackoff:
    """The Smithy waiters spec's exponential backoff with jitter, the default.

    `attemptCeiling = log(c / b) / log(2) + 1`;
    `delay = c if n > attemptCeiling else b * 2 ** (n - 1)`;
    `delay = random(b, delay)` with both ends inclusive (`b` = min_delay, `c` = max_delay).

    A floor `b <= 0` (a context built by hand; a waiter's min_delay is more
    than 0, and a `StandardRetryStrategy` gives its `min_backoff`) is the
    formula's limit as `b` goes to 0: the ceiling is infinite and `b * 2 ** (n - 1)`
    is 0, so the delay is 0.
    """

    def __call__(self, retry: RetryContext, /) -> float:
        low, high = retry.min_delay, retry.max_delay
        if low <= 0:
            return 0 if isinstance(low, int) and isinstance(high, int) else 0.0
        attempt_ceiling = math.log(high / low) / math.log(2) + 1
        if retry.attempt > attempt_ceiling:
            delay = high
        else:
            delay = _capped_exponential(low, high, retry.attempt)
        return _between(retry.rng, low, delay)


@dataclass(frozen=True, slots=True)
class RetryImmediately:
    """No delay: `delay = 0` (only the deadline rule still applies).

    Polls then follow each other as fast as the service answers; on a
    `VirtualClock` a client that takes no time never lets time move.
    """

    def __call__(self, retry: RetryContext, /) -> float:
        return 0


@dataclass(frozen=True, slots=True)
class FixedDelay:
    """The same delay every time, without jitter: `delay = d` (`d` defaults to min_delay)."""

    delay: float | None = None

    def __call__(self, retry: RetryContext, /) -> float:
        return retry.min_delay if self.delay is None else self.delay


def constant_delay(backoff: object, min_delay: float) -> float | None:
    """The delay `backoff` answers for every retry, when that is known without asking
    (`RetryImmediately` and `FixedDelay`, exactly those types, with a valid delay);
    else None. The engine then skips the per-retry `RetryContext` and call."""
    kind = type(backoff)
    if kind is RetryImmediately:
        return 0
    if kind is not FixedDelay:
        return None
    assert isinstance(backoff, FixedDelay)
    delay = min_delay if backoff.delay is None else backoff.delay
    # Anything else is asked each time, and refused there as usual.
    return delay if is_plain_delay(delay) else None


@dataclass(frozen=True, slots=True)
class FixedDelayWithJitter:
    """A fixed delay with full jitter: `delay = random(0, d)` (`d` defaults to min_delay)."""

    delay: float | None = None

    def __call__(self, retry: RetryContext, /) -> float:
        return _between(
            retry.rng, 0, retry.min_delay if self.delay is None else self.delay
        )


@dataclass(frozen=True, slots=True)
class IncrementalDelay:
    """Delays growing by a constant step: `delay = min(c, initial + step * (n - 1))`.

    `initial` and `step` default to min_delay.
    """

    initial: float | None = None
    step: float | None = None

    def __call__(self, retry: RetryContext, /) -> float:
        initial = retry.min_delay if self.initial is None else self.initial
        step = retry.min_delay if self.step is None else self.step
        return min(retry.max_delay, initial + step * (retry.attempt - 1))


@dataclass(frozen=True, slots=True)
class ExponentialDelay:
    """Exponential backoff without jitter: `delay = min(c, b * 2 ** (n - 1))`."""

    base: float | None = None

    def __call__(self, retry: RetryContext, /) -> float:
        base = retry.min_delay if self.base is None else self.base
        return _capped_exponential(base, retry.max_delay, retry.attempt)


@dataclass(frozen=True, slots=True)
class ExponentialFullJitter:
    """Exponential backoff with full jitter: `delay = random(0, min(c, b * 2 ** (n - 1)))`."""

    base: float | None = None

    def __call__(self, retry: RetryContext, /) -> float:
        base = retry.min_delay if self.base is None else self.base
        return _between(
            retry.rng, 0, _capped_exponential(base, retry.max_delay, retry.attempt)
        )


@dataclass(frozen=True, slots=True)
class ExponentialHalfJitter:
    """Exponential backoff with half jitter: `e = min(c, b * 2 ** (n - 1))`, `delay = random(e / 2, e)`.

    In whole seconds the lower end is rounded up: `random(ceil(e / 2), e)`.
    """

    base: float | None = None

    def __call__(self, retry: RetryContext, /) -> float:
        base = retry.min_delay if self.base is None else self.base
        ceiling = _capped_exponential(base, retry.max_delay, retry.attempt)
        half = (ceiling + 1) // 2 if isinstance(ceiling, int) else ceiling / 2
        return _between(retry.rng, half, ceiling)


@dataclass(frozen=True, slots=True)
class ExponentialEqualJitter:
    """Exponential backoff with equal jitter: `e = min(c, b * 2 ** (n - 1))`, `delay = e / 2 + random(0, e / 2)`.

    Over real numbers this draws from the same range as half jitter; in whole
    seconds the halves are `e // 2` and `e - e // 2`.
    """

    base: float | None = None

    def __call__(self, retry: RetryContext, /) -> float:
        base = retry.min_delay if self.base is None else self.base
        ceiling = _capped_exponential(base, retry.max_delay, retry.attempt)
        half = ceiling // 2 if isinstance(ceiling, int) else ceiling / 2
        return half + _between(retry.rng, 0, ceiling - half)


@dataclass(frozen=True, slots=True)
class DecorrelatedJitter:
    """Decorrelated jitter: `delay = min(c, random(b, 3 * previous))`, `previous` starting at `b`."""

    base: float | None = None

    def __call__(self, retry: RetryContext, /) -> float:
        base = retry.min_delay if self.base is None else self.base
        previous = base if retry.previous_delay is None else retry.previous_delay
        return min(retry.max_delay, _between(retry.rng, base, max(base, previous * 3)))


#: The strategies whose every delay is at most `max_delay` (each caps its delay by it).
_CAPPED = (
    SmithyBackoff,
    IncrementalDelay,
    ExponentialDelay,
    ExponentialFullJitter,
    ExponentialHalfJitter,
    ExponentialEqualJitter,
    DecorrelatedJitter,
)


def longest_delay(backoff: object, min_delay: float, max_delay: float) -> float | None:
    """The longest delay `backoff` answers for a wait with these bounds (before the
    spec's last-attempt rule), when that is known without asking: waitable's own
    strategies, exactly those types (a subclass may compute its delays otherwise);
    else None."""
    if type(backoff) in _CAPPED:
        return max_delay
    if type(backoff) is FixedDelayWithJitter:
        assert isinstance(backoff, FixedDelayWithJitter)
        backoff = FixedDelay(backoff.delay)  # at most d, the unjittered delay
    return constant_delay(backoff, min_delay)

"""Seed 002's token-bucket rate limit: `limit_rate` (pure) and `RateLimiter` (shared).

`limit_rate(bucket, ...)` keeps no state: a bucket `(tokens, updated_at)` goes in
(or None, for a caller never seen before), the updated bucket comes out with a
yes or no and a `Limiter` record of the whole check. Store the bucket anywhere
(a dict, a database row) and pass it back next time. The rules are ExWaiter's:

- a None bucket starts full (`burst_limit` tokens) at `checked_at`;
- each whole `interval` elapsed since `updated_at` refills `refill_rate` tokens,
  up to `burst_limit`; the bucket's timestamp moves to `checked_at` only when
  tokens were actually added (so a partial interval is dropped then, and a full
  bucket keeps its old timestamp);
- `cost` tokens are paid only if all of them are there.

Times are seconds (ExWaiter's are milliseconds). A check within `TOLERANCE`
seconds of a refill time counts as on it, so float rounding in clock readings
never loses an interval.

`RateLimiter` shares one bucket among threads and asyncio tasks (a lock held only
for the arithmetic): `try_acquire(now)` answers 0.0 or the seconds to wait.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeAlias

from .seconds import describe_value

__all__ = ["TOLERANCE", "Bucket", "Limiter", "RateLimiter", "limit_rate"]

#: Seconds by which a check may fall short of a refill time and still count as on
#: it: a few float steps of a Unix timestamp (about 2.4e-7 s apart today).
TOLERANCE = 1e-6

#: `(tokens, updated_at)`: the tokens left and when they were last refilled.
Bucket: TypeAlias = tuple[int, float]


@dataclass(frozen=True, slots=True)
class Limiter:
    """Everything one `limit_rate` check saw and did (seed 002's `Limiter`), in seconds."""

    #: Tokens added per whole interval elapsed.
    refill_rate: int
    #: Seconds between refills.
    interval: float
    #: Most tokens the bucket holds.
    burst_limit: int
    #: Tokens one check pays.
    cost: int
    #: When this check happened.
    checked_at: float
    #: `checked_at` when the bucket was new (None passed in), else None.
    created_at: float | None
    #: The timestamp passed in, None for a new bucket.
    previous_updated_at: float | None
    #: The bucket's timestamp after the check: `checked_at` if tokens were refilled.
    updated_at: float
    #: When the next tokens come: `checked_at + interval` after a refill, else
    #: `previous_updated_at + interval`.
    next_refill_at: float
    #: `next_refill_at - checked_at` (ExWaiter's `ms_until_next_refill`).
    until_next_refill: float
    #: Tokens passed in, None for a new bucket.
    previous_tokens: int | None
    #: Tokens added by this check (a new bucket's `burst_limit`).
    refilled_tokens: int
    #: `previous_tokens + refilled_tokens`.
    tokens_after_refill: int
    #: Tokens taken: `cost`, or 0 when there were not enough.
    paid_tokens: int
    #: Tokens left: `tokens_after_refill - paid_tokens`.
    tokens_after_paid: int

    @property
    def allowed(self) -> bool:
        """True when the cost was paid: make the request."""
        return self.paid_tokens > 0


def _positive_int(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be a whole number >= 1, got {value!r}")
    return value


def _finite(value: object) -> float | None:
    """`value` as a float when it is a finite number (no bool); None otherwise,
    also for an int too large for a float (which `math.isfinite` cannot take)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        number = float(value)
    except OverflowError:
        return None
    return number if math.isfinite(number) else None


def _seconds(name: str, value: object) -> float:
    seconds = _finite(value)
    if seconds is None:
        raise ValueError(
            f"{name} must be a finite number of seconds, got {describe_value(value)}"
        )
    return seconds


def _check_bucket(bucket: object) -> Bucket:
    if (
        isinstance(bucket, Sequence)
        and not isinstance(bucket, (str, bytes))
        and len(bucket) == 2
    ):
        tokens, updated_at = bucket
        if isinstance(tokens, int) and not isinstance(tokens, bool) and tokens >= 0:
            stamp = _finite(updated_at)
            if stamp is not None:
                return tokens, stamp
    raise ValueError(
        f"a rate-limit bucket is None or (token_count, updated_at) with a whole "
        f"token count >= 0 and a timestamp in seconds; got {describe_value(bucket)}"
    )


def _refill_and_pay(
    tokens: int,
    updated_at: float,
    refill_rate: int,
    interval: float,
    burst: int,
    cost: int,
    now: float,
) -> tuple[int, int, float, float]:
    """Seed 002's rule on checked values: tokens after refill, paid, new timestamp, next refill.

    Whole intervals since `updated_at` refill `refill_rate` each, capped at `burst`
    (never below what was there); the timestamp moves to `now` only when tokens
    were refilled; `cost` is paid only when available.
    """
    # Whole intervals elapsed, counted only up to `burst`: that many refill the
    # bucket whatever it held (refill_rate >= 1), so the result is the same, and a
    # tiny interval or a huge gap, whose quotient overflows to inf, cannot make
    # math.floor raise OverflowError.
    elapsed = (now - updated_at + TOLERANCE) / interval
    intervals = burst if elapsed >= burst else math.floor(elapsed)
    gained = intervals * refill_rate
    if gained > 0:
        # Never below what was there: a bucket written under a larger burst_limit
        # keeps its tokens rather than losing them to a refill.
        after_refill = max(tokens, min(tokens + gained, burst))
        next_refill_at = now + interval
    else:
        after_refill = tokens
        next_refill_at = updated_at + interval
    if after_refill > tokens:
        updated_at = now
    paid = cost if after_refill >= cost else 0
    return after_refill, paid, updated_at, next_refill_at


def limit_rate(
    bucket: Bucket | None,
    *,
    refill_rate: int = 1,
    interval: float = 1.0,
    burst_limit: int | None = None,
    cost: int = 1,
    now: float | None = None,
) -> tuple[bool, Bucket, Limiter]:
    """Check a bucket against a rate limit: `(allowed, updated_bucket, limiter)`.

    Seed 002's `limit_rate` with seconds for milliseconds. `burst_limit` defaults
    to `refill_rate`; `now` defaults to `time.time()` (pass your clock's reading,
    and keep using that clock for this bucket).
    """
    _positive_int("refill_rate", refill_rate)
    _positive_int("cost", cost)
    interval = _seconds("interval", interval)
    if interval <= 0:
        raise ValueError(f"interval must be more than 0 seconds, got {interval!r}")
    burst = (
        refill_rate
        if burst_limit is None
        else _positive_int("burst_limit", burst_limit)
    )
    if cost > burst:
        raise ValueError(
            f"cost={cost} exceeds burst_limit={burst}: the bucket could never hold enough; "
            "raise burst_limit or lower cost"
        )
    checked_at = time.time() if now is None else _seconds("now", now)

    if bucket is None:
        limiter = Limiter(
            refill_rate=refill_rate,
            interval=interval,
            burst_limit=burst,
            cost=cost,
            checked_at=checked_at,
            created_at=checked_at,
            previous_updated_at=None,
            updated_at=checked_at,
            next_refill_at=checked_at + interval,
            until_next_refill=interval,
            previous_tokens=None,
            refilled_tokens=burst,
            tokens_after_refill=burst,
            paid_tokens=cost,
            tokens_after_paid=burst - cost,
        )
        return True, (limiter.tokens_after_paid, limiter.updated_at), limiter

    previous_tokens, previous_updated_at = _check_bucket(bucket)
    if previous_updated_at > checked_at:
        raise ValueError(
            f"the bucket's timestamp {previous_updated_at!r} is after the check time "
            f"{checked_at!r}: read buckets on the clock that wrote them (time.time() "
            "unless you pass now=)"
        )
    after_refill, paid, updated_at, next_refill_at = _refill_and_pay(
        previous_tokens,
        previous_updated_at,
        refill_rate,
        interval,
        burst,
        cost,
        checked_at,
    )
    refilled = after_refill - previous_tokens
    until_next_refill = next_refill_at - checked_at
    limiter = Limiter(
        refill_rate=refill_rate,
        interval=interval,
        burst_limit=burst,
        cost=cost,
        checked_at=checked_at,
        created_at=None,
        previous_updated_at=previous_updated_at,
        updated_at=updated_at,
        next_refill_at=next_refill_at,
        until_next_refill=until_next_refill,
        previous_tokens=previous_tokens,
        refilled_tokens=refilled,
        tokens_after_refill=after_refill,
        paid_tokens=paid,
        tokens_after_paid=after_refill - paid,
    )
    return paid > 0, (limiter.tokens_after_paid, limiter.updated_at), limiter


class RateLimiter:
    """A rate limit shared by every waiter that holds it: `calls` per `per` seconds.

    One `limit_rate` bucket (refill `calls` tokens per whole `per` seconds, up to
    `burst`, at least and by default `calls`) under a lock held only for the arithmetic, so
    threads and asyncio tasks can share it. Over any window of W seconds it
    grants at most `burst + calls * ceil(W / per)`, and some window reaches that:
    a new or idle bucket holds `burst` tokens, which can all be spent just before
    the first of the `ceil(W / per)` refills that land inside the window.
    `RateLimiter(10)` thus grants up to 20 in its worst one-second window, and
    `calls / per` on average over long ones. Waiters feed it wall-clock readings
    (see `waitable.calls`), so `wait`, `poll_once` and other hosts share it.

    `load` and `save` (both or neither) keep the bucket elsewhere, e.g. in a
    store shared by processes; the lock then only orders this process's callers,
    and the store must make load-check-save atomic across processes itself.
    """

    def __init__(
        self,
        calls: int,
        per: float = 1.0,
        *,
        burst: int | None = None,
        load: Callable[[], Bucket | None] | None = None,
        save: Callable[[Bucket], object] | None = None,
    ) -> None:
        self._calls = _positive_int("calls", calls)
        self._per = _seconds("per", per)
        if self._per <= 0:
            raise ValueError(f"per must be more than 0 seconds, got {per!r}")
        self._burst = calls if burst is None else _positive_int("burst", burst)
        if self._burst < self._calls:
            # A bucket that holds fewer than a refill's tokens loses the rest at
            # each refill: `burst` calls per `per` seconds, not `calls`.
            spacing = self._per / self._calls  # 0.0 only past float's precision
            evenly = (
                f", or RateLimiter(1, per={spacing!r}) to space calls out evenly"
                if spacing > 0
                else ""
            )
            raise ValueError(
                f"burst={burst} is below calls={calls}: a bucket holding at most "
                f"{burst} token(s), refilled once per {self._per:g} s, grants "
                f"{burst} call(s) per {self._per:g} s, not {calls}; give burst >= "
                f"calls{evenly}"
            )
        if (load is None) != (save is None):
            raise ValueError(
                "pass both load= and save= to keep the bucket elsewhere, or neither"
            )
        self._load = load
        self._save = save
        self._bucket: Bucket | None = None
        self._lock = threading.Lock()

    @property
    def bucket(self) -> Bucket | None:
        """The bucket as last stored: `(tokens, updated_at)`, None before the first call."""
        if self._load is not None:
            return self._load()
        return self._bucket

    def try_acquire(self, now: float) -> float:
        """Take a token at clock time `now`: 0.0 if taken, else seconds until the next refill.

        The caller sleeps that long and tries again. A `now` earlier than the
        bucket's timestamp (another thread read the clock later but got here
        first) is read as the bucket's timestamp.
        """
        now = _seconds("now", now)
        with self._lock:
            bucket = self._load() if self._load is not None else self._bucket
            if bucket is None:
                allowed, bucket, limiter = limit_rate(
                    None,
                    refill_rate=self._calls,
                    interval=self._per,
                    burst_limit=self._burst,
                    now=now,
                )
                wait = 0.0 if allowed else limiter.until_next_refill
            else:
                if self._load is not None:
                    bucket = _check_bucket(bucket)
                tokens, updated_at = bucket
                now = max(now, updated_at)
                after_refill, paid, updated_at, next_refill_at = _refill_and_pay(
                    tokens, updated_at, self._calls, self._per, self._burst, 1, now
                )
                bucket = (after_refill - paid, updated_at)
                wait = 0.0 if paid else next_refill_at - now
                if not paid and wait <= 0.0:
                    # A timestamp so large that adding `per` leaves it as it is
                    # (a corrupted store): nothing was paid, so it is no grant.
                    wait = self._per
            if self._save is not None:
                self._save(bucket)
            else:
                self._bucket = bucket
        return wait

    def __repr__(self) -> str:
        return (
            f"RateLimiter(calls={self._calls}, per={self._per:g}, burst={self._burst})"
        )

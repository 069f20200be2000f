"""Seed 001's retry token bucket: retries spend capacity, successes and time return it.

Written I/O-free: nothing here sleeps or reads a clock. Every call takes `now`
(clock seconds: wall-clock ones, `Clock.wall()` or `time.time()`, as waiters and
`StandardRetryStrategy.retry` feed a bucket, so one bucket serves them all) and
answers "paid" or "wait this long"; the caller does the waiting. A `threading.Lock` is held only for the arithmetic, so
one bucket is safe to share among threads and asyncio tasks.

Defaults, as smithy-kotlin's `StandardRetryTokenBucketOptions.Default` (the AWS
SDKs' standard retry mode agrees on the first four: botocore's `RetryQuotaChecker`
and the JS SDK v3 constants): capacity 500, retry cost 5, timeout retry cost 10
(smithy-kotlin charges it for Timeout and Throttling retries), success increment 1
(botocore's `_NO_RETRY_INCREMENT`), initial try cost 0, refill 10 units per
second, circuit breaker off.

Two choices differ from smithy-kotlin, on purpose: the bucket refills
continuously (fractions of a unit count, where smithy-kotlin floors to whole units
and drops the remainder at each checkout), and a short bucket answers with the
seconds to wait instead of sleeping and then going to zero.
"""

from __future__ import annotations

import math
import threading

from ..actions import NoRetryCapacity
from ..seconds import MAX_SECONDS
from .directives import RetryErrorType

__all__ = ["RetryCapacityExceededError", "RetryToken", "StandardRetryTokenBucket"]

# Capacity within this much of a cost counts as enough (float rounding after a wait).
_EPSILON = 1e-9

#: Seconds a reading may lie behind the last one and be another thread's older
#: reading, taken before a stall (it adds nothing). Further back, the wall clock the
#: bucket is fed was set back (a manual change, a VM restored): the refill restarts
#: from that reading instead of stopping until the clock has caught up again (a
#: smaller step back pauses it at most this long).
CLOCK_STEP_BACK = 60.0

_ARMED, _PENDING, _RESOLVED = "armed", "pending", "resolved"


class RetryCapacityExceededError(NoRetryCapacity):
    """A circuit-breaking bucket is short of the capacity a try or retry costs."""

    def __init__(self, *, what: str, cost: int, available: float, bucket: str) -> None:
        self.cost = cost
        self.available = available
        super().__init__(
            f"retry capacity exceeded: {what} costs {cost} units but the retry token "
            f"bucket holds {available:.2f} ({bucket}). Too many retries have failed "
            "recently; the call is not tried again. Try later, give the bucket more "
            "capacity or refill, or pass circuit_breaker=False to wait for capacity."
        )


def _check_count(name: str, value: object, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {value!r}")
    return value


def _check_now(now: float) -> float:
    if (
        isinstance(now, bool)
        or not isinstance(now, (int, float))
        or not math.isfinite(now)
    ):
        raise ValueError(f"now must be a finite clock reading in seconds, got {now!r}")
    return now


class StandardRetryTokenBucket:
    """Seed 001's `RetryTokenBucket`: capacity that retries spend, by error type.

    Starts full. `acquire_token(now)` before a call's first try; then resolve the
    token as `RetryToken` says. Costs must not exceed `capacity` (they could never
    be paid). `refill_units_per_second` may be 0 only with `circuit_breaker=True`;
    without it, it must refill an empty bucket within `MAX_SECONDS` (100 years), so
    every wait it asks for is one a clock and a sleep can take.
    """

    def __init__(
        self,
        *,
        capacity: int = 500,
        retry_cost: int = 5,
        timeout_retry_cost: int = 10,
        success_increment: int = 1,
        initial_try_cost: int = 0,
        refill_units_per_second: float = 10.0,
        circuit_breaker: bool = False,
    ) -> None:
        self._capacity = _check_count("capacity", capacity, 1)
        for name, cost in (
            ("retry_cost", retry_cost),
            ("timeout_retry_cost", timeout_retry_cost),
            ("initial_try_cost", initial_try_cost),
        ):
            if _check_count(name, cost, 0) > capacity:
                raise ValueError(
                    f"{name}={cost} exceeds capacity={capacity}: it could never be paid; "
                    "lower the cost or raise the capacity"
                )
        self._retry_cost = retry_cost
        self._timeout_retry_cost = timeout_retry_cost
        self._initial_try_cost = initial_try_cost
        self._success_increment = _check_count(
            "success_increment", success_increment, 0
        )
        rate = refill_units_per_second
        if (
            isinstance(rate, bool)
            or not isinstance(rate, (int, float))
            or not math.isfinite(rate)
            or rate < 0
        ):
            raise ValueError(
                f"refill_units_per_second must be a finite number >= 0, got {rate!r}"
            )
        if rate == 0 and not circuit_breaker:
            raise ValueError(
                "refill_units_per_second=0 with circuit_breaker=False would wait forever "
                "once the bucket is empty; give a refill rate or set circuit_breaker=True"
            )
        if 0 < rate and rate * MAX_SECONDS < capacity and not circuit_breaker:
            # Else the seconds a short bucket asks to wait can pass what any clock
            # or sleep takes (even overflow to inf), and a wait would fail midway.
            raise ValueError(
                f"refill_units_per_second={rate!r} is too slow: an empty bucket of "
                f"capacity {capacity} would take more than {MAX_SECONDS} s (100 "
                f"years) to refill; give at least {capacity / MAX_SECONDS:.3g} units "
                "per second, or 0 with circuit_breaker=True"
            )
        self._rate = float(rate)
        self._circuit_breaker = bool(circuit_breaker)
        self._tokens = float(capacity)
        self._last: float | None = None
        self._lock = threading.Lock()

    @property
    def capacity(self) -> int:
        """The most units the bucket holds (it starts full)."""
        return self._capacity

    @property
    def refill_units_per_second(self) -> float:
        """Units the bucket regains per second, whatever the outcomes."""
        return self._rate

    @property
    def circuit_breaker(self) -> bool:
        """True: a short bucket raises `RetryCapacityExceededError` instead of asking to wait."""
        return self._circuit_breaker

    def tokens(self, now: float) -> float:
        """The units the bucket holds at clock time `now` (what time refilled up to
        then), without changing it.

        Read-only, so that a reading on another clock than the one the bucket
        is fed (waiters feed it wall-clock seconds; a monitor may read it with
        `time.monotonic()`) cannot restart its refill as a clock set back: the
        next wall-clock reading then refilled the whole gap, emptying the bucket
        of its rationing.
        """
        _check_now(now)
        with self._lock:
            last = self._last
            if last is None or now <= last:
                return self._tokens
            earned = (now - last) * self._rate
            return min(float(self._capacity), self._tokens + earned)

    def retry_cost(self, reason: RetryErrorType) -> int:
        """What a retry for `reason` costs: Timeout and Throttling the timeout cost (smithy-kotlin)."""
        if reason is RetryErrorType.TIMEOUT or reason is RetryErrorType.THROTTLING:
            return self._timeout_retry_cost
        return self._retry_cost

    def acquire_token(self, now: float) -> RetryToken:
        """A token for a call's first try, paying `initial_try_cost`.

        With the default cost 0 the token is always ready (`wait == 0.0`). When the
        cost cannot be paid, the token's `wait` is the seconds until it can: that
        token holds nothing (its methods raise `RuntimeError`); sleep `wait` and
        call `acquire_token` again. A circuit breaker raises instead.
        """
        cost = self._initial_try_cost
        if cost == 0:
            return RetryToken(self, self._success_increment)
        _check_now(now)
        with self._lock:
            wait = self._pay(cost, now, "the first try")
        if wait > 0:
            token = RetryToken(self, 0, wait=wait)
            token._state = _PENDING
            return token
        return RetryToken(self, self._success_increment)

    def _refill(self, now: float) -> None:
        """Add what the time since the last reading earned. Caller holds the lock."""
        last = self._last
        if last is None or now > last:
            if last is not None:
                earned = (now - last) * self._rate
                self._tokens = min(float(self._capacity), self._tokens + earned)
            self._last = now
        elif last - now > CLOCK_STEP_BACK:  # the clock was set back: start from here
            self._last = now

    def _pay(self, cost: int, now: float, what: str) -> float:
        """Take `cost` units and answer 0.0, or answer the seconds until they are there.

        Caller holds the lock.
        """
        self._refill(now)
        if self._tokens + _EPSILON >= cost:
            self._tokens = max(0.0, self._tokens - cost)
            return 0.0
        if self._circuit_breaker:
            raise RetryCapacityExceededError(
                what=what, cost=cost, available=self._tokens, bucket=self._describe()
            )
        return (cost - self._tokens) / self._rate

    def _give_back(self, units: int, now: float) -> None:
        """Return `units` to the bucket, never above capacity. Caller holds the lock."""
        self._refill(now)
        self._tokens = min(float(self._capacity), self._tokens + units)

    def _describe(self) -> str:
        return (
            f"capacity {self._capacity}, refilling {self._rate:g} units per second, "
            f"retry cost {self._retry_cost}, timeout retry cost {self._timeout_retry_cost}"
        )

    def __repr__(self) -> str:
        return (
            f"StandardRetryTokenBucket({self._describe()}, holding {self._tokens:.2f})"
        )


class RetryToken:
    """Seed 001's `RetryToken`: one call's claim on its bucket, resolved exactly once.

    After each try, call exactly one of: `notify_success` (the call is done and
    succeeded), `notify_failure` (the call is done and failed), or `schedule_retry`
    (another try is coming). The first two resolve the token; any call after that
    raises `RuntimeError`, as seed 001 says callers MUST NOT call again.
    `schedule_retry` returns 0.0 when it paid the retry's cost: the same token is
    then re-armed for the next try and resolves it the same way. When it returns
    a positive number nothing was paid: sleep that many seconds and call
    `schedule_retry` again.
    """

    __slots__ = ("_bucket", "_success_return", "_state", "_resolved_by", "wait")

    def __init__(
        self,
        bucket: StandardRetryTokenBucket,
        success_return: int,
        *,
        wait: float = 0.0,
    ) -> None:
        self._bucket = bucket
        self._success_return = success_return
        self._state = _ARMED
        self._resolved_by = ""
        #: Seconds to wait before `acquire_token` can pay the first try (0.0: ready).
        self.wait = wait

    @property
    def success_return(self) -> int:
        """Units `notify_success` gives back: the success increment before any retry,
        else the last retry's cost (smithy-kotlin and botocore return it)."""
        return self._success_return

    @property
    def resolved(self) -> bool:
        """True once `notify_success` or `notify_failure` has been called."""
        return self._state == _RESOLVED

    def _check_armed(self, method: str) -> None:
        """Raise unless the token may be used now. Caller holds the bucket's lock."""
        if self._state == _RESOLVED:
            raise RuntimeError(
                f"{method}() on a retry token already resolved by {self._resolved_by}(): "
                "a token is resolved exactly once; acquire a new token for a new call"
            )
        if self._state == _PENDING:
            raise RuntimeError(
                f"{method}() on a retry token that holds nothing: acquire_token() "
                f"asked to wait {self.wait:.3f}s; sleep that long and acquire again"
            )

    def notify_success(self, now: float) -> None:
        """The call succeeded and is done: return `success_return` units and resolve."""
        _check_now(now)
        with self._bucket._lock:
            self._check_armed("notify_success")
            self._bucket._give_back(self._success_return, now)
            self._state, self._resolved_by = _RESOLVED, "notify_success"

    def notify_failure(self, now: float) -> None:
        """The call failed and is done: resolve; nothing is returned (time refills)."""
        _check_now(now)
        with self._bucket._lock:
            self._check_armed("notify_failure")
            self._bucket._refill(now)
            self._state, self._resolved_by = _RESOLVED, "notify_failure"

    def schedule_retry(self, reason: RetryErrorType, now: float) -> float:
        """Pay for another try after an error of type `reason`.

        0.0: paid, make the retry (this token is re-armed for it). A positive
        number: nothing paid, wait that many seconds and call again. With
        `circuit_breaker=True` a short bucket raises `RetryCapacityExceededError`
        and the token stays armed: resolve it with `notify_failure`.
        """
        reason = RetryErrorType(reason)
        _check_now(now)
        bucket = self._bucket
        cost = bucket.retry_cost(reason)
        with bucket._lock:
            self._check_armed("schedule_retry")
            wait = bucket._pay(cost, now, f"a {reason.value} retry")
            if wait == 0.0:
                self._success_return = cost
            return wait

    def __repr__(self) -> str:
        return (
            f"RetryToken({self._state}, success_return={self._success_return}, "
            f"wait={self.wait:g})"
        )

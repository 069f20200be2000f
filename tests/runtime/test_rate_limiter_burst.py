"""`RateLimiter(calls, per, burst=...)` refuses a burst below `calls`.

Such a bucket holds fewer tokens than one refill brings and loses the rest at
each refill, so `RateLimiter(10, per=1.0, burst=1)` granted one call a second,
not ten, against its own promise of `calls / per` over long windows. The error
says what it would grant and how to space calls out instead. (`limit_rate`,
seed 002's function, still takes any `burst_limit`, as ExWaiter does.)
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from waitable import RateLimiter, limit_rate


@given(st.integers(2, 1000), st.data())
def test_a_burst_below_calls_is_refused(calls: int, data: st.DataObject) -> None:
    burst = data.draw(st.integers(1, calls - 1))
    with pytest.raises(ValueError, match=f"burst={burst} is below calls={calls}"):
        RateLimiter(calls, per=1.0, burst=burst)


@given(st.integers(1, 50), st.integers(0, 50))
def test_a_burst_of_at_least_calls_grants_calls_per_interval(
    calls: int, extra: int
) -> None:
    limiter = RateLimiter(calls, per=1.0, burst=calls + extra)
    granted, now = 0, 0.0
    while now < 100.0:
        wait = limiter.try_acquire(now)
        if wait == 0.0:
            granted += 1
        else:
            now += wait
    assert granted >= calls * 100


def test_limit_rate_keeps_seed_002s_rule() -> None:
    allowed, bucket, _ = limit_rate(None, refill_rate=10, burst_limit=1, now=0.0)
    assert allowed and bucket == (0, 0.0)


def test_the_advice_never_suggests_a_limiter_that_is_refused() -> None:
    """The advice `RateLimiter(1, per=per / calls)` became `per=0.0` when that
    quotient is below float's smallest, and that limiter is refused (review of
    today's diff, s24): it is left out then."""
    with pytest.raises(ValueError) as refused:
        RateLimiter(10, per=5e-324, burst=1)
    message = str(refused.value)
    assert message.endswith("give burst >= calls")
    assert "per=0.0" not in message
    with pytest.raises(ValueError, match=r"RateLimiter\(1, per=0\.3333333333333333\)"):
        RateLimiter(3, per=1.0, burst=1)

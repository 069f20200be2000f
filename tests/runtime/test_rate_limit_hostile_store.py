"""A rate limiter's shared store is untrusted: what it hands back is refused or
read safely, never taken as a grant that was not paid for."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from waitable import RateLimiter, limit_rate

HUGE = 10**400  # past any float: math.isfinite raised OverflowError on it


def _stored(bucket: Any) -> RateLimiter:
    store = {"bucket": bucket}
    return RateLimiter(
        1,
        per=1.0,
        load=lambda: store["bucket"],
        save=lambda b: store.__setitem__("bucket", b),
    )


@pytest.mark.parametrize(
    "call",
    [
        lambda: limit_rate(None, now=HUGE),
        lambda: limit_rate(None, interval=HUGE, now=1.0),
        lambda: limit_rate((0, HUGE), now=1.0),
        lambda: RateLimiter(1, per=HUGE),
        lambda: RateLimiter(1, per=1.0).try_acquire(HUGE),
        lambda: _stored((0, HUGE)).try_acquire(1.0),
        lambda: _stored((0, 10**5000)).try_acquire(1.0),  # past repr's digit limit
    ],
)
def test_an_integer_too_large_for_seconds_is_a_value_error_with_a_short_message(
    call: Any,
) -> None:
    """It was a raw OverflowError (or a 400-digit message)."""
    with pytest.raises(ValueError) as caught:
        call()
    assert len(str(caught.value)) < 300


def test_a_stored_timestamp_too_large_to_move_grants_nothing() -> None:
    """At 1e300, adding `per` leaves the timestamp as it is: the wait came out
    0.0, "taken", though nothing was paid, and every call went through."""
    limiter = _stored((0, 1e300))
    answers = [limiter.try_acquire(100.0 + i * 1e-3) for i in range(100)]
    assert all(answer > 0 for answer in answers)


@given(st.floats(-1e300, 1e300), st.floats(-1e300, 1e300))
def test_an_empty_bucket_stamped_at_or_after_now_grants_nothing(
    stamp: float, now: float
) -> None:
    """No interval has passed since the stamp, so nothing refilled: no grant."""
    now = min(now, stamp)
    assert _stored((0, stamp)).try_acquire(now) > 0

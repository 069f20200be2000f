"""`StandardRetryStrategy(max_backoff=...)` is held to `MAX_SECONDS`, as a waiter's
`max_delay` is, when the strategy is made.

A larger cap was accepted, and the retry whose exponential backoff first passed
100 years (retry 35 of the default backoff, or the first retry with a
`min_backoff` that large) ended the call with an error blaming the backoff
strategy. On the virtual clock.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from waitable import WaiterConfigurationError
from waitable.retry import StandardRetryPolicy, StandardRetryStrategy
from waitable.seconds import MAX_SECONDS
from waitable.testing import VirtualClock


@given(st.floats(MAX_SECONDS, 1e308, exclude_min=True) | st.integers(MAX_SECONDS + 1))
def test_a_cap_past_100_years_is_refused_when_made(cap: float) -> None:
    with pytest.raises(WaiterConfigurationError, match="max_backoff must be"):
        StandardRetryStrategy(max_backoff=cap)


def test_the_largest_cap_retries_to_its_last_attempt() -> None:
    tries = []

    def block() -> str:
        tries.append(1)
        if len(tries) < 60:
            raise TimeoutError("the connection timed out")
        return "done"

    strategy = StandardRetryStrategy(
        max_backoff=MAX_SECONDS,
        max_attempts=60,
        token_bucket=None,
        clock=VirtualClock(),
    )
    assert strategy.retry(StandardRetryPolicy(), block) == "done"
    assert len(tries) == 60

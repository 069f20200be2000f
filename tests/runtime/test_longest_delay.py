"""`longest_delay`: no delay waitable's own strategies answer is longer than the
bound it gives (what Celery checks against the broker's visibility timeout), and a
backoff it does not know, a subclass included, has none."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from waitable.backoff import (
    DecorrelatedJitter,
    ExponentialDelay,
    ExponentialEqualJitter,
    ExponentialFullJitter,
    ExponentialHalfJitter,
    FixedDelay,
    FixedDelayWithJitter,
    IncrementalDelay,
    RetryContext,
    RetryImmediately,
    SmithyBackoff,
    longest_delay,
)

seconds = st.floats(min_value=0.001, max_value=10_000, allow_nan=False)
BACKOFFS: list[Any] = [
    SmithyBackoff(),
    RetryImmediately(),
    FixedDelay(),
    FixedDelay(7.5),
    FixedDelayWithJitter(),
    FixedDelayWithJitter(3),
    IncrementalDelay(),
    ExponentialDelay(),
    ExponentialFullJitter(),
    ExponentialHalfJitter(),
    ExponentialEqualJitter(),
    DecorrelatedJitter(),
]


@given(
    backoff=st.sampled_from(BACKOFFS),
    low=seconds,
    high=seconds,
    attempt=st.integers(min_value=1, max_value=2_000),
    previous=st.none() | seconds,
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_no_delay_is_longer_than_the_bound(
    backoff: Any,
    low: float,
    high: float,
    attempt: int,
    previous: float | None,
    seed: int,
) -> None:
    low, high = min(low, high), max(low, high)
    bound = longest_delay(backoff, low, high)
    assert bound is not None
    context = RetryContext(attempt, 1e9, low, high, previous, random.Random(seed))
    assert backoff(context) <= bound


def test_an_unknown_backoff_has_no_bound() -> None:
    class Slower(ExponentialDelay):
        """A subclass may compute its delays otherwise."""

    assert longest_delay(lambda retry: 5.0, 1.0, 2.0) is None
    assert longest_delay(Slower(), 1.0, 2.0) is None
    assert longest_delay(FixedDelay(float("nan")), 1.0, 2.0) is None

"""The spec's retry delay, exactly: attemptCeiling, inclusive jitter, the last-attempt rule.

Property-based over random minDelay, maxDelay and max_wait_time, with zero-time
requests on a virtual clock (the spec's own assumption for its example table).
"""

from __future__ import annotations

import math
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from waitable import RetryContext, SmithyBackoff, WaiterTimeoutError

from .harness import THING_EXISTS, Run, run_sync

PENDING = {"status": "pending"}
TOLERANCE = 1e-9

delay_bounds = st.integers(min_value=1, max_value=40).flatmap(
    lambda low: st.tuples(st.just(low), st.integers(min_value=low, max_value=400))
)


def upper_bound(min_delay: float, max_delay: float, attempt: int) -> float:
    return min(max_delay, min_delay * float(2 ** min(attempt - 1, 60)))


def wait_forever(min_delay: Any, max_delay: Any, max_wait_time: Any, seed: int) -> Run:
    run = run_sync(
        THING_EXISTS,
        [PENDING],
        seed=seed,
        max_wait_time=max_wait_time,
        min_delay=min_delay,
        max_delay=max_delay,
    )
    assert isinstance(run.error, WaiterTimeoutError)
    return run


@settings(max_examples=150, deadline=None)
@given(
    bounds=delay_bounds,
    max_wait_time=st.integers(min_value=1, max_value=4000),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_delays_over_a_whole_wait(
    bounds: tuple[int, int], max_wait_time: int, seed: int
) -> None:
    min_delay, max_delay = bounds
    history = wait_forever(min_delay, max_delay, max_wait_time, seed).outcome.history
    assert history[0].started_at == 0 and history[0].delay == 0
    retries = history[1:]
    # The final poll lands on the deadline, and no poll comes after it.
    assert retries, "a wait of at least one second always retries once"
    assert history[-1].started_at == pytest.approx(max_wait_time, abs=TOLERANCE)
    assert all(a.started_at <= max_wait_time + TOLERANCE for a in history)
    # The total never exceeds max_wait_time.
    assert sum(a.delay for a in retries) <= max_wait_time + TOLERANCE
    # The first retry waits exactly minDelay, unless it is already the last one.
    if max_wait_time - min_delay > min_delay:
        assert retries[0].delay == min_delay
    # Every delay but the last lies in [minDelay, min(maxDelay, minDelay * 2**(attempt-1))],
    # in whole seconds, and leaves more than minDelay before the deadline.
    for attempt, record in enumerate(retries[:-1], start=1):
        assert min_delay <= record.delay <= upper_bound(min_delay, max_delay, attempt)
        assert isinstance(record.delay, int)
        assert max_wait_time - record.started_at > min_delay
    # The last delay is the remaining time: the last-attempt rule.
    last = retries[-1]
    remaining = max_wait_time - history[-2].started_at
    assert last.delay == pytest.approx(remaining, abs=TOLERANCE)


@settings(max_examples=100, deadline=None)
@given(
    low=st.floats(min_value=0.01, max_value=5),
    factor=st.floats(min_value=1, max_value=50),
    spans=st.floats(min_value=0.5, max_value=40),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_fractional_overrides_give_continuous_delays(
    low: float, factor: float, spans: float, seed: int
) -> None:
    high = low * factor
    max_wait_time = high * spans  # at most a few dozen polls
    history = wait_forever(low, high, max_wait_time, seed).outcome.history
    assert history[-1].started_at == pytest.approx(max_wait_time, abs=1e-6)
    assert sum(a.delay for a in history) <= max_wait_time + 1e-6
    for attempt, record in enumerate(history[1:-1], start=1):
        assert low <= record.delay <= upper_bound(low, high, attempt) + TOLERANCE


def test_continuous_draws_are_not_whole_seconds() -> None:
    draws = [
        SmithyBackoff()(RetryContext(5, 1000, 1.0, 60.0, None, random.Random(seed)))
        for seed in range(50)
    ]
    assert any(d != int(d) for d in draws)


@settings(max_examples=60, deadline=None)
@given(
    bounds=delay_bounds,
    attempt=st.integers(min_value=1, max_value=12),
    seed=st.integers(0, 2**16),
)
def test_both_ends_of_the_range_occur(
    bounds: tuple[int, int], attempt: int, seed: int
) -> None:
    """random(minDelay, delay) is inclusive at both ends (smithy-go's upper bound is exclusive)."""
    min_delay, max_delay = bounds
    high = upper_bound(min_delay, max_delay, attempt)
    width = int(high - min_delay + 1)
    rng = random.Random(seed)
    backoff = SmithyBackoff()
    seen = {
        backoff(RetryContext(attempt, 10_000, min_delay, max_delay, None, rng))
        for _ in range(60 * min(width, 400))
    }
    assert min(seen) == min_delay
    if width <= 400:
        assert max(seen) == high
    assert all(min_delay <= d <= high for d in seen)


@pytest.mark.parametrize(
    ("min_delay", "max_delay", "attempt", "ceiling"),
    [
        (2, 120, 1, 2),
        (2, 120, 3, 8),
        (2, 120, 6, 64),
        (2, 120, 7, 120),
        (2, 120, 10**6, 120),
        (5, 5, 1, 5),
        (3, 100, 5, 48),
        (3, 100, 6, 96),
        (3, 100, 7, 100),
    ],
)
def test_attempt_ceiling(
    min_delay: int, max_delay: int, attempt: int, ceiling: int
) -> None:
    """Past attemptCeiling the range is [minDelay, maxDelay]; before it, minDelay * 2**(attempt-1)."""
    assert math.isclose(upper_bound(min_delay, max_delay, attempt), ceiling)
    values = {
        SmithyBackoff()(
            RetryContext(attempt, 10**6, min_delay, max_delay, None, random.Random(s))
        )
        for s in range(3000)
    }
    assert max(values) == ceiling and min(values) == min_delay


class TableRandom(random.Random):
    """Draws the delays of the spec's example table, in order."""

    def __init__(self, draws: list[int]) -> None:
        super().__init__(0)
        self.draws = list(draws)

    def randint(self, a: int, b: int) -> int:
        value = self.draws.pop(0)
        assert a <= value <= b, (a, value, b)
        return value


def test_the_spec_example_table() -> None:
    """minDelay 2, maxDelay 120, maxWaitTime 300: the spec's 13 retries, ending at 300."""
    table = [2, 3, 6, 6, 22, 62, 43, 24, 71, 42, 9, 6]
    clock_run = run_sync(
        THING_EXISTS,
        [PENDING],
        max_wait_time=300,
        waiter_kwargs={"rng": TableRandom(table + [50])},
    )
    history = clock_run.outcome.history
    assert [a.delay for a in history[1:]] == table + [4]
    assert [a.started_at for a in history[1:]] == [
        2,
        5,
        11,
        17,
        39,
        101,
        144,
        168,
        239,
        281,
        290,
        296,
        300,
    ]


def test_the_last_attempt_rule_is_the_current_one() -> None:
    """`remaining - delay <= minDelay` → `delay = remaining` (not the older `remaining - minDelay`)."""
    # Polls at 0, 2, 6 leave 4 seconds; a draw of 6 would overshoot: sleep exactly the 4 left.
    run = run_sync(
        THING_EXISTS,
        [PENDING],
        max_wait_time=10,
        waiter_kwargs={"rng": TableRandom([2, 4, 6])},
    )
    assert [a.started_at for a in run.outcome.history] == [0, 2, 6, 10]
    # The boundary is inclusive: a draw of 2 leaves exactly minDelay, which is not enough.
    run = run_sync(
        THING_EXISTS,
        [PENDING],
        max_wait_time=10,
        waiter_kwargs={"rng": TableRandom([2, 4, 2])},
    )
    assert [a.started_at for a in run.outcome.history] == [0, 2, 6, 10]
    # A draw that leaves more than minDelay is kept.
    run = run_sync(
        THING_EXISTS,
        [PENDING],
        max_wait_time=11,
        waiter_kwargs={"rng": TableRandom([2, 4, 2, 5])},
    )
    assert [a.started_at for a in run.outcome.history] == [0, 2, 6, 8, 11]


def test_short_max_wait_time_polls_at_start_and_deadline() -> None:
    run = run_sync(THING_EXISTS, [PENDING], max_wait_time=3)
    assert [a.started_at for a in run.outcome.history] == [0, 3]


@settings(max_examples=80, deadline=None)
@given(
    latencies=st.lists(st.floats(min_value=0, max_value=30), min_size=1, max_size=20),
    max_wait_time=st.integers(min_value=1, max_value=600),
    seed=st.integers(0, 2**16),
)
def test_request_time_counts_and_sleeps_never_pass_the_deadline(
    latencies: list[float], max_wait_time: int, seed: int
) -> None:
    from .harness import Step

    steps = [Step(output=PENDING, latency=t) for t in latencies]
    run = run_sync(THING_EXISTS, steps, seed=seed, max_wait_time=max_wait_time)
    assert isinstance(run.error, WaiterTimeoutError)
    history = run.outcome.history
    for before, after in zip(history, history[1:]):
        # The next poll starts after the previous request's time plus the delay.
        assert after.started_at == pytest.approx(
            before.started_at + before.duration + after.delay
        )
        # No sleep ends past the deadline: polls start at or before it.
        assert after.started_at <= max_wait_time + TOLERANCE
    # The wait ends once the deadline has been reached or passed, never earlier.
    assert run.outcome.elapsed >= max_wait_time - TOLERANCE or history[-1].duration > 0

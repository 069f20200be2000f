"""Backoff strategies: their formulas, injected randomness, and the deadline they all respect."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from waitable import (
    Backoff,
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
    WaiterConfigurationError,
    WaiterTimeoutError,
)
from waitable.backoff import constant_delay
from waitable.flow import WaitPlan
from waitable.options import WaitOptions
from waitable.waiter import Waiter

from .harness import DRIVERS, THING_EXISTS, Step, run_sync

PENDING = {"status": "pending"}


def context(
    attempt: int,
    low: float = 2,
    high: float = 120,
    seed: int = 0,
    previous: float | None = None,
) -> RetryContext:
    return RetryContext(attempt, 10_000, low, high, previous, random.Random(seed))


def draws(
    strategy: Backoff, attempt: int, low: float = 2, high: float = 120, n: int = 2000
) -> set[float]:
    rng = random.Random(attempt)
    return {
        strategy(RetryContext(attempt, 10_000, low, high, None, rng)) for _ in range(n)
    }


@pytest.mark.parametrize(
    ("strategy", "expected"),
    [
        (RetryImmediately(), [0, 0, 0, 0]),
        (FixedDelay(), [2, 2, 2, 2]),
        (FixedDelay(15), [15, 15, 15, 15]),
        (IncrementalDelay(), [2, 4, 6, 8]),
        (IncrementalDelay(initial=1, step=5), [1, 6, 11, 16]),
        (ExponentialDelay(), [2, 4, 8, 16]),
        (ExponentialDelay(base=50), [50, 100, 120, 120]),
    ],
)
def test_strategies_without_jitter(strategy: Backoff, expected: list[float]) -> None:
    assert [strategy(context(n)) for n in range(1, 5)] == expected


@pytest.mark.parametrize(
    ("strategy", "attempt", "low", "high"),
    [
        (FixedDelayWithJitter(), 3, 0, 2),
        (FixedDelayWithJitter(10), 1, 0, 10),
        (ExponentialFullJitter(), 4, 0, 16),
        (ExponentialHalfJitter(), 4, 8, 16),
        (ExponentialHalfJitter(), 2, 2, 4),
        (ExponentialEqualJitter(), 4, 8, 16),
        (ExponentialFullJitter(), 30, 0, 120),
        (SmithyBackoff(), 4, 2, 16),
        (SmithyBackoff(), 30, 2, 120),
    ],
)
def test_jittered_strategies_cover_their_whole_range(
    strategy: Backoff, attempt: int, low: int, high: int
) -> None:
    seen = draws(strategy, attempt)
    assert min(seen) == low and max(seen) == high
    assert all(
        isinstance(d, int) for d in seen
    )  # whole seconds from whole-second bounds


def test_fractional_bounds_give_continuous_jitter() -> None:
    seen = draws(ExponentialFullJitter(), 3, low=0.5, high=10.0, n=200)
    assert all(0 <= d <= 2.0 for d in seen)
    assert any(d != int(d) for d in seen)
    seen = draws(ExponentialHalfJitter(base=1.5), 2, low=0.5, high=10.0, n=200)
    assert all(1.5 <= d <= 3.0 for d in seen)


def test_half_jitter_rounds_its_lower_end_up_in_whole_seconds() -> None:
    assert draws(ExponentialHalfJitter(base=3), 1, low=1, high=100) == {2, 3}
    assert draws(ExponentialEqualJitter(base=3), 1, low=1, high=100) == {1, 2, 3}


def test_decorrelated_jitter_grows_from_the_previous_delay() -> None:
    strategy = DecorrelatedJitter()
    assert draws(strategy, 1) <= set(
        range(2, 7)
    )  # previous defaults to the base: random(2, 6)
    seen = {strategy(context(5, seed=s, previous=10)) for s in range(2000)}
    assert min(seen) == 2 and max(seen) == 30
    assert {strategy(context(5, seed=s, previous=100)) for s in range(500)} <= set(
        range(2, 121)
    )
    assert (
        max(strategy(context(5, seed=s, previous=100)) for s in range(500)) == 120
    )  # capped


def test_exponential_strategies_do_not_overflow() -> None:
    for strategy in (ExponentialDelay(), ExponentialFullJitter(), SmithyBackoff()):
        assert strategy(context(10**9)) <= 120
    assert ExponentialDelay(base=2.5)(context(5000)) == 120


ALL_STRATEGIES = [
    SmithyBackoff(),
    RetryImmediately(),
    FixedDelay(),
    FixedDelay(7),
    FixedDelayWithJitter(),
    IncrementalDelay(),
    ExponentialDelay(),
    ExponentialFullJitter(),
    ExponentialHalfJitter(),
    ExponentialEqualJitter(),
    DecorrelatedJitter(),
    lambda retry: 3 * retry.attempt,
]


@settings(max_examples=60, deadline=None)
@given(
    strategy=st.sampled_from(ALL_STRATEGIES),
    max_wait_time=st.integers(min_value=1, max_value=400),
    seed=st.integers(0, 2**16),
)
def test_every_strategy_respects_the_deadline(
    strategy: Backoff, max_wait_time: int, seed: int
) -> None:
    # Requests take a quarter second, so even RetryImmediately moves the clock.
    steps = [Step(output=PENDING, latency=0.25)]
    run = run_sync(
        THING_EXISTS, steps, seed=seed, max_wait_time=max_wait_time, backoff=strategy
    )
    assert isinstance(run.error, WaiterTimeoutError)
    history = run.outcome.history
    assert history[-1].started_at == pytest.approx(max_wait_time)
    assert all(a.started_at <= max_wait_time for a in history)
    assert all(
        b.started_at >= a.started_at + 0.25 for a, b in zip(history, history[1:])
    )


def test_a_plain_callable_is_a_strategy_and_sees_the_context() -> None:
    seen: list[RetryContext] = []

    def every_five(retry: RetryContext) -> float:
        seen.append(retry)
        return 5

    run = run_sync(
        THING_EXISTS,
        [PENDING] * 3 + [{"status": "success"}],
        max_wait_time=100,
        backoff=every_five,
    )
    assert [a.started_at for a in run.outcome.history] == [0, 5, 10, 15]
    assert [r.attempt for r in seen] == [1, 2, 3]
    assert [r.remaining for r in seen] == [100, 95, 90]
    assert [r.previous_delay for r in seen] == [None, 5, 5]
    assert all((r.min_delay, r.max_delay) == (2, 120) for r in seen)


def test_the_constructor_strategy_is_the_default_and_wait_overrides_it() -> None:
    run = run_sync(
        THING_EXISTS,
        [PENDING, PENDING, {"status": "success"}],
        max_wait_time=100,
        waiter_kwargs={"backoff": FixedDelay(10)},
    )
    assert [a.started_at for a in run.outcome.history] == [0, 10, 20]
    run = run_sync(
        THING_EXISTS,
        [PENDING, PENDING, {"status": "success"}],
        max_wait_time=100,
        waiter_kwargs={"backoff": FixedDelay(10)},
        backoff=FixedDelay(3),
    )
    assert [a.started_at for a in run.outcome.history] == [0, 3, 6]


def test_randomness_comes_from_the_injected_rng() -> None:
    def timeline(seed: int) -> list[float]:
        run = run_sync(THING_EXISTS, [PENDING], seed=seed, max_wait_time=1000)
        return [a.started_at for a in run.outcome.history]

    assert timeline(1) == timeline(1)
    assert timeline(1) != timeline(2)


@pytest.mark.parametrize("bad", [-1, float("nan"), "5", None, True])
def test_a_strategy_returning_nonsense_is_a_clear_error(bad: Any) -> None:
    waiter = type("W", (Waiter,), {"definition": THING_EXISTS})(lambda _: PENDING)
    with pytest.raises(
        WaiterConfigurationError,
        match="a strategy must return a number of seconds >= 0",
    ):
        waiter.wait({}, max_wait_time=10, backoff=lambda retry: bad)


@pytest.mark.parametrize("driver", sorted(DRIVERS))
@pytest.mark.parametrize(
    "strategy", [FixedDelay(-1), FixedDelay(float("nan")), FixedDelay(float("inf"))]
)
def test_a_constant_strategy_with_an_invalid_delay_is_refused_at_the_first_retry(
    driver: str, strategy: FixedDelay
) -> None:
    # Not taken as the plan's fixed delay (`constant_delay` is None): asked, and
    # refused there, with the strategy and what it returned named, after one poll.
    calls: list[Any] = []
    steps = [Step(output=PENDING)] * 3

    class Counted(list[Any]):
        def __getitem__(self, index: Any) -> Any:
            calls.append(index)
            return steps[index]

    with pytest.raises(WaiterConfigurationError) as refused:
        DRIVERS[driver](
            THING_EXISTS, Counted(steps), max_wait_time=60, backoff=strategy
        )
    message = str(refused.value)
    assert f"backoff {strategy!r} returned {strategy.delay!r} for retry 1" in message
    assert "a strategy must return a number of seconds >= 0" in message
    assert calls == [0]  # one poll, then the refusal: no second call


@pytest.mark.parametrize(
    ("strategy", "expected"),
    [
        (RetryImmediately(), 0),
        (FixedDelay(), 2),
        (FixedDelay(7.5), 7.5),
        (FixedDelay(0.0), 0.0),
        # Not known without asking: asked per retry (an invalid delay is refused there).
        (FixedDelay(-1), None),
        (FixedDelay(float("nan")), None),
        (SmithyBackoff(), None),
        (type("Mine", (FixedDelay,), {"__call__": lambda self, retry: 9})(3), None),
        (lambda retry: 5, None),
    ],
)
def test_constant_delay_is_known_only_for_exact_constant_strategies(
    strategy: Backoff, expected: float | None
) -> None:
    found = constant_delay(strategy, 2)
    assert found == expected and type(found) is type(expected)


@settings(max_examples=60, deadline=None)
@given(
    delay=st.one_of(
        st.none(),
        st.integers(min_value=0, max_value=30),
        st.floats(min_value=0, max_value=30),
    ),
    immediately=st.booleans(),
    max_wait_time=st.integers(min_value=1, max_value=200),
    latency=st.sampled_from([0, 0.25, 3]),
    driver=st.sampled_from(sorted(DRIVERS)),
)
def test_a_constant_strategy_waits_as_the_same_strategy_asked_each_retry(
    delay: float | None,
    immediately: bool,
    max_wait_time: int,
    latency: float,
    driver: str,
) -> None:
    # The flow skips the RetryContext for a constant strategy; a plain callable
    # answering the same is asked every time: both waits must be the same.
    strategy: Backoff = RetryImmediately() if immediately else FixedDelay(delay)
    asked = constant_delay(strategy, 2)
    assert asked is not None
    steps = [Step(output=PENDING, latency=latency)] * 40 + [
        Step(output={"status": "success"}, latency=latency)
    ]
    fast = DRIVERS[driver](
        THING_EXISTS, steps, max_wait_time=max_wait_time, backoff=strategy
    )
    slow = DRIVERS[driver](
        THING_EXISTS,
        steps,
        max_wait_time=max_wait_time,
        backoff=lambda retry: strategy(retry),
    )
    # With no cap and no hook, the flow also settles a retry's delay without
    # `_schedule`; a cap never reached and a hook send it through `_schedule`.
    capped = DRIVERS[driver](
        THING_EXISTS,
        steps,
        max_wait_time=max_wait_time,
        backoff=strategy,
        max_attempts=10**6,
    )
    seen: list[Any] = []
    watched = DRIVERS[driver](
        THING_EXISTS,
        steps,
        max_wait_time=max_wait_time,
        backoff=strategy,
        waiter_kwargs={"on_attempt": seen.append},
    )
    for other in (slow, capped, watched):
        assert type(fast.error) is type(other.error)
        assert fast.outcome.history == other.outcome.history
        assert [type(a.delay) for a in fast.outcome.history] == [
            type(a.delay) for a in other.outcome.history
        ]
        assert fast.outcome.elapsed == other.outcome.elapsed
        assert fast.clock_end == other.clock_end
        assert len(fast.calls) == len(other.calls)
    assert tuple(seen) == watched.outcome.history


@pytest.mark.parametrize(
    ("backoff", "max_attempts", "stop", "plain"),
    [
        (FixedDelay(2), None, None, True),
        (RetryImmediately(), None, None, True),
        (FixedDelay(2), 5, None, False),
        (FixedDelay(2), None, lambda state: False, False),
        (lambda retry: 2, None, None, False),
        (FixedDelay(-1), None, None, False),
    ],
)
def test_a_retry_skips_the_schedule_only_for_a_fixed_delay_with_no_cap_or_stop(
    backoff: Any, max_attempts: int | None, stop: Any, plain: bool
) -> None:
    options = WaitOptions(60, 2, 120, max_attempts, backoff)
    plan = WaitPlan(THING_EXISTS, options, random.Random(1), stop=stop)
    assert plan.plain_retry is plain

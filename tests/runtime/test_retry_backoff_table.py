"""Every backoff of the README's table works as a `StandardRetryStrategy` backoff.

The strategy asks its backoff with a `RetryContext` whose `min_delay` is its base
delay `b` (`min_backoff`; 1 s, or `max_backoff` when smaller, by default) and whose
`max_delay` is its cap `c` (`max_backoff`). So a strategy that takes `b` from the
context (`SmithyBackoff()`, `FixedDelay()`, `ExponentialDelay()`, ...) neither
divides by a zero floor nor silently backs off 0 s: each delay is the table's
formula with that `b` and `c`. The default backoff is unchanged. All on the
virtual clock.
"""

from __future__ import annotations

import asyncio
import math
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import waitable.backoff as backoff_module
from waitable import (
    DecorrelatedJitter,
    ExponentialDelay,
    ExponentialEqualJitter,
    ExponentialFullJitter,
    ExponentialHalfJitter,
    FixedDelay,
    FixedDelayWithJitter,
    IncrementalDelay,
    RetryImmediately,
    SmithyBackoff,
    WaiterConfigurationError,
    WaiterError,
)
from waitable.backoff import Backoff, RetryContext
from waitable.custom import custom_waiter, path, success
from waitable.results import Retry
from waitable.retry import (
    RetryAttemptsExceededError,
    StandardRetryPolicy,
    StandardRetryStrategy,
)
from waitable.testing import VirtualClock

from .harness import ServiceError

THROTTLED = ServiceError("ThrottlingException")

#: (low, high) of the delay before retry `n`, by the table's formula, given `b`,
#: `c` and the previous retry's delay (None before the first).
Bounds = Callable[[float, float, int, "float | None"], tuple[float, float]]


def _exponential(b: float, c: float, n: int) -> float:
    return min(c, b * (1 << (n - 1)))


def _half(e: float) -> float:
    """`e // 2` in whole seconds, `e / 2` otherwise (equal jitter's lower half)."""
    return e // 2 if isinstance(e, int) else e / 2


#: Every row of the README's backoff table, built without arguments (so `b` and
#: `c` come from the retry's context), with the range its formula allows.
TABLE: dict[str, tuple[Backoff, Bounds]] = {
    "SmithyBackoff": (
        SmithyBackoff(),
        lambda b, c, n, prev: (b, c if n > math.log2(c / b) + 1 else b * 2 ** (n - 1)),
    ),
    "RetryImmediately": (RetryImmediately(), lambda b, c, n, prev: (0, 0)),
    "FixedDelay": (FixedDelay(), lambda b, c, n, prev: (b, b)),
    "FixedDelayWithJitter": (FixedDelayWithJitter(), lambda b, c, n, prev: (0, b)),
    "IncrementalDelay": (
        IncrementalDelay(),
        lambda b, c, n, prev: (min(c, b * n), min(c, b * n)),
    ),
    "ExponentialDelay": (
        ExponentialDelay(),
        lambda b, c, n, prev: (_exponential(b, c, n), _exponential(b, c, n)),
    ),
    "ExponentialFullJitter": (
        ExponentialFullJitter(),
        lambda b, c, n, prev: (0, _exponential(b, c, n)),
    ),
    "ExponentialHalfJitter": (
        ExponentialHalfJitter(),
        lambda b, c, n, prev: (_exponential(b, c, n) / 2, _exponential(b, c, n)),
    ),
    # In whole seconds the lower half is `e // 2` (the class's docstring).
    "ExponentialEqualJitter": (
        ExponentialEqualJitter(),
        lambda b, c, n, prev: (_half(_exponential(b, c, n)), _exponential(b, c, n)),
    ),
    # `previous` is the last retry's delay (b before the first retry).
    "DecorrelatedJitter": (
        DecorrelatedJitter(),
        lambda b, c, n, prev: (min(b, c), min(c, 3 * (b if prev is None else prev))),
    ),
}

#: Strategies whose formula may reach 0 by design (full jitter from 0, or no delay).
MAY_BE_ZERO = {"RetryImmediately", "FixedDelayWithJitter", "ExponentialFullJitter"}


def _close(value: float, low: float, high: float) -> bool:
    slack = 1e-9 * max(1.0, abs(high))
    return low - slack <= value <= high + slack


def retry_delays(
    strategy: StandardRetryStrategy, *, asynchronous: bool = False
) -> list[Retry]:
    """The retries `strategy` makes of a block that is always throttled."""

    def block() -> Any:
        raise THROTTLED

    async def block_async() -> Any:
        raise THROTTLED

    with pytest.raises(RetryAttemptsExceededError) as caught:
        if asynchronous:
            asyncio.run(strategy.retry_async(StandardRetryPolicy(), block_async))
        else:
            strategy.retry(StandardRetryPolicy(), block)
    last = caught.value.result.last_attempt
    assert last is not None
    assert len(last.retries) == strategy.max_attempts - 1
    return list(last.retries)


def check_delays(
    name: str, retries: list[Retry], base: float, cap: float, clock: VirtualClock
) -> None:
    """Each delay is within the formula's range for `b=base`, `c=cap`; the clock
    moved by their sum (nothing else slept)."""
    _, bounds = TABLE[name]
    previous: float | None = None
    for retry in retries:
        low, high = bounds(base, cap, retry.number, previous)
        assert _close(retry.delay, low, high), (name, retry, low, high)
        assert 0 <= retry.delay <= cap + 1e-9
        if name != "RetryImmediately":
            assert high > 0  # the formula's range is never collapsed to 0
        if low > 0:
            assert retry.delay > 0, (name, retry)
        # Only full jitter may draw 0, and equal jitter in whole seconds (e = 1
        # gives 1 // 2 + random(0, 1)); every other range starts above 0.
        whole_equal = name == "ExponentialEqualJitter" and isinstance(high, int)
        if name not in MAY_BE_ZERO and not whole_equal:
            assert low > 0, (name, retry, low)
        previous = retry.delay
    assert clock.now() == pytest.approx(sum(retry.delay for retry in retries))


def test_the_table_here_is_every_strategy_of_the_backoff_module() -> None:
    strategies = {
        name
        for name in backoff_module.__all__
        if isinstance(getattr(backoff_module, name), type)
        and name not in {"Backoff", "RetryContext"}
    }
    assert strategies == set(TABLE)


@pytest.mark.parametrize("asynchronous", [False, True])
@pytest.mark.parametrize("name", sorted(TABLE))
def test_every_backoff_of_the_table_works_as_a_retry_backoff(
    name: str, asynchronous: bool
) -> None:
    clock = VirtualClock()
    strategy = StandardRetryStrategy(
        max_attempts=8,
        token_bucket=None,
        backoff=TABLE[name][0],
        clock=clock,
        rng=random.Random(7),
    )
    retries = retry_delays(strategy, asynchronous=asynchronous)
    # The defaults: b = 1 s (AWS standard mode's base), c = 20 s.
    check_delays(name, retries, 1.0, 20.0, clock)


def test_smithy_backoff_is_the_specs_algorithm_with_b_1_and_c_20_by_default() -> None:
    clock = VirtualClock()
    strategy = StandardRetryStrategy(
        max_attempts=9,
        token_bucket=None,
        backoff=SmithyBackoff(),
        clock=clock,
        rng=random.Random(3),
    )
    delays = [retry.delay for retry in retry_delays(strategy)]
    # attemptCeiling = log2(20 / 1) + 1 ~ 5.32: retries 1-5 draw from
    # [1, 2 ** (n - 1)], retries 6 on from [1, 20].
    rng = random.Random(3)
    expected = [rng.uniform(1.0, min(20.0, 2.0 ** (n - 1))) for n in range(1, 6)]
    expected += [rng.uniform(1.0, 20.0) for _ in range(6, 9)]
    assert delays == pytest.approx(expected)
    assert delays[0] == 1.0  # random(b, b): the first retry waits exactly b


@pytest.mark.parametrize("name", sorted(TABLE))
def test_every_backoff_of_the_table_works_when_a_waiter_retries_its_calls(
    name: str,
) -> None:
    thing = custom_waiter(
        "Thing", acceptors=[success(path("status") == "ok")], min_delay=2, max_delay=120
    )
    clock = VirtualClock()
    strategy = StandardRetryStrategy(
        max_attempts=5,
        token_bucket=None,
        backoff=TABLE[name][0],
        clock=clock,
        rng=random.Random(11),
    )

    def throttled(request: Any = None) -> Any:
        raise THROTTLED

    with pytest.raises(WaiterError) as caught:
        thing(throttled, clock=clock, retry=strategy).wait({}, max_wait_time=600)
    assert not isinstance(caught.value, WaiterConfigurationError)
    first = caught.value.result.history[0]
    assert len(first.retries) == 4
    check_delays(name, list(first.retries), 1.0, 20.0, clock)


@settings(max_examples=150, deadline=None)
@given(
    name=st.sampled_from(sorted(TABLE)),
    cap=st.one_of(st.floats(0.001, 600.0, allow_nan=False), st.integers(1, 600)),
    base_fraction=st.one_of(st.none(), st.floats(0.0001, 1.0)),
    whole=st.booleans(),
    max_attempts=st.integers(2, 12),
    seed=st.integers(0, 2**32 - 1),
)
def test_any_base_and_cap_give_delays_by_the_formula_within_the_cap(
    name: str,
    cap: float,
    base_fraction: float | None,
    whole: bool,
    max_attempts: int,
    seed: int,
) -> None:
    min_backoff: float | None
    if base_fraction is None:
        min_backoff = None
        base = min(1.0, cap)
    elif whole and isinstance(cap, int):
        min_backoff = max(1, math.floor(cap * base_fraction))
        base = min_backoff
    else:
        min_backoff = max(cap * base_fraction, 1e-6 * cap)
        base = min_backoff
    clock = VirtualClock()
    strategy = StandardRetryStrategy(
        max_attempts=max_attempts,
        token_bucket=None,
        backoff=TABLE[name][0],
        max_backoff=cap,
        min_backoff=min_backoff,
        clock=clock,
        rng=random.Random(seed),
    )
    check_delays(name, retry_delays(strategy), base, cap, clock)


def test_the_default_backoff_is_unchanged() -> None:
    """Full jitter `random(0, min(20, 2 ** (n - 1)))`: the base `b` it takes from the
    context is `min_backoff`, 1 s by default."""
    clock = VirtualClock()
    strategy = StandardRetryStrategy(
        max_attempts=9, token_bucket=None, clock=clock, rng=random.Random(5)
    )
    assert strategy.backoff == ExponentialFullJitter()
    delays = [retry.delay for retry in retry_delays(strategy)]
    rng = random.Random(5)
    assert delays == [rng.uniform(0, min(20.0, 2.0 ** (n - 1))) for n in range(1, 9)]


@pytest.mark.parametrize(
    ("max_backoff", "base"), [(20.0, 1.0), (0.25, 0.25), (3, 1.0), (0, 0)]
)
def test_the_base_delay_defaults_to_1_s_capped_at_max_backoff(
    max_backoff: float, base: float
) -> None:
    retrying = StandardRetryStrategy(max_backoff=max_backoff).call_retry()
    assert retrying.min_delay == base
    assert retrying.max_delay == max_backoff


def test_min_backoff_is_the_contexts_min_delay() -> None:
    seen: list[RetryContext] = []

    def record(retry: RetryContext) -> float:
        seen.append(retry)
        return 0.5

    clock = VirtualClock()
    strategy = StandardRetryStrategy(
        max_attempts=3,
        token_bucket=None,
        backoff=record,
        min_backoff=2,
        max_backoff=30,
        clock=clock,
    )
    retry_delays(strategy)
    assert [(r.attempt, r.min_delay, r.max_delay) for r in seen] == [
        (1, 2, 30),
        (2, 2, 30),
    ]
    assert strategy.call_retry().min_delay == 2


@pytest.mark.parametrize(
    "min_backoff", [0, 0.0, -1.0, float("nan"), float("inf"), True, "1", 5e-324 * 0]
)
def test_a_bad_min_backoff_is_refused_when_the_strategy_is_made(
    min_backoff: Any,
) -> None:
    with pytest.raises(WaiterConfigurationError, match="min_backoff must be"):
        StandardRetryStrategy(min_backoff=min_backoff)


def test_a_min_backoff_above_max_backoff_is_refused_when_the_strategy_is_made() -> None:
    with pytest.raises(WaiterConfigurationError, match="greater than max_backoff"):
        StandardRetryStrategy(min_backoff=30, max_backoff=20)
    StandardRetryStrategy(min_backoff=20, max_backoff=20)  # equal is fine


@pytest.mark.parametrize("name", sorted(TABLE))
def test_max_backoff_0_means_no_pause_and_nothing_crashes(name: str) -> None:
    """`max_backoff=0` asks for no pause before a retry: the base is 0 too, and the
    strategies that take it from the context (SmithyBackoff's log included) give 0."""
    clock = VirtualClock()
    strategy = StandardRetryStrategy(
        max_attempts=4,
        token_bucket=None,
        backoff=TABLE[name][0],
        max_backoff=0,
        clock=clock,
        rng=random.Random(1),
    )
    assert [retry.delay for retry in retry_delays(strategy)] == [0, 0, 0]
    assert clock.now() == 0


@pytest.mark.parametrize("floor", [0, 0.0, -1.0])
def test_smithy_backoff_with_a_zero_floor_gives_the_formulas_limit_0(
    floor: float,
) -> None:
    for attempt in (1, 2, 50):
        context = RetryContext(attempt, 100.0, floor, 20.0, None, random.Random(0))
        assert SmithyBackoff()(context) == 0


class _Recording:
    """Decorrelated jitter that keeps the contexts it was asked with."""

    def __init__(self) -> None:
        self.jitter = DecorrelatedJitter()
        self.contexts: list[RetryContext] = []

    def __call__(self, retry: RetryContext, /) -> float:
        self.contexts.append(retry)
        return self.jitter(retry)


@pytest.mark.parametrize("asynchronous", [False, True])
def test_a_retry_backoff_is_told_the_delay_before_the_last_retry(
    asynchronous: bool,
) -> None:
    """Decorrelated jitter builds on the previous delay: the engine passes it (it
    once passed None each time, so every draw came from [b, 3b])."""
    backoff = _Recording()
    strategy = StandardRetryStrategy(
        max_attempts=6,
        token_bucket=None,
        backoff=backoff,
        clock=VirtualClock(),
        rng=random.Random(11),
    )
    retries = retry_delays(strategy, asynchronous=asynchronous)
    previous = [context.previous_delay for context in backoff.contexts]
    assert previous == [None, *(retry.delay for retry in retries[:-1])]


def test_a_whole_number_cap_keeps_the_jitter_continuous() -> None:
    """`max_backoff=3` once made the default backoff draw whole seconds (0, 1, 2
    or 3) once the cap was reached; AWS standard mode's jitter is continuous
    (found by review, 2026-11-27)."""
    clock = VirtualClock()
    strategy = StandardRetryStrategy(
        max_attempts=12, max_backoff=3, token_bucket=None, clock=clock
    )
    delays = [retry.delay for retry in retry_delays(strategy)]
    assert all(0 <= delay <= 3 for delay in delays)
    assert any(delay != int(delay) for delay in delays[3:]), delays

"""`WaiterConfig` and seed 004's named strategies: formulas, and per-call > config > model."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from waitable import (
    FixedDelay,
    RetryContext,
    WaiterConfigurationError,
    WaiterMaxAttemptsError,
    custom_waiter,
)
from waitable.custom import path, success
from waitable.config import STRATEGY_NAMES, NamedStrategy, WaiterConfig, named_strategy
from waitable.testing import VirtualClock

from .harness import THING_EXISTS, waiter_class

PENDING = {"status": "pending"}

attempts = st.integers(min_value=1, max_value=40)
bases = st.integers(min_value=1, max_value=30)
caps = st.integers(min_value=30, max_value=300)
seeds = st.integers(min_value=0, max_value=2**32)


def draw(strategy: NamedStrategy, attempt: int, seed: int) -> float:
    """One delay of `strategy` before retry `attempt`, with the bounds it sets."""
    assert strategy.min_delay is not None and strategy.max_delay is not None
    context = RetryContext(
        attempt=attempt,
        remaining=10_000,
        min_delay=strategy.min_delay,
        max_delay=strategy.max_delay,
        previous_delay=None,
        rng=random.Random(seed),
    )
    return strategy.backoff(context)


def seed004(base: float, cap: float, attempt: int) -> float:
    """Seed 004's text: `delay = min(baseDelay × 2 ^ (attempt - 1), maxDelay)`."""
    return min(base * 2 ** (attempt - 1), cap)


def test_retry_immediately_never_waits() -> None:
    strategy = named_strategy("retryImmediately")
    context = RetryContext(3, 100, 2, 120, None, random.Random(0))
    assert strategy.backoff(context) == 0


@given(st.integers(min_value=1, max_value=600), attempts, seeds)
def test_fixed_delay_without_jitter_waits_the_delay(
    delay: int, attempt: int, seed: int
) -> None:
    assert (
        draw(named_strategy("fixedDelayWithoutJitter", delay=delay), attempt, seed)
        == delay
    )


@given(st.integers(min_value=1, max_value=600), attempts, seeds)
def test_fixed_delay_jitters_between_zero_and_the_delay(
    delay: int, attempt: int, seed: int
) -> None:
    assert 0 <= draw(named_strategy("fixedDelay", delay=delay), attempt, seed) <= delay


def test_fixed_delay_reaches_below_half_the_delay() -> None:
    strategy = named_strategy("fixedDelay", delay=100)
    drawn = [draw(strategy, 1, seed) for seed in range(200)]
    assert min(drawn) < 50 and max(drawn) > 50


@given(bases, caps, attempts, seeds)
def test_exponential_delay_without_jitter_is_seed_004s_formula(
    base: int, cap: int, attempt: int, seed: int
) -> None:
    strategy = named_strategy(
        "exponentialDelayWithoutJitter", base_delay=base, max_delay=cap
    )
    assert draw(strategy, attempt, seed) == seed004(base, cap, attempt)


@given(bases, caps, attempts, seeds)
def test_exponential_delay_is_full_jitter_of_the_formula(
    base: int, cap: int, attempt: int, seed: int
) -> None:
    strategy = named_strategy("exponentialDelay", base_delay=base, max_delay=cap)
    assert 0 <= draw(strategy, attempt, seed) <= seed004(base, cap, attempt)


@given(bases, caps, attempts, seeds)
def test_exponential_delay_half_jitter_is_between_half_and_the_formula(
    base: int, cap: int, attempt: int, seed: int
) -> None:
    strategy = named_strategy(
        "exponentialDelayHalfJitter", base_delay=base, max_delay=cap
    )
    ceiling = seed004(base, cap, attempt)
    assert ceiling / 2 <= draw(strategy, attempt, seed) <= ceiling


def test_every_name_builds_and_unknown_names_say_the_known_ones() -> None:
    assert STRATEGY_NAMES[0] == "smithy"
    for name in STRATEGY_NAMES:
        assert named_strategy(name).name == name
    with pytest.raises(WaiterConfigurationError, match="fixedDelayWithoutJitter"):
        named_strategy("linear")
    with pytest.raises(WaiterConfigurationError, match="unknown parameter"):
        named_strategy("fixedDelay", base_delay=3)
    with pytest.raises(WaiterConfigurationError, match="base_delay 9 is greater"):
        named_strategy("exponentialDelay", base_delay=9, max_delay=3)


@pytest.mark.parametrize(
    "fields, message",
    [
        ({"max_attempts": 0}, "max_attempts must be an integer >= 1"),
        ({"max_attempts": True}, "max_attempts must be an integer >= 1"),
        ({"wait_timeout": -1}, "wait_timeout"),
        ({"min_delay": 10, "max_delay": 5}, "min_delay 10 is greater than max_delay 5"),
        ({"backoff": "fixed"}, "backoff must be a strategy"),
    ],
)
def test_bad_config_is_refused_saying_what_to_pass(
    fields: dict[str, Any], message: str
) -> None:
    with pytest.raises(WaiterConfigurationError, match=message):
        WaiterConfig(**fields)


def test_named_strategy_fills_the_delay_bounds() -> None:
    config = WaiterConfig(
        backoff=named_strategy("exponentialDelay", base_delay=3, max_delay=40)
    )
    assert (config.min_delay, config.max_delay) == (3, 40)
    assert config.strategy is not None and not isinstance(config.backoff, NamedStrategy)
    agreeing = WaiterConfig(
        backoff=named_strategy("fixedDelay", delay=5), min_delay=5.0, max_delay=5
    )
    assert (agreeing.min_delay, agreeing.max_delay) == (5, 5)
    smithy = WaiterConfig(backoff=named_strategy("smithy"), min_delay=1, max_delay=9)
    assert (smithy.min_delay, smithy.max_delay) == (1, 9)  # smithy sets no bounds


@pytest.mark.parametrize(
    ("strategy", "bounds", "said"),
    [
        (("fixedDelayWithoutJitter", {"delay": 15}), {"min_delay": 5}, "min_delay=5"),
        (("fixedDelay", {"delay": 5}), {"max_delay": 9}, "max_delay=9"),
        (("exponentialDelay", {}), {"max_delay": 4}, "set max_delay to 20"),
    ],
)
def test_a_bound_that_contradicts_the_named_strategy_is_refused(
    strategy: tuple[str, dict[str, float]], bounds: dict[str, float], said: str
) -> None:
    """`WaiterConfig(min_delay=5, backoff=named_strategy(..., delay=15))` polled every
    5 s, silently dropping the delay the strategy was given."""
    name, params = strategy
    with pytest.raises(WaiterConfigurationError, match=said):
        WaiterConfig(backoff=named_strategy(name, **params), **bounds)


@pytest.mark.parametrize(
    ("name", "params", "said"),
    [
        ("retryImmediately", {"delay": 5}, "unknown parameter(s) delay; "),
        (
            "fixedDelay",
            {"delay": 3, "base_delay": 2},
            "unknown parameter(s) base_delay;",
        ),
        ("exponentialDelay", {"foo": 1}, "takes base_delay=, max_delay="),
    ],
)
def test_named_strategy_names_only_the_unknown_parameters(
    name: str, params: dict[str, float], said: str
) -> None:
    with pytest.raises(WaiterConfigurationError) as refused:
        named_strategy(name, **params)
    assert said in str(refused.value)


def pending(input: Any = None) -> dict[str, str]:
    return PENDING


def starts_and_delays(error: Any) -> list[tuple[float, float]]:
    return [(a.started_at, a.delay) for a in error.result.history]


def test_generated_waiter_takes_config_as_defaults_and_call_arguments_win() -> None:
    cls = waiter_class(THING_EXISTS)
    config = WaiterConfig(
        max_attempts=3,
        wait_timeout=1000,
        backoff=named_strategy("fixedDelayWithoutJitter", delay=7),
    )
    waiter = cls(pending, clock=VirtualClock(), config=config)
    with pytest.raises(WaiterMaxAttemptsError) as from_config:
        # A generated wait() still takes max_wait_time (the spec's rule: the caller
        # says how long); None takes the config's wait_timeout.
        waiter.wait({}, max_wait_time=None)
    assert starts_and_delays(from_config.value) == [(0, 0), (7, 7), (14, 7)]
    with pytest.raises(WaiterMaxAttemptsError) as per_call:
        waiter.wait({}, max_wait_time=1000, max_attempts=4, min_delay=2)
    # min_delay=2 per call; FixedDelay reads min_delay, so the call wins over the config.
    assert starts_and_delays(per_call.value) == [(0, 0), (2, 2), (4, 2), (6, 2)]


def test_without_config_the_model_decides() -> None:
    cls = waiter_class(THING_EXISTS)
    waiter = cls(pending, clock=VirtualClock(), rng=random.Random(1))
    with pytest.raises(WaiterMaxAttemptsError) as raised:
        waiter.wait({}, max_wait_time=1000, max_attempts=2)
    # SmithyBackoff between the model's min_delay 2 and 2 ** 0 * 2 = 2 for retry 1.
    assert starts_and_delays(raised.value) == [(0, 0), (2, 2)]
    with pytest.raises(WaiterConfigurationError, match="max_wait_time is required"):
        waiter.wait({}, max_wait_time=None)


def test_backoff_in_both_places_is_refused() -> None:
    cls = waiter_class(THING_EXISTS)
    config = WaiterConfig(backoff=named_strategy("fixedDelay", delay=5))
    with pytest.raises(
        WaiterConfigurationError, match="both backoff= and config.backoff"
    ):
        cls(pending, backoff=named_strategy("retryImmediately").backoff, config=config)
    with pytest.raises(WaiterConfigurationError, match="config must be a"):
        cls(pending, config={"max_attempts": 3})


def test_custom_waiter_defaults_compose_with_config() -> None:
    Build = custom_waiter(
        "Build",
        acceptors=[success(path("status") == "ready")],
        max_attempts=5,
        max_wait_time=100,
        backoff=named_strategy("fixedDelayWithoutJitter", delay=3).backoff,
    )
    # The builder's defaults alone: 5 attempts, FixedDelay() at min_delay 2.
    with pytest.raises(WaiterMaxAttemptsError) as builder:
        Build(pending, clock=VirtualClock()).wait()
    assert [a for a, _ in starts_and_delays(builder.value)] == [0, 2, 4, 6, 8]
    # The config wins over the builder: 2 attempts, 11 s apart.
    config = WaiterConfig(
        max_attempts=2, backoff=named_strategy("fixedDelayWithoutJitter", delay=11)
    )
    with pytest.raises(WaiterMaxAttemptsError) as configured:
        Build(pending, clock=VirtualClock(), config=config).wait()
    assert starts_and_delays(configured.value) == [(0, 0), (11, 11)]
    # The call wins over both.
    with pytest.raises(WaiterMaxAttemptsError) as called:
        Build(pending, clock=VirtualClock(), config=config).wait(max_attempts=3)
    assert len(called.value.result.history) == 3


def test_start_and_poll_once_use_the_config() -> None:
    cls = waiter_class(THING_EXISTS)
    config = WaiterConfig(
        max_attempts=2,
        wait_timeout=500,
        backoff=named_strategy("fixedDelayWithoutJitter", delay=9),
    )
    waiter = cls(pending, clock=VirtualClock(), config=config)
    saved = waiter.start({}, max_wait_time=None)
    assert (saved.max_wait_time, saved.min_delay, saved.max_attempts) == (500, 9, 2)
    step = waiter.poll_once(saved)
    assert step.next_delay == 9


def test_async_waiters_take_the_config_too() -> None:
    Build = custom_waiter("Build", acceptors=[success(path("status") == "ready")])
    clock = VirtualClock()

    async def pending_async(input: Any = None) -> dict[str, str]:
        return PENDING

    config = WaiterConfig(
        max_attempts=3,
        wait_timeout=100,
        backoff=named_strategy("fixedDelayWithoutJitter", delay=6),
    )
    waiter = Build.Async(pending_async, clock=clock, config=config)
    with pytest.raises(WaiterMaxAttemptsError) as raised:
        asyncio.run(waiter.wait())
    assert starts_and_delays(raised.value) == [(0, 0), (6, 6), (12, 6)]


@pytest.mark.parametrize(
    ("name", "params"),
    [
        ("fixedDelay", {"delay": 1}),
        ("exponentialDelay", {}),
        ("exponentialDelayHalfJitter", {"base_delay": 2}),
    ],
)
def test_a_named_strategys_jitter_is_continuous_for_whole_delays(
    name: str, params: dict[str, float]
) -> None:
    """Seed 004's strategies draw from the whole range (Java: milliseconds); with
    int bounds they drew whole seconds (`fixedDelay` with delay=1: 0 or 1)."""
    config = WaiterConfig(
        backoff=named_strategy(name, **params), max_attempts=40, wait_timeout=10**6
    )
    clock = VirtualClock()
    cls = waiter_class(THING_EXISTS)
    waiter = cls(pending, clock=clock, config=config, rng=random.Random(11))
    with pytest.raises(WaiterMaxAttemptsError) as stopped:
        waiter.wait({})
    delays = [delay for _, delay in starts_and_delays(stopped.value)][1:]
    assert any(delay != int(delay) for delay in delays), delays


def test_bounds_stated_again_keep_a_named_strategys_jitter_continuous() -> None:
    """`min_delay`/`max_delay` equal to the strategy's own may be given too; as ints
    they once made every delay whole seconds (found by review, 2026-11-27)."""
    strategy = named_strategy("fixedDelay", delay=5)
    config = WaiterConfig(backoff=strategy, min_delay=5, max_delay=5)
    assert type(config.min_delay) is float and type(config.max_delay) is float

    def delays(config: WaiterConfig) -> list[float]:
        waiter = waiter_class(THING_EXISTS)(
            pending, clock=VirtualClock(), config=config, rng=random.Random(3)
        )
        with pytest.raises(WaiterMaxAttemptsError) as stopped:
            waiter.wait({}, max_wait_time=10**6, max_attempts=30)
        return [delay for _, delay in starts_and_delays(stopped.value)][1:]

    assert delays(config) == delays(WaiterConfig(backoff=strategy))


def test_a_config_set_later_brings_its_strategy_along() -> None:
    """Its delays and limits applied, but the strategy stayed the old config's
    (delays 1, 1.7, 2.3, 7.2 from the default instead of 1, 2, 4, 8)."""
    clock = VirtualClock()
    waiter = waiter_class(THING_EXISTS)(
        lambda input: {"status": "pending"},
        clock=clock,
        rng=random.Random(1),
        config=WaiterConfig(wait_timeout=100, max_attempts=5),
    )
    waiter.config = WaiterConfig(
        wait_timeout=100,
        max_attempts=5,
        backoff=named_strategy("exponentialDelayWithoutJitter", base_delay=1),
    )
    with pytest.raises(WaiterMaxAttemptsError) as caught:
        waiter.wait({})
    assert [a.delay for a in caught.value.result.history[1:]] == [1, 2, 4, 8]
    with pytest.raises(WaiterConfigurationError, match="config must be"):
        waiter.config = {"wait_timeout": 100}


def test_a_config_set_later_keeps_a_backoff_of_the_callers_own() -> None:
    waiter = waiter_class(THING_EXISTS)(
        lambda input: {"status": "success"}, backoff=FixedDelay(3)
    )
    waiter.config = WaiterConfig(wait_timeout=10)
    assert waiter.backoff == FixedDelay(3)
    waiter.backoff = FixedDelay(4)
    waiter.config = WaiterConfig(backoff=named_strategy("retryImmediately"))
    assert waiter.backoff == FixedDelay(4)


@pytest.mark.parametrize("name", [["fixedDelay"], 5, None, "nope"])
def test_a_strategy_name_that_is_no_known_string_is_a_configuration_error(
    name: Any,
) -> None:
    """A list raised a raw `TypeError: unhashable type` from the table look-up."""
    with pytest.raises(WaiterConfigurationError, match="unknown backoff strategy"):
        named_strategy(name)


@pytest.mark.parametrize("name", [n for n in STRATEGY_NAMES if "xponential" in n])
def test_a_base_delay_above_the_default_max_delay_says_it_is_the_default(
    name: str,
) -> None:
    """Review s23, finding 7: the caller never gave max_delay, so "greater than
    max_delay 20" named a number they had not written."""
    with pytest.raises(WaiterConfigurationError) as raised:
        named_strategy(name, base_delay=30)
    assert str(raised.value) == (
        f"{name}: base_delay 30 is greater than max_delay, which defaults to 20; "
        "pass base_delay <= 20, or also pass max_delay >= 30"
    )
    with pytest.raises(WaiterConfigurationError) as given_too:
        named_strategy(name, base_delay=30, max_delay=20)
    assert str(given_too.value) == (  # a max_delay given: as before
        f"{name}: base_delay 30 is greater than max_delay 20; "
        "pass base_delay <= max_delay"
    )
    assert named_strategy(name, base_delay=20).max_delay == 20

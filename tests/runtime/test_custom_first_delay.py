"""Seed 003's `ExecuteAfterFirstDelay` waits the strategy's first delay (it waited
`min_delay` whatever the strategy), a `backoff=None` keeps the builder's strategy
(None is "not given"), and a named strategy passed as `backoff=` says where it
goes, when the class or waiter is made."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from waitable import (
    FixedDelay,
    SavedWait,
    WaiterConfig,
    WaiterConfigurationError,
    WaiterMaxAttemptsError,
    named_strategy,
)
from waitable.backoff import ExponentialFullJitter
from waitable.custom import custom_waiter, path, success
from waitable.testing import VirtualClock

ACCEPTORS = [success(path("status") == "done")]


def checks(waiter_class: Any, polls: int = 3, **options: Any) -> list[float]:
    """When the first `polls` checks of a wait happen (never done)."""
    clock = VirtualClock()
    seen: list[float] = []

    def check() -> Any:
        seen.append(clock.now())
        return {"status": "running"}

    wait = options.pop("wait", {})
    waiter = waiter_class(check, clock=clock, rng=random.Random(5), **options)
    with pytest.raises(WaiterMaxAttemptsError):
        waiter.wait(max_wait_time=10_000, max_attempts=polls, **wait)
    return seen


@pytest.mark.parametrize(
    ("settings", "expected"),
    [
        ({"backoff": FixedDelay(30)}, [30.0, 60.0, 90.0]),
        ({"min_delay": 15}, None),  # SmithyBackoff: the spec's first delay, min_delay
        (
            {"config": WaiterConfig(backoff=named_strategy("retryImmediately"))},
            [0.0, 0.0, 0.0],
        ),
        (
            {
                "config": WaiterConfig(
                    backoff=named_strategy("fixedDelayWithoutJitter", delay=15)
                )
            },
            [15.0, 30.0, 45.0],
        ),
        ({"wait": {"backoff": FixedDelay(7)}}, [7.0, 14.0, 21.0]),
    ],
)
def test_the_first_check_comes_after_the_strategys_first_delay(
    settings: dict[str, Any], expected: list[float] | None
) -> None:
    Build = custom_waiter(
        "Build",
        acceptors=ACCEPTORS,
        delay_before_first_attempt=True,
        min_delay=settings.pop("min_delay", 2),
    )
    seen = checks(Build, **settings)
    if expected is None:
        assert seen[0] == 15.0
    else:
        assert seen == expected


def test_a_jittered_first_delay_is_drawn_from_the_strategy() -> None:
    Build = custom_waiter(
        "Build",
        acceptors=ACCEPTORS,
        delay_before_first_attempt=True,
        min_delay=1,
        max_delay=60,
        backoff=ExponentialFullJitter(base=40.0),
    )
    assert 0 <= checks(Build, polls=1)[0] <= 40
    clock = VirtualClock(wall_start=1000)
    waiter = Build(lambda: {"status": "running"}, clock=clock)
    saved = waiter.start(max_wait_time=3600, seed=3)
    again = waiter.start(max_wait_time=3600, seed=3)
    assert saved.next_delay == again.next_delay  # drawn from the record's own seed
    assert SavedWait.from_json(saved.to_json()).rng_state == saved.rng_state


def test_backoff_none_keeps_the_builders_strategy() -> None:
    Build = custom_waiter("Build", acceptors=ACCEPTORS, backoff=FixedDelay(30))
    assert checks(Build, polls=4) == checks(Build, polls=4, backoff=None)
    assert checks(Build, polls=4) == [0.0, 30.0, 60.0, 90.0]


def test_a_named_strategy_as_backoff_says_where_it_goes() -> None:
    named = named_strategy("fixedDelay", delay=15)
    Build = custom_waiter("Build", acceptors=ACCEPTORS)
    for make in (
        lambda: custom_waiter("Build", acceptors=ACCEPTORS, backoff=named),
        lambda: Build(lambda: {}, backoff=named),
    ):
        with pytest.raises(WaiterConfigurationError, match=r"config=WaiterConfig"):
            make()


def test_the_async_class_waits_the_same_first_delay() -> None:
    Build = custom_waiter(
        "Build",
        acceptors=ACCEPTORS,
        delay_before_first_attempt=True,
        backoff=FixedDelay(30),
    )
    clock = VirtualClock()
    seen: list[float] = []

    async def check() -> Any:
        seen.append(clock.now())
        return {"status": "done"}

    asyncio.run(Build.Async(check, clock=clock).wait(max_wait_time=600))
    assert seen == [30.0]

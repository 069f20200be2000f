"""A waiter reuses the `WaitOptions` of its last arguments, and only when nothing differs."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from waitable import FixedDelay, RateLimiter, RetryImmediately, Waiter
from waitable.config import WaiterConfig

from .harness import THING_EXISTS, waiter_class

numbers = st.integers(1, 100) | st.floats(1, 100)


def waiter(**kwargs: Any) -> Any:
    return waiter_class(THING_EXISTS, Waiter)(lambda input: {}, **kwargs)


@given(numbers, st.none() | numbers, st.none() | st.integers(1, 9))
def test_reused_options_equal_fresh_ones_down_to_the_types(
    max_wait_time: float, min_delay: float | None, max_attempts: int | None
) -> None:
    shared = waiter()
    first = shared._options_for(max_wait_time, min_delay, None, max_attempts, None)
    again = shared._options_for(max_wait_time, min_delay, None, max_attempts, None)
    fresh = waiter()._options(max_wait_time, min_delay, None, max_attempts, None)
    assert again is first
    assert again == fresh
    assert type(again.max_wait_time) is type(fresh.max_wait_time)
    assert type(again.min_delay) is type(fresh.min_delay)


def test_an_int_and_an_equal_float_are_different_arguments() -> None:
    shared = waiter()
    assert type(shared._options_for(300, 3, None, None, None).min_delay) is int
    assert type(shared._options_for(300, 3.0, None, None, None).min_delay) is float


def test_a_changed_strategy_or_config_is_seen_by_the_next_wait() -> None:
    shared = waiter()
    before = shared._options_for(300, None, None, None, None)
    shared.backoff = FixedDelay(5)
    assert shared._options_for(300, None, None, None, None).backoff == FixedDelay(5)
    shared.config = WaiterConfig(max_attempts=4)
    assert shared._options_for(300, None, None, None, None).max_attempts == 4
    assert before.max_attempts is None
    passed = shared._options_for(300, None, None, None, RetryImmediately())
    assert isinstance(passed.backoff, RetryImmediately)


def test_waits_started_alike_share_one_plan_until_a_policy_changes() -> None:
    """The plan is shared, never stale: a hook or policy set later reaches the next wait."""
    shared = waiter_class(THING_EXISTS, Waiter)(lambda input: {"status": "success"})
    first = shared._wait_plan(300, None, None, None, None)
    assert shared._wait_plan(300, None, None, None, None) is first
    seen: list[Any] = []
    shared.on_attempt = seen.append
    shared.retry_on = (OSError,)
    plan = shared._wait_plan(300, None, None, None, None)
    assert plan is not first
    assert plan.on_attempt == seen.append and plan.retry_on == (OSError,)
    assert shared._wait_plan(60, None, None, None, None).options.max_wait_time == 60
    shared.wait({}, max_wait_time=300)
    assert len(seen) == 1  # the hook set after the first plan ran


POLICIES: dict[str, list[Any]] = {
    "backoff": [FixedDelay(5), RetryImmediately()],
    "config": [WaiterConfig(max_attempts=4), WaiterConfig()],
    "rng": [random.Random(1), random.Random(2)],
    "retry_on": [(OSError,), ()],
    "on_attempt": [print, None],
    "rate_limit": [RateLimiter(10, per=1.0), None],
}
CHANGES = st.sampled_from(
    [(name, i) for name, values in POLICIES.items() for i in (0, 1)]
)


@given(st.lists(CHANGES, max_size=8), st.sampled_from([300, 300.0, 60]))
def test_the_shared_plan_is_always_the_plan_of_the_current_policies(
    changes: list[tuple[str, int]], max_wait_time: float
) -> None:
    shared = waiter()
    for name, index in changes:
        shared._wait_plan(max_wait_time, None, None, None, None)
        setattr(shared, name, POLICIES[name][index])
    plan = shared._wait_plan(max_wait_time, None, None, None, None)
    fresh = shared._options(max_wait_time, None, None, None, None)
    assert plan.options == fresh
    assert type(plan.options.max_wait_time) is type(fresh.max_wait_time)
    assert plan.rng is shared.rng and plan.retry_on is shared.retry_on
    assert plan.on_attempt is shared.on_attempt and plan.rate_limit is shared.rate_limit
    assert plan.call_retry is shared.retry and plan.definition is shared.definition


def test_a_definition_or_judge_changed_on_the_class_reaches_the_next_wait() -> None:
    cls = waiter_class(THING_EXISTS, Waiter)
    shared = cls(lambda input: {})
    first = shared._wait_plan(300, None, None, None, None)
    cls.definition = dataclasses.replace(THING_EXISTS, max_delay=7)
    second = shared._wait_plan(300, None, None, None, None)
    assert second.definition is cls.definition and second.options.max_delay == 7
    assert first.definition is THING_EXISTS

    def judge(*args: Any) -> None:
        return None

    cls.judge = judge
    assert shared._wait_plan(300, None, None, None, None).judge is judge

"""A waiter reuses the `WaitOptions` of its last arguments, and only when nothing differs."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from waitable import FixedDelay, RetryImmediately, Waiter
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
    options = shared._options_for(300, None, None, None, None)
    first, _ = shared._begin(options, 0.0)
    assert shared._begin(options, 0.0)[0] is first
    seen: list[Any] = []
    shared.on_attempt = seen.append
    shared.retry_on = (OSError,)
    plan, _ = shared._begin(options, 0.0)
    assert plan is not first
    assert plan.on_attempt == seen.append and plan.retry_on == (OSError,)
    other = shared._options_for(60, None, None, None, None)
    assert shared._begin(other, 0.0)[0].options is other
    shared.wait({}, max_wait_time=300)
    assert len(seen) == 1  # the hook set after the first plan ran

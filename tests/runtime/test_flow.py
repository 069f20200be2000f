"""The engine fed directly, h11 style: actions out, outcomes in, no I/O and no driver."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from waitable import SmithyBackoff, WaiterTimeoutError
from waitable.flow import (
    START_TOLERANCE,
    CutOff,
    Poll,
    Returned,
    SavedPause,
    Sleep,
    WaitPlan,
    WaitState,
    flow,
    start,
)
from waitable.options import resolve_options
from waitable.testing import VirtualClock

from .harness import THING_EXISTS

PENDING = Returned({"status": "pending"})
DONE = Returned({"status": "success"})


def plan(max_wait_time: float = 300, seed: int = 1) -> WaitPlan:
    options = resolve_options(
        THING_EXISTS,
        max_wait_time=max_wait_time,
        min_delay=None,
        max_delay=None,
        max_attempts=None,
        backoff=SmithyBackoff(),
    )
    return WaitPlan(THING_EXISTS, options, random.Random(seed))


INPUT = {"name": "t"}


def test_the_first_action_is_an_immediate_poll_carrying_the_time_left() -> None:
    clock = VirtualClock()
    actions = flow(plan(), start(plan(), clock.now()), clock.now, INPUT)
    assert next(actions) == Poll(
        attempt=1, remaining=300, timeout=300, start_by=300 + START_TOLERANCE
    )
    assert actions.send(PENDING) == Sleep(2)
    clock.advance(2)
    assert actions.send(None) == Poll(
        attempt=2, remaining=298, timeout=298, start_by=300 + START_TOLERANCE
    )
    with pytest.raises(StopIteration) as stop:
        actions.send(DONE)
    assert stop.value.value.attempts == 2


def test_a_wait_can_be_resumed_from_its_state_by_a_fresh_flow() -> None:
    clock = VirtualClock()
    the_plan = plan(seed=5)
    state = start(the_plan, clock.now())
    first = flow(the_plan, state, clock.now, INPUT)
    next(first)
    assert first.send(PENDING) == Sleep(2)
    first.close()  # the first flow is dropped during its delay
    assert state.next_poll_at == 2 and len(state.history) == 1
    clock.advance(0.5)  # some time passes while the state is stored elsewhere
    second = flow(the_plan, state, clock.now, INPUT)
    assert next(second) == SavedPause(1.5)  # only what is left of the delay
    clock.advance(1.5)
    assert next_poll(second).attempt == 2
    with pytest.raises(StopIteration) as stop:
        second.send(DONE)
    assert [a.started_at for a in stop.value.value.history] == [0, 2]


def next_poll(actions: Any) -> Poll:
    action = actions.send(None)
    assert isinstance(action, Poll)
    return action


def test_a_response_after_the_deadline_fails_the_wait() -> None:
    """Step 2 of the workflow: the deadline is checked before the acceptors."""
    clock = VirtualClock()
    the_plan = plan(max_wait_time=10)
    actions = flow(the_plan, start(the_plan, 0), clock.now, INPUT)
    next(actions)
    clock.advance(12)  # the request took longer than the whole wait
    with pytest.raises(
        WaiterTimeoutError, match="the response arrived after the deadline"
    ) as info:
        actions.send(DONE)
    assert info.value.result.output == DONE.output  # still handed back to the caller


def test_a_cut_off_request_fails_the_wait() -> None:
    clock = VirtualClock()
    the_plan = plan(max_wait_time=10)
    actions = flow(the_plan, start(the_plan, 0), clock.now, INPUT)
    next(actions)
    clock.advance(10)
    with pytest.raises(WaiterTimeoutError, match="cut off at the deadline"):
        actions.send(CutOff())


def test_a_first_poll_cut_off_a_little_late_was_cut_off_at_the_deadline() -> None:
    """The event loop ran the cut a moment late: that is no final poll's allowance."""
    clock = VirtualClock()
    the_plan = plan(max_wait_time=1)
    actions = flow(the_plan, start(the_plan, 0), clock.now, INPUT)
    next(actions)
    clock.advance(1.0017)
    with pytest.raises(WaiterTimeoutError) as info:
        actions.send(CutOff())
    assert "the request was cut off at the deadline" in str(info.value)
    assert "final poll" not in str(info.value)


def test_a_driver_that_sends_nonsense_is_told_so() -> None:
    clock = VirtualClock()
    actions = flow(plan(), start(plan(), 0), clock.now, INPUT)
    next(actions)
    with pytest.raises(TypeError, match="send an Outcome"):
        actions.send("output")  # type: ignore[arg-type]


def test_the_final_poll_starts_at_the_deadline_and_gets_min_delay_to_answer() -> None:
    clock = VirtualClock()
    the_plan = plan(max_wait_time=3)
    actions = flow(the_plan, start(the_plan, 0), clock.now, INPUT)
    assert next(actions) == Poll(
        attempt=1, remaining=3, timeout=3, start_by=3 + START_TOLERANCE
    )
    assert actions.send(PENDING) == Sleep(
        3
    )  # 3 - 2 <= minDelay: sleep all that is left
    clock.advance(3)
    assert actions.send(None) == Poll(
        attempt=2, remaining=0, timeout=2, start_by=3 + START_TOLERANCE
    )
    clock.advance(1.5)
    with pytest.raises(StopIteration):
        actions.send(DONE)  # answered within the allowance: it counts


@settings(max_examples=50, deadline=None)
@given(
    now=st.one_of(st.floats(min_value=0, max_value=1e9), st.integers(0, 10**9)),
    max_wait_time=st.integers(min_value=1, max_value=10**6),
    history_limit=st.one_of(st.none(), st.integers(min_value=1, max_value=100)),
)
def test_start_builds_the_state_the_dataclass_would(
    now: float, max_wait_time: int, history_limit: int | None
) -> None:
    # `start` fills the slots itself (one state per wait): the same state, field by
    # field and type by type, as the keyword constructor makes.
    the_plan = plan(max_wait_time)
    fast = start(the_plan, now, history_limit)
    slow = WaitState(
        started_at=now,
        deadline=now + the_plan.options.max_wait_time,
        history_limit=history_limit,
    )
    assert fast == slow
    for name in WaitState.__slots__:
        assert type(getattr(fast, name)) is type(getattr(slow, name)), name
    assert fast.history.limit == slow.history.limit == history_limit
    assert list(fast.history) == [] and fast.history is not slow.history


@settings(max_examples=40, deadline=None)
@given(
    polls=st.integers(1, 6),
    latency=st.sampled_from([0, 0.5, 3]),
    history_limit=st.sampled_from([None, 1, 2]),
)
def test_a_result_keeps_its_own_history_and_ends_at_the_last_poll(
    polls: int, latency: float, history_limit: int | None
) -> None:
    # `_result` copies the history and reads the last poll's end from it directly.
    clock = VirtualClock()
    the_plan = plan()
    state = start(the_plan, clock.now(), history_limit)
    actions = flow(the_plan, state, clock.now, INPUT)
    action = next(actions)
    for number in range(1, polls + 1):
        assert isinstance(action, Poll)
        clock.advance(latency)
        try:
            action = actions.send(DONE if number == polls else PENDING)
        except StopIteration as stop:
            result = stop.value
            break
        assert isinstance(action, Sleep)
        clock.advance(action.seconds)
        action = actions.send(None)
    kept = tuple(state.history)
    last = kept[-1]
    state.history.items.extend(state.history.items[-7:])  # the state goes on
    assert result.history == kept  # (read only now: it is made on first read)
    assert len(kept) == min(polls, history_limit or polls)
    assert result.elapsed == last.started_at + last.duration
    assert result.attempts == polls

"""The engine's fast constructors make exactly the records the public constructors make."""

from __future__ import annotations

import dataclasses
import pickle
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from waitable.actions import (
    START_TOLERANCE,
    Poll,
    Returned,
    Sleep,
    new_returned,
    new_sleep,
)
from waitable.calls import poll_for
from waitable.flow import start
from waitable.backoff import RetryContext, new_context
from waitable.definition import AcceptorState
from waitable.results import WaiterResult, new_result

from .harness import THING_EXISTS, waiter_class

seconds = st.floats(allow_nan=False) | st.integers(0, 10**6)


def same_record(made: Any, public: Any) -> None:
    assert type(made) is type(public)
    assert made == public and repr(made) == repr(public) and hash(made) == hash(public)
    names = [field.name for field in dataclasses.fields(public)]
    assert all(getattr(made, name) is getattr(public, name) for name in names)
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.__setattr__(dataclasses.fields(made)[0].name, 1)


@given(
    st.floats(0, 10**6),
    st.floats(-1, 10**6),
    st.booleans(),
    st.integers(0, 10**6),
    st.integers(1, 60) | st.floats(0.5, 60),
)
def test_poll_for_makes_a_true_poll(
    deadline: float, started: float, final: bool, attempts: int, min_delay: float
) -> None:
    waiter = waiter_class(THING_EXISTS)(lambda input: {})
    plan = waiter._wait_plan(10**6, min_delay, 60, None, None)
    state = start(plan, 0.0)
    state.deadline, state.final, state.attempts = deadline, final, attempts
    made = poll_for(plan, state, started)
    if made is None:
        assert started > deadline + START_TOLERANCE
        return
    public = Poll(
        made.attempt, made.remaining, made.timeout, made.start_by, made.cut_at
    )
    same_record(made, public)
    assert made.attempt == attempts + 1 and made.start_by == deadline + START_TOLERANCE


@given(st.integers(1, 10**9), seconds, seconds, seconds, st.none() | seconds)
def test_new_context_is_retry_context(
    attempt: int, remaining: float, low: float, high: float, previous: Any
) -> None:
    rng = random.Random(0)
    made = new_context(attempt, remaining, low, high, previous, rng)
    same_record(made, RetryContext(attempt, remaining, low, high, previous, rng))
    assert made.rng is rng


@given(st.none() | st.dictionaries(st.text(max_size=3), st.integers()))
def test_new_returned_is_returned(output: Any) -> None:
    made = new_returned(output)
    assert type(made) is Returned and made == Returned(output)
    assert made.output is output
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.output = None  # type: ignore[misc]


@given(seconds)
def test_new_sleep_is_sleep(seconds_: float) -> None:
    same_record(new_sleep(seconds_), Sleep(seconds_))


@given(
    st.text(max_size=5),
    st.sampled_from(list(AcceptorState)),
    st.none() | st.text(max_size=3) | st.integers(),
    st.integers(0, 10**6),
    seconds,
    st.lists(st.integers(), max_size=3).map(tuple),
)
def test_new_result_is_waiter_result(
    waiter: str,
    state: AcceptorState,
    output: Any,
    attempts: int,
    elapsed: float,
    history: tuple[Any, ...],
) -> None:
    made = new_result(waiter, state, output, attempts, elapsed, history)
    public = WaiterResult(waiter, state, output, attempts, elapsed, history)
    assert type(made) is WaiterResult
    assert made == public and repr(made) == repr(public) and hash(made) == hash(public)
    assert made.output is output and made.history is history
    assert pickle.loads(pickle.dumps(made)) == public
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.output = None  # type: ignore[misc]

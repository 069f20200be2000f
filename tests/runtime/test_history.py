"""The compact history: what is read back equals what was recorded, bounded and unchanging."""

from __future__ import annotations

import asyncio
import copy
import pickle
import random
from dataclasses import FrozenInstanceError
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from waitable import AcceptorState, AsyncWaiter, RetryImmediately, WaiterResult
from waitable.flow import WaitState
from waitable.history import History
from waitable.results import Attempt, Retry
from waitable.testing import VirtualClock

from .harness import THING_EXISTS, waiter_class

seconds = st.floats(min_value=0, max_value=1e9, allow_nan=False)
retries = st.lists(
    st.builds(
        Retry,
        st.integers(1, 10),
        st.none() | st.text(max_size=5),
        st.sampled_from(["THROTTLING", "TRANSIENT", "SERVER_ERROR"]),
        seconds,
    ),
    max_size=3,
).map(tuple)
attempts = st.builds(
    Attempt,
    number=st.integers(1, 10**6),
    started_at=seconds,
    delay=seconds,
    duration=seconds,
    state=st.sampled_from(list(AcceptorState)),
    acceptor_index=st.none() | st.integers(0, 10**4),
    output=st.none() | st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
    error_type=st.none() | st.text(max_size=8),
    retries=retries,
    retry_stopped=st.none() | st.sampled_from(["max_attempts", "max_time", "capacity"]),
)


@given(st.lists(attempts, max_size=30), st.none() | st.integers(1, 10))
def test_what_is_read_back_equals_the_newest_attempts_recorded(
    recorded: list[Attempt[Any]], limit: int | None
) -> None:
    history = History(limit=limit)
    for attempt in recorded:
        history.append(attempt)
    kept = recorded if limit is None else recorded[-limit:]
    assert list(history) == kept
    assert len(history) == len(kept)
    assert history == kept and history == tuple(kept)
    assert [history[i] for i in range(-len(kept), len(kept))] == kept + kept
    assert history[1:] == tuple(kept[1:])
    assert history.last_end() == (
        kept[-1].started_at + kept[-1].duration if kept else None
    )
    with pytest.raises(IndexError):
        history[len(kept)]


@given(st.lists(attempts, min_size=1, max_size=10), attempts)
def test_a_snapshot_does_not_change_when_the_wait_goes_on(
    recorded: list[Attempt[Any]], later: Attempt[Any]
) -> None:
    history = History(recorded)
    snapshot = history.snapshot()
    history.append(later)
    assert list(snapshot) == recorded
    assert list(history) == [*recorded, later]


def test_record_takes_the_fields_of_an_attempt() -> None:
    history = History()
    history.record(3, 1.5, 1.0, 0.25, AcceptorState.RETRY, None, {"s": 1}, "Slow")
    history.record(
        4, 3.0, 1.25, 0.5, AcceptorState.SUCCESS, 1, None, None, (), "max_time"
    )
    assert list(history) == [
        Attempt(3, 1.5, 1.0, 0.25, AcceptorState.RETRY, None, {"s": 1}, "Slow"),
        Attempt(
            4, 3.0, 1.25, 0.5, AcceptorState.SUCCESS, 1, None, None, (), "max_time"
        ),
    ]


def test_a_wait_state_given_a_list_keeps_it_as_a_bounded_history() -> None:
    first: Attempt[Any] = Attempt(
        1, 0.0, 0.0, 0.1, AcceptorState.RETRY, None, None, None
    )
    second: Attempt[Any] = Attempt(
        2, 2.0, 2.0, 0.1, AcceptorState.RETRY, None, None, None
    )
    state = WaitState(0.0, 10.0, history=[first, second], history_limit=1)  # type: ignore[arg-type]
    assert isinstance(state.history, History)
    assert list(state.history) == [second]


def test_a_result_builds_its_history_once_and_keeps_value_semantics() -> None:
    attempt = Attempt(1, 0.0, 0.0, 0.1, AcceptorState.SUCCESS, 0, "out", None)
    result = WaiterResult("W", AcceptorState.SUCCESS, "out", 1, 0.1, History([attempt]))
    plain = WaiterResult("W", AcceptorState.SUCCESS, "out", 1, 0.1, (attempt,))
    assert result.history == (attempt,) and type(result.history) is tuple
    assert result.history is result.history
    assert result == plain and hash(result) == hash(plain)
    assert pickle.loads(pickle.dumps(result)) == plain
    assert copy.deepcopy(result) == plain
    assert result.last_attempt == attempt
    assert repr(result) == repr(plain)
    with pytest.raises(FrozenInstanceError):
        result.output = "other"


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 12), st.none() | st.integers(1, 5))
def test_a_waits_history_is_what_its_on_attempt_hook_saw(
    polls: int, limit: int | None
) -> None:
    seen: list[Attempt[Any]] = []
    calls = 0

    async def client(input: Any) -> dict[str, str]:
        nonlocal calls
        calls += 1
        await asyncio.sleep(0)
        return {"status": "success" if calls >= polls else "pending"}

    waiter = waiter_class(THING_EXISTS, AsyncWaiter)(
        client,
        clock=VirtualClock(),
        rng=random.Random(1),
        on_attempt=seen.append,
        history_limit=limit,
    )
    result = asyncio.run(waiter.wait({}, max_wait_time=600))
    assert result.attempts == polls == len(seen)
    assert list(result.history) == (seen if limit is None else seen[-limit:])
    assert [a.number for a in result.history][-1] == polls


def test_history_on_the_real_clock_without_sleeping() -> None:
    """RetryImmediately on the real clock: the history records every poll, nothing sleeps."""
    calls = 0

    async def client(input: Any) -> dict[str, str]:
        nonlocal calls
        calls += 1
        return {"status": "success" if calls == 4 else "pending"}

    waiter = waiter_class(THING_EXISTS, AsyncWaiter)(client, backoff=RetryImmediately())
    result = asyncio.run(waiter.wait({}, max_wait_time=600))
    states = [a.state for a in result.history]
    assert states == [AcceptorState.RETRY] * 3 + [AcceptorState.SUCCESS]
    assert [a.delay for a in result.history] == [0, 0, 0, 0]
    assert result.history[-1].acceptor_index == 1

"""Seed 002's pollers (`waitable.poller`): every example and default of the seed, on virtual time."""

from __future__ import annotations

import asyncio
import pickle
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from waitable import WaiterConfigurationError, WaiterError
from waitable.poller import (
    NotReady,
    PollAttempt,
    Poller,
    PollerState,
    PollStatus,
    Ready,
    RetriesExhaustedError,
    default_delay,
)
from waitable.receive import receive_next
from waitable.testing import VirtualClock


def answers(*items: Any) -> Callable[[], Any]:
    """A check answering `items` in order (the last repeats), counting its calls."""
    sequence: Iterator[Any] = iter(items)
    last: list[Any] = [None]

    def check() -> Any:
        check.calls += 1  # type: ignore[attr-defined]
        try:
            last[0] = next(sequence)
        except StopIteration:
            pass
        if isinstance(last[0], BaseException):
            raise last[0]
        return last[0]

    check.calls = 0  # type: ignore[attr-defined]
    return check


# --- seed 002's defaults --------------------------------------------------------------


def test_defaults_five_attempts_and_attempt_number_times_10_ms() -> None:
    clock = VirtualClock()
    check = answers(False)
    state = Poller(check, clock=clock).poll()
    assert state.status is PollStatus.RETRIES_EXHAUSTED and not state.fulfilled
    assert check.calls == 5  # type: ignore[attr-defined]
    assert [a.delay_before for a in state.history] == [0, 0.01, 0.02, 0.03, 0.04]
    assert state.attempt_num == 5 and state.next_delay is None
    assert state.total_delay == pytest.approx(0.1)
    assert clock.now() == pytest.approx(0.1)
    assert default_delay(PollerState(None, 7, None, None, 0.0, ())) == 0.07


def test_poll_or_raise_prints_the_history_like_seed_002() -> None:
    poller = Poller(answers(NotReady(None)), clock=VirtualClock())
    with pytest.raises(RetriesExhaustedError) as caught:
        poller.poll_or_raise()
    text = str(caught.value).splitlines()
    # The first attempt is made at once (seed 002's poll_once example: total_delay
    # is 30 ms after three attempts), so five attempts span 10+20+30+40 ms.
    assert text[0] == "Tried 5 times over 100ms, but condition was never met."
    assert text[1:] == [
        f"  attempt {n}: after {10 * (n - 1)}ms, not met, value None"
        for n in range(1, 6)
    ]
    assert caught.value.state.history[-1] == PollAttempt(5, 0.04, False, None)
    assert isinstance(caught.value, WaiterError) and caught.value.result.attempts == 5
    again = pickle.loads(pickle.dumps(caught.value))
    assert str(again) == str(caught.value)


def test_seed_002_walkthrough_the_click_arrives_on_the_third_check() -> None:
    clicks = answers(NotReady(None), NotReady(None), Ready({"id": 1}))
    clock = VirtualClock()
    assert Poller(clicks, clock=clock).poll_or_raise() == {"id": 1}
    assert clock.now() == pytest.approx(0.03)


def test_poll_returns_value_and_history() -> None:
    state = Poller(
        answers(NotReady(1), NotReady(2), Ready(3)), clock=VirtualClock()
    ).poll()
    assert state.status is PollStatus.OK and state.fulfilled and state.value == 3
    assert state.history == (
        PollAttempt(1, 0, False, 1),
        PollAttempt(2, 0.01, False, 2),
        PollAttempt(3, 0.02, True, 3),
    )


# --- seed 002's poll_once example, scheduled with receive_next -------------------------


def test_seed_002_poll_once_example() -> None:
    clock = VirtualClock()
    project = {"name": "project 1"}
    poller = Poller(answers(False, False, Ready(project)), clock=clock)

    async def scenario() -> PollerState:
        inbox: asyncio.Queue[tuple[str, Poller[Any]]] = asyncio.Queue()

        async def send_after(delay: float, message: tuple[str, Poller[Any]]) -> None:
            await clock.sleep_async(delay)
            inbox.put_nowait(message)

        state = poller.poll_once()
        assert state.status is PollStatus.ATTEMPT_FAILED
        assert state.next_delay == 0.010
        task = asyncio.create_task(send_after(state.next_delay, ("retry", poller)))
        [(tag, received)] = await receive_next(inbox, clock=clock)
        assert tag == "retry" and received is poller
        state = received.poll_once()
        assert state.status is PollStatus.ATTEMPT_FAILED
        assert state.next_delay == 0.020
        task = asyncio.create_task(send_after(state.next_delay, ("retry", poller)))
        [(tag, received)] = await receive_next(inbox, clock=clock)
        await task
        return received.poll_once()

    state = asyncio.run(scenario())
    assert state.status is PollStatus.OK
    assert state.attempt_num == 3
    assert state.next_delay is None
    assert state.total_delay == 0.030
    assert state.value == project
    assert clock.now() == pytest.approx(0.03)


def test_poll_once_reports_retries_exhausted_and_a_finished_poller_stays_finished() -> (
    None
):
    check = answers(False)
    poller = Poller(check, max_attempts=2, clock=VirtualClock())
    assert poller.poll_once().status is PollStatus.ATTEMPT_FAILED
    final = poller.poll_once()
    assert final.status is PollStatus.RETRIES_EXHAUSTED and final.next_delay is None
    assert poller.poll_once() is final and poller.poll() is final
    assert check.calls == 2  # type: ignore[attr-defined]
    with pytest.raises(RetriesExhaustedError, match="Tried 2 times over 10ms"):
        poller.poll_or_raise()


def test_poll_after_poll_once_continues_the_session_and_sleeps_only_what_is_left() -> (
    None
):
    clock = VirtualClock()
    poller = Poller(answers(False, False, True), delay=5, clock=clock)
    assert poller.poll_once().next_delay == 5
    clock.advance(2)  # the caller waited 2 of the 5 seconds before giving up
    state = poller.poll()
    assert state.fulfilled and state.attempt_num == 3
    assert clock.now() == 10  # attempt 2 at 5, attempt 3 at 10


def test_poller_state_before_any_attempt() -> None:
    assert Poller(answers(True)).state == PollerState(None, 0, None, None, 0.0, ())


# --- check results ------------------------------------------------------------------


@pytest.mark.parametrize("bad", [None, 1, "yes", {"ok": True}])
def test_a_check_must_answer_true_false_ready_or_not_ready(bad: Any) -> None:
    with pytest.raises(WaiterConfigurationError, match="return True or False"):
        Poller(answers(bad), clock=VirtualClock()).poll()


def test_an_exception_from_the_check_propagates_unchanged_and_counts() -> None:
    boom = LookupError("no database")
    check = answers(False, boom, True)
    poller = Poller(check, clock=VirtualClock())
    with pytest.raises(LookupError) as caught:
        poller.poll()
    assert caught.value is boom
    assert caught.value.__context__ is None and caught.value.__cause__ is None
    assert poller.state.attempt_num == 2
    assert poller.poll().fulfilled  # polling again continues the session


def test_retry_on_counts_an_exception_as_an_unmet_attempt() -> None:
    state = Poller(
        answers(ConnectionError(), NotReady(1), True),
        retry_on=(ConnectionError,),
        clock=VirtualClock(),
    ).poll()
    assert [a.fulfilled for a in state.history] == [False, False, True]


def test_a_sync_poll_refuses_an_async_check() -> None:
    async def check() -> bool:
        return True

    with pytest.raises(WaiterConfigurationError, match="poll_async"):
        Poller(check, clock=VirtualClock()).poll()


# --- delay and max_attempts ------------------------------------------------------------


def test_delay_as_a_number() -> None:
    clock = VirtualClock()
    state = Poller(answers(False, False, True), delay=0.25, clock=clock).poll()
    assert [a.delay_before for a in state.history] == [0, 0.25, 0.25]
    assert clock.now() == 0.5


def test_delay_as_a_function_of_the_poller_state() -> None:
    seen: list[PollerState] = []

    def doubling(state: PollerState) -> float:
        seen.append(state)
        return 2.0**state.attempt_num

    clock = VirtualClock()
    Poller(
        answers(NotReady("a"), NotReady("b"), Ready("c")), delay=doubling, clock=clock
    ).poll()
    assert [s.attempt_num for s in seen] == [1, 2]
    assert [s.value for s in seen] == ["a", "b"]
    assert [s.total_delay for s in seen] == [0, 2]
    assert all(s.status is PollStatus.ATTEMPT_FAILED for s in seen)
    assert clock.now() == 6


def test_max_attempts_none_is_unlimited() -> None:
    check = answers(*([False] * 49 + [True]))
    state = Poller(check, max_attempts=None, delay=1, clock=VirtualClock()).poll()
    assert state.fulfilled and state.attempt_num == 50


def test_max_attempts_as_a_function_decides_after_each_failed_attempt() -> None:
    check = answers(NotReady(1), NotReady(2), NotReady(3), NotReady(4))
    poller = Poller(
        check, max_attempts=lambda state: state.value < 3, clock=VirtualClock()
    )
    state = poller.poll()
    assert state.status is PollStatus.RETRIES_EXHAUSTED and state.attempt_num == 3
    with pytest.raises(RetriesExhaustedError, match="Tried 3 times over 30ms"):
        poller.poll_or_raise()


@pytest.mark.parametrize(
    "options, message",
    [
        ({"delay": -1}, "delay must be a finite number"),
        ({"delay": "10ms"}, "delay must be seconds"),
        ({"max_attempts": 0}, "max_attempts must be an integer >= 1"),
        ({"timeout": 0}, "timeout"),
        ({"retry_on": ValueError}, "retry_on must be a tuple"),
    ],
)
def test_bad_options_are_refused_at_construction(
    options: dict[str, Any], message: str
) -> None:
    with pytest.raises(WaiterConfigurationError, match=message):
        Poller(answers(True), **options)


def test_a_delay_or_max_attempts_function_must_answer_in_kind() -> None:
    with pytest.raises(
        WaiterConfigurationError, match="return a finite number of seconds"
    ):
        Poller(answers(False), delay=lambda s: "soon", clock=VirtualClock()).poll()  # type: ignore[arg-type, return-value]
    with pytest.raises(WaiterConfigurationError, match="must return True"):
        Poller(answers(False), max_attempts=lambda s: 3, clock=VirtualClock()).poll()  # type: ignore[arg-type, return-value]


def test_a_timeout_ends_the_session_with_a_final_check_at_the_deadline() -> None:
    clock = VirtualClock()
    check = answers(False)
    poller = Poller(check, delay=0.3, max_attempts=None, timeout=1, clock=clock)
    state = poller.poll()
    assert state.status is PollStatus.RETRIES_EXHAUSTED
    # Checks every 0.3 s; the last one is made at the deadline, none after it.
    delays = [a.delay_before for a in state.history]
    assert delays[0] == 0 and set(delays[1:-1]) == {0.3} and delays[-1] <= 0.3
    assert [round(a.delay_before, 9) for a in state.history] == [0, 0.3, 0.3, 0.3, 0.1]
    assert poller.state.history[-1].attempt_num == check.calls  # type: ignore[attr-defined]
    assert clock.now() == pytest.approx(1.0)
    with pytest.raises(RetriesExhaustedError, match="within the timeout of 1000ms"):
        poller.poll_or_raise()


@settings(max_examples=200, deadline=None)
@given(
    delay=st.integers(0, 1000).map(lambda ms: ms / 1000),
    max_attempts=st.integers(1, 12),
    met_at=st.none() | st.integers(1, 15),
)
def test_attempts_delays_and_time_agree_for_any_settings(
    delay: float, max_attempts: int, met_at: int | None
) -> None:
    clock = VirtualClock()
    check = answers(*([False] * ((met_at or 100) - 1) + [Ready("v")]))
    state = Poller(check, delay=delay, max_attempts=max_attempts, clock=clock).poll()
    made = max_attempts if met_at is None else min(met_at, max_attempts)
    met = met_at is not None and met_at <= max_attempts
    assert check.calls == made == state.attempt_num  # type: ignore[attr-defined]
    assert state.fulfilled is met
    assert state.value == ("v" if met else None)
    assert state.total_delay == pytest.approx(delay * (made - 1))
    assert clock.now() == pytest.approx(delay * (made - 1))
    assert [a.attempt_num for a in state.history] == list(range(1, made + 1))


# --- asyncio -------------------------------------------------------------------------


def test_poll_async_with_an_async_check() -> None:
    calls = 0

    async def check() -> Any:
        nonlocal calls
        calls += 1
        await asyncio.sleep(0)
        return Ready(calls) if calls == 3 else NotReady(calls)

    clock = VirtualClock()
    value = asyncio.run(Poller(check, clock=clock).poll_or_raise_async())
    assert value == 3 and clock.now() == pytest.approx(0.03)


def test_poll_once_async_and_exhaustion_async() -> None:
    async def scenario() -> tuple[PollerState, PollerState]:
        poller = Poller(answers(False), max_attempts=2, clock=VirtualClock())
        first = await poller.poll_once_async()
        second = await poller.poll_once_async()
        with pytest.raises(RetriesExhaustedError):
            await poller.poll_or_raise_async()
        return first, second

    first, second = asyncio.run(scenario())
    assert first.status is PollStatus.ATTEMPT_FAILED and first.next_delay == 0.01
    assert second.status is PollStatus.RETRIES_EXHAUSTED


def test_async_and_sync_polls_record_the_same_history() -> None:
    items = (NotReady(1), False, NotReady(3), Ready(4))
    sync_state = Poller(answers(*items), clock=VirtualClock()).poll()
    async_state = asyncio.run(
        Poller(answers(*items), clock=VirtualClock()).poll_async()
    )
    assert sync_state == async_state


def test_the_check_at_the_deadline_may_take_the_final_check_time() -> None:
    clock = VirtualClock()
    calls = 0

    def slow_check() -> bool:
        nonlocal calls
        calls += 1
        clock.advance(0.05)  # each check takes 50 ms
        return clock.now() > 1.0

    state = Poller(
        slow_check, delay=0.3, max_attempts=None, timeout=1, clock=clock
    ).poll()
    assert state.fulfilled
    assert clock.now() == pytest.approx(1.05)
    assert state.attempt_num == calls

"""A poller's `delay` and `max_attempts` functions: what they are handed, what it costs, and
the error when `delay=` answers a number the engine cannot sleep.

Each function is called after every failed attempt with the `PollerState`, whose
`history` is an immutable tuple of every attempt. Building it must cost one
conversion per attempt over the whole session (not one per attempt per call,
which made a long session quadratic), and a tuple handed out earlier must never
change.
"""

from __future__ import annotations

import asyncio
import math
import re
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import waitable.history
import waitable.poller
from waitable import WaiterConfigurationError
from waitable.poller import (
    NotReady,
    PollAttempt,
    Poller,
    PollerState,
    PollStatus,
    Ready,
)
from waitable.seconds import MAX_SECONDS
from waitable.testing import VirtualClock


class Counted:
    """Wraps a module's conversion function, counting its calls."""

    def __init__(self, function: Callable[..., Any]) -> None:
        self.function = function
        self.calls = 0

    def __call__(self, *args: Any) -> Any:
        self.calls += 1
        return self.function(*args)


@pytest.fixture
def conversions(monkeypatch: pytest.MonkeyPatch) -> tuple[Counted, Counted]:
    """Counts of `PollAttempt`s made from `Attempt`s, and of `Attempt`s read from the history."""
    to_poll_attempt = Counted(waitable.poller._attempt)
    read = Counted(waitable.history._attempt)
    monkeypatch.setattr(waitable.poller, "_attempt", to_poll_attempt)
    monkeypatch.setattr(waitable.history, "_attempt", read)
    return to_poll_attempt, read


def failing_until(n: int) -> Callable[[], Any]:
    """A check that fails `n - 1` times, then answers `Ready(n)`."""
    calls = [0]

    def check() -> Any:
        calls[0] += 1
        return Ready(calls[0]) if calls[0] >= n else NotReady(calls[0])

    return check


# --- cost: one conversion per attempt, whatever the session's length ------------------

ATTEMPTS = 300


def assert_linear(conversions: tuple[Counted, Counted]) -> None:
    """Each attempt became one `PollAttempt`; the history was read a few times per attempt
    (the engine reads the newest one itself), not once per attempt per call."""
    to_poll_attempt, read = conversions
    assert to_poll_attempt.calls == ATTEMPTS
    assert read.calls <= 3 * ATTEMPTS


def test_a_delay_function_costs_one_conversion_per_attempt(
    conversions: tuple[Counted, Counted],
) -> None:
    poller = Poller(
        failing_until(ATTEMPTS),
        delay=lambda state: 1.0,
        max_attempts=None,
        clock=VirtualClock(),
    )
    state = poller.poll()
    assert state.fulfilled and state.attempt_num == ATTEMPTS
    # Converting the whole history on each of the 299 calls made ~45,000 of each.
    assert_linear(conversions)


def test_a_max_attempts_function_with_a_delay_function_costs_one_conversion_per_attempt(
    conversions: tuple[Counted, Counted],
) -> None:
    poller = Poller(
        failing_until(ATTEMPTS + 1),
        delay=lambda state: 0.5,
        max_attempts=lambda state: state.attempt_num < ATTEMPTS,
        clock=VirtualClock(),
    )
    state = poller.poll()
    assert state.status is PollStatus.RETRIES_EXHAUSTED
    assert state.attempt_num == ATTEMPTS
    assert_linear(conversions)


def test_poll_once_and_state_cost_one_conversion_per_attempt(
    conversions: tuple[Counted, Counted],
) -> None:
    poller = Poller(
        failing_until(ATTEMPTS),
        delay=lambda state: 2,
        max_attempts=lambda state: True,
        clock=VirtualClock(),
    )
    while True:
        state = poller.poll_once()
        assert poller.state.history is state.history  # no new tuple without an attempt
        if state.status is not PollStatus.ATTEMPT_FAILED:
            break
    assert state.fulfilled and state.attempt_num == ATTEMPTS
    assert_linear(conversions)


def test_async_sessions_cost_one_conversion_per_attempt(
    conversions: tuple[Counted, Counted],
) -> None:
    poller = Poller(
        failing_until(ATTEMPTS),
        delay=lambda state: 1,
        max_attempts=None,
        clock=VirtualClock(),
    )
    state = asyncio.run(poller.poll_async())
    assert state.fulfilled
    assert_linear(conversions)


# --- what the functions are handed ----------------------------------------------------

answer = st.sampled_from([False, NotReady(None), NotReady("x"), NotReady(7)])


@settings(max_examples=80)
@given(
    st.lists(answer, min_size=1, max_size=12),
    st.lists(st.integers(0, 5).map(lambda ms: ms / 4), min_size=13, max_size=13),
    st.booleans(),
)
def test_the_functions_see_every_attempt_in_tuples_that_never_change(
    answers: list[Any], delays: list[float], met_at_end: bool
) -> None:
    script = answers + ([Ready("done")] if met_at_end else [])
    calls = [0]

    def check() -> Any:
        calls[0] += 1
        return script[calls[0] - 1]

    seen: list[PollerState] = []
    stops: list[PollerState] = []

    def delay(state: PollerState) -> float:
        seen.append(state)
        return delays[state.attempt_num - 1]

    def may_retry(state: PollerState) -> bool:
        stops.append(state)
        return state.attempt_num < len(script)

    final = Poller(
        check, delay=delay, max_attempts=may_retry, clock=VirtualClock()
    ).poll()

    expected: list[PollAttempt] = []
    before = 0.0
    for number, item in enumerate(script, start=1):
        value = item.value if isinstance(item, (Ready, NotReady)) else None
        expected.append(PollAttempt(number, before, isinstance(item, Ready), value))
        before = delays[number - 1]
    assert final.history == tuple(expected)
    assert type(final.history) is tuple
    for states in (seen, stops):
        for state in states:  # kept from earlier calls: unchanged by later attempts
            number = state.attempt_num
            assert type(state.history) is tuple
            assert state.history == tuple(expected[:number])
            assert state.value == expected[number - 1].value
            assert state.status is PollStatus.ATTEMPT_FAILED
    assert [s.attempt_num for s in stops] == list(range(1, len(answers) + 1))


# --- a delay function answering a number no sleep can take ----------------------------


def too_soon(state: PollerState) -> float:
    """A user's delay rule answering -1."""
    return -1


@pytest.mark.parametrize(
    "value",
    [
        -1,
        -0.001,
        math.nan,
        math.inf,
        -math.inf,
        MAX_SECONDS + 1,
        pytest.param(10**400, id="10**400"),
    ],
)
def test_a_delay_function_out_of_range_is_named_with_its_value(value: Any) -> None:
    poller = Poller(lambda: False, delay=lambda state: value, clock=VirtualClock())
    with pytest.raises(WaiterConfigurationError) as caught:
        poller.poll()
    message = str(caught.value)
    assert re.search(r"the delay= function \S*<lambda> returned", message)
    assert "after attempt 1" in message
    assert f"from 0 to {MAX_SECONDS}" in message
    assert "_backoff" not in message and "bound method" not in message
    if isinstance(value, float):
        assert repr(value) in message


@pytest.mark.parametrize("value", ["soon", None, True, [1]])
def test_a_delay_function_answering_not_a_number_is_named_with_its_value(
    value: Any,
) -> None:
    poller = Poller(lambda: False, delay=lambda state: value, clock=VirtualClock())
    with pytest.raises(
        WaiterConfigurationError, match=r"the delay= function \S*<lambda> returned"
    ):
        poller.poll()


def test_the_error_names_the_function_in_every_form_of_polling() -> None:
    def sessions() -> list[Callable[[Poller[Any]], Any]]:
        return [
            lambda p: p.poll(),
            lambda p: p.poll_or_raise(),
            lambda p: (p.poll_once(), p.poll_once()),
            lambda p: asyncio.run(p.poll_async()),
            lambda p: asyncio.run(p.poll_or_raise_async()),
        ]

    for run in sessions():
        poller = Poller(lambda: False, delay=too_soon, clock=VirtualClock())
        with pytest.raises(
            WaiterConfigurationError,
            match=r"the delay= function too_soon returned -1 after attempt 1",
        ):
            run(poller)


@settings(max_examples=150)
@given(st.floats(allow_nan=True, allow_infinity=True) | st.integers(-(2**70), 2**70))
def test_any_delay_is_taken_when_in_range_and_refused_clearly_otherwise(
    value: float,
) -> None:
    clock = VirtualClock()
    poller = Poller(
        lambda: False, delay=lambda state: value, max_attempts=2, clock=clock
    )
    if 0 <= value <= MAX_SECONDS:
        state = poller.poll()
        assert state.history[1].delay_before == value
        assert clock.now() == value
    else:
        with pytest.raises(
            WaiterConfigurationError, match=r"the delay= function \S*<lambda> returned"
        ):
            poller.poll()


def test_a_fixed_delay_beyond_what_a_sleep_takes_is_refused_at_construction() -> None:
    with pytest.raises(WaiterConfigurationError, match="100 years"):
        Poller(lambda: False, delay=MAX_SECONDS + 1)
    assert Poller(lambda: False, delay=MAX_SECONDS).delay == MAX_SECONDS

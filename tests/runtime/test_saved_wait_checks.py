"""A saved wait is untrusted input: `SavedWait.from_json`/`from_data` hold every setting
to the rules `start()` applied to it, so a tampered record is refused with a
`WaiterConfigurationError` naming the field, before `poll_once` sends a request,
while every record the code itself writes (any valid wait) still loads unchanged.
"""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from waitable import SavedWait, WaiterConfigurationError, WaiterError
from waitable.custom import custom_waiter, path, success
from waitable.seconds import MAX_SECONDS
from waitable.testing import VirtualClock

WALL_START = 1_700_000_000.0

Thing = custom_waiter(
    "Thing", acceptors=[success(path("status") == "ok")], min_delay=2, max_delay=120
)
LateThing = custom_waiter(
    "Thing",
    acceptors=[success(path("status") == "ok")],
    min_delay=2,
    max_delay=120,
    delay_before_first_attempt=True,
)


class Answers:
    """An operation answering `status` values in order (the last repeats), counting calls."""

    def __init__(self, *statuses: str) -> None:
        self.statuses = list(statuses)
        self.calls = 0

    def __call__(self, request: Any) -> dict[str, Any]:
        self.calls += 1
        status = self.statuses[min(self.calls, len(self.statuses)) - 1]
        return {"status": status}


def started(**options: Any) -> tuple[Any, dict[str, Any], Answers]:
    """A waiter on virtual time (with an `on_attempt` hook), its fresh record as data, its operation."""
    clock = VirtualClock(0.0, wall_start=WALL_START)
    answers = Answers("pending")
    waiter = Thing(answers, clock=clock, on_attempt=lambda attempt: None)
    options.setdefault("max_wait_time", 600)
    data = json.loads(waiter.start({}, **options).to_json())
    return waiter, data, answers


def tampered(field: str, value: Any, **options: Any) -> tuple[Any, dict[str, Any]]:
    waiter, data, _ = started(**options)
    data[field] = value
    return waiter, data


# --- the review's cases: each was accepted and then crashed inside poll_once ----------

REFUSED = [
    ("min_delay", 0, "positive"),
    ("min_delay", -5, "positive"),
    ("min_delay", -2.5, "positive"),
    ("min_delay", MAX_SECONDS + 1, "100 years"),
    ("min_delay", "2", "number of seconds"),
    ("min_delay", True, "number of seconds"),
    ("max_delay", 1, "at most the record's max_delay"),  # below min_delay 2
    ("max_delay", 0, "positive"),
    ("max_wait_time", -5, "positive"),
    ("max_wait_time", 0, "positive"),
    ("max_wait_time", MAX_SECONDS * 2, "100 years"),
    ("next_delay", -3, "from 0"),
    ("next_delay", 1e300, "from 0"),
    ("total_delay", -1, ">= 0"),
    ("max_attempts", 0, "integer >= 1"),
    ("max_attempts", -1, "integer >= 1"),
    ("max_attempts", 2.5, "integer >= 1"),
    ("max_attempts", False, "integer >= 1"),
    ("history_limit", 0, "integer >= 1"),
    ("history_limit", -1, "integer >= 1"),
    ("history_limit", 2.5, "integer >= 1"),
    ("history_limit", None, "integer >= 1"),
]


@pytest.mark.parametrize(("field", "value", "allowed"), REFUSED)
def test_an_out_of_range_setting_is_refused_at_load_naming_field_and_value(
    field: str, value: Any, allowed: str
) -> None:
    waiter, data = tampered(field, value)
    with pytest.raises(WaiterConfigurationError) as caught:
        SavedWait.from_json(json.dumps(data))
    message = str(caught.value)
    shown = "min_delay" if allowed.startswith("at most the record") else field
    assert f"saved wait's {shown} must be" in message
    assert allowed in message
    assert repr(data[shown]) in message


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf])
@pytest.mark.parametrize(
    "field", ["min_delay", "max_delay", "max_wait_time", "next_delay", "total_delay"]
)
def test_non_finite_seconds_are_refused(field: str, value: float) -> None:
    # JSON has no NaN or infinity, but Python's json module reads them, and
    # from_data takes any dict.
    _, data = tampered(field, value)
    with pytest.raises(WaiterConfigurationError, match=f"saved wait's {field}"):
        SavedWait.from_data(data)


def test_history_limit_zero_with_an_on_attempt_hook_is_refused_before_any_call() -> (
    None
):
    waiter, data, answers = started()
    data["history_limit"] = 0
    with pytest.raises(WaiterConfigurationError, match="history_limit"):
        waiter.poll_once(SavedWait.from_json(json.dumps(data)))
    assert answers.calls == 0


def test_a_wait_with_neither_deadline_nor_cap_is_refused() -> None:
    _, data = tampered("max_wait_time", None)
    data["deadline"] = None
    with pytest.raises(WaiterConfigurationError, match="max_attempts is null"):
        SavedWait.from_data(data)


def test_a_deadline_dropped_from_a_wait_that_has_one_is_refused() -> None:
    _, data = tampered("deadline", None)
    with pytest.raises(WaiterConfigurationError, match="saved wait's deadline"):
        SavedWait.from_data(data)


def test_an_overflowing_history_entry_is_a_clear_error() -> None:
    waiter, data, _ = started()
    step = waiter.poll_once(SavedWait.from_data(data))
    data = step.state.to_data()
    data["history"][0]["number"] = math.inf  # int(inf): OverflowError
    with pytest.raises(WaiterConfigurationError, match="saved wait"):
        SavedWait.from_data(data)


# --- every record the code writes loads, unchanged ------------------------------------

delays = st.one_of(st.integers(1, 300), st.floats(0.001, 300.0), st.just(MAX_SECONDS))


@st.composite
def wait_settings(draw: st.DrawFn) -> dict[str, Any]:
    """Keyword arguments of `start()`: any valid wait, with or without a deadline."""
    low = draw(delays)
    high = draw(st.one_of(st.just(low), delays.filter(lambda d: d >= low)))
    options: dict[str, Any] = {
        "min_delay": low,
        "max_delay": high,
        "seed": draw(st.integers(0, 2**32)),
        "history_limit": draw(st.none() | st.integers(1, 4)),
        "max_attempts": draw(st.none() | st.integers(1, 6)),
    }
    options["max_wait_time"] = draw(
        st.one_of(
            st.integers(1, 10_000),
            st.floats(0.01, 10_000.0),
            st.just(MAX_SECONDS),
            st.none() if options["max_attempts"] is not None else st.nothing(),
        )
    )
    return options


@settings(max_examples=120)
@given(wait_settings(), st.booleans(), st.integers(1, 6))
def test_every_record_the_code_writes_round_trips(
    options: dict[str, Any], first_delay: bool, polls: int
) -> None:
    clock = VirtualClock(0.0, wall_start=WALL_START)
    answers = Answers(*["pending"] * (polls - 1), "ok")
    waiter = (LateThing if first_delay else Thing)(
        answers, clock=clock, on_attempt=lambda attempt: None
    )
    saved = waiter.start({"id": 7}, **options)
    while True:
        text = saved.to_json()
        loaded = SavedWait.from_json(text)
        assert loaded.to_data() == saved.to_data()
        assert loaded.to_json() == text
        clock.advance(loaded.next_delay)
        try:
            step = waiter.poll_once(loaded)
        except WaiterError:
            return  # timed out or out of attempts: the wait's own error
        if step.done:
            return
        saved = step.state


# --- a tampered field: refused at load, or a record that polls like any other ---------

FIELDS = [
    "waiter",
    "max_wait_time",
    "min_delay",
    "max_delay",
    "max_attempts",
    "started_at",
    "deadline",
    "rng_state",
    "attempts",
    "next_delay",
    "next_poll_at",
    "final",
    "total_delay",
    "history",
    "history_limit",
]

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=6,
)


@settings(max_examples=300)
@given(st.sampled_from(FIELDS), json_values)
def test_any_tampered_field_is_refused_or_polls_without_a_raw_error(
    field: str, value: Any
) -> None:
    waiter, data, _ = started(max_attempts=3)
    data[field] = value
    try:
        saved = SavedWait.from_data(data)
    except WaiterConfigurationError:
        return
    for _ in range(3):
        try:
            step = waiter.poll_once(saved)
        except (WaiterError, WaiterConfigurationError):
            return  # the wait's own error, or a refusal naming the setting
        if step.done:
            return
        saved = SavedWait.from_json(step.state.to_json())


@st.composite
def out_of_range(draw: st.DrawFn) -> tuple[str, Any]:
    """A setting and a number outside what `start()` allows for it."""
    too_big = st.floats(MAX_SECONDS, exclude_min=True, allow_infinity=True)
    not_positive = st.floats(max_value=0.0, allow_infinity=True) | st.integers(
        max_value=0
    )
    negative = st.floats(max_value=0.0, exclude_max=True) | st.integers(max_value=-1)
    cases = {
        "min_delay": not_positive | too_big,
        "max_delay": not_positive | too_big | st.floats(0.001, 1.999),  # < min_delay
        "max_wait_time": not_positive | too_big,
        "next_delay": negative | st.floats(2 * MAX_SECONDS, exclude_min=True),
        "total_delay": negative | st.just(math.inf),
        "max_attempts": st.integers(max_value=0) | st.floats(allow_nan=True),
        "history_limit": st.integers(max_value=0) | st.floats(allow_nan=True),
        "attempts": st.integers(max_value=-1),
    }
    field = draw(st.sampled_from(sorted(cases)))
    return field, draw(cases[field])


@settings(max_examples=200)
@given(out_of_range())
def test_any_out_of_range_setting_is_refused_with_a_configuration_error(
    case: tuple[str, Any],
) -> None:
    field, value = case
    _, data = tampered(field, value)
    with pytest.raises(WaiterConfigurationError, match="saved wait"):
        SavedWait.from_data(data)

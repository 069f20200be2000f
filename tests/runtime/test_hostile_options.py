"""max_wait_time, min_delay, max_delay and max_attempts: anything odd is a clear
`WaiterConfigurationError` (a ValueError) naming the waiter and the option, never
an OverflowError or a raw ValueError, and never a request made."""

from __future__ import annotations

import decimal
import fractions
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from waitable import (
    Acceptor,
    AcceptorState,
    SuccessMatcher,
    WaiterConfigurationError,
    WaiterDefinition,
    WaiterDefinitionError,
)
from waitable.backoff import SmithyBackoff
from waitable.options import resolve_options, validate_max_attempts, validate_seconds
from waitable.seconds import MAX_SECONDS

from .harness import DRIVERS, THING_EXISTS


class NumberLike:
    """A numpy-like object that is no real number to Python's `numbers` module."""

    def __float__(self) -> float:
        return 5.0


class BrokenFloat(fractions.Fraction):
    """A real number whose conversion to float fails."""

    def __float__(self) -> float:
        raise ArithmeticError("no")


BAD_SECONDS = [
    10**400,
    10**5000,
    -(10**400),
    math.nan,
    math.inf,
    -math.inf,
    -1,
    -0.5,
    0,
    0.0,
    True,
    False,
    "300",
    None,
    decimal.Decimal("300"),
    decimal.Decimal("sNaN"),
    NumberLike(),
    [300],
    MAX_SECONDS + 1,
    1e300,
]


@pytest.mark.parametrize("driver", sorted(DRIVERS))
@pytest.mark.parametrize("option", ["max_wait_time", "min_delay", "max_delay"])
@pytest.mark.parametrize("bad", BAD_SECONDS, ids=lambda v: type(v).__name__)
def test_a_bad_number_of_seconds_is_refused_before_any_request(
    driver: str, option: str, bad: Any
) -> None:
    if option != "max_wait_time" and bad is None:
        return  # None means "the waiter's own delay"
    options = {"max_wait_time": 60, option: bad}
    with pytest.raises(WaiterConfigurationError) as info:
        DRIVERS[driver](THING_EXISTS, [{"status": "success"}], **options)
    message = str(info.value)
    assert isinstance(info.value, ValueError)
    assert message.startswith(f"waiter ThingExists: {option} ")
    assert "pass e.g." in message or "max_wait_time is required" in message
    assert info.value.__cause__ is None  # one clear line, no chained traceback
    assert info.value.__context__ is None or info.value.__suppress_context__


@pytest.mark.parametrize(
    "bad", [0, -1, 2.5, True, "3", None, decimal.Decimal(3), math.inf, 3.0]
)
def test_a_bad_max_attempts_is_refused(bad: Any) -> None:
    if bad is None:
        assert validate_max_attempts("W", bad) is None
        return
    with pytest.raises(WaiterConfigurationError, match="waiter W: max_attempts must"):
        validate_max_attempts("W", bad)


def test_a_huge_max_attempts_is_a_cap_like_any_other() -> None:
    assert validate_max_attempts("W", 10**400) == 10**400


@pytest.mark.parametrize(
    ("value", "expected"),
    [(7, 7), (2.5, 2.5), (fractions.Fraction(3, 2), 1.5), (MAX_SECONDS, MAX_SECONDS)],
)
def test_good_seconds_keep_their_meaning(value: Any, expected: float) -> None:
    """Ints stay ints (whole-second jitter); other real numbers become floats."""
    seconds = validate_seconds("W", "min_delay", value)
    assert seconds == expected and type(seconds) is type(expected)


def test_a_real_number_whose_float_fails_is_refused() -> None:
    with pytest.raises(WaiterConfigurationError, match="cannot be read as a number"):
        validate_seconds("W", "max_delay", BrokenFloat(3, 2))


@given(
    value=st.one_of(
        st.integers(),
        st.integers(min_value=10**300, max_value=10**400),
        st.floats(),
        st.decimals(),
        st.fractions(),
        st.text(max_size=4),
        st.booleans(),
        st.none(),
    )
)
@settings(max_examples=300, deadline=None)
def test_validate_seconds_returns_a_sane_number_or_refuses(value: Any) -> None:
    try:
        seconds = validate_seconds("W", "max_wait_time", value)
    except WaiterConfigurationError as error:
        assert str(error).startswith("waiter W: max_wait_time ")
        return
    assert 0 < seconds <= MAX_SECONDS and math.isfinite(seconds)


@given(
    low=st.one_of(st.none(), st.integers(-5, 10**10), st.floats()),
    high=st.one_of(st.none(), st.integers(-5, 10**10), st.floats()),
    attempts=st.one_of(st.none(), st.integers(-2, 10**30), st.floats()),
)
@settings(max_examples=300, deadline=None)
def test_resolve_options_raises_only_its_own_error(
    low: Any, high: Any, attempts: Any
) -> None:
    try:
        options = resolve_options(
            THING_EXISTS,
            max_wait_time=60,
            min_delay=low,
            max_delay=high,
            max_attempts=attempts,
            backoff=SmithyBackoff(),
        )
    except WaiterConfigurationError:
        return
    assert 0 < options.min_delay <= options.max_delay <= MAX_SECONDS


@pytest.mark.parametrize("bad", [math.inf, math.nan, 10**400, 0, -1, True, "2"])
def test_definition_delays_pass_the_same_check(bad: Any) -> None:
    with pytest.raises(WaiterDefinitionError, match="waiter 'W' of operation 'Op'"):
        WaiterDefinition(
            "W",
            "Op",
            (Acceptor(AcceptorState.SUCCESS, SuccessMatcher(True)),),
            min_delay=bad,
        )

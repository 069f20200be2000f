"""The one check every delay and time limit passes, so none can overflow a clock or a sleep.

A number of seconds must be a real number (not a `bool`, a string or a
`Decimal`), finite, greater than 0 and at most `MAX_SECONDS` (100 years: far
beyond any wait, well inside what `time.sleep`, asyncio and a float deadline
accept). Integers stay integers, so whole-second delays keep whole-second jitter.
"""

from __future__ import annotations

import math
import numbers
import operator

__all__ = [
    "MAX_SECONDS",
    "SecondsError",
    "describe_value",
    "is_plain_delay",
    "parse_seconds",
]

MAX_SECONDS = 100 * 365 * 24 * 3600
"""The largest number of seconds accepted anywhere (100 years)."""


_WHAT = (
    f"must be a positive, finite number of seconds, at most {MAX_SECONDS} (100 years)"
)


class SecondsError(ValueError):
    """Why a value is not a number of seconds, and what to pass instead (no waiter named)."""


def is_plain_delay(value: object) -> bool:
    """True for a delay taken as it is: an exact `int` or `float` from 0 to
    `MAX_SECONDS` (anything else a backoff returns goes through the full check)."""
    kind = type(value)
    return (kind is float or kind is int) and 0 <= value <= MAX_SECONDS  # type: ignore[operator]


def describe_value(value: object) -> str:
    """A short `repr` of `value` for an error message; never raises."""
    try:
        text = repr(value)
    except Exception:  # an int past the digit limit, a broken __repr__
        if isinstance(value, int):
            return f"an int of {value.bit_length()} bits"
        return f"a {type(value).__name__}"
    return text if len(text) <= 60 else text[:57] + "..."


def parse_seconds(value: object) -> float:
    """`value` as seconds (an `int` stays an `int`), or `SecondsError` saying why not."""
    shown = describe_value(value)
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise SecondsError(
            "must be a number of seconds (an int or a float), "
            f"got {shown} of type {type(value).__name__}"
        )
    try:
        if isinstance(value, numbers.Integral):
            seconds: float = operator.index(value)
        else:
            seconds = float(value)
    except OverflowError:
        seconds = math.inf
    except Exception as exc:
        raise SecondsError(
            f"{_WHAT}, got {shown}, which cannot be read as a number "
            f"({type(exc).__name__})"
        ) from None
    if not 0 < seconds <= MAX_SECONDS:  # NaN fails both comparisons
        raise SecondsError(f"{_WHAT}, got {shown}")
    return seconds

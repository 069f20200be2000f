"""One rule for `max_attempts`, per call and in `WaiterConfig`: any integer >= 1
(an `Integral` such as numpy's `int64` included, as `wait(max_attempts=...)`
already took), never a bool, a float or 0; the error names where it was given."""

from __future__ import annotations

import numbers
from typing import Any

import pytest

from waitable import WaiterConfig
from waitable.errors import WaiterConfigurationError
from waitable.options import validate_max_attempts


class _Count:
    """An integer type that is no `int` (as numpy's are): an `Integral` by
    registration, read through `__index__`."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value

    def __int__(self) -> int:
        return self.value


numbers.Integral.register(_Count)


@pytest.mark.parametrize("value", [1, 40, _Count(7)])
def test_integers_are_taken_alike(value: Any) -> None:
    expected = int(value)
    assert WaiterConfig(max_attempts=value).max_attempts == expected
    assert type(WaiterConfig(max_attempts=value).max_attempts) is int
    assert validate_max_attempts("W", value) == expected


@pytest.mark.parametrize("value", [0, -1, True, 2.0, "3", _Count(0)])
def test_the_rest_is_refused_alike(value: Any) -> None:
    with pytest.raises(WaiterConfigurationError, match="WaiterConfig: max_attempts"):
        WaiterConfig(max_attempts=value)
    with pytest.raises(WaiterConfigurationError, match="waiter W: max_attempts"):
        validate_max_attempts("W", value)

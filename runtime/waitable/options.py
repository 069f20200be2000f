"""The per-call settings of one wait, checked before any request is made.

The spec requires callers to say how long they will wait, so `max_wait_time` is
mandatory and must be a positive, finite number of seconds. `min_delay` and
`max_delay` override the waiter's own; `max_attempts` caps the number of polls.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .backoff import Backoff
from .definition import WaiterDefinition
from .errors import WaiterConfigurationError

__all__ = ["WaitOptions", "resolve_options"]


@dataclass(frozen=True, slots=True)
class WaitOptions:
    """Validated settings for one wait: deadline, delay bounds, attempt cap, strategy."""

    max_wait_time: float
    min_delay: float
    max_delay: float
    max_attempts: int | None
    backoff: Backoff


def _seconds(waiter: str, name: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise WaiterConfigurationError(
            f"waiter {waiter}: {name} must be a number of seconds, got {value!r}"
        )
    if not math.isfinite(value) or value <= 0:
        raise WaiterConfigurationError(
            f"waiter {waiter}: {name} must be a positive, finite number of seconds, "
            f"got {value!r}"
        )
    return value


def resolve_options(
    definition: WaiterDefinition,
    *,
    max_wait_time: float | None,
    min_delay: float | None,
    max_delay: float | None,
    max_attempts: int | None,
    backoff: Backoff,
) -> WaitOptions:
    """Merge the caller's overrides with the definition, or raise `WaiterConfigurationError`."""
    name = definition.name
    if max_wait_time is None:
        raise WaiterConfigurationError(
            f"waiter {name}: max_wait_time is required, the Smithy waiters spec requires "
            "every caller to say how long they will wait; "
            "pass e.g. wait(..., max_wait_time=300) for five minutes"
        )
    max_wait_time = _seconds(name, "max_wait_time", max_wait_time)
    low = (
        definition.min_delay
        if min_delay is None
        else _seconds(name, "min_delay", min_delay)
    )
    high = (
        definition.max_delay
        if max_delay is None
        else _seconds(name, "max_delay", max_delay)
    )
    if low > high:
        raise WaiterConfigurationError(
            f"waiter {name}: min_delay {low:g} is greater than max_delay {high:g}; "
            "pass both min_delay and max_delay with min_delay <= max_delay"
        )
    if max_attempts is not None and (
        isinstance(max_attempts, bool)
        or not isinstance(max_attempts, int)
        or max_attempts < 1
    ):
        raise WaiterConfigurationError(
            f"waiter {name}: max_attempts must be an integer >= 1 (or None for no cap), "
            f"got {max_attempts!r}"
        )
    if not callable(backoff):
        raise WaiterConfigurationError(
            f"waiter {name}: backoff must be a strategy such as waitable.SmithyBackoff() "
            f"or a function of a RetryContext, got {backoff!r}"
        )
    return WaitOptions(max_wait_time, low, high, max_attempts, backoff)

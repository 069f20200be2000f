"""The per-call settings of one wait, checked before any request is made.

The spec requires callers to say how long they will wait, so `max_wait_time` is
mandatory. It, `min_delay` and `max_delay` (which override the waiter's own) must
be numbers of seconds as `waitable.seconds` defines them: finite, greater than 0,
at most 100 years, never a `bool`, string or `Decimal`. `max_attempts` caps the
number of polls. `resolve_options` raises nothing but `WaiterConfigurationError`
(a `ValueError`) whatever it is given; `validate_seconds` and
`validate_max_attempts` are the same checks for one option, for a constructor.
"""

from __future__ import annotations

import inspect
import numbers
import operator
from dataclasses import dataclass
from typing import Any

from .backoff import Backoff
from .definition import WaiterDefinition
from .errors import WaiterConfigurationError
from .seconds import SecondsError, describe_value, parse_seconds

__all__ = [
    "exception_types",
    "given_backoff",
    "makes_strategies",
    "refuse_class",
    "WaitOptions",
    "resolve_options",
    "seconds_option",
    "validate_backoff",
    "validate_max_attempts",
    "validate_seconds",
]


@dataclass(frozen=True, slots=True)
class WaitOptions:
    """Validated settings for one wait: deadline, delay bounds, attempt cap, strategy."""

    max_wait_time: float
    min_delay: float
    max_delay: float
    max_attempts: int | None
    backoff: Backoff


def validate_seconds(waiter_name: str, option_name: str, value: object) -> float:
    """`value` as the seconds of option `option_name`, or `WaiterConfigurationError`.

    An `int` comes back as an `int`, anything else as a `float`.
    """
    return seconds_option(f"waiter {waiter_name}", option_name, value)


def seconds_option(owner: str, option_name: str, value: object) -> float:
    """`validate_seconds` for any `owner` the error names ("poller check",
    "receive_next"), not only a waiter."""
    try:
        return parse_seconds(value)
    except SecondsError as exc:
        raise WaiterConfigurationError(
            f"{owner}: {option_name} {exc}; "
            f"pass e.g. {option_name}=300 for five minutes"
        ) from None


def validate_max_attempts(waiter_name: str, value: object) -> int | None:
    """`value` as a cap on polls (an `int` >= 1, or None for no cap), or `WaiterConfigurationError`."""
    return attempts_cap(f"waiter {waiter_name}", value)


def attempts_cap(owner: str, value: object) -> int | None:
    """`value` as a cap on polls: any integer >= 1 (a numpy integer too, never a
    bool) as an `int`, or None for no cap; else `WaiterConfigurationError` naming
    `owner`. One rule for per-call options and `WaiterConfig`."""
    if value is None:
        return None
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        try:
            attempts = operator.index(value)
        except Exception:
            attempts = 0
        if attempts >= 1:
            return attempts
    raise WaiterConfigurationError(
        f"{owner}: max_attempts must be an integer >= 1 (or None for no cap), "
        f"got {describe_value(value)}; pass e.g. max_attempts=10"
    )


def exception_types(owner: str, value: object) -> tuple[type[BaseException], ...]:
    """`value` as `retry_on`: a tuple of exception classes (empty for none), or
    `WaiterConfigurationError` naming `owner` and showing the tuple to pass."""
    if isinstance(value, tuple) and all(
        isinstance(t, type) and issubclass(t, BaseException) for t in value
    ):
        return value
    listed = value if isinstance(value, (tuple, list, set, frozenset)) else (value,)
    classes = [
        t for t in listed if isinstance(t, type) and issubclass(t, BaseException)
    ]
    if not listed:
        example = "()"  # an empty list or set: no retries, which is the empty tuple
    else:
        example = f"({', '.join(t.__name__ for t in classes) or 'OSError'},)"
    raise WaiterConfigurationError(
        f"{owner}: retry_on must be a tuple of exception types, got "
        f"{describe_value(value)}; pass e.g. retry_on={example}"
    )


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
            "pass e.g. wait(..., max_wait_time=300) for five minutes, or give the "
            "waiter config=WaiterConfig(wait_timeout=300)"
        )
    max_wait_time = validate_seconds(name, "max_wait_time", max_wait_time)
    low = (
        definition.min_delay
        if min_delay is None
        else validate_seconds(name, "min_delay", min_delay)
    )
    high = (
        definition.max_delay
        if max_delay is None
        else validate_seconds(name, "max_delay", max_delay)
    )
    if low > high:
        raise WaiterConfigurationError(
            f"waiter {name}: min_delay {low:g} is greater than max_delay {high:g}; "
            "pass both min_delay and max_delay with min_delay <= max_delay"
        )
    attempts = validate_max_attempts(name, max_attempts)
    return WaitOptions(
        max_wait_time, low, high, attempts, validate_backoff(name, backoff)
    )


def makes_strategies(cls: type) -> bool:
    """Whether the instances of `cls` are callable, as a strategy class's are
    (`FixedDelay`, or a caller's own), so that `cls()` is what was meant."""
    if getattr(cls, "_is_protocol", False) or issubclass(cls, type):
        return False  # `Backoff` (a Protocol) and metaclasses make no strategies
    return any("__call__" in vars(base) for base in cls.__mro__ if base is not object)


def refuse_class(owner: str, option: str, value: object, method: str) -> None:
    """Refuse a class given where one of its instances is meant
    (`policy=StandardRetryPolicy`, `rate_limit=RateLimiter`): its `method` is a
    plain function on the class, so the duck-typed check for the method passed
    and the first call raised a bare `TypeError` about a missing argument. A
    class whose `method` is a static or class method serves as it is."""
    if isinstance(value, type) and inspect.isfunction(
        inspect.getattr_static(value, method, None)
    ):
        name = value.__name__
        raise WaiterConfigurationError(
            f"{owner}: {option} must be an instance, got the class {name}; pass "
            f"an instance of it: {name}(...)"
        )


def given_backoff(backoff: object) -> str:
    """What was passed as `backoff` and is no strategy, for the error's "got ..."."""
    if isinstance(backoff, type):  # `dict`: not a strategy, nor are its instances
        return f"the class {backoff.__name__}, which is not a backoff strategy"
    return describe_value(backoff)


def validate_backoff(name: str, backoff: Any) -> Backoff:
    """`backoff` when it is a strategy (callable); else an error for waiter `name`
    that says what to pass (a named strategy belongs in a `WaiterConfig`).

    A class (`FixedDelay` for `FixedDelay()`) is refused here: called with a
    `RetryContext` it returns an instance, refused only after the first request.
    """
    if isinstance(backoff, type) and makes_strategies(backoff):
        raise WaiterConfigurationError(
            f"waiter {name}: backoff must be a strategy, got the class "
            f"{backoff.__name__}; pass an instance: {backoff.__name__}()"
        )
    if callable(backoff) and not isinstance(backoff, type):
        strategy: Backoff = backoff
        return strategy
    named = type(backoff).__name__ == "NamedStrategy"
    raise WaiterConfigurationError(
        f"waiter {name}: backoff must be a strategy such as waitable.SmithyBackoff() "
        f"or a function of a RetryContext, got {given_backoff(backoff)}"
        + (
            "; a named strategy goes in config=WaiterConfig(backoff=...), which "
            "also sets the delays it names"
            if named
            else ""
        )
    )

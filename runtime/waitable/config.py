"""`WaiterConfig`: a waiter's override configuration, seed 004's `WaiterOverrideConfiguration`.

One frozen record of `max_attempts`, `wait_timeout` (our `max_wait_time`),
`backoff`, `min_delay` and `max_delay`, given to a waiter's constructor as its
defaults. A `wait()` argument wins over the config, the config over the model.
`named_strategy` maps seed 004's backoff names onto `waitable.backoff` classes.

The deadline: the Java SDK gives up as soon as `elapsed + next delay` would pass
`waitTimeout`, with time left unpolled. Every strategy here follows the Smithy
spec's last-attempt rule instead (the engine applies it after any strategy): when
`remaining - delay <= min_delay` the final check is made at the deadline, so a
resource ready before the deadline is still seen. Seed 004's `delay`/`baseDelay`
becomes `min_delay`, so that rule's margin is the strategy's own delay.
"""

from __future__ import annotations

import inspect

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .backoff import (
    Backoff,
    ExponentialDelay,
    ExponentialFullJitter,
    ExponentialHalfJitter,
    FixedDelay,
    FixedDelayWithJitter,
    RetryImmediately,
    SmithyBackoff,
)
from .errors import WaiterConfigurationError
from .options import attempts_cap, given_backoff, makes_strategies
from .seconds import SecondsError, describe_value, parse_seconds

__all__ = ["STRATEGY_NAMES", "NamedStrategy", "WaiterConfig", "named_strategy"]


@dataclass(frozen=True, slots=True)
class NamedStrategy:
    """A seed 004 backoff strategy: its name, our strategy object, the delay bounds it sets.

    Seed 004's `delay`/`baseDelay` becomes our `min_delay`, its `maxDelay` our
    `max_delay` (the bounds our strategies read from the `RetryContext`).
    """

    name: str
    backoff: Backoff
    min_delay: float | None = None
    max_delay: float | None = None


def _seconds(owner: str, option: str, value: object) -> float:
    """`value` as seconds for `option`, or a `WaiterConfigurationError` saying what to pass."""
    try:
        return parse_seconds(value)
    except SecondsError as exc:
        raise WaiterConfigurationError(
            f"{owner}: {option} {exc}; pass e.g. {option}=15"
        ) from None


def _retry_immediately() -> NamedStrategy:
    return NamedStrategy("retryImmediately", RetryImmediately())


def _fixed(name: str, backoff: Backoff) -> Callable[..., NamedStrategy]:
    def build(*, delay: float = 5) -> NamedStrategy:
        # Seed 004's delays are continuous (the Java SDK draws milliseconds): as a
        # float the bound makes `random(x, y)` uniform, not whole seconds.
        seconds = float(_seconds(name, "delay", delay))
        return NamedStrategy(name, backoff, seconds, seconds)

    return build


#: Seed 004's default `maxDelay` for the exponential strategies.
_EXPONENTIAL_MAX_DELAY = 20


def _exponential(name: str, backoff: Backoff) -> Callable[..., NamedStrategy]:
    def build(
        *, base_delay: float = 1, max_delay: float | None = None
    ) -> NamedStrategy:
        base = float(_seconds(name, "base_delay", base_delay))  # continuous, as above
        given = max_delay is not None
        cap = float(
            _seconds(name, "max_delay", max_delay) if given else _EXPONENTIAL_MAX_DELAY
        )
        if base > cap and given:
            raise WaiterConfigurationError(
                f"{name}: base_delay {base:g} is greater than max_delay {cap:g}; "
                "pass base_delay <= max_delay"
            )
        if base > cap:  # the caller never wrote the 20: say where it comes from
            raise WaiterConfigurationError(
                f"{name}: base_delay {base:g} is greater than max_delay, which "
                f"defaults to {cap:g}; pass base_delay <= {cap:g}, or also pass "
                f"max_delay >= {base:g}"
            )
        return NamedStrategy(name, backoff, base, cap)

    return build


def _smithy(
    *, min_delay: float | None = None, max_delay: float | None = None
) -> NamedStrategy:
    low = None if min_delay is None else _seconds("smithy", "min_delay", min_delay)
    high = None if max_delay is None else _seconds("smithy", "max_delay", max_delay)
    return NamedStrategy("smithy", SmithyBackoff(), low, high)


#: Seed 004's names (and `smithy`, the spec's default) → builders of `NamedStrategy`.
_BUILDERS: dict[str, Callable[..., NamedStrategy]] = {
    "smithy": _smithy,
    "retryImmediately": _retry_immediately,
    # delay = d
    "fixedDelayWithoutJitter": _fixed("fixedDelayWithoutJitter", FixedDelay()),
    # delay = random(0, d)
    "fixedDelay": _fixed("fixedDelay", FixedDelayWithJitter()),
    # delay = min(baseDelay × 2^(attempt-1), maxDelay)
    "exponentialDelayWithoutJitter": _exponential(
        "exponentialDelayWithoutJitter", ExponentialDelay()
    ),
    # delay = random(0, min(baseDelay × 2^(attempt-1), maxDelay))
    "exponentialDelay": _exponential("exponentialDelay", ExponentialFullJitter()),
    # e = min(baseDelay × 2^(attempt-1), maxDelay); delay = random(e / 2, e)
    "exponentialDelayHalfJitter": _exponential(
        "exponentialDelayHalfJitter", ExponentialHalfJitter()
    ),
}

STRATEGY_NAMES: tuple[str, ...] = tuple(_BUILDERS)


def checked_config(waiter: str, config: object) -> WaiterConfig:
    """`config` when it is a `WaiterConfig` (a waiter's constructor argument, or one
    set later), else the error naming `waiter`."""
    if not isinstance(config, WaiterConfig):
        raise WaiterConfigurationError(
            f"waiter {waiter}: config must be a waitable.WaiterConfig, "
            f"got {type(config).__name__}"
        )
    return config


def named_strategy(name: str, **params: Any) -> NamedStrategy:
    """Seed 004's strategy `name` with its parameters, e.g. `named_strategy("fixedDelay", delay=15)`.

    Parameters: `delay` for the fixed delays, `base_delay` and `max_delay` for the
    exponential ones, `min_delay`/`max_delay` for `smithy`; none for `retryImmediately`.
    """
    builder = _BUILDERS.get(name) if isinstance(name, str) else None
    if builder is None:
        raise WaiterConfigurationError(
            f"unknown backoff strategy {describe_value(name)}; use one of "
            f"{', '.join(STRATEGY_NAMES)}"
        )
    taken = inspect.signature(builder).parameters
    unknown = sorted(set(params) - set(taken))
    if unknown:
        raise WaiterConfigurationError(
            f"backoff strategy {name}: unknown parameter(s) {', '.join(unknown)}; "
            f"{name} takes "
            + (", ".join(f"{option}=" for option in taken) or "no parameters")
        )
    return builder(**params)


def _no_conflict(
    strategy: NamedStrategy, option: str, given: object, named: float | None
) -> None:
    """Refuse a config bound that a named strategy also sets, to another value."""
    if given is None or named is None:
        return
    if _seconds("WaiterConfig", option, given) != named:
        raise WaiterConfigurationError(
            f"WaiterConfig: {option}={describe_value(given)} conflicts with "
            f"{strategy.name}, whose parameters set {option} to {named:g}; give "
            "the delay once, in named_strategy(...) or here"
        )


@dataclass(frozen=True, slots=True)
class WaiterConfig:
    """A waiter's override configuration; None leaves a setting to the model.

    `backoff` is a strategy (`waitable.backoff`) or a `named_strategy(...)`, whose
    delay bounds fill `min_delay`/`max_delay` (given here too, they must agree).
    """

    max_attempts: int | None = None
    wait_timeout: float | None = None
    backoff: Backoff | NamedStrategy | None = None
    min_delay: float | None = None
    max_delay: float | None = None

    def __post_init__(self) -> None:
        owner = "WaiterConfig"
        strategy = self.backoff
        low, high = self.min_delay, self.max_delay
        if isinstance(strategy, NamedStrategy):
            _no_conflict(strategy, "min_delay", low, strategy.min_delay)
            _no_conflict(strategy, "max_delay", high, strategy.max_delay)
            object.__setattr__(self, "backoff", strategy.backoff)
            # The strategy's own bound when it sets one (equal to a bound given here
            # too, and a float, so a continuous strategy's jitter stays continuous).
            low = low if strategy.min_delay is None else strategy.min_delay
            high = high if strategy.max_delay is None else strategy.max_delay
        elif isinstance(strategy, type) and makes_strategies(strategy):
            # FixedDelay for FixedDelay(): see options.validate_backoff
            raise WaiterConfigurationError(
                f"{owner}: backoff must be a strategy, got the class "
                f"{strategy.__name__}; pass an instance: {strategy.__name__}()"
            )
        elif strategy is not None and (
            isinstance(strategy, type) or not callable(strategy)
        ):
            raise WaiterConfigurationError(
                f"{owner}: backoff must be a strategy such as waitable.SmithyBackoff() "
                f"or named_strategy('fixedDelay', delay=5), got {given_backoff(strategy)}"
            )
        if low is not None:
            low = _seconds(owner, "min_delay", low)
        if high is not None:
            high = _seconds(owner, "max_delay", high)
        if low is not None and high is not None and low > high:
            raise WaiterConfigurationError(
                f"{owner}: min_delay {low:g} is greater than max_delay {high:g}; "
                "pass min_delay <= max_delay"
            )
        object.__setattr__(self, "min_delay", low)
        object.__setattr__(self, "max_delay", high)
        if self.wait_timeout is not None:
            object.__setattr__(
                self, "wait_timeout", _seconds(owner, "wait_timeout", self.wait_timeout)
            )
        object.__setattr__(self, "max_attempts", attempts_cap(owner, self.max_attempts))

    @property
    def strategy(self) -> Backoff | None:
        """The backoff strategy object (a `NamedStrategy` given is unfolded at construction)."""
        backoff = self.backoff
        return None if isinstance(backoff, NamedStrategy) else backoff

    def fill(
        self,
        max_wait_time: float | None,
        min_delay: float | None,
        max_delay: float | None,
        max_attempts: int | None,
    ) -> tuple[float | None, float | None, float | None, int | None]:
        """A wait's arguments with each one left None taken from this config."""
        return (
            self.wait_timeout if max_wait_time is None else max_wait_time,
            self.min_delay if min_delay is None else min_delay,
            self.max_delay if max_delay is None else max_delay,
            self.max_attempts if max_attempts is None else max_attempts,
        )

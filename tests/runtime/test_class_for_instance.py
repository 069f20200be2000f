"""A class passed where one of its instances is meant is refused when it is given.

`policy=StandardRetryPolicy`, `token_bucket=StandardRetryTokenBucket`,
`retry(StandardRetryPolicy, block)`, a waiter's `retry=StandardRetryStrategy` and
`rate_limit=RateLimiter` passed the duck-typed checks (the class has the method)
and failed at the first call with a bare `TypeError` ("missing 1 required
positional argument"), for a waiter only once it waited. They are refused at
once, naming the option and saying to pass an instance (as `backoff=FixedDelay`
already was). A class whose method is static serves as it is. Virtual clock.
"""

from __future__ import annotations

from typing import Any, Callable

import pytest

from waitable import RateLimiter, WaiterConfigurationError
from waitable.retry import (
    TERMINATE_AND_SUCCEED,
    StandardRetryPolicy,
    StandardRetryStrategy,
    StandardRetryTokenBucket,
)
from waitable.testing import VirtualClock

from .harness import THING_EXISTS, Script, waiter_class


def waiter(**options: Any) -> Any:
    clock = VirtualClock()
    script = Script(clock, [{"status": "success"}])
    return waiter_class(THING_EXISTS)(script, clock=clock, **options)


CASES: dict[str, tuple[Callable[[], Any], str]] = {
    "policy=": (
        lambda: StandardRetryStrategy(policy=StandardRetryPolicy),  # type: ignore[arg-type]
        "StandardRetryStrategy: policy must be an instance, got the class "
        "StandardRetryPolicy",
    ),
    "token_bucket=": (
        lambda: StandardRetryStrategy(token_bucket=StandardRetryTokenBucket),  # type: ignore[arg-type]
        "StandardRetryStrategy: token_bucket must be an instance, got the class "
        "StandardRetryTokenBucket",
    ),
    "retry(policy)": (
        lambda: StandardRetryStrategy(clock=VirtualClock()).retry(
            StandardRetryPolicy, lambda: 1  # type: ignore[arg-type]
        ),
        "StandardRetryStrategy.retry: policy must be an instance",
    ),
    "waiter retry=": (
        lambda: waiter(retry=StandardRetryStrategy),
        "waiter ThingExists: retry must be an instance, got the class "
        "StandardRetryStrategy",
    ),
    "waiter rate_limit=": (
        lambda: waiter(rate_limit=RateLimiter),
        "waiter ThingExists: rate_limit must be an instance, got the class "
        "RateLimiter",
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_class_is_refused_when_given_saying_to_pass_an_instance(case: str) -> None:
    make, message = CASES[case]
    with pytest.raises(WaiterConfigurationError) as caught:
        make()
    assert str(caught.value).startswith(message)
    assert "pass an instance of it" in str(caught.value)


class AlwaysSucceed:
    """A policy class whose `evaluate` is static: the class itself is a policy."""

    @staticmethod
    def evaluate(outcome: Any) -> Any:
        return TERMINATE_AND_SUCCEED


def test_a_class_with_a_static_method_still_serves_as_it_is() -> None:
    strategy = StandardRetryStrategy(policy=AlwaysSucceed, clock=VirtualClock())  # type: ignore[arg-type]
    assert strategy.retry(AlwaysSucceed, lambda: "done") == "done"  # type: ignore[arg-type]

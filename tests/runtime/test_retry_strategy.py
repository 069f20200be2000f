"""`StandardRetryStrategy.retry(policy, block)`: seed 001's strategy on the one engine.

The block runs at least once; a token is taken before the first try; after each
try exactly one of success, failure or schedule-retry; the backoff comes before
each retry and never before the first try; too many attempts, a timeout and a
terminal failure are distinct errors with the last outcome chained. Sync and async.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from waitable import Backoff, ExponentialDelay, FixedDelay, WaiterConfigurationError
from waitable.flow import CutOff, Raised, Returned
from waitable.retry import (
    TERMINATE_AND_FAIL,
    TERMINATE_AND_SUCCEED,
    RetryAttemptsExceededError,
    RetryError,
    RetryErrorType,
    RetryFailedError,
    RetryTimeoutError,
    StandardRetryPolicy,
    StandardRetryStrategy,
    StandardRetryTokenBucket,
)
from waitable.testing import VirtualClock

from .harness import ServiceError

THROTTLED = ServiceError("ThrottlingException")


class RecordingBucket(StandardRetryTokenBucket):
    """A standard bucket that logs every token call, to check seed 001's protocol."""

    def __init__(self, log: list[str], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.log = log

    def acquire_token(self, now: float) -> Any:
        self.log.append("acquire")
        token = super().acquire_token(now)
        log = self.log

        class Watched:
            wait = token.wait

            def notify_success(self, now: float) -> None:
                log.append("success")
                token.notify_success(now)

            def notify_failure(self, now: float) -> None:
                log.append("failure")
                token.notify_failure(now)

            def schedule_retry(self, reason: Any, now: float) -> float:
                log.append(f"retry:{RetryErrorType(reason).value}")
                return token.schedule_retry(reason, now)

        return Watched()


def script(
    clock: VirtualClock, replies: list[Any], log: list[str]
) -> Callable[[], Any]:
    """A block that logs when it runs and answers from `replies` (the last repeats)."""
    calls = iter(range(10**6))

    def block() -> Any:
        index = min(next(calls), len(replies) - 1)
        log.append(f"try@{clock.now():g}")
        reply = replies[index]
        if isinstance(reply, BaseException):
            raise reply
        return reply

    return block


def make(clock: VirtualClock, log: list[str], **kwargs: Any) -> StandardRetryStrategy:
    kwargs.setdefault("backoff", FixedDelay(1.0))
    return StandardRetryStrategy(
        clock=clock,
        rng=random.Random(0),
        token_bucket=RecordingBucket(log),
        **kwargs,
    )


def run(
    strategy: StandardRetryStrategy, block: Callable[[], Any], asynchronous: bool
) -> Any:
    policy = StandardRetryPolicy()
    if not asynchronous:
        return strategy.retry(policy, block)

    async def call() -> Any:
        return block()

    return asyncio.run(strategy.retry_async(policy, call))


@pytest.mark.parametrize("asynchronous", [False, True])
def test_a_success_at_once_takes_a_token_and_returns_it(asynchronous: bool) -> None:
    clock, log = VirtualClock(), []
    strategy = make(clock, log)
    assert run(strategy, script(clock, ["ok"], log), asynchronous) == "ok"
    assert log == ["acquire", "try@0", "success"]


@pytest.mark.parametrize("asynchronous", [False, True])
def test_retries_back_off_before_each_retry_and_never_before_the_first_try(
    asynchronous: bool,
) -> None:
    clock, log = VirtualClock(), []
    strategy = make(clock, log, backoff=ExponentialDelay(1.0))
    block = script(clock, [THROTTLED, THROTTLED, "ok"], log)
    assert run(strategy, block, asynchronous) == "ok"
    assert log == [
        "acquire",
        "try@0",
        "retry:Throttling",
        "try@1",
        "retry:Throttling",
        "try@3",
        "success",
    ]


@pytest.mark.parametrize("asynchronous", [False, True])
def test_too_many_attempts_is_its_own_error_with_the_last_error_chained(
    asynchronous: bool,
) -> None:
    clock, log = VirtualClock(), []
    last = ServiceError("ThrottlingException", "the last one")
    block = script(clock, [THROTTLED, THROTTLED, last], log)
    with pytest.raises(RetryAttemptsExceededError, match="after 3 tries") as caught:
        run(make(clock, log), block, asynchronous)
    assert caught.value.__cause__ is last
    assert caught.value.attempts == 3
    assert log[-1] == "failure" and log.count("acquire") == 1


@pytest.mark.parametrize("asynchronous", [False, True])
def test_a_terminal_error_fails_at_once(asynchronous: bool) -> None:
    clock, log = VirtualClock(), []
    error = ValueError("not retryable")
    with pytest.raises(RetryFailedError, match="final") as caught:
        run(make(clock, log), script(clock, [error], log), asynchronous)
    assert caught.value.__cause__ is error
    assert log == ["acquire", "try@0", "failure"]


@pytest.mark.parametrize("asynchronous", [False, True])
def test_max_time_ends_the_retries_as_a_timeout(asynchronous: bool) -> None:
    clock, log = VirtualClock(), []
    strategy = make(clock, log, max_attempts=100, max_time=2.5)
    with pytest.raises(RetryTimeoutError, match="max_time") as caught:
        run(strategy, script(clock, [THROTTLED], log), asynchronous)
    assert isinstance(caught.value.__cause__, ServiceError)
    tries = [entry for entry in log if entry.startswith("try@")]
    assert tries == ["try@0", "try@1", "try@2"]
    assert clock.now() <= 2.5


def test_the_three_errors_are_distinct_classes() -> None:
    kinds = {RetryAttemptsExceededError, RetryTimeoutError, RetryFailedError}
    assert len(kinds) == 3
    for kind in kinds:
        assert not any(issubclass(kind, other) for other in kinds - {kind})


class ResponsePolicy:
    """A policy that retries a response: `{"status": 503}` is a server-side error."""

    def evaluate(self, outcome: Returned | Raised | CutOff) -> Any:
        if isinstance(outcome, Returned):
            if outcome.output.get("status") == 503:
                return RetryError(RetryErrorType.SERVER_SIDE)
            if outcome.output.get("status") == 400:
                return TERMINATE_AND_FAIL
            return TERMINATE_AND_SUCCEED
        return TERMINATE_AND_FAIL


def test_a_policy_can_retry_a_response_and_fail_on_one() -> None:
    clock, log = VirtualClock(), []
    block = script(clock, [{"status": 503}, {"status": 200}], log)
    assert make(clock, log).retry(ResponsePolicy(), block) == {"status": 200}
    log.clear()
    with pytest.raises(RetryFailedError, match="a value"):
        make(clock, log).retry(ResponsePolicy(), script(clock, [{"status": 400}], log))


@settings(max_examples=50, deadline=None)
@given(
    failures=st.integers(0, 6),
    max_attempts=st.integers(1, 5),
    asynchronous=st.booleans(),
)
def test_every_try_is_resolved_exactly_once(
    failures: int, max_attempts: int, asynchronous: bool
) -> None:
    """Seed 001: after each try exactly one of success, failure or schedule-retry."""
    clock, log = VirtualClock(), []
    block = script(clock, [THROTTLED] * failures + ["ok"], log)
    strategy = make(clock, log, max_attempts=max_attempts)
    try:
        run(strategy, block, asynchronous)
    except RetryAttemptsExceededError:
        pass
    tries = [i for i, entry in enumerate(log) if entry.startswith("try@")]
    assert log[0] == "acquire" and log.count("acquire") == 1
    assert len(tries) == min(failures + 1, max_attempts)
    for index in tries:
        assert log[index + 1] in {"success", "failure", "retry:Throttling"}
    assert sum(entry in {"success", "failure"} for entry in log) == 1


def test_arguments_are_checked() -> None:
    with pytest.raises(WaiterConfigurationError, match="max_attempts"):
        StandardRetryStrategy(max_attempts=0)
    with pytest.raises(WaiterConfigurationError, match="max_time"):
        StandardRetryStrategy(max_time=float("nan"))
    with pytest.raises(WaiterConfigurationError, match="policy"):
        StandardRetryStrategy().retry(object(), lambda: 1)  # type: ignore[arg-type]


@pytest.mark.parametrize("max_backoff", [-2.5, float("nan"), float("inf"), True, "5"])
def test_a_bad_max_backoff_is_refused_when_the_strategy_is_made(
    max_backoff: Any,
) -> None:
    with pytest.raises(WaiterConfigurationError, match="max_backoff"):
        StandardRetryStrategy(max_backoff=max_backoff)


@pytest.mark.parametrize(
    "backoff, said",
    [
        (FixedDelay, "got the class FixedDelay; pass an instance: FixedDelay()"),
        (dict, "got the class dict, which is not a backoff strategy"),
        (Backoff, "got the class Backoff, which is not a backoff strategy"),
        (type, "got the class type, which is not a backoff strategy"),
        (3, "such as ExponentialFullJitter(), got 3"),
    ],
)
def test_a_backoff_that_is_no_strategy_is_refused_when_the_strategy_is_made(
    backoff: Any, said: str
) -> None:
    """A strategy class (callable: calling it makes an instance) was accepted and
    failed only at the first retry; every other class was taken as a strategy too."""
    with pytest.raises(WaiterConfigurationError) as caught:
        StandardRetryStrategy(backoff=backoff)
    assert said in str(caught.value)


class CountingPolicy(StandardRetryPolicy):
    """The standard policy, counting the outcomes it is asked about."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[str] = []

    def evaluate(self, outcome: Any) -> Any:
        self.seen.append(type(outcome).__name__)
        return super().evaluate(outcome)


@pytest.mark.parametrize("asynchronous", [False, True])
@given(failures=st.integers(0, 4))
@settings(max_examples=10, deadline=None)
def test_the_policy_is_asked_once_per_try(asynchronous: bool, failures: int) -> None:
    """Seed 001 evaluates each try's outcome once: a policy that counts its own
    calls (a retry budget) is charged one per try."""
    policy = CountingPolicy()
    tries: list[int] = []

    def block() -> str:
        tries.append(1)
        if len(tries) <= failures:
            raise TimeoutError("timed out")
        return "ok"

    async def block_async() -> str:
        return block()

    strategy = StandardRetryStrategy(max_attempts=5, clock=VirtualClock())
    if asynchronous:
        assert asyncio.run(strategy.retry_async(policy, block_async)) == "ok"
    else:
        assert strategy.retry(policy, block) == "ok"
    assert policy.seen == ["Raised"] * failures + ["Returned"]

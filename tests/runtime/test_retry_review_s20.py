"""Review s20 of the retry strategy: five fixes, each pinned by a test here.

1. A waiter's error for a call whose retries stopped says why they stopped, and
   advises `retry=` only when it is unset and the standard policy would retry.
2. `min_backoff` is the base of the default backoff (its default delays unchanged).
3. A try cut off at `max_time` (or answering after it) says so, with the last
   error a try raised chained.
4. `retry` refuses an async block and `retry_async` a synchronous one.
5. `policy` and `token_bucket` are checked when the strategy is made.

All on the virtual clock: nothing sleeps.
"""

from __future__ import annotations

import asyncio
import inspect
import random
import socket
import ssl
from collections.abc import Coroutine
from typing import Any

import pytest

from waitable import (
    ExponentialFullJitter,
    FixedDelay,
    WaiterConfigurationError,
    WaiterOperationError,
)
from waitable.flow import CutOff, Raised, Returned
from waitable.retry import (
    TERMINATE_AND_FAIL,
    RetryAttemptsExceededError,
    RetryDirective,
    RetryTimeoutError,
    StandardRetryPolicy,
    StandardRetryStrategy,
    StandardRetryTokenBucket,
)
from waitable.testing import VirtualClock

from .harness import DRIVERS, THING_EXISTS, ServiceError

THROTTLED = ServiceError("ThrottlingException")


def strategy(**kwargs: Any) -> StandardRetryStrategy:
    return StandardRetryStrategy(clock=VirtualClock(), rng=random.Random(1), **kwargs)


def failed_wait(
    driver: str, error: Exception, *, unset: bool = False, **retry: Any
) -> WaiterOperationError:
    """The error of a ThingExists wait whose every call raises `error`, with `retry=`
    a `StandardRetryStrategy(**retry)` unless `unset`."""
    kwargs = {} if unset else {"retry": strategy(**retry)}
    run = DRIVERS[driver](
        THING_EXISTS, [error], waiter_kwargs=kwargs, max_wait_time=600
    )
    assert isinstance(run.error, WaiterOperationError), run.error
    assert "\n" not in str(run.error)
    return run.error


# 1. The advice of a waiter's error for a call retried under `retry=`.


@pytest.mark.parametrize("driver", sorted(DRIVERS))
@pytest.mark.parametrize(
    "error", [ConnectionResetError("reset"), THROTTLED], ids=["transport", "service"]
)
def test_retries_stopped_at_max_attempts_say_so_and_do_not_advise_retry(
    driver: str, error: Exception
) -> None:
    caught = failed_wait(driver, error, max_attempts=3)
    assert caught.result.history[-1].retry_stopped == "max_attempts"
    message = str(caught)
    assert "stopped at the retry strategy's max_attempts: 3 tries (2 retries)" in (
        message
    )
    assert "raise max_attempts" in message
    assert "StandardRetryStrategy()" not in message  # retry= is already given
    assert "check the input" not in message


@pytest.mark.parametrize("driver", sorted(DRIVERS))
def test_retries_stopped_by_the_bucket_say_it_was_short(driver: str) -> None:
    bucket = StandardRetryTokenBucket(
        capacity=10, circuit_breaker=True, refill_units_per_second=0
    )
    caught = failed_wait(driver, THROTTLED, token_bucket=bucket)
    assert caught.result.history[-1].retry_stopped == "capacity"
    message = str(caught)
    assert "stopped after 2 tries (1 retry): the token bucket had no capacity" in (
        message
    )
    assert "StandardRetryStrategy()" not in message


@pytest.mark.parametrize("driver", sorted(DRIVERS))
def test_retries_stopped_at_max_time_say_so(driver: str) -> None:
    caught = failed_wait(
        driver, THROTTLED, max_attempts=10, max_time=2.5, backoff=FixedDelay(1.0)
    )
    assert caught.result.history[-1].retry_stopped == "max_time"
    message = str(caught)
    assert "stopped after 3 tries (2 retries): the next retry would have started " in (
        message
    )
    assert "max_time (2.5s)" in message and "raise max_time" in message


@pytest.mark.parametrize("driver", sorted(DRIVERS))
@pytest.mark.parametrize(
    "error",
    [
        socket.gaierror(-3, "Temporary failure in name resolution"),
        ssl.SSLCertVerificationError(1, "certificate verify failed"),
    ],
    ids=["gaierror", "certificate"],
)
def test_retry_is_advised_only_for_errors_the_standard_policy_retries(
    driver: str, error: Exception
) -> None:
    assert StandardRetryPolicy().evaluate(Raised(error)) == TERMINATE_AND_FAIL
    name = type(error).__name__
    unset = str(failed_wait(driver, error, unset=True))
    assert f"pass retry_on=({name},) to retry it" in unset
    assert "StandardRetryStrategy()" not in unset
    assert "the standard retry policy does not retry this error" in unset

    given = str(failed_wait(driver, error))
    assert "the retry strategy's policy does not retry it" in given
    assert "StandardRetryStrategy()" not in given

    # An error the standard policy retries is still advised retry= when it is unset.
    reset = str(failed_wait(driver, ConnectionResetError("reset"), unset=True))
    assert "retry= a waitable.retry.StandardRetryStrategy() to retry it" in reset


# 2. `min_backoff` is the default backoff's base.


def retry_delays(made: StandardRetryStrategy) -> list[float]:
    """The backoffs `made` waits before the retries of an always-throttled block."""

    def block() -> Any:
        raise THROTTLED

    with pytest.raises(RetryAttemptsExceededError) as caught:
        made.retry(StandardRetryPolicy(), block)
    last = caught.value.result.last_attempt
    assert last is not None
    return [retry.delay for retry in last.retries]


def retries(seed: int, **kwargs: Any) -> StandardRetryStrategy:
    return StandardRetryStrategy(
        max_attempts=9,
        token_bucket=None,
        clock=VirtualClock(),
        rng=random.Random(seed),
        **kwargs,
    )


@pytest.mark.parametrize("seed", range(20))
@pytest.mark.parametrize("max_backoff", [20.0, 3.0, 0.5])
def test_the_default_delays_are_unchanged(seed: int, max_backoff: float) -> None:
    """The old default, `ExponentialFullJitter(base=1.0)`, draw for draw."""
    old = retry_delays(
        retries(seed, max_backoff=max_backoff, backoff=ExponentialFullJitter(base=1.0))
    )
    assert retry_delays(retries(seed, max_backoff=max_backoff)) == old
    if max_backoff == 20.0:
        rng = random.Random(seed)
        assert old == [rng.uniform(0, min(20.0, 2.0 ** (n - 1))) for n in range(1, 9)]


@pytest.mark.parametrize("seed", range(20))
def test_min_backoff_is_the_default_backoffs_base(seed: int) -> None:
    """The README: the backoff before retry `n` is `random(0, min(c, b * 2^(n-1)))`
    with `b` = `min_backoff`."""
    delays = retry_delays(retries(seed, min_backoff=0.01))
    rng = random.Random(seed)
    assert delays == [
        rng.uniform(0, min(20.0, 0.01 * 2 ** (n - 1))) for n in range(1, 9)
    ]
    assert max(delays) <= 0.01 * 2**7


# 3. A try that did not end by max_time.


def test_a_sync_try_that_returns_after_max_time_says_so() -> None:
    clock = VirtualClock()

    def slow() -> str:
        clock.advance(6)
        return "ok"

    made = StandardRetryStrategy(max_time=5, clock=clock, rng=random.Random(0))
    with pytest.raises(RetryTimeoutError) as caught:
        made.retry(StandardRetryPolicy(), slow)
    message = str(caught.value)
    assert "the last try returned after max_time" in message
    assert "rejected" not in message
    assert caught.value.__cause__ is None  # no try raised


def test_a_sync_try_that_raises_after_max_time_is_chained() -> None:
    clock = VirtualClock()
    late = TimeoutError("read timed out")

    def slow() -> str:
        clock.advance(6)
        raise late

    made = StandardRetryStrategy(max_time=5, clock=clock, rng=random.Random(0))
    with pytest.raises(RetryTimeoutError) as caught:
        made.retry(StandardRetryPolicy(), slow)
    assert "the last try raised TimeoutError after max_time" in str(caught.value)
    assert caught.value.__cause__ is late


def test_a_sync_try_late_after_an_error_chains_that_error() -> None:
    clock = VirtualClock()
    first = TimeoutError("first")
    tries: list[int] = []

    def flaky() -> str:
        tries.append(1)
        if len(tries) == 1:
            raise first
        clock.advance(10)
        return "ok"

    made = StandardRetryStrategy(
        max_time=5, clock=clock, rng=random.Random(0), backoff=FixedDelay(1.0)
    )
    with pytest.raises(RetryTimeoutError) as caught:
        made.retry(StandardRetryPolicy(), flaky)
    assert "(the last error, TimeoutError, is chained)" in str(caught.value)
    assert caught.value.__cause__ is first


@pytest.mark.parametrize("fails_first", [False, True])
def test_an_async_try_cut_off_at_max_time_says_so_and_chains_the_last_error(
    fails_first: bool,
) -> None:
    clock = VirtualClock()
    first = TimeoutError("first")
    tries: list[int] = []

    async def flaky() -> str:
        tries.append(1)
        if fails_first and len(tries) == 1:
            raise first
        await clock.sleep_async(10)
        return "ok"

    made = StandardRetryStrategy(
        max_time=5, clock=clock, rng=random.Random(0), backoff=FixedDelay(1.0)
    )
    with pytest.raises(RetryTimeoutError) as caught:
        asyncio.run(made.retry_async(StandardRetryPolicy(), flaky))
    message = str(caught.value)
    assert "the last try was cut off at max_time" in message
    assert "rejected" not in message
    assert caught.value.__cause__ is (first if fails_first else None)
    assert clock.now() == 5


# 4. A block of the other kind.


def test_retry_refuses_a_coroutine_function_before_calling_it() -> None:
    called: list[int] = []

    async def block() -> int:
        called.append(1)
        return 1

    with pytest.raises(
        WaiterConfigurationError, match="use await strategy.retry_async"
    ):
        strategy().retry(StandardRetryPolicy(), block)
    assert not called


def test_retry_refuses_a_block_that_returns_a_coroutine_and_closes_it() -> None:
    made: list[Coroutine[Any, Any, int]] = []
    tokens: list[Any] = []

    async def answer() -> int:
        return 1

    def block() -> Any:
        made.append(answer())
        return made[-1]

    class Bucket(StandardRetryTokenBucket):
        def acquire_token(self, now: float) -> Any:
            tokens.append(super().acquire_token(now))
            return tokens[-1]

    with pytest.raises(
        WaiterConfigurationError, match="synchronous but the block is async"
    ):
        strategy(token_bucket=Bucket()).retry(StandardRetryPolicy(), block)
    (coroutine,) = made  # tried once, not retried
    assert inspect.getcoroutinestate(coroutine) == inspect.CORO_CLOSED
    (token,) = tokens
    assert token.resolved  # the call's token is resolved (as a failure)


def test_retry_async_refuses_a_synchronous_block() -> None:
    called: list[int] = []

    def block() -> dict[str, bool]:
        called.append(1)
        return {"ok": True}

    with pytest.raises(WaiterConfigurationError, match="returned dict") as caught:
        asyncio.run(strategy().retry_async(StandardRetryPolicy(), block))  # type: ignore[arg-type]
    assert "use strategy.retry(policy, block)" in str(caught.value)
    assert called == [1]  # not judged as a failed try, not retried


# 5. `policy` and `token_bucket` are checked when the strategy is made.


def test_a_policy_without_evaluate_is_refused_when_the_strategy_is_made() -> None:
    def not_a_policy(outcome: Any) -> Any:
        return None

    with pytest.raises(WaiterConfigurationError, match="^policy must be a RetryPolicy"):
        StandardRetryStrategy(policy=not_a_policy)  # type: ignore[arg-type]


@pytest.mark.parametrize("bucket", [{"capacity": 500}, 500, object()])
def test_a_token_bucket_without_acquire_token_is_refused_when_made(bucket: Any) -> None:
    with pytest.raises(
        WaiterConfigurationError, match="^token_bucket must be a token bucket"
    ):
        StandardRetryStrategy(token_bucket=bucket)


def test_any_policy_and_bucket_of_the_protocols_are_accepted() -> None:
    class Policy:
        def evaluate(self, outcome: Returned | Raised | CutOff) -> RetryDirective:
            return StandardRetryPolicy().evaluate(outcome)

    made = strategy(policy=Policy(), token_bucket=None)
    assert made.retry(made.policy, lambda: "ok") == "ok"


def test_retries_stopped_before_a_backoff_past_max_time_say_so() -> None:
    """It said "max_time ran out ... in 0.0s" with none of max_time used."""
    from waitable import FixedDelay
    from waitable.retry import RetryTimeoutError, StandardRetryPolicy
    from waitable.retry import StandardRetryStrategy as Strategy

    clock = VirtualClock()

    def block() -> None:
        raise ConnectionResetError("reset")

    strategy = Strategy(max_time=2, backoff=FixedDelay(5.0), clock=clock)
    with pytest.raises(RetryTimeoutError) as caught:
        strategy.retry(StandardRetryPolicy(), block)
    message = str(caught.value)
    assert message.startswith("retry gave up after 1 try in 0.0s: the next retry")
    assert "would have begun past max_time, after its backoff" in message
    assert "ran out" not in message


def test_one_try_at_max_attempts_is_one_try() -> None:
    from waitable.retry import RetryAttemptsExceededError, StandardRetryPolicy
    from waitable.retry import StandardRetryStrategy as Strategy

    def block() -> None:
        raise ConnectionResetError("reset")

    strategy = Strategy(max_attempts=1, clock=VirtualClock())
    with pytest.raises(RetryAttemptsExceededError) as caught:
        strategy.retry(StandardRetryPolicy(), block)
    assert str(caught.value).startswith("retry gave up after 1 try (max_attempts)")

"""A rate limiter's or retry token bucket's own answer of seconds to wait is checked.

`rate_limit=` and a retry strategy's `token_bucket=` take any object with
`try_acquire(now)` / `acquire_token(now)`. An answer that was no number (None,
text) raised a bare `TypeError` from a comparison inside the engine, and NaN a
`ValueError` from the clock's sleep, neither naming the limiter; both are now a
`WaiterConfigurationError` that names the waiter, the object and its answer.
Numbers keep their meaning (0 or less: go now; too large: no token in time).
All on the virtual clock.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from waitable import WaiterConfigurationError, WaiterTimeoutError
from waitable.retry import StandardRetryStrategy, StandardRetryTokenBucket
from waitable.testing import VirtualClock

from .harness import DRIVERS, THING_EXISTS, Script, ServiceError, waiter_class

NOT_SECONDS = st.one_of(
    st.none(),
    st.booleans(),
    st.text(max_size=5),
    st.just(float("nan")),
    st.builds(object),
    st.lists(st.integers(), max_size=2),
)


class Limiter:
    """A limiter of the user's own that answers `answer` once, then grants."""

    def __init__(self, answer: Any) -> None:
        self.answers = [answer]

    def try_acquire(self, now: float) -> Any:
        return self.answers.pop() if self.answers else 0.0


class Token:
    """A retry token whose `schedule_retry` answers `answer`."""

    def __init__(self, answer: Any, wait: Any = 0.0) -> None:
        self.answer = answer
        self.wait = wait
        self.failed = 0

    def notify_success(self, now: float) -> None:
        pass

    def notify_failure(self, now: float) -> None:
        self.failed += 1

    def schedule_retry(self, reason: Any, now: float) -> Any:
        return self.answer


class Bucket:
    """A token bucket of the user's own, handing out `token`."""

    def __init__(self, token: Token) -> None:
        self.token = token

    def acquire_token(self, now: float) -> Token:
        return self.token


@settings(max_examples=40, deadline=None)
@given(NOT_SECONDS, st.sampled_from(sorted(DRIVERS)))
def test_a_limiter_answering_no_seconds_is_refused_naming_it(
    answer: Any, driver: str
) -> None:
    with pytest.raises(WaiterConfigurationError, match="try_acquire answered"):
        DRIVERS[driver](
            THING_EXISTS,
            [{"status": "success"}],
            waiter_kwargs={"rate_limit": Limiter(answer)},
            max_wait_time=60,
        )


@pytest.mark.parametrize("driver", sorted(DRIVERS))
@pytest.mark.parametrize("answer", [0, -5, -(10**400), 1e-9])
def test_a_limiter_answering_now_lets_the_poll_go(answer: Any, driver: str) -> None:
    run = DRIVERS[driver](
        THING_EXISTS,
        [{"status": "success"}],
        waiter_kwargs={"rate_limit": Limiter(answer)},
        max_wait_time=60,
    )
    assert run.error is None and len(run.calls) == 1


@pytest.mark.parametrize("driver", sorted(DRIVERS))
def test_a_limiter_answering_a_huge_int_ends_the_wait_without_a_poll(
    driver: str,
) -> None:
    run = DRIVERS[driver](
        THING_EXISTS,
        [{"status": "success"}],
        waiter_kwargs={"rate_limit": Limiter(10**400)},
        max_wait_time=60,
    )
    assert isinstance(run.error, WaiterTimeoutError) and run.calls == []


@settings(max_examples=40, deadline=None)
@given(NOT_SECONDS)
def test_a_retry_token_answering_no_seconds_is_refused_and_resolved(
    answer: Any,
) -> None:
    clock = VirtualClock()
    token = Token(answer)
    retry = StandardRetryStrategy(token_bucket=Bucket(token), clock=clock)  # type: ignore[arg-type]
    script = Script(clock, [ServiceError("ThrottlingException"), {"status": "success"}])
    waiter = waiter_class(THING_EXISTS)(script, clock=clock, retry=retry)
    with pytest.raises(WaiterConfigurationError, match="schedule_retry answered"):
        waiter.wait({}, max_wait_time=60)
    assert len(script.calls) == 1 and token.failed == 1


@settings(max_examples=40, deadline=None)
@given(NOT_SECONDS)
def test_a_first_token_asking_for_no_seconds_is_refused(wait: Any) -> None:
    clock = VirtualClock()
    retry = StandardRetryStrategy(
        token_bucket=Bucket(Token(0.0, wait)), clock=clock  # type: ignore[arg-type]
    )
    script = Script(clock, [{"status": "success"}])
    waiter = waiter_class(THING_EXISTS)(script, clock=clock, retry=retry)
    with pytest.raises(WaiterConfigurationError, match=r"acquire_token\(now\).wait"):
        waiter.wait({}, max_wait_time=60)
    assert script.calls == []


def test_the_standard_bucket_still_waits_for_capacity() -> None:
    clock = VirtualClock()
    bucket = StandardRetryTokenBucket(
        capacity=10, retry_cost=10, timeout_retry_cost=10, refill_units_per_second=1
    )
    retry = StandardRetryStrategy(token_bucket=bucket, clock=clock, max_backoff=0)
    script = Script(
        clock,
        [
            ServiceError("ThrottlingException"),
            ServiceError("ThrottlingException"),
            {"status": "success"},
        ],
    )
    waiter = waiter_class(THING_EXISTS)(script, clock=clock, retry=retry)
    result = waiter.wait({}, max_wait_time=60)
    assert len(script.calls) == 3
    assert result.elapsed == pytest.approx(10.0)  # the second retry waited for 10 units


@pytest.mark.parametrize("driver", sorted(DRIVERS))
@pytest.mark.parametrize("answer", [Fraction(1, 2), Fraction(-1, 3), Fraction(0)])
def test_a_limiter_answering_a_fraction_is_taken_as_seconds(
    answer: Fraction, driver: str
) -> None:
    """A `fractions.Fraction` is a number, and the engine took it before answers
    were checked; "any number but NaN is taken" holds for it too."""
    run = DRIVERS[driver](
        THING_EXISTS,
        [{"status": "success"}],
        waiter_kwargs={"rate_limit": Limiter(answer)},
        max_wait_time=60,
    )
    assert run.error is None and len(run.calls) == 1


class PayingToken(Token):
    """A retry token that asks to wait `answer` once, then is paid."""

    def schedule_retry(self, reason: Any, now: float) -> Any:
        answer, self.answer = self.answer, 0.0
        return answer


def test_a_retry_token_answering_a_fraction_waits_that_long() -> None:
    clock = VirtualClock()
    token = PayingToken(Fraction(5, 2))
    retry = StandardRetryStrategy(
        token_bucket=Bucket(token), clock=clock, max_backoff=0  # type: ignore[arg-type]
    )
    script = Script(clock, [ServiceError("ThrottlingException"), {"status": "success"}])
    waiter = waiter_class(THING_EXISTS)(script, clock=clock, retry=retry)
    result = waiter.wait({}, max_wait_time=60)
    assert len(script.calls) == 2 and result.elapsed == pytest.approx(2.5)

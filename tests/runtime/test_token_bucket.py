"""StandardRetryTokenBucket: seed 001's token bucket, I/O-free on virtual time."""

from __future__ import annotations

import sys
import threading
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from waitable.retry.directives import RetryErrorType
from waitable.retry.token_bucket import (
    CLOCK_STEP_BACK,
    RetryCapacityExceededError,
    RetryToken,
    StandardRetryTokenBucket,
)
from waitable.testing import VirtualClock

SERVER = RetryErrorType.SERVER_SIDE
CLIENT = RetryErrorType.CLIENT_SIDE
THROTTLING = RetryErrorType.THROTTLING
TIMEOUT = RetryErrorType.TIMEOUT


def test_defaults_are_smithy_kotlins() -> None:
    bucket = StandardRetryTokenBucket()
    assert bucket.capacity == 500
    assert bucket.tokens(0.0) == 500
    assert bucket.refill_units_per_second == 10
    assert bucket.circuit_breaker is False
    assert bucket.retry_cost(SERVER) == bucket.retry_cost(CLIENT) == 5
    assert bucket.retry_cost(TIMEOUT) == bucket.retry_cost(THROTTLING) == 10


def test_first_try_is_free_and_a_clean_success_returns_one_unit() -> None:
    bucket = StandardRetryTokenBucket(capacity=20, refill_units_per_second=1)
    token = bucket.acquire_token(0.0)
    assert token.wait == 0.0 and token.success_return == 1
    assert bucket.tokens(0.0) == 20
    token.schedule_retry(SERVER, 0.0)
    assert bucket.tokens(0.0) == 15
    token.notify_failure(0.0)
    fresh = bucket.acquire_token(0.0)
    fresh.notify_success(0.0)
    assert bucket.tokens(0.0) == 16


def test_retries_cost_by_reason_and_success_returns_the_last_retrys_cost() -> None:
    bucket = StandardRetryTokenBucket(refill_units_per_second=1)
    token = bucket.acquire_token(0.0)
    assert token.schedule_retry(SERVER, 0.0) == 0.0
    assert bucket.tokens(0.0) == 495
    assert token.schedule_retry(THROTTLING, 0.0) == 0.0
    assert bucket.tokens(0.0) == 485
    assert token.success_return == 10
    assert token.schedule_retry(CLIENT, 0.0) == 0.0
    assert token.schedule_retry(TIMEOUT, 0.0) == 0.0
    assert bucket.tokens(0.0) == 470
    token.notify_success(0.0)
    assert bucket.tokens(0.0) == 480


def test_reasons_may_be_given_by_value() -> None:
    bucket = StandardRetryTokenBucket()
    token = bucket.acquire_token(0.0)
    token.schedule_retry("Throttling", 0.0)  # type: ignore[arg-type]
    assert bucket.tokens(0.0) == 490
    with pytest.raises(ValueError):
        token.schedule_retry("Bogus", 0.0)  # type: ignore[arg-type]


def test_the_bucket_refills_continuously_over_time_up_to_capacity() -> None:
    clock = VirtualClock(100.0)
    bucket = StandardRetryTokenBucket(capacity=50, refill_units_per_second=4)
    token = bucket.acquire_token(clock.now())
    for _ in range(4):
        token.schedule_retry(TIMEOUT, clock.now())
    assert bucket.tokens(clock.now()) == 10
    clock.advance(0.25)
    assert bucket.tokens(clock.now()) == pytest.approx(11)
    clock.advance(2.5)
    assert bucket.tokens(clock.now()) == pytest.approx(21)
    clock.advance(1000)
    assert bucket.tokens(clock.now()) == 50
    token.notify_failure(clock.now())


def test_a_short_bucket_answers_the_wait_and_pays_after_it() -> None:
    clock = VirtualClock()
    bucket = StandardRetryTokenBucket(capacity=10, refill_units_per_second=2)
    token = bucket.acquire_token(clock.now())
    assert token.schedule_retry(TIMEOUT, clock.now()) == 0.0
    assert bucket.tokens(clock.now()) == 0
    clock.advance(1.0)  # 2 units back
    wait = token.schedule_retry(SERVER, clock.now())
    assert wait == pytest.approx(1.5)  # 3 more units at 2 per second
    assert bucket.tokens(clock.now()) == pytest.approx(2)  # nothing was paid
    clock.advance(wait)
    assert token.schedule_retry(SERVER, clock.now()) == 0.0
    assert bucket.tokens(clock.now()) == pytest.approx(0, abs=1e-9)
    token.notify_success(clock.now())
    assert bucket.tokens(clock.now()) == pytest.approx(5)


def test_a_circuit_breaker_raises_an_actionable_error_and_leaves_the_token_armed() -> (
    None
):
    bucket = StandardRetryTokenBucket(capacity=10, circuit_breaker=True)
    token = bucket.acquire_token(0.0)
    token.schedule_retry(TIMEOUT, 0.0)
    with pytest.raises(RetryCapacityExceededError) as caught:
        token.schedule_retry(SERVER, 0.0)
    message = str(caught.value)
    assert "ServerSide retry costs 5 units" in message
    assert "holds 0.00" in message and "capacity 10" in message
    assert "circuit_breaker=False" in message
    assert caught.value.cost == 5 and caught.value.available == 0
    token.notify_failure(0.0)
    assert token.resolved


def test_a_circuit_breaker_with_no_refill_stays_empty() -> None:
    bucket = StandardRetryTokenBucket(
        capacity=5,
        timeout_retry_cost=5,
        refill_units_per_second=0,
        circuit_breaker=True,
    )
    token = bucket.acquire_token(0.0)
    token.schedule_retry(SERVER, 0.0)
    with pytest.raises(RetryCapacityExceededError):
        token.schedule_retry(SERVER, 10_000.0)


def test_an_initial_try_cost_can_make_acquire_wait() -> None:
    clock = VirtualClock()
    bucket = StandardRetryTokenBucket(
        capacity=10, initial_try_cost=4, refill_units_per_second=1
    )
    first = bucket.acquire_token(clock.now())
    second = bucket.acquire_token(clock.now())
    assert first.wait == second.wait == 0.0
    assert bucket.tokens(clock.now()) == 2
    pending = bucket.acquire_token(clock.now())
    assert pending.wait == pytest.approx(2.0)
    for call in (
        lambda: pending.notify_success(clock.now()),
        lambda: pending.notify_failure(clock.now()),
        lambda: pending.schedule_retry(SERVER, clock.now()),
    ):
        with pytest.raises(RuntimeError, match="acquire again"):
            call()
    clock.advance(pending.wait)
    third = bucket.acquire_token(clock.now())
    assert third.wait == 0.0
    assert bucket.tokens(clock.now()) == pytest.approx(0, abs=1e-9)


def test_an_initial_try_cost_with_a_circuit_breaker_raises() -> None:
    bucket = StandardRetryTokenBucket(
        capacity=3,
        retry_cost=1,
        timeout_retry_cost=1,
        initial_try_cost=2,
        circuit_breaker=True,
    )
    bucket.acquire_token(0.0)
    with pytest.raises(RetryCapacityExceededError, match="the first try costs 2"):
        bucket.acquire_token(0.0)


@pytest.mark.parametrize("resolve", ["notify_success", "notify_failure"])
def test_a_resolved_token_refuses_every_method(resolve: str) -> None:
    bucket = StandardRetryTokenBucket()
    token = bucket.acquire_token(0.0)
    token.schedule_retry(SERVER, 0.0)
    getattr(token, resolve)(0.0)
    assert token.resolved
    before = bucket.tokens(0.0)
    for call in (
        lambda: token.notify_success(0.0),
        lambda: token.notify_failure(0.0),
        lambda: token.schedule_retry(SERVER, 0.0),
    ):
        with pytest.raises(RuntimeError, match=f"already resolved by {resolve}"):
            call()
    assert bucket.tokens(0.0) == before


def test_a_clock_reading_from_the_past_adds_nothing() -> None:
    bucket = StandardRetryTokenBucket(capacity=100, refill_units_per_second=10)
    token = bucket.acquire_token(10.0)
    token.schedule_retry(TIMEOUT, 10.0)
    assert (
        bucket.tokens(5.0) == 90
    )  # an older reading (another thread's) refills nothing
    assert bucket.tokens(10.5) == 95


def test_a_wall_clock_set_back_does_not_stop_the_refill() -> None:
    """Shared buckets are fed the wall clock: set back an hour, the refill used to
    stop until the clock had caught up again (an hour with no retries)."""
    bucket = StandardRetryTokenBucket(capacity=100, refill_units_per_second=10)
    token = bucket.acquire_token(10_000.0)
    token.schedule_retry(TIMEOUT, 10_000.0)
    # The bucket reads the clock where it is used (a read of `tokens` changes nothing).
    bucket.acquire_token(6_400.0).notify_failure(6_400.0)
    assert bucket.tokens(6_400.0) == 90  # set back an hour: nothing added
    assert bucket.tokens(6_400.5) == 95  # and the refill goes on from there
    bucket.acquire_token(6_400.5).notify_failure(6_400.5)
    assert bucket.tokens(6_400.5 - CLOCK_STEP_BACK) == 95  # a slightly older one
    assert bucket.tokens(6_401.0) == 100


@pytest.mark.parametrize(
    ("options", "match"),
    [
        ({"capacity": 0}, "capacity must be an integer >= 1"),
        ({"capacity": 2.5}, "capacity must be an integer"),
        ({"retry_cost": -1}, "retry_cost must be an integer >= 0"),
        ({"capacity": 8}, "timeout_retry_cost=10 exceeds capacity=8"),
        ({"initial_try_cost": 501}, "initial_try_cost=501 exceeds capacity=500"),
        ({"success_increment": True}, "success_increment must be an integer"),
        ({"refill_units_per_second": -1}, "finite number >= 0"),
        ({"refill_units_per_second": float("nan")}, "finite number >= 0"),
        ({"refill_units_per_second": 0}, "wait forever"),
    ],
)
def test_bad_settings_are_refused(options: dict[str, object], match: str) -> None:
    with pytest.raises(ValueError, match=match):
        StandardRetryTokenBucket(**options)  # type: ignore[arg-type]


def test_a_bad_clock_reading_is_refused() -> None:
    bucket = StandardRetryTokenBucket()
    with pytest.raises(ValueError, match="finite clock reading"):
        bucket.tokens(float("nan"))
    token = bucket.acquire_token(0.0)
    with pytest.raises(ValueError, match="finite clock reading"):
        token.schedule_retry(SERVER, float("inf"))


# --- properties on virtual time -------------------------------------------------

OPS = st.lists(
    st.tuples(
        st.sampled_from(["acquire", "success", "failure", "retry"]),
        st.integers(0, 20),  # which token
        st.sampled_from(list(RetryErrorType)),
        st.floats(-0.5, 3.0, allow_nan=False),  # clock step; negative = a stale reading
    ),
    max_size=120,
)


@dataclass
class Ledger:
    paid: float = 0.0
    returned: float = 0.0


@settings(max_examples=300, deadline=None)
@given(
    ops=OPS,
    capacity=st.integers(10, 60),
    rate=st.sampled_from([0.5, 1.0, 3.0, 10.0]),
    initial_try_cost=st.integers(0, 3),
    circuit_breaker=st.booleans(),
)
def test_the_bucket_stays_within_bounds_and_never_pays_more_than_it_earned(
    ops: list[tuple[str, int, RetryErrorType, float]],
    capacity: int,
    rate: float,
    initial_try_cost: int,
    circuit_breaker: bool,
) -> None:
    bucket = StandardRetryTokenBucket(
        capacity=capacity,
        refill_units_per_second=rate,
        initial_try_cost=initial_try_cost,
        circuit_breaker=circuit_breaker,
    )
    clock = 1000.0
    first = latest = clock
    tokens: list[RetryToken] = []
    ledger = Ledger()
    for op, index, reason, step in ops:
        clock += step
        latest = max(latest, clock)
        first = min(first, clock)  # the bucket refills from the earliest reading
        if op == "acquire" or not tokens:
            try:
                token = bucket.acquire_token(clock)
            except RetryCapacityExceededError:
                assert circuit_breaker
                continue
            if token.wait == 0.0:
                ledger.paid += initial_try_cost
                tokens.append(token)
            else:
                assert token.wait > 0 and not circuit_breaker
            continue
        token = tokens[index % len(tokens)]
        try:
            if op == "success":
                ledger.returned += token.success_return
                token.notify_success(clock)
            elif op == "failure":
                token.notify_failure(clock)
            else:
                before = bucket.tokens(clock)
                wait = token.schedule_retry(reason, clock)
                cost = bucket.retry_cost(reason)
                if wait == 0.0:
                    ledger.paid += cost
                else:
                    assert wait == pytest.approx((cost - before) / rate)
        except RuntimeError:
            assert token.resolved
            if op == "success":
                ledger.returned -= token.success_return
        except RetryCapacityExceededError:
            assert circuit_breaker and bucket.tokens(clock) < bucket.retry_cost(reason)
        held = bucket.tokens(clock)
        assert 0.0 <= held <= capacity
    # Whatever was paid came from the full bucket, refills, or returns.
    assert ledger.paid <= capacity + rate * (latest - first) + ledger.returned + 1e-6


@settings(max_examples=100, deadline=None)
@given(
    callers=st.integers(1, 30),
    steps=st.lists(st.floats(0.0, 2.0, allow_nan=False), min_size=1, max_size=60),
)
def test_many_tokens_sharing_a_bucket_retry_no_more_than_capacity_and_refill_allow(
    callers: int, steps: list[float]
) -> None:
    clock = VirtualClock()
    bucket = StandardRetryTokenBucket(capacity=50, refill_units_per_second=5)
    tokens = [bucket.acquire_token(clock.now()) for _ in range(callers)]
    retries = 0
    for step in steps:
        clock.advance(step)
        for token in tokens:  # every caller keeps failing and asks to retry
            if token.schedule_retry(SERVER, clock.now()) == 0.0:
                retries += 1
    # Each retry costs 5: the full bucket pays 10, every second of refill one more.
    assert retries <= (50 + 5 * clock.now()) / 5 + 1e-9
    assert 0.0 <= bucket.tokens(clock.now()) <= 50


def test_real_threads_sharing_one_bucket_lose_no_update() -> None:
    """Threads hammer one bucket; the final count must match the ledger exactly."""
    capacity, threads, rounds = 200_000, 8, 400
    bucket = StandardRetryTokenBucket(
        capacity=capacity, refill_units_per_second=0, circuit_breaker=True
    )
    failures = [0] * threads
    errors: list[BaseException] = []
    start = threading.Barrier(threads)

    def work(number: int) -> None:
        try:
            start.wait()
            for i in range(rounds):
                token = bucket.acquire_token(0.0)
                assert token.schedule_retry(SERVER, 0.0) == 0.0
                if (i + number) % 3:
                    token.notify_success(0.0)
                else:
                    token.notify_failure(0.0)
                    failures[number] += 1
                try:
                    token.notify_success(0.0)
                except RuntimeError:
                    pass
                else:
                    raise AssertionError(
                        "a resolved token accepted a second resolution"
                    )
        except BaseException as error:  # reported below
            errors.append(error)

    previous = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible
    try:
        workers = [threading.Thread(target=work, args=(n,)) for n in range(threads)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
    finally:
        sys.setswitchinterval(previous)
    assert not errors, errors
    assert bucket.tokens(0.0) == capacity - 5 * sum(failures)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.floats(-1e6, 1e6), max_size=5),
    st.lists(st.floats(0, 5), min_size=1, max_size=8),
)
def test_reading_the_bucket_on_any_clock_changes_nothing(
    reads: list[float], steps: list[float]
) -> None:
    """A read (`tokens`) with a reading of another clock (a monitor's
    `time.monotonic()` beside waiters' wall clock) restarted the refill as a clock
    set back, and the next wall reading refilled the whole gap: the bucket stopped
    rationing retries. The same uses give the same answers, read or not."""
    wall = 1_700_000_000.0

    def run(read: bool) -> list[float]:
        bucket = StandardRetryTokenBucket(capacity=50, refill_units_per_second=0.5)
        answers, now = [], wall
        for step in steps:
            now += step
            if read:
                for reading in reads:
                    bucket.tokens(reading)
            token = bucket.acquire_token(now)
            answers.append(token.schedule_retry(TIMEOUT, now))
            answers.append(bucket.tokens(now))
            token.notify_failure(now)
        return answers

    assert run(read=True) == run(read=False)

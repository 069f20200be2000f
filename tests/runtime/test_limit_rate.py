"""Seed 002's `limit_rate`: every worked example (ms → s), ExWaiter's rules, properties."""

from __future__ import annotations

import dataclasses
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from waitable.rate_limit import Bucket, Limiter, limit_rate

T0 = 1678822656.122  # the seed's Limiter example, in seconds


def test_the_seeds_limiter_example() -> None:
    allowed, bucket, limiter = limit_rate(
        (3, T0), refill_rate=3, interval=0.05, burst_limit=5, cost=2, now=T0 + 0.002
    )
    assert allowed is True
    assert bucket == (1, T0)
    expected = Limiter(
        refill_rate=3,
        interval=0.05,
        burst_limit=5,
        cost=2,
        checked_at=pytest.approx(1678822656.124, abs=1e-6),  # type: ignore[arg-type]
        created_at=None,
        previous_updated_at=T0,
        updated_at=T0,
        next_refill_at=pytest.approx(1678822656.172, abs=1e-6),  # type: ignore[arg-type]
        until_next_refill=pytest.approx(0.048, abs=1e-6),  # type: ignore[arg-type]
        previous_tokens=3,
        refilled_tokens=0,
        tokens_after_refill=3,
        paid_tokens=2,
        tokens_after_paid=1,
    )
    assert limiter == expected
    assert [f.name for f in dataclasses.fields(Limiter)] == [
        "refill_rate",
        "interval",
        "burst_limit",
        "cost",
        "checked_at",
        "created_at",
        "previous_updated_at",
        "updated_at",
        "next_refill_at",
        "until_next_refill",
        "previous_tokens",
        "refilled_tokens",
        "tokens_after_refill",
        "paid_tokens",
        "tokens_after_paid",
    ]


def test_the_limiter_is_frozen_and_slotted() -> None:
    limiter = limit_rate(None, now=5.0)[2]
    with pytest.raises(dataclasses.FrozenInstanceError):
        limiter.cost = 2  # type: ignore[misc]
    assert not hasattr(limiter, "__dict__")


def test_the_prose_example_three_tokens_two_seconds_later() -> None:
    """3 tokens, 5 per second, 2 seconds later: 13, minus 1 → 12, timestamp moves."""
    allowed, bucket, limiter = limit_rate(
        (3, 100.0), refill_rate=5, burst_limit=20, now=102.0
    )
    assert (allowed, bucket) == (True, (12, 102.0))
    assert limiter.refilled_tokens == 10 and limiter.tokens_after_refill == 13


def test_no_tokens_and_no_refill_keeps_the_timestamp() -> None:
    allowed, bucket, limiter = limit_rate((0, 100.0), now=100.5)
    assert (allowed, bucket) == (False, (0, 100.0))
    assert limiter.paid_tokens == 0 and limiter.refilled_tokens == 0
    assert limiter.next_refill_at == 101.0 and limiter.until_next_refill == 0.5


def test_defaults_a_nil_bucket_then_an_empty_one_then_a_second_later() -> None:
    allowed, bucket, limiter = limit_rate(None, now=50.0)
    assert (allowed, bucket) == (True, (0, 50.0))
    assert limiter == Limiter(
        refill_rate=1,
        interval=1.0,
        burst_limit=1,
        cost=1,
        checked_at=50.0,
        created_at=50.0,
        previous_updated_at=None,
        updated_at=50.0,
        next_refill_at=51.0,
        until_next_refill=1.0,
        previous_tokens=None,
        refilled_tokens=1,
        tokens_after_refill=1,
        paid_tokens=1,
        tokens_after_paid=0,
    )
    allowed, bucket, limiter = limit_rate(bucket, now=50.0)
    assert (allowed, bucket) == (False, (0, 50.0))
    assert limiter.created_at is None and limiter.previous_updated_at == 50.0
    assert limiter.until_next_refill == 1.0
    allowed, bucket, limiter = limit_rate(bucket, now=51.0)
    assert (allowed, bucket) == (True, (0, 51.0))
    assert limiter.refilled_tokens == 1 and limiter.next_refill_at == 52.0


def test_configure_refill_rate() -> None:
    opts = {"refill_rate": 3}
    allowed, bucket, _ = limit_rate(None, now=10.0, **opts)
    assert (allowed, bucket[0]) == (True, 2)
    allowed, bucket, _ = limit_rate(bucket, now=10.0, **opts)
    assert (allowed, bucket[0]) == (True, 1)
    allowed, bucket, _ = limit_rate(bucket, now=10.0, **opts)
    assert (allowed, bucket[0]) == (True, 0)
    allowed, bucket, _ = limit_rate(bucket, now=10.0, **opts)
    assert (allowed, bucket[0]) == (False, 0)
    allowed, bucket, _ = limit_rate(bucket, now=11.0, **opts)
    assert (allowed, bucket[0]) == (True, 2)


def test_configure_interval() -> None:
    allowed, bucket, _ = limit_rate(None, interval=0.05, now=10.0)
    assert (allowed, bucket[0]) == (True, 0)
    allowed, bucket, _ = limit_rate(bucket, interval=0.05, now=10.0)
    assert (allowed, bucket[0]) == (False, 0)
    allowed, bucket, _ = limit_rate(bucket, interval=0.05, now=10.05)
    assert (allowed, bucket[0]) == (True, 0)


def test_configure_burst_limit() -> None:
    opts = {"refill_rate": 3, "burst_limit": 5}
    allowed, bucket, _ = limit_rate(None, now=10.0, **opts)
    assert (allowed, bucket[0]) == (True, 4)
    allowed, bucket, _ = limit_rate(bucket, now=10.0, **opts)
    assert (allowed, bucket[0]) == (True, 3)


def test_configure_cost() -> None:
    opts = {"cost": 3, "burst_limit": 10}
    results = []
    bucket: Bucket | None = None
    for _ in range(4):
        allowed, bucket, _ = limit_rate(bucket, now=10.0, **opts)
        results.append((allowed, bucket[0]))
    assert results == [(True, 7), (True, 4), (True, 1), (False, 1)]


def test_the_genserver_example_with_many_users() -> None:
    """Seed 002's GenServer: a dict of buckets by user, refill 2 per 100 ms."""
    buckets: dict[str, Bucket] = {}

    def enforce(user: str, now: float) -> tuple[bool, int]:
        allowed, bucket, _ = limit_rate(
            buckets.get(user), refill_rate=2, interval=0.1, now=now
        )
        buckets[user] = bucket
        return allowed, bucket[0]

    t = 500.0
    assert enforce("jane", t) == (True, 1)
    assert enforce("jane", t) == (True, 0)
    assert enforce("bill", t) == (True, 1)
    assert enforce("jane", t) == (False, 0)
    assert enforce("bill", t) == (True, 0)
    assert enforce("bill", t) == (False, 0)
    t += 0.1  # Process.sleep(100)
    assert enforce("bill", t) == (True, 1)
    assert enforce("pam", t) == (True, 1)
    assert enforce("jane", t) == (True, 1)
    assert enforce("bill", t) == (True, 0)
    assert enforce("bill", t) == (False, 0)
    assert {user: bucket[0] for user, bucket in buckets.items()} == {
        "jane": 1,
        "bill": 0,
        "pam": 1,
    }


def test_whole_intervals_only_and_the_partial_one_is_dropped_on_refill() -> None:
    _, bucket, _ = limit_rate(None, burst_limit=10, interval=0.05, now=0.0)
    _, bucket, _ = limit_rate(bucket, burst_limit=10, interval=0.05, now=0.0)
    assert bucket == (8, 0.0)
    allowed, bucket, limiter = limit_rate(
        bucket, burst_limit=10, interval=0.05, now=0.149
    )
    assert limiter.refilled_tokens == 2  # two whole intervals, not three
    assert bucket == (9, 0.149)  # timestamp moved: the 0.049 s remainder is gone
    _, _, limiter = limit_rate(bucket, burst_limit=10, interval=0.05, now=0.150)
    assert limiter.refilled_tokens == 0


def test_tokens_never_grow_past_the_burst_limit_and_a_full_bucket_keeps_its_time() -> (
    None
):
    allowed, bucket, limiter = limit_rate(
        (2, 0.0), burst_limit=2, interval=0.05, now=0.1
    )
    assert bucket == (1, 0.0)  # nothing could be added, so the timestamp stays
    assert limiter.refilled_tokens == 0 and limiter.tokens_after_refill == 2
    assert limiter.next_refill_at == pytest.approx(
        0.15
    )  # checked_at + interval: tokens gained


def test_float_rounding_never_loses_an_interval() -> None:
    start = 1678822656.122
    # 1678822656.172 - 1678822656.122 is 0.04999995 in binary floating point.
    allowed, bucket, limiter = limit_rate((0, start), interval=0.05, now=1678822656.172)
    assert allowed and limiter.refilled_tokens == 1


def test_now_defaults_to_the_wall_clock() -> None:
    before = time.time()
    _, bucket, limiter = limit_rate(None)
    assert before <= limiter.checked_at <= time.time()
    assert bucket[1] == limiter.checked_at


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"refill_rate": 0}, "refill_rate must be a whole number >= 1"),
        ({"refill_rate": 1.5}, "refill_rate must be a whole number"),
        ({"cost": 0}, "cost must be a whole number >= 1"),
        ({"burst_limit": 0}, "burst_limit must be a whole number >= 1"),
        ({"interval": 0}, "interval must be more than 0 seconds"),
        ({"interval": -1.0}, "interval must be more than 0 seconds"),
        ({"interval": float("inf")}, "interval must be a finite number"),
        ({"cost": 3}, "cost=3 exceeds burst_limit=1"),
        ({"now": float("nan")}, "now must be a finite number"),
    ],
)
def test_bad_options_are_refused(kwargs: dict[str, object], match: str) -> None:
    with pytest.raises(ValueError, match=match):
        limit_rate(None, **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "bucket",
    [
        "not a bucket",
        42,
        (3,),
        (1, 2, 3),
        (1, None),
        (None, 5.0),
        (None, None),
        (-1, 5.0),
        (True, 5.0),
        (1, float("nan")),
    ],
)
def test_bad_buckets_are_refused(bucket: object) -> None:
    with pytest.raises(ValueError, match="a rate-limit bucket is None or"):
        limit_rate(bucket, now=10.0)  # type: ignore[arg-type]


def test_a_bucket_from_the_future_is_refused() -> None:
    with pytest.raises(ValueError, match="after the check time"):
        limit_rate((1, 11.0), now=10.0)


def test_a_list_bucket_from_a_json_store_is_accepted() -> None:
    allowed, bucket, _ = limit_rate([1, 10.0], now=10.0)  # type: ignore[arg-type]
    assert (allowed, bucket) == (True, (0, 10.0))


# --- properties --------------------------------------------------------------------


def reference(
    bucket: tuple[int, int] | None,
    rate: int,
    interval: int,
    burst: int,
    cost: int,
    now: int,
) -> tuple[bool, tuple[int, int]]:
    """Seed 002's rules restated in whole milliseconds, as ExWaiter computes them."""
    if bucket is None:
        return True, (burst - cost, now)
    tokens, updated = bucket
    gained = (now - updated) // interval * rate
    after = min(tokens + gained, burst) if gained > 0 else tokens
    refilled = after - tokens
    paid = cost if after >= cost else 0
    return paid > 0, (after - paid, now if refilled > 0 else updated)


CONFIG = st.tuples(
    st.integers(1, 5),  # refill_rate
    st.integers(1, 500),  # interval, ms
    st.integers(0, 6),  # extra burst over cost
    st.integers(1, 4),  # cost
)


@settings(max_examples=300)
@given(
    config=CONFIG,
    start=st.integers(0, 2_000_000_000_000),
    steps=st.lists(st.integers(0, 1200), min_size=1, max_size=60),
)
def test_seconds_agree_with_exwaiters_millisecond_rules(
    config: tuple[int, int, int, int], start: int, steps: list[int]
) -> None:
    rate, interval_ms, extra, cost = config
    burst = cost + extra
    ours: Bucket | None = None
    theirs: tuple[int, int] | None = None
    now_ms = start
    for step in steps:
        now_ms += step
        allowed, ours, limiter = limit_rate(
            ours,
            refill_rate=rate,
            interval=interval_ms / 1000,
            burst_limit=burst,
            cost=cost,
            now=now_ms / 1000,
        )
        expected_allowed, theirs = reference(
            theirs, rate, interval_ms, burst, cost, now_ms
        )
        assert allowed == expected_allowed
        assert ours[0] == theirs[0]
        assert ours[1] == pytest.approx(theirs[1] / 1000, abs=1e-6)
        # The record's own arithmetic.
        previous = limiter.previous_tokens or 0
        assert limiter.tokens_after_refill == previous + limiter.refilled_tokens
        assert (
            limiter.tokens_after_paid
            == limiter.tokens_after_refill - limiter.paid_tokens
        )
        assert limiter.paid_tokens in (0, cost) and allowed == (limiter.paid_tokens > 0)
        assert limiter.until_next_refill == pytest.approx(
            limiter.next_refill_at - limiter.checked_at, abs=1e-6
        )
        assert 0 <= limiter.tokens_after_paid <= burst


@settings(max_examples=300)
@given(
    config=CONFIG,
    start=st.integers(0, 10**12),
    steps=st.lists(st.integers(0, 1500), min_size=1, max_size=80),
)
def test_never_pays_more_than_the_burst_plus_whole_intervals_elapsed(
    config: tuple[int, int, int, int], start: int, steps: list[int]
) -> None:
    rate, interval_ms, extra, cost = config
    burst = cost + extra
    bucket: Bucket | None = None
    paid = 0
    now_ms = start
    for step in steps:
        now_ms += step
        _, bucket, limiter = limit_rate(
            bucket,
            refill_rate=rate,
            interval=interval_ms / 1000,
            burst_limit=burst,
            cost=cost,
            now=now_ms / 1000,
        )
        paid += limiter.paid_tokens
        whole_intervals = (now_ms - start) // interval_ms
        assert paid <= burst + rate * whole_intervals

"""RateLimiter: one `limit_rate` bucket shared by callers, on the clock they give."""

from __future__ import annotations

import asyncio
import heapq
import math
import sys
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from waitable.rate_limit import Bucket, RateLimiter
from waitable.testing import VirtualClock


def test_grants_calls_per_interval_and_says_how_long_to_wait() -> None:
    clock = VirtualClock()
    limiter = RateLimiter(10)
    assert [limiter.try_acquire(clock.now()) for _ in range(10)] == [0.0] * 10
    assert limiter.try_acquire(clock.now()) == 1.0
    clock.advance(0.25)
    assert limiter.try_acquire(clock.now()) == pytest.approx(0.75)
    clock.advance(0.75)
    assert [limiter.try_acquire(clock.now()) for _ in range(10)] == [0.0] * 10
    assert limiter.try_acquire(clock.now()) == pytest.approx(1.0)
    assert limiter.bucket == (0, 1.0)


def test_it_reads_the_clock_it_is_given_not_the_wall_clock() -> None:
    clock = VirtualClock(start=3.0)  # far from time.time()
    limiter = RateLimiter(2, per=60.0)
    assert limiter.try_acquire(clock.now()) == 0.0
    assert limiter.try_acquire(clock.now()) == 0.0
    assert limiter.try_acquire(clock.now()) == 60.0
    clock.advance(60.0)
    assert limiter.try_acquire(clock.now()) == 0.0
    assert limiter.bucket == (1, 63.0)


def test_burst_allows_more_at_once_at_the_same_average_rate() -> None:
    limiter = RateLimiter(2, per=1.0, burst=5)
    assert sum(limiter.try_acquire(0.0) == 0.0 for _ in range(8)) == 5
    assert sum(limiter.try_acquire(1.0) == 0.0 for _ in range(8)) == 2
    assert sum(limiter.try_acquire(3.0) == 0.0 for _ in range(8)) == 4


def test_a_stale_reading_counts_as_the_buckets_time() -> None:
    limiter = RateLimiter(1, per=1.0)
    assert limiter.try_acquire(10.0) == 0.0
    assert limiter.try_acquire(11.0) == 0.0
    # Another thread read 10.5 before the 11.0 call but got the lock after it.
    assert limiter.try_acquire(10.5) == 1.0
    assert limiter.bucket == (0, 11.0)


def stored(store: dict[str, Bucket], calls: int) -> RateLimiter:
    """A limiter of `calls` per second whose bucket is `store["user"]`."""
    return RateLimiter(
        calls,
        per=1.0,
        load=lambda: store.get("user"),
        save=lambda bucket: store.__setitem__("user", bucket),
    )


def test_a_bucket_kept_in_an_external_store_is_shared() -> None:
    store: dict[str, Bucket] = {}
    first, second = stored(store, 3), stored(store, 3)  # two processes on one store
    assert first.try_acquire(0.0) == 0.0
    assert second.try_acquire(0.0) == 0.0
    assert first.try_acquire(0.0) == 0.0
    assert second.try_acquire(0.0) == 1.0
    assert store["user"] == (0, 0.0) == first.bucket


def test_a_bad_stored_bucket_is_refused() -> None:
    limiter = RateLimiter(1, load=lambda: ("x", 1), save=lambda bucket: None)  # type: ignore[arg-type,return-value]
    with pytest.raises(ValueError, match="a rate-limit bucket is None or"):
        limiter.try_acquire(5.0)


@pytest.mark.parametrize(
    ("args", "kwargs", "match"),
    [
        ((0,), {}, "calls must be a whole number >= 1"),
        ((2.5,), {}, "calls must be a whole number"),
        ((1, 0.0), {}, "per must be more than 0 seconds"),
        ((1, float("nan")), {}, "per must be a finite number"),
        ((1,), {"burst": 0}, "burst must be a whole number >= 1"),
        ((1,), {"load": lambda: None}, "both load= and save="),
    ],
)
def test_bad_settings_are_refused(
    args: tuple[object, ...], kwargs: dict[str, object], match: str
) -> None:
    with pytest.raises(ValueError, match=match):
        RateLimiter(*args, **kwargs)  # type: ignore[arg-type]


def test_a_bad_clock_reading_is_refused() -> None:
    with pytest.raises(ValueError, match="now must be a finite number"):
        RateLimiter(1).try_acquire(float("inf"))


# --- the guarantee over windows ------------------------------------------------------


def window_bound(calls: int, burst: int, per: float, window: float) -> int:
    """A full bucket (new or idle) plus one refill per interval the window can reach."""
    return burst + calls * math.ceil(window / per)


def most_in_any_window(grants: list[float], window: float) -> int:
    """The largest number of grants in any window [t, t + window)."""
    grants = sorted(grants)
    most, low = 0, 0
    for high, at in enumerate(grants):
        while grants[low] <= at - window:
            low += 1
        most = max(most, high - low + 1)
    return most


#: Just before a whole second: a refill counts within `TOLERANCE` of its time.
EARLY = 1 - 5e-7


@pytest.mark.parametrize(
    ("grants", "window"),
    [
        # The new bucket spent at 0, its first refill a moment before 1 s.
        ([0.0] * 10 + [EARLY] * 10, 1.0),
        # A 2 s window reaches two refills.
        ([0.0] * 10 + [EARLY] * 10 + [1 + EARLY] * 10, 2.0),
    ],
)
def test_the_window_bound_is_reached(grants: list[float], window: float) -> None:
    limiter = RateLimiter(10)
    assert all(limiter.try_acquire(at) == 0.0 for at in grants)
    assert limiter.try_acquire(grants[-1]) > 0
    assert most_in_any_window(grants, window) == window_bound(10, 10, 1.0, window)


@settings(max_examples=200, deadline=None)
@given(
    arrivals=st.lists(st.integers(0, 10_000), min_size=1, max_size=150),
    calls=st.integers(1, 12),
    extra_burst=st.integers(0, 5),
    per_ms=st.sampled_from([100, 250, 1000, 1300]),
    window_ms=st.sampled_from([1, 100, 999, 1000, 1001, 2500, 10_000]),
)
def test_no_window_gets_more_than_a_bucket_plus_one_refill_per_interval(
    arrivals: list[int], calls: int, extra_burst: int, per_ms: int, window_ms: int
) -> None:
    """Many simulated callers, each retrying after the wait it is told (rounded up to
    the next millisecond, as a real sleep may overrun), on virtual time."""
    burst = calls + extra_burst
    limiter = RateLimiter(calls, per=per_ms / 1000, burst=burst)
    queue = [(time_ms, caller) for caller, time_ms in enumerate(arrivals)]
    heapq.heapify(queue)
    grants: list[float] = []
    while queue:
        time_ms, caller = heapq.heappop(queue)
        wait = limiter.try_acquire(time_ms / 1000)
        if wait == 0.0:
            grants.append(time_ms)
        else:
            assert wait > 0
            heapq.heappush(queue, (math.ceil(time_ms + wait * 1000 - 1e-6), caller))
    assert len(grants) == len(arrivals)  # every caller gets through in the end
    assert most_in_any_window(grants, window_ms) <= window_bound(
        calls, burst, per_ms, window_ms
    )
    # And the long-run rate: a full bucket, then `calls` per whole interval.
    span = max(grants) - min(arrivals)
    assert len(grants) <= burst + calls * (span // per_ms)


def test_asyncio_tasks_share_one_limiter_on_a_virtual_clock() -> None:
    clock = VirtualClock()
    limiter = RateLimiter(5, per=1.0)
    grants: list[float] = []

    async def caller() -> None:
        for _ in range(4):
            while (wait := limiter.try_acquire(clock.now())) > 0:
                await clock.sleep_async(wait)
            grants.append(clock.now())

    async def main() -> None:
        await asyncio.gather(*(caller() for _ in range(10)))

    asyncio.run(main())
    assert len(grants) == 40
    # 5 at once, then 5 at each whole second: 40 grants end at 7 s of virtual time.
    assert sorted(set(grants)) == [float(second) for second in range(8)]
    assert all(grants.count(float(second)) == 5 for second in range(8))


def test_real_threads_at_one_instant_take_exactly_the_bucket() -> None:
    limiter = RateLimiter(50, per=3600.0)
    granted = [0] * 8
    start = threading.Barrier(8)

    def work(number: int) -> None:
        start.wait()
        for _ in range(500):
            if limiter.try_acquire(1000.0) == 0.0:
                granted[number] += 1

    previous = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        workers = [threading.Thread(target=work, args=(n,)) for n in range(8)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
    finally:
        sys.setswitchinterval(previous)
    assert sum(granted) == 50
    assert limiter.bucket == (0, 1000.0)

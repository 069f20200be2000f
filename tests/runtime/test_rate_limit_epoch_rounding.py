"""Waits sharing a rate limiter are served at the same times whatever the wall
clock reads. Near an epoch time wall-clock floats are 1e-7 s apart: a wait whose
wall time rounded down slept until just after the refill, after every other wait
due then, found the bucket empty, and was last again at each refill (one wait made
no poll in 60 s while hundreds that came after it polled)."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from waitable import AsyncWaiter, RateLimiter
from waitable.testing import VirtualClock

from .harness import THING_EXISTS, waiter_class


def _served(wall_start: float, arrivals: list[float]) -> dict[int, float]:
    """When each wait (arriving at `arrivals[i]`) made its one poll."""

    async def main() -> dict[int, float]:
        clock = VirtualClock(wall_start=wall_start)
        served: dict[int, float] = {}

        async def call(input: Any) -> Any:
            served[input["n"]] = clock.now()
            return {"status": "success"}

        waiter = waiter_class(THING_EXISTS, AsyncWaiter)(
            call,
            clock=clock,
            rate_limit=RateLimiter(10, per=1.0),
            rng=random.Random(0),
        )

        async def one(n: int, at: float) -> None:
            await clock.sleep_async(at)
            await waiter.wait({"n": n}, max_wait_time=600)

        await asyncio.gather(*(one(n, at) for n, at in enumerate(arrivals)))
        return served

    return asyncio.run(main())


@pytest.mark.parametrize("wall_start", [1e9, 1_700_000_000.123, 4e9])
def test_waits_are_served_as_at_wall_time_zero(wall_start: float) -> None:
    arrivals = [n * 0.05 for n in range(60)]  # 20 a second against 10 tokens
    assert _served(wall_start, arrivals) == pytest.approx(
        _served(0.0, arrivals), abs=1e-6
    )


@settings(max_examples=25, deadline=None)
@given(
    st.lists(
        st.integers(min_value=0, max_value=400).map(lambda n: n / 100),
        min_size=1,
        max_size=40,
    ),
    st.floats(min_value=1e8, max_value=4e9),
)
def test_the_wall_clock_reading_never_changes_who_is_served_when(
    arrivals: list[float], wall_start: float
) -> None:
    """The same waits served at the same refills (times equal but for the wall
    clock's own rounding, far below a microsecond)."""
    assert _served(wall_start, arrivals) == pytest.approx(
        _served(0.0, arrivals), abs=1e-6
    )

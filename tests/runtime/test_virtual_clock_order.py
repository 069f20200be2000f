"""`VirtualClock` keeps one entry per wake-up time: sleepers and timers due at the
same time still wake in the order they were added, called-off ones never run, and
a long-lived clock drops them."""

from __future__ import annotations

import asyncio

from hypothesis import given, settings
from hypothesis import strategies as st

from waitable.testing import VirtualClock

items = st.lists(
    st.tuples(
        st.sampled_from([0.5, 1.0, 2.0, 2.0, 3.25]),
        st.sampled_from(["sleeper", "timer"]),
        st.booleans(),
    ),
    max_size=25,
)


@settings(max_examples=80, deadline=None)
@given(items=items)
def test_same_time_wake_ups_keep_their_order_and_called_off_ones_never_run(
    items: list[tuple[float, str, bool]],
) -> None:
    clock = VirtualClock()
    woke: list[tuple[int, float]] = []

    async def sleeper(index: int, delay: float) -> None:
        await clock.sleep_async(delay)
        woke.append((index, clock.now()))

    async def main() -> None:
        called_off = []
        for index, (delay, kind, cancel) in enumerate(items):
            if kind == "timer":
                timer = clock.call_later(
                    delay, lambda i=index: woke.append((i, clock.now()))
                )
                if cancel:
                    called_off.append(timer.cancel)
            else:
                task = asyncio.ensure_future(sleeper(index, delay))
                await asyncio.sleep(0)  # it is added now, in this order
                if cancel:
                    called_off.append(task.cancel)
        for call_off in called_off:
            call_off()
        await clock.sleep_async(10)
        assert clock._sleepers == []

    asyncio.run(main())
    # A timer runs as time moves; a woken sleeper's task on the loop's next turn.
    for each in ("sleeper", "timer"):
        expected = sorted(
            (delay, index)
            for index, (delay, kind, cancel) in enumerate(items)
            if not cancel and kind == each
        )
        indexes = {index for _, index in expected}
        assert [w for w in woke if w[0] in indexes] == [(i, d) for d, i in expected]
    assert len(woke) == sum(not cancel for _, _, cancel in items)
    assert woke == sorted(woke, key=lambda w: w[1])
    assert clock.now() == 10


def test_many_called_off_timers_at_one_time_are_dropped() -> None:
    clock = VirtualClock()
    timers = [clock.call_later(60, lambda: None) for _ in range(1000)]
    kept = clock.call_later(60, lambda: None)
    for timer in timers:
        timer.cancel()
    assert kept in clock._sleepers and len(clock._sleepers) < 600
    clock.advance(60)
    assert kept.done() and clock._sleepers == []

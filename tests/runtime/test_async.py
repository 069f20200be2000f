"""The asyncio driver: cancellation, deadlines, cut-off requests, concurrency on one clock."""

from __future__ import annotations

import asyncio
import logging
import random
from typing import Any

import pytest

from waitable import (
    AsyncWaiter,
    SystemClock,
    WaiterConfigurationError,
    WaiterTimeoutError,
)
from waitable.drivers import poll_with_cutoff
from waitable.flow import CutOff, Raised, Returned
from waitable.testing import VirtualClock

from .harness import RETRY, SUCCESS, THING_EXISTS, Script, Step, waiter_class

PENDING = {"status": "pending"}
DONE = {"status": "success"}


def async_waiter(script: Script, **kwargs: Any) -> Any:
    cls = waiter_class(THING_EXISTS, AsyncWaiter)
    return cls(script.call_async, clock=script.clock, rng=random.Random(3), **kwargs)


def only_this_task_left() -> bool:
    return asyncio.all_tasks() == {asyncio.current_task()}


def test_cancelling_during_a_delay_stops_at_once_and_leaks_nothing() -> None:
    async def main() -> None:
        clock = VirtualClock()
        script = Script(clock, [PENDING])
        task: asyncio.Task[Any] | None = None

        def on_attempt(attempt: Any) -> None:
            if attempt.number == 3:
                assert task is not None
                task.cancel()

        task = asyncio.create_task(
            async_waiter(script, on_attempt=on_attempt).wait({}, max_wait_time=300)
        )
        with pytest.raises(asyncio.CancelledError):
            await task
        assert len(script.calls) == 3
        assert clock.now() == 6  # polls at 0, 2 and 6: no further delay was slept
        assert only_this_task_left()

    asyncio.run(main())


def test_cancelling_during_a_request_cancels_the_request() -> None:
    async def main() -> None:
        clock = VirtualClock()
        script = Script(clock, [PENDING, Step(hang=True)])
        task = asyncio.create_task(async_waiter(script).wait({}, max_wait_time=300))
        await clock.sleep_async(3)  # the second poll starts at 2 and hangs
        assert len(script.calls) == 2
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert script.cancelled == 1
        assert clock.now() == 3
        assert only_this_task_left()

    asyncio.run(main())


def test_the_debug_line_of_a_cut_off_poll_says_it_had_no_answer(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Not "output; no acceptor matched": no answer came and nothing was judged."""

    async def main() -> None:
        clock = VirtualClock()
        script = Script(clock, [PENDING, Step(hang=True)])
        with pytest.raises(WaiterTimeoutError):
            await async_waiter(script).wait({}, max_wait_time=30)

    with caplog.at_level(logging.DEBUG, logger="waitable"):
        asyncio.run(main())
    lines = [
        r.getMessage()
        for r in caplog.records
        if r.name == "waitable" and r.levelno == logging.DEBUG
    ]
    assert lines[0].endswith("output; no acceptor matched -> retry")
    assert lines[1].startswith("waiter ThingExists attempt 2 at 2.000s")
    assert lines[1].endswith(
        "no answer; not judged: the request was cut off at the deadline -> failure"
    )


def test_the_final_poll_cut_off_after_its_allowance_says_so() -> None:
    """The final poll starts at the deadline and may run min_delay seconds more:
    its cut-off comes after the deadline, and the error says by how much."""

    async def main() -> None:
        clock = VirtualClock()
        script = Script(clock, [PENDING, PENDING, Step(hang=True)])
        with pytest.raises(WaiterTimeoutError) as info:
            await async_waiter(script).wait(
                {}, max_wait_time=5, min_delay=2, max_delay=2
            )
        assert [a.started_at for a in info.value.result.history] == [0, 2, 5]
        assert clock.now() == 7
        assert "the final poll's request was cut off 2s after the deadline" in str(
            info.value
        )

    asyncio.run(main())


def test_a_request_in_flight_at_the_deadline_is_cut_off() -> None:
    async def main() -> None:
        clock = VirtualClock()
        script = Script(clock, [PENDING, Step(hang=True)])
        with pytest.raises(WaiterTimeoutError) as info:
            await async_waiter(script).wait({}, max_wait_time=30)
        assert script.cancelled == 1
        assert clock.now() == 30  # cut off exactly at the deadline
        assert "the request was cut off at the deadline" in str(info.value)
        history = info.value.result.history
        assert [a.started_at for a in history] == [0, 2]
        assert history[-1].duration == 28
        assert only_this_task_left()

    asyncio.run(main())


def test_the_final_poll_at_the_deadline_may_take_up_to_min_delay() -> None:
    async def main() -> None:
        clock = VirtualClock()
        # Each request takes 1.5 s; the final one starts at the deadline and still counts.
        slow = [Step(output=PENDING, latency=1.5)] * 2 + [
            Step(output=DONE, latency=1.5)
        ]
        script = Script(clock, slow)
        result = await async_waiter(script).wait({}, max_wait_time=10)
        assert result.state is SUCCESS
        assert [a.started_at for a in result.history] == [0, 3.5, 10]
        assert result.elapsed == 11.5

        clock = VirtualClock()
        script = Script(clock, [PENDING, PENDING, Step(hang=True)])
        with pytest.raises(WaiterTimeoutError) as info:
            await async_waiter(script).wait({}, max_wait_time=5)
        assert (
            clock.now() == 7
        )  # the final poll at 5 was given min_delay (2 s), then cut off
        assert [a.started_at for a in info.value.result.history] == [0, 2, 5]
        assert only_this_task_left()

    asyncio.run(main())


def test_many_waiters_share_one_virtual_clock() -> None:
    """Concurrent waiters interleave on virtual time exactly as they would in real time."""

    async def main() -> None:
        clock = VirtualClock()
        ready_at = {i: i * 7.0 for i in range(40)}

        async def get_thing(input: dict[str, int]) -> dict[str, str]:
            await clock.sleep_async(0.5)
            ready = clock.now() >= ready_at[input["id"]]
            return DONE if ready else PENDING

        cls = waiter_class(THING_EXISTS, AsyncWaiter)
        waiters = [cls(get_thing, clock=clock, rng=random.Random(i)) for i in ready_at]
        results = await asyncio.gather(
            *(w.wait({"id": i}, max_wait_time=600) for i, w in zip(ready_at, waiters))
        )
        for i, result in zip(ready_at, results):
            last = result.history[-1]
            assert last.started_at + 0.5 >= ready_at[i]  # no waiter saw "ready" early
            if len(result.history) > 1:
                before = result.history[-2]
                assert before.started_at + 0.5 < ready_at[i]  # ...nor missed it
            assert result.elapsed == last.started_at + 0.5
        assert clock.now() == max(r.elapsed for r in results)
        assert only_this_task_left()

    asyncio.run(main())


@pytest.mark.parametrize("turn", ["wait", "poll_once"])
def test_a_sync_client_given_to_an_async_waiter_is_a_clear_error(turn: str) -> None:
    cls = waiter_class(THING_EXISTS, AsyncWaiter)
    waiter = cls(lambda input: PENDING, clock=VirtualClock())
    with pytest.raises(
        WaiterConfigurationError, match="an async waiter needs an async client"
    ):
        if turn == "wait":
            asyncio.run(waiter.wait({}, max_wait_time=10))
        else:
            asyncio.run(waiter.poll_once(waiter.start({}, max_wait_time=10)))


def test_an_aiobotocore_style_client_is_called_with_keyword_arguments() -> None:
    class Client:
        def __init__(self) -> None:
            self.seen: list[dict[str, Any]] = []

        async def get_thing(self, **kwargs: Any) -> dict[str, str]:
            self.seen.append(kwargs)
            return DONE if len(self.seen) > 1 else PENDING

    cls = type(
        "ThingExistsWaiter",
        (AsyncWaiter,),
        {"definition": THING_EXISTS, "operation_method": "get_thing"},
    )
    client = Client()
    result = asyncio.run(
        cls(client, clock=VirtualClock()).wait({"name": "t"}, max_wait_time=10)
    )
    assert [a.state for a in result.history] == [RETRY, SUCCESS]
    assert client.seen == [{"name": "t"}, {"name": "t"}]


def test_system_clock_cut_off_uses_the_loops_own_timer() -> None:
    """Without sleeping: a zero budget cuts a hanging request off at the next loop turn."""

    async def main() -> None:
        cancelled = []

        async def hang() -> None:
            try:
                await asyncio.Event().wait()
            except asyncio.CancelledError:
                cancelled.append(True)
                raise

        async def own_timeout() -> None:
            raise TimeoutError("the client's own read timeout")

        async def ok() -> str:
            return "out"

        assert isinstance(await poll_with_cutoff(hang, SystemClock(), 0), CutOff)
        assert cancelled == [True]
        outcome = await poll_with_cutoff(own_timeout, SystemClock(), 60)
        assert isinstance(outcome, Raised) and isinstance(outcome.error, TimeoutError)
        assert await poll_with_cutoff(ok, SystemClock(), 60) == Returned("out")
        assert only_this_task_left()

    asyncio.run(main())


def test_virtual_clock_cut_off_prefers_a_response_that_arrives_in_time() -> None:
    async def main() -> None:
        clock = VirtualClock()

        async def slow() -> str:
            await clock.sleep_async(3)
            return "out"

        assert await poll_with_cutoff(slow, clock, 3) == Returned("out")
        assert clock.now() == 3
        assert isinstance(await poll_with_cutoff(slow, clock, 2.5), CutOff)
        assert clock.now() == 5.5
        assert only_this_task_left()

    asyncio.run(main())

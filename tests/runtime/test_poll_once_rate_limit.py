"""`poll_once` under a shared rate limiter: the saved pause is skipped, a wait for
a token is not. A poll whose token only comes after the deadline is never made
(it was made at once, with no token, when the driver took the token's wait for
the saved pause)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from waitable import RateLimiter, WaiterTimeoutError
from waitable.custom import custom_waiter, path, success
from waitable.testing import VirtualClock

Thing = custom_waiter(
    "Thing", acceptors=[success(path("status") == "ok")], min_delay=1, max_delay=1
)


class Service:
    """Answers `{"status": "ok"}` and records when it was called."""

    def __init__(self, clock: VirtualClock) -> None:
        self.clock = clock
        self.calls: list[float] = []

    def __call__(self, request: Any) -> Any:
        self.calls.append(self.clock.now())
        return {"status": "ok"}

    async def call_async(self, request: Any) -> Any:
        return self(request)


def poll_twice(driver: str, per: float, max_wait_time: float) -> tuple[Service, Any]:
    """Two waits sharing a limiter of one call per `per` seconds, one poll_once each;
    the service and what the second poll_once returned or raised."""
    clock = VirtualClock()
    service = Service(clock)
    limiter = RateLimiter(1, per=per)
    if driver == "sync":
        waiter: Any = Thing(service, clock=clock, rate_limit=limiter)
        waiter.poll_once(waiter.start({}, max_wait_time=max_wait_time))
        try:
            return service, waiter.poll_once(
                waiter.start({}, max_wait_time=max_wait_time)
            )
        except WaiterTimeoutError as error:
            return service, error

    async def run() -> Any:
        waiter = Thing.Async(service.call_async, clock=clock, rate_limit=limiter)
        await waiter.poll_once(waiter.start({}, max_wait_time=max_wait_time))
        try:
            return await waiter.poll_once(waiter.start({}, max_wait_time=max_wait_time))
        except WaiterTimeoutError as error:
            return error

    return service, asyncio.run(run())


@pytest.mark.parametrize("driver", ["sync", "async"])
def test_no_call_is_made_without_a_token(driver: str) -> None:
    service, second = poll_twice(driver, per=1000, max_wait_time=10)
    assert service.calls == [0.0]
    assert isinstance(second, WaiterTimeoutError)
    assert "could only start after the deadline" in str(second)


@pytest.mark.parametrize("driver", ["sync", "async"])
def test_a_token_within_the_deadline_is_waited_for(driver: str) -> None:
    service, second = poll_twice(driver, per=4, max_wait_time=10)
    assert service.calls == [0.0, 4.0]
    assert second.done


@pytest.mark.parametrize("driver", ["sync", "async"])
def test_the_saved_pause_is_still_skipped(driver: str) -> None:
    clock = VirtualClock()
    answers = iter([{"status": "busy"}, {"status": "ok"}])
    calls: list[float] = []

    def service(request: Any) -> Any:
        calls.append(clock.now())
        return next(answers)

    async def service_async(request: Any) -> Any:
        return service(request)

    limiter = RateLimiter(10, per=1)
    if driver == "sync":
        waiter: Any = Thing(service, clock=clock, rate_limit=limiter)
        first = waiter.poll_once(waiter.start({}, max_wait_time=60))
        assert not first.done and first.next_delay == 1
        assert waiter.poll_once(first.state).done
    else:

        async def run() -> None:
            waiter = Thing.Async(service_async, clock=clock, rate_limit=limiter)
            first = await waiter.poll_once(waiter.start({}, max_wait_time=60))
            assert not first.done and first.next_delay == 1
            assert (await waiter.poll_once(first.state)).done

        asyncio.run(run())
    assert calls == [0.0, 0.0]


@pytest.mark.parametrize("driver", ["sync", "async"])
def test_a_poll_with_no_token_in_time_ends_at_once(driver: str) -> None:
    """The limiter's next token comes only after the deadline, so no call can be
    made in time: the wait says so at once instead of sleeping to its deadline
    (which blocked a scheduler's poll_once for up to max_wait_time)."""
    service, second = poll_twice(driver, per=86_400, max_wait_time=3_600)
    assert isinstance(second, WaiterTimeoutError)
    assert service.clock.now() == 0.0


@pytest.mark.parametrize("driver", ["sync", "async"])
def test_a_wait_with_no_token_in_time_ends_at_once(driver: str) -> None:
    clock = VirtualClock()
    service = Service(clock)
    limiter = RateLimiter(1, per=86_400)
    limiter.try_acquire(clock.wall())  # the day's one call is spent
    with pytest.raises(WaiterTimeoutError, match="only start after the deadline"):
        if driver == "sync":
            Thing(service, clock=clock, rate_limit=limiter).wait(
                {}, max_wait_time=3_600
            )
        else:
            asyncio.run(
                Thing.Async(service.call_async, clock=clock, rate_limit=limiter).wait(
                    {}, max_wait_time=3_600
                )
            )
    assert service.calls == [] and clock.now() == 0.0

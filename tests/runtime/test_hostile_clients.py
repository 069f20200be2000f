"""What a slow, hanging or mismatched client cannot make a waiter do.

No poll starts after the deadline (the spec's final poll at the deadline stays);
a task cancelled twice leaves no request task behind; a sync waiter given an
async client fails at once with a `TypeError` naming the async class.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from waitable import (
    AsyncClientError,
    WaiterConfigurationError,
    WaiterError,
    WaiterEvaluationError,
    WaiterTimeoutError,
)
from waitable.flow import START_TOLERANCE
from waitable.clock import SystemClock
from waitable.testing import VirtualClock

from .harness import GROUP_EXISTS, THING_EXISTS, AsyncWaiter, Script, Step, waiter_class


class SlowSleepClock(VirtualClock):
    """A clock whose sleeps overshoot: a busy machine, a slow event loop."""

    def __init__(self, overshoot: float) -> None:
        super().__init__()
        self.overshoot = overshoot

    def sleep(self, seconds: float) -> None:
        super().sleep(seconds + self.overshoot)

    async def sleep_async(self, seconds: float) -> None:
        await super().sleep_async(seconds + self.overshoot)


@settings(max_examples=80, deadline=None)
@given(
    max_wait_time=st.floats(min_value=0.5, max_value=60),
    latency=st.floats(min_value=0, max_value=3),
    overshoot=st.floats(min_value=0, max_value=3),
    asynchronous=st.booleans(),
)
def test_no_poll_starts_after_the_deadline(
    max_wait_time: float, latency: float, overshoot: float, asynchronous: bool
) -> None:
    clock = SlowSleepClock(overshoot)
    starts: list[float] = []

    class Recording(Script):
        def _next(self, input: Any) -> Step:
            starts.append(self.clock.now())
            return super()._next(input)

    script = Recording(clock, [Step({"status": "creating"}, latency=latency)])
    if asynchronous:
        waiter = waiter_class(THING_EXISTS, AsyncWaiter)(script.call_async, clock=clock)
        with pytest.raises(WaiterError):
            asyncio.run(waiter.wait({}, max_wait_time=max_wait_time, min_delay=0.25))
    else:
        waiter = waiter_class(THING_EXISTS)(script, clock=clock)
        with pytest.raises(WaiterError):
            waiter.wait({}, max_wait_time=max_wait_time, min_delay=0.25)
    assert starts[0] == 0
    assert all(t <= max_wait_time + START_TOLERANCE for t in starts)


def test_a_late_poll_is_not_made_and_the_wait_says_why() -> None:
    clock = SlowSleepClock(overshoot=2.5)
    script = Script(clock, [{"status": "creating"}])
    waiter = waiter_class(THING_EXISTS)(script, clock=clock)
    with pytest.raises(
        WaiterTimeoutError, match="only start after the deadline"
    ) as caught:
        waiter.wait({}, max_wait_time=1)
    assert len(script.calls) == 1
    assert caught.value.result.attempts == 1, "the poll that was not made is no attempt"


def test_a_late_async_poll_is_not_made_and_the_wait_says_why() -> None:
    # The async driver does not read the clock again before the call: the flow
    # refuses the poll itself, from the reading it makes the Poll with.
    clock = SlowSleepClock(overshoot=2.5)
    script = Script(clock, [{"status": "creating"}])
    waiter = waiter_class(THING_EXISTS, AsyncWaiter)(script.call_async, clock=clock)
    with pytest.raises(
        WaiterTimeoutError, match="only start after the deadline"
    ) as caught:
        asyncio.run(waiter.wait({}, max_wait_time=1))
    assert len(script.calls) == 1
    assert caught.value.result.attempts == 1, "the poll that was not made is no attempt"


async def _coroutine_client(input: Any) -> Any:
    return {"status": "success"}


class _AwaitableCall:
    """A client object whose `__call__` returns a coroutine without being `async def`."""

    def __call__(self, input: Any) -> Any:
        return _coroutine_client(input)


def test_a_sync_waiter_refuses_a_coroutine_function_at_once() -> None:
    cls = waiter_class(THING_EXISTS)
    with pytest.raises(TypeError, match="use AsyncThingExistsWaiter"):
        cls(_coroutine_client)
    with pytest.raises(AsyncClientError):
        cls(_coroutine_client)


def test_a_sync_waiter_refuses_a_call_that_returns_an_awaitable() -> None:
    waiter = waiter_class(THING_EXISTS)(_AwaitableCall(), clock=VirtualClock())
    with pytest.raises(TypeError, match="AsyncThingExistsWaiter") as caught:
        waiter.wait({}, max_wait_time=300)
    assert not isinstance(caught.value, WaiterError)


def test_an_async_method_of_a_client_object_is_refused_too() -> None:
    class Client:
        async def call_operation(self, **input: Any) -> Any:
            return {}

    with pytest.raises(TypeError, match="AsyncThingExistsWaiter"):
        waiter_class(THING_EXISTS)(Client())


def test_an_async_client_with_plain_methods_is_refused_at_construction() -> None:
    """aiobotocore's client methods are plain functions returning coroutines: the
    client was taken and refused only at the first poll. It is an async context
    manager only (`async with`, no `with`), which is how it is told apart."""

    class AioLikeClient:
        async def __aenter__(self) -> AioLikeClient:
            return self

        async def __aexit__(self, *exc: object) -> None:
            return None

        def call_operation(self, **input: Any) -> Any:
            return _coroutine_client(input)

    with pytest.raises(AsyncClientError, match="use AsyncThingExistsWaiter"):
        waiter_class(THING_EXISTS)(AioLikeClient())

    # both ways of entering it: a sync client that also works with `async with`
    class BothWays(AioLikeClient):
        def __enter__(self) -> BothWays:
            return self

        def __exit__(self, *exc: object) -> None:
            return None

        def call_operation(self, **input: Any) -> Any:
            return {"status": "success"}

    waiter = waiter_class(THING_EXISTS)(BothWays(), clock=VirtualClock())
    assert waiter.wait({}, max_wait_time=60).attempts == 1


def test_a_real_aiobotocore_client_is_refused_by_a_sync_waiter() -> None:
    aiobotocore_session = pytest.importorskip("aiobotocore.session")
    cls = type(
        "BucketExistsWaiter",
        (waiter_class(THING_EXISTS),),
        {"operation_method": "head_bucket"},
    )

    async def main() -> None:
        session = aiobotocore_session.get_session()
        async with session.create_client(
            "s3",
            region_name="us-east-1",
            endpoint_url="http://127.0.0.1:9",  # never reached
            aws_access_key_id="test",
            aws_secret_access_key="test",
        ) as client:
            with pytest.raises(AsyncClientError, match="AsyncBucketExistsWaiter"):
                cls(client)

    asyncio.run(main())


def test_an_async_waiter_refuses_a_boto3_client_at_construction() -> None:
    """It was taken: its calls blocked the event loop, and a call that raised (a
    404) was judged as a failed poll, so BucketNotExists even succeeded."""
    boto3 = pytest.importorskip("boto3")
    aiobotocore_session = pytest.importorskip("aiobotocore.session")
    cls = type(
        "AsyncBucketExistsWaiter",
        (waiter_class(THING_EXISTS, AsyncWaiter),),
        {"operation_method": "head_bucket"},
    )
    credentials = {
        "region_name": "us-east-1",
        "endpoint_url": "http://127.0.0.1:9",  # never reached
        "aws_access_key_id": "test",
        "aws_secret_access_key": "test",
    }
    with pytest.raises(WaiterConfigurationError, match="got a boto3 client"):
        cls(boto3.client("s3", **credentials))

    async def main() -> None:  # aiobotocore's client is a botocore subclass: taken
        session = aiobotocore_session.get_session()
        async with session.create_client("s3", **credentials) as client:
            cls(client)

    asyncio.run(main())


@pytest.mark.parametrize("clock_kind", ["real", "virtual"])
@pytest.mark.parametrize("cancels", [1, 2, 3])
def test_cancelling_repeatedly_leaves_no_task_behind(
    cancels: int, clock_kind: str
) -> None:
    """On either clock, cancels that come while the request cleans up wait for the
    cleanup to finish; then the wait ends cancelled and no task is left."""
    clock = SystemClock() if clock_kind == "real" else VirtualClock()
    cleaned: list[bool] = []

    async def slow_to_cancel(input: Any) -> Any:
        """A request that takes a few loop turns to clean up (closing a connection)."""
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            for _ in range(5):
                await asyncio.sleep(0)
            cleaned.append(True)
            raise

    waiter = waiter_class(THING_EXISTS, AsyncWaiter)(slow_to_cancel, clock=clock)

    async def main() -> None:
        task = asyncio.ensure_future(waiter.wait({}, max_wait_time=300))
        for _ in range(3):
            await asyncio.sleep(0)
        for _ in range(cancels):
            task.cancel()
            await asyncio.sleep(0)
        with pytest.raises(asyncio.CancelledError):
            await task
        assert asyncio.all_tasks() == {asyncio.current_task()}, "a task leaked"

    asyncio.run(main())
    assert cleaned == [True]


class _TrappedOutput(dict[str, Any]):
    """A client's own mapping type whose reads fail: not the response's data."""

    def get(self, key: Any, default: Any = None) -> Any:
        raise KeyError("the client's object broke")

    def __getitem__(self, key: Any) -> Any:
        raise KeyError("the client's object broke")

    def items(self) -> Any:
        raise KeyError("the client's object broke")


@pytest.mark.parametrize("asynchronous", [False, True])
def test_an_acceptor_that_cannot_be_evaluated_ends_with_the_history(
    asynchronous: bool,
) -> None:
    clock = VirtualClock()
    script = Script(clock, [{"status": "creating"}, _TrappedOutput(status="x")])
    if asynchronous:
        waiter: Any = waiter_class(THING_EXISTS, AsyncWaiter)(
            script.call_async, clock=clock
        )
        run = lambda: asyncio.run(waiter.wait({}, max_wait_time=300))  # noqa: E731
    else:
        waiter = waiter_class(THING_EXISTS)(script, clock=clock)
        run = lambda: waiter.wait({}, max_wait_time=300)  # noqa: E731
    with pytest.raises(WaiterEvaluationError) as caught:
        run()
    error = caught.value
    assert error.result.attempts == 2 and len(error.result.history) == 2
    assert error.result.history[-1].acceptor_index == error.acceptor_index
    assert isinstance(error.__cause__, KeyError)
    assert "ThingExists" in str(error)


def test_an_input_that_holds_itself_is_refused_before_any_request() -> None:
    clock = VirtualClock()
    script = Script(clock, [{"status": "success"}])
    looped: dict[str, Any] = {}
    looped["self"] = looped
    waiter = waiter_class(GROUP_EXISTS)(script, clock=clock)
    with pytest.raises(ValueError, match="input cannot be put"):
        waiter.wait(looped, max_wait_time=300)
    assert script.calls == []


def test_a_backoff_of_astronomical_seconds_is_a_clear_error() -> None:
    clock = VirtualClock()
    script = Script(clock, [{"status": "creating"}])
    waiter = waiter_class(THING_EXISTS)(
        script, clock=clock, backoff=lambda retry: 10**400
    )
    with pytest.raises(ValueError, match="a strategy must return"):
        waiter.wait({}, max_wait_time=300)

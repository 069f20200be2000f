"""The service the test waits poll: a callable whose state lives in Redis, shared by all processes.

Each thing (`{"Name": ...}`) has a plan: `ready` or `broken` after some polls, or
`never`. Every call is counted and its wall-clock time kept, so a test can check
that no poll ran after its wait's deadline.
"""

from __future__ import annotations

import os
import time
from typing import Any

import redis

from waitable import (
    Acceptor,
    AcceptorState,
    AsyncWaiter,
    Comparator,
    OutputMatcher,
    Waiter,
    WaiterDefinition,
)

THING_READY = WaiterDefinition(
    name="ThingReady",
    operation="example.things#DescribeThing",
    acceptors=(
        Acceptor(
            AcceptorState.SUCCESS,
            OutputMatcher("Status", "READY", Comparator.STRING_EQUALS),
        ),
        Acceptor(
            AcceptorState.FAILURE,
            OutputMatcher("Status", "BROKEN", Comparator.STRING_EQUALS),
        ),
    ),
    min_delay=1,
    max_delay=5,
)


class ThingReadyWaiter(Waiter[dict[str, Any], dict[str, Any]]):
    """As the generator writes a waiter: the definition and the client's method."""

    definition = THING_READY
    operation_method = "describe_thing"


class AsyncThingReadyWaiter(AsyncWaiter[dict[str, Any], dict[str, Any]]):
    """The asyncio twin, run on the worker's event loop thread."""

    definition = THING_READY
    operation_method = "describe_thing"


class ThingService:
    """The fake service's client: `describe_thing(Name=...)` reads and counts in Redis."""

    def __init__(self, url: str) -> None:
        self.redis = redis.Redis.from_url(url)

    def plan(self, name: str, outcome: str, after: int, slow_first: float = 0) -> None:
        """`outcome` (`ready`, `broken`, `never`) from poll number `after` on; the
        first call takes `slow_first` seconds (a service that answers late)."""
        mapping = {"outcome": outcome, "after": after, "slow_first": slow_first}
        self.redis.hset(f"thing:{name}", mapping=mapping)

    def describe_thing(self, Name: str) -> dict[str, Any]:
        """One call: `PENDING` until the plan says otherwise."""
        now = time.time()
        pipe = self.redis.pipeline()
        pipe.hincrby(f"thing:{Name}", "polls", 1)
        pipe.hmget(f"thing:{Name}", "outcome", "after", "slow_first")
        pipe.rpush(f"calls:{Name}", repr(now))
        polls, (outcome, after, slow_first), _ = pipe.execute()
        if polls == 1 and slow_first:
            time.sleep(float(slow_first))  # a real worker, blocked in its call
        if outcome is None:
            return {"Status": "PENDING"}
        if polls >= int(after) and outcome == b"ready":
            return {"Status": "READY", "Name": Name}
        if polls >= int(after) and outcome == b"broken":
            return {"Status": "BROKEN", "Name": Name}
        return {"Status": "PENDING", "Name": Name}


class AsyncThingService:
    """`ThingService` behind a coroutine method, for the async waiter."""

    def __init__(self, url: str) -> None:
        self.sync = ThingService(url)

    async def describe_thing(self, Name: str) -> dict[str, Any]:
        """The same call, awaited."""
        return self.sync.describe_thing(Name)


def make_client() -> ThingService:
    """The client factory the worker calls by name."""
    return ThingService(os.environ["WAIT_TEST_REDIS_URL"])


async def make_async_client() -> AsyncThingService:
    """The async client factory (a coroutine function), made on the worker's loop."""
    return AsyncThingService(os.environ["WAIT_TEST_REDIS_URL"])

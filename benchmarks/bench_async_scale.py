"""Many concurrent async waits in one process: waitable against a hand-written asyncio loop.

Each contender runs `N` concurrent waits (default 10,000 and 100,000) in one event
loop, each polling one shared async client until the resource's `State` reads
"running" (it does on the `--polls`th call; outputs are tiny, so what is measured
is the loop's own cost):

- hand-written: `async with asyncio.timeout(max_wait)` around the loop,
  `await get(input)`, compare, `await asyncio.sleep(0)` (the baseline of the ratios);
- hand-written with the timeout around each request instead (`asyncio.timeout_at`
  of the deadline), for reference: what cutting off only requests costs by hand;
- waitable, real clock: one `AsyncWaiter` for the client (as an application holds
  one per client), `await waiter.wait(input, max_wait_time=...)` per resource,
  `RetryImmediately` so it sleeps as little as the hand-written loop;
- waitable, `VirtualClock`: the same on one shared virtual clock, sleeping the
  model's minimum delay (2 s) between polls so virtual time moves and the clock's
  sleeps are measured. Its backoff is `FixedDelay()`, which costs what
  `RetryImmediately` costs: the ratio to the real clock is the clock's, not the
  jitter's (the default `SmithyBackoff` draws with `random.randint`, ~1.5 us).

Printed per N, best of `--repeat` rounds that alternate between contenders (load
on a shared machine hurts all alike): CPU microseconds per poll, and the memory
one pending wait holds (tracemalloc, the waits parked inside their third call, so
two polls are in each history), each with its ratio to the hand-written loop.
botocore has no asyncio waiter, so it is not a contender here (see bench_poll.py).

Run: `.venv/bin/python benchmarks/bench_async_scale.py [--waiters 10000 100000]`.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import gc
import os
import platform
import time
import tracemalloc
from collections.abc import Awaitable, Callable
from typing import Any, ClassVar

from waitable import (
    Acceptor,
    AsyncWaiter,
    FixedDelay,
    OutputMatcher,
    RetryImmediately,
    WaiterDefinition,
)
from waitable.testing import VirtualClock
from waitable_codegen.jmespath import compile as compile_jmespath

MAX_WAIT = 10**6

INTERPRETED = WaiterDefinition.from_trait(
    "Running",
    "ns#Get",
    {
        "acceptors": [
            {
                "state": "success",
                "matcher": {
                    "output": {
                        "path": "State",
                        "expected": "running",
                        "comparator": "stringEquals",
                    }
                },
            }
        ]
    },
)


# As a generated class holds it: the path compiled by the generator, and the
# read position the model says holds plain data (a string member).
RUNNING = dataclasses.replace(
    INTERPRETED,
    plain_reads=(("State",),),
    acceptors=tuple(
        Acceptor(
            a.state,
            OutputMatcher(
                a.matcher.path,
                a.matcher.expected,
                a.matcher.comparator,
                search=compile_jmespath(a.matcher.path),
            ),
            a.message,
        )
        for a in INTERPRETED.acceptors
        if isinstance(a.matcher, OutputMatcher)
    ),
)


class RunningWaiter(AsyncWaiter[dict[str, Any], dict[str, Any]]):
    """Waits until `State` is "running"."""

    definition: ClassVar[WaiterDefinition] = RUNNING


class Service:
    """A fake async service: resource `Id` runs from its `polls`th call on.

    With a `gate`, every call number `park_at` waits on it (the waits are then
    pending inside a call, the deepest point of their stacks).
    """

    def __init__(self, count: int, polls: int) -> None:
        self.calls = [0] * count
        self.polls = polls
        self.pending = {"State": "pending"}
        self.done = {"State": "running"}
        self.gate: asyncio.Future[None] | None = None
        self.park_at = 0
        self.parked = 0

    async def get(self, input: dict[str, Any]) -> dict[str, str]:
        key = input["Id"]
        calls = self.calls[key] = self.calls[key] + 1
        if calls == self.park_at and self.gate is not None:
            self.parked += 1
            await self.gate
        return self.done if calls >= self.polls else self.pending


async def hand_written(
    get: Callable[[dict[str, Any]], Awaitable[dict[str, str]]], input: dict[str, Any]
) -> int:
    """The loop an application would write without waitable."""
    polls = 0
    async with asyncio.timeout(MAX_WAIT):
        while True:
            output = await get(input)
            polls += 1
            if output["State"] == "running":
                return polls
            await asyncio.sleep(0)


async def hand_written_per_poll(
    get: Callable[[dict[str, Any]], Awaitable[dict[str, str]]], input: dict[str, Any]
) -> int:
    """The same loop with the cut-off around each request (so sleeps are never cut)."""
    polls = 0
    deadline = asyncio.get_running_loop().time() + MAX_WAIT
    while True:
        async with asyncio.timeout_at(deadline):
            output = await get(input)
        polls += 1
        if output["State"] == "running":
            return polls
        await asyncio.sleep(0)


Contender = Callable[[Service, list[dict[str, Any]]], list[Awaitable[int]]]


def hand_written_waits(service: Service, inputs: list[dict[str, Any]]) -> list[Any]:
    return [hand_written(service.get, input) for input in inputs]


def hand_written_per_poll_waits(
    service: Service, inputs: list[dict[str, Any]]
) -> list[Any]:
    return [hand_written_per_poll(service.get, input) for input in inputs]


def waitable_real(service: Service, inputs: list[dict[str, Any]]) -> list[Any]:
    waiter = RunningWaiter(service.get, backoff=RetryImmediately())
    return [waiter.wait(input, max_wait_time=MAX_WAIT) for input in inputs]


def waitable_virtual(service: Service, inputs: list[dict[str, Any]]) -> list[Any]:
    waiter = RunningWaiter(service.get, clock=VirtualClock(), backoff=FixedDelay())
    return [waiter.wait(input, max_wait_time=MAX_WAIT) for input in inputs]


CONTENDERS: dict[str, Contender] = {
    "hand-written asyncio loop": hand_written_waits,
    "hand-written, timeout per poll": hand_written_per_poll_waits,
    "waitable, real clock": waitable_real,
    "waitable, VirtualClock": waitable_virtual,
}


def cpu_per_poll(contender: Contender, count: int, polls: int) -> float:
    """CPU microseconds per poll of `count` concurrent waits run to success."""
    service = Service(count, polls)
    inputs = [{"Id": i} for i in range(count)]

    async def run() -> int:
        done = await asyncio.gather(*contender(service, inputs))
        return len(done)

    gc.collect()
    start = time.process_time()
    finished = asyncio.run(run())
    spent = time.process_time() - start
    assert finished == count and sum(service.calls) == count * polls
    return spent / (count * polls) * 1e6


def memory_per_wait(contender: Contender, count: int, polls: int) -> float:
    """Bytes (tracemalloc) one pending wait holds while parked inside its third call."""
    service = Service(count, polls)
    service.park_at = min(3, polls)
    inputs = [{"Id": i} for i in range(count)]

    async def run() -> float:
        service.gate = asyncio.get_running_loop().create_future()
        gc.collect()
        before = tracemalloc.get_traced_memory()[0]
        tasks = [asyncio.ensure_future(w) for w in contender(service, inputs)]
        while service.parked < count:
            await asyncio.sleep(0)
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - before
        service.gate.set_result(None)
        await asyncio.gather(*tasks)
        return held / count

    tracemalloc.start()
    try:
        return asyncio.run(run())
    finally:
        tracemalloc.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--waiters", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--polls", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument(
        "--memory-contenders",
        nargs="+",
        default=["hand-written asyncio loop", "waitable, real clock"],
    )
    args = parser.parse_args()
    print(
        f"{platform.python_implementation()} {platform.python_version()}, "
        f"{platform.machine()}, {os.cpu_count()} cores, "
        f"{args.polls} polls per wait, best of {args.repeat}"
    )
    base = "hand-written asyncio loop"
    for count in args.waiters:
        cpu = {name: float("inf") for name in CONTENDERS}
        memory = {name: float("inf") for name in args.memory_contenders}
        for _ in range(args.repeat):
            for name, contender in CONTENDERS.items():
                cpu[name] = min(cpu[name], cpu_per_poll(contender, count, args.polls))
            for name in memory:
                memory[name] = min(
                    memory[name], memory_per_wait(CONTENDERS[name], count, args.polls)
                )
        print(f"{count:,} concurrent waits:")
        for name in CONTENDERS:
            line = f"  {name:28} {cpu[name]:7.1f} us CPU/poll ({cpu[name] / cpu[base]:.2f}x)"
            if name in memory:
                kb = memory[name] / 1024
                line += (
                    f"   {kb:6.2f} KB/pending wait ({memory[name] / memory[base]:.2f}x)"
                )
            print(line)
        virtual, real = cpu["waitable, VirtualClock"], cpu["waitable, real clock"]
        print(f"  VirtualClock / real clock: {virtual / real:.2f}x")


if __name__ == "__main__":
    main()

"""Side-by-side cost of a poll: waitable against botocore's waiter, and 10,000 async waiters.

1. EC2 InstanceRunning (success when `Reservations[].Instances[].State.Name` are all
   "running", failure when any is shutting-down, terminated or stopping, retry on
   InvalidInstanceID.NotFound) over a synthetic 200-instance DescribeInstances
   response. Both waiters run whole waits of `--polls` polls against a function that
   returns the prepared responses, with sleeping switched off (botocore's `time.sleep`
   replaced by a no-op here, a `VirtualClock` for waitable), so what is measured is
   acceptor evaluation and the loop's bookkeeping. waitable runs the definition a
   generated class holds (paths compiled by `waitable_codegen.jmespath.compile`, the
   source the generator writes); the same definition with `search=None` (paths run
   by the `jmespath` interpreter) is shown too. Rounds alternate between the
   contenders and the best round of each counts, so load on a shared machine hurts
   all alike. Printed: microseconds per poll and how many times faster waitable is.
2. `--waiters` concurrent `AsyncWaiter`s in one event loop, each polling an async
   client `--async-polls` times: CPU time per poll, on a shared `VirtualClock` and
   on the real clock with `RetryImmediately`.

Run: `.venv/bin/python benchmarks/bench_poll.py` (a single run; figures vary by machine).
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import random
import time
import types
from collections.abc import Callable
from typing import Any, ClassVar

import botocore.session  # type: ignore[import-untyped]
import botocore.waiter  # type: ignore[import-untyped]

from waitable import (
    Acceptor,
    AsyncWaiter,
    InputOutputMatcher,
    OutputMatcher,
    RetryImmediately,
    SystemClock,
    Waiter,
    WaiterDefinition,
)
from waitable.testing import VirtualClock
from waitable_codegen.jmespath import compile as compile_jmespath

from ec2_responses import describe_instances

INSTANCE_RUNNING_TRAIT = {
    "minDelay": 15,
    "acceptors": [
        {
            "state": "success",
            "matcher": {
                "output": {
                    "path": "Reservations[].Instances[].State.Name",
                    "expected": "running",
                    "comparator": "allStringEquals",
                }
            },
        },
        *(
            {
                "state": "failure",
                "matcher": {
                    "output": {
                        "path": "Reservations[].Instances[].State.Name",
                        "expected": state,
                        "comparator": "anyStringEquals",
                    }
                },
            }
            for state in ("shutting-down", "terminated", "stopping")
        ),
        {"state": "retry", "matcher": {"errorType": "InvalidInstanceID.NotFound"}},
    ],
}
INSTANCE_RUNNING_INTERPRETED = WaiterDefinition.from_trait(
    "InstanceRunning", "com.amazonaws.ec2#DescribeInstances", INSTANCE_RUNNING_TRAIT
)


def with_compiled_paths(definition: WaiterDefinition) -> WaiterDefinition:
    """The definition as generated code builds it: each path with its compiled `search`."""
    acceptors = []
    for acceptor in definition.acceptors:
        matcher = acceptor.matcher
        if isinstance(matcher, (OutputMatcher, InputOutputMatcher)):
            matcher = type(matcher)(
                matcher.path,
                matcher.expected,
                matcher.comparator,
                search=compile_jmespath(matcher.path),
            )
        acceptors.append(Acceptor(acceptor.state, matcher, acceptor.message))
    return dataclasses.replace(definition, acceptors=tuple(acceptors))


INSTANCE_RUNNING = with_compiled_paths(INSTANCE_RUNNING_INTERPRETED)


def scripted(responses: list[dict[str, Any]]) -> Callable[..., dict[str, Any]]:
    position = 0

    def describe(*args: Any, **kwargs: Any) -> dict[str, Any]:
        nonlocal position
        response = responses[min(position, len(responses) - 1)]
        position += 1
        return response

    return describe


def best_of(repeat: int, contenders: dict[str, Callable[[], None]]) -> dict[str, float]:
    """CPU seconds of each contender's best run; rounds alternate between contenders."""
    best = {name: float("inf") for name in contenders}
    for _ in range(repeat):
        for name, run in contenders.items():
            start = time.process_time()
            run()
            best[name] = min(best[name], time.process_time() - start)
    return best


def bench_instance_running(instances: int, polls: int, waits: int, repeat: int) -> None:
    responses = [describe_instances(instances, "pending")] * (polls - 1)
    responses.append(describe_instances(instances, "running"))

    session = botocore.session.get_session()
    loader = session.get_component("data_loader")
    model = botocore.waiter.WaiterModel(loader.load_service_model("ec2", "waiters-2"))
    config = model.get_waiter("InstanceRunning")
    botocore.waiter.time = types.SimpleNamespace(
        sleep=lambda seconds: None
    )  # no sleeping

    def botocore_waits() -> None:
        for _ in range(waits):
            waiter = botocore.waiter.Waiter(
                "InstanceRunning", config, scripted(responses)
            )
            waiter.wait(
                InstanceIds=["i-1"], WaiterConfig={"Delay": 15, "MaxAttempts": polls}
            )

    def waitable_waits(chosen: WaiterDefinition) -> Callable[[], None]:
        class InstanceRunningWaiter(Waiter[dict[str, Any], dict[str, Any]]):
            definition: ClassVar[WaiterDefinition] = chosen
            operation_method: ClassVar[str] = "describe_instances"

        def run() -> None:
            for _ in range(waits):
                waiter = InstanceRunningWaiter(
                    scripted(responses), clock=VirtualClock(), rng=random.Random(0)
                )
                result = waiter.wait({"InstanceIds": ["i-1"]}, max_wait_time=10**7)
                assert result.attempts == polls

        return run

    best = best_of(
        repeat,
        {
            "botocore.waiter": botocore_waits,
            "waitable (generated: compiled paths)": waitable_waits(INSTANCE_RUNNING),
            "waitable (paths interpreted by jmespath)": waitable_waits(
                INSTANCE_RUNNING_INTERPRETED
            ),
        },
    )
    total = polls * waits
    per_poll = {name: seconds / total * 1e6 for name, seconds in best.items()}
    theirs = per_poll["botocore.waiter"]
    print(
        f"InstanceRunning over {instances} instances, {total} polls per run, best of {repeat}:"
    )
    for name, micros in per_poll.items():
        faster = "" if micros == theirs else f"  ({theirs / micros:.1f}x faster)"
        print(f"  {name:42} {micros:8.1f} us/poll{faster}")
    ours = per_poll["waitable (generated: compiled paths)"]
    print(f"  ratio botocore/waitable = {theirs / ours:.1f}")


def bench_async(waiters: int, polls: int) -> None:
    pending, done = {"State": "pending"}, {"State": "running"}
    running = WaiterDefinition.from_trait(
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

    class RunningWaiter(AsyncWaiter[dict[str, Any], dict[str, Any]]):
        definition: ClassVar[WaiterDefinition] = running

    def client() -> Callable[[Any], Any]:
        count = 0

        async def get(input: Any) -> dict[str, str]:
            nonlocal count
            count += 1
            return done if count >= polls else pending

        return get

    async def run_all(clock_factory: Callable[[], Any], **wait_kwargs: Any) -> int:
        clock = clock_factory()
        tasks = [
            RunningWaiter(client(), clock=clock, rng=random.Random(i)).wait(
                {}, max_wait_time=10**6, **wait_kwargs
            )
            for i in range(waiters)
        ]
        results = await asyncio.gather(*tasks)
        return sum(r.attempts for r in results)

    for label, factory, kwargs in (
        ("shared VirtualClock", VirtualClock, {}),
        ("real clock, RetryImmediately", SystemClock, {"backoff": RetryImmediately()}),
    ):
        start = time.process_time()
        total = asyncio.run(run_all(factory, **kwargs))
        spent = time.process_time() - start
        print(
            f"{waiters} concurrent async waiters ({label}): {total} polls, "
            f"{spent:.2f}s CPU, {spent / total * 1e6:.1f} us CPU/poll"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--instances", type=int, default=200)
    parser.add_argument("--polls", type=int, default=10)
    parser.add_argument("--waits", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--waiters", type=int, default=10_000)
    parser.add_argument("--async-polls", type=int, default=5)
    args = parser.parse_args()
    bench_instance_running(args.instances, args.polls, args.waits, args.repeat)
    bench_async(args.waiters, args.async_polls)


if __name__ == "__main__":
    main()

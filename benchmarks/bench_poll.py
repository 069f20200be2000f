"""Side-by-side cost of a whole poll: waitable against hand-written Python and botocore.

1. EC2 InstanceRunning (success when `Reservations[].Instances[].State.Name` are all
   "running", failure when any is shutting-down, terminated or stopping, retry on
   InvalidInstanceID.NotFound) over a synthetic 200-instance DescribeInstances
   response. Both waiters run whole waits of `--polls` polls against a function that
   returns the prepared responses, with sleeping switched off (botocore's `time.sleep`
   replaced by a no-op here, a `VirtualClock` for waitable), so what is measured is
   acceptor evaluation and the loop's bookkeeping. waitable runs the definition a
   generated class holds (paths compiled by `waitable_codegen.jmespath.compile`, the
   source the generator writes, and the `plain_reads` it records from EC2's model:
   `State.Name` is an enum, so nothing the path reads needs the data-model check);
   the same definition without `plain_reads`, and with `search=None` (paths run by
   the `jmespath` interpreter), is shown too. The yardstick is hand-written Python
   doing the same: the path once per poll (`bench_jmespath.hand_written_states`),
   the acceptors' comparisons in order, and the least bookkeeping a wait needs
   (attempt count, elapsed time, the last output, the spec's jittered delay on the
   same `VirtualClock`). Rounds alternate between the contenders and the best round
   of each counts, so load on a shared machine hurts all alike. Printed:
   microseconds per poll, waitable's whole poll as a ratio to hand-written Python
   and to botocore, and where waitable's poll goes (data-model check, acceptors,
   engine bookkeeping), each timed alone on the same responses.
Many concurrent async waits are measured by `bench_async_scale.py`.

Run: `.venv/bin/python benchmarks/bench_poll.py` (a single run; figures vary by machine).
"""

from __future__ import annotations

import argparse
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
    InputOutputMatcher,
    OutputMatcher,
    Waiter,
    WaiterDefinition,
)
from waitable.matching import match_output
from waitable.testing import VirtualClock
from waitable_codegen.jmespath import compile as compile_jmespath

from bench_jmespath import hand_written_states
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


# What generate-waiters records for InstanceRunning from EC2's model.
STATE_NAMES = (("Reservations", "Instances", "State", "Name"),)
FAILING_STATES = ("shutting-down", "terminated", "stopping")


def with_compiled_paths(
    definition: WaiterDefinition, plain_reads: tuple[tuple[str, ...], ...] = ()
) -> WaiterDefinition:
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
    return dataclasses.replace(
        definition, acceptors=tuple(acceptors), plain_reads=plain_reads
    )


INSTANCE_RUNNING = with_compiled_paths(INSTANCE_RUNNING_INTERPRETED, STATE_NAMES)
INSTANCE_RUNNING_CHECKED = with_compiled_paths(INSTANCE_RUNNING_INTERPRETED)


def hand_written_wait(
    describe: Callable[[Any], Any],
    input: dict[str, Any],
    clock: VirtualClock,
    rng: random.Random,
    max_wait_time: float,
    min_delay: float = 15,
    max_delay: float = 120,
) -> tuple[int, float, Any]:
    """InstanceRunning by hand: attempts, elapsed seconds and the last output.

    Each poll evaluates the path once, then the acceptors' comparisons in order
    (all "running": success; any failing state: failure); otherwise the spec's
    jittered exponential delay, the last one cut to end at the deadline.
    """
    started = clock.now()
    deadline = started + max_wait_time
    attempts = 0
    while True:
        output = describe(input)
        attempts += 1
        names = hand_written_states(output)
        if names is not None:
            if names and all(name == "running" for name in names):
                return attempts, clock.now() - started, output
            if any(name in FAILING_STATES for name in names):
                raise RuntimeError(f"instance failed after {attempts} attempts")
        remaining = deadline - clock.now()
        if remaining <= 0:
            raise TimeoutError(f"not running after {attempts} attempts")
        delay = rng.uniform(min_delay, min(max_delay, min_delay * 2 ** (attempts - 1)))
        if remaining - delay <= min_delay:
            delay = remaining
        clock.sleep(delay)


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

    def waitable_waits(
        chosen: WaiterDefinition, responses: list[dict[str, Any]] = responses
    ) -> Callable[[], None]:
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

    def hand_written_waits(
        responses: list[dict[str, Any]] = responses,
    ) -> Callable[[], None]:
        def run() -> None:
            for _ in range(waits):
                attempts, _, _ = hand_written_wait(
                    scripted(responses),
                    {"InstanceIds": ["i-1"]},
                    VirtualClock(),
                    random.Random(0),
                    max_wait_time=10**7,
                )
                assert attempts == polls

        return run

    hand, ours = "hand-written Python", "waitable (generated: compiled paths)"
    checked = "waitable (compiled, no plain_reads)"
    best = best_of(
        repeat,
        {
            hand: hand_written_waits(),
            ours: waitable_waits(INSTANCE_RUNNING),
            checked: waitable_waits(INSTANCE_RUNNING_CHECKED),
            "waitable (paths interpreted by jmespath)": waitable_waits(
                INSTANCE_RUNNING_INTERPRETED
            ),
            "botocore.waiter": botocore_waits,
        },
    )
    total = polls * waits
    per_poll = {name: seconds / total * 1e6 for name, seconds in best.items()}
    theirs, base = per_poll["botocore.waiter"], per_poll[hand]
    print(
        f"InstanceRunning over {instances} instances, {total} polls per run, best of {repeat}:"
    )
    for name, micros in per_poll.items():
        print(
            f"  {name:42} {micros:8.1f} us/poll  ({micros / base:.2f}x hand-written, "
            f"{theirs / micros:.1f}x faster than botocore)"
        )
    print(
        f"  whole poll: waitable / hand-written = {per_poll[ours] / base:.2f}, "
        f"botocore / waitable = {theirs / per_poll[ours]:.1f}"
    )

    # Where the poll goes. The loops' own bookkeeping is timed on 1-instance
    # responses (whole waits minus their acceptors timed alone); the data-model
    # check is what the definition without plain_reads costs more.
    small = [describe_instances(1, "pending")] * (polls - 1)
    small.append(describe_instances(1, "running"))
    parts = best_of(
        repeat,
        {
            "check": per_response(responses, INSTANCE_RUNNING.output_converter, waits),
            "waitable": waitable_waits(INSTANCE_RUNNING, small),
            "waitable acceptors": per_response(
                small, lambda r: match_output(INSTANCE_RUNNING, r, {}), waits
            ),
            "hand-written": hand_written_waits(small),
            "hand-written acceptors": per_response(small, hand_written_poll, waits),
        },
    )
    part = {name: seconds / total * 1e6 for name, seconds in parts.items()}
    ours_kept = part["waitable"] - part["waitable acceptors"]
    hand_kept = part["hand-written"] - part["hand-written acceptors"]
    check = part["check"]
    print(
        f"  waitable's poll: engine bookkeeping (flow, driver, waiter) {ours_kept:.1f} us "
        f"(hand-written: {hand_kept:.1f}), data-model check {check:.1f} us "
        f"({per_poll[checked] - per_poll[ours] + check:.1f} without plain_reads), "
        f"acceptors (paths, comparators) {per_poll[ours] - ours_kept - check:.1f} us"
    )


def per_response(
    responses: list[dict[str, Any]], judge: Callable[[Any], object], waits: int
) -> Callable[[], None]:
    """`judge` on every response of `waits` waits, as the whole waits would."""

    def run() -> None:
        for _ in range(waits):
            for response in responses:
                judge(response)

    return run


def hand_written_poll(response: Any) -> str | None:
    """One poll's acceptors by hand, as `hand_written_wait` evaluates them."""
    names = hand_written_states(response)
    if names is not None:
        if names and all(name == "running" for name in names):
            return "success"
        if any(name in FAILING_STATES for name in names):
            return "failure"
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--instances", type=int, default=200)
    parser.add_argument("--polls", type=int, default=10)
    parser.add_argument("--waits", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    bench_instance_running(args.instances, args.polls, args.waits, args.repeat)


if __name__ == "__main__":
    main()

"""Shared test material: the spec's four example waiters and a scripted client for both drivers."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from waitable import (
    Acceptor,
    AcceptorState,
    AsyncWaiter,
    Comparator,
    ErrorTypeMatcher,
    InputOutputMatcher,
    ModeledError,
    OutputMatcher,
    SuccessMatcher,
    Waiter,
    WaiterDefinition,
    WaiterError,
    WaiterResult,
)
from waitable.testing import VirtualClock

SUCCESS, FAILURE, RETRY = (
    AcceptorState.SUCCESS,
    AcceptorState.FAILURE,
    AcceptorState.RETRY,
)

# The spec's examples, written as definitions (the trait texts are in test_definition.py).
BUCKET_EXISTS = WaiterDefinition(
    name="BucketExists",
    operation="com.amazonaws.s3#HeadBucket",
    documentation="Wait until a bucket exists",
    acceptors=(
        Acceptor(SUCCESS, SuccessMatcher(True)),
        Acceptor(RETRY, ErrorTypeMatcher("NotFound")),
    ),
    errors=(ModeledError("NotFound"),),
)
THING_EXISTS = WaiterDefinition(
    name="ThingExists",
    operation="smithy.example#GetThing",
    documentation="Waits until a thing has been created",
    acceptors=(
        Acceptor(FAILURE, OutputMatcher("status", "failed", Comparator.STRING_EQUALS)),
        Acceptor(SUCCESS, OutputMatcher("status", "success", Comparator.STRING_EQUALS)),
    ),
)
GROUP_EXISTS = WaiterDefinition(
    name="GroupExists",
    operation="smithy.example#ListGroups",
    acceptors=(
        Acceptor(
            SUCCESS,
            InputOutputMatcher(
                "length(input.groups) == length(output.groups)",
                "true",
                Comparator.BOOLEAN_EQUALS,
            ),
        ),
    ),
)
RESOURCE_RUNNING = WaiterDefinition(
    name="ResourceRunning",
    operation="smithy.example#GetResource",
    documentation="Waits for the resource to be running",
    acceptors=(
        Acceptor(FAILURE, OutputMatcher("State", "Stopped", Comparator.STRING_EQUALS)),
        Acceptor(SUCCESS, OutputMatcher("State", "Running", Comparator.STRING_EQUALS)),
    ),
)


class ServiceError(Exception):
    """A botocore-shaped service error: `response["Error"]["Code"]`."""

    def __init__(self, code: str, message: str = "") -> None:
        super().__init__(f"{code}: {message}")
        self.response = {"Error": {"Code": code, "Message": message}}


@dataclass
class Step:
    """One scripted reply: an output or an error, after `latency` seconds of the clock."""

    output: Any = None
    error: Exception | None = None
    latency: float = 0.0
    hang: bool = False


def reply(item: Any) -> Step:
    if isinstance(item, Step):
        return item
    if isinstance(item, Exception):
        return Step(error=item)
    return Step(output=item)


@dataclass
class Script:
    """A client whose replies are scripted; the last step repeats forever."""

    clock: VirtualClock
    steps: Sequence[Any]
    calls: list[Any] = field(default_factory=list)
    cancelled: int = 0

    def _next(self, input: Any) -> Step:
        self.calls.append(input)
        index = min(len(self.calls), len(self.steps)) - 1
        return reply(self.steps[index])

    def __call__(self, input: Any) -> Any:
        step = self._next(input)
        self.clock.advance(
            step.latency
        )  # request time, kept apart from the waiter's sleeps
        if step.error is not None:
            raise step.error
        return step.output

    async def call_async(self, input: Any) -> Any:
        step = self._next(input)
        try:
            if step.hang:
                await asyncio.Event().wait()
            if step.latency:
                await self.clock.sleep_async(step.latency)
        except asyncio.CancelledError:
            self.cancelled += 1
            raise
        if step.error is not None:
            raise step.error
        return step.output


def waiter_class(definition: WaiterDefinition, base: type[Any] = Waiter) -> type[Any]:
    """A class as the generator would write it: only the two class variables set."""
    return type(
        f"{definition.name}Waiter",
        (base,),
        {"definition": definition, "operation_method": "call_operation"},
    )


@dataclass
class Run:
    """What one wait did: its result or error, the calls the client saw, the clock at the end."""

    result: WaiterResult[Any] | None
    error: BaseException | None
    calls: list[Any]
    clock_end: float

    @property
    def outcome(self) -> WaiterResult[Any]:
        if self.result is not None:
            return self.result
        assert isinstance(self.error, WaiterError), self.error
        return self.error.result


def run_sync(
    definition: WaiterDefinition,
    steps: Sequence[Any],
    input: Any = None,
    *,
    seed: int = 7,
    waiter_kwargs: dict[str, Any] | None = None,
    **wait_kwargs: Any,
) -> Run:
    clock = VirtualClock()
    script = Script(clock, steps)
    kwargs = {"clock": clock, "rng": random.Random(seed), **(waiter_kwargs or {})}
    waiter = waiter_class(definition)(script, **kwargs)
    try:
        return Run(
            waiter.wait(input or {}, **wait_kwargs), None, script.calls, clock.now()
        )
    except WaiterError as error:
        return Run(None, error, script.calls, clock.now())


def run_async(
    definition: WaiterDefinition,
    steps: Sequence[Any],
    input: Any = None,
    *,
    seed: int = 7,
    waiter_kwargs: dict[str, Any] | None = None,
    **wait_kwargs: Any,
) -> Run:
    clock = VirtualClock()
    script = Script(clock, steps)
    kwargs = {"clock": clock, "rng": random.Random(seed), **(waiter_kwargs or {})}
    waiter = waiter_class(definition, AsyncWaiter)(script.call_async, **kwargs)

    async def main() -> Run:
        try:
            result = await waiter.wait(input or {}, **wait_kwargs)
            run = Run(result, None, script.calls, clock.now())
        except WaiterError as error:
            run = Run(None, error, script.calls, clock.now())
        assert asyncio.all_tasks() == {asyncio.current_task()}, "a task leaked"
        return run

    return asyncio.run(main())


DRIVERS: dict[str, Callable[..., Run]] = {"sync": run_sync, "async": run_async}


def states(run: Run) -> list[AcceptorState]:
    return [attempt.state for attempt in run.outcome.history]


def starts(run: Run) -> list[float]:
    return [attempt.started_at for attempt in run.outcome.history]


def delays(run: Run) -> list[float]:
    return [attempt.delay for attempt in run.outcome.history]


def always(item: Any) -> Iterable[Any]:
    return [item]

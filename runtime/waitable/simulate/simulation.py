"""Runs of the real engine against a simulated resource on a `VirtualClock`.

A `Candidate` is what is being judged: a waiter class and its `WaiterConfig`.
Each run builds the waiter with a fresh `VirtualClock` and a seeded jitter
`random.Random`, waits, and reads its timeline from the engine's own history.
"""

from __future__ import annotations

import asyncio
import copy
import dataclasses
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..backoff import RetryImmediately
from ..config import NamedStrategy, WaiterConfig, named_strategy
from ..definition import WaiterDefinition
from ..custom import custom_waiter, path, success
from ..errors import (
    WaiterConfigurationError,
    WaiterError,
    WaiterFailureStateError,
    WaiterMaxAttemptsError,
    WaiterTimeoutError,
)
from ..results import Attempt
from ..testing import VirtualClock
from ..waiter import AsyncWaiter
from .resource import ResourceModel

__all__ = [
    "MAX_CHECKS",
    "READY",
    "PENDING",
    "Candidate",
    "Check",
    "Limits",
    "Run",
    "SimulationError",
    "first_check_end",
    "simulate",
    "simulate_run",
    "strategy_candidate",
    "wait_limits",
]

#: The simulated operation's answers by convention: `status` says whether it is ready.
READY: dict[str, Any] = {"status": "ready"}
PENDING: dict[str, Any] = {"status": "pending"}

#: A run making more checks than this is stopped: the configuration never lets time move.
MAX_CHECKS = 100_000
#: Times closer than this are one instant to the simulated resource (float sums).
_SAME_INSTANT = 1e-9

#: How a run ended, as reports name it.
ENDS = {
    "success": "success",
    "timeout": "timed out",
    "attempts": "attempts exhausted",
    "failure": "failure state",
    "error": "error",
}

SimulatedResource = custom_waiter(
    "SimulatedResource",
    acceptors=[success(path("status") == "ready")],
    documentation="Waits until the simulated resource's status is ready.",
    module=__name__,
)


class SimulationError(Exception):
    """A configuration that cannot be simulated (e.g. one that never lets time move)."""


#: A call's duration is less than this many seconds (about 31 years).
MAX_CALL_DURATION = 1e9


@dataclass(frozen=True, slots=True)
class Candidate:
    """One configuration to simulate: a waiter class, its config, and the wait's arguments.

    `max_wait_time` is passed to `wait()` (None leaves it to the config);
    `ready_output`/`pending_output` are what the simulated operation returns.
    """

    label: str
    waiter_class: type[Any]
    config: WaiterConfig
    max_wait_time: float | None = None
    input: Any = None
    ready_output: Any = field(default_factory=lambda: dict(READY))
    pending_output: Any = field(default_factory=lambda: dict(PENDING))
    call_duration: float = 0.0
    settings: tuple[tuple[str, Any], ...] = ()

    def __post_init__(self) -> None:
        duration = self.call_duration
        if (
            isinstance(duration, bool)
            or not isinstance(duration, (int, float))
            or not 0 <= duration < MAX_CALL_DURATION
        ):
            raise WaiterConfigurationError(
                f"{self.label}: call_duration must be seconds >= 0 and below "
                f"{MAX_CALL_DURATION:.0f}, got {duration!r}; pass e.g. --call-duration 0.2"
            )
        never_moves = (
            isinstance(self.config.strategy, RetryImmediately)
            and self.call_duration == 0
            and self.config.max_attempts is None
            # a custom waiter's own cap (`custom_waiter(..., max_attempts=5)`)
            and getattr(self.waiter_class, "default_max_attempts", None) is None
        )
        if never_moves:
            raise WaiterConfigurationError(
                f"{self.label}: retryImmediately with calls that take no time never lets "
                "the virtual clock move; pass max_attempts (--max-attempts) or "
                "call_duration (--call-duration)"
            )


def _shown(seconds: float) -> float:
    """`seconds` as a report shows it: a whole number of seconds as an int (a named
    strategy keeps its delays as floats, for continuous jitter)."""
    if isinstance(seconds, float) and seconds.is_integer():
        return int(seconds)
    return seconds


def strategy_settings(
    name: str, strategy: NamedStrategy, model: WaiterDefinition
) -> tuple[tuple[str, Any], ...]:
    """The delays seed 004's strategy `name` runs with on a waiter of `model`, as
    its parameters: those given, else the model's bounds (its defaults)."""
    low = _shown(model.min_delay if strategy.min_delay is None else strategy.min_delay)
    high = _shown(model.max_delay if strategy.max_delay is None else strategy.max_delay)
    if name.startswith("fixed"):
        return (("delay", low),)
    if name.startswith("exponential"):
        return (("base_delay", low), ("max_delay", high))
    if name == "smithy":
        return (("min_delay", low), ("max_delay", high))
    return ()


def strategy_candidate(
    name: str,
    *,
    label: str | None = None,
    max_attempts: int | None = None,
    wait_timeout: float | None = None,
    call_duration: float = 0.0,
    **params: Any,
) -> Candidate:
    """A candidate for seed 004's strategy `name` (or `smithy`) on the simulated resource's waiter."""
    strategy = named_strategy(name, **params)
    config = WaiterConfig(
        max_attempts=max_attempts, wait_timeout=wait_timeout, backoff=strategy
    )
    settings = strategy_settings(name, strategy, SimulatedResource.definition)
    if max_attempts is not None:
        settings += (("max_attempts", max_attempts),)
    if call_duration:
        settings += (("call_duration", call_duration),)
    return Candidate(
        label or name,
        SimulatedResource,
        config,
        call_duration=call_duration,
        settings=(("strategy", name), *settings),
    )


@dataclass(frozen=True, slots=True)
class Limits:
    """What one wait of a candidate runs under, as the engine resolves it.

    `wait_timeout` is None when nothing bounds the time (a builder's
    `max_attempts` alone ends the wait); `max_attempts` is None for no cap.
    """

    wait_timeout: float | None
    max_attempts: int | None
    min_delay: float
    max_delay: float


def wait_limits(
    candidate: Candidate,
    *,
    max_wait_time: float | None = None,
    max_attempts: int | None = None,
) -> Limits:
    """The limits `candidate`'s waits apply: the command's, else its config's, else
    the waiter class's own (a `custom_waiter(..., max_attempts=120)`, say).

    Asked of the engine itself (`start()`, which makes no request) rather than
    guessed, so a report shows what applied. `max_wait_time`/`max_attempts` stand
    in for the candidate's when given (to ask whether one of them would do).
    Raises the engine's `WaiterConfigurationError` when the wait cannot start.
    """
    waiter = candidate.waiter_class(
        _no_operation, clock=VirtualClock(), config=candidate.config
    )
    saved = waiter.start(
        None,
        max_wait_time=(
            candidate.max_wait_time if max_wait_time is None else max_wait_time
        ),
        max_attempts=max_attempts,
    )
    timeout = None if math.isinf(saved.max_wait_time) else saved.max_wait_time
    return Limits(timeout, saved.max_attempts, saved.min_delay, saved.max_delay)


def _no_operation(input: Any) -> Any:
    """The operation of `wait_limits`' waiter, which never polls."""
    return None


@dataclass(frozen=True, slots=True)
class Check:
    """One check of the resource: when it started, the delay before it, what it saw."""

    number: int
    time: float
    delay: float
    outcome: str


@dataclass(frozen=True, slots=True)
class Run:
    """One simulated wait: the ready time, every check, how and when it ended, the lag."""

    ready_at: float
    checks: tuple[Check, ...]
    end: str
    ended_at: float
    lag: float | None

    @property
    def failed(self) -> bool:
        """True when the wait did not end in success."""
        return self.end != ENDS["success"]


def simulate_run(candidate: Candidate, ready_at: float, seed: int) -> Run:
    """One wait of `candidate`'s waiter against a resource ready at `ready_at` seconds.

    An asyncio waiter class (a generated `Async...Waiter`, a custom waiter's `.Async`)
    is awaited in an event loop of its own, its calls sleeping on the virtual clock;
    call this from synchronous code.
    """
    if issubclass(candidate.waiter_class, AsyncWaiter):
        return asyncio.run(_simulate_run_async(candidate, ready_at, seed))
    clock = VirtualClock()
    resource = _Resource(candidate, clock, ready_at)

    def operation(input: Any) -> Any:
        output = resource.answer()
        if candidate.call_duration:
            clock.advance(candidate.call_duration)
        return output

    waiter = candidate.waiter_class(
        operation, clock=clock, rng=random.Random(seed), config=candidate.config
    )
    try:
        result = waiter.wait(candidate.input, max_wait_time=candidate.max_wait_time)
    except WaiterError as error:
        return resource.run(error.result, error)
    return resource.run(result, None)


async def _simulate_run_async(candidate: Candidate, ready_at: float, seed: int) -> Run:
    """`simulate_run` of an asyncio waiter class: a call that takes time sleeps on
    the virtual clock, so the waiter can cut it off at the deadline as it would."""
    clock = VirtualClock()
    resource = _Resource(candidate, clock, ready_at)

    async def operation(input: Any) -> Any:
        output = resource.answer()
        if candidate.call_duration:
            await clock.sleep_async(candidate.call_duration)
        return output

    waiter = candidate.waiter_class(
        operation, clock=clock, rng=random.Random(seed), config=candidate.config
    )
    try:
        result = await waiter.wait(
            candidate.input, max_wait_time=candidate.max_wait_time
        )
    except WaiterError as error:
        return resource.run(error.result, error)
    return resource.run(result, None)


class _Resource:
    """The simulated resource of one run: what each check sees, and the run it made."""

    def __init__(self, candidate: Candidate, clock: VirtualClock, ready_at: float):
        self.candidate = candidate
        self.clock = clock
        self.ready_at = ready_at
        self.calls = 0

    def answer(self) -> Any:
        """What a check starting now returns (a copy: the waiter may keep it)."""
        candidate = self.candidate
        self.calls += 1
        if self.calls > MAX_CHECKS:
            raise SimulationError(
                f"{candidate.label}: more than {MAX_CHECKS} checks in one run "
                f"(at {self.clock.now():g}s of simulated time), past what one run "
                "simulates; make fewer checks: a longer delay, a shorter "
                "--wait-timeout or an earlier --ready-after, or --max-attempts"
            )
        # Ready from `ready_at` on, to the nanosecond: ten delays of 0.1 s add up
        # to 0.9999999999999999, a check "at 1" that would else see it pending.
        ready = self.clock.now() >= self.ready_at - _SAME_INSTANT
        return copy.deepcopy(
            candidate.ready_output if ready else candidate.pending_output
        )

    def run(self, result: Any, error: WaiterError | None) -> Run:
        """The run that ended with `result` (and `error`, unless it succeeded)."""
        end = ENDS["success"]
        if error is not None:
            if self.calls > MAX_CHECKS:
                raise SimulationError(str(error.__cause__ or error)) from None
            end = _end_of(error)
        checks = tuple(_check(self.candidate, attempt) for attempt in result.history)
        lag = (
            max(checks[-1].time - self.ready_at, 0.0)  # (a check "at" ready_at: 0)
            if end == ENDS["success"] and checks
            else None
        )
        return Run(self.ready_at, checks, end, float(result.elapsed), lag)


def first_check_end(candidate: Candidate, output: Any) -> WaiterError | None:
    """How one wait of `candidate` ends when its first check returns `output`: None
    for success, else the `WaiterError` (a `WaiterMaxAttemptsError` when no acceptor
    ended it, as the wait is capped at that one check).

    Says whether `candidate`'s ready and pending outputs mean ready and pending to
    its waiter before any run is made on them.
    """
    probe = dataclasses.replace(
        candidate,
        config=dataclasses.replace(candidate.config, max_attempts=1),
        call_duration=0.0,
    )

    def operation(input: Any) -> Any:
        return copy.deepcopy(output)

    async def async_operation(input: Any) -> Any:
        return copy.deepcopy(output)

    async def wait_async() -> None:
        waiter = probe.waiter_class(
            async_operation, clock=VirtualClock(), config=probe.config
        )
        await waiter.wait(probe.input, max_wait_time=probe.max_wait_time)

    try:
        if issubclass(probe.waiter_class, AsyncWaiter):
            asyncio.run(wait_async())
        else:
            waiter = probe.waiter_class(
                operation, clock=VirtualClock(), config=probe.config
            )
            waiter.wait(probe.input, max_wait_time=probe.max_wait_time)
    except WaiterError as error:
        return error
    return None


def _end_of(error: WaiterError) -> str:
    if isinstance(error, WaiterTimeoutError):
        return ENDS["timeout"]
    if isinstance(error, WaiterMaxAttemptsError):
        return ENDS["attempts"]
    if isinstance(error, WaiterFailureStateError):
        return ENDS["failure"]
    return ENDS["error"]


def _check(candidate: Candidate, attempt: Attempt[Any]) -> Check:
    outcome = "ready" if attempt.output == candidate.ready_output else "pending"
    if attempt.error_type is not None:
        outcome = f"error {attempt.error_type}"
    return Check(
        attempt.number, float(attempt.started_at), float(attempt.delay), outcome
    )


def plan_runs(resource: ResourceModel, runs: int, seed: int) -> list[tuple[float, int]]:
    """The ready time and jitter seed of each run: the same for every candidate of one seed."""
    rng = random.Random(seed)
    plan = []
    for _ in range(runs):
        ready_at = resource.sample(rng)
        plan.append((ready_at, rng.getrandbits(64)))
    return plan


def simulate(
    candidate: Candidate, resource: ResourceModel, *, runs: int, seed: int
) -> list[Run]:
    """`runs` waits of `candidate`, ready times and jitter drawn from `seed`."""
    if isinstance(runs, bool) or not isinstance(runs, int) or runs < 1:
        raise WaiterConfigurationError(f"runs must be an integer >= 1, got {runs!r}")
    plan = plan_runs(resource, runs, seed)
    if issubclass(candidate.waiter_class, AsyncWaiter):
        return asyncio.run(_simulate_async(candidate, plan))
    return [simulate_run(candidate, ready_at, jitter) for ready_at, jitter in plan]


async def _simulate_async(
    candidate: Candidate, plan: list[tuple[float, int]]
) -> list[Run]:
    """The runs of an asyncio waiter class, one after another in one event loop."""
    return [
        await _simulate_run_async(candidate, ready_at, jitter)
        for ready_at, jitter in plan
    ]


def simulate_all(
    candidates: Sequence[Candidate], resource: ResourceModel, *, runs: int, seed: int
) -> list[list[Run]]:
    """`simulate` for each candidate over the same ready times (a fair comparison)."""
    return [simulate(c, resource, runs=runs, seed=seed) for c in candidates]

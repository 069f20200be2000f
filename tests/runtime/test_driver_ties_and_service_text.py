"""The drivers: the sync and asyncio drivers decide alike, a call that
raises at once is a failed poll on every clock, and service text in messages and
log lines is escaped and bounded."""

from __future__ import annotations

import asyncio
import logging
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from waitable import AsyncWaiter, WaiterFailureStateError, WaiterOperationError

CODE_LIMIT = 200  # `waitable.errors.CODE_LIMIT`

from .harness import (
    BUCKET_EXISTS,
    DRIVERS,
    SUCCESS,
    THING_EXISTS,
    Run,
    ServiceError,
    Step,
    run_async,
    run_sync,
    waiter_class,
)
from .test_errors import failing
from waitable.testing import VirtualClock

PENDING = {"status": "pending"}
DONE = {"status": "success"}


def _seen(run: Run) -> tuple[Any, ...]:
    """Everything a caller sees of a wait: the error (type and text), the result, the calls."""
    outcome = run.outcome
    return (
        None if run.error is None else (type(run.error), str(run.error)),
        outcome.state,
        outcome.output,
        outcome.attempts,
        outcome.elapsed,
        outcome.history,
        len(run.calls),
        run.clock_end,
    )


@pytest.mark.parametrize("latency", [5, 2])
def test_an_answer_at_exactly_the_cut_off_counts_on_both_drivers(
    latency: float,
) -> None:
    # latency 5: the first poll answers at the deadline (max_wait_time=5);
    # latency 2: the final poll, at the deadline 5, answers at its allowance (min_delay 2).
    steps = (
        [Step(output=DONE, latency=5)]
        if latency == 5
        else [
            PENDING,
            PENDING,
            Step(output=DONE, latency=2),
        ]
    )
    runs = [DRIVERS[name](THING_EXISTS, steps, max_wait_time=5) for name in DRIVERS]
    for run in runs:
        assert run.error is None and run.outcome.state is SUCCESS
    assert _seen(runs[0]) == _seen(runs[1])


replies = st.sampled_from(
    [
        PENDING,
        DONE,
        {"status": "failed"},
        {},
        ServiceError("NotFound"),
        ServiceError("Other"),
    ]
)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    steps=st.lists(
        st.tuples(replies, st.sampled_from([0, 0.5, 1, 2, 2.5, 5])),
        min_size=1,
        max_size=6,
    ),
    max_wait_time=st.sampled_from([0.1, 1, 2.5, 5, 10, 30]),
    min_delay=st.sampled_from([None, 0.5, 1, 2]),
    max_attempts=st.sampled_from([None, 1, 2, 4]),
    definition=st.sampled_from([THING_EXISTS, BUCKET_EXISTS]),
    seed=st.integers(0, 50),
)
def test_sync_and_async_drivers_agree_on_random_scenarios(
    steps: list[tuple[Any, float]],
    max_wait_time: float,
    min_delay: float | None,
    max_attempts: int | None,
    definition: Any,
    seed: int,
) -> None:
    script = [
        (
            Step(error=r, latency=t)
            if isinstance(r, Exception)
            else Step(output=r, latency=t)
        )
        for r, t in steps
    ]
    options = dict(
        max_wait_time=max_wait_time,
        min_delay=min_delay,
        max_attempts=max_attempts,
        seed=seed,
    )
    sync = run_sync(definition, script, **options)
    async_ = run_async(definition, script, **options)
    late = sync.error is not None and "arrived after the deadline" in str(sync.error)
    if late:
        # A blocking call cannot be cut off: the sync wait sees the late answer, the
        # async one cuts the request off at its limit. Up to that poll they agree.
        assert async_.error is not None and "cut off" in str(async_.error)
        assert type(sync.error) is type(async_.error)
        assert sync.outcome.history[:-1] == async_.outcome.history[:-1]
        assert sync.outcome.attempts == async_.outcome.attempts
    else:
        assert _seen(sync) == _seen(async_)


class _ClockWithoutTimers:
    """A clock as the `Clock` protocol asks, without `call_later`: the async driver
    races each request against a sleep (`poll_with_cutoff`)."""

    def __init__(self) -> None:
        self.clock = VirtualClock()

    def now(self) -> float:
        return self.clock.now()

    def sleep(self, seconds: float) -> None:
        self.clock.sleep(seconds)

    async def sleep_async(self, seconds: float) -> None:
        await self.clock.sleep_async(seconds)


@pytest.mark.parametrize("clock", [VirtualClock, _ClockWithoutTimers])
@pytest.mark.parametrize(
    "code, outcome", [("NotFound", "retried"), ("Other", WaiterOperationError)]
)
def test_a_call_that_raises_before_returning_an_awaitable_is_a_failed_poll(
    clock: type[Any], code: str, outcome: Any
) -> None:
    calls: list[int] = []

    def call(input: Any) -> Any:  # raises at once, as a client's own check might
        calls.append(1)
        if len(calls) == 1:
            raise ServiceError(code)

        async def answer() -> Any:
            return {}

        return answer()

    waiter = waiter_class(BUCKET_EXISTS, AsyncWaiter)(
        call, clock=clock(), rng=random.Random(1)
    )

    async def main() -> Any:
        return await waiter.wait({}, max_wait_time=30)

    if outcome == "retried":
        result = asyncio.run(main())
        assert result.attempts == 2 and result.history[0].error_type == "NotFound"
    else:
        with pytest.raises(outcome) as info:
            asyncio.run(main())
        assert info.value.result.attempts == 1


HOSTILE_CODE = "Bad\nINFO waiter forged: succeeded\x1b[2J" + "x" * 100_000


@pytest.mark.parametrize("driver", sorted(DRIVERS))
def test_a_service_error_code_cannot_forge_or_flood_log_lines(
    driver: str, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.DEBUG, logger="waitable"):
        run = DRIVERS[driver](
            BUCKET_EXISTS, [ServiceError(HOSTILE_CODE)], max_wait_time=60
        )
    assert isinstance(run.error, WaiterOperationError)
    assert run.error.error_code == HOSTILE_CODE  # the data itself is kept
    lines = [r.getMessage() for r in caplog.records if r.name == "waitable"]
    lines.append(str(run.error))
    for line in lines:
        assert "\n" not in line and "\x1b" not in line
        assert len(line) < 3 * CODE_LIMIT + 1000
    assert "Bad\\nINFO waiter forged" in str(run.error)


def test_a_failure_reason_cannot_forge_log_lines(
    caplog: pytest.LogCaptureFixture,
) -> None:
    definition = failing("reason")
    with caplog.at_level(logging.INFO, logger="waitable"):
        run = run_sync(
            definition,
            [{"state": "FAILED", "reason": "disk full\nINFO waiter JobDone succeeded"}],
            max_wait_time=60,
        )
    assert isinstance(run.error, WaiterFailureStateError)
    assert run.error.reason == "disk full\nINFO waiter JobDone succeeded"
    (line,) = [r.getMessage() for r in caplog.records if r.name == "waitable"]
    assert "\n" not in line and "disk full\\nINFO" in line

"""`poll_once` returns a `PollDone` or a `PollPending`: `if step.done:` narrows the
step for a type checker, so the README's `step.result.attempts` passes
`mypy --strict` (with one `PollStep` class, `result` stayed Optional)."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path

import pytest
from type_check import mypy_strict_errors

from waitable import (
    PollDone,
    PollPending,
    PollStep,
    SavedWait,
    WaiterConfigurationError,
)
from waitable.testing import VirtualClock

from .harness import THING_EXISTS, AsyncWaiter, Script, waiter_class

PROGRAM = """
from typing import Any

from waitable import SavedWait, Waiter


def one_poll(waiter: Waiter[Any, Any], text: str) -> float:
    step = waiter.poll_once(SavedWait.from_json(text))
    if step.done:
        return float(step.result.attempts)
    return step.next_delay + len(step.state.to_json())


async def one_poll_async(waiter: Any, text: str) -> float:
    from waitable import AsyncWaiter

    typed: AsyncWaiter[Any, Any] = waiter
    step = await typed.poll_once(SavedWait.from_json(text))
    if not step.done:
        return step.next_delay
    return float(step.result.attempts)
"""


def test_step_done_narrows_result_and_next_delay_under_mypy(tmp_path: Path) -> None:
    assert not mypy_strict_errors(PROGRAM, tmp_path, "uses_poll_once")


def test_poll_once_returns_a_pending_step_then_a_done_one() -> None:
    clock = VirtualClock()
    script = Script(clock, [{"status": "pending"}, {"status": "success"}])
    waiter = waiter_class(THING_EXISTS)(script, clock=clock)
    text = waiter.start({"id": "x"}, max_wait_time=600, seed=1).to_json()
    first = waiter.poll_once(SavedWait.from_json(text))
    assert type(first) is PollPending and isinstance(first, PollStep)
    assert first.done is False and first.result is None
    assert first.next_delay is not None and first.next_delay > 0
    clock.sleep(first.next_delay)
    second = waiter.poll_once(SavedWait.from_json(first.state.to_json()))
    assert type(second) is PollDone and isinstance(second, PollStep)
    assert second.done is True and second.next_delay is None
    assert second.result is not None and second.result.attempts == 2
    assert repr(second).startswith("PollDone(state=")
    assert second == PollDone(second.state, second.result, None)
    assert second != PollStep(second.state, second.result, None)


def test_the_async_waiter_returns_the_same_two_kinds() -> None:
    clock = VirtualClock()
    script = Script(clock, [{"status": "success"}])

    async def main() -> object:
        waiter = waiter_class(THING_EXISTS, AsyncWaiter)(script.call_async, clock=clock)
        saved = waiter.start({"id": "x"}, max_wait_time=600, seed=1)
        return await waiter.poll_once(saved)

    step = asyncio.run(main())
    assert type(step) is PollDone


def test_a_step_holds_what_its_kind_says_also_when_replaced() -> None:
    """The narrowing is only true if a `PollDone` always has its result and a
    `PollPending` its delay: `dataclasses.replace` cannot make one that lies."""
    clock = VirtualClock()
    script = Script(clock, [{"status": "pending"}, {"status": "success"}])
    waiter = waiter_class(THING_EXISTS)(script, clock=clock)
    pending = waiter.poll_once(waiter.start({"id": "x"}, max_wait_time=600, seed=1))
    assert isinstance(pending, PollPending)
    with pytest.raises(
        WaiterConfigurationError, match="a PollPending has a next_delay"
    ):
        dataclasses.replace(pending, next_delay=None)
    clock.sleep(pending.next_delay)
    done = waiter.poll_once(pending.state)
    assert isinstance(done, PollDone)
    with pytest.raises(WaiterConfigurationError, match="a PollDone has a result"):
        dataclasses.replace(done, result=None, next_delay=3.0)
    with pytest.raises(WaiterConfigurationError, match="a PollDone has a result"):
        PollDone(done.state, done.result, 1.0)
    either = PollStep(done.state, None, 2.0)  # the base class takes any fields
    assert either.done is False

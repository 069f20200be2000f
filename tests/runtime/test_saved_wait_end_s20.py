"""A saved wait is never polled past its end (review s20, the poller's bugs).

1. The record `poll_once` returns with a final result (`step.done`), and a record
   whose `attempts` reached `max_attempts`, are refused by `poll_once` with a
   one-line `WaiterConfigurationError` naming the waiter, before any request
   (the spec: a waiter stops waiting on success or failure). Both still load:
   a record the code writes always reloads, and round-trips exactly.
2. A record at `MAX_POLLS` (2**53) polls are refused the same way, so the
   record a poll writes never counts past `MAX_POLLS` and always reloads.

Both drivers (`Waiter.poll_once`, `AsyncWaiter.poll_once`); virtual time only.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any, Callable

import pytest

from waitable import (
    SavedWait,
    WaiterConfigurationError,
    WaiterError,
    WaiterMaxAttemptsError,
)
from waitable.steps import MAX_POLLS, PollStep
from waitable.testing import VirtualClock

from .harness import THING_EXISTS, AsyncWaiter, Script, Waiter, waiter_class

DRIVERS = ["sync", "async"]


class Setup:
    """A ThingExists waiter on a virtual clock, answering `steps` (the last repeats)."""

    def __init__(self, driver: str, *steps: str) -> None:
        self.clock = VirtualClock(0.0, wall_start=1_700_000_000.0)
        self.script = Script(self.clock, [{"status": s} for s in steps])
        if driver == "sync":
            self.waiter = waiter_class(THING_EXISTS, Waiter)(
                self.script, clock=self.clock
            )
        else:
            self.waiter = waiter_class(THING_EXISTS, AsyncWaiter)(
                self.script.call_async, clock=self.clock
            )
        self.driver = driver

    @property
    def calls(self) -> int:
        return len(self.script.calls)

    def poll(self, saved: SavedWait) -> PollStep[Any]:
        if self.driver == "sync":
            step: PollStep[Any] = self.waiter.poll_once(saved)
            return step
        return asyncio.run(self.waiter.poll_once(saved))

    def run_to_end(self, **options: Any) -> tuple[PollStep[Any], list[str]]:
        """Poll a new wait, reloading its JSON each time, until it succeeds;
        the final step and every pending record's JSON."""
        options.setdefault("max_wait_time", 300)
        options.setdefault("seed", 1)
        text = self.waiter.start({"name": "x"}, **options).to_json()
        pending = [text]
        while True:
            step = self.poll(SavedWait.from_json(text))
            if step.done:
                return step, pending
            assert step.next_delay is not None
            text = step.state.to_json()
            pending.append(text)
            self.clock.sleep(step.next_delay)


def refused(poll: Callable[[], Any], *words: str) -> str:
    with pytest.raises(WaiterConfigurationError) as caught:
        poll()
    message = str(caught.value)
    assert "\n" not in message, message
    assert "ThingExists" in message, message
    assert "start a new wait" in message, message
    for word in words:
        assert word in message, message
    return message


# --- 1. the record returned with a final result has ended ------------------------------


@pytest.mark.parametrize("driver", DRIVERS)
def test_the_record_of_a_succeeded_wait_is_refused_before_a_request(
    driver: str,
) -> None:
    """The review's case: re-polling it made a request, and the success came back
    as WaiterFailureStateError."""
    setup = Setup(driver, "pending", "success", "failed")
    step, _ = setup.run_to_end()
    assert step.result is not None and step.result.state.value == "success"
    assert setup.calls == 2
    text = step.state.to_json()
    # Still a record the code wrote: it loads and round-trips exactly.
    assert SavedWait.from_json(text).to_json() == text
    refused(lambda: setup.poll(step.state), "has ended")
    refused(lambda: setup.poll(SavedWait.from_json(text)), "has ended")
    assert setup.calls == 2


@pytest.mark.parametrize("driver", DRIVERS)
def test_a_success_on_the_last_allowed_poll_reloads_and_is_refused(
    driver: str,
) -> None:
    """attempts == max_attempts in a succeeded record: it loads, and is not polled
    (it polled a 4th time with max_attempts=3)."""
    setup = Setup(driver, "pending", "pending", "success", "pending")
    step, _ = setup.run_to_end(max_attempts=3)
    assert step.state.attempts == step.state.max_attempts == 3
    again = SavedWait.from_json(step.state.to_json())
    refused(lambda: setup.poll(again), "has ended")
    assert setup.calls == 3


@pytest.mark.parametrize("driver", DRIVERS)
def test_a_record_ended_by_a_failure_state_is_refused(driver: str) -> None:
    """`poll_once` raises on failure and writes no record, but one whose newest
    poll reached failure (edited) has ended all the same."""
    setup = Setup(driver, "pending")
    step = setup.poll(setup.waiter.start({"name": "x"}, max_wait_time=300, seed=1))
    data = json.loads(step.state.to_json())
    data["history"][-1]["state"] = "failure"
    saved = SavedWait.from_json(json.dumps(data))
    refused(lambda: setup.poll(saved), "has ended")
    assert setup.calls == 1


@pytest.mark.parametrize("driver", DRIVERS)
def test_an_edited_record_at_max_attempts_is_refused_before_a_request(
    driver: str,
) -> None:
    """The review's case: attempts == max_attempts passed from_json, and request
    number max_attempts + 1 went out."""
    setup = Setup(driver, "pending")
    step = setup.poll(
        setup.waiter.start({"name": "x"}, max_wait_time=300, max_attempts=2, seed=1)
    )
    data = json.loads(step.state.to_json())
    data["attempts"] = 2
    data["history"][0]["number"] = 2
    saved = SavedWait.from_json(json.dumps(data))
    message = refused(lambda: setup.poll(saved), "attempts are used up")
    assert "max_attempts 2" in message
    assert setup.calls == 1


@pytest.mark.parametrize("driver", DRIVERS)
def test_a_pending_record_is_always_below_max_attempts(driver: str) -> None:
    """The engine ends the wait after the last allowed poll: no pending record it
    writes holds attempts == max_attempts, so the refusal stops no real wait."""
    setup = Setup(driver, "pending")
    text = setup.waiter.start(
        {"name": "x"}, max_wait_time=300, max_attempts=3, seed=1
    ).to_json()
    with pytest.raises(WaiterMaxAttemptsError):
        while True:
            saved = SavedWait.from_json(text)
            assert saved.max_attempts is not None
            assert saved.attempts < saved.max_attempts
            step = setup.poll(saved)
            assert step.next_delay is not None
            text = step.state.to_json()
            setup.clock.sleep(step.next_delay)
    assert setup.calls == 3


# --- 2. MAX_POLLS ----------------------------------------------------------------------


@pytest.mark.parametrize("driver", DRIVERS)
def test_a_record_written_at_max_polls_reloads_and_is_refused(driver: str) -> None:
    """The review's case: a record at 2**53 polls polled, and wrote 2**53 + 1,
    which from_json refused as tampered."""
    setup = Setup(driver, "pending")
    data = json.loads(
        setup.waiter.start({"name": "x"}, max_wait_time=300, seed=1).to_json()
    )
    data["attempts"] = MAX_POLLS - 1
    step = setup.poll(SavedWait.from_json(json.dumps(data)))
    assert setup.calls == 1 and step.state.attempts == MAX_POLLS
    text = step.state.to_json()
    again = SavedWait.from_json(text)  # a record the code writes reloads
    assert again.to_json() == text
    refused(lambda: setup.poll(again), "attempts are used up", "2**53")
    assert setup.calls == 1


@pytest.mark.parametrize("driver", DRIVERS)
def test_a_loaded_record_at_max_polls_is_refused_before_a_request(
    driver: str,
) -> None:
    setup = Setup(driver, "pending")
    data = json.loads(
        setup.waiter.start(
            {"name": "x"}, max_wait_time=300, max_attempts=2**60, seed=1
        ).to_json()
    )
    data["attempts"] = MAX_POLLS
    saved = SavedWait.from_json(json.dumps(data))
    refused(lambda: setup.poll(saved), "attempts are used up", "2**53")
    assert setup.calls == 0


def test_a_failed_poll_returns_no_record_to_poll_again() -> None:
    """A wait that ends in failure raises from poll_once: its error carries the
    result, never a record, so only a success's record needs the refusal."""
    setup = Setup("sync", "failed")
    saved = setup.waiter.start({"name": "x"}, max_wait_time=300, seed=1)
    with pytest.raises(WaiterError) as caught:
        setup.poll(saved)
    assert not hasattr(caught.value, "state")
    assert caught.value.result.attempts == 1

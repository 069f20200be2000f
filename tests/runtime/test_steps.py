"""The step API: `start()`, `poll_once()`, and a wait saved as JSON between polls.

A wait resumed from JSON, poll by poll, by a fresh waiter object each time (and
once by a fresh process) must make the same decisions as an uninterrupted wait
with the same seed: every spec example and a real Smithy waiter from the corpus.
"""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from shared_corpora import has_shared, shared_path

from waitable import (
    SavedWait,
    WaiterConfigurationError,
    WaiterDefinition,
    WaiterError,
    WaiterTimeoutError,
)
from waitable.steps import attempt_from_data
from waitable.testing import VirtualClock

from .harness import THING_EXISTS, AsyncWaiter, Script, Waiter, waiter_class
from .test_spec_examples import SCENARIOS, Scenario

SHARED = Path(__file__).resolve().parents[3] / "shared"
DYNAMODB = SHARED / "models" / "api-models-aws" / "dynamodb-2012-08-10.json"


def table_exists() -> WaiterDefinition:
    """DynamoDB's TableExists, read from the corpus model's waitable trait."""
    model = json.loads(shared_path(*DYNAMODB.relative_to(SHARED).parts).read_text())
    operation = model["shapes"]["com.amazonaws.dynamodb#DescribeTable"]
    trait = operation["traits"]["smithy.waiters#waitable"]["TableExists"]
    return WaiterDefinition.from_trait(
        "TableExists", "com.amazonaws.dynamodb#DescribeTable", trait
    )


CORPUS = (
    {}
    if not has_shared(*DYNAMODB.relative_to(SHARED).parts)
    else {
        "table active after two polls": Scenario(
            table_exists(),
            [
                {"Table": {"TableStatus": "CREATING"}},
                {"Table": {"TableStatus": "CREATING"}},
                {"Table": {"TableStatus": "ACTIVE"}},
            ],
            [],
        ),
    }
)
ALL = {**SCENARIOS, **CORPUS}

Decision = tuple[int, float, float, str, int | None, str | None]


def decisions(history: Any) -> list[Decision]:
    """What each attempt decided, as comparable data (records or their JSON)."""
    rows = []
    for attempt in history:
        if isinstance(attempt, dict):
            attempt = attempt_from_data(attempt)
        rows.append(
            (
                attempt.number,
                round(attempt.started_at, 6),
                round(attempt.delay, 6),
                attempt.state.value,
                attempt.acceptor_index,
                attempt.error_type,
            )
        )
    return rows


def Waiter_for(definition: WaiterDefinition, base: type[Any] = Waiter) -> Any:
    return waiter_class(definition, base)


def uninterrupted(scenario: Scenario, seed: int) -> tuple[list[Decision], str]:
    clock = VirtualClock()
    script = Script(clock, scenario.steps)
    waiter = Waiter_for(scenario.definition)(
        script, clock=clock, rng=random.Random(seed)
    )
    try:
        result = waiter.wait(scenario.input, max_wait_time=scenario.max_wait_time)
        return decisions(result.history), "success"
    except WaiterError as error:
        return decisions(error.result.history), type(error).__name__


def resumed(scenario: Scenario, seed: int) -> tuple[list[Decision], str]:
    """The same wait, one `poll_once` per fresh waiter, the state through JSON."""
    clock = VirtualClock()
    script = Script(clock, scenario.steps)
    first = Waiter_for(scenario.definition)(script, clock=clock)
    text = first.start(
        scenario.input, max_wait_time=scenario.max_wait_time, seed=seed
    ).to_json()
    while True:
        waiter = Waiter_for(scenario.definition)(script, clock=clock)
        saved = SavedWait.from_json(text)
        try:
            step = waiter.poll_once(saved)
        except WaiterError as error:
            return decisions(error.result.history), type(error).__name__
        if step.done:
            assert step.result is not None
            return decisions(step.result.history), "success"
        assert step.next_delay is not None and step.next_delay >= 0
        text = step.state.to_json()
        clock.sleep(step.next_delay)


def resumed_async(scenario: Scenario, seed: int) -> tuple[list[Decision], str]:
    clock = VirtualClock()
    script = Script(clock, scenario.steps)

    async def main() -> tuple[list[Decision], str]:
        cls = Waiter_for(scenario.definition, AsyncWaiter)
        text = (
            cls(script.call_async, clock=clock)
            .start(scenario.input, max_wait_time=scenario.max_wait_time, seed=seed)
            .to_json()
        )
        while True:
            waiter = cls(script.call_async, clock=clock)
            try:
                step = await waiter.poll_once(SavedWait.from_json(text))
            except WaiterError as error:
                return decisions(error.result.history), type(error).__name__
            if step.done:
                assert step.result is not None
                return decisions(step.result.history), "success"
            assert step.next_delay is not None
            text = step.state.to_json()
            await clock.sleep_async(step.next_delay)

    return asyncio.run(main())


@pytest.mark.parametrize("name", sorted(ALL))
@pytest.mark.parametrize("seed", [0, 7])  # 7 is the seed the scenarios were written for
def test_resumed_from_json_decides_as_an_uninterrupted_wait(
    name: str, seed: int
) -> None:
    scenario = ALL[name]
    expected = uninterrupted(scenario, seed)
    assert resumed(scenario, seed) == expected
    assert resumed_async(scenario, seed) == expected
    if scenario.expect_states and seed == 7:
        assert [row[3] for row in expected[0]] == [
            s.value for s in scenario.expect_states
        ]


def test_a_fresh_process_resumes_the_wait() -> None:
    """Each poll in a new interpreter, the state on stdin/stdout as JSON."""
    scenario = SCENARIOS["thing created"]
    expected = uninterrupted(scenario, seed=3)
    program = (
        "import sys, json\n"
        "from waitable import SavedWait\n"
        "from waitable.testing import VirtualClock\n"
        "from tests.runtime.harness import THING_EXISTS, waiter_class\n"
        "saved = SavedWait.from_json(sys.stdin.read())\n"
        "steps = [{'status': 'creating'}, {'status': 'creating'}, {'status': 'success'}]\n"
        "reply = steps[min(saved.attempts, 2)]\n"
        "at = saved.started_at if saved.next_poll_at is None else saved.next_poll_at\n"
        "waiter = waiter_class(THING_EXISTS)(lambda i: reply, clock=VirtualClock(at))\n"
        "step = waiter.poll_once(saved)\n"
        "print(json.dumps({'done': step.done, 'state': step.state.to_data()}))\n"
    )
    root = Path(__file__).resolve().parents[2]
    text = (
        waiter_class(THING_EXISTS)(lambda i: {}, clock=VirtualClock())
        .start({}, max_wait_time=300, seed=3)
        .to_json()
    )
    for _ in range(5):
        done = subprocess.run(
            [sys.executable, "-c", program],
            input=text,
            capture_output=True,
            text=True,
            cwd=root,
            check=True,
        )
        answer = json.loads(done.stdout)
        state = SavedWait.from_data(answer["state"])
        if answer["done"]:
            break
        text = state.to_json()
    assert answer["done"]
    assert decisions(state.history) == expected[0]


def test_the_saved_state_is_plain_json_and_round_trips() -> None:
    clock = VirtualClock(wall_start=1_700_000_000.0)
    script = Script(clock, [{"status": "creating"}])
    waiter = waiter_class(THING_EXISTS)(script, clock=clock)
    saved = waiter.start({"id": 1}, max_wait_time=60, seed=1)
    step = waiter.poll_once(saved)
    data = json.loads(step.state.to_json())
    assert data["waiter"] == "ThingExists" and data["attempts"] == 1
    assert data["deadline"] == 1_700_000_060.0
    assert data["next_poll_at"] == pytest.approx(1_700_000_000.0 + step.next_delay)
    again = SavedWait.from_json(step.state.to_json())
    assert again.to_json() == step.state.to_json()
    assert script.calls == [{"id": 1}]


def test_poll_once_makes_exactly_one_call_and_never_sleeps() -> None:
    clock = VirtualClock()
    script = Script(clock, [{"status": "creating"}])
    waiter = waiter_class(THING_EXISTS)(script, clock=clock)
    state = waiter.start({}, max_wait_time=300)
    for calls in range(1, 4):
        step = waiter.poll_once(state)
        assert len(script.calls) == calls and clock.now() == 0
        state = step.state
    assert state.attempts == 3 and step.next_delay is not None


def test_a_wait_resumed_after_its_deadline_ends_without_a_call() -> None:
    clock = VirtualClock()
    script = Script(clock, [{"status": "creating"}])
    waiter = waiter_class(THING_EXISTS)(script, clock=clock)
    step = waiter.poll_once(waiter.start({}, max_wait_time=10))
    clock.sleep(3600)  # the message sat in a dead worker's queue for an hour
    with pytest.raises(WaiterTimeoutError, match="after the deadline") as caught:
        waiter.poll_once(step.state)
    assert len(script.calls) == 1
    assert caught.value.result.attempts == 1
    data = caught.value.to_data()
    assert data["type"] == "WaiterTimeoutError" and data["result"]["attempts"] == 1
    assert json.loads(json.dumps(data)) == data


def test_the_history_is_bounded_but_the_count_goes_on() -> None:
    clock = VirtualClock()
    script = Script(clock, [{"status": "creating"}])
    waiter = waiter_class(THING_EXISTS)(script, clock=clock)
    state = waiter.start({}, max_wait_time=10_000, history_limit=3, min_delay=1)
    for _ in range(10):
        step = waiter.poll_once(state)
        state = step.state
        assert step.next_delay is not None
        clock.sleep(step.next_delay)
    assert state.attempts == 10
    assert [entry["number"] for entry in state.history] == [8, 9, 10]


@pytest.mark.parametrize(
    "text",
    ["", "[]", "{}", '{"version": 1}', '{"version": 2, "waiter": "x"}', "[" * 100_000],
)
def test_a_malformed_saved_wait_is_a_clear_error(text: str) -> None:
    with pytest.raises(WaiterConfigurationError, match="saved wait"):
        SavedWait.from_json(text)


def test_a_saved_wait_of_another_waiter_is_refused() -> None:
    clock = VirtualClock()
    saved = waiter_class(THING_EXISTS)(lambda i: {}, clock=clock).start(
        {}, max_wait_time=5
    )
    other = waiter_class(table_exists())(lambda i: {}, clock=clock)
    with pytest.raises(WaiterConfigurationError, match="cannot resume"):
        other.poll_once(saved)


@pytest.mark.parametrize(
    "rng_state", [[3, "!!not base64", None], [3, "AAAA", None], "x", [3, [1, 2], None]]
)
def test_a_tampered_random_state_is_a_clear_error(rng_state: Any) -> None:
    saved = waiter_class(THING_EXISTS)(lambda i: {}, clock=VirtualClock()).start(
        {}, max_wait_time=5
    )
    data = saved.to_data()
    data["rng_state"] = rng_state
    with pytest.raises(WaiterConfigurationError, match="saved wait"):
        SavedWait.from_data(data)


def test_the_random_state_travels_compactly() -> None:
    saved = waiter_class(THING_EXISTS)(lambda i: {}, clock=VirtualClock()).start(
        {}, max_wait_time=5, seed=1
    )
    assert len(json.dumps(saved.rng_state)) < 3500
    assert saved.rng().random() == random.Random(1).random()


@pytest.mark.parametrize("history_limit", [0, -1, 2.5, True, "3"])
def test_start_checks_history_limit_as_the_constructor_does(
    history_limit: Any,
) -> None:
    """`start(history_limit=-1)` made a record that `poll_once` broke on (an
    `IndexError` with `on_attempt`) and `from_json` refused; 0 became 50."""
    waiter = waiter_class(THING_EXISTS)(
        Script(VirtualClock(), []), clock=VirtualClock()
    )
    with pytest.raises(WaiterConfigurationError, match="history_limit must be"):
        waiter.start({}, max_wait_time=60, history_limit=history_limit)


def test_an_early_poll_of_a_final_record_is_not_the_final_poll() -> None:
    """The record's next poll is the deadline's final one; a caller that polls
    before it (poll_once skips the pause) still has time left: the wait goes on,
    and its final poll is again the one at the deadline."""
    clock = VirtualClock(wall_start=1000)
    script = Script(clock, [{"status": "pending"}])
    waiter = waiter_class(THING_EXISTS)(script, clock=clock)
    first = waiter.poll_once(waiter.start({}, max_wait_time=3))
    assert first.state.final and first.next_delay == 3
    clock.advance(1)
    early = waiter.poll_once(first.state)  # ended the wait as a timeout before
    assert not early.done and early.state.final
    assert early.next_delay == 2
    clock.advance(2)
    with pytest.raises(WaiterTimeoutError):
        waiter.poll_once(early.state)
    assert len(script.calls) == 3

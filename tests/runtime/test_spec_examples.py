"""The spec's four example waiters through success, failure and retry, in both drivers.

One table of scenarios runs through the sync and the asyncio driver; both must
give the same result, history and error, which keeps the two drivers honest.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from waitable import (
    WaiterDefinition,
    WaiterFailureStateError,
    WaiterOperationError,
    WaiterTimeoutError,
)

from .harness import (
    BUCKET_EXISTS,
    DRIVERS,
    FAILURE,
    GROUP_EXISTS,
    RESOURCE_RUNNING,
    RETRY,
    SUCCESS,
    THING_EXISTS,
    Run,
    ServiceError,
    states,
)


class NotFound(Exception):
    """A modeled error raised by a hand-written client: its class name is its code."""


@dataclass
class Scenario:
    definition: WaiterDefinition
    steps: list[Any]
    expect_states: list[Any]
    expect_error: type[Exception] | None = None
    input: dict[str, Any] = field(default_factory=dict)
    max_wait_time: float = 300


SCENARIOS = {
    "bucket exists at once": Scenario(BUCKET_EXISTS, [{}], [SUCCESS]),
    "bucket appears after NotFound": Scenario(
        BUCKET_EXISTS,
        [
            ServiceError("NotFound"),
            ServiceError("NotFound"),
            {"BucketRegion": "eu-west-1"},
        ],
        [RETRY, RETRY, SUCCESS],
    ),
    "bucket: botocore's bare 404 is NotFound": Scenario(
        BUCKET_EXISTS, [ServiceError("404"), {}], [RETRY, SUCCESS]
    ),
    "bucket: exception class name as code": Scenario(
        BUCKET_EXISTS, [NotFound(), {}], [RETRY, SUCCESS]
    ),
    "bucket: another error fails the wait": Scenario(
        BUCKET_EXISTS,
        [ServiceError("NotFound"), ServiceError("403")],
        [RETRY, FAILURE],
        WaiterOperationError,
    ),
    "bucket never appears": Scenario(
        BUCKET_EXISTS,
        [ServiceError("NotFound")],
        [RETRY] * 8,
        WaiterTimeoutError,
        max_wait_time=60,
    ),
    "thing created": Scenario(
        THING_EXISTS,
        [{"status": "creating"}, {"status": "creating"}, {"status": "success"}],
        [RETRY, RETRY, SUCCESS],
    ),
    "thing fails fast": Scenario(
        THING_EXISTS,
        [{"status": "creating"}, {"status": "failed"}],
        [RETRY, FAILURE],
        WaiterFailureStateError,
    ),
    "thing: status missing is a retry": Scenario(
        THING_EXISTS, [{}, {"status": "success"}], [RETRY, SUCCESS]
    ),
    "thing: an unmodeled error fails": Scenario(
        THING_EXISTS,
        [ServiceError("ValidationException")],
        [FAILURE],
        WaiterOperationError,
    ),
    "group: counts equal": Scenario(
        GROUP_EXISTS,
        [{"groups": ["a"]}, {"groups": ["a", "b"]}],
        [RETRY, SUCCESS],
        input={"groups": ["a", "b"]},
    ),
    "group: length(null) on a missing member does not match": Scenario(
        GROUP_EXISTS,
        [{}, {"groups": []}, {"groups": ["a"]}],
        [RETRY, RETRY, SUCCESS],
        input={"groups": ["x"]},
    ),
    "resource running": Scenario(
        RESOURCE_RUNNING,
        [{"State": "Creating"}, {"State": "Starting"}, {"State": "Running"}],
        [RETRY, RETRY, SUCCESS],
    ),
    "resource stopped is terminal": Scenario(
        RESOURCE_RUNNING,
        [{"State": "Stopping"}, {"State": "Stopped"}],
        [RETRY, FAILURE],
        WaiterFailureStateError,
    ),
}


def run(scenario: Scenario, driver: str) -> Run:
    return DRIVERS[driver](
        scenario.definition,
        scenario.steps,
        scenario.input,
        max_wait_time=scenario.max_wait_time,
    )


@pytest.mark.parametrize("driver", sorted(DRIVERS))
@pytest.mark.parametrize("name", list(SCENARIOS))
def test_scenario(name: str, driver: str) -> None:
    scenario = SCENARIOS[name]
    outcome = run(scenario, driver)
    assert states(outcome) == scenario.expect_states
    if scenario.expect_error is None:
        assert outcome.error is None
        assert outcome.outcome.state is SUCCESS
        assert outcome.outcome.output == outcome.outcome.history[-1].output
    else:
        assert type(outcome.error) is scenario.expect_error
        assert outcome.outcome.state is FAILURE
    assert outcome.outcome.attempts == len(outcome.calls) == len(scenario.expect_states)
    assert all(call == scenario.input for call in outcome.calls)


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_both_drivers_agree(name: str) -> None:
    """Same seed, same script: the same history, result and error message."""
    sync, async_ = (run(SCENARIOS[name], driver) for driver in ("sync", "async"))
    assert sync.outcome == async_.outcome
    assert str(sync.error) == str(async_.error)
    assert sync.clock_end == async_.clock_end


def test_first_poll_is_immediate_and_delays_follow_the_spec() -> None:
    outcome = run(SCENARIOS["thing created"], "sync")
    history = outcome.outcome.history
    assert history[0].started_at == 0 and history[0].delay == 0
    assert history[1].delay == 2  # the first retry waits exactly minDelay
    assert 2 <= history[2].delay <= 4


def test_failure_acceptor_names_what_matched() -> None:
    error = run(SCENARIOS["resource stopped is terminal"], "sync").error
    assert isinstance(error, WaiterFailureStateError)
    assert error.acceptor_index == 0
    text = str(error)
    assert "ResourceRunning" in text and "2 attempts" in text and "'Stopped'" in text


def test_unmatched_error_is_chained() -> None:
    error = run(SCENARIOS["thing: an unmodeled error fails"], "async").error
    assert isinstance(error, WaiterOperationError)
    assert isinstance(error.__cause__, ServiceError)
    assert error.error_code == "ValidationException"
    assert "ValidationException" in str(error)


def test_a_compiled_path_that_fails_at_run_time_does_not_match() -> None:
    """The generator's compiled functions raise JMESPathEvaluationError; that is "no match"."""
    from dataclasses import replace

    from waitable import Acceptor, Comparator, OutputMatcher
    from waitable.jmespath_runtime import JMESPathEvaluationError

    def failing_search(data: Any) -> Any:
        if "groups" not in data:
            raise JMESPathEvaluationError("invalid-type", "length() got null")
        return len(data["groups"]) > 0

    acceptor = Acceptor(
        SUCCESS,
        OutputMatcher(
            "length(groups) > `0`",
            "true",
            Comparator.BOOLEAN_EQUALS,
            search=failing_search,
        ),
    )
    definition = replace(THING_EXISTS, acceptors=(acceptor,))
    for driver in DRIVERS:
        outcome = DRIVERS[driver](definition, [{}, {"groups": ["g"]}], max_wait_time=60)
        assert states(outcome) == [RETRY, SUCCESS]


def test_an_interpreted_path_the_jmespath_package_rejects_at_run_time_does_not_match() -> (
    None
):
    """jmespath raises a bare ValueError for a zero slice step; that is "no match" too."""
    from dataclasses import replace

    from waitable import Acceptor, Comparator, OutputMatcher

    zero_step = Acceptor(
        SUCCESS, OutputMatcher("items[::0]", "x", Comparator.ANY_STRING_EQUALS)
    )
    status = Acceptor(
        SUCCESS, OutputMatcher("status", "success", Comparator.STRING_EQUALS)
    )
    definition = replace(THING_EXISTS, acceptors=(zero_step, status))
    outputs = [{"items": ["x"]}, {"items": ["x"], "status": "success"}]
    for driver in DRIVERS:
        outcome = DRIVERS[driver](definition, outputs, max_wait_time=60)
        assert states(outcome) == [RETRY, SUCCESS]

"""The waiter classes: construction, per-call settings checked before any request, clients."""

from __future__ import annotations

import math
import random
import warnings
from typing import Any

import pytest

from waitable import (
    Waiter,
    WaiterConfigurationError,
    WaiterError,
    WaiterMaxAttemptsError,
    WaiterResult,
)
from waitable.testing import VirtualClock

from .harness import RETRY, SUCCESS, THING_EXISTS, Script, Step, run_sync, waiter_class

PENDING = {"status": "pending"}
DONE = {"status": "success"}


def never_called(input: Any) -> Any:
    raise AssertionError("no request may be made")


def thing_waiter(client: Any = never_called, **kwargs: Any) -> Any:
    return waiter_class(THING_EXISTS)(client, clock=VirtualClock(), **kwargs)


def test_max_wait_time_is_required() -> None:
    """Per call or from the waiter's WaiterConfig; with neither, a clear error, no request."""
    with pytest.raises(WaiterConfigurationError, match="WaiterConfig"):
        thing_waiter().wait({})
    with pytest.raises(
        WaiterConfigurationError, match="max_wait_time is required"
    ) as info:
        thing_waiter().wait({}, max_wait_time=None)
    assert "ThingExists" in str(info.value) and "max_wait_time=300" in str(info.value)


@pytest.mark.parametrize("bad", [0, -5, math.inf, math.nan, "300", True])
def test_max_wait_time_must_be_positive_and_finite(bad: Any) -> None:
    with pytest.raises(
        WaiterConfigurationError, match="waiter ThingExists: max_wait_time must be"
    ):
        thing_waiter().wait({}, max_wait_time=bad)


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"min_delay": 0}, "min_delay must be a positive"),
        ({"max_delay": -1}, "max_delay must be a positive"),
        ({"max_delay": 1}, "min_delay 2 is greater than max_delay 1"),
        ({"min_delay": 200}, "min_delay 200 is greater than max_delay 120"),
        ({"max_attempts": 0}, "max_attempts must be an integer >= 1"),
        ({"max_attempts": 2.5}, "max_attempts must be an integer >= 1"),
        ({"backoff": 5}, "backoff must be a strategy"),
    ],
)
def test_overrides_are_validated_before_any_request(
    overrides: dict[str, Any], message: str
) -> None:
    with pytest.raises(WaiterConfigurationError, match=message):
        thing_waiter().wait({}, max_wait_time=60, **overrides)


def test_max_attempts_says_how_much_time_it_left_unused() -> None:
    """aws-sdk-java-v2#5838: a max_attempts that cuts max_wait_time short says so."""
    run = run_sync(THING_EXISTS, [PENDING], max_wait_time=600, max_attempts=3)
    error = run.error
    assert isinstance(error, WaiterMaxAttemptsError)
    assert error.result.attempts == 3 and len(run.calls) == 3
    assert [a.started_at for a in error.result.history] == [0, 2, 4]  # seed 7
    assert error.remaining == 600 - 4
    text = str(error)
    assert "max_attempts=3" in text and "max_wait_time=600s" in text
    assert "596.0s of max_wait_time=600s still left" in text


def test_max_attempts_does_not_stop_a_success_on_the_last_attempt() -> None:
    run = run_sync(
        THING_EXISTS, [PENDING, PENDING, DONE], max_wait_time=600, max_attempts=3
    )
    assert run.error is None and run.outcome.attempts == 3


def test_per_call_delays_override_the_definition() -> None:
    run = run_sync(
        THING_EXISTS, [PENDING] * 3 + [DONE], max_wait_time=60, min_delay=5, max_delay=5
    )
    assert [a.started_at for a in run.outcome.history] == [0, 5, 10, 15]


def test_deprecated_waiters_warn_at_the_callers_line() -> None:
    from dataclasses import replace

    cls = waiter_class(replace(THING_EXISTS, deprecated=True))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        cls(lambda _: DONE)
    (warning,) = caught
    assert warning.category is DeprecationWarning
    assert warning.filename == __file__
    assert "ThingExists" in str(warning.message) and "deprecated" in str(
        warning.message
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        waiter_class(THING_EXISTS)(lambda _: DONE)  # not deprecated: silent


class Boto3StyleClient:
    def __init__(self) -> None:
        self.calls: list[dict[str, Any]] = []

    def get_thing(self, **kwargs: Any) -> dict[str, Any]:
        self.calls.append(kwargs)
        return {"status": "success", "ResponseMetadata": {"RequestId": "r"}}


def boto3_waiter(client: Any) -> Any:
    cls = type(
        "ThingExistsWaiter",
        (Waiter,),
        {"definition": THING_EXISTS, "operation_method": "get_thing"},
    )
    return cls(client, clock=VirtualClock())


def test_a_boto3_style_client_gets_keyword_arguments_and_the_raw_output_comes_back() -> (
    None
):
    client = Boto3StyleClient()
    result = boto3_waiter(client).wait({"name": "t"}, max_wait_time=10)
    assert client.calls == [{"name": "t"}]
    assert result.output == {
        "status": "success",
        "ResponseMetadata": {"RequestId": "r"},
    }


def test_a_boto3_style_client_needs_a_mapping_input() -> None:
    client = Boto3StyleClient()
    with pytest.raises(
        WaiterConfigurationError, match="must be a mapping of its parameters"
    ):
        boto3_waiter(client).wait(["name"], max_wait_time=10)
    assert client.calls == []


def test_a_client_that_cannot_be_called_is_refused_at_construction() -> None:
    with pytest.raises(
        WaiterConfigurationError, match="needs a client with a `get_thing` method"
    ):
        boto3_waiter(object())


def test_a_class_without_a_definition_is_refused() -> None:
    with pytest.raises(TypeError, match="must set the class variable"):
        Waiter(lambda _: None)


def test_retry_on_must_be_exception_types() -> None:
    with pytest.raises(
        WaiterConfigurationError, match="retry_on must be a tuple of exception types"
    ):
        thing_waiter(retry_on=[ConnectionError])
    with pytest.raises(WaiterConfigurationError, match="retry_on"):
        thing_waiter(retry_on=(str,))


def test_the_invoker_seam_decides_how_the_client_is_called() -> None:
    seen: list[tuple[Any, str, str]] = []

    def invoker(client: Any, method: str, waiter: str) -> Any:
        seen.append((client, method, waiter))
        return lambda input: {"status": client[input["name"]]}

    cls = waiter_class(THING_EXISTS)
    result = cls({"t": "success"}, clock=VirtualClock(), invoker=invoker).wait(
        {"name": "t"}, max_wait_time=5
    )
    assert result.state is SUCCESS
    assert seen == [({"t": "success"}, "call_operation", "ThingExists")]


def test_the_result_holds_the_whole_history() -> None:
    clock = VirtualClock()
    script = Script(
        clock,
        [
            Step(error=KeyError("boom"), latency=1),
            Step(output=PENDING, latency=2),
            Step(output=DONE, latency=0.5),
        ],
    )
    result: WaiterResult[Any] = waiter_class(THING_EXISTS)(
        script, clock=clock, rng=random.Random(0), retry_on=(KeyError,)
    ).wait({}, max_wait_time=60)
    assert result.waiter == "ThingExists"
    assert result.state is SUCCESS and result.attempts == 3 and result.output is DONE
    first, second, third = result.history
    assert (first.number, first.started_at, first.delay, first.duration) == (1, 0, 0, 1)
    assert (first.state, first.acceptor_index, first.output, first.error_type) == (
        RETRY,
        None,
        None,
        "KeyError",
    )
    assert (second.started_at, second.delay, second.output, second.error_type) == (
        3,
        2,
        PENDING,
        None,
    )
    assert (third.state, third.acceptor_index) == (SUCCESS, 1)
    assert result.elapsed == third.started_at + 0.5 == clock.now()
    assert result.last_attempt is third


class RecordingClock(VirtualClock):
    """Records, for every sleep, the time left before a given deadline."""

    def __init__(self, deadline: float) -> None:
        super().__init__()
        self.deadline = deadline
        self.margins: list[float] = []

    def sleep(self, seconds: float) -> None:
        self.margins.append(self.deadline - self.now() - seconds)
        super().sleep(seconds)


@pytest.mark.parametrize("seed", range(20))
def test_the_sync_driver_never_sleeps_past_the_deadline(seed: int) -> None:
    clock = RecordingClock(deadline=100)
    rng = random.Random(seed)
    script = Script(
        clock, [Step(output=PENDING, latency=rng.uniform(0, 9)) for _ in range(30)]
    )
    waiter = waiter_class(THING_EXISTS)(script, clock=clock, rng=random.Random(seed))
    with pytest.raises(WaiterError):
        waiter.wait({}, max_wait_time=100)
    assert len(clock.margins) >= 3
    assert min(clock.margins) >= -1e-9
    assert clock.margins[-1] == pytest.approx(
        0
    )  # the last delay ends exactly at the deadline

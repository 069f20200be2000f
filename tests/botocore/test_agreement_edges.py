"""Responses `test_agreement.py`'s generator does not make, against botocore's `Waiter`:
outputs whose `Error` lacks a `Code` or has an empty one, `ResponseMetadata` that is
missing or holds the status as a float, and service errors without metadata or with
an empty code. Every installed waiter must end in botocore's state after the same
number of calls.

A `ClientError` whose response has no `Error.Code` is judged as a plain response
(its path matchers run, and with none matching the wait polls again), as botocore
judges it; an exception that is no `ClientError` is judged by no botocore acceptor
(botocore lets it out of `wait()`; waitable fails the wait on it).
"""

from __future__ import annotations

import random
from typing import Any

import botocore.waiter
import pytest
from botocore.exceptions import ClientError, ParamValidationError

from waitable import WaiterError, WaiterMaxAttemptsError, WaiterTimeoutError
from waitable.botocore_waiters import available_services, translate_waiter, waiter_class
from waitable.testing import VirtualClock

from botocore_responses import ResponseGenerator
from test_agreement import _botocore_run, _loader, _Script

SEED = 20261124
RUNS_PER_WAITER = 12


def _ours(cls: Any, outcomes: list[Any], attempts: int) -> tuple[str, int]:
    script = _Script(outcomes)
    client = type("Client", (), {cls.operation_method: staticmethod(script)})()
    try:
        cls(client, clock=VirtualClock()).wait(
            {}, max_attempts=attempts, max_wait_time=10.0**6
        )
        state = "success"
    except (WaiterTimeoutError, WaiterMaxAttemptsError):
        state = "exhausted"
    except WaiterError:
        state = "failure"
    return state, script.calls


def _odd_output(generator: ResponseGenerator, rng: random.Random) -> dict[str, Any]:
    output = generator.output()
    roll = rng.random()
    if roll < 0.3:
        output["Error"] = rng.choice(
            [{"Message": "m"}, {"Code": ""}, {"Code": None}, {}]
        )
    elif roll < 0.6:
        output["ResponseMetadata"] = rng.choice(
            [{}, {"HTTPStatusCode": 200.0}, {"HTTPStatusCode": "200"}]
        )
    return output


def _odd_error(generator: ResponseGenerator, rng: random.Random) -> ClientError:
    response: dict[str, Any] = {
        "Error": {"Code": rng.choice(generator.codes), "Message": "m"},
        "ResponseMetadata": {"HTTPStatusCode": rng.choice(generator.statuses)},
    }
    if rng.random() < 0.5:
        del response["ResponseMetadata"]
    else:
        response["Error"]["Code"] = ""
    return ClientError(response, "Operation")  # type: ignore[arg-type]


@pytest.mark.parametrize("service", available_services())
def test_odd_responses_end_as_botocore_ends_them(service: str) -> None:
    document = _loader.load_service_model(service, "waiters-2")
    for name, config in sorted(document["waiters"].items()):
        cls = waiter_class(service, name)
        rng = random.Random(f"{SEED}:{service}:{name}")
        generator = ResponseGenerator(config, rng)
        for _ in range(RUNS_PER_WAITER):
            outcomes = [
                (
                    _odd_error(generator, rng)
                    if rng.random() < 0.3
                    else _odd_output(generator, rng)
                )
                for _ in range(rng.randint(1, 3))
            ]
            theirs = _botocore_run(name, document, outcomes, len(outcomes))
            if theirs[0] == "raised":
                continue  # botocore let a path's type error out (documented)
            ours = _ours(cls, outcomes, len(outcomes))
            assert ours == theirs, (service, name, outcomes)


def _synthetic(acceptors: list[dict[str, Any]]) -> tuple[Any, dict[str, Any]]:
    config = {"operation": "Op", "delay": 5, "maxAttempts": 3, "acceptors": acceptors}
    waiter = translate_waiter("svc", "Synthetic", config, botocore.xform_name)
    cls = type(
        "SyntheticWaiter",
        (waiter_class("s3", "BucketExists").__mro__[1],),
        {
            "definition": waiter.definition,
            "operation_method": "op",
            "botocore_max_attempts": 3,
        },
    )
    return cls, {"version": 2, "waiters": {"Synthetic": config}}


def test_client_error_without_a_code_is_polled_again_as_botocore_does() -> None:
    cls, document = _synthetic(
        [{"matcher": "path", "argument": "State", "expected": "ok", "state": "success"}]
    )
    error = ClientError({"Error": {"Message": "m"}}, "Op")  # type: ignore[typeddict-item]
    outcomes: list[Any] = [error, {"State": "ok"}]
    assert _botocore_run("Synthetic", document, outcomes, 2) == ("success", 2)
    assert _ours(cls, outcomes, 2) == ("success", 2)


def test_error_true_does_not_match_an_exception_botocore_lets_out() -> None:
    cls, document = _synthetic(
        [{"matcher": "error", "expected": True, "state": "retry"}]
    )
    calls: list[int] = []

    def op(**kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) == 1:
            raise ParamValidationError(report="bad")
        return {}

    with pytest.raises(ParamValidationError):
        botocore.waiter.Waiter(
            "Synthetic",
            botocore.waiter.WaiterModel(document).get_waiter("Synthetic"),
            botocore.waiter.NormalizedOperationMethod(op),
        ).wait()
    assert len(calls) == 1
    # ours takes it for "any error" and polls again instead of failing at once
    calls.clear()
    client = type("Client", (), {"op": staticmethod(op)})()
    with pytest.raises(WaiterError):
        cls(client, clock=VirtualClock()).wait({}, max_wait_time=100.0)
    assert len(calls) == 1

"""Every waiter of the installed botocore: ours and botocore's `Waiter` agree.

For each waiter, seeded sequences of outputs and errors built from its own
acceptors (`responses.py`) are answered to both botocore's `Waiter.wait` (sleep
patched out) and our class from `waitable.botocore_waiters` (on a
`VirtualClock`); both must end in the same state (success, failure, attempts
exhausted) after the same number of calls.
"""

from __future__ import annotations

import random
from typing import Any
from unittest import mock

import botocore.session
import botocore.waiter
import pytest
from botocore.exceptions import ClientError
from botocore.exceptions import WaiterError as BotocoreWaiterError
from jmespath.exceptions import JMESPathError

from waitable import WaiterError, WaiterMaxAttemptsError, WaiterTimeoutError
from waitable.botocore_waiters import available_services, waiter_class
from waitable.testing import VirtualClock

from botocore_responses import ResponseGenerator

SEQUENCES_PER_WAITER = 8
SEED = 20261123

_session = botocore.session.get_session()
_loader = _session.get_component("data_loader")


class _Script:
    """Answers calls from a list of outcomes (repeating the last), counting them."""

    def __init__(self, outcomes: list[Any]) -> None:
        self.outcomes = outcomes
        self.calls = 0

    def __call__(self, **kwargs: Any) -> Any:
        outcome = self.outcomes[min(self.calls, len(self.outcomes) - 1)]
        self.calls += 1
        if isinstance(outcome, ClientError):
            raise outcome
        return outcome


def _botocore_run(
    name: str, document: Any, outcomes: list[Any], attempts: int
) -> tuple[str, int]:
    script = _Script(outcomes)
    config = botocore.waiter.WaiterModel(document).get_waiter(name)
    waiter = botocore.waiter.Waiter(
        name, config, botocore.waiter.NormalizedOperationMethod(script)
    )
    with mock.patch.object(botocore.waiter.time, "sleep"):
        try:
            waiter.wait(WaiterConfig={"MaxAttempts": attempts})
            state = "success"
        except BotocoreWaiterError as exc:
            exhausted = str(exc).find("Max attempts exceeded") >= 0
            state = "exhausted" if exhausted else "failure"
        except JMESPathError:
            state = "raised"  # botocore lets a path's type error out of wait()
    return state, script.calls


def _our_run(
    cls: Any, operation_method: str, outcomes: list[Any], wait_time: float
) -> tuple[str, int]:
    script = _Script(outcomes)
    client = type("Client", (), {operation_method: staticmethod(script)})()
    waiter = cls(client, clock=VirtualClock())
    try:
        waiter.wait({}, max_wait_time=wait_time)
        state = "success"
    except (WaiterTimeoutError, WaiterMaxAttemptsError):
        state = "exhausted"
    except WaiterError:
        state = "failure"
    return state, script.calls


def _cases() -> list[tuple[str, str]]:
    return [
        (service, name)
        for service in available_services()
        for name in sorted(_loader.load_service_model(service, "waiters-2")["waiters"])
    ]


@pytest.mark.parametrize("service", available_services())
def test_every_waiter_agrees_with_botocore(service: str) -> None:
    document = _loader.load_service_model(service, "waiters-2")
    checked = 0
    raised: list[tuple[str, int]] = []
    for name, config in sorted(document["waiters"].items()):
        cls = waiter_class(service, name)
        rng = random.Random(f"{SEED}:{service}:{name}")
        generator = ResponseGenerator(config, rng)
        delay = config["delay"]
        runs: list[tuple[list[Any], int]] = []
        for _ in range(SEQUENCES_PER_WAITER):
            pool = generator.outcomes(3)
            attempts = rng.randint(2, 5)
            runs.append(([rng.choice(pool) for _ in range(attempts)], attempts))
        # botocore's own maxAttempts, reached with our default max_wait_time.
        runs.append((generator.outcomes(1), config["maxAttempts"]))
        for outcomes, attempts in runs:
            theirs = _botocore_run(name, document, outcomes, attempts)
            if attempts == config["maxAttempts"]:
                ours = _our_run(
                    cls,
                    cls.operation_method,
                    outcomes,
                    cls.botocore_waiter.default_max_wait_time,
                )
            else:
                ours = _our_run(cls, cls.operation_method, outcomes, delay * attempts)
            if theirs[0] == "raised":
                # Documented difference: a path that fails on the data does not
                # match here (the next acceptor decides), so we poll on at least
                # as long as botocore did before it raised.
                assert ours[1] >= theirs[1], (service, name, outcomes, attempts)
                raised.append((name, theirs[1]))
            else:
                assert ours == theirs, (service, name, outcomes, attempts)
            checked += 1
    assert checked == len(document["waiters"]) * (SEQUENCES_PER_WAITER + 1)
    # Most runs must be exact agreements, not the documented difference.
    assert len(raised) <= checked // 2, raised


#: A successful call whose output holds `Error.Code` (location's GetJob reports a
#: failed job so): botocore's path matchers skip it and, with no acceptor
#: matching, `Waiter.wait` fails at once; ours polled on until the deadline.
ERROR_OUTPUT = {"Error": {"Code": "ValidationError", "Messages": ["bad row"]}}


@pytest.mark.parametrize("service", available_services())
def test_an_output_holding_an_error_ends_as_botocore_ends_it(service: str) -> None:
    document = _loader.load_service_model(service, "waiters-2")
    for name, config in sorted(document["waiters"].items()):
        cls = waiter_class(service, name)
        rng = random.Random(f"{SEED}:error-output:{service}:{name}")
        before = ResponseGenerator(config, rng).outcomes(1)
        for outcomes in ([ERROR_OUTPUT], [*before, ERROR_OUTPUT]):
            attempts = len(outcomes) + 1
            theirs = _botocore_run(name, document, outcomes, attempts)
            if theirs[0] == "raised":
                continue  # botocore let a path's type error out (see above)
            ours = _our_run(
                cls, cls.operation_method, outcomes, config["delay"] * attempts
            )
            assert ours == theirs, (service, name, outcomes)

"""Logging on the `waitable` logger and the `on_attempt` hook."""

from __future__ import annotations

import logging
import re
from typing import Any

import pytest

from waitable import Attempt

from .harness import DRIVERS, RETRY, SUCCESS, THING_EXISTS, ServiceError

STEPS = [{"status": "pending"}, {"status": "pending"}, {"status": "success"}]


@pytest.mark.parametrize("driver", sorted(DRIVERS))
def test_debug_per_attempt_and_info_for_the_outcome(
    driver: str, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.DEBUG, logger="waitable"):
        DRIVERS[driver](THING_EXISTS, STEPS, max_wait_time=60)
    records = [r for r in caplog.records if r.name == "waitable"]
    debug = [r.getMessage() for r in records if r.levelno == logging.DEBUG]
    info = [r.getMessage() for r in records if r.levelno == logging.INFO]
    assert len(debug) == 3
    assert debug[0].startswith("waiter ThingExists attempt 1 at 0.000s")
    assert "no acceptor matched -> retry" in debug[0]
    assert (
        "acceptor 1 (output path 'status' stringEquals 'success') matched -> success"
        in debug[2]
    )
    (message,) = info
    assert re.fullmatch(
        r"waiter ThingExists succeeded after 3 attempt\(s\) in \d+\.000s", message
    )


def test_failures_are_logged_at_info(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger="waitable"):
        DRIVERS["sync"](THING_EXISTS, [ServiceError("Throttling")], max_wait_time=60)
    (record,) = [r for r in caplog.records if r.name == "waitable"]
    assert record.levelno == logging.INFO and "raised Throttling" in record.getMessage()


@pytest.mark.parametrize("driver", sorted(DRIVERS))
def test_on_attempt_sees_every_attempt_as_it_happens(driver: str) -> None:
    seen: list[Attempt[Any]] = []
    run = DRIVERS[driver](
        THING_EXISTS, STEPS, max_wait_time=60, waiter_kwargs={"on_attempt": seen.append}
    )
    assert seen == list(run.outcome.history)
    assert [a.state for a in seen] == [RETRY, RETRY, SUCCESS]
    assert [a.number for a in seen] == [1, 2, 3]

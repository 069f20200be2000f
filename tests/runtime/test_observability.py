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


class _Collect(logging.Handler):
    """Keeps the messages of every record it is handed."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.messages: list[tuple[int, str]] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append((record.levelno, record.getMessage()))


class _OnCall(list[Any]):
    """Scripted steps that run `hooks[i]` when call `i` (0-based) reads its step."""

    def __init__(self, steps: list[Any], hooks: dict[int, Any]) -> None:
        super().__init__(steps)
        self.hooks = hooks

    def __getitem__(self, index: Any) -> Any:
        hook = self.hooks.pop(index, None)
        if hook is not None:
            hook()
        return super().__getitem__(index)


@pytest.mark.parametrize("driver", sorted(DRIVERS))
@pytest.mark.parametrize(
    "change, logged",
    [
        # DEBUG turned on during the second call: that poll and the next are logged
        # (the logger's remembered "not enabled" is forgotten when a level changes).
        ("enable", [2, 3]),
        # Turned off during the second call: only the first poll is logged.
        ("disable", [1]),
        # The logger disabled (as logging.config does) without a level change.
        ("disabled", [1]),
    ],
)
def test_a_change_of_log_level_during_a_wait_takes_effect_at_the_next_poll(
    driver: str, change: str, logged: list[int]
) -> None:
    logger = logging.getLogger("waitable")
    level, disabled = logger.level, logger.disabled
    handler = _Collect()
    logger.addHandler(handler)
    logger.setLevel(logging.INFO if change == "enable" else logging.DEBUG)

    def flip() -> None:
        if change == "enable":
            logger.setLevel(logging.DEBUG)
        elif change == "disable":
            logger.setLevel(logging.INFO)
        else:
            logger.disabled = True

    try:
        DRIVERS[driver](THING_EXISTS, _OnCall(STEPS, {1: flip}), max_wait_time=60)
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
        logger.disabled = disabled
    attempts = [
        int(message.split(" attempt ")[1].split()[0])
        for levelno, message in handler.messages
        if levelno == logging.DEBUG
    ]
    assert attempts == logged

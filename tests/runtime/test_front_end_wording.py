"""The engine's messages name the front end a wait runs for (`waitable.wording`).

A `Poller`'s errors and log lines said "waiter NAME" and gave a waiter's advice:
a cancelled `poll()` raised "waiter click_saved was cancelled (its cancel event
was set, or cancel_saved / cancel_wait ended it ...)", APIs a poller lacks, and
its INFO lines spoke of acceptors and max_wait_time. They now say "poller NAME"
with a poller's words (timeout, retry_on, the check), and
`StandardRetryStrategy.retry`'s DEBUG lines name it, not "waiter retry". A
waiter's texts are pinned below exactly as they were before the change: tests,
the `waitable wait` CLI's rewrites and users' log filters match on them.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import random
import re
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from waitable import WaiterCancelledError, WaiterConfigurationError, WaiterError
from waitable.errors import WaiterMaxAttemptsError
from waitable.poller import Poller, PollerState, PollStatus, RetriesExhaustedError
from waitable.retry import (
    RetryStrategyError,
    StandardRetryPolicy,
    StandardRetryStrategy,
)
from waitable.results import WaiterResult
from waitable.testing import VirtualClock
from waitable.wording import WAITER, Wording

from .harness import FAILURE, THING_EXISTS, Script, waiter_class

#: What no message of a poller may say: a waiter's noun and the APIs, options and
#: concepts of a waiter that a poller does not have.
NOT_A_POLLERS = (
    "waiter",
    "cancel_saved",
    "cancel_wait",
    "acceptor",
    "max_wait_time",
    "retry=",
    "the operation",
)


@contextmanager
def logged() -> Iterator[list[str]]:
    """The `waitable` logger's lines (DEBUG and up) while the block runs."""
    lines: list[str] = []

    class Grab(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append(f"{record.levelname} {record.getMessage()}")

    logger = logging.getLogger("waitable")
    handler, level = Grab(logging.DEBUG), logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    try:
        yield lines
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)


# -- waiters: their texts are unchanged ------------------------------------------

PENDING, DONE, FAILED = (
    {"status": "pending"},
    {"status": "success"},
    {"status": "failed"},
)

#: Representative waits of a generated waiter: (scripted replies, wait options).
WAITS: dict[str, tuple[list[Any], dict[str, Any]]] = {
    "success": ([PENDING, DONE], {"max_wait_time": 600}),
    "failure": ([PENDING, FAILED], {"max_wait_time": 600}),
    "max_attempts": ([PENDING], {"max_wait_time": 600, "max_attempts": 2}),
    "timeout": ([PENDING], {"max_wait_time": 30}),
    "cancel": ([PENDING], {"max_wait_time": 600, "cancel": True}),
    "error": ([KeyError("x")], {"max_wait_time": 600}),
    "transport": ([ConnectionError("x")], {"max_wait_time": 600}),
    "retried": ([ConnectionError("x")], {"max_wait_time": 600, "retry": 2}),
}

#: The texts of `WAITS` as the engine wrote them before it took its words from
#: the plan's `Wording` (captured from the previous commit); they must not change.
WAITER_TEXTS: dict[str, list[str]] = {
    "success": [
        "DEBUG waiter ThingExists attempt 1 at 0.000s (after 0.000s delay, took 0.000s, 0 retries): output; no acceptor matched -> retry",
        "DEBUG waiter ThingExists attempt 2 at 2.000s (after 2.000s delay, took 0.000s, 0 retries): output; acceptor 1 (output path 'status' stringEquals 'success') matched -> success",
        "INFO waiter ThingExists succeeded after 2 attempt(s) in 2.000s",
    ],
    "failure": [
        "DEBUG waiter ThingExists attempt 1 at 0.000s (after 0.000s delay, took 0.000s, 0 retries): output; no acceptor matched -> retry",
        "DEBUG waiter ThingExists attempt 2 at 2.000s (after 2.000s delay, took 0.000s, 0 retries): output; acceptor 0 (output path 'status' stringEquals 'failed') matched -> failure",
        "INFO waiter ThingExists reached a failure state (acceptor 0, output path 'status' stringEquals 'failed') after 2 attempts in 2.0s, last state failure",
        "RAISED waiter ThingExists reached a failure state (acceptor 0, output path 'status' stringEquals 'failed') after 2 attempts in 2.0s, last state failure",
    ],
    "max_attempts": [
        "DEBUG waiter ThingExists attempt 1 at 0.000s (after 0.000s delay, took 0.000s, 0 retries): output; no acceptor matched -> retry",
        "DEBUG waiter ThingExists attempt 2 at 2.000s (after 2.000s delay, took 0.000s, 0 retries): output; no acceptor matched -> retry",
        "INFO waiter ThingExists gave up: max_attempts=2 reached after 2 attempts in 2.0s, last state retry, with 598.0s of max_wait_time=600s still left; raise max_attempts to use the whole max_wait_time",
        "RAISED waiter ThingExists gave up: max_attempts=2 reached after 2 attempts in 2.0s, last state retry, with 598.0s of max_wait_time=600s still left; raise max_attempts to use the whole max_wait_time",
    ],
    "timeout": [
        "DEBUG waiter ThingExists attempt 1 at 0.000s (after 0.000s delay, took 0.000s, 0 retries): output; no acceptor matched -> retry",
        "DEBUG waiter ThingExists attempt 2 at 2.000s (after 2.000s delay, took 0.000s, 0 retries): output; no acceptor matched -> retry",
        "DEBUG waiter ThingExists attempt 3 at 6.000s (after 4.000s delay, took 0.000s, 0 retries): output; no acceptor matched -> retry",
        "DEBUG waiter ThingExists attempt 4 at 12.000s (after 6.000s delay, took 0.000s, 0 retries): output; no acceptor matched -> retry",
        "DEBUG waiter ThingExists attempt 5 at 16.000s (after 4.000s delay, took 0.000s, 0 retries): output; no acceptor matched -> retry",
        "DEBUG waiter ThingExists attempt 6 at 30.000s (after 14.000s delay, took 0.000s, 0 retries): output; no acceptor matched -> retry",
        "INFO waiter ThingExists timed out: no acceptor reached success or failure by the deadline (max_wait_time=30s) after 6 attempts in 30.0s, last state retry; pass a larger max_wait_time to wait longer",
        "RAISED waiter ThingExists timed out: no acceptor reached success or failure by the deadline (max_wait_time=30s) after 6 attempts in 30.0s, last state retry; pass a larger max_wait_time to wait longer",
    ],
    "cancel": [
        "INFO waiter ThingExists was cancelled (its cancel event was set, or cancel_saved / cancel_wait ended it between polls) after 0 attempts in 0.0s, no response",
        "RAISED waiter ThingExists was cancelled (its cancel event was set, or cancel_saved / cancel_wait ended it between polls) after 0 attempts in 0.0s, no response",
    ],
    "error": [
        "DEBUG waiter ThingExists attempt 1 at 0.000s (after 0.000s delay, took 0.000s, 0 retries): error KeyError; no acceptor matched -> failure",
        "INFO waiter ThingExists stopped: the operation raised KeyError, which no acceptor matches, after 1 attempt in 0.0s, last error KeyError; an error that no acceptor matches ends the wait (the spec's implicit failure); check the input, or pass retry_on= to retry this error type",
        "RAISED waiter ThingExists stopped: the operation raised KeyError, which no acceptor matches, after 1 attempt in 0.0s, last error KeyError; an error that no acceptor matches ends the wait (the spec's implicit failure); check the input, or pass retry_on= to retry this error type",
    ],
    "transport": [
        "DEBUG waiter ThingExists attempt 1 at 0.000s (after 0.000s delay, took 0.000s, 0 retries): error ConnectionError; no acceptor matched -> failure",
        "INFO waiter ThingExists stopped: the operation raised ConnectionError, which acceptors do not judge, after 1 attempt in 0.0s, last error ConnectionError; ConnectionError is a transport error, not a service error; pass retry_on=(ConnectionError,) to retry it, or retry= a waitable.retry.StandardRetryStrategy() to retry it with backoff",
        "RAISED waiter ThingExists stopped: the operation raised ConnectionError, which acceptors do not judge, after 1 attempt in 0.0s, last error ConnectionError; ConnectionError is a transport error, not a service error; pass retry_on=(ConnectionError,) to retry it, or retry= a waitable.retry.StandardRetryStrategy() to retry it with backoff",
    ],
    "retried": [
        "DEBUG waiter ThingExists attempt 1: try 1 raised ConnectionError (ServerSide); retry 2 after a 0.238s backoff",
        "DEBUG waiter ThingExists attempt 1: try 2 raised ConnectionError (ServerSide); not retried (max_attempts)",
        "DEBUG waiter ThingExists attempt 1 at 0.238s (after 0.000s delay, took 0.000s, 1 retries): error ConnectionError; no acceptor matched -> failure",
        "INFO waiter ThingExists stopped: the operation raised ConnectionError, which acceptors do not judge, after 1 attempt in 0.2s, last error ConnectionError; ConnectionError is a transport error, not a service error; the retries of this poll's call stopped at the retry strategy's max_attempts: 2 tries (1 retry) failed; raise max_attempts, or look at why every try failed",
        "RAISED waiter ThingExists stopped: the operation raised ConnectionError, which acceptors do not judge, after 1 attempt in 0.2s, last error ConnectionError; ConnectionError is a transport error, not a service error; the retries of this poll's call stopped at the retry strategy's max_attempts: 2 tries (1 retry) failed; raise max_attempts, or look at why every try failed",
    ],
}


def waiter_texts(steps: list[Any], options: dict[str, Any]) -> list[str]:
    """Every log line of one wait of a generated waiter, then its error's text."""
    options = dict(options)
    clock, cancel = VirtualClock(), threading.Event()
    if options.pop("cancel", False):
        cancel.set()
    extra: dict[str, Any] = {}
    if "retry" in options:
        extra["retry"] = StandardRetryStrategy(
            max_attempts=options.pop("retry"),
            token_bucket=None,
            rng=random.Random(1),
            clock=clock,
        )
    waiter = waiter_class(THING_EXISTS)(
        Script(clock, steps), clock=clock, rng=random.Random(3), **extra
    )
    with logged() as lines:
        try:
            waiter.wait({}, cancel=cancel, **options)
        except WaiterError as error:
            lines.append(f"RAISED {error}")
    return lines


@pytest.mark.parametrize("case", sorted(WAITS))
def test_a_waiters_messages_and_log_lines_are_unchanged(case: str) -> None:
    steps, options = WAITS[case]
    assert waiter_texts(steps, options) == WAITER_TEXTS[case]


def test_the_error_classes_word_as_a_waiter_unless_told_otherwise() -> None:
    result: WaiterResult[Any] = WaiterResult("W", FAILURE, None, 0, 0.0, ())
    assert WAITER.owner("W") == "waiter W"
    assert str(WaiterCancelledError(result)) == str(
        WaiterCancelledError(result, WAITER)
    )
    assert str(WaiterCancelledError(result)).startswith("waiter W was cancelled")
    poller = Wording("poller", cancelled_by="its cancel event was set")
    assert str(WaiterCancelledError(result, poller)) == (
        "poller W was cancelled (its cancel event was set) after 0 attempts in 0.0s, "
        "no response"
    )


# -- pollers: every ending says "poller" and names only a poller's APIs -----------


def answers(*script: Any) -> Callable[[], Any]:
    """A check giving `script`'s answers in turn (the last repeats); an exception
    class in it is raised."""
    given = list(script)

    def click_saved() -> Any:
        answer = given.pop(0) if len(given) > 1 else given[0]
        if isinstance(answer, type) and issubclass(answer, Exception):
            raise answer("the check failed")
        return answer

    return click_saved


def run_poller(poller: Poller[Any], mode: str, clock: VirtualClock) -> PollerState:
    """Run `poller` to its end with one of its four polling methods."""
    if mode == "poll":
        return poller.poll()
    if mode == "poll_async":
        return asyncio.run(poller.poll_async())
    while True:
        if mode == "poll_once":
            state = poller.poll_once()
        else:
            state = asyncio.run(poller.poll_once_async())
        if state.status is not PollStatus.ATTEMPT_FAILED:
            return state
        assert state.next_delay is not None
        clock.advance(state.next_delay)


def poller_texts(
    check: Callable[[], Any], mode: str = "poll", **options: Any
) -> tuple[list[str], PollerState | BaseException]:
    """The log lines of one poller session and how it ended (its final state, or
    what it raised), with the text of an engine error it raised and of
    `poll_or_raise`'s error when it failed."""
    clock = VirtualClock()
    poller = Poller(check, clock=clock, name="click_saved", **options)
    with logged() as lines:
        try:
            ended: PollerState | BaseException = run_poller(poller, mode, clock)
        except WaiterError as error:
            ended = error
            lines.append(f"RAISED {error}")
        except Exception as error:  # the check's own, propagated as seed 002 does
            ended = error
    if isinstance(ended, PollerState) and not ended.fulfilled:
        with pytest.raises(RetriesExhaustedError) as exhausted:
            poller.poll_or_raise()
        lines.append(f"RAISED {exhausted.value}")
    return lines, ended


def assert_a_pollers(lines: list[str]) -> None:
    """Every engine line names the poller; none speaks of a waiter's things."""
    for line in lines:
        for word in NOT_A_POLLERS:
            assert word not in line, line
        if not line.startswith("RAISED Tried"):  # RetriesExhaustedError: seed 002's
            assert "poller click_saved" in line, line


#: Each way a poller session ends: (check's answers, options, the engine's words
#: for the ending, expected in its INFO line).
ENDINGS: dict[str, tuple[tuple[Any, ...], dict[str, Any], str]] = {
    "success": (
        (False, True),
        {},
        "INFO poller click_saved succeeded after 2 attempt(s) in 0.010s",
    ),
    "judge_failure": (
        (False, ValueError),
        {},
        "INFO poller click_saved stopped: the check raised ValueError, which "
        "retry_on does not list, after 2 attempts in 0.0s, last error ValueError; "
        "an exception the check raises ends the poll; pass retry_on=(ValueError,) "
        "to count it as an unmet attempt",
    ),
    "max_attempts": (
        (False,),
        {"max_attempts": 2},
        "INFO poller click_saved gave up: max_attempts=2 reached after 2 attempts "
        "in 0.0s, last condition not met, with no timeout; raise max_attempts to "
        "keep polling",
    ),
    "max_attempts_function": (
        (False,),
        {"max_attempts": lambda state: state.attempt_num < 3},
        "INFO poller click_saved gave up: its max_attempts function said stop after "
        "3 attempts in 0.0s, last condition not met, with no timeout; have the "
        "max_attempts function allow more attempts to keep polling",
    ),
    "timeout": (
        (False,),
        {"delay": 1.0, "max_attempts": None, "timeout": 2.5},
        "INFO poller click_saved timed out: condition not met by the deadline "
        "(timeout=2.5s) after 4 attempts in 2.5s, last condition not met; pass a "
        "larger timeout to wait longer",
    ),
    "max_attempts_within_timeout": (
        (False,),
        {"delay": 1.0, "max_attempts": 2, "timeout": 10},
        "INFO poller click_saved gave up: max_attempts=2 reached after 2 attempts "
        "in 1.0s, last condition not met, with 9.0s of timeout=10s still left; "
        "raise max_attempts to use the whole timeout",
    ),
    "retry_on": (
        (ValueError,),
        {"max_attempts": 2, "retry_on": (ValueError,)},
        "INFO poller click_saved gave up: max_attempts=2 reached after 2 attempts "
        "in 0.0s, last error ValueError, with no timeout; raise max_attempts to "
        "keep polling",
    ),
}

MODES = ["poll", "poll_once", "poll_async", "poll_once_async"]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("ending", sorted(ENDINGS))
def test_every_ending_of_a_poller_says_poller(ending: str, mode: str) -> None:
    script, options, expected = ENDINGS[ending]
    lines, ended = poller_texts(answers(*script), mode, **options)
    assert expected in lines
    assert_a_pollers(lines)
    if ending == "judge_failure":  # the check's own exception, as seed 002 raises it
        assert isinstance(ended, ValueError)
    elif ending == "success":
        assert isinstance(ended, PollerState) and ended.fulfilled
    else:
        assert isinstance(ended, PollerState)
        assert ended.status is PollStatus.RETRIES_EXHAUSTED


def test_a_cancelled_poll_says_poller_and_names_no_step_api() -> None:
    cancel = threading.Event()
    cancel.set()
    poller = Poller(lambda: False, clock=VirtualClock(), name="click_saved")
    with logged() as lines, pytest.raises(WaiterCancelledError) as cancelled:
        poller.poll(cancel=cancel)
    assert str(cancelled.value) == (
        "poller click_saved was cancelled (its cancel event was set) after 0 "
        "attempts in 0.0s, no response"
    )
    assert lines == [f"INFO {cancelled.value}"]
    assert_a_pollers(lines)


def test_a_poller_cancelled_between_checks_says_poller() -> None:
    cancel = threading.Event()

    def click_saved() -> bool:
        cancel.set()
        return False

    poller = Poller(click_saved, clock=VirtualClock(), name="click_saved")
    with logged() as lines, pytest.raises(WaiterCancelledError) as cancelled:
        poller.poll(cancel=cancel)
    assert "poller click_saved was cancelled" in str(cancelled.value)
    assert "last condition not met" in str(cancelled.value)
    assert_a_pollers(lines + [str(cancelled.value)])


def test_a_pollers_bad_cancel_names_the_poller() -> None:
    poller = Poller(lambda: True, clock=VirtualClock(), name="click_saved")
    with pytest.raises(WaiterConfigurationError) as refused:
        poller.poll(cancel="soon")  # type: ignore[arg-type]
    assert str(refused.value).startswith("poller click_saved: cancel= takes")


def test_a_pollers_debug_lines_say_met_or_not_met_not_acceptors() -> None:
    lines, _ = poller_texts(answers(False, True))
    debug = [line for line in lines if line.startswith("DEBUG")]
    assert debug == [
        "DEBUG poller click_saved attempt 1 at 0.000s (after 0.000s delay, took "
        "0.000s, 0 retries): output; condition not met -> retry",
        "DEBUG poller click_saved attempt 2 at 0.010s (after 0.010s delay, took "
        "0.000s, 0 retries): output; condition met -> success",
    ]


@settings(max_examples=60, deadline=None)
@given(
    script=st.lists(st.sampled_from([True, False, ValueError]), min_size=1, max_size=5),
    max_attempts=st.one_of(st.none(), st.integers(1, 4)),
    timeout=st.one_of(st.none(), st.sampled_from([0.015, 0.05, 1.0])),
    retry_on=st.booleans(),
    mode=st.sampled_from(MODES),
)
def test_no_poller_message_speaks_of_a_waiter(
    script: list[Any],
    max_attempts: int | None,
    timeout: float | None,
    retry_on: bool,
    mode: str,
) -> None:
    if max_attempts is None and timeout is None:
        timeout = 1.0  # else a check never met polls forever
    lines, _ = poller_texts(
        answers(*script),
        mode,
        max_attempts=max_attempts,
        timeout=timeout,
        retry_on=(ValueError,) if retry_on else (),
    )
    assert lines
    assert_a_pollers(lines)


# -- StandardRetryStrategy.retry: no "waiter retry" in its DEBUG lines ------------


def flaky(failures: int) -> Callable[[], int]:
    """A block raising ConnectionError `failures` times, then returning 5."""
    calls = [0]

    def block() -> int:
        calls[0] += 1
        if calls[0] <= failures:
            raise ConnectionError("down")
        return 5

    return block


@pytest.mark.parametrize("failures", [0, 2, 5])
def test_retrys_log_lines_name_the_strategy_not_a_waiter(failures: int) -> None:
    strategy = StandardRetryStrategy(
        max_attempts=3, token_bucket=None, clock=VirtualClock(), rng=random.Random(1)
    )
    with logged() as lines:
        try:
            strategy.retry(StandardRetryPolicy(), flaky(failures))
        except RetryStrategyError as error:
            lines.append(f"RAISED {error}")
    assert lines
    for line in lines:
        assert "waiter" not in line and "acceptor" not in line, line
    engine = [line for line in lines if line.startswith("DEBUG")]
    assert engine and all(
        line.startswith("DEBUG StandardRetryStrategy.retry") for line in engine
    ), engine


def test_retry_async_log_lines_name_the_strategy_not_a_waiter() -> None:
    strategy = StandardRetryStrategy(
        max_attempts=3, token_bucket=None, clock=VirtualClock(), rng=random.Random(1)
    )
    block = flaky(1)

    async def run() -> int:
        async def attempt() -> int:
            return block()

        return await strategy.retry_async(StandardRetryPolicy(), attempt)

    with logged() as lines:
        assert asyncio.run(run()) == 5
    assert lines and not [line for line in lines if "waiter" in line], lines


def test_retrys_bad_cancel_names_the_strategy() -> None:
    strategy = StandardRetryStrategy(clock=VirtualClock())
    with pytest.raises(WaiterConfigurationError) as refused:
        strategy.retry(StandardRetryPolicy(), lambda: 1, cancel=3)  # type: ignore[arg-type]
    assert str(refused.value).startswith("StandardRetryStrategy.retry: cancel= takes")


def test_a_poll_once_made_after_the_timeout_says_check_not_poll() -> None:
    clock = VirtualClock()
    poller = Poller(
        lambda: False, timeout=1, max_attempts=None, clock=clock, name="click_saved"
    )
    with logged() as lines:
        assert poller.poll_once().status is PollStatus.ATTEMPT_FAILED
        clock.advance(5)  # the caller's scheduler came back late
        assert poller.poll_once().status is PollStatus.RETRIES_EXHAUSTED
    assert lines[-1] == (
        "INFO poller click_saved timed out: the next check could only start after "
        "the deadline, so it was not made (timeout=1s) after 1 attempt in 0.0s, "
        "last condition not met; pass a larger timeout to wait longer"
    )
    assert_a_pollers(lines)


def test_the_readmes_poller_log_line_is_what_a_poller_logs() -> None:
    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    quoted = re.search(r"`(poller click_saved\s+gave up:[^`]*)`", readme)
    assert quoted is not None
    line = " ".join(quoted.group(1).split())  # the README wraps it
    lines, _ = poller_texts(answers(False))  # seed 002's defaults: 5 attempts
    assert f"INFO {line}" in lines
